// Command 6-its-over is the sixth step of Slipway's learn-by-example
// guide (docs/learn/6-its-over.md): power pellets appear, and a
// powered-up player eats even full-grown friends.
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
	initSize   = 5.0  // a new friend's size; the player starts 3 times as big
	growthRate = 0.15 // how much a friend grows each frame
	maxSize    = 25.0 // the size a friend stops growing at
	speed      = 1.5  // how far a friend moves each frame

	pelletSpawnRate = 150 // one chance in this many that a pellet appears each frame
	powerUpFrames   = 120 // how long a pellet's power lasts
)

var (
	blue  = color.RGBA{0, 0, 255, 255}
	green = color.RGBA{0, 200, 0, 255}
	gray  = color.RGBA{128, 128, 128, 255}
	red   = color.RGBA{255, 0, 0, 255}
	gold  = color.RGBA{230, 190, 0, 255}
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
type Player struct {
	Square
	PelletCounter int // frames of power left
}

// PowerUp gives the player a pellet's power.
func (p *Player) PowerUp() { p.PelletCounter = powerUpFrames }

// PoweredUp reports whether the player has a pellet's power.
func (p *Player) PoweredUp() bool { return p.PelletCounter > 0 }

// Friend is a component: every friend is an entity that has one.
type Friend struct{ Square }

// PowerPellet is a component: the pellets are entities that have one.
type PowerPellet struct{ Square }

// ToDelete marks an entity to delete at the end of the frame.
type ToDelete struct{}

// newFriend returns a small friend somewhere in the window.
func newFriend() Friend {
	return Friend{Square{
		X:    rng.Float64() * (screenWidth - initSize),
		Y:    rng.Float64() * (screenHeight - initSize),
		Size: initSize,
	}}
}

// rng draws the game's random numbers.
var rng *rand.Rand

// Game is what Ebitengine runs: Update 60 times a second, Draw once a frame.
type Game struct {
	world *ecs.World
}

func (g *Game) Update() error {
	for _, system := range []any{movePlayer, moveFriends, grow, counters, spawn, collision, cleanUp} {
		if err := g.world.Run(system); err != nil {
			return err
		}
	}
	return nextFrame()
}

func (g *Game) Draw(screen *ebiten.Image) {
	screen.Fill(color.White)
	draw := func(player ecs.UniqueView[Player], friends ecs.View[Friend], pellets ecs.View[PowerPellet]) {
		for pellet := range pellets.All() {
			pellet.Draw(screen, gold)
		}
		p := player.Get()
		for f := range friends.All() {
			switch {
			case f.Size == maxSize:
				f.Draw(screen, red)
			case f.Size > p.Size:
				f.Draw(screen, gray)
			default:
				f.Draw(screen, green)
			}
		}
		if p.PoweredUp() {
			p.Draw(screen, gold)
		} else {
			p.Draw(screen, blue)
		}
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

// GameOver ends the game. It is an error, so that a system can return it.
type GameOver string

// Defeat is the game lost.
const Defeat GameOver = "defeat"

func (g GameOver) Error() string { return string(g) }

// collision gives the player the power of the pellets they touch, shrinks
// them for every full-grown friend touching them (unless powered up: then
// they eat it), and makes them eat every friend no bigger than them that
// they touch.
func collision(entities ecs.EntitiesView, player ecs.UniqueViewMut[Player], friends ecs.View[Friend], pellets ecs.View[PowerPellet], toDelete ecs.ViewMut[ToDelete]) error {
	p := player.Get()
	for id, pellet := range pellets.WithID() {
		if p.Collide(pellet.Square) {
			p.PowerUp()
			if err := toDelete.AddComponent(entities, id, ToDelete{}); err != nil {
				return err
			}
		}
	}
	for id, f := range friends.WithID() {
		if f.Size == maxSize && f.Collide(p.Square) {
			if p.PoweredUp() {
				p.Size = min(p.Size+initSize/2, maxSize-0.01)
				if err := toDelete.AddComponent(entities, id, ToDelete{}); err != nil {
					return err
				}
				continue
			}
			p.Size -= initSize / 2
			if p.Size < initSize {
				return Defeat
			}
		} else if p.Size >= f.Size && p.Collide(f.Square) {
			p.Size = min(p.Size+initSize/2, maxSize-0.01)
			if err := toDelete.AddComponent(entities, id, ToDelete{}); err != nil {
				return err
			}
		}
	}
	return nil
}

// counters counts the player's power down.
func counters(player ecs.UniqueViewMut[Player]) {
	p := player.Get()
	p.PelletCounter = max(p.PelletCounter-1, 0)
}

// spawn adds a power pellet now and then, twice as often when there is
// none.
func spawn(entities ecs.EntitiesViewMut, pellets ecs.ViewMut[PowerPellet]) {
	rate := pelletSpawnRate
	if pellets.IsEmpty() {
		rate /= 2
	}
	if rng.IntN(rate) == 0 {
		pellets.AddEntity(entities, PowerPellet{Square{
			X:    rng.Float64() * (screenWidth - initSize),
			Y:    rng.Float64() * (screenHeight - initSize),
			Size: initSize * 2,
		}})
	}
}

// cleanUp deletes the entities marked ToDelete.
func cleanUp(all ecs.AllStoragesViewMut) error {
	_, err := ecs.DeleteAny[ToDelete](all)
	return err
}

func main() {
	seed := flag.Uint64("seed", 0, "random seed (0: a new game each time)")
	flag.Parse()
	if *seed == 0 {
		*seed = rand.Uint64()
	}
	rng = rand.New(rand.NewPCG(*seed, 0))

	world := ecs.NewWorld()
	player := Player{Square: Square{X: screenWidth / 2, Y: screenHeight / 2, Size: initSize * 3}}
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
	var over GameOver
	switch {
	case errors.As(err, &over):
		fmt.Printf("frame %d: %s\n", frame, over)
	case err != nil:
		log.Fatal(err)
	default:
		fmt.Printf("after %d frames the player is alive\n", frame)
	}
	report(world)
}

// report prints the player's size and the friends left.
func report(world *ecs.World) {
	err := world.Run(func(player ecs.UniqueView[Player], friends ecs.View[Friend], pellets ecs.View[PowerPellet]) {
		fmt.Printf("player size %.2f, %d friends left, %d pellets\n", player.Get().Size, friends.Len(), pellets.Len())
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
