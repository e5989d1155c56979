// Command 3-spark is the third step of Slipway's learn-by-example guide
// (docs/learn/3-spark.md): the friends grow, come for the player, and
// crush them once full-grown.
package main

import (
	"errors"
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

const (
	growthRate = 0.15 // how much a friend grows each frame
	maxSize    = 25.0 // the size a friend stops growing at
	speed      = 1.5  // how far a friend moves each frame
)

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

// Center returns the middle of the square.
func (s Square) Center() (x, y float64) { return s.X + s.Size/2, s.Y + s.Size/2 }

// Collide reports whether the squares touch.
func (s Square) Collide(o Square) bool {
	return s.X+s.Size >= o.X && s.X <= o.X+o.Size && s.Y+s.Size >= o.Y && s.Y <= o.Y+o.Size
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
	for _, system := range []any{movePlayer, moveFriends, grow, collision} {
		if err := g.world.Run(system); err != nil {
			return err
		}
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

// grow makes every friend grow from its centre, up to maxSize.
func grow(friends ecs.ViewMut[Friend]) {
	for f := range friends.All() {
		delta := min(f.Size+growthRate, maxSize) - f.Size
		f.Size += delta
		f.X = max(f.X-delta/2, 0)
		f.Y = max(f.Y-delta/2, 0)
	}
}

// moveFriends moves every friend bigger than the player toward the
// player, pushed away from the neighbours it overlaps.
func moveFriends(player ecs.UniqueView[Player], friends ecs.ViewMut[Friend]) {
	p := player.Get()
	px, py := p.Center()
	all := friends.Slice()
	steps := make([][2]float64, len(all))
	for i, f := range all {
		if f.Size <= p.Size {
			continue
		}
		fx, fy := f.Center()
		dx, dy := normalize(px-fx, py-fy)
		var nx, ny float64
		for _, n := range all {
			cx, cy := n.Center()
			if (fx-cx)*(fx-cx)+(fy-cy)*(fy-cy) < f.Size*f.Size/1.5 {
				nx += f.X - n.X
				ny += f.Y - n.Y
			}
		}
		steps[i] = [2]float64{dx*speed + nx*0.05, dy*speed + ny*0.05}
	}
	for i := range all {
		f := &all[i]
		f.X = max(0, min(f.X+steps[i][0], screenWidth-f.Size))
		f.Y = max(0, min(f.Y+steps[i][1], screenHeight-f.Size))
	}
}

// normalize returns (x, y) scaled to length 1, or (0, 0) for (0, 0).
func normalize(x, y float64) (float64, float64) {
	l := math.Hypot(x, y)
	if l == 0 {
		return 0, 0
	}
	return x / l, y / l
}

// errMurder is what collision returns when the player is no more.
var errMurder = errors.New("murder: the friends crushed the player")

// collision shrinks the player for every full-grown friend touching them.
func collision(player ecs.UniqueViewMut[Player], friends ecs.View[Friend]) error {
	p := player.Get()
	for f := range friends.All() {
		if f.Size == maxSize && f.Collide(p.Square) {
			p.Size -= 5.0 / 2
			if p.Size < 5 {
				return errMurder
			}
		}
	}
	return nil
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
	err := ebiten.RunGame(&Game{world: world})
	switch {
	case errors.Is(err, errMurder):
		fmt.Printf("frame %d: %v\n", frame, err)
	case err != nil:
		log.Fatal(err)
	default:
		fmt.Printf("after %d frames the player is alive\n", frame)
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
