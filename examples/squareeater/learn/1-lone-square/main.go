// Command 1-lone-square is the first step of Slipway's learn-by-example
// guide (docs/learn/1-lone-square.md): a window with a blue square that
// follows the mouse. It does not use Slipway yet.
package main

import (
	"flag"
	"fmt"
	"image/color"
	"log"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
)

const screenWidth, screenHeight = 640, 480

var blue = color.RGBA{0, 0, 255, 255}

// Square is the shape of everything in the game.
type Square struct{ X, Y, Size float64 }

// Draw fills the square on dst.
func (s Square) Draw(dst *ebiten.Image, c color.Color) {
	vector.DrawFilledRect(dst, float32(s.X), float32(s.Y), float32(s.Size), float32(s.Size), c, false)
}

// Player is the square the mouse moves.
type Player struct{ Square }

// Game is what Ebitengine runs: Update 60 times a second, Draw once a frame.
type Game struct {
	player Player
}

func (g *Game) Update() error {
	movePlayer(&g.player)
	return nextFrame()
}

func (g *Game) Draw(screen *ebiten.Image) {
	screen.Fill(color.White)
	g.player.Draw(screen, blue)
}

func (g *Game) Layout(int, int) (int, int) { return screenWidth, screenHeight }

// movePlayer puts the player's square under the pointer, inside the window.
func movePlayer(p *Player) {
	x, y := pointer()
	p.X = max(0, min(x, screenWidth-p.Size))
	p.Y = max(0, min(y, screenHeight-p.Size))
}

func main() {
	flag.Parse()
	g := &Game{player: Player{Square{X: screenWidth / 2, Y: screenHeight / 2, Size: 15}}}
	ebiten.SetWindowSize(screenWidth, screenHeight)
	ebiten.SetWindowTitle("Square Eater")
	if err := ebiten.RunGame(g); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("after %d frames the player is at (%.1f, %.1f)\n", frame, g.player.X, g.player.Y)
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
