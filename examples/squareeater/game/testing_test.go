package game

import (
	"math"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// Helpers for driving a game in tests. Setup goes through the world-level
// API (a test places friends and pellets where it needs them); the rule
// under test then plays through Game.Update with scripted input.

// setUnique changes the unique T of g with fn.
func setUnique[T any](tb testing.TB, g *Game, fn func(*T)) {
	tb.Helper()
	v, err := ecs.GetUnique[T](g.World())
	if err != nil {
		tb.Fatal(err)
	}
	fn(&v)
	if err := ecs.AddUnique(g.World(), v); err != nil {
		tb.Fatal(err)
	}
}

// countFriends returns the number of friends alive in g.
func countFriends(tb testing.TB, g *Game) int {
	tb.Helper()
	n := 0
	if err := ecs.Each1(g.World(), func(ecs.EntityID, *Friend) { n++ }); err != nil {
		tb.Fatal(err)
	}
	return n
}

// countPellets returns the number of power pellets alive in g.
func countPellets(tb testing.TB, g *Game) int {
	tb.Helper()
	n := 0
	if err := ecs.Each1(g.World(), func(ecs.EntityID, *PowerPellet) { n++ }); err != nil {
		tb.Fatal(err)
	}
	return n
}

// friends returns a copy of g's friends, in storage order.
func friends(tb testing.TB, g *Game) []Friend {
	tb.Helper()
	var out []Friend
	if err := ecs.Each1(g.World(), func(_ ecs.EntityID, f *Friend) { out = append(out, *f) }); err != nil {
		tb.Fatal(err)
	}
	return out
}

// step plays one frame.
func step(tb testing.TB, g *Game, in Input) {
	tb.Helper()
	if err := g.Update(in); err != nil {
		tb.Fatalf("frame %d: %v", g.State().Frames, err)
	}
}

// startFloor returns a game on floor 1, just started with a click.
func startFloor(tb testing.TB, seed uint64) *Game {
	tb.Helper()
	g := New(seed)
	step(tb, g, Input{MouseX: Width / 2, MouseY: Height / 2, Clicked: true})
	if g.Scene() != SceneFloor {
		tb.Fatalf("scene after a click on the start screen = %v, want floor", g.Scene())
	}
	return g
}

// quietFloor returns a game on floor 1 made quiet (see quiet).
func quietFloor(tb testing.TB) *Game {
	tb.Helper()
	g := startFloor(tb, 1)
	quiet(tb, g, false)
	return g
}

// quiet empties g's floor: no friend, no pellet, no friend spawning but one
// friend still to come, so that the floor does not end by itself. Pellets
// keep their spawn rate if keepPellets, else practically never spawn.
func quiet(tb testing.TB, g *Game, keepPellets bool) {
	tb.Helper()
	for _, del := range []func(ecs.Storages) (int, error){ecs.DeleteAny[Friend], ecs.DeleteAny[PowerPellet]} {
		if _, err := del(g.World()); err != nil {
			tb.Fatal(err)
		}
	}
	setUnique(tb, g, func(r *Rules) {
		r.FriendSpawnRate = 0
		if !keepPellets {
			r.PelletPeriod = math.MaxInt
		}
	})
	setUnique(tb, g, func(s *Spawner) { s.Left = 1 })
}

// enterShop puts g in the shop, as if a floor had just ended.
func enterShop(tb testing.TB, g *Game) {
	tb.Helper()
	setUnique(tb, g, func(s *State) { s.Scene = SceneShop })
}

// add adds one entity with component c to g.
func add[T any](tb testing.TB, g *Game, c T) ecs.EntityID {
	tb.Helper()
	id, err := ecs.AddEntity1(g.World(), c)
	if err != nil {
		tb.Fatal(err)
	}
	return id
}

// get returns id's component T, and whether id is alive with one.
func get[T any](tb testing.TB, g *Game, id ecs.EntityID) (T, bool) {
	tb.Helper()
	v, err := ecs.Get[T](g.World(), id)
	return v, err == nil
}

// at returns the input that puts the player's centre on (x, y).
func at(x, y float64) Input { return Input{MouseX: x, MouseY: y} }

// on returns the input that puts the player's centre on s's centre.
func on(s Square) Input { return at(s.Center()) }

// dist returns the distance between the centres of a and b.
func dist(a, b Square) float64 {
	ax, ay := a.Center()
	bx, by := b.Center()
	return math.Hypot(ax-bx, ay-by)
}

// clearFloor eats every friend of the current floor by moving the mouse
// onto an edible one each frame, and returns when the floor is over.
func clearFloor(tb testing.TB, g *Game) {
	tb.Helper()
	floor := g.State().Floor
	for range 5000 {
		if g.Scene() != SceneFloor {
			if st := g.State(); st.LastFloor != Victory {
				tb.Fatalf("floor %d ended with %v while eating it", floor, st.LastFloor)
			}
			return
		}
		p := g.Player()
		in := at(20, 20)
		for _, f := range friends(tb, g) {
			if p.CanEat(f) {
				in = on(f.Square)
				break
			}
		}
		step(tb, g, in)
	}
	tb.Fatalf("floor %d not cleared in 5000 frames", floor)
}

// loseFloor keeps the player on a full-grown friend until the floor is
// lost, adding one when there is none.
func loseFloor(tb testing.TB, g *Game) {
	tb.Helper()
	floor := g.State().Floor
	for range 5000 {
		if g.Scene() != SceneFloor {
			if st := g.State(); st.LastFloor != Defeat {
				tb.Fatalf("floor %d ended with %v while losing it", floor, st.LastFloor)
			}
			return
		}
		var red *Friend
		fs := friends(tb, g)
		for i := range fs {
			if fs[i].FullGrown() {
				red = &fs[i]
				break
			}
		}
		if red == nil {
			f := Friend{Square{X: 100, Y: 100, Size: MaxSize}}
			add(tb, g, f)
			red = &f
		}
		step(tb, g, on(red.Square))
	}
	tb.Fatalf("floor %d not lost in 5000 frames", floor)
}

// pick picks upgrade u in the shop with its key.
func pick(tb testing.TB, g *Game, u Upgrade) {
	tb.Helper()
	if g.Scene() != SceneShop {
		tb.Fatalf("scene = %v, want shop", g.Scene())
	}
	step(tb, g, Input{Key: '1' + rune(u)})
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
