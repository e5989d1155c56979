package game

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/snapshot"
)

// Saving and resuming: [Game.Save] writes a run in progress (a floor or
// the shop) with the snapshot package's binary format, [Resume] reads it
// back into a new Game that plays on exactly as the saved one would have
// with the same inputs. The files themselves are the caller's business:
// this package only reads and writes streams.
//
// A save holds what snapshotGame lists for a rewind, the RNG's state
// among it, plus the run's seed and options ([runConfig]), which decide
// the rules of the floors to come. It does not hold the rewind history
// (a resumed game rewinds no further back than the frame it resumed at),
// moveFriends' scratch grid, the History unique, the frame timing of the
// summary, nor what another package added to the world (the renderer's
// canvas).

// ErrNoRun is returned by [Game.Save] on the start screen and the
// game-over screen: there is no run in progress to save. A caller keeping
// a save file removes it then (see [Game.InRun]).
var ErrNoRun = errors.New("game: no run in progress to save")

// ErrBadSave is wrapped by every error of [Resume]: the input is not a
// run saved by [Game.Save] (another file, a damaged one, or one from a
// version of the game whose state differs). errors.As on
// *snapshot.Error tells what and where for the failures the snapshot
// package finds.
var ErrBadSave = errors.New("game: not a saved Square Eater run")

// runConfig is a unique: what [NewWithOptions] was given, which a save
// must carry so that the floors after a resume get the same rules. It
// never changes during a game, so snapshots for rewinding leave it out.
type runConfig struct {
	Seed             uint64
	InvincibleFrames int // Options.InvincibleFrames
}

// The names of the types in a save. They, not the Go types' names, go in
// the file. Change a name (the ".1") when its type's fields change, so
// that an older save is refused with a clear error instead of decoded
// into the wrong fields.
var saveTypes = struct {
	once sync.Once
	reg  snapshot.Registry
	err  error
}{}

// registry returns the Registry of a save: the types snapshotGame lists
// (a new one must be added to both) and runConfig.
func registry() (*snapshot.Registry, error) {
	saveTypes.once.Do(func() {
		r := &saveTypes.reg
		saveTypes.err = errors.Join(
			snapshot.Register[Friend](r, "squareeater.friend.1"),
			snapshot.Register[PowerPellet](r, "squareeater.pellet.1"),
			snapshot.Register[ToDelete](r, "squareeater.todelete.1"),
			snapshot.RegisterUnique(r, "squareeater.rng.1", snapshot.Codecs[rng]{JSON: rngCodec{}, Binary: rngCodec{}}),
			snapshot.RegisterUnique[Input](r, "squareeater.input.1"),
			snapshot.RegisterUnique[Player](r, "squareeater.player.1"),
			snapshot.RegisterUnique[Rules](r, "squareeater.rules.1"),
			snapshot.RegisterUnique[Spawner](r, "squareeater.spawner.1"),
			snapshot.RegisterUnique[Score](r, "squareeater.score.1"),
			snapshot.RegisterUnique[FriendBonuses](r, "squareeater.bonuses.1"),
			snapshot.RegisterUnique[Shop](r, "squareeater.shop.1"),
			snapshot.RegisterUnique[State](r, "squareeater.state.1"),
			snapshot.RegisterUnique[runConfig](r, "squareeater.config.1"),
		)
	})
	return &saveTypes.reg, saveTypes.err
}

// rngCodec encodes the rng unique, whose PCG state is unexported, through
// rand.PCG's own MarshalBinary and UnmarshalBinary: a JSON array of one
// base64 string per value, which both formats can carry.
type rngCodec struct{}

// Append appends vs as a JSON array of their marshalled PCG states.
func (rngCodec) Append(dst []byte, vs []rng) ([]byte, error) {
	states := make([][]byte, len(vs))
	for i := range vs {
		b, err := vs[i].src.MarshalBinary()
		if err != nil {
			return dst, err
		}
		states[i] = b
	}
	b, err := json.Marshal(states)
	return append(dst, b...), err
}

// Decode fills vs from what Append wrote, refusing anything else.
func (rngCodec) Decode(src []byte, vs []rng) error {
	var states [][]byte
	if err := json.Unmarshal(src, &states); err != nil {
		return err
	}
	if len(states) != len(vs) {
		return fmt.Errorf("%d RNG states for %d values", len(states), len(vs))
	}
	for i, b := range states {
		if err := vs[i].src.UnmarshalBinary(b); err != nil {
			return err
		}
	}
	return nil
}

// InRun reports whether a run is in progress, one that [Game.Save] can
// save: on a floor or in the shop, not on the start or game-over screen.
func (g *Game) InRun() bool {
	s := g.Scene()
	return s == SceneFloor || s == SceneShop
}

// Save writes the run in progress to dst, in the snapshot package's
// binary format, for [Resume]. It returns [ErrNoRun] on the start and
// game-over screens, where there is nothing to resume. Call it between
// Updates, never during one.
func (g *Game) Save(dst io.Writer) error {
	if !g.InRun() {
		return ErrNoRun
	}
	reg, err := registry()
	if err != nil {
		return err
	}
	return reg.Save(g.w, dst, &snapshot.SaveOptions{Format: snapshot.Binary})
}

// Resume reads a run that [Game.Save] wrote and returns a game that plays
// on from where it was saved: with the same inputs it plays the same
// frames, bit for bit, as the saved game would have. It has the saved
// game's seed and options. Its rewind history starts at the frame
// resumed.
//
// An input that is not such a save (another file, a truncated or damaged
// one, a save of another version of the game, a save whose state the
// game could not have reached) gives an error wrapping [ErrBadSave] and
// no game; nothing panics.
func Resume(src io.Reader) (*Game, error) {
	reg, err := registry()
	if err != nil {
		return nil, err
	}
	g := newGame(0, Options{})
	if err := reg.LoadInto(g.w, src, nil); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadSave, err)
	}
	cfg := mustUnique[runConfig](g.w)
	g.seed, g.opts = cfg.Seed, Options{InvincibleFrames: cfg.InvincibleFrames}
	if err := g.checkSaved(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadSave, err)
	}
	if err := g.record(); err != nil {
		return nil, err
	}
	return g, nil
}

// checkSaved checks that the state loaded is one Save could have written
// (the snapshot package checks the file's integrity, not the game's
// rules): a run on a floor or in the shop, levels and bonuses that index
// their arrays, the rules the floor was started with, squares in the
// window. What it lets through cannot make Update panic or loop.
func (g *Game) checkSaved() error {
	st := g.State()
	switch {
	case st.Scene != SceneFloor && st.Scene != SceneShop:
		return fmt.Errorf("scene %v: only a floor or the shop is saved", st.Scene)
	case st.Floor < 1 || st.Floor > FinalFloor:
		return fmt.Errorf("floor %d out of 1..%d", st.Floor, FinalFloor)
	case st.Lives < 1 || st.Lives > Lives:
		return fmt.Errorf("%d lives out of 1..%d", st.Lives, Lives)
	case st.Result != Playing:
		return fmt.Errorf("run already %v", st.Result)
	case g.opts.InvincibleFrames < 0:
		return fmt.Errorf("invincibility of %d frames", g.opts.InvincibleFrames)
	}
	shop := g.Shop()
	for u, l := range shop.Levels {
		if l < 0 || l > Upgrade(u).Max() {
			return fmt.Errorf("upgrade %v at level %d", Upgrade(u), l)
		}
	}
	b := g.Bonuses()
	for i, l := range b.Levels {
		if l < 0 {
			return fmt.Errorf("bonus %v at level %d", Bonus(i), l)
		}
	}
	if b.Last < 0 || b.Last >= NumBonuses || b.Next < 0 || b.Next >= NumBonuses {
		return fmt.Errorf("bonuses %d and %d out of range", b.Last, b.Next)
	}
	if st.Scene == SceneFloor {
		// The rules are computed from the rest when a floor starts; in
		// the shop they are those of the floor played, recomputed when
		// the next starts.
		if want := makeRules(st.Floor, b, shop, g.opts); g.Rules() != want {
			return fmt.Errorf("rules %+v, want floor %d's %+v", g.Rules(), st.Floor, want)
		}
	}
	if sp := mustUnique[Spawner](g.w); sp.Left < 0 {
		return fmt.Errorf("%d friends left to spawn", sp.Left)
	}
	p := g.Player()
	if err := checkSquare("player", p.Square); err != nil {
		return err
	}
	var bad error
	check := func(what string, s Square) {
		if bad == nil {
			bad = checkSquare(what, s)
		}
	}
	if err := errors.Join(
		ecs.Each1(g.w, func(_ ecs.EntityID, f *Friend) { check("friend", f.Square) }),
		ecs.Each1(g.w, func(_ ecs.EntityID, p *PowerPellet) { check("pellet", p.Square) }),
	); err != nil {
		return err
	}
	return bad
}

// checkSquare checks that s is a square the game could have placed: in
// the window, finite, no bigger than MaxSize.
func checkSquare(what string, s Square) error {
	for _, v := range []float64{s.X, s.Y, s.Size} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s %+v is not finite", what, s)
		}
	}
	if s.Size < 0 || s.Size > MaxSize || s.X < -MaxSize || s.X > Width || s.Y < -MaxSize || s.Y > Height {
		return fmt.Errorf("%s %+v is outside the window", what, s)
	}
	return nil
}
