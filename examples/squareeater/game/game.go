package game

import (
	"errors"
	"fmt"
	"time"

	"github.com/slipway-ecs/slipway/ecs"
)

// MainLoop is the name of the workload that plays one frame of a floor.
const MainLoop = "main_loop"

// Game is a run of Square Eater: a world, its main_loop workload and the
// scenes around it. It imports no graphics: a renderer reads the world
// between calls to [Game.Update].
type Game struct {
	w    *ecs.World
	seed uint64
	opts Options
	// spawnBuf is reused to bulk-add each floor's first friends.
	spawnBuf []Friend
	// hist holds the snapshots of the last frames, for rewinding (see
	// rewind.go).
	hist ring
	// Update timing, for the summary. Timing never feeds back into the
	// game, which stays deterministic.
	timed       int
	total, slow time.Duration
}

// Options change the game's rules from their defaults. The zero value plays
// the default rules.
type Options struct {
	// InvincibleFrames is how long the player is invincible after a hit;
	// 0 means [InvincibleFrames]. [GuideInvincibleFrames] is the Shipyard
	// guide's value.
	InvincibleFrames int
}

// invincibleFrames returns the invincibility after a hit that o chooses.
func (o Options) invincibleFrames() int {
	if o.InvincibleFrames > 0 {
		return o.InvincibleFrames
	}
	return InvincibleFrames
}

// GuideOptions returns the options that play the Shipyard guide's rules
// where the game's defaults differ from them: 5 frames of invincibility.
func GuideOptions() Options { return Options{InvincibleFrames: GuideInvincibleFrames} }

// New returns a game on its start screen with the default rules. All its
// randomness comes from seed: the same seed and the same inputs play the
// same game.
func New(seed uint64) *Game { return NewWithOptions(seed, Options{}) }

// NewWithOptions is New with rules changed by o.
func NewWithOptions(seed uint64, o Options) *Game {
	g := newGame(seed, o)
	// The start screen is the oldest frame a rewind can reach.
	if err := g.hist.record(g.w); err != nil {
		panic("game: cannot record the first frame: " + err.Error())
	}
	return g
}

// newGame returns a game on its start screen, its world set up but no
// frame recorded for rewinding yet: [NewWithOptions] records the start
// screen, [Resume] the run it loads over it.
func newGame(seed uint64, o Options) *Game {
	g := &Game{w: ecs.NewWorld(), seed: seed, opts: o, hist: newRing()}
	uniques := []error{
		ecs.AddUnique(g.w, newRng(seed)),
		ecs.AddUnique(g.w, Input{}),
		ecs.AddUnique(g.w, Player{}),
		ecs.AddUnique(g.w, Rules{}),
		ecs.AddUnique(g.w, Spawner{}),
		ecs.AddUnique(g.w, Score{}),
		ecs.AddUnique(g.w, FriendBonuses{}),
		ecs.AddUnique(g.w, Shop{}),
		ecs.AddUnique(g.w, friendGrid{}),
		ecs.AddUnique(g.w, State{Scene: SceneStart, Floor: 1, Lives: Lives}),
		ecs.AddUnique(g.w, History{}),
		ecs.AddUnique(g.w, runConfig{Seed: seed, InvincibleFrames: o.InvincibleFrames}),
		g.w.AddWorkload(MainLoop, mainLoop()...),
	}
	if err := errors.Join(uniques...); err != nil {
		// Nothing else holds the new world: only a bug gets here.
		panic("game: cannot set up the world: " + err.Error())
	}
	return g
}

// World returns the game's world, for rendering systems. Read it between
// calls to Update, never during one.
func (g *Game) World() *ecs.World { return g.w }

// Options returns the options the game was created with.
func (g *Game) Options() Options { return g.opts }

// Seed returns the seed the game was created with.
func (g *Game) Seed() uint64 { return g.seed }

// Scene returns the scene the game shows.
func (g *Game) Scene() Scene { return g.State().Scene }

// State returns a copy of the game's State unique.
func (g *Game) State() State { return mustUnique[State](g.w) }

// Player returns a copy of the Player unique.
func (g *Game) Player() Player { return mustUnique[Player](g.w) }

// Rules returns a copy of the current floor's Rules unique.
func (g *Game) Rules() Rules { return mustUnique[Rules](g.w) }

// Shop returns a copy of the Shop unique.
func (g *Game) Shop() Shop { return mustUnique[Shop](g.w) }

// Bonuses returns a copy of the FriendBonuses unique.
func (g *Game) Bonuses() FriendBonuses { return mustUnique[FriendBonuses](g.w) }

// ShopOptions returns the shop's five options with their levels and
// rectangles (see [ShopOption]).
func (g *Game) ShopOptions() []ShopOption { return g.Shop().Options() }

// FriendsLeft returns the number of friends of the floor still to eat:
// those alive and those not spawned yet.
func (g *Game) FriendsLeft() int {
	n := 0
	var friends ecs.View[Friend]
	if release, err := g.w.Borrow(&friends); err == nil {
		n = friends.Len()
		release()
	}
	return n + mustUnique[Spawner](g.w).Left
}

// mustUnique returns a copy of the unique T, which New added. It panics if
// the unique is missing or borrowed elsewhere (the world is read during
// Update): a bug in the caller.
func mustUnique[T any](w *ecs.World) T {
	v, err := ecs.GetUnique[T](w)
	if err != nil {
		panic("game: " + err.Error())
	}
	return v
}

// Update plays one logic frame with the given input. On a floor it runs the
// main_loop workload and, when checkGameOver ends the floor, goes to the
// shop or to the game-over screen. It returns an error only for unexpected
// failures (a bug), never for the end of a floor or of a run.
//
// With in.Rewind set it plays no frame: it steps the game one frame back
// instead, restoring the state the game had then (the rest of in is
// ignored), and stays at the oldest frame it remembers, [RewindSeconds]
// back at most. The next Update without in.Rewind plays on from there, and
// the frames rewound are forgotten. Any scene can be rewound, the
// game-over screen included. See [History].
func (g *Game) Update(in Input) error {
	start := time.Now()
	err := g.update(in)
	d := time.Since(start)
	g.timed++
	g.total += d
	g.slow = max(g.slow, d)
	return err
}

func (g *Game) update(in Input) error {
	if in.Rewind {
		return g.rewind()
	}
	g.hist.dirty = true // until record: see ring
	if err := put(g.w, in); err != nil {
		return err
	}
	st, err := ecs.GetUnique[State](g.w)
	if err != nil {
		return err
	}
	st.Frames++
	scene := st.Scene
	if st.SceneFrames < ClickGuard && (scene == SceneShop || scene == SceneGameOver) {
		in.Clicked = false // see ClickGuard
	}
	switch st.Scene {
	case SceneStart:
		if in.Key == ' ' || in.Clicked {
			if err := g.startRun(&st); err != nil {
				return err
			}
		}
	case SceneFloor:
		st.FloorFrames++
		if err := g.w.RunWorkload(MainLoop); err != nil {
			var over GameOver
			if !errors.As(err, &over) {
				return err
			}
			if err := g.endFloor(&st, over); err != nil {
				return err
			}
		}
	case SceneShop:
		shop, err := ecs.GetUnique[Shop](g.w)
		if err != nil {
			return err
		}
		if u, ok := shop.choice(in); ok {
			shop.Levels[u]++
			shop.Picks++
			if err := ecs.AddUnique(g.w, shop); err != nil {
				return err
			}
			err = g.startFloor(&st)
		} else if shop.AllMaxed() && (in.Key == ' ' || in.Clicked) {
			err = g.startFloor(&st)
		}
		if err != nil {
			return err
		}
	case SceneGameOver:
		// One click (or space) plays again: a new run, as from the start
		// screen.
		if in.Key == ' ' || in.Clicked {
			if err := g.startRun(&st); err != nil {
				return err
			}
		}
	}
	if st.Scene != scene {
		st.SceneFrames = 0
	} else {
		st.SceneFrames++
	}
	if err := put(g.w, st); err != nil {
		return err
	}
	return g.record()
}

// put stores v as the world's unique T, which New added, by changing it in
// place: that allocates nothing (ecs.AddUnique, which replaces it, did), and
// Update calls put every frame.
func put[T any](w *ecs.World, v T) error {
	return ecs.UpdateUnique(w, func(u *T) { *u = v })
}

// startRun resets the run and starts floor 1.
func (g *Game) startRun(st *State) error {
	*st = State{Floor: 1, Lives: Lives, Frames: st.Frames}
	if err := errors.Join(ecs.AddUnique(g.w, Shop{}), ecs.AddUnique(g.w, FriendBonuses{})); err != nil {
		return err
	}
	return g.startFloor(st)
}

// startFloor clears the window and starts floor st.Floor: the friends gain
// the bonus endFloor drew for it if the floor is new (beyond the first),
// the rules are set, the player is reset and the floor's first friends are
// added in bulk.
func (g *Game) startFloor(st *State) error {
	w := g.w
	for _, del := range []func(ecs.Storages) (int, error){ecs.DeleteAny[Friend], ecs.DeleteAny[PowerPellet], ecs.DeleteAny[ToDelete]} {
		if _, err := del(w); err != nil {
			return err
		}
	}
	r, err := ecs.GetUnique[rng](w)
	if err != nil {
		return err
	}
	bonuses, err := ecs.GetUnique[FriendBonuses](w)
	if err != nil {
		return err
	}
	shop, err := ecs.GetUnique[Shop](w)
	if err != nil {
		return err
	}
	st.BestFloor = max(st.BestFloor, st.Floor)
	if bonuses.HasNext {
		b := bonuses.Next
		bonuses.Levels[b]++
		bonuses.Count++
		bonuses.Last = b
		bonuses.Next, bonuses.HasNext = 0, false
	}
	rules := makeRules(st.Floor, bonuses, shop, g.opts)
	size := rules.PlayerStart
	player := Player{Square: Square{X: (Width - size) / 2, Y: ArenaTop + (Height-ArenaTop-size)/2, Size: size}}

	friends := g.spawnBuf[:0]
	rnd := r.rand()
	for range rules.FriendsAtStart {
		friends = append(friends, Friend{randomSquare(rnd, rules.FriendStart)})
	}
	g.spawnBuf = friends
	if _, err := ecs.BulkAddEntity1(w, friends); err != nil {
		return err
	}
	st.Scene = SceneFloor
	st.FloorFrames = 0
	return errors.Join(
		ecs.AddUnique(w, bonuses),
		ecs.AddUnique(w, rules),
		ecs.AddUnique(w, player),
		ecs.AddUnique(w, Spawner{Left: rules.FriendsTotal - rules.FriendsAtStart, Spawned: rules.FriendsAtStart}),
		ecs.AddUnique(w, Score{}),
		put(w, r), // the draws above advanced the copy r
	)
}

// endFloor settles a floor that checkGameOver ended: a victory moves to the
// next floor (or wins the run after FinalFloor) and draws the bonus the
// friends gain there, a defeat costs a life (the last one loses the run);
// either way the shop comes next unless the run is over.
//
// The bonus is drawn here rather than when the next floor starts so that
// the shop can show it; nothing else draws from the game's randomness in
// between, so a seed plays the same game as when it was drawn later.
func (g *Game) endFloor(st *State, over GameOver) error {
	score, err := ecs.GetUnique[Score](g.w)
	if err != nil {
		return err
	}
	bonuses, err := ecs.GetUnique[FriendBonuses](g.w)
	if err != nil {
		return err
	}
	r, err := ecs.GetUnique[rng](g.w)
	if err != nil {
		return err
	}
	st.Eaten += score.Eaten
	st.LastFloor = over
	st.Scene = SceneShop
	switch over {
	case Victory:
		st.Cleared++
		if st.Floor >= FinalFloor {
			st.Result, st.Scene = Won, SceneGameOver
		} else {
			st.Floor++
			if st.Floor > st.BestFloor && !bonuses.HasNext {
				bonuses.Next = Bonus(r.rand().IntN(int(NumBonuses)))
				bonuses.HasNext = true
				// r is a copy: store the state the draw advanced.
				if err := errors.Join(ecs.AddUnique(g.w, bonuses), put(g.w, r)); err != nil {
					return err
				}
			}
		}
	case Defeat:
		st.Defeats++
		st.Lives--
		if st.Lives <= 0 {
			st.Result, st.Scene = Lost, SceneGameOver
		}
	default:
		return fmt.Errorf("game: unknown end of floor %d", int(over))
	}
	return nil
}
