package ecs_test

import (
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
