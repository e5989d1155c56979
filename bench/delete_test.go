package bench

// The delete workloads: delete N entities that have 2 or 10 components.
//
// Slipway deletes one entity at a time inside a system holding an
// AllStoragesViewMut (which strips the components of the entities it
// deleted together when the system ends); the bulk variant deletes the list of entities with
// one World.DeleteEntities call, and the "any" variant deletes them with
// DeleteAny of a type they all have. The entities make up whole storages
// (nothing else has their types), so both bulk calls clear the storages
// at once. The baselines keep entities in a slice of structs with a
// liveness flag: deleting clears the entity's components, marks it dead
// and pushes its index on a free list. The truncating baselines keep one
// slice per component type instead, with the entities' ids beside them:
// deleting every entity bumps each one's generation, pushes its index on a
// free list and truncates the slices, which is what deleting whole
// storages costs without an ECS.
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
		impl{"plain-truncate", func(b *testing.B, n int) { benchTruncate(b, n, 2) }},
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
		impl{"slipway-any", func(b *testing.B, n int) {
			ps, vs := column[Position](n), constColumn[Velocity](n, 1, 2)
			benchDelete(b, n, func(w *ecs.World, dst []ecs.EntityID) ([]ecs.EntityID, error) {
				return ecs.BulkAppendEntity2(w, dst, ps, vs)
			}, deleteAny[Position])
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
		impl{"plain-truncate", func(b *testing.B, n int) { benchTruncate(b, n, 10) }},
		impl{"slipway", func(b *testing.B, n int) {
			src := newCols10(n)
			benchDelete(b, n, func(w *ecs.World, dst []ecs.EntityID) ([]ecs.EntityID, error) { return fill10(w, &src, dst) }, nil)
		}},
		impl{"slipway-bulk", func(b *testing.B, n int) {
			src := newCols10(n)
			benchDelete(b, n, func(w *ecs.World, dst []ecs.EntityID) ([]ecs.EntityID, error) { return fill10(w, &src, dst) }, deleteEntities)
		}},
		impl{"slipway-any", func(b *testing.B, n int) {
			src := newCols10(n)
			benchDelete(b, n, func(w *ecs.World, dst []ecs.EntityID) ([]ecs.EntityID, error) { return fill10(w, &src, dst) }, deleteAny[C1])
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

// deleteAny deletes every entity that has a T, in one call.
//
//go:noinline
func deleteAny[T any](w *ecs.World, _ []ecs.EntityID) error {
	_, err := ecs.DeleteAny[T](w)
	return err
}

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

// plainCols is the truncating baselines' store: cols component slices
// (all of the components' shape) with the id of each row's entity, and
// the entities' generations (by index) and free list.
type plainCols struct {
	cols [][]pair
	ids  []uint64 // the generation in the high 32 bits, the index in the low
	gens []uint32
	free []uint32
}

func newPlainCols(cols, n int) *plainCols {
	s := &plainCols{cols: make([][]pair, cols), ids: make([]uint64, 0, n), gens: make([]uint32, n), free: make([]uint32, 0, n)}
	for k := range s.cols {
		s.cols[k] = make([]pair, 0, n)
	}
	return s
}

// refill creates n entities with every component, taking indices from
// the free list first (most recently freed first), then new ones.
func (s *plainCols) refill(n int) {
	for range n {
		var i uint32
		if k := len(s.free) - 1; k >= 0 {
			i, s.free = s.free[k], s.free[:k]
		} else {
			i = uint32(len(s.ids))
		}
		s.ids = append(s.ids, uint64(s.gens[i])<<32|uint64(i))
		for k := range s.cols {
			s.cols[k] = append(s.cols[k], pair{float64(i), float64(k)})
		}
	}
}

// truncatePlain deletes every entity of s: bumps its generation and pushes
// its index on the free list, in row order, then truncates every slice.
//
//go:noinline
func truncatePlain(s *plainCols) {
	gens, free := s.gens, s.free
	for _, id := range s.ids {
		i := uint32(id)
		gens[i]++
		free = append(free, i)
	}
	s.free = free
	s.ids = s.ids[:0]
	for k := range s.cols {
		s.cols[k] = s.cols[k][:0]
	}
}

// benchTruncate runs truncatePlain rounds over worlds of n entities with
// cols components each, refilled between rounds, untimed.
func benchTruncate(b *testing.B, n, cols int) {
	states := make([]*plainCols, batchFor(n))
	for i := range states {
		states[i] = newPlainCols(cols, n)
	}
	measureReset(b, n, len(states),
		func(i int) { states[i].refill(n) },
		func(i int) { truncatePlain(states[i]) })
}
