// Package render puts Square Eater on screen with Ebitengine: [Game] is the
// ebiten.Game that feeds mouse and keys (Backspace, held, rewinds) to the
// game logic in Update and, in
// Draw, runs the "render" workload whose drawing systems read the world
// through views and run on Ebitengine's goroutine (ecs.System(...).OnCaller()).
//
// The drawing systems themselves live in package [scene], free of
// Ebitengine: they paint through a [scene.Painter], here a [ScreenPainter]
// wrapping Ebitengine's screen.
package render

import (
	"image"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"github.com/slipway-ecs/slipway/examples/squareeater/game"
	"github.com/slipway-ecs/slipway/examples/squareeater/internal/catchup"
	"github.com/slipway-ecs/slipway/examples/squareeater/render/scene"
)

// Game is the ebiten.Game of Square Eater.
type Game struct {
	g       *game.Game
	painter *ScreenPainter
	mouseX  float64
	mouseY  float64
	frames  int
	err     error
	clock   catchup.Clock
	// CatchUps counts the extra logic frames played to catch up with
	// wall time (see Update).
	CatchUps int

	// Input, when set, replaces the mouse and the keyboard: it is called
	// once per logic frame (a bot, or a script in tests).
	Input func(g *game.Game) game.Input
}

// New wraps g for Ebitengine, adding the render workload to g's world.
func New(g *game.Game) (*Game, error) {
	if err := scene.AddTo(g.World()); err != nil {
		return nil, err
	}
	painter, err := NewScreenPainter()
	if err != nil {
		return nil, err
	}
	return &Game{g: g, painter: painter}, nil
}

// Logic returns the game logic this adapter drives.
func (r *Game) Logic() *game.Game { return r.g }

// Frames returns the number of frames drawn so far.
func (r *Game) Frames() int { return r.frames }

// Update runs one logic frame with the player's input, then the extra
// logic frames that wall time asks for when the screen is drawn too slowly
// for Ebitengine to keep up 60 ticks a second (software GL in a browser;
// see package catchup), at most catchup.MaxExtra. A click or a key goes to
// the first logic frame only; the extra ones get the same mouse position
// and, while Backspace is held, rewind too, so that a rewind goes back at
// the speed the game plays (with Input set, they call it once each).
func (r *Game) Update() error {
	if r.err != nil {
		return r.err
	}
	var in game.Input
	if r.Input != nil {
		in = r.Input(r.g)
	} else {
		in = r.readInput()
	}
	r.mouseX, r.mouseY = in.MouseX, in.MouseY
	if err := r.g.Update(in); err != nil {
		return err
	}
	extra := r.clock.Extra(time.Now(), float64(ebiten.TPS()))
	for range extra {
		in = game.Input{MouseX: r.mouseX, MouseY: r.mouseY, Rewind: in.Rewind}
		if r.Input != nil {
			in = r.Input(r.g)
			r.mouseX, r.mouseY = in.MouseX, in.MouseY
		}
		if err := r.g.Update(in); err != nil {
			return err
		}
	}
	r.CatchUps += extra
	return nil
}

// Draw runs the render workload ([scene.Workload]) on screen.
func (r *Game) Draw(screen *ebiten.Image) {
	if r.err != nil {
		return
	}
	r.painter.Target = screen
	err := scene.DrawFrame(r.g, r.painter, r.mouseX, r.mouseY)
	r.painter.Target = nil
	if err != nil {
		r.err = err // reported by the next Update, which stops the game
		return
	}
	r.frames++
	markFrame(r.frames, r.g)
}

// Layout keeps the game's logical size whatever the window's size:
// Ebitengine scales it to fit.
func (r *Game) Layout(outsideWidth, outsideHeight int) (int, int) {
	return int(game.Width), int(game.Height)
}

// shop keys in the order of the shop's choices.
var choiceKeys = [...][2]ebiten.Key{
	{ebiten.KeyDigit1, ebiten.KeyNumpad1},
	{ebiten.KeyDigit2, ebiten.KeyNumpad2},
	{ebiten.KeyDigit3, ebiten.KeyNumpad3},
	{ebiten.KeyDigit4, ebiten.KeyNumpad4},
	{ebiten.KeyDigit5, ebiten.KeyNumpad5},
}

var touchIDs []ebiten.TouchID

// readInput reads the mouse (or the first touch), the keys pressed since
// the last frame and whether Backspace, the rewind key, is held. The game
// logic maps a click in the shop to the choice under it.
func (r *Game) readInput() game.Input {
	x, y := ebiten.CursorPosition()
	in := game.Input{MouseX: float64(x), MouseY: float64(y)}
	in.Clicked = inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft)
	touchIDs = ebiten.AppendTouchIDs(touchIDs[:0])
	if len(touchIDs) > 0 {
		tx, ty := ebiten.TouchPosition(touchIDs[0])
		in.MouseX, in.MouseY = float64(tx), float64(ty)
		if len(inpututil.AppendJustPressedTouchIDs(touchIDs[:0])) > 0 {
			in.Clicked = true
		}
	}
	for i, keys := range choiceKeys {
		if inpututil.IsKeyJustPressed(keys[0]) || inpututil.IsKeyJustPressed(keys[1]) {
			in.Key = rune('1' + i)
		}
	}
	if inpututil.IsKeyJustPressed(ebiten.KeySpace) || inpututil.IsKeyJustPressed(ebiten.KeyEnter) || inpututil.IsKeyJustPressed(ebiten.KeyNumpadEnter) {
		in.Key = ' '
	}
	in.Rewind = ebiten.IsKeyPressed(ebiten.KeyBackspace)
	return in
}

// Snapshot copies img's pixels (the screen, inside Draw) into an image.
// Ebitengine can read pixels only while the game runs.
func Snapshot(img *ebiten.Image) *image.RGBA {
	out := image.NewRGBA(img.Bounds())
	img.ReadPixels(out.Pix)
	return out
}
