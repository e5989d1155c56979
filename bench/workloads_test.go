package bench

// Tests that every benchmark does the work its name says, on small worlds:
// a benchmark that silently did nothing would report a fine figure.

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/slipway-ecs/slipway/ecs"
)

func equal[T comparable](t testing.TB, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s: got %v, want %v", what, got, want)
	}
}

// count returns how many components of type T w holds.
func count[T any](t testing.TB, w *ecs.World) int {
	t.Helper()
	var v ecs.View[T]
	release, err := w.Borrow(&v)
	check(t, err)
	defer release()
	return v.Len()
}

// snapshot returns every entity's Position.
func snapshot(t testing.TB, w *ecs.World) map[ecs.EntityID]Position {
	t.Helper()
	m := map[ecs.EntityID]Position{}
	check(t, ecs.Each1(w, func(id ecs.EntityID, p *Position) { m[id] = *p }))
	return m
}

func TestQueryWorkloadsMoveExactlyTheMovers(t *testing.T) {
	builds := map[string]func(testing.TB, *ecs.World, int){
		"Query2Comp": buildQuery2Comp, "Query32Arch": buildQuery32Arch,
		"Query256Arch": buildQuery256Arch, "Query256ArchMixed": buildQuery256ArchMixed,
		"Query2CompChurned": buildQuery2CompChurned, "Query256ArchChurned": buildQuery256ArchChurned,
	}
	fillers := map[string]int{"Query2Comp": 10, "Query32Arch": 0, "Query256Arch": 4, "Query256ArchMixed": 4, "Query2CompChurned": 10, "Query256ArchChurned": 4}
	const n = 300
	for name, build := range builds {
		t.Run(name, func(t *testing.T) {
			w := ecs.NewWorld()
			build(t, w, n)
			equal(t, "entities", w.EntityCount(), n*(1+fillers[name]))
			equal(t, "movers", count[Velocity](t, w), n)
			before := snapshot(t, w)
			check(t, w.Run(move))
			after := snapshot(t, w)
			moved := 0
			for id, p := range before {
				v, err := ecs.Get[Velocity](w, id)
				want := p
				if err == nil {
					want = Position{p.X + v.X, p.Y + v.Y}
					moved++
				}
				if after[id] != want {
					t.Fatalf("%v: position %v after a round, want %v", id, after[id], want)
				}
			}
			equal(t, "moved", moved, n)
		})
	}
	ms := newMovers(3)
	movePlain(ms)
	equal(t, "plain mover", ms[2].P, Position{3, 3})
}

// tagViews is a custom view of Position, Velocity and the tags C1..C8,
// which the set-up tests read.
type tagViews struct {
	Pos ecs.View[Position]
	Vel ecs.View[Velocity]
	C1  ecs.View[C1]
	C2  ecs.View[C2]
	C3  ecs.View[C3]
	C4  ecs.View[C4]
	C5  ecs.View[C5]
	C6  ecs.View[C6]
	C7  ecs.View[C7]
	C8  ecs.View[C8]
}

// filters returns the views of C1..C8, in order.
func (v *tagViews) filters() []ecs.Filter {
	return []ecs.Filter{v.C1, v.C2, v.C3, v.C4, v.C5, v.C6, v.C7, v.C8}
}

// combos returns how many distinct subsets of C1..C<k> the entities with a
// Position have, among those with (movers) or without a Velocity.
func combos(t *testing.T, w *ecs.World, k int, movers bool) int {
	t.Helper()
	var v tagViews
	release, err := w.Borrow(&v)
	check(t, err)
	defer release()
	pos, vel, cs := v.Pos, v.Vel, v.filters()[:k]
	seen := map[int]bool{}
	for _, id := range pos.IDs() {
		if vel.Contains(id) != movers {
			continue
		}
		mask := 0
		for b, c := range cs {
			if c.Contains(id) {
				mask |= 1 << b
			}
		}
		seen[mask] = true
	}
	return len(seen)
}

func TestFragmentedSetupsHaveEveryCombination(t *testing.T) {
	w := ecs.NewWorld()
	buildQuery32Arch(t, w, 2000)
	equal(t, "Query32Arch combinations among movers", combos(t, w, 5, true), 32)

	for name, build := range map[string]func(testing.TB, *ecs.World, int){
		"Query256Arch": buildQuery256Arch, "Query256ArchMixed": buildQuery256ArchMixed,
	} {
		w = ecs.NewWorld()
		build(t, w, 2000)
		equal(t, name+" combinations among the others", combos(t, w, 8, false), 256)
		equal(t, name+" combinations among movers", combos(t, w, 8, true), 1)
	}
}

// moverPositions returns where the movers' Positions are in their storage.
func moverPositions(t *testing.T, w *ecs.World) []int {
	t.Helper()
	pos, vel, release := borrowMovers(t, w)
	defer release()
	var at []int
	for i, id := range pos.IDs() {
		if vel.Contains(id) {
			at = append(at, i)
		}
	}
	return at
}

// Query256Arch creates its movers first, as the Go ECS benchmarks do, so
// they fill the front of the Position storage; Query256ArchMixed spreads
// them over all of it.
func TestQuery256ArchOrders(t *testing.T) {
	const n = 1000
	w := ecs.NewWorld()
	buildQuery256Arch(t, w, n)
	at := moverPositions(t, w)
	equal(t, "Query256Arch movers", len(at), n)
	equal(t, "Query256Arch last mover's position", at[n-1], n-1)

	w = ecs.NewWorld()
	buildQuery256ArchMixed(t, w, n)
	at = moverPositions(t, w)
	equal(t, "Query256ArchMixed movers", len(at), n)
	if at[n-1] < 4*n || at[0] > n/10 {
		t.Fatalf("Query256ArchMixed movers at %d..%d of %d, want them spread over the whole storage", at[0], at[n-1], 5*n)
	}
}

func TestRandomSumsEveryPosition(t *testing.T) {
	const n = 1000
	want := float64(n * (n - 1) / 2)
	equal(t, "plain", sumPlain(column[Position](n), newRand().Perm(n)), want)
	w, ids := buildRandom(t, n)
	sys := func(pos ecs.View[Position]) { sinkF = sumByID(pos, ids) }
	check(t, w.Run(sys))
	equal(t, "slipway", sinkF, want)
}

func TestRandomMovedReordersTheStorage(t *testing.T) {
	const n = 1000
	w, ids := buildRandomMoved(t, n)
	sys := func(pos ecs.View[Position]) {
		sinkF = sumByID(pos, ids)
		inPlace, sameOrder := 0, 0
		for i, id := range pos.IDs() {
			if id.Index() == uint32(i) {
				inPlace++
			}
			if id == ids[i] {
				sameOrder++
			}
		}
		// A random order leaves about one entity in place, and one at the
		// position of the id list.
		if inPlace > 10 || sameOrder > 10 {
			t.Errorf("%d components at their entity's index, %d in the order of the ids, want a few", inPlace, sameOrder)
		}
	}
	check(t, w.Run(sys))
	equal(t, "sum", sinkF, float64(n*(n-1)/2))
}

func TestCreateWorkloadsCreateEntitiesWithTheirComponents(t *testing.T) {
	const n = 100
	// Each world has had n entities created and deleted before, as in the
	// benchmarks.
	recycled := func(create func(*ecs.World) error) *ecs.World {
		w := ecs.NewWorld()
		check(t, create(w))
		_, err := ecs.DeleteAny[Position](w)
		check(t, err)
		_, err = ecs.DeleteAny[C1](w)
		check(t, err)
		equal(t, "entities after the reset", w.EntityCount(), 0)
		check(t, create(w))
		return w
	}
	sys := create2System(n)
	w := recycled(func(w *ecs.World) error { return w.Run(sys) })
	equal(t, "Create2Comp entities", w.EntityCount(), n)
	equal(t, "Create2Comp velocities", count[Velocity](t, w), n)
	check(t, ecs.Each2(w, func(id ecs.EntityID, p *Position, v *Velocity) {
		if *p != (Position{1, 1}) || *v != (Velocity{1, 2}) {
			t.Errorf("%v has %v %v", id, *p, *v)
		}
	}))

	ps, vs := column[Position](n), constColumn[Velocity](n, 1, 2)
	w = recycled(func(w *ecs.World) error { _, err := ecs.BulkAddEntity2(w, ps, vs); return err })
	equal(t, "bulk Create2Comp positions", count[Position](t, w), n)
	equal(t, "bulk Create2Comp velocities", count[Velocity](t, w), n)

	equal(t, "plain Create2Comp", len(create2Plain(nil, n)), n)

	w = recycled(func(w *ecs.World) error {
		_, err := ecs.BulkNewEntity2[Position, Velocity](w, make([]ecs.EntityID, 0, n), n, nil)
		return err
	})
	equal(t, "fill Create2Comp positions", count[Position](t, w), n)
	equal(t, "fill Create2Comp velocities", count[Velocity](t, w), n)
	var g2 grow2
	for range 2 {
		g2.ps = append(g2.ps, Position{1, 1}) // not zero: the grow must clear it
		g2.grow(n)
		equal(t, "plain-grow Create2Comp", [2]int{len(g2.ps), len(g2.vs)}, [2]int{n, n})
		equal(t, "plain-grow Create2Comp position", g2.ps[0], Position{})
	}

	sys10 := func(v views10) error { return create10(v, n) }
	src := newCols10(n)
	for name, create := range map[string]func(*ecs.World) error{
		"Create10Comp":      func(w *ecs.World) error { return w.Run(sys10) },
		"bulk Create10Comp": func(w *ecs.World) error { _, err := fill10(w, &src, nil); return err },
	} {
		w := recycled(create)
		equal(t, name+" entities", w.EntityCount(), n)
		lens := []int{count[C1](t, w), count[C2](t, w), count[C3](t, w), count[C4](t, w), count[C5](t, w),
			count[C6](t, w), count[C7](t, w), count[C8](t, w), count[C9](t, w), count[C10](t, w)}
		for k, l := range lens {
			equal(t, name+" C"+strconv.Itoa(k+1), l, n)
		}
		c10, err := ecs.Get[C10](w, ids(t, w)[n-1])
		check(t, err)
		if c10.X == 0 {
			t.Errorf("%s: C10 is %v", name, c10)
		}
	}
	w = recycled(func(w *ecs.World) error { _, err := new10(w, nil, n); return err })
	equal(t, "fill Create10Comp entities", w.EntityCount(), n)
	seen := 0
	check(t, ecs.Each8(w, func(id ecs.EntityID, c1 *C1, _ *C2, _ *C3, _ *C4, _ *C5, _ *C6, _ *C7, c8 *C8) {
		seen++
		if *c1 != (C1{}) || *c8 != (C8{}) {
			t.Errorf("fill Create10Comp: %v has %v %v, want zero values", id, *c1, *c8)
		}
	}))
	check(t, ecs.Each2(w, func(id ecs.EntityID, c9 *C9, c10 *C10) {
		seen++
		if *c9 != (C9{}) || *c10 != (C10{}) {
			t.Errorf("fill Create10Comp: %v has %v %v, want zero values", id, *c9, *c10)
		}
	}))
	equal(t, "fill Create10Comp entities with C1..C8, and with C9 and C10", seen, 2*n)
	g10 := newGrow10(n)
	g10.c10 = append(g10.c10, C10{1, 1})
	g10.grow(n)
	equal(t, "plain-grow Create10Comp", [2]int{len(g10.c1), len(g10.c10)}, [2]int{n, n})
	equal(t, "plain-grow Create10Comp C10", g10.c10[0], C10{})
	es := create10Plain(nil, n)
	equal(t, "plain Create10Comp", len(es), n)
	equal(t, "plain Create10Comp C10", es[n-1].C10, C10{1, 10})
}

// ids returns the live entities of w.
func ids(t testing.TB, w *ecs.World) []ecs.EntityID {
	t.Helper()
	var ents ecs.EntitiesView
	release, err := w.Borrow(&ents)
	check(t, err)
	defer release()
	var s []ecs.EntityID
	for id := range ents.All() {
		s = append(s, id)
	}
	return s
}

func TestAddRemoveWorkloadsAddThenRemove(t *testing.T) {
	const n = 200
	for name, build := range map[string]func(testing.TB, *ecs.World, int) []ecs.EntityID{
		"AddRemove": buildAddRemove, "AddRemoveLarge": buildAddRemoveLarge,
	} {
		t.Run(name, func(t *testing.T) {
			w := ecs.NewWorld()
			es := build(t, w, n)
			before := snapshot(t, w)
			var ents ecs.EntitiesView
			var vel ecs.ViewMut[Velocity]
			release, err := w.Borrow(&ents, &vel)
			check(t, err)
			check(t, addEach(ents, vel, es))
			equal(t, "velocities after adding", vel.Len(), n)
			removeEach(vel, es)
			equal(t, "velocities after removing", vel.Len(), 0)
			release()

			vels := constColumn[Velocity](n, 1, 2)
			check(t, ecs.BulkAddComponent1(w, es, vels))
			equal(t, "velocities after the bulk add", count[Velocity](t, w), n)
			check(t, w.Run(addRemoveSystem(es)))
			check(t, addRemoveBulk(w, es, vels))
			equal(t, "velocities after the rounds", count[Velocity](t, w), 0)
			equal(t, "entities", w.EntityCount(), n)
			after := snapshot(t, w)
			for id, p := range before {
				if after[id] != p {
					t.Fatalf("%v: position changed from %v to %v", id, p, after[id])
				}
			}
			if name == "AddRemoveLarge" {
				equal(t, "C10 untouched", count[C10](t, w), n)
			}
			// The checked add refuses a dead entity: the round does check.
			check(t, w.DeleteEntity(es[0]))
			if err := w.Run(addRemoveSystem(es)); !errors.Is(err, ecs.ErrDeadEntity) {
				t.Errorf("round with a dead entity: got %v, want ErrDeadEntity", err)
			}
			if err := addRemoveBulk(w, es, vels); !errors.Is(err, ecs.ErrDeadEntity) {
				t.Errorf("bulk round with a dead entity: got %v, want ErrDeadEntity", err)
			}
		})
	}
	s := &plainFlagged[Velocity]{vals: make([]Velocity, 3), has: make([]bool, 3)}
	addRemoveFlagged(s, Velocity{1, 2})
	equal(t, "plain has", s.has[2], false)
}

func TestDeleteWorkloadsDeleteEverything(t *testing.T) {
	const n = 150
	ps, vs := column[Position](n), constColumn[Velocity](n, 1, 2)
	src := newCols10(n)
	fill2 := func(w *ecs.World, dst []ecs.EntityID) ([]ecs.EntityID, error) {
		return ecs.BulkAppendEntity2(w, dst, ps, vs)
	}
	fillTen := func(w *ecs.World, dst []ecs.EntityID) ([]ecs.EntityID, error) { return fill10(w, &src, dst) }
	cases := []struct {
		name string
		fill func(*ecs.World, []ecs.EntityID) ([]ecs.EntityID, error)
		bulk func(*ecs.World, []ecs.EntityID) error
	}{
		{"Delete2Comp", fill2, nil},
		{"bulk Delete2Comp", fill2, deleteEntities},
		{"Delete10Comp", fillTen, nil},
		{"bulk Delete10Comp", fillTen, deleteEntities},
	}
	for _, c := range cases {
		w := ecs.NewWorld()
		var es []ecs.EntityID
		for round := range 2 { // the second round runs on recycled slots, and reuses es
			var err error
			es, err = c.fill(w, es[:0])
			check(t, err)
			equal(t, c.name+" entities before", w.EntityCount(), n)
			if c.bulk != nil {
				check(t, c.bulk(w, es))
			} else {
				check(t, w.Run(deleteSystem(&es)))
			}
			equal(t, c.name+" entities after", w.EntityCount(), 0)
			equal(t, c.name+" positions after", count[Position](t, w), 0)
			equal(t, c.name+" C10 after", count[C10](t, w), 0)
			for _, id := range es {
				if w.IsAlive(id) {
					t.Fatalf("%s round %d: %v is alive", c.name, round, id)
				}
			}
		}
	}
	s := newPlainStore[ent10](n)
	s.refill(ent10{C1: C1{1, 1}})
	deletePlain(s)
	equal(t, "plain free list", len(s.free), n)
	equal(t, "plain cleared", s.ents[n-1].C1, C1{})
}

func TestMatrixInverse(t *testing.T) {
	m := Mat4{{2, 0, 1, 3}, {1, 3, 0, 2}, {0, 1, 4, 1}, {1, 0, 2, 5}}
	inv, ok := m.Inverse()
	if !ok {
		t.Fatal("an invertible matrix reported singular")
	}
	p := m.Mul(&inv)
	id := identity()
	for r := range 4 {
		for c := range 4 {
			if math.Abs(float64(p[r][c]-id[r][c])) > 1e-5 {
				t.Fatalf("m × m⁻¹ = %v, want the identity", p)
			}
		}
	}
	singular := Mat4{{1, 2, 3, 4}, {2, 4, 6, 8}, {0, 1, 0, 1}, {1, 0, 1, 0}}
	if _, ok := singular.Inverse(); ok {
		t.Error("a singular matrix reported invertible")
	}
	// heavy inverts a rotation an even number of times: the matrix comes
	// back, and X is a fixed point of a rotation about X.
	r := rotationX(1.2)
	v := Vec3{1, 2, 3}
	heavy(&r, &v)
	want := rotationX(1.2)
	wantV := want.TransformVector(Vec3{1, 2, 3})
	for i := range 4 {
		for j := range 4 {
			if math.Abs(float64(r[i][j]-want[i][j])) > 1e-4 {
				t.Fatalf("after heavy: %v, want %v", r, want)
			}
		}
	}
	if math.Abs(float64(v.Y-wantV.Y)) > 1e-4 || math.Abs(float64(v.Z-wantV.Z)) > 1e-4 || v.X != 1 {
		t.Errorf("heavy moved (1,2,3) to %v, want %v", v, wantV)
	}
}

func TestHeavyComputeParallelMatchesSequential(t *testing.T) {
	e := simpleBody()
	e.T.M = rotationX(1.2)
	seq, par := newBodyWorld(t, e, 100), newBodyWorld(t, e, 100)
	check(t, seq.Run(heavySeq))
	check(t, par.Run(heavyPar))
	bs := insertPlain(nil, e, 1)
	heavyPlain(bs)
	want := bs[0].P.V
	for _, w := range []*ecs.World{seq, par} {
		check(t, ecs.Each1(w, func(id ecs.EntityID, p *Pos3) {
			if p.V != want {
				t.Fatalf("%v: position %v, want %v", id, p.V, want)
			}
		}))
	}
}

func TestSimpleWorkloads(t *testing.T) {
	e := simpleBody()
	w := newBodyWorld(t, e, 10)
	check(t, w.Run(simpleIter))
	check(t, ecs.Each1(w, func(id ecs.EntityID, p *Pos3) { equal(t, "SimpleIter position", p.V, Vec3{2, 0, 0}) }))
	bs := insertPlain(nil, e, 10)
	iterPlain(bs)
	equal(t, "plain SimpleIter", bs[9].P.V, Vec3{2, 0, 0})

	w = ecs.NewWorld()
	check(t, w.Run(func(ents ecs.EntitiesViewMut, tr ecs.ViewMut[Transform], p ecs.ViewMut[Pos3], r ecs.ViewMut[Rot3], v ecs.ViewMut[Vel3]) error {
		return insertViews(ents, tr, p, r, v, e, 10)
	}))
	equal(t, "SimpleInsert transforms", count[Transform](t, w), 10)
	equal(t, "SimpleInsert velocities", count[Vel3](t, w), 10)

	w = ecs.NewWorld()
	for _, add := range addFrag {
		check(t, add(w, fragPerKind))
	}
	equal(t, "FragIter data", count[Data](t, w), 26*fragPerKind)
	equal(t, "FragIter kind Z", count[FragZ](t, w), fragPerKind)
	check(t, w.Run(fragIter))
	check(t, ecs.Each1(w, func(id ecs.EntityID, d *Data) { equal(t, "FragIter data", *d, Data{2}) }))
	kinds := [][]fragged{{{D: Data{1}}}, {{D: Data{3}}}}
	fragPlain(kinds)
	equal(t, "plain FragIter", kinds[1][0].D, Data{6})
}

func TestScheduleSwaps(t *testing.T) {
	const n = 50
	w := newScheduleWorld(t, n)
	check(t, w.AddWorkload("schedule", ab, cd, ce))
	check(t, w.RunWorkload("schedule"))
	s := newSchedulePlain(n)
	s.run()
	// Every entity has swapped A and B; cd ran before ce on the entities
	// with C.
	check(t, ecs.Each2(w, func(id ecs.EntityID, a *SA, b *SB) {
		equal(t, "A", *a, SA{2})
		equal(t, "B", *b, SB{1})
	}))
	check(t, ecs.Each2(w, func(id ecs.EntityID, c *SC, d *SD) { equal(t, "C of a CD entity", *c, SC{4}) }))
	check(t, ecs.Each2(w, func(id ecs.EntityID, c *SC, e *SE) { equal(t, "C of a CE entity", *c, SC{5}) }))
	equal(t, "plain A", s.abce[0].A, 2)
	equal(t, "plain C of a CD entity", s.abcd[0].C, 4)
	equal(t, "plain C of a CE entity", s.abce[0].C, 5)
}

func TestAddRemoveComponentRound(t *testing.T) {
	w := ecs.NewWorld()
	es, err := ecs.BulkAddEntity1(w, make([]SA, 30))
	check(t, err)
	var ents ecs.EntitiesView
	var v ecs.ViewMut[SB]
	release, err := w.Borrow(&ents, &v)
	check(t, err)
	check(t, addRemoveSB(ents, v, es))
	equal(t, "SB after a round", v.Len(), 0)
	release()
	check(t, w.DeleteEntity(es[3]))
	release, err = w.Borrow(&ents, &v)
	check(t, err)
	defer release()
	if err := addRemoveSB(ents, v, es); !errors.Is(err, ecs.ErrDeadEntity) {
		t.Errorf("round with a dead entity: got %v, want ErrDeadEntity", err)
	}
}

// TestMeasureResetUsesEachStateOnce runs measureReset as a benchmark and
// checks that no round runs on a state that a previous round consumed, that
// every reset happens between rounds, and that the metrics are reported.
func TestMeasureResetUsesEachStateOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a benchmark for about a second")
	}
	const states, n = 3, 10
	var fresh [states]bool
	bad, calls := 0, 0
	var wrong []string // one entry per call whose counts are off
	res := testing.Benchmark(func(b *testing.B) {
		// testing.Benchmark calls this with a growing b.N; each call
		// warms every state up once, then runs b.N timed rounds.
		calls++
		rounds, resets := 0, 0
		measureReset(b, n, states,
			func(i int) { fresh[i] = true; resets++ },
			func(i int) {
				if !fresh[i] {
					bad++
				}
				fresh[i] = false
				rounds++
				time.Sleep(2 * time.Millisecond)
			})
		if rounds != states+b.N || resets < rounds || resets > rounds+states {
			wrong = append(wrong, fmt.Sprintf("b.N=%d: %d rounds, %d resets", b.N, rounds, resets))
		}
	})
	equal(t, "rounds on a consumed state", bad, 0)
	if calls < 2 || len(wrong) > 0 {
		t.Errorf("%d calls, wrong counts in %v: want states+b.N rounds per call, each with its own reset", calls, wrong)
	}
	perOp := float64(res.T.Nanoseconds()) / float64(res.N)
	if got := res.Extra["ns/entity"]; math.Abs(got*n-perOp) > perOp*0.01 {
		t.Errorf("ns/entity %v, want ns/op / n = %v", got, perOp/n)
	}
	if _, ok := res.Extra["cpu-ns/entity"]; !ok {
		t.Error("cpu-ns/entity not reported")
	}
}
