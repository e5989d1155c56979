package ecs

import (
	"maps"
	"slices"
	"testing"
)

// Types of the lined-up join tests.
type (
	lpA struct{ V int }
	lpB struct{ V int }
	lpC struct{ V int }
)

// TestJoinLinedUpPrefixes checks that a join over storages whose identity
// prefixes line up runs on aligned positions (driver 0, as over a group),
// that it stops doing so once they no longer line up, and that it visits
// the same entities with the same components either way, through every
// way of iterating.
func TestJoinLinedUpPrefixes(t *testing.T) {
	w := NewWorld()
	const n = 2000 // two sparse pages
	as, bs := make([]lpA, n), make([]lpB, n)
	for i := range as {
		as[i], bs[i] = lpA{i}, lpB{-i}
	}
	ids, err := BulkAddEntity2(w, as, bs)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 500 { // A goes on: its prefix is longer than B's
		if _, err := AddEntity1(w, lpA{n + i}); err != nil {
			t.Fatal(err)
		}
	}
	want := map[EntityID]int{} // the entities with both, to A's value
	for i, id := range ids {
		want[id] = i
	}

	check := func(step string, lined bool) {
		t.Helper()
		err := w.Run(func(a View[lpA], b ViewMut[lpB]) {
			it := Join2(a, b)
			it.start()
			if got := it.jc.driver < 0; got != lined {
				t.Errorf("%s: lined up = %v, want %v", step, got, lined)
			}
			if _, _, _, ok := Join2(a, b).Packed(); ok {
				t.Errorf("%s: Packed is ok without a group", step)
			}
			seen := func(how string, got map[EntityID]int) {
				t.Helper()
				if !maps.Equal(got, want) {
					t.Errorf("%s, %s: visited %d entities, want %d", step, how, len(got), len(want))
				}
			}
			got := map[EntityID]int{}
			for id, r := range Join2(a, b).WithID() {
				if r.B.V != -r.A.V {
					t.Fatalf("%s: %v has A %d and B %d", step, id, r.A.V, r.B.V)
				}
				got[id] = r.A.V
			}
			seen("WithID", got)
			got = map[EntityID]int{}
			Join2(a, b).EachWithID(func(id EntityID, pa *lpA, _ *lpB) { got[id] = pa.V })
			seen("EachWithID", got)
			got = map[EntityID]int{}
			for c := Join2(a, b); c.Next(); {
				pa, _ := c.Values()
				got[c.ID()] = pa.V
			}
			seen("Next", got)
			got = map[EntityID]int{}
			runs := 0
			for r := range Join2(a, b).Runs() {
				runs++
				for i, id := range r.IDs {
					got[id] = r.A[i].V
				}
			}
			seen("Runs", got)
			if lined && runs != 1 {
				t.Errorf("%s: %d runs over lined-up storages, want 1", step, runs)
			}
			if c := Join2(a, b).Count(); c != len(want) {
				t.Errorf("%s: Count = %d, want %d", step, c, len(want))
			}
			got = map[EntityID]int{}
			for id, r := range Join2(a, b).Not(b).WithID() {
				got[id] = r.A.V
			}
			if len(got) != 0 {
				t.Errorf("%s: Not(b) visited %d entities", step, len(got))
			}
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	check("created in order", true)

	// Removing B from entity 700 moves B's last component into its place:
	// B's prefix ends there, and the storages no longer line up.
	if _, err := DeleteComponent[lpB](w, ids[700]); err != nil {
		t.Fatal(err)
	}
	delete(want, ids[700])
	check("after a removal", false)
}

// TestJoinLinedUpNeedsEveryStorage: a third storage whose prefix is
// shorter than the driver's keeps the join on the probing path, and one
// whose components are of other entities keeps it too.
func TestJoinLinedUpNeedsEveryStorage(t *testing.T) {
	w := NewWorld()
	var ids []EntityID
	for i := range 100 {
		id, err := AddEntity2(w, lpA{i}, lpB{i})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	for _, id := range ids[:60] {
		if err := AddComponent1(w, id, lpC{1}); err != nil {
			t.Fatal(err)
		}
	}
	lined := func(a View[lpA], b View[lpB], c View[lpC]) (bool, bool, []EntityID) {
		two, three := Join2(a, b), Join3(a, b, c)
		two.start()
		three.start()
		var got []EntityID
		for id := range Join3(a, b, c).WithID() {
			got = append(got, id)
		}
		slices.Sort(got)
		return two.jc.driver < 0, three.jc.driver < 0, got
	}
	err := w.Run(func(a View[lpA], b View[lpB], c View[lpC]) {
		two, three, got := lined(a, b, c)
		// C's prefix (60) covers the shortest storage, C itself.
		if !two || !three || !slices.Equal(got, ids[:60]) {
			t.Errorf("lined up: Join2 %v, Join3 %v (want both); Join3 visited %v", two, three, got)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	// C given to entity 99 out of order: C's storage is no longer a
	// prefix past position 60, and it is no longer the shortest's match.
	if err := AddComponent1(w, ids[99], lpC{1}); err != nil {
		t.Fatal(err)
	}
	err = w.Run(func(a View[lpA], b View[lpB], c View[lpC]) {
		_, three, got := lined(a, b, c)
		if three || !slices.Equal(got, append(slices.Clone(ids[:60]), ids[99])) {
			t.Errorf("after an add out of order: Join3 lined up %v (want false), visited %v", three, got)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}
