package bench

// The creation workloads and NewWorld.
//
// One-by-one creation gives every entity the same component values, as a
// game computing them inline would; the bulk calls take them from slices,
// since that is their interface. The baselines append structs holding all
// of an entity's components to a slice: a hand-written program's store.

import (
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// BenchmarkCreate2Comp creates N entities with Position and Velocity in a
// world where N such entities were created and deleted before, so the
// storages have room and the timed part allocates nothing for them.
// Deleting the entities again between rounds is not timed. The baseline
// appends to a slice with room for N.
func BenchmarkCreate2Comp(b *testing.B) {
	runImpls(b,
		impl{"plain", func(b *testing.B, n int) {
			ms := make([]mover, 0, n)
			measure(b, n, func() { ms = create2Plain(ms[:0], n) })
		}},
		impl{"slipway", func(b *testing.B, n int) {
			sys := create2System(n)
			benchRecycled[Position](b, n, func(w *ecs.World) error { return w.Run(sys) })
		}},
		impl{"slipway-bulk", func(b *testing.B, n int) {
			ps, vs := column[Position](n), constColumn[Velocity](n, 1, 2)
			ids := make([]ecs.EntityID, 0, n)
			benchRecycled[Position](b, n, func(w *ecs.World) error {
				_, err := ecs.BulkAppendEntity2(w, ids, ps, vs)
				return err
			})
		}},
		impl{"slipway-fill", func(b *testing.B, n int) {
			ids := make([]ecs.EntityID, 0, n)
			benchRecycled[Position](b, n, func(w *ecs.World) error {
				_, err := ecs.BulkNewEntity2[Position, Velocity](w, ids, n, nil)
				return err
			})
		}},
		impl{"plain-grow", func(b *testing.B, n int) {
			var g grow2
			g.ps, g.vs = make([]Position, 0, n), make([]Velocity, 0, n)
			measure(b, n, func() { g.grow(n) })
		}},
		refCreateImpl(2),
	)
}

// grow2 is the baseline of in-place creation with two components: two
// plain slices, each grown by n zero values per round (emptied first, so
// that the rounds reuse their memory as the worlds do).
type grow2 struct {
	ps []Position
	vs []Velocity
}

//go:noinline
func (g *grow2) grow(n int) {
	g.ps = append(g.ps[:0], make([]Position, n)...)
	g.vs = append(g.vs[:0], make([]Velocity, n)...)
}

// benchRecycled runs create rounds on worlds in which as many entities as a
// round creates were created and deleted before (by measureReset's warm-up
// round): each round fills a world that is emptied again, untimed, with
// DeleteAny[T] (T being a component every created entity has).
func benchRecycled[T any](b *testing.B, n int, create func(w *ecs.World) error) {
	worlds := make([]*ecs.World, batchFor(n))
	for i := range worlds {
		worlds[i] = ecs.NewWorld()
	}
	measureReset(b, n, len(worlds),
		func(i int) {
			_, err := ecs.DeleteAny[T](worlds[i])
			check(b, err)
		},
		func(i int) { check(b, create(worlds[i])) })
}

// BenchmarkCreate2CompAlloc creates a fresh world each round and N entities
// with Position and Velocity in it: storage growth and garbage collection
// included. The baseline appends to a nil slice.
func BenchmarkCreate2CompAlloc(b *testing.B) {
	runImpls(b,
		impl{"plain", func(b *testing.B, n int) {
			measure(b, n, func() { _ = create2Plain(nil, n) })
		}},
		impl{"slipway", func(b *testing.B, n int) {
			sys := create2System(n)
			measure(b, n, func() {
				w := ecs.NewWorld()
				check(b, w.Run(sys))
				sinkWorld = w
			})
		}},
		impl{"slipway-bulk", func(b *testing.B, n int) {
			ps, vs := column[Position](n), constColumn[Velocity](n, 1, 2)
			measure(b, n, func() {
				w := ecs.NewWorld()
				_, err := ecs.BulkAddEntity2(w, ps, vs)
				check(b, err)
				sinkWorld = w
			})
		}},
	)
}

//go:noinline
func create2Plain(ms []mover, n int) []mover {
	for range n {
		ms = append(ms, mover{Position{1, 1}, Velocity{1, 2}})
	}
	return ms
}

// create2System returns a system creating n entities with Position and
// Velocity, one by one through views.
func create2System(n int) func(ecs.EntitiesViewMut, ecs.ViewMut[Position], ecs.ViewMut[Velocity]) error {
	return func(ents ecs.EntitiesViewMut, pos ecs.ViewMut[Position], vel ecs.ViewMut[Velocity]) error {
		return create2(ents, pos, vel, n)
	}
}

//go:noinline
func create2(ents ecs.EntitiesViewMut, pos ecs.ViewMut[Position], vel ecs.ViewMut[Velocity], n int) error {
	for range n {
		id := ents.AddEntity()
		if err := pos.AddComponentUnchecked(id, Position{1, 1}); err != nil {
			return err
		}
		if err := vel.AddComponentUnchecked(id, Velocity{1, 2}); err != nil {
			return err
		}
	}
	return nil
}

// BenchmarkCreate10Comp is Create2Comp with the ten components C1..C10.
// BulkAppendEntityN goes up to 8 components, so the bulk variant creates the
// entities with C1..C8 in one call and adds C9 and C10 in another
// (BulkAddComponent2).
func BenchmarkCreate10Comp(b *testing.B) {
	runImpls(b,
		impl{"plain", func(b *testing.B, n int) {
			es := make([]ent10, 0, n)
			measure(b, n, func() { es = create10Plain(es[:0], n) })
		}},
		impl{"slipway", func(b *testing.B, n int) {
			sys := func(v views10) error { return create10(v, n) }
			benchRecycled[C1](b, n, func(w *ecs.World) error { return w.Run(sys) })
		}},
		impl{"slipway-bulk", func(b *testing.B, n int) {
			src := newCols10(n)
			ids := make([]ecs.EntityID, 0, n)
			benchRecycled[C1](b, n, func(w *ecs.World) error {
				_, err := fill10(w, &src, ids)
				return err
			})
		}},
		impl{"slipway-fill", func(b *testing.B, n int) {
			ids := make([]ecs.EntityID, 0, n)
			benchRecycled[C1](b, n, func(w *ecs.World) error {
				_, err := new10(w, ids, n)
				return err
			})
		}},
		impl{"plain-grow", func(b *testing.B, n int) {
			g := newGrow10(n)
			measure(b, n, func() { g.grow(n) })
		}},
		refCreateImpl(10),
	)
}

// new10 creates n entities with C1..C10, all zero, in place: in one
// BulkNewEntity8 call for C1..C8, then one BulkFillComponent2 call for C9
// and C10. It returns their ids, in dst's memory when it has room.
func new10(w *ecs.World, dst []ecs.EntityID, n int) ([]ecs.EntityID, error) {
	ids, err := ecs.BulkNewEntity8[C1, C2, C3, C4, C5, C6, C7, C8](w, dst[:0], n, nil)
	if err != nil {
		return nil, err
	}
	return ids, ecs.BulkFillComponent2[C9, C10](w, ids, nil)
}

// grow10 is the baseline of in-place creation with ten components: ten
// plain slices (cols10's), each grown by n zero values per round, as grow2.
type grow10 cols10

func newGrow10(n int) *grow10 {
	return &grow10{
		make([]C1, 0, n), make([]C2, 0, n), make([]C3, 0, n), make([]C4, 0, n), make([]C5, 0, n),
		make([]C6, 0, n), make([]C7, 0, n), make([]C8, 0, n), make([]C9, 0, n), make([]C10, 0, n),
	}
}

//go:noinline
func (g *grow10) grow(n int) {
	g.c1 = append(g.c1[:0], make([]C1, n)...)
	g.c2 = append(g.c2[:0], make([]C2, n)...)
	g.c3 = append(g.c3[:0], make([]C3, n)...)
	g.c4 = append(g.c4[:0], make([]C4, n)...)
	g.c5 = append(g.c5[:0], make([]C5, n)...)
	g.c6 = append(g.c6[:0], make([]C6, n)...)
	g.c7 = append(g.c7[:0], make([]C7, n)...)
	g.c8 = append(g.c8[:0], make([]C8, n)...)
	g.c9 = append(g.c9[:0], make([]C9, n)...)
	g.c10 = append(g.c10[:0], make([]C10, n)...)
}

// ent10 is an entity of the baselines with ten components.
type ent10 struct {
	C1  C1
	C2  C2
	C3  C3
	C4  C4
	C5  C5
	C6  C6
	C7  C7
	C8  C8
	C9  C9
	C10 C10
}

//go:noinline
func create10Plain(es []ent10, n int) []ent10 {
	for range n {
		es = append(es, ent10{C1{1, 1}, C2{1, 2}, C3{1, 3}, C4{1, 4}, C5{1, 5}, C6{1, 6}, C7{1, 7}, C8{1, 8}, C9{1, 9}, C10{1, 10}})
	}
	return es
}

// views10 is a custom view: the entities and the storages of C1..C10.
type views10 struct {
	Ents ecs.EntitiesViewMut
	C1   ecs.ViewMut[C1]
	C2   ecs.ViewMut[C2]
	C3   ecs.ViewMut[C3]
	C4   ecs.ViewMut[C4]
	C5   ecs.ViewMut[C5]
	C6   ecs.ViewMut[C6]
	C7   ecs.ViewMut[C7]
	C8   ecs.ViewMut[C8]
	C9   ecs.ViewMut[C9]
	C10  ecs.ViewMut[C10]
}

// create10 creates n entities with C1..C10, one by one.
//
//go:noinline
func create10(v views10, n int) error {
	for range n {
		id := v.Ents.AddEntity()
		err := v.C1.AddComponentUnchecked(id, C1{1, 1})
		if err == nil {
			err = v.C2.AddComponentUnchecked(id, C2{1, 2})
		}
		if err == nil {
			err = v.C3.AddComponentUnchecked(id, C3{1, 3})
		}
		if err == nil {
			err = v.C4.AddComponentUnchecked(id, C4{1, 4})
		}
		if err == nil {
			err = v.C5.AddComponentUnchecked(id, C5{1, 5})
		}
		if err == nil {
			err = v.C6.AddComponentUnchecked(id, C6{1, 6})
		}
		if err == nil {
			err = v.C7.AddComponentUnchecked(id, C7{1, 7})
		}
		if err == nil {
			err = v.C8.AddComponentUnchecked(id, C8{1, 8})
		}
		if err == nil {
			err = v.C9.AddComponentUnchecked(id, C9{1, 9})
		}
		if err == nil {
			err = v.C10.AddComponentUnchecked(id, C10{1, 10})
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// cols10 holds one slice per component C1..C10: the input of the bulk
// calls.
type cols10 struct {
	c1  []C1
	c2  []C2
	c3  []C3
	c4  []C4
	c5  []C5
	c6  []C6
	c7  []C7
	c8  []C8
	c9  []C9
	c10 []C10
}

// newCols10 returns n components of each type.
func newCols10(n int) cols10 {
	return cols10{
		column[C1](n), column[C2](n), column[C3](n), column[C4](n), column[C5](n),
		column[C6](n), column[C7](n), column[C8](n), column[C9](n), column[C10](n),
	}
}

// fill10 creates an entity with C1..C10 per element of src.c1: in one
// BulkAppendEntity8 call for C1..C8, then one BulkAddComponent2 call for
// C9 and C10. It returns their ids, in dst's memory when it has room.
func fill10(w *ecs.World, src *cols10, dst []ecs.EntityID) ([]ecs.EntityID, error) {
	ids, err := ecs.BulkAppendEntity8(w, dst[:0], src.c1, src.c2, src.c3, src.c4, src.c5, src.c6, src.c7, src.c8)
	if err != nil {
		return nil, err
	}
	return ids, ecs.BulkAddComponent2(w, ids, src.c9, src.c10)
}

// BenchmarkNewWorld creates an empty world; ns/entity is per world. There
// is no plain baseline.
func BenchmarkNewWorld(b *testing.B) {
	runImplsAt(b, []int{1}, impl{"slipway", func(b *testing.B, n int) {
		measure(b, n, func() { sinkWorld = ecs.NewWorld() })
	}})
}
