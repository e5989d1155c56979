package ecs

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

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

// runOf finds runs up and down, of one id too, and no run where the ids
// repeat, skip an index, turn, change generation, or would wrap around
// an index's bits into the generation's.
func TestRunOf(t *testing.T) {
	top := newEntityID(math.MaxUint32, 0)
	for _, c := range []struct {
		name string
		ids  []EntityID
		want idRun
	}{
		{"none", nil, idRun{}},
		{"one id", up(7, 1, 3), idRun{uint64(newEntityID(7, 3)), 1}},
		{"up", up(5, 3000, 2), idRun{uint64(newEntityID(5, 2)), 3000}},
		{"down", down(2999, 3000, 2), idRun{uint64(newEntityID(0, 2)), 3000}},
		{"a repeat", []EntityID{newEntityID(4, 0), newEntityID(4, 0)}, idRun{}},
		{"a gap", slices.Concat(up(0, 10, 0), up(11, 5, 0)), idRun{}},
		{"up then down", slices.Concat(up(0, 10, 0), down(8, 3, 0)), idRun{}},
		{"the next index in another generation", []EntityID{newEntityID(3, 0), newEntityID(4, 1)}, idRun{}},
		{"up to the last index", []EntityID{top - 1, top}, idRun{uint64(top - 1), 2}},
		{"up past the last index", []EntityID{top, top + 1}, idRun{}},
		{"down past index 0", []EntityID{top + 1, top}, idRun{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := runOf(c.ids); got != c.want {
				t.Fatalf("runOf = %+v, want %+v", got, c.want)
			}
			for _, id := range c.ids {
				if c.want.n != 0 && uint64(id)-c.want.base >= c.want.n {
					t.Errorf("the run %+v lacks %v", c.want, id)
				}
			}
		})
	}
}

// vacateRun followed by closeGaps leaves a storage exactly as zeroIDs
// over the run's ids followed by closeGaps does, with a sound layout:
// whole storages (identity prefix, sparse entries, both), storages the
// run takes in part, and components of other generations on the run's
// indices.
func TestVacateRunMatchesZeroIDs(t *testing.T) {
	const n = 3 * pageSize
	for _, c := range []struct {
		name   string
		stored []EntityID // appended in this order
		run    []EntityID
	}{
		{"whole prefix", up(0, n, 1), down(n-1, n, 1)},
		{"whole sparse entries", down(n-1, n, 1), up(0, n, 1)},
		{"whole, prefix and entries", slices.Concat(up(0, 100, 1), down(n-1, n-100, 1)), up(0, n, 1)},
		{"a run longer than the storage", up(pageSize, 10, 0), up(0, n, 0)},
		{"prefix past the run", up(0, 50, 0), up(20, 40, 0)},
		{"prefix covered, an entry kept", slices.Concat(up(0, 50, 0), up(2*pageSize, 1, 0)), up(0, 51, 0)},
		{"entries in part, across pages", slices.Concat(down(n-1, 200, 1), up(10, 5, 2)), up(n-300, 300, 1)},
		{"another generation on the run's indices", slices.Concat(up(0, 30, 4), up(30, 30, 5)), up(0, 60, 5)},
		{"a prefix of another generation", up(0, 30, 4), up(0, 30, 5)},
		{"indices past the last page", up(0, 10, 0), up(5, 3*n, 0)},
	} {
		t.Run(c.name, func(t *testing.T) {
			fast, slow := newSparseSet[bpA](), newSparseSet[bpA]()
			for _, s := range []*sparseSet[bpA]{fast, slow} {
				for i, id := range c.stored {
					s.insert(id, bpA{float64(i)})
				}
			}
			r := runOf(c.run)
			if r.n == 0 {
				t.Fatal("the case's ids form no run")
			}
			k, want := fast.vacateRun(r), slow.zeroIDs(c.run)
			if k != want {
				t.Errorf("vacateRun freed %d, zeroIDs %d", k, want)
			}
			fast.closeGaps(k)
			slow.closeGaps(want)
			if !slices.Equal(fast.dense, slow.dense) || !slices.Equal(fast.data, slow.data) || fast.pre != slow.pre {
				t.Errorf("vacateRun left %v %v %+v, zeroIDs %v %v %+v", fast.dense, fast.data, fast.pre, slow.dense, slow.data, slow.pre)
			}
			samePages(t, fast, slow)
			if err := fast.layoutError(); err != nil {
				t.Error(err)
			}
		})
	}
}
