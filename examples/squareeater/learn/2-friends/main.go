// Command 2-friends is the second step of Slipway's learn-by-example guide
// (docs/learn/2-friends.md): green friends join the player, all of them
// kept in a Slipway world and drawn by systems.
package main

import (
	"flag"
	"fmt"
	"image/color"
	"log"
	"math"
	"math/rand/v2"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
	"github.com/slipway-ecs/slipway/ecs"
)

const screenWidth, screenHeight = 640, 480

var (
	blue  = color.RGBA{0, 0, 255, 255}
	green = color.RGBA{0, 200, 0, 255}
)

// Square is the shape of everything in the game.
type Square struct{ X, Y, Size float64 }

// Draw fills the square on dst.
func (s Square) Draw(dst *ebiten.Image, c color.Color) {
	vector.DrawFilledRect(dst, float32(s.X), float32(s.Y), float32(s.Size), float32(s.Size), c, false)
}

// Player is the square the mouse moves. There is one: it is a unique.
type Player struct{ Square }

// Friend is a component: every friend is an entity that has one.
type Friend struct{ Square }

// newFriend returns a small friend somewhere in the window.
func newFriend() Friend {
	return Friend{Square{
		X:    rng.Float64() * (screenWidth - 5),
		Y:    rng.Float64() * (screenHeight - 5),
		Size: 5,
	}}
}

// rng draws the game's random numbers.
var rng *rand.Rand

// Game is what Ebitengine runs: Update 60 times a second, Draw once a frame.
type Game struct {
	world *ecs.World
}

func (g *Game) Update() error {
	if err := g.world.Run(movePlayer); err != nil {
		return err
	}
	return nextFrame()
}

func (g *Game) Draw(screen *ebiten.Image) {
	screen.Fill(color.White)
	draw := func(player ecs.UniqueView[Player], friends ecs.View[Friend]) {
		for f := range friends.All() {
			f.Draw(screen, green)
		}
		player.Get().Draw(screen, blue)
	}
	if err := g.world.Run(draw); err != nil {
		panic(err)
	}
}

func (g *Game) Layout(int, int) (int, int) { return screenWidth, screenHeight }

// movePlayer puts the player's square under the pointer, inside the window.
func movePlayer(player ecs.UniqueViewMut[Player]) {
	p := player.Get()
	x, y := pointer()
	p.X = max(0, min(x, screenWidth-p.Size))
	p.Y = max(0, min(y, screenHeight-p.Size))
}

func main() {
	seed := flag.Uint64("seed", 0, "random seed (0: a new game each time)")
	flag.Parse()
	if *seed == 0 {
		*seed = rand.Uint64()
	}
	rng = rand.New(rand.NewPCG(*seed, 0))

	world := ecs.NewWorld()
	player := Player{Square{X: screenWidth / 2, Y: screenHeight / 2, Size: 15}}
	if err := ecs.AddUnique(world, player); err != nil {
		log.Fatal(err)
	}
	for range 5 {
		if _, err := ecs.AddEntity1(world, newFriend()); err != nil {
			log.Fatal(err)
		}
	}

	ebiten.SetWindowSize(screenWidth, screenHeight)
	ebiten.SetWindowTitle("Square Eater")
	if err := ebiten.RunGame(&Game{world: world}); err != nil {
		log.Fatal(err)
	}
	report(world)
}

// report prints where everything is.
func report(world *ecs.World) {
	err := world.Run(func(player ecs.UniqueView[Player], friends ecs.View[Friend]) {
		p := player.Get()
		fmt.Printf("after %d frames the player is at (%.1f, %.1f)\n", frame, p.X, p.Y)
		for id, f := range friends.WithID() {
			fmt.Printf("friend %v at (%.1f, %.1f)\n", id, f.X, f.Y)
		}
	})
	if err != nil {
		log.Fatal(err)
	}
}

// What follows lets a test play the game without a mouse: with -frames n,
// the pointer follows a fixed path, and the game stops after n frames.

var frames = flag.Uint("frames", 0, "stop after this many frames, the pointer on a fixed path (0: play with the mouse)")

// frame counts the calls to Update.
var frame int

// pointer returns where the mouse is, or where the fixed path is.
func pointer() (x, y float64) {
	if *frames == 0 {
		mx, my := ebiten.CursorPosition()
		return float64(mx), float64(my)
	}
	t := float64(frame)
	return screenWidth/2 + 250*math.Sin(t/50), screenHeight/2 + 200*math.Sin(t/37)
}

// nextFrame counts a frame and ends the game after -frames of them.
func nextFrame() error {
	frame++
	if uint(frame) == *frames {
		return ebiten.Termination
	}
	return nil
}
