package ecs_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// vrU tracks modification (and insertion, to check that a Ref's write is a
// modification only).
type vrU struct{ N int }

func (vrU) Tracking() ecs.Tracking { return ecs.TrackInsertion | ecs.TrackModification }

// vrPlain tracks nothing.
type vrPlain struct{ N int }

// vrWorld has n entities with vrU{i}, their insertions and modifications
// cleared, and returns their ids in storage order.
func vrWorld(t testing.TB, n int) (*ecs.World, []ecs.EntityID) {
	t.Helper()
	w := ecs.NewWorld()
	vals := make([]vrU, n)
	for i := range vals {
		vals[i] = vrU{i}
	}
	ids, err := ecs.BulkAddEntity1(w, vals)
	must(t, err)
	withViewMut(t, w, func(v ecs.ViewMut[vrU]) { v.ClearAllInsertedAndModified() })
	return w, ids
}

// vrModified returns the entities whose vrU is modified since the last
// clear, in storage order.
func vrModified(t testing.TB, w *ecs.World) []ecs.EntityID {
	t.Helper()
	var got []ecs.EntityID
	withView(t, w, func(v ecs.View[vrU]) {
		mod, err := v.Modified()
		must(t, err)
		for id := range mod.WithID() {
			got = append(got, id)
		}
	})
	return got
}

// TestViewMutReadsMarkNothing: Read, Values and Ref.Get record no
// modification, where Get, All and Ref.Set and Ref.Ptr do.
func TestViewMutReadsMarkNothing(t *testing.T) {
	cases := []struct {
		name string
		use  func(v ecs.ViewMut[vrU], ids []ecs.EntityID)
		want []int // positions modified
	}{
		{"Read", func(v ecs.ViewMut[vrU], ids []ecs.EntityID) {
			for _, id := range ids {
				if u, ok := v.Read(id); !ok || u.N != int(id.Index()) {
					t.Errorf("Read(%v) = %v, %v", id, u, ok)
				}
			}
		}, nil},
		{"Values", func(v ecs.ViewMut[vrU], ids []ecs.EntityID) {
			var seen []ecs.EntityID
			for id, u := range v.Values() {
				seen = append(seen, id)
				u.N = 100 // a copy: the storage keeps its value
			}
			if !slices.Equal(seen, ids) {
				t.Errorf("Values visited %v, want %v", seen, ids)
			}
		}, nil},
		{"Values-break", func(v ecs.ViewMut[vrU], _ []ecs.EntityID) {
			for range v.Values() {
				break
			}
		}, nil},
		{"Refs-Get", func(v ecs.ViewMut[vrU], _ []ecs.EntityID) {
			for _, r := range v.Refs() {
				_ = r.Get()
			}
		}, nil},
		{"Refs-Set-odd", func(v ecs.ViewMut[vrU], _ []ecs.EntityID) {
			for _, r := range v.Refs() {
				if u := r.Get(); u.N%2 == 1 {
					r.Set(vrU{u.N * 10})
				}
			}
		}, []int{1, 3}},
		{"Refs-Ptr-first", func(v ecs.ViewMut[vrU], _ []ecs.EntityID) {
			for _, r := range v.Refs() {
				r.Ptr().N += 5
				break
			}
		}, []int{0}},
		{"Get", func(v ecs.ViewMut[vrU], ids []ecs.EntityID) { v.Get(ids[2]) }, []int{2}},
		{"All", func(v ecs.ViewMut[vrU], _ []ecs.EntityID) {
			for range v.All() {
			}
		}, []int{0, 1, 2, 3}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w, ids := vrWorld(t, 4)
			var before []vrU
			withView(t, w, func(v ecs.View[vrU]) { before = slices.Clone(v.Slice()) })
			must(t, w.Run(func(v ecs.ViewMut[vrU]) { tc.use(v, ids) }))
			var want []ecs.EntityID
			for _, i := range tc.want {
				want = append(want, ids[i])
			}
			if got := vrModified(t, w); !slices.Equal(got, want) {
				t.Errorf("modified %v, want %v", got, want)
			}
			if tc.want == nil {
				withView(t, w, func(v ecs.View[vrU]) {
					if !slices.Equal(v.Slice(), before) {
						t.Errorf("values changed: %v, were %v", v.Slice(), before)
					}
				})
			}
		})
	}
}

// TestViewMutReadAbsent: Read of an id with no component, or dead, or
// NullID returns the zero value and false.
func TestViewMutReadAbsent(t *testing.T) {
	w, ids := vrWorld(t, 2)
	bare, err := w.AddEntity()
	must(t, err)
	must(t, w.DeleteEntity(ids[1]))
	withViewMut(t, w, func(v ecs.ViewMut[vrU]) {
		for _, id := range []ecs.EntityID{bare, ids[1], ecs.NullID} {
			if u, ok := v.Read(id); ok || u != (vrU{}) {
				t.Errorf("Read(%v) = %v, %v; want zero, false", id, u, ok)
			}
		}
	})
}

// TestParRefsShipyardScenario is Shipyard's own test of marking only what
// is written: over four components, a parallel pass that increments the
// even ones reports exactly those two as modified.
func TestParRefsShipyardScenario(t *testing.T) {
	w, ids := vrWorld(t, 4)
	must(t, w.Run(func(v ecs.ViewMut[vrU]) {
		v.ParRefs(func(_ ecs.EntityID, r ecs.Ref[vrU]) {
			if u := r.Get(); u.N%2 == 0 {
				r.Set(vrU{u.N + 1})
			}
		})
	}))
	if got, want := vrModified(t, w), []ecs.EntityID{ids[0], ids[2]}; !slices.Equal(got, want) {
		t.Errorf("modified %v, want %v", got, want)
	}
	withView(t, w, func(v ecs.View[vrU]) {
		if got, want := v.Slice(), []vrU{{1}, {1}, {3}, {3}}; !slices.Equal(got, want) {
			t.Errorf("values %v, want %v", got, want)
		}
	})
}

// TestParRefsSplitsBlocks runs ParRefs over many components with a small
// grain, so that workers share the storage (run it with -race): exactly
// the components written are modified, whatever the chunks.
func TestParRefsSplitsBlocks(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 9, 1000, 4099} {
		w, ids := vrWorld(t, n)
		newTestPool(t, w)
		must(t, w.Run(func(v ecs.ViewMut[vrU]) {
			v.ParRefsMin(1, func(id ecs.EntityID, r ecs.Ref[vrU]) {
				if u := r.Get(); u.N%3 == 0 {
					r.Ptr().N = -u.N
				}
			})
		}))
		var want []ecs.EntityID
		for i := 0; i < n; i += 3 {
			want = append(want, ids[i])
		}
		if got := vrModified(t, w); !slices.Equal(got, want) {
			t.Errorf("n=%d: %d modified, want %d", n, len(got), len(want))
		}
	}
}

// TestParRefsInWorkload: a system that writes some components through
// ParRefs is seen by a later system of the workload as having modified
// exactly those.
func TestParRefsInWorkload(t *testing.T) {
	w, ids := vrWorld(t, 16)
	var seen []ecs.EntityID
	writeSome := func(v ecs.ViewMut[vrU]) {
		v.ParRefsMin(8, func(_ ecs.EntityID, r ecs.Ref[vrU]) {
			if r.Get().N >= 14 {
				r.Set(vrU{0})
			}
		})
	}
	watch := func(v ecs.View[vrU]) error {
		seen = seen[:0]
		mod, err := v.Modified()
		if err != nil {
			return err
		}
		for id := range mod.WithID() {
			seen = append(seen, id)
		}
		return nil
	}
	must(t, w.AddWorkload("refs", writeSome, watch))
	must(t, w.RunWorkload("refs"))
	if want := ids[14:]; !slices.Equal(seen, want) {
		t.Errorf("first run saw %v, want %v", seen, want)
	}
	must(t, w.RunWorkload("refs")) // the values are 0 now: nothing written
	if len(seen) != 0 {
		t.Errorf("second run saw %v, want nothing", seen)
	}
}

// TestRefsUntracked: Refs and ParRefs work on a type that tracks nothing.
func TestRefsUntracked(t *testing.T) {
	w := ecs.NewWorld()
	_, err := ecs.BulkAddEntity1(w, []vrPlain{{1}, {2}, {3}})
	must(t, err)
	must(t, w.Run(func(v ecs.ViewMut[vrPlain]) {
		for _, r := range v.Refs() {
			r.Set(vrPlain{r.Get().N * 2})
		}
		v.ParRefs(func(_ ecs.EntityID, r ecs.Ref[vrPlain]) { r.Ptr().N++ })
	}))
	withView(t, w, func(v ecs.View[vrPlain]) {
		if got, want := v.Slice(), []vrPlain{{3}, {5}, {7}}; !slices.Equal(got, want) {
			t.Errorf("values %v, want %v", got, want)
		}
	})
}

// TestParRefsPanic: a panic in ParRefs' function reaches the caller of
// Run, leaves no borrow held, and the components written before it are
// marked, no other.
func TestParRefsPanic(t *testing.T) {
	w, ids := vrWorld(t, 4)
	r := mustPanic(t, func() {
		_ = w.Run(func(v ecs.ViewMut[vrU]) {
			v.ParRefs(func(id ecs.EntityID, r ecs.Ref[vrU]) {
				if id == ids[2] {
					panic("stop")
				}
				r.Set(vrU{7})
			})
		})
	})
	if r != "stop" {
		t.Errorf("recovered %v, want stop", r)
	}
	if got, want := vrModified(t, w), ids[:2]; !slices.Equal(got, want) {
		t.Errorf("modified %v, want %v", got, want)
	}
	must(t, w.Run(func(ecs.ViewMut[vrU]) {})) // the borrow was released
	panicsWith(t, func() {
		must(t, w.Run(func(v ecs.ViewMut[vrU]) { v.ParRefs(nil) }))
	}, "ParRefs")
}

// TestRefsAfterRelease: the sequences and a kept Ref's writes panic with
// ErrReleased once the view is released, and change nothing.
func TestRefsAfterRelease(t *testing.T) {
	w, ids := vrWorld(t, 2)
	var vm ecs.ViewMut[vrU]
	release, err := w.Borrow(&vm)
	must(t, err)
	var kept ecs.Ref[vrU]
	for _, r := range vm.Refs() {
		kept = r
		break
	}
	release()
	mustPanicReleased(t, map[string]func(){
		"Read":    func() { vm.Read(ids[0]) },
		"Values":  rangeOver(vm.Values()),
		"Refs":    rangeOver(vm.Refs()),
		"ParRefs": func() { vm.ParRefs(func(ecs.EntityID, ecs.Ref[vrU]) {}) },
		"Ref.Set": func() { kept.Set(vrU{9}) },
		"Ref.Ptr": func() { kept.Ptr() },
	})
	if got := vrModified(t, w); len(got) != 0 {
		t.Errorf("modified %v, want nothing", got)
	}
	withView(t, w, func(v ecs.View[vrU]) {
		if got, want := v.Slice(), []vrU{{0}, {1}}; !slices.Equal(got, want) {
			t.Errorf("values %v, want %v", got, want)
		}
	})
}

// TestRefsKeptInBorrow: Refs kept past their loop write, and mark, while
// the view is borrowed, even after a clear moved the view's timestamp;
// a sort or Retain of the storage makes them panic instead, writing
// nothing, since they would name other components.
func TestRefsKeptInBorrow(t *testing.T) {
	cases := []struct {
		name    string
		between func(vm ecs.ViewMut[vrU])
		want    []int // indices of ids modified; nil: the write panics
	}{
		{"nothing", func(ecs.ViewMut[vrU]) {}, []int{3, 17}},
		{"ClearAllModified", func(vm ecs.ViewMut[vrU]) { vm.ClearAllModified() }, []int{3, 17}},
		{"second Refs", func(vm ecs.ViewMut[vrU]) {
			for range vm.Refs() {
			}
		}, []int{3, 17}},
		{"SortFunc", func(vm ecs.ViewMut[vrU]) {
			must(t, vm.SortFunc(func(a, b *vrU) int { return b.N - a.N }))
		}, nil},
		{"Retain", func(vm ecs.ViewMut[vrU]) {
			_, err := vm.Retain(func(_ ecs.EntityID, c *vrU) bool { return c.N != 20 })
			must(t, err)
		}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w, ids := vrWorld(t, 24)
			withViewMut(t, w, func(vm ecs.ViewMut[vrU]) {
				var kept []ecs.Ref[vrU]
				for _, r := range vm.Refs() {
					if n := r.Get().N; n == 3 || n == 17 {
						kept = append(kept, r)
					}
				}
				tc.between(vm)
				for _, r := range kept {
					r := r
					if tc.want == nil {
						if p := recovered(func() { r.Set(vrU{-1}) }); !errors.Is(asError(p), ecs.ErrReleased) {
							t.Errorf("Set after %s: recovered %v, want a panic wrapping ErrReleased", tc.name, p)
						}
						continue
					}
					v := r.Get()
					v.N += 100
					r.Set(v)
				}
			})
			got := vrModified(t, w)
			var want []ecs.EntityID
			for _, k := range tc.want {
				want = append(want, ids[k])
			}
			if !slices.Equal(got, want) {
				t.Errorf("modified %v, want %v", got, want)
			}
		})
	}
}

// TestRefsKeepOlderModifications: the summaries Refs readies still report
// what was modified before it, in blocks its Refs do not write, to a view
// whose window reaches back before the Refs.
func TestRefsKeepOlderModifications(t *testing.T) {
	w, ids := vrWorld(t, 40)
	withViewMut(t, w, func(vm ecs.ViewMut[vrU]) {
		vm.MustGet(ids[5]).N++  // block 0
		vm.MustGet(ids[30]).N++ // block 3
	})
	withViewMut(t, w, func(vm ecs.ViewMut[vrU]) {
		for _, r := range vm.Refs() {
			if r.Get().N == 12 { // block 1
				r.Set(vrU{12})
			}
		}
	})
	want := []ecs.EntityID{ids[5], ids[12], ids[30]}
	if got := vrModified(t, w); !slices.Equal(got, want) {
		t.Errorf("modified %v, want %v", got, want)
	}
}
