// Package savefile keeps a Square Eater run between sessions: the game
// saves the run in progress when the player quits (in the browser, every
// few seconds), and the next session's start screen offers to resume it.
// Package game reads and writes the save as a stream ([game.Game.Save],
// [game.Resume]); this package owns where it is kept, a [File] on the
// desktop or the page's localStorage in the browser ([LocalStorage]), and
// [Keeper] decides when it is written, offered and removed. It imports no
// graphics, so that it is tested without a display.
package savefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/slipway-ecs/slipway/examples/squareeater/game"
)

// EnvPath is the environment variable that, when set, names the save file
// in place of [DefaultPath] (the command's -save flag takes precedence).
const EnvPath = "SQUAREEATER_SAVE"

// DefaultPath returns where the run is saved by default:
// slipway-squareeater/run.save in the user's configuration directory
// (os.UserConfigDir: ~/.config on Linux).
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "slipway-squareeater", "run.save"), nil
}

// Storage is where a run is kept: a [File], or in the browser
// [LocalStorage].
type Storage interface {
	// Load resumes the run kept, or returns an error wrapping
	// fs.ErrNotExist when there is none, or one wrapping
	// game.ErrBadSave when it cannot be resumed.
	Load() (*game.Game, error)
	// Store keeps g's run, replacing the one kept; with no run in
	// progress it removes it.
	Store(g *game.Game) error
	// Remove removes the run kept, if any.
	Remove() error
}

// File is a save file at Path.
type File struct{ Path string }

// Load resumes the run saved in the file. With no file it returns an
// error wrapping fs.ErrNotExist; with a file that is not a save of a run
// (damaged, from another program or another version of the game), one
// wrapping [game.ErrBadSave] that names the file.
func (f File) Load() (*game.Game, error) {
	file, err := os.Open(f.Path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	g, err := game.Resume(file)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, err)
	}
	return g, nil
}

// Store saves g's run in the file, creating its directory if need be. It
// writes a temporary file beside it and renames it over the file, so that
// a failure (a full disk, the program killed) leaves the last save whole.
// With no run in progress ([game.Game.InRun] false) it removes the file
// instead: there is nothing to resume.
func (f File) Store(g *game.Game) error {
	if !g.InRun() {
		return f.Remove()
	}
	dir := filepath.Dir(f.Path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, filepath.Base(f.Path)+".*.tmp")
	if err != nil {
		return err
	}
	err = g.Save(tmp)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), f.Path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("saving the run to %s: %w", f.Path, err)
	}
	return nil
}

// Remove removes the file; a file that is not there is no error.
func (f File) Remove() error {
	if err := os.Remove(f.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// Keeper keeps a Storage in step with the game a window plays: it offers the
// saved run on the start screen ([Keeper.Offer]), removes the file when
// the player starts a new run instead or a run ends ([Keeper.Played]), and
// saves the run when the player quits ([Keeper.Quit]).
type Keeper struct {
	Storage Storage
	// offer is the run loaded from the file, until it is resumed or
	// dropped.
	offer *game.Game
}

// Offer loads the saved run and keeps it as the offer: Offered returns it
// until the player resumes it or starts a new run. With no file it offers
// nothing and returns nil; with a file it cannot resume it offers nothing
// and returns the error (the game then starts fresh, and the file is
// overwritten or removed as the new game goes).
func (k *Keeper) Offer() error {
	g, err := k.Storage.Load()
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	}
	k.offer = g
	return nil
}

// Offered returns the saved run on offer, or nil.
func (k *Keeper) Offered() *game.Game { return k.offer }

// Resume hands over the run on offer (nil if there is none) and stops
// offering it. The file stays until the run ends or is saved again.
func (k *Keeper) Resume() *game.Game {
	g := k.offer
	k.offer = nil
	return g
}

// Played tells the keeper that the game went from scene before to scene
// after over one update. Leaving the start screen for a new run drops the
// offer and removes the file: the player chose not to resume it. Reaching
// the game-over screen removes the file: the run is over.
func (k *Keeper) Played(before, after game.Scene) error {
	switch {
	case before == game.SceneStart && after != game.SceneStart:
		k.offer = nil
		return k.Storage.Remove()
	case before != game.SceneGameOver && after == game.SceneGameOver:
		return k.Storage.Remove()
	}
	return nil
}

// Checkpoint saves g's run as Quit does, for a build that cannot count
// on a quit to save in (the browser's), which calls it every few seconds.
func (k *Keeper) Checkpoint(g *game.Game) error { return k.Quit(g) }

// Quit saves g's run when the player quits: a floor or the shop is
// saved; on the start screen the file is left as it is (a run on offer
// stays on offer); on the game-over screen it is removed.
func (k *Keeper) Quit(g *game.Game) error {
	if g.Scene() == game.SceneStart {
		return nil
	}
	return k.Storage.Store(g)
}
