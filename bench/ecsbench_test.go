package bench

// A Go port of the Rust community's cross-ECS benchmark suite
// (ecs_bench_suite): SimpleInsert, SimpleIter, FragIter, HeavyCompute,
// Schedule and AddRemoveComponent, with the same entity counts and the
// same work per entity. Its components use float32, as the Rust suite's do.
// Every benchmark reports ns/entity over the entities the round handles.

import (
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// Mat4 is a 4×4 matrix, row-major.
type Mat4 [4][4]float32

// Vec3 is a 3-vector.
type Vec3 struct{ X, Y, Z float32 }

// The components of SimpleInsert, SimpleIter and HeavyCompute.
type (
	Transform struct{ M Mat4 }
	Pos3      struct{ V Vec3 }
	Rot3      struct{ V Vec3 }
	Vel3      struct{ V Vec3 }
)

// body is an entity of the baselines of SimpleInsert, SimpleIter and
// HeavyCompute.
type body struct {
	T Transform
	P Pos3
	R Rot3
	V Vel3
}

var unitX = Vec3{1, 0, 0}

func identity() Mat4 {
	return Mat4{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}
}

// simpleBody is the entity SimpleInsert and SimpleIter create.
func simpleBody() body {
	return body{Transform{identity()}, Pos3{unitX}, Rot3{unitX}, Vel3{unitX}}
}

const simpleN = 10_000

// BenchmarkSimpleInsert creates a world and 10,000 entities with a
// Transform, a Pos3, a Rot3 and a Vel3 in it, every round.
func BenchmarkSimpleInsert(b *testing.B) {
	e := simpleBody()
	runImplsAt(b, []int{simpleN},
		impl{"plain", func(b *testing.B, n int) {
			measure(b, n, func() { _ = insertPlain(nil, e, n) })
		}},
		impl{"slipway", func(b *testing.B, n int) {
			sys := func(ents ecs.EntitiesViewMut, t ecs.ViewMut[Transform], p ecs.ViewMut[Pos3], r ecs.ViewMut[Rot3], v ecs.ViewMut[Vel3]) error {
				return insertViews(ents, t, p, r, v, e, n)
			}
			measure(b, n, func() {
				w := ecs.NewWorld()
				check(b, w.Run(sys))
				sinkWorld = w
			})
		}},
		impl{"slipway-bulk", func(b *testing.B, n int) {
			ts, ps, rs, vs := bodyColumns(e, n)
			measure(b, n, func() {
				w := ecs.NewWorld()
				_, err := ecs.BulkAddEntity4(w, ts, ps, rs, vs)
				check(b, err)
				sinkWorld = w
			})
		}},
	)
}

//go:noinline
func insertPlain(bs []body, e body, n int) []body {
	for range n {
		bs = append(bs, e)
	}
	return bs
}

//go:noinline
func insertViews(ents ecs.EntitiesViewMut, t ecs.ViewMut[Transform], p ecs.ViewMut[Pos3], r ecs.ViewMut[Rot3], v ecs.ViewMut[Vel3], e body, n int) error {
	for range n {
		id := ents.AddEntity()
		err := t.AddComponentUnchecked(id, e.T)
		if err == nil {
			err = p.AddComponentUnchecked(id, e.P)
		}
		if err == nil {
			err = r.AddComponentUnchecked(id, e.R)
		}
		if err == nil {
			err = v.AddComponentUnchecked(id, e.V)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func bodyColumns(e body, n int) ([]Transform, []Pos3, []Rot3, []Vel3) {
	ts, ps, rs, vs := make([]Transform, n), make([]Pos3, n), make([]Rot3, n), make([]Vel3, n)
	for i := range n {
		ts[i], ps[i], rs[i], vs[i] = e.T, e.P, e.R, e.V
	}
	return ts, ps, rs, vs
}

// newBodyWorld returns a world of n entities with e's four components.
func newBodyWorld(tb testing.TB, e body, n int) *ecs.World {
	tb.Helper()
	w := ecs.NewWorld()
	ts, ps, rs, vs := bodyColumns(e, n)
	_, err := ecs.BulkAddEntity4(w, ts, ps, rs, vs)
	check(tb, err)
	return w
}

// BenchmarkSimpleIter adds Vel3 to Pos3 for 10,000 entities that have all
// four components.
func BenchmarkSimpleIter(b *testing.B) {
	runImplsAt(b, []int{simpleN},
		impl{"plain", func(b *testing.B, n int) {
			bs := insertPlain(nil, simpleBody(), n)
			measure(b, n, func() { iterPlain(bs) })
		}},
		impl{"slipway", func(b *testing.B, n int) {
			w := newBodyWorld(b, simpleBody(), n)
			measure(b, n, func() { check(b, w.Run(simpleIter)) })
		}},
	)
}

//go:noinline
func iterPlain(bs []body) {
	for i := range bs {
		p, v := &bs[i].P.V, &bs[i].V.V
		p.X += v.X
		p.Y += v.Y
		p.Z += v.Z
	}
}

// simpleIter is the system of SimpleIter, with the fastest idiomatic
// iteration, as in the query workloads: range over the join, whose loop the
// compiler inlines here. (The cursor, it.Next and it.Values, took 10 to 11
// ns per entity against 4.4 to 6.3 for this, go1.26.)
func simpleIter(vel ecs.View[Vel3], pos ecs.ViewMut[Pos3]) {
	for v, p := range ecs.Join2(vel, pos).All() {
		p.V.X += v.V.X
		p.V.Y += v.V.Y
		p.V.Z += v.V.Z
	}
}

// The components of FragIter: 26 kinds of entity, each with its own
// component, all sharing Data.
type (
	Data  struct{ V float32 }
	FragA struct{ V float32 }
	FragB struct{ V float32 }
	FragC struct{ V float32 }
	FragD struct{ V float32 }
	FragE struct{ V float32 }
	FragF struct{ V float32 }
	FragG struct{ V float32 }
	FragH struct{ V float32 }
	FragI struct{ V float32 }
	FragJ struct{ V float32 }
	FragK struct{ V float32 }
	FragL struct{ V float32 }
	FragM struct{ V float32 }
	FragN struct{ V float32 }
	FragO struct{ V float32 }
	FragP struct{ V float32 }
	FragQ struct{ V float32 }
	FragR struct{ V float32 }
	FragS struct{ V float32 }
	FragT struct{ V float32 }
	FragU struct{ V float32 }
	FragV struct{ V float32 }
	FragW struct{ V float32 }
	FragX struct{ V float32 }
	FragY struct{ V float32 }
	FragZ struct{ V float32 }
)

// addFrag[k] creates n entities with the k-th fragment component and Data.
var addFrag = [...]func(*ecs.World, int) error{
	addFragOf[FragA], addFragOf[FragB], addFragOf[FragC], addFragOf[FragD], addFragOf[FragE],
	addFragOf[FragF], addFragOf[FragG], addFragOf[FragH], addFragOf[FragI], addFragOf[FragJ],
	addFragOf[FragK], addFragOf[FragL], addFragOf[FragM], addFragOf[FragN], addFragOf[FragO],
	addFragOf[FragP], addFragOf[FragQ], addFragOf[FragR], addFragOf[FragS], addFragOf[FragT],
	addFragOf[FragU], addFragOf[FragV], addFragOf[FragW], addFragOf[FragX], addFragOf[FragY],
	addFragOf[FragZ],
}

func addFragOf[T ~struct{ V float32 }](w *ecs.World, n int) error {
	for range n {
		if _, err := ecs.AddEntity2(w, T{}, Data{1}); err != nil {
			return err
		}
	}
	return nil
}

const fragPerKind = 20

// fragged is an entity of FragIter's baseline: one slice per kind.
type fragged struct {
	X float32
	D Data
}

// BenchmarkFragIter doubles Data of 26×20 entities spread over 26 kinds.
// A single-component query iterates the storage's slice, the fastest path
// a View offers.
func BenchmarkFragIter(b *testing.B) {
	n := len(addFrag) * fragPerKind
	runImplsAt(b, []int{n},
		impl{"plain", func(b *testing.B, n int) {
			kinds := make([][]fragged, len(addFrag))
			for k := range kinds {
				kinds[k] = make([]fragged, fragPerKind)
				for i := range kinds[k] {
					kinds[k][i].D = Data{1}
				}
			}
			measure(b, n, func() { fragPlain(kinds) })
		}},
		impl{"slipway", func(b *testing.B, n int) {
			w := ecs.NewWorld()
			for _, add := range addFrag {
				check(b, add(w, fragPerKind))
			}
			measure(b, n, func() { check(b, w.Run(fragIter)) })
		}},
	)
}

//go:noinline
func fragPlain(kinds [][]fragged) {
	for _, k := range kinds {
		for i := range k {
			k[i].D.V *= 2
		}
	}
}

func fragIter(data ecs.ViewMut[Data]) {
	s := data.Slice()
	for i := range s {
		s[i].V *= 2
	}
}

// The work of HeavyCompute.

const (
	heavyN      = 1_000
	heavyRounds = 100
	heavyGrain  = 16
)

// rotationX returns the rotation by angle a (radians) about the X axis.
func rotationX(a float64) Mat4 {
	s, c := float32(sin(a)), float32(cos(a))
	return Mat4{{1, 0, 0, 0}, {0, c, -s, 0}, {0, s, c, 0}, {0, 0, 0, 1}}
}

// heavy inverts *m heavyRounds times, then transforms *p (as a direction)
// by it.
func heavy(m *Mat4, p *Vec3) {
	for range heavyRounds {
		if inv, ok := m.Inverse(); ok {
			*m = inv
		}
	}
	*p = m.TransformVector(*p)
}

// BenchmarkHeavyCompute inverts the Transform of 1,000 entities 100 times
// each and transforms their Pos3 by the result: sequentially (plain and
// slipway, range over a join) and in parallel (slipway-par, the join's
// ParEachMin with a grain of 16).
func BenchmarkHeavyCompute(b *testing.B) {
	e := simpleBody()
	e.T.M = rotationX(1.2)
	runImplsAt(b, []int{heavyN},
		impl{"plain", func(b *testing.B, n int) {
			bs := insertPlain(nil, e, n)
			measure(b, n, func() { heavyPlain(bs) })
		}},
		impl{"slipway", func(b *testing.B, n int) {
			w := newBodyWorld(b, e, n)
			measure(b, n, func() { check(b, w.Run(heavySeq)) })
		}},
		impl{"slipway-par", func(b *testing.B, n int) {
			w := newBodyWorld(b, e, n)
			measure(b, n, func() { check(b, w.Run(heavyPar)) })
		}},
	)
}

//go:noinline
func heavyPlain(bs []body) {
	for i := range bs {
		heavy(&bs[i].T.M, &bs[i].P.V)
	}
}

func heavySeq(t ecs.ViewMut[Transform], p ecs.ViewMut[Pos3]) {
	for t, p := range ecs.Join2(t, p).All() {
		heavy(&t.M, &p.V)
	}
}

func heavyPar(t ecs.ViewMut[Transform], p ecs.ViewMut[Pos3]) {
	ecs.Join2(t, p).ParEachMin(heavyGrain, func(t *Transform, p *Pos3) { heavy(&t.M, &p.V) })
}

// The components of Schedule and AddRemoveComponent.
type (
	SA struct{ V float32 }
	SB struct{ V float32 }
	SC struct{ V float32 }
	SD struct{ V float32 }
	SE struct{ V float32 }
)

const scheduleKindN = 10_000

// BenchmarkSchedule runs a workload of three systems over 10,000 entities
// with (SA, SB), 10,000 with (SA, SB, SC), 10,000 with (SA, SB, SC, SD) and
// 10,000 with (SA, SB, SC, SE): ab swaps SA and SB, cd swaps SC and SD, ce
// swaps SC and SE. ab shares nothing with the others and may run beside
// them; cd and ce both write SC and run one after the other. slipway runs
// the workload (World.RunWorkload); slipway-seq runs the three systems one
// by one with World.Run; plain loops over four slices of structs, one per
// kind of entity, sequentially. ns/entity is over the 40,000 entities.
func BenchmarkSchedule(b *testing.B) {
	runImplsAt(b, []int{4 * scheduleKindN},
		impl{"plain", func(b *testing.B, n int) {
			s := newSchedulePlain(scheduleKindN)
			measure(b, n, func() { s.run() })
		}},
		impl{"slipway", func(b *testing.B, n int) {
			w := newScheduleWorld(b, scheduleKindN)
			check(b, w.AddWorkload("schedule", ab, cd, ce))
			measure(b, n, func() { check(b, w.RunWorkload("schedule")) })
		}},
		impl{"slipway-seq", func(b *testing.B, n int) {
			w := newScheduleWorld(b, scheduleKindN)
			measure(b, n, func() {
				check(b, w.Run(ab))
				check(b, w.Run(cd))
				check(b, w.Run(ce))
			})
		}},
	)
}

// newScheduleWorld returns the world of Schedule, with n entities of each
// kind.
func newScheduleWorld(tb testing.TB, n int) *ecs.World {
	tb.Helper()
	w := ecs.NewWorld()
	as, bs, cs, ds, es := make([]SA, n), make([]SB, n), make([]SC, n), make([]SD, n), make([]SE, n)
	for i := range n {
		as[i], bs[i], cs[i], ds[i], es[i] = SA{1}, SB{2}, SC{3}, SD{4}, SE{5}
	}
	_, err := ecs.BulkAddEntity2(w, as, bs)
	check(tb, err)
	_, err = ecs.BulkAddEntity3(w, as, bs, cs)
	check(tb, err)
	_, err = ecs.BulkAddEntity4(w, as, bs, cs, ds)
	check(tb, err)
	_, err = ecs.BulkAddEntity4(w, as, bs, cs, es)
	check(tb, err)
	return w
}

func ab(a ecs.ViewMut[SA], b ecs.ViewMut[SB]) {
	for a, b := range ecs.Join2(a, b).All() {
		a.V, b.V = b.V, a.V
	}
}

func cd(c ecs.ViewMut[SC], d ecs.ViewMut[SD]) {
	for c, d := range ecs.Join2(c, d).All() {
		c.V, d.V = d.V, c.V
	}
}

func ce(c ecs.ViewMut[SC], e ecs.ViewMut[SE]) {
	for c, e := range ecs.Join2(c, e).All() {
		c.V, e.V = e.V, c.V
	}
}

// schedulePlain is Schedule's baseline: one slice of structs per kind.
type schedulePlain struct {
	ab   []struct{ A, B float32 }
	abc  []struct{ A, B, C float32 }
	abcd []struct{ A, B, C, D float32 }
	abce []struct{ A, B, C, E float32 }
}

func newSchedulePlain(n int) *schedulePlain {
	s := &schedulePlain{
		ab:   make([]struct{ A, B float32 }, n),
		abc:  make([]struct{ A, B, C float32 }, n),
		abcd: make([]struct{ A, B, C, D float32 }, n),
		abce: make([]struct{ A, B, C, E float32 }, n),
	}
	for i := range n {
		s.ab[i].A, s.ab[i].B = 1, 2
		s.abc[i].A, s.abc[i].B, s.abc[i].C = 1, 2, 3
		s.abcd[i].A, s.abcd[i].B, s.abcd[i].C, s.abcd[i].D = 1, 2, 3, 4
		s.abce[i].A, s.abce[i].B, s.abce[i].C, s.abce[i].E = 1, 2, 3, 5
	}
	return s
}

//go:noinline
func (s *schedulePlain) run() {
	for i := range s.ab {
		e := &s.ab[i]
		e.A, e.B = e.B, e.A
	}
	for i := range s.abc {
		e := &s.abc[i]
		e.A, e.B = e.B, e.A
	}
	for i := range s.abcd {
		e := &s.abcd[i]
		e.A, e.B = e.B, e.A
	}
	for i := range s.abce {
		e := &s.abce[i]
		e.A, e.B = e.B, e.A
	}
	for i := range s.abcd {
		e := &s.abcd[i]
		e.C, e.D = e.D, e.C
	}
	for i := range s.abce {
		e := &s.abce[i]
		e.C, e.E = e.E, e.C
	}
}

// BenchmarkAddRemoveComponent: 10,000 entities with SA; the round adds SB
// to every one, then removes it from every one (the Rust suite's
// add_remove_component). ns/entity is per add+remove pair.
func BenchmarkAddRemoveComponent(b *testing.B) {
	runImplsAt(b, []int{simpleN},
		impl{"plain", func(b *testing.B, n int) {
			s := &plainFlagged[SB]{vals: make([]SB, n), has: make([]bool, n)}
			measure(b, n, func() { addRemoveFlagged(s, SB{1}) })
		}},
		impl{"slipway", func(b *testing.B, n int) {
			w := ecs.NewWorld()
			ids, err := ecs.BulkAddEntity1(w, make([]SA, n))
			check(b, err)
			sys := func(ents ecs.EntitiesView, v ecs.ViewMut[SB]) error { return addRemoveSB(ents, v, ids) }
			measure(b, n, func() { check(b, w.Run(sys)) })
		}},
	)
}

// plainFlagged is an optional component of the baseline: a slot per entity
// and a presence flag.
type plainFlagged[T any] struct {
	vals []T
	has  []bool
}

//go:noinline
func addRemoveFlagged[T any](s *plainFlagged[T], v T) {
	for i := range s.vals {
		s.vals[i], s.has[i] = v, true
	}
	var zero T
	for i := range s.vals {
		if s.has[i] {
			s.vals[i], s.has[i] = zero, false
		}
	}
}

//go:noinline
func addRemoveSB(ents ecs.EntitiesView, v ecs.ViewMut[SB], ids []ecs.EntityID) error {
	for _, id := range ids {
		if err := v.AddComponent(ents, id, SB{1}); err != nil {
			return err
		}
	}
	for _, id := range ids {
		v.Delete(id)
	}
	return nil
}
