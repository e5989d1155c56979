package game

import (
	"errors"
	"fmt"
	"hash/fnv"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// fingerprint returns a hash of everything a rewind must put back: the
// entities storage (the live ids with their generations, and the next
// fingerprintIDs ids the world hands out, which the free list's order and
// the freed slots' generations decide), every component of the game with
// its entity, in storage order, and every unique snapshotGame lists, the
// RNG's state included. Floats are printed in their shortest exact form,
// so two fingerprints are equal only if the states are equal bit for bit
// (up to a 64-bit hash collision, and NaNs, which the game never makes).
// History, which a rewind does not restore, is left out.
func fingerprint(tb testing.TB, g *Game) uint64 {
	tb.Helper()
	h := fnv.New64a()
	w := g.World()
	var ents ecs.EntitiesView
	release, err := w.Borrow(&ents)
	if err != nil {
		tb.Fatal(err)
	}
	for id := range ents.All() {
		fmt.Fprint(h, "E", id)
	}
	release()
	clone, err := w.Clone()
	if err != nil {
		tb.Fatal(err)
	}
	for range fingerprintIDs {
		id, err := clone.AddEntity()
		if err != nil {
			tb.Fatal(err)
		}
		fmt.Fprint(h, "N", id)
	}
	if err := ecs.Each1(w, func(id ecs.EntityID, f *Friend) { fmt.Fprintf(h, "F%v%#v", id, *f) }); err != nil {
		tb.Fatal(err)
	}
	if err := ecs.Each1(w, func(id ecs.EntityID, p *PowerPellet) { fmt.Fprintf(h, "P%v%#v", id, *p) }); err != nil {
		tb.Fatal(err)
	}
	if err := ecs.Each1(w, func(id ecs.EntityID, _ *ToDelete) { fmt.Fprintf(h, "D%v", id) }); err != nil {
		tb.Fatal(err)
	}
	fmt.Fprintf(h, "%#v %#v %#v %#v %#v %#v %#v %#v %#v",
		mustUnique[rng](w), mustUnique[Input](w), g.Player(), g.Rules(), mustUnique[Spawner](w),
		mustUnique[Score](w), g.Bonuses(), g.Shop(), g.State())
	return h.Sum64()
}

// fingerprintIDs is how many of the next ids a fingerprint covers: more
// than the entities the tests' games ever free.
const fingerprintIDs = 256

// rewindInput is the input of a frame with the rewind key held (the mouse
// elsewhere, a click: all to be ignored).
var rewindInput = Input{MouseX: 1, MouseY: 2, Clicked: true, Key: ' ', Rewind: true}

// tape records a game frame by frame: the input of each frame and the
// fingerprint after it. fps[0] is the fingerprint before the first frame
// taped, ins[i] the input that led from fps[i] to fps[i+1].
type tape struct {
	ins    []Input
	fps    []uint64
	scenes []Scene // the scene after each frame, as fps
}

func newTape(tb testing.TB, g *Game) *tape {
	return &tape{fps: []uint64{fingerprint(tb, g)}, scenes: []Scene{g.Scene()}}
}

// play plays in and tapes it.
func (tp *tape) play(tb testing.TB, g *Game, in Input) {
	tb.Helper()
	step(tb, g, in)
	tp.ins = append(tp.ins, in)
	tp.fps = append(tp.fps, fingerprint(tb, g))
	tp.scenes = append(tp.scenes, g.Scene())
}

// rewind holds the rewind key from frame from of the tape back to frame
// to, checking at each step that the state is the one taped there, bit
// for bit, and that History counts down to limit (the frame where the
// rewind stops).
func (tp *tape) rewind(tb testing.TB, g *Game, from, to, limit int) {
	tb.Helper()
	for f := from - 1; f >= to; f-- {
		step(tb, g, rewindInput)
		if got := fingerprint(tb, g); got != tp.fps[f] {
			tb.Fatalf("rewound to frame %d: state %x, want %x as taped (scene %v)", f, got, tp.fps[f], g.Scene())
		}
		if h := g.History(); h != (History{Rewinding: true, Frames: f - limit}) {
			tb.Fatalf("rewound to frame %d: %+v, want %d frames left", f, h, f-limit)
		}
	}
}

// replay plays the tape's inputs from frame from on, checking that they
// lead to the states taped.
func (tp *tape) replay(tb testing.TB, g *Game, from int) {
	tb.Helper()
	for f := from; f < len(tp.ins); f++ {
		step(tb, g, tp.ins[f])
		if got := fingerprint(tb, g); got != tp.fps[f+1] {
			tb.Fatalf("replaying frame %d: state %x, want %x as first played (scene %v)", f+1, got, tp.fps[f+1], g.Scene())
		}
		if h := g.History(); h.Rewinding {
			tb.Fatalf("replaying frame %d: History %+v says rewinding", f+1, h)
		}
	}
}

// TestRewindReplays: the bot plays until well past the end of a floor;
// holding the rewind key then walks back through every frame of the last
// five seconds, the floor's end, the shop and the next floor's start among
// them, each state equal to the one played, and stops there; released,
// the same inputs play the same frames again, the same random draws
// included.
func TestRewindReplays(t *testing.T) {
	g := New(5)
	tp := newTape(t, g)
	var bot Bot
	ended := -1 // the frame that left the first floor
	// Until half the ring's length past the floor's end, and at least a
	// ring and a bit: the last RewindFrames frames hold the end.
	for f := 0; ended < 0 || f < max(ended+RewindFrames/2, RewindFrames+50); f++ {
		if f > 10000 {
			t.Fatal("the bot did not finish floor 1 in 10000 frames")
		}
		tp.play(t, g, bot.Input(g))
		if ended < 0 && tp.scenes[f] == SceneFloor && tp.scenes[f+1] != SceneFloor {
			ended = f + 1
		}
	}
	last := len(tp.ins)
	oldest := last - RewindFrames
	seen := map[Scene]bool{}
	for _, s := range tp.scenes[oldest:] {
		seen[s] = true
	}
	if !seen[SceneFloor] || !seen[SceneShop] {
		t.Fatalf("the last %d frames show scenes %v: want a floor and the shop, to rewind through a floor's end", RewindFrames, seen)
	}
	if tp.fps[oldest] == tp.fps[last] {
		t.Fatal("the state did not change in the frames to rewind")
	}
	if h := g.History(); h != (History{Frames: RewindFrames}) {
		t.Errorf("after %d frames: %+v, want %d frames of history", last, h, RewindFrames)
	}

	tp.rewind(t, g, last, oldest, oldest)
	if got := g.State().Frames; got != oldest {
		t.Errorf("State.Frames after rewinding %d frames from %d = %d, want %d", RewindFrames, last, got, oldest)
	}
	// At the limit it stays: 5 seconds back is as far as it goes.
	for range 10 {
		step(t, g, rewindInput)
		if got := fingerprint(t, g); got != tp.fps[oldest] {
			t.Fatalf("rewinding past the limit changed the state (frame %d)", g.State().Frames)
		}
		if h := g.History(); h != (History{Rewinding: true}) {
			t.Fatalf("at the limit: %+v, want rewinding with 0 frames left", h)
		}
	}

	// Released: the same inputs play the same frames.
	tp.replay(t, g, oldest)
	if h := g.History(); h != (History{Frames: RewindFrames}) {
		t.Errorf("after replaying: %+v, want %d frames of history", h, RewindFrames)
	}
}

// TestRewindForgetsRewoundFrames: frames rewound are gone; the history
// goes on from the frame the rewind stopped at, with the frames played
// since.
func TestRewindForgetsRewoundFrames(t *testing.T) {
	g := New(8)
	a := newTape(t, g)
	a.play(t, g, Input{Key: ' '})
	for _, in := range scripted(3, 399) {
		in.Clicked, in.Key = false, 0 // stay on the floor
		a.play(t, g, in)
	}
	if g.Scene() != SceneFloor {
		t.Fatalf("scene %v after 400 frames, want the floor", g.Scene())
	}
	// Back 100 frames, to frame 300.
	a.rewind(t, g, 400, 300, 100)
	// 50 other frames: the mouse goes elsewhere.
	b := newTape(t, g)
	for i := range 50 {
		b.play(t, g, at(100+float64(i), 500))
	}
	if b.fps[50] == a.fps[350] {
		t.Fatal("the new frames played as the old ones: the test cannot tell them apart")
	}
	if h := g.History(); h.Frames != 250 {
		t.Fatalf("history after rewinding 100 of 300 frames and playing 50: %d frames, want 250", h.Frames)
	}
	// Back through the new frames (b's frame 0 is frame 300), then the
	// old ones before 300, down to 100, five seconds before 400.
	b.rewind(t, g, 50, 0, -200)
	a.rewind(t, g, 300, 100, 100)
	step(t, g, rewindInput)
	if got := fingerprint(t, g); got != a.fps[100] {
		t.Error("rewinding past the limit left frame 100")
	}
}

// TestRewindShortHistory: a game younger than five seconds rewinds to its
// start screen, and not beyond.
func TestRewindShortHistory(t *testing.T) {
	g := New(2)
	start := fingerprint(t, g)
	step(t, g, rewindInput) // nothing played yet: the start screen stays
	if got := fingerprint(t, g); got != start {
		t.Fatal("rewinding a new game changed it")
	}
	if h := g.History(); h != (History{Rewinding: true}) {
		t.Errorf("rewinding a new game: %+v, want rewinding, 0 frames left", h)
	}
	step(t, g, Input{MouseX: 300, MouseY: 300, Clicked: true})
	for range 20 {
		step(t, g, at(300, 300))
	}
	if g.Scene() != SceneFloor || g.History().Frames != 21 {
		t.Fatalf("scene %v, %+v after a click and 20 frames; want the floor, 21 frames", g.Scene(), g.History())
	}
	for range 30 {
		step(t, g, rewindInput)
	}
	if got := fingerprint(t, g); got != start || g.Scene() != SceneStart || g.State().Frames != 0 {
		t.Errorf("rewound 30 frames of 21: scene %v, frame %d; want the start screen as New made it", g.Scene(), g.State().Frames)
	}
}

// loseStep returns the input that keeps the player on a full-grown
// friend, adding one before the frame when there is none (as loseFloor),
// and picks defense in the shop. Played again from the same state, it
// does the same.
func loseStep(tb testing.TB, g *Game) Input {
	tb.Helper()
	switch g.Scene() {
	case SceneShop:
		return Input{Key: '5'}
	case SceneFloor:
	default:
		return Input{}
	}
	for _, f := range friends(tb, g) {
		if f.FullGrown() {
			return on(f.Square)
		}
	}
	f := Friend{Square{X: 100, Y: 100, Size: MaxSize}}
	add(tb, g, f)
	return on(f.Square)
}

// TestRewindGameOver: on the game-over screen, rewinding goes back into
// the floor that was lost, the last life back; played again, the same
// frames lose the run at the same frame.
func TestRewindGameOver(t *testing.T) {
	g := startFloor(t, 4)
	var frames []uint64 // the fingerprint after each frame, from the floor's start
	frames = append(frames, fingerprint(t, g))
	var ins []Input
	for g.Scene() != SceneGameOver {
		if len(ins) > 20000 {
			t.Fatal("the run was not lost in 20000 frames")
		}
		// loseStep may add a friend before the frame: not recorded, not
		// rewound, but added again by the replay.
		in := loseStep(t, g)
		ins = append(ins, in)
		step(t, g, in)
		frames = append(frames, fingerprint(t, g))
	}
	over := len(ins)
	for f := over - 1; f >= over-60; f-- {
		step(t, g, rewindInput)
		if got := fingerprint(t, g); got != frames[f] {
			t.Fatalf("rewound to frame %d of the floor: state differs from the one played", f)
		}
	}
	st := g.State()
	if st.Scene != SceneFloor || st.Lives != 1 || st.Result != Playing {
		t.Fatalf("one second before the game-over screen: %+v, want the last floor being played with 1 life", st)
	}
	// Played again, the run is lost at the same frame, in the same state.
	for f := over - 60; g.Scene() != SceneGameOver; f++ {
		if f >= over {
			t.Fatalf("replayed past frame %d, where the run was lost, without losing it", over)
		}
		step(t, g, loseStep(t, g))
	}
	if got := g.State().Frames; got != st.Frames+60 {
		t.Errorf("replay lost the run at frame %d, want %d", got, st.Frames+60)
	}
	if got := fingerprint(t, g); got != frames[over] {
		t.Error("replay reached the game-over screen in another state")
	}
}

// TestRewindErrors: a rewind or a recording that fails is reported, never
// swallowed, and leaves the history as it was; a panic in a frame is
// raised, and a rewind afterwards restores the last frame recorded.
func TestRewindErrors(t *testing.T) {
	g := New(6)
	tp := newTape(t, g)
	tp.play(t, g, Input{Key: ' '})
	for range 29 {
		tp.play(t, g, at(200, 200))
	}
	hist := g.History()

	// A view held elsewhere: the restore cannot borrow the world.
	var friends ecs.View[Friend]
	release, err := g.World().Borrow(&friends)
	if err != nil {
		t.Fatal(err)
	}
	err = g.Update(rewindInput)
	release()
	var be *ecs.BorrowError
	if !errors.As(err, &be) {
		t.Fatalf("rewinding while a view is held: %v, want a *ecs.BorrowError", err)
	}
	if got := fingerprint(t, g); got != tp.fps[30] || g.History() != hist {
		t.Fatalf("a failed rewind changed the game (history %+v, was %+v)", g.History(), hist)
	}
	// The history is intact: the next rewind goes one frame back.
	tp.rewind(t, g, 30, 29, 0)

	// A view held exclusively: the frame cannot be recorded.
	tp.replay(t, g, 29)
	var mut ecs.ViewMut[ToDelete]
	release, err = g.World().Borrow(&mut)
	if err != nil {
		t.Fatal(err)
	}
	err = g.Update(at(250, 250))
	release()
	if !errors.As(err, &be) {
		t.Fatalf("playing while a ViewMut is held: %v, want a *ecs.BorrowError", err)
	}
	// The frame failed halfway: one frame back is the last one recorded,
	// frame 30.
	tp.rewind(t, g, 31, 30, 0)

	// A panic in a system comes out of Update; a rewind then restores the
	// last frame recorded.
	if err := g.World().ReplaceWorkload(MainLoop, func(p ecs.UniqueViewMut[Player]) {
		p.Get().X = -1000 // changes the world, then fails
		panic("boom")
	}); err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() {
			r := recover()
			var sp *ecs.SystemPanic
			if e, ok := r.(error); !ok || !errors.As(e, &sp) {
				t.Fatalf("Update with a panicking system: recovered %v, want a *ecs.SystemPanic", r)
			}
		}()
		g.Update(at(300, 300))
		t.Fatal("Update with a panicking system returned")
	}()
	if g.Player().X != -1000 {
		t.Fatal("the panicking system did not run")
	}
	step(t, g, rewindInput)
	if got := fingerprint(t, g); got != tp.fps[30] {
		t.Fatal("rewinding after a panic did not restore the last frame recorded")
	}
}

// TestRewindAllocatesNothing: once the ring is full, recording a frame
// and rewinding one allocate nothing, and a frame played allocates no
// more than the main_loop workload it runs.
func TestRewindAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	g := quietFloor(t)
	for i := range 20 {
		add(t, g, Friend{Square{X: 10 + 35*float64(i), Y: 100 + 10*float64(i), Size: InitSize}})
	}
	setUnique(t, g, func(p *Player) { p.ICounter = 1 << 40 }) // the floor never ends
	in := at(400, 300)
	for range RewindFrames + 10 {
		step(t, g, in)
	}
	if h := g.History(); h.Frames != RewindFrames {
		t.Fatalf("ring not full: %+v", h)
	}
	workload := testing.AllocsPerRun(20, func() {
		if err := g.World().RunWorkload(MainLoop); err != nil {
			t.Fatal(err)
		}
	})
	for range RewindFrames + 10 { // the ring again, over the frames the workload ran
		step(t, g, in)
	}
	if n := testing.AllocsPerRun(100, func() {
		if err := g.record(); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("recording a frame: %v allocations, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { step(t, g, in) }); n > workload {
		t.Errorf("playing a frame: %v allocations, more than the %v of its workload", n, workload)
	}
	if n := testing.AllocsPerRun(100, func() { step(t, g, rewindInput) }); n != 0 {
		t.Errorf("rewinding a frame: %v allocations, want 0", n)
	}
	for g.History().Frames > 0 {
		step(t, g, rewindInput)
	}
	if n := testing.AllocsPerRun(20, func() { step(t, g, rewindInput) }); n != 0 {
		t.Errorf("rewinding at the limit: %v allocations, want 0", n)
	}
}

// TestRngRewinds: the RNG unique is a value, so a copy of it (as a
// snapshot makes) draws the same numbers as the original, and the draws
// startFloor makes from its copy are stored back.
func TestRngRewinds(t *testing.T) {
	g := New(9)
	before := mustUnique[rng](g.World())
	cp := before
	want := cp.rand().Uint64()
	if got := mustUnique[rng](g.World()); got != before {
		t.Fatal("drawing from a copy of the rng changed the world's")
	}
	if cp2 := before; cp2.rand().Uint64() != want {
		t.Fatal("two copies of one rng state drew different numbers")
	}
	step(t, g, Input{Key: ' '}) // startFloor draws the first friends' places
	if mustUnique[rng](g.World()) == before {
		t.Error("startFloor drew from the rng but did not store its new state")
	}
}
