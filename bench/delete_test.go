package bench

// The delete workloads: delete N entities that have 2 or 10 components.
//
// Slipway deletes one entity at a time inside a system holding an
// AllStoragesViewMut (which strips the components of the entities it
// deleted together when the system ends); the bulk variant deletes the list of entities with
// one World.DeleteEntities call. The baselines keep entities in a
// slice of structs with a liveness flag: deleting clears the entity's
// components, marks it dead and pushes its index on a free list.
// Re-creating the entities between rounds is never timed.

import (
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// BenchmarkDelete2Comp deletes N entities that have Position and Velocity,
// in the order they were created.
func BenchmarkDelete2Comp(b *testing.B) {
	runImpls(b,
		impl{"plain", func(b *testing.B, n int) {
			states := make([]*plainStore[mover], batchFor(n))
			for i := range states {
				states[i] = newPlainStore[mover](n)
			}
			measureReset(b, n, len(states),
				func(i int) { states[i].refill(mover{Position{1, 1}, Velocity{1, 2}}) },
				func(i int) { deletePlain(states[i]) })
		}},
		impl{"slipway", func(b *testing.B, n int) {
			ps, vs := column[Position](n), constColumn[Velocity](n, 1, 2)
			benchDelete(b, n, func(w *ecs.World, dst []ecs.EntityID) ([]ecs.EntityID, error) {
				return ecs.BulkAppendEntity2(w, dst, ps, vs)
			}, nil)
		}},
		impl{"slipway-bulk", func(b *testing.B, n int) {
			ps, vs := column[Position](n), constColumn[Velocity](n, 1, 2)
			benchDelete(b, n, func(w *ecs.World, dst []ecs.EntityID) ([]ecs.EntityID, error) {
				return ecs.BulkAppendEntity2(w, dst, ps, vs)
			}, deleteEntities)
		}},
		refDeleteImpl(2),
	)
}

// BenchmarkDelete10Comp is Delete2Comp with entities having C1..C10.
func BenchmarkDelete10Comp(b *testing.B) {
	runImpls(b,
		impl{"plain", func(b *testing.B, n int) {
			states := make([]*plainStore[ent10], batchFor(n))
			for i := range states {
				states[i] = newPlainStore[ent10](n)
			}
			e := ent10{C1{1, 1}, C2{1, 2}, C3{1, 3}, C4{1, 4}, C5{1, 5}, C6{1, 6}, C7{1, 7}, C8{1, 8}, C9{1, 9}, C10{1, 10}}
			measureReset(b, n, len(states),
				func(i int) { states[i].refill(e) },
				func(i int) { deletePlain(states[i]) })
		}},
		impl{"slipway", func(b *testing.B, n int) {
			src := newCols10(n)
			benchDelete(b, n, func(w *ecs.World, dst []ecs.EntityID) ([]ecs.EntityID, error) { return fill10(w, &src, dst) }, nil)
		}},
		impl{"slipway-bulk", func(b *testing.B, n int) {
			src := newCols10(n)
			benchDelete(b, n, func(w *ecs.World, dst []ecs.EntityID) ([]ecs.EntityID, error) { return fill10(w, &src, dst) }, deleteEntities)
		}},
		refDeleteImpl(10),
	)
}

// benchDelete runs delete rounds over a batch of worlds that fill refills,
// untimed, between rounds, appending the new ids to the world's last ones
// cut to length 0 (so refills allocate no id slices). With bulk nil a
// round deletes the ids fill returned, one at a time; otherwise it calls
// bulk with the world and them.
func benchDelete(b *testing.B, n int, fill func(w *ecs.World, dst []ecs.EntityID) ([]ecs.EntityID, error), bulk func(*ecs.World, []ecs.EntityID) error) {
	worlds := make([]*ecs.World, batchFor(n))
	ids := make([][]ecs.EntityID, len(worlds))
	systems := make([]func(ecs.AllStoragesViewMut) error, len(worlds))
	for i := range worlds {
		worlds[i] = ecs.NewWorld()
		systems[i] = deleteSystem(&ids[i])
	}
	measureReset(b, n, len(worlds),
		func(i int) {
			var err error
			ids[i], err = fill(worlds[i], ids[i][:0])
			check(b, err)
		},
		func(i int) {
			if bulk != nil {
				check(b, bulk(worlds[i], ids[i]))
			} else {
				check(b, worlds[i].Run(systems[i]))
			}
		})
}

// deleteSystem returns a system deleting the entities *ids, one at a time.
func deleteSystem(ids *[]ecs.EntityID) func(ecs.AllStoragesViewMut) error {
	return func(all ecs.AllStoragesViewMut) error { return deleteEach(all, *ids) }
}

//go:noinline
func deleteEach(all ecs.AllStoragesViewMut, ids []ecs.EntityID) error {
	for _, id := range ids {
		if err := all.DeleteEntity(id); err != nil {
			return err
		}
	}
	return nil
}

// deleteEntities deletes the entities ids, in one call.
//
//go:noinline
func deleteEntities(w *ecs.World, ids []ecs.EntityID) error { return w.DeleteEntities(ids...) }

// plainStore is the baselines' entity store: entities of type E in a
// slice indexed by entity, liveness flags and a free list.
type plainStore[E any] struct {
	ents  []E
	alive []bool
	free  []int
}

func newPlainStore[E any](n int) *plainStore[E] {
	return &plainStore[E]{ents: make([]E, n), alive: make([]bool, n), free: make([]int, 0, n)}
}

// refill makes every entity alive with the components e.
func (s *plainStore[E]) refill(e E) {
	for i := range s.ents {
		s.ents[i], s.alive[i] = e, true
	}
	s.free = s.free[:0]
}

// deletePlain deletes every entity of s, in index order.
//
//go:noinline
func deletePlain[E any](s *plainStore[E]) {
	var zero E
	for i := range s.ents {
		if s.alive[i] {
			s.ents[i], s.alive[i] = zero, false
			s.free = append(s.free, i)
		}
	}
}
