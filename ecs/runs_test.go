package ecs_test

import (
	"maps"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// The components of the Runs tests hold their entity's id, so that a run's
// slices can be checked against its IDs.
type (
	rnA struct{ ID ecs.EntityID }
	rnB struct{ ID ecs.EntityID }
	rnC struct{ ID ecs.EntityID }
)

func (c rnA) entity() ecs.EntityID { return c.ID }
func (c rnB) entity() ecs.EntityID { return c.ID }
func (c rnC) entity() ecs.EntityID { return c.ID }

type rnComponent interface{ entity() ecs.EntityID }

// rnWorld builds a layout Runs has to handle: entities with an A and a B
// (the joined ones) and entities with an A only, each holding its id.
func rnWorld(t *testing.T, layout string) *ecs.World {
	t.Helper()
	w := ecs.NewWorld()
	add := func(both bool) {
		id, err := ecs.AddEntity1(w, rnA{})
		must(t, err)
		must(t, ecs.AddComponent1(w, id, rnA{id}))
		if both {
			must(t, ecs.AddComponent1(w, id, rnB{id}))
		}
	}
	switch layout {
	case "empty":
	case "aligned", "group", "partly aligned":
		if layout == "group" {
			must(t, ecs.AddGroup2[rnA, rnB](w))
		}
		for range 1000 {
			add(true)
		}
		for range 300 {
			add(false)
		}
		if layout == "partly aligned" {
			// Removing the B at 400 moves the last B into its place.
			var ids []ecs.EntityID
			must(t, ecs.Each1(w, func(id ecs.EntityID, _ *rnB) { ids = append(ids, id) }))
			_, _, err := ecs.Remove[rnB](w, ids[400])
			must(t, err)
		}
	case "interleaved":
		for i := range 1000 {
			add(i%3 == 0)
		}
	case "after others":
		// The joined entities sit 300 positions further in A's storage
		// than in B's.
		for range 300 {
			add(false)
		}
		for range 1000 {
			add(true)
		}
	case "two stretches":
		for range 500 {
			add(true)
		}
		for range 300 {
			add(false)
		}
		for range 500 {
			add(true)
		}
	default:
		t.Fatalf("unknown layout %q", layout)
	}
	return w
}

// rnCollect returns what Runs hands out, as the ids the components hold by
// the id they were handed out with, after checking that every run's
// slices are as long as its IDs; and the number of runs.
func rnCollect[T1, T2 rnComponent](t *testing.T, it ecs.Iter2[T1, T2]) (map[ecs.EntityID][2]ecs.EntityID, int) {
	t.Helper()
	got := map[ecs.EntityID][2]ecs.EntityID{}
	runs := 0
	for r := range it.Runs() {
		runs++
		if len(r.IDs) == 0 || len(r.A) != len(r.IDs) || len(r.B) != len(r.IDs) {
			t.Fatalf("run %d: %d ids, %d A, %d B", runs, len(r.IDs), len(r.A), len(r.B))
		}
		for i, id := range r.IDs {
			if _, dup := got[id]; dup {
				t.Fatalf("%v handed out twice", id)
			}
			got[id] = [2]ecs.EntityID{r.A[i].entity(), r.B[i].entity()}
		}
	}
	return got, runs
}

// rnWant returns what WithID hands out, in the form of rnCollect.
func rnWant[T1, T2 rnComponent](it ecs.Iter2[T1, T2]) map[ecs.EntityID][2]ecs.EntityID {
	want := map[ecs.EntityID][2]ecs.EntityID{}
	for id, row := range it.WithID() {
		want[id] = [2]ecs.EntityID{(*row.A).entity(), (*row.B).entity()}
	}
	return want
}

// rnSame checks that Runs hands out what WithID does, each component with
// its own entity, and returns the number of runs.
func rnSame[T1, T2 rnComponent](t *testing.T, what string, it ecs.Iter2[T1, T2]) int {
	t.Helper()
	got, runs := rnCollect(t, it)
	want := rnWant(it)
	if !maps.Equal(got, want) {
		t.Fatalf("%s: Runs handed out %d entities, WithID %d, or other components", what, len(got), len(want))
	}
	for id, c := range got {
		if c[0] != id || c[1] != id {
			t.Fatalf("%s: %v handed out with the components of %v and %v", what, id, c[0], c[1])
		}
	}
	return runs
}

func TestRunsMatchTheJoin(t *testing.T) {
	for _, tc := range []struct {
		layout   string
		joined   int
		min, max int // runs
	}{
		{"empty", 0, 0, 0},
		{"aligned", 1000, 1, 1},
		{"group", 1000, 1, 1},
		// The stretches before and after position 400, and the B moved
		// there from the end, out of line.
		{"partly aligned", 999, 3, 3},
		// No two joined entities are neighbours in A: they come one by one.
		{"interleaved", 334, 334, 334},
		// A run may start at another position in each storage. Its first
		// entity, out of line, comes on its own; the rest follow it.
		{"after others", 1000, 2, 2},
		{"two stretches", 1000, 3, 3},
	} {
		t.Run(tc.layout, func(t *testing.T) {
			w := rnWorld(t, tc.layout)
			must(t, w.Run(func(a ecs.View[rnA], b ecs.View[rnB]) {
				for _, runs := range []int{
					rnSame(t, "Join2(a, b)", ecs.Join2(a, b)),
					rnSame(t, "Join2(b, a)", ecs.Join2(b, a)),
				} {
					if runs < tc.min || runs > tc.max {
						t.Errorf("%d runs, want %d..%d", runs, tc.min, tc.max)
					}
				}
				equal(t, "joined", ecs.Join2(a, b).Count(), tc.joined)
			}))
		})
	}
}

// A join with a Not filter, a Changed view or a view that marks hands out
// one entity per run, and the same entities as its other forms.
func TestRunsOneByOne(t *testing.T) {
	w := rnWorld(t, "aligned")
	must(t, ecs.TrackComponent[rnB](w, ecs.TrackModification))
	var some []ecs.EntityID
	must(t, ecs.Each1(w, func(id ecs.EntityID, _ *rnB) {
		if id.Index()%7 == 0 {
			some = append(some, id)
		}
	}))
	for _, id := range some {
		must(t, ecs.AddComponent1(w, id, rnC{id}))
	}
	must(t, w.Run(func(a ecs.View[rnA], b ecs.View[rnB], c ecs.View[rnC]) {
		it := ecs.Join2(a, b).Not(c)
		runs := rnSame(t, "Not(c)", it)
		equal(t, "Not(c) runs", runs, 1000-len(some))
	}))
	// A ViewMut of a type tracking modification marks what it hands out.
	must(t, w.Run(func(a ecs.View[rnA], b ecs.ViewMut[rnB]) {
		b.ClearAllModified()
		n := 0
		for r := range ecs.Join2(a, b).Runs() {
			equal(t, "marking run length", len(r.IDs), 1)
			if n++; n == 10 {
				break
			}
		}
	}))
	must(t, w.Run(func(a ecs.View[rnA], b ecs.View[rnB]) {
		mod, err := b.Modified()
		must(t, err)
		equal(t, "modified by the marking runs", mod.Count(), 10)
		runs := rnSame(t, "Modified", ecs.Join2(a, mod))
		equal(t, "Modified runs", runs, 10)
	}))
}

func TestRunsWriteAndStop(t *testing.T) {
	w := rnWorld(t, "partly aligned")
	must(t, w.Run(func(a ecs.ViewMut[rnA], b ecs.View[rnB]) {
		for r := range ecs.Join2(a, b).Runs() {
			for i := range r.A {
				r.A[i].ID = ecs.NullID
			}
		}
		left := 0
		for _, c := range a.Slice() {
			if c.ID != ecs.NullID {
				left++
			}
		}
		equal(t, "A not written (entities without a B)", left, 300+1)
		runs := 0
		for range ecs.Join2(a, b).Runs() {
			runs++
			break
		}
		equal(t, "runs after a break", runs, 1)
	}))
}

func TestRunsJoin3(t *testing.T) {
	w := ecs.NewWorld()
	n := 500
	ids, err := ecs.BulkAddEntity3(w, make([]rnA, n), make([]rnB, n), make([]rnC, n))
	must(t, err)
	for _, id := range ids {
		must(t, ecs.AddComponent3(w, id, rnA{id}, rnB{id}, rnC{id}))
	}
	must(t, ecs.DeleteEntity(w, ids[n/2]))
	must(t, w.Run(func(a ecs.View[rnA], b ecs.View[rnB], c ecs.View[rnC]) {
		seen, runs := 0, 0
		for r := range ecs.Join3(a, b, c).Runs() {
			runs++
			for i, id := range r.IDs {
				if r.A[i].ID != id || r.B[i].ID != id || r.C[i].ID != id {
					t.Fatalf("%v handed out with %v, %v, %v", id, r.A[i].ID, r.B[i].ID, r.C[i].ID)
				}
				seen++
			}
		}
		equal(t, "entities", seen, n-1)
		if runs > 3 {
			t.Errorf("%d runs over storages deleted from alike, want at most 3", runs)
		}
	}))
}
