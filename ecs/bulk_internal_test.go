package ecs

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"
)

type (
	bpA     struct{ X float64 }
	bpB     struct{ X float64 }
	bpTrack struct{ X float64 }
)

func (bpTrack) Tracking() Tracking { return TrackModification }

// bulkParallel lets a bulk operation work on storages at once only when
// they are distinct and need no bookkeeping, with ids enough.
func TestBulkParallelWhen(t *testing.T) {
	w := NewWorld()
	a, b, tr := storageFor[bpA](w), storageFor[bpB](w), storageFor[bpTrack](w)
	gw := NewWorld()
	if err := AddGroup2[bpA, bpB](gw); err != nil {
		t.Fatal(err)
	}
	ga, gb := storageFor[bpA](gw), storageFor[bpB](gw)
	n := bulkParallelMin
	for _, c := range []struct {
		name string
		n    int
		sts  []storage
		want bool
	}{
		{"two distinct storages", n, []storage{a, b}, true},
		{"too few ids", n - 1, []storage{a, b}, false},
		{"one storage", n, []storage{a}, false},
		{"a storage twice", n, []storage{a, b, a}, false},
		{"a tracked storage", n, []storage{a, tr}, false},
		{"grouped storages", n, []storage{ga, gb}, false},
	} {
		if got := bulkParallel(c.n, c.sts...); got != c.want {
			t.Errorf("%s: bulkParallel = %v, want %v", c.name, got, c.want)
		}
	}
}

// BenchmarkNewEntries measures the sparse-entry pass of a bulk insertion
// into one storage, for ids counting up, counting down and shuffled: the
// run loop of newRun against the id-at-a-time loop. ns/id is per id.
func BenchmarkNewEntries(b *testing.B) {
	for _, order := range []string{"up", "down", "shuffled"} {
		for _, n := range []int{1 << 14, 1 << 20} {
			b.Run(order+"/n="+strconv.Itoa(n), func(b *testing.B) {
				ids := make([]EntityID, n)
				for i := range ids {
					ids[i] = newEntityID(uint32(i+1), 1) // from index 1: not an identity prefix, whose entries are not written
				}
				switch order {
				case "down":
					slices.Reverse(ids)
				case "shuffled":
					rand.New(rand.NewPCG(1, 2)).Shuffle(n, func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
				}
				s := newSparseSet[bpA]()
				b.ResetTimer()
				for range b.N { // not b.Loop: see cbClock
					b.StopTimer()
					// Back to a storage with no entries: the dense arrays
					// were never filled, so the identity prefix goes too.
					for _, p := range s.pages {
						if p != &emptyPage { // shared by every storage: never written
							clear(p[:])
						}
					}
					s.pre.n = 0
					b.StartTimer()
					if s.newEntries(ids, 0) != n {
						b.Fatal("newEntries stopped short")
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/id")
			})
		}
	}
}

// oddWorld is the world TestBulkParallelOddIDs works on: n+8 entities
// with a bpA and a bpB each, the first deleted and its index reused by
// reborn (generation 1; gone is the old id), and one more entity, last,
// without components, at the last generation (deleting it retires its
// slot). live holds the live entities with components, reborn first.
type oddWorld struct {
	w                  *World
	live               []EntityID
	gone, reborn, last EntityID
}

func newOddWorld(t *testing.T, n int) oddWorld {
	t.Helper()
	w := NewWorld()
	as, bs := make([]bpA, n+8), make([]bpB, n+8)
	for i := range as {
		as[i], bs[i] = bpA{float64(i)}, bpB{float64(-i)}
	}
	ids, err := BulkAddEntity2(w, as, bs)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.DeleteEntity(ids[0]); err != nil {
		t.Fatal(err)
	}
	reborn, err := AddEntity2(w, bpA{-1}, bpB{1})
	if err != nil {
		t.Fatal(err)
	}
	if reborn.Index() != ids[0].Index() {
		t.Fatalf("reborn %v does not reuse the index of %v", reborn, ids[0])
	}
	last := w.ents.createNew()
	w.ents.slots[last.Index()] = maxGeneration | aliveBit
	return oddWorld{w, append([]EntityID{reborn}, ids[1:]...), ids[0], reborn, newEntityID(last.Index(), maxGeneration)}
}

// oddState is everything a bulk call may change in an oddWorld.
type oddState struct {
	Slots, Free    []uint32
	Live           int
	EntityCount    int
	ADense, BDense []EntityID
	AData          []bpA
	BData          []bpB
}

func snapOdd(w *World) oddState {
	a, b := storageFor[bpA](w), storageFor[bpB](w)
	// Copies by append: an empty slice is nil whatever its capacity.
	return oddState{
		Slots: append([]uint32(nil), w.ents.slots...), Free: append([]uint32(nil), w.ents.free...),
		Live: w.ents.live, EntityCount: w.EntityCount(),
		ADense: append([]EntityID(nil), a.dense...), BDense: append([]EntityID(nil), b.dense...),
		AData: append([]bpA(nil), a.data...), BData: append([]bpB(nil), b.data...),
	}
}

// checkEntities fails t unless the entities storage keeps its invariants:
// live counts the live slots, and the free list holds each dead slot
// short of the last generation once, and nothing else.
func checkEntities(t *testing.T, e *entities) {
	t.Helper()
	alive, free := 0, 0
	for _, s := range e.slots {
		switch {
		case s&aliveBit != 0:
			alive++
		case s < maxGeneration:
			free++
		}
	}
	if e.live != alive {
		t.Errorf("live = %d, but %d slots are alive", e.live, alive)
	}
	seen := make([]bool, len(e.slots))
	for _, i := range e.free {
		switch {
		case uint(i) >= uint(len(e.slots)):
			t.Errorf("free index %d is past the slots", i)
		case seen[i]:
			t.Errorf("index %d is free twice", i)
		case e.slots[i]&aliveBit != 0 || e.slots[i] >= maxGeneration:
			t.Errorf("free index %d has slot %#x", i, e.slots[i])
		default:
			seen[i] = true
		}
	}
	if len(e.free) != free {
		t.Errorf("%d free indices, want %d", len(e.free), free)
	}
}

// The parallel paths of the bulk calls (from bulkParallelMin ids) check
// every id exactly as the paths that take one storage at a time do,
// whatever its index: NullID (index 2^32-1, which fell in neither half of
// killAllSplit's split by index, so that DeleteEntities counted it as
// deleted and put index 0 on the free list), the largest index, indices
// past the entities, repeats, other generations of a live index, dead ids
// and a slot at the last generation, first, in the middle or last among
// one fewer live ids than the threshold, as many, or more. Both paths
// return the same error, leave the same world (nothing changed when they
// fail), and hand out the same, distinct, live entities afterwards.
func TestBulkParallelOddIDs(t *testing.T) {
	odds := []struct {
		name string
		id   func(o oddWorld) EntityID
		ok   bool // the call succeeds
		big  bool // tried at the default threshold too
	}{
		{"NullID", func(oddWorld) EntityID { return NullID }, false, true},
		{"the largest index", func(oddWorld) EntityID { return newEntityID(maxIndex, 0) }, false, true},
		{"the largest index, another generation", func(oddWorld) EntityID { return newEntityID(maxIndex, 3) }, false, false},
		{"the index past the entities", func(o oddWorld) EntityID { return newEntityID(uint32(len(o.w.ents.slots)), 0) }, false, false},
		{"an index far past the entities", func(o oddWorld) EntityID { return newEntityID(1<<31, 0) }, false, true},
		{"a repeat", func(o oddWorld) EntityID { return o.live[7] }, true, true},
		{"a repeat of a reused index", func(o oddWorld) EntityID { return o.reborn }, true, false},
		{"the older generation of a live index", func(o oddWorld) EntityID { return o.gone }, false, true},
		{"a later generation of a live index", func(o oddWorld) EntityID { return newEntityID(o.reborn.Index(), 2) }, false, true},
		{"a generation no slot has", func(o oddWorld) EntityID { return newEntityID(o.live[5].Index(), aliveBit) }, false, false},
		{"the last generation", func(o oddWorld) EntityID { return o.last }, true, false},
	}
	ops := []struct {
		name string
		run  func(w *World, ids []EntityID) error
	}{
		{"DeleteEntities", func(w *World, ids []EntityID) error { return w.DeleteEntities(ids...) }},
		{"BulkDeleteComponent", func(w *World, ids []EntityID) error {
			_, err := BulkDeleteComponent[bpA](w, ids...)
			return err
		}},
		{"BulkAddComponent1", func(w *World, ids []EntityID) error {
			return BulkAddComponent1(w, ids, make([]bpA, len(ids)))
		}},
		{"BulkAddComponent2", func(w *World, ids []EntityID) error {
			return BulkAddComponent2(w, ids, make([]bpA, len(ids)), make([]bpB, len(ids)))
		}},
	}
	type size struct{ min, n int }
	var sizes []size
	for _, min := range []int{64, bulkParallelMin} {
		if min > 64 && testing.Short() {
			continue
		}
		sizes = append(sizes, size{min, min - 1}, size{min, min}, size{min, min + 1})
	}
	sizes = append(sizes, size{64, 200})
	for _, sz := range sizes {
		for _, op := range ops {
			if sz.min > 64 && op.name != "DeleteEntities" {
				continue // the others split ids by position alone: the small worlds show it
			}
			for _, odd := range odds {
				if sz.min > 64 && !odd.big {
					continue
				}
				for _, at := range []string{"first", "middle", "last"} {
					name := fmt.Sprintf("%s/min=%d/n=%d/%s/%s", op.name, sz.min, sz.n, odd.name, at)
					t.Run(name, func(t *testing.T) {
						testBulkParallelOddID(t, sz.min, sz.n, at, odd.ok, odd.id, op.run)
					})
				}
			}
		}
	}
}

// testBulkParallelOddID runs one case of TestBulkParallelOddIDs: run with
// n ids, the odd one at, on one path and the other.
func testBulkParallelOddID(t *testing.T, min, n int, at string, ok bool, odd func(oddWorld) EntityID, run func(*World, []EntityID) error) {
	defer func(old int) { bulkParallelMin = old }(bulkParallelMin)
	var errs [2]error
	var after [2]oddState
	var next [2][]EntityID
	for mode, threshold := range []int{1 << 30, min} { // one storage at a time; in parallel
		bulkParallelMin = threshold
		o := newOddWorld(t, n)
		id := odd(o)
		ids := slices.Clone(o.live[:n-1])
		switch at {
		case "first":
			ids = slices.Insert(ids, 0, id)
		case "middle":
			ids = slices.Insert(ids, len(ids)/2, id)
		default:
			ids = append(ids, id)
		}
		before := snapOdd(o.w)
		errs[mode] = run(o.w, ids)
		after[mode] = snapOdd(o.w)
		if (errs[mode] == nil) != ok {
			t.Errorf("mode %d: error %v, want ok = %v", mode, errs[mode], ok)
		}
		if errs[mode] != nil && !reflect.DeepEqual(after[mode], before) {
			t.Errorf("mode %d: the call failed (%v) but changed the world", mode, errs[mode])
		}
		checkEntities(t, &o.w.ents)
		// Entities created afterwards are distinct and alive.
		k := max(8, len(o.w.ents.free)+3) // every free index, and new slots
		got, err := BulkAddEntity1(o.w, make([]bpB, k))
		if err != nil {
			t.Fatal(err)
		}
		seen := make([]bool, len(o.w.ents.slots))
		for _, id := range got {
			if seen[id.Index()] || !o.w.IsAlive(id) {
				t.Fatalf("mode %d: created %v twice or dead", mode, id)
			}
			seen[id.Index()] = true
		}
		checkEntities(t, &o.w.ents)
		next[mode] = got
	}
	if !reflect.DeepEqual(errs[1], errs[0]) {
		t.Errorf("parallel: error %v, one storage at a time: %v", errs[1], errs[0])
	}
	if !reflect.DeepEqual(after[1], after[0]) {
		t.Errorf("the parallel path left another world than the other")
	}
	if !slices.Equal(next[1], next[0]) {
		t.Errorf("then the parallel world creates %v, the other %v", next[1], next[0])
	}
}

// inStorage finds the ids that start inside a storage's components, in
// its identity prefix or past it, and no others: the deletions copy those
// before changing anything.
func TestInStorage(t *testing.T) {
	w := NewWorld()
	ids, err := BulkAddEntity2(w, make([]bpA, 100), make([]bpB, 100))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DeleteComponent[bpB](w, ids[0]); err != nil { // the last bpB moves to 0: no prefix left
		t.Fatal(err)
	}
	a, b := storageFor[bpA](w), storageFor[bpB](w)
	if a.pre.n != 100 || b.pre.n != 0 {
		t.Fatalf("prefixes of %d and %d components, want 100 and 0", a.pre.n, b.pre.n)
	}
	for _, c := range []struct {
		name string
		ids  []EntityID
		want bool
	}{
		{"in the prefix, first", a.dense[:3], true},
		{"in the prefix, middle", a.dense[40:43], true},
		{"in the prefix, last", a.dense[98:], true},
		{"past a prefix, first", b.dense[:3], true},
		{"past a prefix, middle", b.dense[50:53], true},
		{"past a prefix, last", b.dense[len(b.dense)-1:], true},
		{"past the length", b.dense[len(b.dense) : len(b.dense)+1], false},
		{"a copy", slices.Clone(a.dense[:3]), false},
		{"the ids created", ids[:3], false},
		{"empty", a.dense[:0], false},
		{"NullID", []EntityID{NullID}, false},
	} {
		if got := w.inStorage(c.ids); got != c.want {
			t.Errorf("%s: inStorage = %v, want %v", c.name, got, c.want)
		}
	}
}
