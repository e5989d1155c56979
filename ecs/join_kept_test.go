package ecs_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// Components of the kept-join tests. V is the owning entity's index, so a
// visit can tell whether the components it was handed are its entity's.
type (
	kA struct{ V uint32 }
	kB struct{ V uint32 }
	kC struct{ V uint32 }
	kT struct{ V uint32 } // tracks everything
)

func (kT) Tracking() ecs.Tracking { return ecs.TrackAll }

// joinVisits runs every way of iterating a join of two views and returns,
// per way, what it visited as sorted "index" strings. A visit whose
// components do not belong to the entity it was handed for records an
// error string instead.
func joinVisits(it ecs.Iter2[kA, kB]) map[string][]string {
	out := map[string][]string{}
	add := func(way string, id ecs.EntityID, a *kA, b *kB) {
		s := fmt.Sprint(a.V)
		if a.V != b.V || (id != 0 && a.V != id.Index()) {
			s = fmt.Sprintf("mismatch: id %v, A %d, B %d", id, a.V, b.V)
		}
		out[way] = append(out[way], s)
	}
	for a, b := range it.All() {
		add("All", 0, a, b)
	}
	for id, r := range it.WithID() {
		add("WithID", id, r.A, r.B)
	}
	it.Each(func(a *kA, b *kB) { add("Each", 0, a, b) })
	it.EachWithID(func(id ecs.EntityID, a *kA, b *kB) { add("EachWithID", id, a, b) })
	for r := range it.Runs() {
		for i, id := range r.IDs {
			add("Runs", id, &r.A[i], &r.B[i])
		}
	}
	var mu sync.Mutex
	it.ParEachMin(1, func(a *kA, b *kB) {
		mu.Lock()
		defer mu.Unlock()
		add("ParEach", 0, a, b)
	})
	cur := it
	for cur.Next() {
		a, b := cur.Values()
		add("Next", cur.ID(), a, b)
	}
	for range it.Count() {
		out["Count"] = append(out["Count"], "?")
	}
	if ids, as, bs, ok := it.Packed(); ok {
		for i, id := range ids {
			add("Packed", id, &as[i], &bs[i])
		}
	}
	for way := range out {
		slices.Sort(out[way])
	}
	return out
}

// TestJoinKeptSeesLaterChanges makes a join, changes its storages, then
// iterates it: every way of iterating must see the storages as they are,
// as a join made afresh does, whichever storage drove when the join was
// made, with or without a packed group.
func TestJoinKeptSeesLaterChanges(t *testing.T) {
	for _, grouped := range []bool{false, true} {
		t.Run(fmt.Sprintf("group=%v", grouped), func(t *testing.T) {
			w := ecs.NewWorld()
			if grouped {
				must(t, ecs.AddGroup2[kA, kB](w))
			}
			// Entities 0..7 have A; 0..3 have B too, so B drives.
			for i := range uint32(8) {
				id, err := ecs.AddEntity1(w, kA{i})
				must(t, err)
				if i < 4 {
					must(t, ecs.AddComponent1(w, id, kB{i}))
				}
			}
			var a ecs.ViewMut[kA]
			var b ecs.ViewMut[kB]
			release, err := w.Borrow(&a, &b)
			must(t, err)
			defer release()

			kept := ecs.Join2(a, b)
			// B gains 4..7 and A loses 0, 2 and 3, so A (5 left) is
			// now the shorter storage; B loses 1; and the 3 removed
			// from A are the entities swap-removal moved components
			// over, so positions below the old lengths changed.
			for i := range uint32(8) {
				id := ecs.EntityID(i)
				switch {
				case i >= 4:
					must(t, b.AddComponentUnchecked(id, kB{i}))
				case i == 1:
					b.Delete(id)
				default:
					a.Delete(id)
				}
			}
			want := []string{"4", "5", "6", "7"}
			got := joinVisits(kept)
			fresh := joinVisits(ecs.Join2(a, b))
			for _, way := range []string{"All", "WithID", "Each", "EachWithID", "Runs", "ParEach", "Next"} {
				if !slices.Equal(got[way], want) {
					t.Errorf("kept join, %s: visited %q, want %q", way, got[way], want)
				}
				if !slices.Equal(fresh[way], want) {
					t.Errorf("fresh join, %s: visited %q, want %q", way, fresh[way], want)
				}
			}
			if len(got["Count"]) != len(want) {
				t.Errorf("kept join, Count: %d, want %d", len(got["Count"]), len(want))
			}
			if grouped && !slices.Equal(got["Packed"], want) {
				t.Errorf("kept join, Packed: %q, want %q", got["Packed"], want)
			}
			for i := range uint32(8) {
				pa, pb, ok := kept.Get(ecs.EntityID(i))
				if wantOK := i >= 4; ok != wantOK || ok && (pa.V != i || pb.V != i) {
					t.Errorf("kept join, Get(%d) = %v, %v, %v; want present %v", i, pa, pb, ok, wantOK)
				}
			}
		})
	}
}

// TestJoinAndTrackingAfterReleasePanic checks that a join used after its
// views were released panics with ErrReleased, however it is used: ranged,
// a cursor advanced before the release, Get; and so do the tracking
// sequences made before the release.
func TestJoinAndTrackingAfterReleasePanic(t *testing.T) {
	w := ecs.NewWorld()
	for i := range uint32(4) {
		_, err := ecs.AddEntity4(w, kA{i}, kB{i}, kC{i}, kT{i})
		must(t, err)
	}
	var a ecs.View[kA]
	var b ecs.ViewMut[kB]
	var c ecs.View[kC]
	var tv ecs.ViewMut[kT]
	release, err := w.Borrow(&a, &b, &c, &tv)
	must(t, err)
	inserted, err := tv.Inserted()
	must(t, err)
	jt := ecs.Join2(a, inserted)
	tv.Delete(0)
	_, _ = tv.Remove(1)
	deleted, err := tv.Deleted()
	must(t, err)
	removed, err := tv.Removed()
	must(t, err)
	either, err := tv.RemovedOrDeleted()
	must(t, err)
	j2 := ecs.Join2(a, b)
	j3 := ecs.Join3(a, b, c)
	advanced := ecs.Join2(a, b)
	if !advanced.Next() {
		t.Fatal("the join is empty")
	}
	seq2 := j2.All()
	uses := map[string]func(){
		"Join2.All":                       rangeOver(j2.All()),
		"Join2.All made before release":   rangeOver(seq2),
		"Join2.WithID":                    rangeOver(j2.WithID()),
		"Join2.Each":                      func() { j2.Each(func(*kA, *kB) {}) },
		"Join2.EachWithID":                func() { j2.EachWithID(func(ecs.EntityID, *kA, *kB) {}) },
		"Join2.Count":                     func() { j2.Count() },
		"Join2.Runs":                      rangeOver1(j2.Runs()),
		"Join2.ParEach":                   func() { j2.ParEach(func(*kA, *kB) {}) },
		"Join2.Packed":                    func() { j2.Packed() },
		"Join2.Get":                       func() { j2.Get(0) },
		"Join2.Next":                      func() { j2.Next() },
		"Join2.Next after a first Next":   func() { advanced.Next() },
		"Join3.All":                       rangeOver1(j3.All()),
		"Join3.Next":                      func() { j3.Next() },
		"Join3.Get":                       func() { j3.Get(0) },
		"Changed.All":                     rangeOver1(inserted.All()),
		"Changed.WithID":                  rangeOver(inserted.WithID()),
		"Join2 with a Changed view, All":  rangeOver(jt.All()),
		"Join2 with a Changed view, Next": func() { jt.Next() },
		"ViewMut.Deleted":                 rangeOver(deleted),
		"ViewMut.Removed":                 rangeOver1(removed),
		"ViewMut.RemovedOrDeleted":        rangeOver1(either),
	}
	release()
	mustPanicReleased(t, uses)
}
