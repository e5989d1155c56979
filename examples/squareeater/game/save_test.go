package game

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/snapshot"
)

// save returns g's save.
func save(tb testing.TB, g *Game) []byte {
	tb.Helper()
	var b bytes.Buffer
	if err := g.Save(&b); err != nil {
		tb.Fatalf("Save (scene %v): %v", g.Scene(), err)
	}
	return b.Bytes()
}

// TestSaveResumePlaysOn: the bot plays a run with the guide's options
// through the end of floor 1, the shop and into floor 2; a save made at
// frames across all of it (mid-floor with friends eaten, so with a free
// list; the floor's last frame; the shop; the next floor's first frame)
// resumes into a game whose state is the one saved, bit for bit, and that
// the same inputs then lead through the same states, frame by frame, as
// the original played: the same random draws, the same ids for new
// entities, the same rules on the next floor (which the options decide).
func TestSaveResumePlaysOn(t *testing.T) {
	opts := GuideOptions()
	g := NewWithOptions(11, opts)
	tp := newTape(t, g)
	var bot Bot
	all := map[int][]byte{} // frame → the save made after it, while in a run
	ended, next := -1, -1   // the frames that left floor 1 and started floor 2
	for f := 0; next < 0 || f < next+200; f++ {
		if f > 20000 {
			t.Fatal("the bot did not reach floor 2 in 20000 frames")
		}
		tp.play(t, g, bot.Input(g))
		n := len(tp.ins)
		switch {
		case ended < 0 && tp.scenes[n-1] == SceneFloor && tp.scenes[n] == SceneShop:
			ended = n
		case ended >= 0 && next < 0 && tp.scenes[n] == SceneFloor:
			next = n
		}
		if g.InRun() {
			all[n] = save(t, g)
		}
	}
	if g.State().Floor != 2 {
		t.Fatalf("the bot is on floor %d, want 2 (it lost floor 1?)", g.State().Floor)
	}
	saves := map[int][]byte{}
	for _, k := range []int{1, ended / 3, 2 * ended / 3, ended - 1, ended, ended + 1, next - 1, next, next + 1, next + 100} {
		if all[k] == nil {
			t.Fatalf("no save at frame %d", k)
		}
		saves[k] = all[k]
	}
	inShop, onFloor := 0, 0
	for k, b := range saves {
		if tp.scenes[k] == SceneShop {
			inShop++
		} else {
			onFloor++
		}
		r, err := Resume(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("Resume of the save at frame %d: %v", k, err)
		}
		if r.Seed() != g.Seed() || r.Options() != opts {
			t.Errorf("resumed at frame %d: seed %d, options %+v; want %d, %+v", k, r.Seed(), r.Options(), g.Seed(), opts)
		}
		if got := fingerprint(t, r); got != tp.fps[k] {
			t.Fatalf("resumed at frame %d (%v): state %x, want %x as saved", k, tp.scenes[k], got, tp.fps[k])
		}
		if h := r.History(); h != (History{}) {
			t.Errorf("resumed at frame %d: %+v, want no history", k, h)
		}
		tp.replay(t, r, k)
	}
	if inShop < 1 || onFloor < 5 { // the bot picks its upgrade at once
		t.Fatalf("saved %d times in the shop and %d on a floor: want both tested", inShop, onFloor)
	}
}

// TestResumeRewindsNoFurther: a resumed game rewinds to the frame it
// resumed at and no further; the history it records from there works as
// a new game's.
func TestResumeRewindsNoFurther(t *testing.T) {
	g := startFloor(t, 3)
	for _, in := range scripted(3, 100) {
		in.Clicked, in.Key = false, 0
		step(t, g, in)
	}
	r, err := Resume(bytes.NewReader(save(t, g)))
	if err != nil {
		t.Fatal(err)
	}
	tp := newTape(t, r)
	for _, in := range scripted(4, 20) {
		in.Clicked, in.Key = false, 0
		tp.play(t, r, in)
	}
	tp.rewind(t, r, 20, 0, 0)
	step(t, r, rewindInput)
	if got := fingerprint(t, r); got != tp.fps[0] {
		t.Fatalf("rewinding past the resumed frame changed the state")
	}
}

// TestSaveNoRun: the start and game-over screens have no run to save.
func TestSaveNoRun(t *testing.T) {
	g := New(1)
	if g.InRun() {
		t.Error("InRun on the start screen")
	}
	var b bytes.Buffer
	if err := g.Save(&b); !errors.Is(err, ErrNoRun) || b.Len() != 0 {
		t.Errorf("Save on the start screen: %v, %d bytes; want ErrNoRun and nothing written", err, b.Len())
	}
	step(t, g, Input{Key: ' '})
	if !g.InRun() {
		t.Fatalf("InRun on %v = false", g.Scene())
	}
	for g.Scene() != SceneGameOver {
		loseFloor(t, g)
		if g.Scene() == SceneShop {
			if !g.InRun() {
				t.Fatal("InRun in the shop = false")
			}
			pick(t, g, UpgradeDefense)
		}
	}
	if g.InRun() {
		t.Error("InRun on the game-over screen")
	}
	if err := g.Save(&b); !errors.Is(err, ErrNoRun) {
		t.Errorf("Save on the game-over screen: %v, want ErrNoRun", err)
	}
}

// badResume checks that Resume refuses b with an error wrapping
// ErrBadSave that mentions want, and returns no game.
func badResume(t *testing.T, what string, b []byte, want string) {
	t.Helper()
	g, err := Resume(bytes.NewReader(b))
	if err == nil || g != nil {
		t.Fatalf("Resume of %s: game %t, error %v; want no game and an error", what, g != nil, err)
	}
	if !errors.Is(err, ErrBadSave) || !strings.Contains(err.Error(), want) {
		t.Fatalf("Resume of %s: %v; want ErrBadSave and %q", what, err, want)
	}
}

// TestResumeRefusesDamage: a save cut short anywhere, with a byte changed
// anywhere, empty, or another file altogether is refused with a clear
// error, never a panic.
func TestResumeRefusesDamage(t *testing.T) {
	g := startFloor(t, 2)
	for range 120 {
		step(t, g, at(400, 300))
	}
	good := save(t, g)
	if _, err := Resume(bytes.NewReader(good)); err != nil {
		t.Fatalf("the undamaged save: %v", err)
	}
	badResume(t, "an empty file", nil, "snapshot: LoadInto")
	badResume(t, "a text file", []byte("hello, world\n"), "starts with neither")
	for n := 1; n < len(good); n += max(1, len(good)/300) {
		badResume(t, "a save cut short", good[:n], "snapshot: LoadInto")
		if _, err := Resume(bytes.NewReader(good[:n])); !errors.Is(err, snapshot.ErrTruncated) && !errors.Is(err, snapshot.ErrCorrupt) {
			t.Fatalf("Resume of a save cut at byte %d: %v, want snapshot.ErrTruncated or ErrCorrupt", n, err)
		}
	}
	for i := 0; i < len(good); i += max(1, len(good)/300) {
		b := bytes.Clone(good)
		b[i] ^= 0x24
		badResume(t, "a save with a byte changed", b, "snapshot: LoadInto")
	}

	// Another world's save: types the game does not know.
	var other snapshot.Registry
	type pos struct{ X, Y float64 }
	if err := snapshot.Register[pos](&other, "pos"); err != nil {
		t.Fatal(err)
	}
	w := ecs.NewWorld()
	if _, err := ecs.AddEntity1(w, pos{1, 2}); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := other.Save(w, &b, &snapshot.SaveOptions{Format: snapshot.Binary}); err != nil {
		t.Fatal(err)
	}
	badResume(t, "another world's save", b.Bytes(), `type "pos": no type is registered`)
	if _, err := Resume(bytes.NewReader(b.Bytes())); !errors.Is(err, snapshot.ErrUnknownType) {
		t.Errorf("Resume of another world's save: %v, want snapshot.ErrUnknownType", err)
	}
}

// TestResumeRefusesImpossibleStates: a well-formed save whose state the
// game could not have saved is refused before it plays. A bonus out of
// range would otherwise panic when the next floor starts.
func TestResumeRefusesImpossibleStates(t *testing.T) {
	reg, err := registry()
	if err != nil {
		t.Fatal(err)
	}
	// saveChanged saves a game in the shop after floor 1's defeat, with
	// change applied first, without Save's own check of the scene.
	saveChanged := func(change func(g *Game)) []byte {
		g := startFloor(t, 6)
		loseFloor(t, g)
		change(g)
		var b bytes.Buffer
		if err := reg.Save(g.World(), &b, &snapshot.SaveOptions{Format: snapshot.Binary}); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	if _, err := Resume(bytes.NewReader(saveChanged(func(*Game) {}))); err != nil {
		t.Fatalf("the shop's save, unchanged: %v", err)
	}
	for _, c := range []struct {
		what, want string
		change     func(g *Game)
	}{
		{"the start screen", "scene start", func(g *Game) { setUnique(t, g, func(s *State) { s.Scene = SceneStart }) }},
		{"a lost run", "run already lost", func(g *Game) { setUnique(t, g, func(s *State) { s.Result = Lost }) }},
		{"floor 0", "floor 0", func(g *Game) { setUnique(t, g, func(s *State) { s.Floor = 0 }) }},
		{"no lives", "0 lives", func(g *Game) { setUnique(t, g, func(s *State) { s.Lives = 0 }) }},
		{"a maxed upgrade beyond its max", "upgrade", func(g *Game) { setUnique(t, g, func(s *Shop) { s.Levels[UpgradeDefense] = 99 }) }},
		{"a bonus out of range", "bonuses", func(g *Game) {
			setUnique(t, g, func(b *FriendBonuses) { b.Next, b.HasNext = NumBonuses+3, true })
		}},
		{"a friend outside the window", "friend", func(g *Game) { add(t, g, Friend{Square{X: 1e6, Y: 10, Size: 5}}) }},
		{"changed rules on a floor", "rules", func(g *Game) {
			pick(t, g, UpgradeDefense)
			setUnique(t, g, func(r *Rules) { r.PelletPeriod = 0 })
		}},
	} {
		badResume(t, c.what, saveChanged(c.change), c.want)
	}
}
