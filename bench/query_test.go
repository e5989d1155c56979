package bench

// The query workloads (add Velocity to Position for every entity that has
// both) and Random (look entities up by id in a shuffled order).

import (
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// queryLayouts are the Slipway variants of the query workloads.
var queryLayouts = []layout{plainLayout, groupLayout}

// BenchmarkQuery2Comp: N entities with Position and Velocity, then 10N with
// Position only; the round adds Velocity to Position for the N.
func BenchmarkQuery2Comp(b *testing.B) { benchQuery(b, buildQuery2Comp) }

// BenchmarkQuery32Arch: N entities with Position and Velocity, each also with
// a random subset of C1..C5 (32 combinations); the same round.
func BenchmarkQuery32Arch(b *testing.B) { benchQuery(b, buildQuery32Arch) }

// BenchmarkQuery256Arch: N entities with Position and Velocity, then 4N
// with Position and a random subset of C1..C8 (256 combinations); the same
// round. This is the Go ECS benchmarks' order of creation, on which the
// issue's figures for Ark were measured.
func BenchmarkQuery256Arch(b *testing.B) { benchQuery(b, buildQuery256Arch) }

// BenchmarkQuery256ArchMixed: the entities of Query256Arch created in a
// random interleaving, so the movers' positions are spread among 5N in the
// Position storage: the case where a sparse set's join pays for the order
// its storages were filled in, and a packed group does not.
func BenchmarkQuery256ArchMixed(b *testing.B) { benchQuery(b, buildQuery256ArchMixed) }

// benchQuery measures the plain baseline (a loop over an array of N
// structs holding both components: the speed of light) and every layout of
// Slipway running the move system on the world build makes.
func benchQuery(b *testing.B, build func(testing.TB, *ecs.World, int)) {
	impls := []impl{{"plain", func(b *testing.B, n int) {
		ms := newMovers(n)
		measure(b, n, func() { movePlain(ms) })
	}}}
	for _, l := range queryLayouts {
		impls = append(impls, impl{l.name, func(b *testing.B, n int) {
			w := l.newWorld(b)
			build(b, w, n)
			measure(b, n, func() { check(b, w.Run(move)) })
		}})
	}
	runImpls(b, append(impls, refQueryImpl(build))...)
}

// move is the system of the query workloads, with the fastest idiomatic
// iteration: the join's runs of aligned slices (a packed group is one run;
// entities given Position and Velocity together are another), with a loop
// over plain slices inside.
func move(pos ecs.ViewMut[Position], vel ecs.View[Velocity]) {
	for r := range ecs.Join2(pos, vel).Runs() {
		ps, vs := r.A, r.B[:len(r.A)]
		for i := range ps {
			ps[i].X += vs[i].X
			ps[i].Y += vs[i].Y
		}
	}
}

// mover is an entity of the plain baseline of the query workloads.
type mover struct {
	P Position
	V Velocity
}

func newMovers(n int) []mover {
	ms := make([]mover, n)
	for i := range ms {
		ms[i] = mover{Position{float64(i), 1}, Velocity{1, 2}}
	}
	return ms
}

//go:noinline
func movePlain(ms []mover) {
	for i := range ms {
		m := &ms[i]
		m.P.X += m.V.X
		m.P.Y += m.V.Y
	}
}

// buildQuery2Comp fills w with n movers (Position {i, 1}, Velocity {1, 2})
// followed by 10n entities with Position only.
func buildQuery2Comp(tb testing.TB, w *ecs.World, n int) {
	tb.Helper()
	ps := column[Position](n)
	_, err := ecs.BulkAddEntity2(w, ps, constColumn[Velocity](n, 1, 2))
	check(tb, err)
	for range 10 {
		_, err := ecs.BulkAddEntity1(w, ps)
		check(tb, err)
	}
}

// buildQuery32Arch fills w with n movers, each also having a random subset
// of C1..C5.
func buildQuery32Arch(tb testing.TB, w *ecs.World, n int) {
	tb.Helper()
	ids, err := ecs.BulkAddEntity2(w, column[Position](n), constColumn[Velocity](n, 1, 2))
	check(tb, err)
	rng := newRand()
	masks := make([]uint8, n)
	for i := range masks {
		masks[i] = uint8(rng.IntN(32))
	}
	for k := range 5 {
		addC[k](tb, w, ids, hasBit(masks, k))
	}
}

// buildQuery256Arch fills w with n movers, then 4n entities with Position
// and a random subset of C1..C8 each.
func buildQuery256Arch(tb testing.TB, w *ecs.World, n int) {
	tb.Helper()
	_, err := ecs.BulkAddEntity2(w, column[Position](n), constColumn[Velocity](n, 1, 2))
	check(tb, err)
	others, err := ecs.BulkAddEntity1(w, column[Position](4*n))
	check(tb, err)
	addSubsets(tb, w, others, func(int) bool { return true })
}

// buildQuery256ArchMixed fills w with 5n entities with Position; a random n
// of them (spread over the whole range) get Velocity and the other 4n a
// random subset of C1..C8. The movers' positions are therefore interleaved
// with 4n others in the Position storage.
func buildQuery256ArchMixed(tb testing.TB, w *ecs.World, n int) {
	tb.Helper()
	ids, err := ecs.BulkAddEntity1(w, column[Position](5*n))
	check(tb, err)
	isMover := make([]bool, 5*n)
	for _, i := range newRand().Perm(5 * n)[:n] {
		isMover[i] = true
	}
	addTo[Velocity](tb, w, ids, func(i int) bool { return isMover[i] })
	addSubsets(tb, w, ids, func(i int) bool { return !isMover[i] })
}

// addSubsets gives each of ids that keep selects a random subset of C1..C8
// (each of the 256 equally likely; the empty one too).
func addSubsets(tb testing.TB, w *ecs.World, ids []ecs.EntityID, keep func(i int) bool) {
	tb.Helper()
	rng := newRand()
	masks := make([]uint8, len(ids))
	for i := range masks {
		masks[i] = uint8(rng.IntN(256))
	}
	for k := range 8 {
		bit := hasBit(masks, k)
		addC[k](tb, w, ids, func(i int) bool { return keep(i) && bit(i) })
	}
}

// BenchmarkRandom: N entities with Position, their ids shuffled into a
// slice; the round sums Position.X looking each id up through a View. The
// baseline indexes a slice of N positions with the same shuffled indices.
func BenchmarkRandom(b *testing.B) { runImpls(b, randomImpls(buildRandom)...) }

// BenchmarkRandomMoved: Random, after the Position storage was reordered
// so that its order no longer follows the entities' indices. Random's
// storage, filled in creation order, lets a lookup skip the sparse page
// (the storage's identity prefix); here every lookup reads it. No target:
// it shows what Random costs without that shortcut.
func BenchmarkRandomMoved(b *testing.B) { runImpls(b, randomImpls(buildRandomMoved)...) }

// randomImpls are the implementations of Random and RandomMoved, on the
// world and shuffled ids build returns: the baseline (a slice of N
// positions indexed with shuffled indices), Slipway (View.Get for each id,
// in a system), Slipway's bulk lookup (View.Lookup over the ids), and the
// sparse reference.
func randomImpls(build func(testing.TB, int) (*ecs.World, []ecs.EntityID)) []impl {
	return []impl{
		{"plain", func(b *testing.B, n int) {
			ps := column[Position](n)
			idx := newRand().Perm(n)
			measure(b, n, func() { sinkF = sumPlain(ps, idx) })
		}},
		{"slipway", func(b *testing.B, n int) {
			w, ids := build(b, n)
			sys := func(pos ecs.View[Position]) { sinkF = sumByID(pos, ids) }
			measure(b, n, func() { check(b, w.Run(sys)) })
		}},
		{"slipway-bulk", func(b *testing.B, n int) {
			w, ids := build(b, n)
			sys := func(pos ecs.View[Position]) { sinkF = sumLookup(pos, ids) }
			measure(b, n, func() { check(b, w.Run(sys)) })
		}},
		{"sparse", func(b *testing.B, n int) {
			w, ids := build(b, n)
			pos := refCopy[Position](b, w, 0)
			measure(b, n, func() { sinkF = sumRef(pos, ids) })
		}},
	}
}

// buildRandomMoved is buildRandom, then every Position is taken out and
// given back in another shuffled order: each entity keeps its value, but
// the storage's order is unrelated to the entities' indices and to the
// order of the ids returned.
func buildRandomMoved(tb testing.TB, n int) (*ecs.World, []ecs.EntityID) {
	tb.Helper()
	w, ids := buildRandom(tb, n)
	order := slices.Clone(ids)
	newRand().Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
	if _, err := ecs.BulkDeleteComponent[Position](w, order...); err != nil {
		tb.Fatal(err)
	}
	ps := make([]Position, n)
	for k, id := range order {
		ps[k] = Position{float64(id.Index()), 1}
	}
	check(tb, ecs.BulkAddComponent1(w, order, ps))
	return w, ids
}

// buildRandom returns a world of n entities with Position {i, 1} and their
// ids in a shuffled order.
func buildRandom(tb testing.TB, n int) (*ecs.World, []ecs.EntityID) {
	tb.Helper()
	w := ecs.NewWorld()
	ids, err := ecs.BulkAddEntity1(w, column[Position](n))
	check(tb, err)
	newRand().Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	return w, ids
}

//go:noinline
func sumPlain(ps []Position, idx []int) float64 {
	var sum float64
	for _, i := range idx {
		sum += ps[i].X
	}
	return sum
}

// sumLookup is sumByID through View.Lookup, which looks the ids up as
// one loop.
//
//go:noinline
func sumLookup(pos ecs.View[Position], ids []ecs.EntityID) float64 {
	var sum float64
	for _, p := range pos.Lookup(ids) {
		sum += p.X
	}
	return sum
}

//go:noinline
func sumByID(pos ecs.View[Position], ids []ecs.EntityID) float64 {
	var sum float64
	for _, id := range ids {
		if p, ok := pos.Get(id); ok {
			sum += p.X
		}
	}
	return sum
}
