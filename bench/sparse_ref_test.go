package bench

// Tests of the sparse-set reference (sparse_test.go): it must do the same
// work as the Slipway implementations, or its figures would mean nothing.

import (
	"fmt"
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
		"Query2Comp": buildQuery2Comp, "Query32Arch": buildQuery32Arch,
		"Query256Arch": buildQuery256Arch, "Query256ArchMixed": buildQuery256ArchMixed,
		"Query2CompChurned": buildQuery2CompChurned, "Query256ArchChurned": buildQuery256ArchChurned,
	}
	for name, build := range builds {
		t.Run(name, func(t *testing.T) {
			w := ecs.NewWorld()
			build(t, w, 1500)
			pos, vel := refCopy[Position](t, w, 0), refCopy[Velocity](t, w, 1)
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
	equal(t, "sum", sumRef(refCopy[Position](t, w, 0), ids), float64(n*(n-1)/2))

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

// The group reference keeps its group packed and moves the components
// exactly as Slipway's group does: after each phase of two AddRemove
// rounds, both storages hold the same entities in the same order as
// Slipway's, and the group the same number.
func TestSparseGroupReferenceMatchesSlipway(t *testing.T) {
	const n = 2500
	w := groupLayout.newWorld(t)
	ids := buildAddRemove(t, w, n)
	ents, g, refIDs := newRefGroupWorld(n)
	sameOrder(t, "ids", refIDs, ids)
	same := func(phase string, members int) {
		t.Helper()
		pos, vel, release := borrowMovers(t, w)
		defer release()
		gn, _, err := ecs.GroupLen[Position](w)
		check(t, err)
		equal(t, phase+": group length", g.n, gn)
		equal(t, phase+": members", g.n, members)
		sameOrder(t, phase+": Position", g.pos.dense, pos.IDs())
		sameOrder(t, phase+": Velocity", g.vel.dense, vel.IDs())
		for i := range g.n {
			if g.pos.dense[i] != g.vel.dense[i] {
				t.Fatalf("%s: group not packed at %d", phase, i)
			}
		}
		for i, id := range g.pos.dense {
			if p := g.pos.get(id); p == nil || p != &g.pos.data[i] {
				t.Fatalf("%s: %v's sparse entry does not point at position %d", phase, id, i)
			}
		}
	}
	for round := range 2 {
		check(t, w.Run(func(es ecs.EntitiesView, vel ecs.ViewMut[Velocity]) error { return addEach(es, vel, ids) }))
		for _, id := range refIDs {
			if ents.isAlive(id) {
				g.addVel(id, Velocity{1, 2})
			}
		}
		same(fmt.Sprint("round ", round, " added"), n)
		check(t, w.Run(func(vel ecs.ViewMut[Velocity]) { removeEach(vel, ids) }))
		for _, id := range refIDs {
			g.removeVel(id)
		}
		same(fmt.Sprint("round ", round, " removed"), 0)
	}
	// And the timed function does both phases.
	addRemoveGroupRef(ents, g, refIDs)
	equal(t, "after addRemoveGroupRef", g.n+len(g.vel.dense), 0)
	equal(t, "positions kept", len(g.pos.dense), n)
}

// sameOrder fails unless the reference's ids are Slipway's, in the same
// order, naming the first place where they differ.
func sameOrder(t *testing.T, what string, ref, slipway []ecs.EntityID) {
	t.Helper()
	equal(t, what+": length", len(ref), len(slipway))
	for i := range ref {
		if ref[i] != slipway[i] {
			t.Fatalf("%s: position %d holds %v in the reference, %v in Slipway", what, i, ref[i], slipway[i])
		}
	}
}
