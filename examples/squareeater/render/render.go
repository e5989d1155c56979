// Package render puts Square Eater on screen with Ebitengine: [Game] is the
// ebiten.Game that feeds mouse and keys (Backspace, held, rewinds; F1 shows
// and hides the systems' timings, [scene.Inspector]) to the game logic in
// Update (and, with [Game.UseSaves], saves the run when the
// player quits and offers it on the next start screen: R resumes it) and, in
// Draw, runs the "render" workload whose drawing systems read the world
// through views and run on Ebitengine's goroutine (ecs.System(...).OnCaller()).
//
// The drawing systems themselves live in package [scene], free of
// Ebitengine: they paint through a [scene.Painter], here a [ScreenPainter]
// wrapping Ebitengine's screen.
package render

import (
	"image"
	"log"
	"sync/atomic"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/examples/squareeater/game"
	"github.com/slipway-ecs/slipway/examples/squareeater/internal/catchup"
	"github.com/slipway-ecs/slipway/examples/squareeater/internal/savefile"
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

	// keeper, set by UseSaves, keeps the run in a save file between
	// sessions; nil: nothing is saved.
	keeper *savefile.Keeper
	// quit is set by RequestQuit: the next Update saves and stops.
	quit atomic.Bool
	// saveEvery, set by SaveEvery, is how many Updates go between two
	// saves of the run; sinceSave counts them.
	saveEvery, sinceSave int
	// inspector says that the F1 overlay is shown (ShowInspector).
	inspector bool
}

// ShowInspector shows or hides the F1 overlay (see [scene.Inspector]),
// as F1 does: the timings of each system, and the entity counts. While it
// is shown, the world's tracing is on.
func (r *Game) ShowInspector(on bool) error {
	r.inspector = on
	return scene.ShowInspector(r.g.World(), on)
}

// InspectorShown reports whether the F1 overlay is shown.
func (r *Game) InspectorShown() bool { return r.inspector }

// SaveEvery makes Update save the run (with UseSaves) every n calls, as
// well as on quit: for the browser, where a page gets no quit it can rely
// on. n <= 0 saves on quit only (the default).
func (r *Game) SaveEvery(n int) { r.saveEvery = n }

// UseSaves makes the game save its run in s when the player quits (the
// window closed, see [Game.Update], or [Game.RequestQuit]) and, on the
// start screen, offer the run saved there by an earlier session: R
// resumes it, starting a new run removes it, and so does the end of a
// run. Call it before the game runs. It returns why the saved run cannot
// be resumed, if it cannot (the game then starts fresh); no file is no
// error.
func (r *Game) UseSaves(s savefile.Storage) error {
	r.keeper = &savefile.Keeper{Storage: s}
	err := r.keeper.Offer()
	if saved := r.keeper.Offered(); saved != nil {
		if aerr := ecs.AddUnique(r.g.World(), scene.SavedRun{Offered: true, State: saved.State()}); aerr != nil {
			r.keeper.Resume() // cannot show the offer: drop it
			return aerr
		}
	}
	return err
}

// ResumeSaved resumes the saved run on offer at once, as R on the start
// screen does, and reports whether there was one: for the command's
// -resume flag. Call it before the game runs.
func (r *Game) ResumeSaved() (bool, error) {
	if r.keeper == nil || r.keeper.Offered() == nil || r.g.Scene() != game.SceneStart {
		return false, nil
	}
	return true, r.resume()
}

// RequestQuit asks the game to save its run (with UseSaves) and stop at
// its next Update, as closing the window does: for a signal handler. It
// is safe to call from any goroutine.
func (r *Game) RequestQuit() { r.quit.Store(true) }

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
//
// When the window is being closed (the command sets
// ebiten.SetWindowClosingHandled) or RequestQuit was called, it plays no
// frame: it saves the run (see UseSaves) and returns ebiten.Termination.
// On the start screen, R resumes the saved run on offer.
func (r *Game) Update() error {
	if r.err != nil {
		return r.err
	}
	if r.quit.Load() || ebiten.IsWindowBeingClosed() {
		if r.keeper != nil {
			if err := r.keeper.Quit(r.g); err != nil {
				return err
			}
		}
		return ebiten.Termination
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyF1) {
		if err := r.ShowInspector(!r.inspector); err != nil {
			return err
		}
	}
	var in game.Input
	if r.Input != nil {
		in = r.Input(r.g)
	} else {
		in = r.readInput()
	}
	r.mouseX, r.mouseY = in.MouseX, in.MouseY
	before := r.g.Scene()
	if in.Key == 'r' && before == game.SceneStart && r.keeper != nil && r.keeper.Offered() != nil {
		return r.resume()
	}
	defer r.played(before)
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

// resume swaps the game on the start screen for the saved run on offer.
func (r *Game) resume() error {
	saved := r.keeper.Resume()
	if err := scene.AddTo(saved.World()); err != nil {
		return err
	}
	r.g = saved
	if r.inspector {
		return scene.ShowInspector(saved.World(), true)
	}
	return nil
}

// played saves the run every saveEvery Updates (see SaveEvery) and tells
// the keeper, if any, what the frames just played did to the scene: leaving the start screen for a new run drops the offer (and
// its file), ending a run removes the file. Failing to remove it is
// logged, not fatal: the next session would offer a run to resume again.
func (r *Game) played(before game.Scene) {
	if r.keeper == nil {
		return
	}
	if r.saveEvery > 0 {
		if r.sinceSave++; r.sinceSave >= r.saveEvery {
			r.sinceSave = 0
			if err := r.keeper.Checkpoint(r.g); err != nil {
				log.Printf("squareeater: %v", err)
			}
		}
	}
	after := r.g.Scene()
	if err := r.keeper.Played(before, after); err != nil {
		log.Printf("squareeater: %v", err)
	}
	if before == game.SceneStart && after != game.SceneStart {
		// A rewind back to the start screen must not offer the run
		// dropped: SavedRun is not part of what a rewind restores.
		if err := ecs.AddUnique(r.g.World(), scene.SavedRun{}); err != nil {
			log.Printf("squareeater: %v", err)
		}
	}
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
// the last frame (R as 'r', which only the start screen's offer of a saved
// run reads) and whether Backspace, the rewind key, is held. The game
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
	if inpututil.IsKeyJustPressed(ebiten.KeyR) {
		in.Key = 'r' // resume the saved run, on the start screen
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
