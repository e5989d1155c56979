package savefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slipway-ecs/slipway/examples/squareeater/game"
)

// onFloor returns a game that has played frames frames of floor 1.
func onFloor(t *testing.T, frames int) *game.Game {
	t.Helper()
	g := game.New(4)
	if err := g.Update(game.Input{Key: ' '}); err != nil {
		t.Fatal(err)
	}
	for i := range frames {
		if err := g.Update(game.Input{MouseX: float64(100 + i%500), MouseY: 300}); err != nil {
			t.Fatal(err)
		}
	}
	if g.Scene() != game.SceneFloor {
		t.Fatalf("scene %v, want a floor", g.Scene())
	}
	return g
}

// samePlay plays a and b with the same inputs and fails unless they stay
// in the same state (what package game exports of it).
func samePlay(t *testing.T, a, b *game.Game) {
	t.Helper()
	for i := range 200 {
		in := game.Input{MouseX: float64(700 - i*3), MouseY: float64(100 + i*2)}
		if err := errors.Join(a.Update(in), b.Update(in)); err != nil {
			t.Fatal(err)
		}
		if a.State() != b.State() || a.Player() != b.Player() || a.FriendsLeft() != b.FriendsLeft() {
			t.Fatalf("frame %d after resuming: %+v %+v, want %+v %+v", i, b.State(), b.Player(), a.State(), a.Player())
		}
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestFileStoreLoad: Store creates the file's directory and writes the
// run, leaving no temporary file; Load resumes it, and the resumed game
// plays on as the original; Store with no run in progress removes the
// file, and so does Remove, which does not mind a missing file.
func TestFileStoreLoad(t *testing.T) {
	dir := t.TempDir()
	f := File{Path: filepath.Join(dir, "a", "b", "run.save")}
	if _, err := f.Load(); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Load with no file: %v, want fs.ErrNotExist", err)
	}
	g := onFloor(t, 150)
	if err := f.Store(g); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Dir(f.Path))
	if err != nil || len(entries) != 1 || entries[0].Name() != "run.save" {
		t.Fatalf("after Store the directory holds %v (%v), want run.save alone", entries, err)
	}
	r, err := f.Load()
	if err != nil {
		t.Fatal(err)
	}
	if r.State() != g.State() {
		t.Fatalf("loaded %+v, want %+v", r.State(), g.State())
	}
	samePlay(t, g, r)

	if err := f.Store(game.New(1)); err != nil || exists(f.Path) {
		t.Fatalf("Store on the start screen: %v, file there: %t; want it removed", err, exists(f.Path))
	}
	if err := f.Remove(); err != nil {
		t.Errorf("Remove of a missing file: %v", err)
	}
}

// TestFileStoreFailureKeepsOldSave: a Store that cannot write (its
// directory is read-only) fails and leaves the last save whole.
func TestFileStoreFailureKeepsOldSave(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into read-only directories")
	}
	dir := t.TempDir()
	f := File{Path: filepath.Join(dir, "run.save")}
	old := onFloor(t, 10)
	if err := f.Store(old); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	if err := f.Store(onFloor(t, 50)); err == nil {
		t.Fatal("Store into a read-only directory succeeded")
	}
	r, err := f.Load()
	if err != nil || r.State() != old.State() {
		t.Fatalf("after a failed Store: %v, %+v; want the old save", err, r)
	}
}

// TestFileLoadBadSave: a file that is not a save is refused with an
// error naming the file and wrapping game.ErrBadSave.
func TestFileLoadBadSave(t *testing.T) {
	f := File{Path: filepath.Join(t.TempDir(), "run.save")}
	if err := os.WriteFile(f.Path, []byte("SLPWSAVE but not really"), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := f.Load()
	if g != nil || !errors.Is(err, game.ErrBadSave) || !strings.Contains(err.Error(), f.Path) {
		t.Fatalf("Load of a damaged file: %v, %v; want game.ErrBadSave naming the file", g, err)
	}
}

// TestKeeper: what the window does with the file over a session. A run
// saved on quit is offered by the next session; resuming it keeps the
// file until the run is saved again or ends; starting a new run instead
// drops the offer and the file; quitting on the start screen keeps a run
// on offer; a run's end removes the file; a damaged file is reported and
// nothing is offered.
func TestKeeper(t *testing.T) {
	f := File{Path: filepath.Join(t.TempDir(), "run.save")}

	// Session 1: no file, nothing offered; play, quit: saved.
	k := &Keeper{Storage: f}
	if err := k.Offer(); err != nil || k.Offered() != nil {
		t.Fatalf("Offer with no file: %v, offered %v", err, k.Offered())
	}
	g := onFloor(t, 30)
	if err := k.Played(game.SceneStart, game.SceneFloor); err != nil {
		t.Fatal(err)
	}
	if err := k.Quit(g); err != nil || !exists(f.Path) {
		t.Fatalf("Quit on a floor: %v, file there: %t", err, exists(f.Path))
	}

	// Session 2: offered; quitting on the start screen keeps it.
	k = &Keeper{Storage: f}
	if err := k.Offer(); err != nil || k.Offered() == nil {
		t.Fatalf("Offer of the saved run: %v, offered %v", err, k.Offered())
	}
	if k.Offered().State() != g.State() {
		t.Fatalf("offered %+v, want %+v", k.Offered().State(), g.State())
	}
	if err := k.Quit(game.New(1)); err != nil || !exists(f.Path) {
		t.Fatalf("Quit on the start screen: %v, file there: %t; want it kept", err, exists(f.Path))
	}

	// Session 3: resumed; the file stays while the run goes on.
	k = &Keeper{Storage: f}
	if err := k.Offer(); err != nil {
		t.Fatal(err)
	}
	r := k.Resume()
	if r == nil || k.Offered() != nil || k.Resume() != nil {
		t.Fatal("Resume did not hand over the offer once")
	}
	if err := k.Played(game.SceneFloor, game.SceneShop); err != nil || !exists(f.Path) {
		t.Fatalf("a floor ended: %v, file there: %t; want it kept", err, exists(f.Path))
	}
	// The run ends: the file goes.
	if err := k.Played(game.SceneFloor, game.SceneGameOver); err != nil || exists(f.Path) {
		t.Fatalf("game over: %v, file there: %t; want it removed", err, exists(f.Path))
	}

	// Session 4: offered, but a new run starts instead: offer and file go.
	if err := f.Store(g); err != nil {
		t.Fatal(err)
	}
	k = &Keeper{Storage: f}
	if err := k.Offer(); err != nil || k.Offered() == nil {
		t.Fatalf("Offer: %v, offered %v", err, k.Offered())
	}
	if err := k.Played(game.SceneStart, game.SceneFloor); err != nil || exists(f.Path) || k.Offered() != nil {
		t.Fatalf("new run: %v, file there: %t, offered %v; want both gone", err, exists(f.Path), k.Offered())
	}

	// Session 5: a damaged file: an error, nothing offered.
	if err := os.WriteFile(f.Path, []byte("not a save"), 0o644); err != nil {
		t.Fatal(err)
	}
	k = &Keeper{Storage: f}
	if err := k.Offer(); !errors.Is(err, game.ErrBadSave) || k.Offered() != nil {
		t.Fatalf("Offer of a damaged file: %v, offered %v", err, k.Offered())
	}
}
