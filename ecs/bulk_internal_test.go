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

// killAllSplit leaves the entities exactly as the one-pass killAll does
// (the order of the free list included), and changes nothing when it
// fails: for ids in either order, shuffled, repeated or dead on either
// side of the middle index, and with an id at the last generation, which
// is retired rather than freed.
func TestKillAllSplit(t *testing.T) {
	const n = 64
	type state struct {
		Slots []uint32
		Free  []uint32
		Live  int
	}
	snap := func(e *entities) state {
		// Copies by append: an empty free list is nil whatever its capacity.
		return state{append([]uint32(nil), e.slots...), append([]uint32(nil), e.free...), e.live}
	}
	build := func() (*World, []EntityID) {
		w := NewWorld()
		ids := make([]EntityID, n)
		for i := range ids {
			ids[i] = w.ents.create()
		}
		w.ents.slots[40] = maxGeneration | aliveBit
		ids[40] = newEntityID(40, maxGeneration)
		return w, ids
	}
	cat := func(parts ...[]EntityID) []EntityID { return slices.Concat(parts...) }
	for _, c := range []struct {
		name string
		pick func(ids []EntityID) []EntityID
		ok   bool
	}{
		{"index order", func(ids []EntityID) []EntityID { return ids[:40] }, true},
		{"reverse order", func(ids []EntityID) []EntityID {
			r := slices.Clone(ids[:40])
			slices.Reverse(r)
			return r
		}, true},
		{"shuffled", func(ids []EntityID) []EntityID {
			r := cat(ids[:40], ids[41:])
			rand.New(rand.NewPCG(3, 4)).Shuffle(len(r), func(i, j int) { r[i], r[j] = r[j], r[i] })
			return r
		}, true},
		{"repeat below the middle", func(ids []EntityID) []EntityID { return cat(ids[:39], ids[3:4]) }, true},
		{"repeat above the middle", func(ids []EntityID) []EntityID { return cat(ids[:39], ids[35:36]) }, true},
		{"dead below the middle", func(ids []EntityID) []EntityID {
			return cat(ids[:39], []EntityID{newEntityID(5, 7)})
		}, false},
		{"dead above the middle", func(ids []EntityID) []EntityID {
			return cat(ids[:39], []EntityID{newEntityID(30, 7)})
		}, false},
		{"never issued", func(ids []EntityID) []EntityID { return cat(ids[:39], []EntityID{newEntityID(1000, 0)}) }, false},
		{"last generation", func(ids []EntityID) []EntityID { return ids[30:50] }, true},
		{"all", func(ids []EntityID) []EntityID { return ids }, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func(old int) { bulkParallelMin = old }(bulkParallelMin)
			var got [2]state
			for mode, min := range []int{1 << 30, 1} {
				bulkParallelMin = min
				w, ids := build()
				before := snap(&w.ents)
				err := w.DeleteEntities(c.pick(ids)...)
				if (err == nil) != c.ok {
					t.Fatalf("mode %d: DeleteEntities: %v, want ok = %v", mode, err, c.ok)
				}
				got[mode] = snap(&w.ents)
				if !c.ok && !reflect.DeepEqual(got[mode], before) {
					t.Fatalf("mode %d: a failed DeleteEntities changed the entities:\n%+v\nwant\n%+v", mode, got[mode], before)
				}
			}
			if !reflect.DeepEqual(got[1], got[0]) {
				t.Errorf("split pass left\n%+v\nthe one pass left\n%+v", got[1], got[0])
			}
		})
	}
}

// up returns n ids of generation gen with the indices from, from+1, ….
func up(from, n uint32, gen uint32) []EntityID {
	ids := make([]EntityID, n)
	for i := range ids {
		ids[i] = newEntityID(from+uint32(i), gen)
	}
	return ids
}

// down returns n ids of generation gen with the indices from, from-1, ….
func down(from, n uint32, gen uint32) []EntityID {
	ids := up(from-n+1, n, gen)
	slices.Reverse(ids)
	return ids
}

// shuffledRun returns up(0, n, gen) shuffled.
func shuffledRun(n, gen uint32) []EntityID {
	ids := up(0, n, gen)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	return ids
}

// newEntries writes the same entries, and stops at the same id, as a loop
// that takes one id at a time: whether the ids run up or down (the fast
// path for runs), cross a page edge, break step mid-page, change
// generation, or meet an entry already set inside a run.
func TestNewEntriesRuns(t *testing.T) {
	shuffled := shuffledRun(3*pageSize, 1)
	for _, c := range []struct {
		name string
		set  []EntityID // entries set before the call
		ids  []EntityID
	}{
		{"one id", nil, up(5, 1, 0)},
		{"up within a page", nil, up(3, 100, 0)},
		{"up across pages", nil, up(pageSize-10, 3*pageSize, 2)},
		{"down across pages", nil, down(3*pageSize+10, 3*pageSize, 1)},
		{"down to index 0", nil, down(40, 41, 0)},
		{"down from index 0's neighbour", nil, slices.Concat(down(1, 2, 0), up(7, 3, 0))},
		{"up then down", nil, slices.Concat(up(10, 20, 0), down(9, 10, 0))},
		{"down then up", nil, slices.Concat(down(29, 20, 0), up(40, 10, 0))},
		{"a step skipped mid-page", nil, slices.Concat(up(0, 10, 0), up(11, 50, 0))},
		{"runs and single ids mixed", nil, slices.Concat(up(0, 5, 0), []EntityID{newEntityID(900, 0), newEntityID(70, 0)}, up(71, 4, 0), down(600, 3, 0))},
		{"the next index with another generation", nil, []EntityID{newEntityID(8, 0), newEntityID(9, 1), newEntityID(10, 1)}},
		{"a repeat inside an up run", nil, slices.Concat(up(0, 10, 0), up(5, 10, 0))},
		{"a repeat straight after", nil, []EntityID{newEntityID(4, 0), newEntityID(5, 0), newEntityID(5, 0)}},
		{"a set entry inside an up run", up(20, 1, 0), up(10, 30, 0)},
		{"a set entry inside a down run", up(20, 1, 3), down(30, 30, 0)},
		{"a set entry at the run's start", up(10, 1, 0), up(10, 30, 0)},
		{"shuffled", nil, shuffled},
		{"shuffled then a repeat", nil, slices.Concat(shuffled, shuffled[7:8])},
	} {
		t.Run(c.name, func(t *testing.T) {
			const base = 3
			fast, slow := newSparseSet[bpA](), newSparseSet[bpA]()
			for _, s := range []*sparseSet[bpA]{fast, slow} {
				for i, id := range c.set {
					*s.newEntry(id) = sparseEntry(id, 1000+i)
				}
			}
			wantK := len(c.ids)
			for k, id := range c.ids {
				e := slow.newEntry(id)
				if *e != 0 {
					wantK = k
					break
				}
				*e = sparseEntry(id, base+k)
			}
			if k := fast.newEntries(c.ids, base); k != wantK {
				t.Errorf("newEntries took %d ids, want %d", k, wantK)
			}
			samePages(t, fast, slow)
		})
	}
}

// samePages fails t unless got and want have the same sparse entries.
func samePages(t *testing.T, got, want *sparseSet[bpA]) {
	t.Helper()
	if len(got.pages) != len(want.pages) {
		t.Fatalf("%d pages, want %d", len(got.pages), len(want.pages))
	}
	for p := range got.pages {
		for i := range got.pages[p] {
			if g, w := got.pages[p][i], want.pages[p][i]; g != w {
				t.Fatalf("entry %d: %#x, want %#x", p*pageSize+i, g, w)
			}
		}
	}
}

// zeroIDs frees the same entries, and counts the same, as a loop that
// takes one id at a time: for runs up and down across page edges, runs
// broken mid-page, repeats, ids whose entry has another generation or is
// not set, and ids past the last page.
func TestZeroIDsRuns(t *testing.T) {
	const n = 3 * pageSize
	set := slices.Concat(up(0, 100, 1), up(100, 50, 2), up(150, n-150, 1)) // the stored ids
	for _, c := range []struct {
		name string
		ids  []EntityID
	}{
		{"every id up", nil},
		{"up across pages", up(pageSize-10, pageSize+20, 1)},
		{"down across pages", down(2*pageSize+5, pageSize+20, 1)},
		{"down to index 0", down(40, 41, 1)},
		{"another generation inside a run", up(90, 20, 1)},
		{"the run's own generation differs", up(95, 20, 2)},
		{"a step skipped mid-page", slices.Concat(up(0, 10, 1), up(11, 50, 1))},
		{"a repeat inside a run", slices.Concat(up(0, 10, 1), up(5, 10, 1))},
		{"up then down", slices.Concat(up(200, 20, 1), down(199, 10, 1))},
		{"past the last page", slices.Concat(up(n-5, 10, 1), up(5*pageSize, 3, 1))},
		{"single ids", []EntityID{newEntityID(7, 1), newEntityID(900, 1), newEntityID(3, 1)}},
		{"shuffled", shuffledRun(n, 1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			ids := c.ids
			if len(ids) == 0 {
				ids = up(0, n, 1)
			}
			fast, slow := newSparseSet[bpA](), newSparseSet[bpA]()
			for _, s := range []*sparseSet[bpA]{fast, slow} {
				for i, id := range set {
					*s.newEntry(id) = sparseEntry(id, i)
				}
			}
			want := 0
			for _, id := range ids {
				if e := slow.entry(id); e != nil {
					*e = 0
					want++
				}
			}
			if k := fast.zeroIDs(ids); k != want {
				t.Errorf("zeroIDs freed %d entries, want %d", k, want)
			}
			samePages(t, fast, slow)
		})
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

// TestDoomedEmptied: the entities AllStoragesViewMut.DeleteEntity leaves
// for later are stripped once: the list is empty after each strip and
// keeps its memory for the next system.
func TestDoomedEmptied(t *testing.T) {
	w := NewWorld()
	ids, err := BulkAddEntity1(w, make([]int, 100))
	if err != nil {
		t.Fatal(err)
	}
	for round, cut := range []int{50, 1, 49} {
		err := w.Run(func(all AllStoragesViewMut) error {
			for _, id := range ids[:cut] {
				if err := all.DeleteEntity(id); err != nil {
					return err
				}
			}
			if got := len(w.scratch.doomed); got != cut {
				t.Errorf("round %d: %d entities waiting, want %d", round, got, cut)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := len(w.scratch.doomed); got != 0 {
			t.Errorf("round %d: %d entities still waiting after the system", round, got)
		}
		if got := storageFor[int](w).dense; len(got) != len(ids)-cut {
			t.Errorf("round %d: %d ints left, want %d", round, len(got), len(ids)-cut)
		}
		ids = ids[cut:]
	}
	if c := cap(w.scratch.doomed); c < 50 {
		t.Errorf("the list's capacity is %d: its memory was not kept", c)
	}
	if err := w.ShrinkToFit(); err != nil {
		t.Fatal(err)
	}
	if w.scratch.doomed != nil {
		t.Errorf("ShrinkToFit kept the list's memory")
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
