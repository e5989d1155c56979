package ecs_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

func TestMemoryUsageAndShrink(t *testing.T) {
	w := ecs.NewWorld()
	const n = 100_000
	ids, err := ecs.BulkAddEntity2(w, make([]wPos, n), make([]wVel, n))
	noErr(t, err)
	r, err := w.MemoryUsage()
	noErr(t, err)
	if len(r.Storages) != 2 || r.Storages[0].Type != "ecs_test.wPos" || r.Storages[0].Components != n {
		t.Fatalf("report:\n%s", r)
	}
	// 16 bytes of data + 8 of id per component, and no sparse entries:
	// entities created in order are the storages' identity prefix.
	if perEntity := float64(r.Storages[0].UsedBytes) / n; perEntity != 24 {
		t.Fatalf("%.2f bytes per entity per component, want 24", perEntity)
	}
	if r.UsedBytes > r.AllocatedBytes {
		t.Fatalf("used %d > allocated %d", r.UsedBytes, r.AllocatedBytes)
	}
	// Delete all but the last entity: pages and arrays can be released.
	for _, id := range ids[:n-1] {
		noErr(t, w.DeleteEntity(id))
	}
	before, err := w.MemoryUsage()
	noErr(t, err)
	noErr(t, w.ShrinkToFit())
	after, err := w.MemoryUsage()
	noErr(t, err)
	if after.Storages[0].Pages != 1 || after.Storages[0].Components != 1 {
		t.Fatalf("after shrink:\n%s", after)
	}
	// Component storages give back nearly everything; the entities storage
	// keeps one generation per slot ever used (stale ids must stay stale).
	for i := range after.Storages {
		if b, a := before.Storages[i].AllocatedBytes, after.Storages[i].AllocatedBytes; a > 2*(1024*8+64) || a >= b/100 {
			t.Fatalf("%s: shrink released too little: %d -> %d", after.Storages[i].Type, b, a)
		}
	}
	// The world still works, and its content is unchanged.
	p, err := ecs.Get[wPos](w, ids[n-1])
	noErr(t, err)
	if p != (wPos{}) {
		t.Fatal(p)
	}
	_, err = ecs.AddEntity2(w, wPos{X: 1}, wVel{})
	noErr(t, err)
	if !strings.Contains(after.String(), "ecs_test.wVel") {
		t.Fatal(after.String())
	}
}

// BenchmarkMemoryPerEntity reports bytes per entity per component at one
// million entities: dense id + data + sparse entry. The world's first
// entity has no component, so that the others are not in the storages'
// identity prefixes, which need no sparse entries.
func BenchmarkMemoryPerEntity(b *testing.B) {
	const n = 1_000_000
	for b.Loop() {
		w := ecs.NewWorld()
		_, err := w.AddEntity()
		noErr(b, err)
		_, err = ecs.BulkAddEntity2(w, make([]wPos, n), make([]wVel, n))
		noErr(b, err)
		r, err := w.MemoryUsage()
		noErr(b, err)
		b.ReportMetric(float64(r.Storages[0].UsedBytes)/n, "used-B/entity/component")
		b.ReportMetric(float64(r.Storages[0].AllocatedBytes)/n, "alloc-B/entity/component")
	}
}

// mmTracked tracks insertions: 8 bytes of timestamp per component.
type mmTracked struct{ X, Y float64 }

func (mmTracked) Tracking() ecs.Tracking { return ecs.TrackInsertion }

// bulkOf returns a fill creating n entities with a zero T each, in bulk.
func bulkOf[T any](n int) func(w *ecs.World) error {
	return func(w *ecs.World) error {
		_, err := ecs.BulkAddEntity1(w, make([]T, n))
		return err
	}
}

// TestMemoryUsageParts checks the parts of a storage's used bytes, for
// storages filled one entity at a time and in bulk, with and without
// tracking, and with a tag type that takes no room. The world's first
// entity has no component, so that the others are not in the storages'
// identity prefixes and have sparse entries; but in the last case, whose
// entities are created in order in a new world, and need no sparse pages.
func TestMemoryUsageParts(t *testing.T) {
	type tag struct{}
	const n = 5000 // five pages
	for _, c := range []struct {
		name               string
		fill               func(w *ecs.World) error
		mem                func(*testing.T, *ecs.World) ecs.StorageMemory
		data, track, pages int
	}{
		{"one at a time", func(w *ecs.World) error {
			for range n {
				if _, err := ecs.AddEntity1(w, wPos{}); err != nil {
					return err
				}
			}
			return nil
		}, storageMemory[wPos], 16, 0, 5},
		{"bulk", bulkOf[wPos](n), storageMemory[wPos], 16, 0, 5},
		{"tracked", bulkOf[mmTracked](n), storageMemory[mmTracked], 16, 8, 5},
		{"tag", bulkOf[tag](n), storageMemory[tag], 0, 0, 5},
		{"in the identity prefix", bulkOf[wPos](n), storageMemory[wPos], 16, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := ecs.NewWorld()
			if c.pages > 0 {
				_, err := w.AddEntity()
				must(t, err)
			}
			must(t, c.fill(w))
			m := c.mem(t, w)
			equal(t, "components", m.Components, n)
			equal(t, "pages", m.Pages, c.pages)
			equal(t, "data bytes", m.DataBytes, n*c.data)
			equal(t, "id bytes", m.IDBytes, n*8)
			equal(t, "page bytes", m.PageBytes, c.pages*8192)
			equal(t, "tracking bytes", m.TrackingBytes, n*c.track)
			equal(t, "used bytes", m.UsedBytes, m.DataBytes+m.IDBytes+m.PageBytes+m.TrackingBytes)
			// Allocated: at least what is used, and at most the arrays'
			// growth (append's doubling) plus the pages (at most five, of
			// 8 KiB each) and the page table.
			isTrue(t, m.AllocatedBytes >= m.UsedBytes, "allocated %d < used %d", m.AllocatedBytes, m.UsedBytes)
			limit := 2*(m.DataBytes+m.IDBytes+m.TrackingBytes) + 5*8192 + 4096
			isTrue(t, m.AllocatedBytes <= limit, "allocated %d > %d", m.AllocatedBytes, limit)
		})
	}
}

// TestShrinkToFitKeepsTracking: ShrinkToFit releases the spare capacity of
// a tracked storage's timestamps, all of it when the storage is empty,
// and tracking goes on: for every combination of kinds, on an empty and a
// non-empty storage, each change made after it is reported by every
// query (and the queries for kinds not tracked still refuse).
func TestShrinkToFitKeepsTracking(t *testing.T) {
	for kinds := ecs.Tracking(1); kinds <= ecs.TrackAll; kinds++ {
		for _, empty := range []bool{true, false} {
			t.Run(fmt.Sprintf("%v, empty %v", kinds, empty), func(t *testing.T) {
				w := ecs.NewWorld()
				must(t, ecs.TrackComponent[trPlain](w, kinds))
				// 40 components, then all but 4 (or all) deleted: spare
				// capacity for ShrinkToFit to release.
				ids, err := ecs.BulkAddEntity1(w, make([]trPlain, 40))
				must(t, err)
				kept := ids[:4]
				if empty {
					kept = nil
				}
				for _, id := range ids[len(kept):] {
					must(t, w.DeleteEntity(id))
				}
				withViewMut(t, w, func(vm ecs.ViewMut[trPlain]) {
					vm.ClearAllInsertedAndModified()
					vm.ClearAllRemovedAndDeleted()
				})
				must(t, w.ShrinkToFit())
				equal(t, "TrackingOf after ShrinkToFit", ecs.TrackingOf[trPlain](w), kinds)

				m := shrinkModel{kinds: kinds, ins: map[ecs.EntityID]bool{}, mod: map[ecs.EntityID]bool{}}
				all := slices.Clone(ids)
				m.check(t, w, "after ShrinkToFit", all)
				var added []ecs.EntityID
				for i := range 4 {
					id, err := ecs.AddEntity1(w, trPlain{100 + i})
					must(t, err)
					added = append(added, id)
					m.ins[id] = true
				}
				all = append(all, added...)
				m.check(t, w, "after adding", all)
				// One new component and one of the old modified.
				modify := slices.Concat(added[1:2], kept[:min(len(kept), 1)])
				withViewMut(t, w, func(vm ecs.ViewMut[trPlain]) {
					for _, id := range modify {
						vm.MustGet(id).V++
						m.mod[id] = true
					}
				})
				m.check(t, w, "after modifying", all)
				// One new and one old deleted, one new and one old removed.
				for _, id := range slices.Concat(added[2:3], kept[min(len(kept), 1):min(len(kept), 2)]) {
					must(t, w.DeleteEntity(id))
					m.gone(id)
					m.del = append(m.del, id)
				}
				m.check(t, w, "after deleting", all)
				for _, id := range slices.Concat(added[3:4], kept[min(len(kept), 2):min(len(kept), 3)]) {
					_, _, err := ecs.Remove[trPlain](w, id)
					must(t, err)
					m.gone(id)
					m.rem = append(m.rem, id)
				}
				m.check(t, w, "after removing", all)
				// And again, with the storage at its new capacity.
				must(t, w.ShrinkToFit())
				m.check(t, w, "after a second ShrinkToFit", all)
			})
		}
	}
}

// shrinkModel is what a storage of trPlain tracking kinds must report
// outside workloads.
type shrinkModel struct {
	kinds    ecs.Tracking
	ins, mod map[ecs.EntityID]bool
	del, rem []ecs.EntityID // in order
}

// gone records that id lost its component.
func (m *shrinkModel) gone(id ecs.EntityID) {
	delete(m.ins, id)
	delete(m.mod, id)
}

// check asks every tracking query of a View[trPlain] about the entities
// in all, failing the test (without panicking) where the answer differs
// from the model's.
func (m *shrinkModel) check(t *testing.T, w *ecs.World, when string, all []ecs.EntityID) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%s: a tracking query panicked: %v", when, r)
		}
	}()
	withView(t, w, func(v ecs.View[trPlain]) {
		changed := func(name string, need ecs.Tracking, c ecs.Changed[trPlain], err error, want func(ecs.EntityID) bool) {
			t.Helper()
			if m.kinds&need != need {
				isTrue(t, errors.Is(err, ecs.ErrNotTracked), "%s: %s of %v: error %v, want ErrNotTracked", when, name, m.kinds, err)
				return
			}
			must(t, err)
			var wantIDs []ecs.EntityID
			for _, id := range all {
				if want(id) {
					wantIDs = append(wantIDs, id)
				}
				equal(t, fmt.Sprintf("%s: %s.Contains(%v)", when, name, id), c.Contains(id), want(id))
			}
			sameSet(t, when+": "+name+" visits", changedIDs(t, c, nil), wantIDs)
			equal(t, when+": "+name+".Count", c.Count(), len(wantIDs))
		}
		c, err := v.Inserted()
		changed("Inserted", ecs.TrackInsertion, c, err, func(id ecs.EntityID) bool { return m.ins[id] })
		c, err = v.Modified()
		changed("Modified", ecs.TrackModification, c, err, func(id ecs.EntityID) bool { return m.mod[id] })
		c, err = v.InsertedOrModified()
		changed("InsertedOrModified", ecs.TrackInsertion|ecs.TrackModification, c, err, func(id ecs.EntityID) bool { return m.ins[id] || m.mod[id] })

		logged := func(name string, need ecs.Tracking, seq func(func(ecs.EntityID) bool), err error, want []ecs.EntityID) {
			t.Helper()
			if m.kinds&need != need {
				isTrue(t, errors.Is(err, ecs.ErrNotTracked), "%s: %s of %v: error %v, want ErrNotTracked", when, name, m.kinds, err)
				return
			}
			must(t, err)
			var got []ecs.EntityID
			for id := range seq {
				got = append(got, id)
			}
			sameSeq(t, when+": "+name, got, want)
		}
		d, err := v.Deleted()
		logged("Deleted", ecs.TrackDeletion, func(yield func(ecs.EntityID) bool) {
			for id := range d {
				if !yield(id) {
					return
				}
			}
		}, err, m.del)
		r, err := v.Removed()
		logged("Removed", ecs.TrackRemoval, r, err, m.rem)
		rd, err := v.RemovedOrDeleted()
		logged("RemovedOrDeleted", ecs.TrackRemoval|ecs.TrackDeletion, rd, err, slices.Concat(m.rem, m.del))
	})
}
