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
	// 16 bytes of data + 8 of id per component, plus 8 per sparse entry.
	perEntity := float64(r.Storages[0].UsedBytes) / n
	if perEntity < 32 || perEntity > 33 {
		t.Fatalf("%.2f bytes per entity per component, want 32 (+page rounding)", perEntity)
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
// million entities: dense id + data + sparse entry.
func BenchmarkMemoryPerEntity(b *testing.B) {
	const n = 1_000_000
	for b.Loop() {
		w := ecs.NewWorld()
		_, err := ecs.BulkAddEntity2(w, make([]wPos, n), make([]wVel, n))
		noErr(b, err)
		r, err := w.MemoryUsage()
		noErr(b, err)
		b.ReportMetric(float64(r.Storages[0].UsedBytes)/n, "used-B/entity/component")
		b.ReportMetric(float64(r.Storages[0].AllocatedBytes)/n, "alloc-B/entity/component")
	}
}
