package bench

// Tests of the sparse-set reference (sparse_test.go): it must do the same
// work as the Slipway implementations, or its figures would mean nothing.

import (
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

func TestSparseReferenceCreatesAndDeletes(t *testing.T) {
	const n = 2500 // more than two pages
	for _, storages := range []int{2, 10} {
		r := newRefWorld(storages)
		createRef(r, n)
		for k := range r.sets {
			equal(t, "components after create", len(r.sets[k].dense), n)
			for i, id := range r.ids {
				if got := r.sets[k].get(id); got == nil || *got != r.vals[k] {
					t.Fatalf("storage %d: entity %d (%v) has %v, want %v", k, i, id, got, r.vals[k])
				}
			}
		}
		first := append([]ecs.EntityID(nil), r.ids...)
		deleteRef(r)
		for k := range r.sets {
			equal(t, "components after delete", len(r.sets[k].dense), 0)
		}
		for _, id := range first {
			if r.ents.isAlive(id) || r.sets[0].get(id) != nil {
				t.Fatalf("%v still alive or holding a component after delete", id)
			}
		}
		// Indices come back with the next generation, and clearRef leaves
		// the free list such that the next round takes them in the order
		// of the round it cleared.
		createRef(r, n)
		second := append([]ecs.EntityID(nil), r.ids...)
		equal(t, "first index of the second round", second[0].Index(), uint32(n-1))
		clearRef(r)
		createRef(r, n)
		for i, id := range r.ids {
			if id.Index() != second[i].Index() || id.Generation() != 2 {
				t.Fatalf("entity %d is %v after clearRef, want index %d generation 2", i, id, second[i].Index())
			}
		}
	}
}

func TestSparseReferenceRemovesFromTheMiddle(t *testing.T) {
	var ents refEntities
	var s refSet[Position]
	ids := make([]ecs.EntityID, 5)
	for i := range ids {
		ids[i] = ents.create()
		s.set(ids[i], Position{float64(i), 0})
	}
	s.set(ids[1], Position{10, 0}) // replaces
	equal(t, "length after a replacing set", len(s.dense), 5)
	equal(t, "remove present", s.remove(ids[1]), true)
	equal(t, "remove absent", s.remove(ids[1]), false)
	stale := ids[3]
	ents.delete(stale)
	equal(t, "stale id after re-creation", s.get(ents.create()), (*Position)(nil))
	for i, id := range ids {
		got := s.get(id)
		if i == 1 {
			equal(t, "removed", got, (*Position)(nil))
			continue
		}
		if got == nil || got.X != float64(i) {
			t.Fatalf("entity %d: %v after the swap-removal, want X = %d", i, got, i)
		}
	}
}

func TestSparseReferenceQueriesMatchSlipway(t *testing.T) {
	builds := map[string]func(testing.TB, *ecs.World, int){
		"Query2Comp": buildQuery2Comp, "Query32Arch": buildQuery32Arch, "Query256Arch": buildQuery256Arch,
	}
	for name, build := range builds {
		t.Run(name, func(t *testing.T) {
			w := ecs.NewWorld()
			build(t, w, 1500)
			pos, vel := refCopy[Position](t, w), refCopy[Velocity](t, w)
			check(t, w.Run(move))
			moveRef(pos, vel)
			want := snapshot(t, w)
			equal(t, "positions", len(pos.dense), len(want))
			for i, id := range pos.dense {
				if pos.data[i] != want[id] {
					t.Fatalf("%v: reference has %v, Slipway %v", id, pos.data[i], want[id])
				}
			}
		})
	}
}

func TestSparseReferenceRandomAndAddRemove(t *testing.T) {
	const n = 1000
	w, ids := buildRandom(t, n)
	equal(t, "sum", sumRef(refCopy[Position](t, w), ids), float64(n*(n-1)/2))

	var ents refEntities
	for range n {
		ents.create()
	}
	dead := ecs.EntityID(7)
	ents.delete(dead)
	var vel refSet[Velocity]
	for _, id := range ids {
		if ents.isAlive(id) {
			vel.set(id, Velocity{1, 2})
		}
	}
	equal(t, "velocities added to the living", len(vel.dense), n-1)
	addRemoveRef(&ents, &vel, ids)
	equal(t, "velocities after a round", len(vel.dense), 0)
}
