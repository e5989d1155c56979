package ecs

// The tracking clock from inside the package: the wrap-safe comparison,
// the clock skipping 0, and workload windows that stay exact while the
// clock wraps around (the clock cannot be set from outside the package).

import (
	"math"
	"slices"
	"testing"
)

// SetTrackingClock sets w's tracking clock to ts: the clock's next
// timestamp is ts+1. It is for the tests of package ecs_test, which cannot
// reach the clock otherwise (the export_test idiom: this file is compiled
// only into the package's tests).
func SetTrackingClock(w *World, ts uint64) { w.tick.Store(ts) }

func TestTrackingNewer(t *testing.T) {
	const half = uint64(1) << 63
	before := func(ts, d uint64) uint64 { return ts - d } // wraps, unlike constants
	cases := []struct {
		name      string
		ts, since uint64
		want      bool
	}{
		{"one tick later", 1, 0, true},
		{"same tick", 7, 7, false},
		{"one tick earlier", 6, 7, false},
		{"zero is one tick after the largest", 0, math.MaxUint64, true},
		{"a few ticks across the wrap", 3, math.MaxUint64 - 2, true},
		{"the largest is before zero", math.MaxUint64, 0, false},
		{"before the wrap, seen from after it", math.MaxUint64 - 2, 3, false},
		{"across the sign bit", half, half - 1, true},
		{"across the sign bit, backwards", half - 1, half, false},
		{"the farthest later", half - 1, 0, true},
		{"half way round counts as earlier", half, 0, false},
		{"never modified is in the past", before(10, ancient), 10, false},
		{"never modified is in the past across the wrap", before(2, ancient), math.MaxUint64 - 3, false},
		{"a window starting at never sees the insertion", 10, before(10, ancient), true},
		{"a first run's window sees what precedes it", math.MaxUint64 - 1, before(5, ancient), true},
	}
	for _, c := range cases {
		if got := newer(c.ts, c.since); got != c.want {
			t.Errorf("%s: newer(%d, %d) = %v, want %v", c.name, c.ts, c.since, got, c.want)
		}
	}
	// For any two timestamps less than 2^63 apart, exactly one is newer.
	for _, base := range []uint64{0, 1, math.MaxUint64 - 3, half - 2, ancient} {
		for d := uint64(1); d < 8; d++ {
			a, b := base, base+d
			if !newer(b, a) || newer(a, b) {
				t.Errorf("base %d, +%d: newer(b, a) = %v, newer(a, b) = %v", base, d, newer(b, a), newer(a, b))
			}
		}
	}
}

// TestTrackingClockSkipsZero: 0 means "no timestamp" (a ViewMut not held,
// no AllStoragesViewMut), so the clock never hands it out.
func TestTrackingClockSkipsZero(t *testing.T) {
	w := NewWorld()
	SetTrackingClock(w, math.MaxUint64-1)
	got := []uint64{w.nextTick(), w.nextTick(), w.nextTick()}
	if want := []uint64{math.MaxUint64, 1, 2}; !slices.Equal(got, want) {
		t.Fatalf("ticks across the wrap: got %v, want %v", got, want)
	}
	if w.TrackingTimestamp() != 2 {
		t.Fatalf("TrackingTimestamp = %d, want 2", w.TrackingTimestamp())
	}
}

type wrapLife struct{ HP int }

func (wrapLife) Tracking() Tracking { return TrackAll }

// wrapSeen is what a reader saw in one run.
type wrapSeen struct {
	ins, mod, rem []EntityID
	del           []wrapDel
}

type wrapDel struct {
	id EntityID
	hp int
}

// TestTrackingWorkloadAcrossWrap runs a workload while the clock wraps:
// a writer every frame, a reader every frame and a reader every third
// frame. Each reader must see exactly the changes since its own previous
// run, whichever side of the wrap they were made on.
func TestTrackingWorkloadAcrossWrap(t *testing.T) {
	for _, start := range []uint64{math.MaxUint64 - 5, math.MaxUint64 - 1, math.MaxUint64} {
		w := NewWorld()
		SetTrackingClock(w, start)
		keep, err := AddEntity1(w, wrapLife{HP: -1})
		if err != nil {
			t.Fatal(err)
		}
		frame := 0
		var born []EntityID
		// frameOps[f]: what the writer did at frame f.
		type ops struct {
			ins, mod, rem EntityID
			del           wrapDel
		}
		var frameOps []ops
		writer := func(ents EntitiesViewMut, vm ViewMut[wrapLife]) {
			var o ops
			o.ins = vm.AddEntity(ents, wrapLife{HP: frame})
			born = append(born, o.ins)
			if frame >= 1 {
				vm.MustGet(born[frame-1]).HP += 100
				o.mod = born[frame-1]
			}
			if frame >= 2 { // born[frame-2]: deleted on even frames, removed on odd ones
				id := born[frame-2]
				if frame%2 == 0 {
					o.del = wrapDel{id, vm.MustGet(id).HP}
					vm.Delete(id)
				} else {
					vm.Remove(id)
					o.rem = id
				}
			}
			frameOps = append(frameOps, o)
		}
		reader := func(out *[]wrapSeen) func(View[wrapLife]) error {
			return func(v View[wrapLife]) error {
				var s wrapSeen
				ins, err := v.Inserted()
				if err != nil {
					return err
				}
				for id := range ins.WithID() {
					s.ins = append(s.ins, id)
				}
				mod, err := v.Modified()
				if err != nil {
					return err
				}
				for id := range mod.WithID() {
					s.mod = append(s.mod, id)
				}
				del, err := v.Deleted()
				if err != nil {
					return err
				}
				for id, l := range del {
					s.del = append(s.del, wrapDel{id, l.HP})
				}
				rem, err := v.Removed()
				if err != nil {
					return err
				}
				for id := range rem {
					s.rem = append(s.rem, id)
				}
				*out = append(*out, s)
				return nil
			}
		}
		var seenA, seenB []wrapSeen
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(w.AddWorkload("frame",
			System(writer).Named("writer"),
			System(reader(&seenA)).Named("every frame"),
			System(reader(&seenB)).Named("every third frame").RunIf(func() bool { return frame%3 == 0 }),
		))
		const frames = 13
		for ; frame < frames; frame++ {
			must(w.RunWorkload("frame"))
		}
		if now := w.TrackingTimestamp(); now > 1000 {
			t.Fatalf("start %d: the clock did not wrap: %d", start, now)
		}
		// expect returns what a reader running at frame to, whose previous
		// run was at frame from (-1: none), must see.
		expect := func(from, to int) wrapSeen {
			var s wrapSeen
			present := func(k int) bool { return k <= to && k+2 > to } // born[k] is gone at frame k+2
			if from < 0 {
				s.ins = append(s.ins, keep)
			}
			for f := from + 1; f <= to; f++ {
				o := frameOps[f]
				if present(f) {
					s.ins = append(s.ins, o.ins)
				}
				if f >= 1 && present(f-1) {
					s.mod = append(s.mod, o.mod)
				}
				if f >= 2 && f%2 == 0 {
					s.del = append(s.del, o.del)
				}
				if f >= 2 && f%2 == 1 {
					s.rem = append(s.rem, o.rem)
				}
			}
			return s
		}
		check := func(who string, frame int, got, want wrapSeen) {
			t.Helper()
			slices.Sort(got.ins)
			slices.Sort(got.mod)
			slices.Sort(want.ins)
			slices.Sort(want.mod)
			if !slices.Equal(got.ins, want.ins) || !slices.Equal(got.mod, want.mod) ||
				!slices.Equal(got.del, want.del) || !slices.Equal(got.rem, want.rem) {
				t.Errorf("start %d, %s at frame %d:\n got  %+v\n want %+v", start, who, frame, got, want)
			}
		}
		if len(seenA) != frames || len(seenB) != (frames+2)/3 {
			t.Fatalf("start %d: readers ran %d and %d times", start, len(seenA), len(seenB))
		}
		for f := range frames {
			check("every-frame reader", f, seenA[f], expect(f-1, f))
		}
		for i := range seenB {
			f := 3 * i
			check("every-third-frame reader", f, seenB[i], expect(max(f-3, -1), f))
		}
	}
}

// TestTrackingOutsideAcrossWrap: outside workloads, a clear made before
// the wrap and changes made after it; and *OlderThan with a timestamp from
// before the wrap.
func TestTrackingOutsideAcrossWrap(t *testing.T) {
	w := NewWorld()
	SetTrackingClock(w, math.MaxUint64-40)
	ids, err := BulkAddEntity1(w, []wrapLife{{1}, {2}, {3}, {4}})
	if err != nil {
		t.Fatal(err)
	}
	var vm ViewMut[wrapLife]
	release, err := w.Borrow(&vm)
	if err != nil {
		t.Fatal(err)
	}
	vm.MustGet(ids[0]).HP = 10
	vm.ClearAllInsertedAndModified()
	release()
	beforeWrap := w.TrackingTimestamp()
	if beforeWrap < math.MaxUint64-40 {
		t.Fatalf("the clock wrapped too early: %d", beforeWrap)
	}
	// Cross the wrap with World-level changes (each takes a timestamp).
	for n := 0; w.TrackingTimestamp() >= beforeWrap; n++ {
		if n > 100 {
			t.Fatalf("the clock does not wrap: %d", w.TrackingTimestamp())
		}
		if err := AddComponent1(w, ids[1], wrapLife{20}); err != nil { // a replacement: modified
			t.Fatal(err)
		}
	}
	if _, err := DeleteComponent[wrapLife](w, ids[2]); err != nil {
		t.Fatal(err)
	}
	id5, err := AddEntity1(w, wrapLife{5})
	if err != nil {
		t.Fatal(err)
	}
	if now := w.TrackingTimestamp(); now > 100 {
		t.Fatalf("the clock did not wrap: %d", now)
	}
	var v View[wrapLife]
	release, err = w.Borrow(&v)
	if err != nil {
		t.Fatal(err)
	}
	ins, err := v.Inserted()
	if err != nil {
		t.Fatal(err)
	}
	mod, err := v.Modified()
	if err != nil {
		t.Fatal(err)
	}
	var gotIns, gotMod []EntityID
	for id := range ins.WithID() {
		gotIns = append(gotIns, id)
	}
	for id := range mod.WithID() {
		gotMod = append(gotMod, id)
	}
	release()
	if !slices.Equal(gotIns, []EntityID{id5}) || !slices.Equal(gotMod, []EntityID{ids[1]}) {
		t.Errorf("after the wrap: inserted %v, modified %v; want [%v], [%v]", gotIns, gotMod, id5, ids[1])
	}
	// A deletion from before the wrap and one after: OlderThan a timestamp
	// taken in between drops only the first.
	if err := DeleteEntity(w, ids[3]); err != nil {
		t.Fatal(err)
	}
	release, err = w.Borrow(&vm)
	if err != nil {
		t.Fatal(err)
	}
	vm.ClearAllDeletedOlderThan(beforeWrap) // both are after it: both stay
	var dels []EntityID
	del, err := vm.Deleted()
	if err != nil {
		t.Fatal(err)
	}
	for id := range del {
		dels = append(dels, id)
	}
	if !slices.Equal(dels, []EntityID{ids[2], ids[3]}) {
		t.Errorf("deleted after OlderThan(before the wrap) = %v, want [%v %v]", dels, ids[2], ids[3])
	}
	release()
	stamp := w.TrackingTimestamp()
	if err := DeleteEntity(w, id5); err != nil {
		t.Fatal(err)
	}
	release, err = w.Borrow(&vm)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	// Every change made before stamp was read is at stamp or earlier, and
	// every later one after it: OlderThan(stamp) drops exactly the former.
	vm.ClearAllDeletedOlderThan(stamp)
	dels = dels[:0]
	del, err = vm.Deleted()
	if err != nil {
		t.Fatal(err)
	}
	for id := range del {
		dels = append(dels, id)
	}
	if !slices.Equal(dels, []EntityID{id5}) {
		t.Errorf("deleted after OlderThan(after the wrap) = %v, want [%v]", dels, id5)
	}
}
