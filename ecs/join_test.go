package ecs_test

// Tests of joins kept past a change: a join (or a sequence or cursor made
// from it) reads its views afresh at the start of every iteration, so it
// sees the storages and their tracking as they are then, as a join made
// afresh does; it panics with ErrReleased once its views are released,
// and follows them when they are borrowed again.

import (
	"fmt"
	"maps"
	"math/rand/v2"
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

// hasV is any component of the kept-join tests.
type hasV interface{ ~struct{ V uint32 } }

func vOf[X hasV](x *X) uint32 { return struct{ V uint32 }(*x).V }

// addEntitiesAB adds the entities from..to-1, each with kA and kB holding
// its index, to a world whose next entity index is from.
func addEntitiesAB(t *testing.T, w *ecs.World, from, to uint32) {
	t.Helper()
	for i := from; i < to; i++ {
		id, err := ecs.AddEntity2(w, kA{i}, kB{i})
		must(t, err)
		if id.Index() != i {
			t.Fatalf("added entity %v, want index %d", id, i)
		}
	}
}

// joinWays is what every way of iterating a join found: per way, the
// sorted indices of the entities it visited; what Count answered; and
// whether Packed answered ok (its visits are then under "Packed").
type joinWays struct {
	visited map[string][]uint32
	count   int
	packed  bool
}

// parGrains are the grains ways2 and ways3 run ParEachMin with: one
// entity per task, a few, and everything in one task.
var parGrains = []int{1, 3, 1 << 20}

// newJoinWays starts a joinWays whose every way but Packed (and Get
// unless get) has visited nothing yet, so that a way that visits nothing
// still gets compared.
func newJoinWays(get bool) *joinWays {
	w := &joinWays{visited: map[string][]uint32{}}
	for _, way := range []string{"All", "WithID", "Each", "EachWithID", "Runs", "Next"} {
		w.visited[way] = []uint32{}
	}
	if get {
		w.visited["Get"] = []uint32{}
	}
	for _, g := range parGrains {
		w.visited[fmt.Sprintf("ParEachMin(%d)", g)] = []uint32{}
	}
	return w
}

// visitor returns the function through which the ways record a visit of
// the components whose values are vs, handed for id (NullID when the way
// gives none): it fails t unless the values are equal, and equal to id's
// index, and records the index. It is safe for concurrent use.
func (w *joinWays) visitor(t testing.TB) func(way string, id ecs.EntityID, vs ...uint32) {
	var mu sync.Mutex
	return func(way string, id ecs.EntityID, vs ...uint32) {
		for _, v := range vs {
			if v != vs[0] || id != ecs.NullID && id.Index() != v {
				t.Errorf("%s: visited %v with components of %v", way, id, vs)
				break
			}
		}
		mu.Lock()
		defer mu.Unlock()
		w.visited[way] = append(w.visited[way], vs[0])
	}
}

// sorted sorts the indices each way visited and returns the result.
func (w *joinWays) sorted() joinWays {
	for _, v := range w.visited {
		slices.Sort(v)
	}
	return *w
}

// ways2 iterates it in every way: All, WithID, Each, EachWithID, Runs,
// ParEachMin with each of parGrains, a cursor (a copy of it, so it is
// left unstarted), Get of the ids 0..n-1 (no Get when n is 0), Count,
// and Packed when it answers ok. It fails t for a visit handed another
// entity's components.
func ways2[X, Y hasV](t testing.TB, it ecs.Iter2[X, Y], n uint32) joinWays {
	t.Helper()
	w := newJoinWays(n > 0)
	visit := w.visitor(t)
	for a, b := range it.All() {
		visit("All", ecs.NullID, vOf(a), vOf(b))
	}
	for id, r := range it.WithID() {
		visit("WithID", id, vOf(r.A), vOf(r.B))
	}
	it.Each(func(a *X, b *Y) { visit("Each", ecs.NullID, vOf(a), vOf(b)) })
	it.EachWithID(func(id ecs.EntityID, a *X, b *Y) { visit("EachWithID", id, vOf(a), vOf(b)) })
	for r := range it.Runs() {
		if len(r.A) != len(r.IDs) || len(r.B) != len(r.IDs) {
			t.Errorf("Runs: a run of %d ids has %d and %d components", len(r.IDs), len(r.A), len(r.B))
			continue
		}
		for i, id := range r.IDs {
			visit("Runs", id, vOf(&r.A[i]), vOf(&r.B[i]))
		}
	}
	for _, g := range parGrains {
		way := fmt.Sprintf("ParEachMin(%d)", g)
		it.ParEachMin(g, func(a *X, b *Y) { visit(way, ecs.NullID, vOf(a), vOf(b)) })
	}
	cur := it
	for cur.Next() {
		a, b := cur.Values()
		visit("Next", cur.ID(), vOf(a), vOf(b))
	}
	for i := range n {
		if a, b, ok := it.Get(ecs.EntityID(i)); ok {
			visit("Get", ecs.EntityID(i), vOf(a), vOf(b))
		}
	}
	w.count = it.Count()
	var ids []ecs.EntityID
	var as []X
	var bs []Y
	if ids, as, bs, w.packed = it.Packed(); w.packed {
		w.visited["Packed"] = []uint32{}
		for i, id := range ids {
			visit("Packed", id, vOf(&as[i]), vOf(&bs[i]))
		}
	}
	return w.sorted()
}

// ways3 is ways2 for a join of three views.
func ways3[X, Y, Z hasV](t testing.TB, it ecs.Iter3[X, Y, Z], n uint32) joinWays {
	t.Helper()
	w := newJoinWays(n > 0)
	visit := w.visitor(t)
	for r := range it.All() {
		visit("All", ecs.NullID, vOf(r.A), vOf(r.B), vOf(r.C))
	}
	for id, r := range it.WithID() {
		visit("WithID", id, vOf(r.A), vOf(r.B), vOf(r.C))
	}
	it.Each(func(a *X, b *Y, c *Z) { visit("Each", ecs.NullID, vOf(a), vOf(b), vOf(c)) })
	it.EachWithID(func(id ecs.EntityID, a *X, b *Y, c *Z) { visit("EachWithID", id, vOf(a), vOf(b), vOf(c)) })
	for r := range it.Runs() {
		if len(r.A) != len(r.IDs) || len(r.B) != len(r.IDs) || len(r.C) != len(r.IDs) {
			t.Errorf("Runs: a run of %d ids has %d, %d and %d components", len(r.IDs), len(r.A), len(r.B), len(r.C))
			continue
		}
		for i, id := range r.IDs {
			visit("Runs", id, vOf(&r.A[i]), vOf(&r.B[i]), vOf(&r.C[i]))
		}
	}
	for _, g := range parGrains {
		way := fmt.Sprintf("ParEachMin(%d)", g)
		it.ParEachMin(g, func(a *X, b *Y, c *Z) { visit(way, ecs.NullID, vOf(a), vOf(b), vOf(c)) })
	}
	cur := it
	for cur.Next() {
		a, b, c := cur.Values()
		visit("Next", cur.ID(), vOf(a), vOf(b), vOf(c))
	}
	for i := range n {
		if a, b, c, ok := it.Get(ecs.EntityID(i)); ok {
			visit("Get", ecs.EntityID(i), vOf(a), vOf(b), vOf(c))
		}
	}
	w.count = it.Count()
	var ids []ecs.EntityID
	var as []X
	var bs []Y
	var cs []Z
	if ids, as, bs, cs, w.packed = it.Packed(); w.packed {
		w.visited["Packed"] = []uint32{}
		for i, id := range ids {
			visit("Packed", id, vOf(&as[i]), vOf(&bs[i]), vOf(&cs[i]))
		}
	}
	return w.sorted()
}

// checkWays fails t for every way of got that did not visit exactly the
// entities of want (sorted indices), and if Count did not answer
// len(want).
func checkWays(t testing.TB, label string, got joinWays, want []uint32) {
	t.Helper()
	for _, way := range slices.Sorted(maps.Keys(got.visited)) {
		if v := got.visited[way]; !slices.Equal(v, want) {
			t.Errorf("%s, %s: visited %v, want %v", label, way, v, want)
		}
	}
	if got.count != len(want) {
		t.Errorf("%s, Count = %d, want %d", label, got.count, len(want))
	}
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
			want := []uint32{4, 5, 6, 7}
			for label, it := range map[string]ecs.Iter2[kA, kB]{"kept join": kept, "fresh join": ecs.Join2(a, b)} {
				got := ways2(t, it, 8)
				checkWays(t, label, got, want)
				if got.packed != grouped {
					t.Errorf("%s, Packed ok = %v, want %v", label, got.packed, grouped)
				}
			}
		})
	}
}

// TestJoinKeptSequencesRangedAgain ranges the sequences of one join (All,
// WithID, Runs), each made once, before and after a change to the
// storages that also changes which storage drives: each range starts
// afresh and sees the storages as they are, with or without a packed
// group.
func TestJoinKeptSequencesRangedAgain(t *testing.T) {
	for _, grouped := range []bool{false, true} {
		t.Run(fmt.Sprintf("group=%v", grouped), func(t *testing.T) {
			w := ecs.NewWorld()
			if grouped {
				must(t, ecs.AddGroup2[kA, kB](w))
			}
			// Entities 0..3 have A and B; 4 and 5 have A only, so B
			// drives.
			addEntitiesAB(t, w, 0, 4)
			for i := range uint32(2) {
				_, err := ecs.AddEntity1(w, kA{4 + i})
				must(t, err)
			}
			var a ecs.ViewMut[kA]
			var b ecs.ViewMut[kB]
			release, err := w.Borrow(&a, &b)
			must(t, err)
			defer release()

			j := ecs.Join2(a, b)
			all, withID, runs := j.All(), j.WithID(), j.Runs()
			seen := newJoinWays(false)
			visit := seen.visitor(t)
			ranges := map[string]func(){
				"All": func() {
					for a, b := range all {
						visit("All", ecs.NullID, a.V, b.V)
					}
				},
				"WithID": func() {
					for id, r := range withID {
						visit("WithID", id, r.A.V, r.B.V)
					}
				},
				"Runs": func() {
					for r := range runs {
						if len(r.A) != len(r.IDs) || len(r.B) != len(r.IDs) {
							t.Errorf("Runs: a run of %d ids has %d and %d components", len(r.IDs), len(r.A), len(r.B))
							continue
						}
						for i, id := range r.IDs {
							visit("Runs", id, r.A[i].V, r.B[i].V)
						}
					}
				},
			}
			rangeAll := func(label string, want []uint32) {
				t.Helper()
				for name, rangeIt := range ranges {
					seen.visited[name] = nil
					rangeIt()
					got := seen.visited[name]
					slices.Sort(got)
					if !slices.Equal(got, want) {
						t.Errorf("%s, %s: visited %v, want %v", label, name, got, want)
					}
				}
			}
			rangeAll("first range", []uint32{0, 1, 2, 3})
			rangeAll("second range, no change", []uint32{0, 1, 2, 3})
			// B loses 0 and gains 4 and 5, so it is longer than when
			// the sequences were made; A loses 3 and 2, so A (4 left)
			// now drives.
			b.Delete(0)
			must(t, b.AddComponentUnchecked(4, kB{4}))
			must(t, b.AddComponentUnchecked(5, kB{5}))
			a.Delete(3)
			a.Delete(2)
			rangeAll("range after the change", []uint32{1, 4, 5})
		})
	}
}

// TestJoinKeptChangedAfterClear keeps a join of a Changed view across a
// clear of the tracking and an insertion after it: the kept join sees the
// tracking as it is, as a fresh join does (nothing after the clear, then
// only what was inserted since).
func TestJoinKeptChangedAfterClear(t *testing.T) {
	w := ecs.NewWorld()
	for i := range uint32(3) {
		_, err := ecs.AddEntity2(w, kT{i}, kA{i})
		must(t, err)
	}
	_, err := ecs.AddEntity1(w, kA{3})
	must(t, err)
	var tv ecs.ViewMut[kT]
	var a ecs.View[kA]
	release, err := w.Borrow(&tv, &a)
	must(t, err)
	defer release()
	inserted, err := tv.Inserted()
	must(t, err)
	kept := ecs.Join2(inserted, a)

	check := func(label string, want []uint32) {
		t.Helper()
		checkWays(t, label+", kept join", ways2(t, kept, 4), want)
		checkWays(t, label+", fresh join", ways2(t, ecs.Join2(inserted, a), 4), want)
	}
	check("before the clear", []uint32{0, 1, 2})
	tv.ClearAllInserted()
	check("after the clear", nil)
	must(t, tv.AddComponentUnchecked(3, kT{3}))
	check("after an insertion", []uint32{3})
}

// TestJoinSequenceRangedConcurrently ranges the sequences of one join of
// Views (All, WithID, Runs) from several goroutines at once: each range
// visits every entity with its own components, and under -race shares
// no state with the others.
func TestJoinSequenceRangedConcurrently(t *testing.T) {
	const n, goroutines = 100, 4
	w := ecs.NewWorld()
	addEntitiesAB(t, w, 0, n)
	var a ecs.View[kA]
	var b ecs.View[kB]
	release, err := w.Borrow(&a, &b)
	must(t, err)
	defer release()

	j := ecs.Join2(a, b)
	all, withID, runs := j.All(), j.WithID(), j.Runs()
	counts := make([][3]int, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for a, b := range all {
				if a.V != b.V {
					t.Errorf("All: components of %d and %d", a.V, b.V)
				}
				counts[g][0]++
			}
			for id, r := range withID {
				if r.A.V != id.Index() || r.B.V != id.Index() {
					t.Errorf("WithID: %v has components of %d and %d", id, r.A.V, r.B.V)
				}
				counts[g][1]++
			}
			for r := range runs {
				for i, id := range r.IDs {
					if r.A[i].V != id.Index() || r.B[i].V != id.Index() {
						t.Errorf("Runs: %v has components of %d and %d", id, r.A[i].V, r.B[i].V)
					}
					counts[g][2]++
				}
			}
		}()
	}
	wg.Wait()
	for g, c := range counts {
		if c != [3]int{n, n, n} {
			t.Errorf("goroutine %d: All, WithID and Runs visited %v entities, want %d each", g, c, n)
		}
	}
}

// TestJoinFollowsItsViews checks what a join does when its views, borrowed
// with World.Borrow, are released and borrowed again: it belongs to the
// borrow of its views, so it panics with ErrReleased in between and also
// once they are borrowed again (from another world here), while a fresh
// join of them iterates what they hold now; and a cursor that has begun
// panics once its views are borrowed again. (A join kept from one run of a
// system to the next is a view kept past its run: not supported, see
// iterators.md.)
func TestJoinFollowsItsViews(t *testing.T) {
	// twoWorlds returns a world of 3 entities and one of 5, each entity
	// with kA and kB.
	twoWorlds := func(t *testing.T) (w1, w2 *ecs.World) {
		w1, w2 = ecs.NewWorld(), ecs.NewWorld()
		addEntitiesAB(t, w1, 0, 3)
		addEntitiesAB(t, w2, 0, 5)
		return w1, w2
	}
	t.Run("borrowed from another world", func(t *testing.T) {
		w1, w2 := twoWorlds(t)
		var a ecs.ViewMut[kA]
		var b ecs.ViewMut[kB]
		release, err := w1.Borrow(&a, &b)
		must(t, err)
		kept := ecs.Join2(a, b)
		release()
		mustPanicReleased(t, map[string]func(){
			"kept join, Count": func() { kept.Count() },
			"kept join, All":   rangeOver(kept.All()),
		})

		release2, err := w2.Borrow(&a, &b)
		must(t, err)
		defer release2()
		mustPanicReleased(t, map[string]func(){
			"kept join after the views' next borrow, Count": func() { kept.Count() },
			"kept join after the views' next borrow, All":   rangeOver(kept.All()),
		})
		if got := ecs.Join2(a, b).Count(); got != 5 {
			t.Errorf("fresh join, Count = %d, want w2's 5", got)
		}
		checkWays(t, "fresh join", ways2(t, ecs.Join2(a, b), 5), []uint32{0, 1, 2, 3, 4})
	})

	t.Run("cursor", func(t *testing.T) {
		w1, w2 := twoWorlds(t)
		var a ecs.View[kA]
		var b ecs.View[kB]
		release, err := w1.Borrow(&a, &b)
		must(t, err)
		cur := ecs.Join2(a, b)
		if !cur.Next() {
			t.Fatal("the join is empty")
		}
		release()
		release2, err := w2.Borrow(&a, &b)
		must(t, err)
		defer release2()
		mustPanicReleased(t, map[string]func(){
			"a cursor begun in w1, Next with its views borrowed from w2": func() { cur.Next() },
		})
	})
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

// randStore is a storage of the randomized tests with its model: the
// indices of the entities that have the component.
type randStore struct {
	has    map[uint32]bool
	add    func(i uint32) error
	remove func(i uint32)
	del    func(i uint32)
}

func newRandStore[T hasV](v ecs.ViewMut[T]) *randStore {
	s := &randStore{has: map[uint32]bool{}}
	s.add = func(i uint32) error {
		s.has[i] = true
		return v.AddComponentUnchecked(ecs.EntityID(i), T(struct{ V uint32 }{i}))
	}
	s.remove = func(i uint32) {
		delete(s.has, i)
		v.Remove(ecs.EntityID(i))
	}
	s.del = func(i uint32) {
		delete(s.has, i)
		v.Delete(ecs.EntityID(i))
	}
	return s
}

// change adds (half the time, replacing a component the entity has),
// removes or deletes the component of entity i.
func (s *randStore) change(t *testing.T, r *rand.Rand, i uint32) {
	switch r.IntN(4) {
	case 0, 1:
		must(t, s.add(i))
	case 2:
		s.remove(i)
	case 3:
		s.del(i)
	}
}

// indicesIn returns the indices below n of the entities in every one of
// in and in none of out.
func indicesIn(n uint32, in []*randStore, out ...*randStore) []uint32 {
	var idx []uint32
next:
	for i := range n {
		for _, s := range in {
			if !s.has[i] {
				continue next
			}
		}
		for _, s := range out {
			if s.has[i] {
				continue next
			}
		}
		idx = append(idx, i)
	}
	return idx
}

// TestJoinKeptRandomized makes joins (Join2, Join2 with Not, Join3) of
// random storages, with each kind of group, then makes rounds of random
// changes: after each round every way of iterating each kept join, and
// of a join made afresh, visits what the model says.
func TestJoinKeptRandomized(t *testing.T) {
	groups := []string{"none", "AB", "BA", "ABC", "BC"}
	for seed := range uint64(100) {
		g := groups[seed%uint64(len(groups))]
		t.Run(fmt.Sprintf("seed=%d/group=%s", seed, g), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 7))
			w := ecs.NewWorld()
			switch g {
			case "AB":
				must(t, ecs.AddGroup2[kA, kB](w))
			case "BA":
				must(t, ecs.AddGroup2[kB, kA](w))
			case "ABC":
				must(t, ecs.AddGroup3[kA, kB, kC](w))
			case "BC":
				must(t, ecs.AddGroup2[kB, kC](w))
			}
			n := uint32(4 + r.IntN(60))
			for range n {
				_, err := w.AddEntity()
				must(t, err)
			}
			var a ecs.ViewMut[kA]
			var b ecs.ViewMut[kB]
			var c ecs.ViewMut[kC]
			release, err := w.Borrow(&a, &b, &c)
			must(t, err)
			defer release()
			sa, sb, sc := newRandStore(a), newRandStore(b), newRandStore(c)
			// Each entity has A and B with odds 2/3, C with odds 1/2.
			for i := range n {
				for _, s := range []struct {
					store *randStore
					odds  int
				}{{sa, 3}, {sb, 3}, {sc, 2}} {
					if r.IntN(s.odds) > 0 {
						must(t, s.store.add(i))
					}
				}
			}
			j2 := ecs.Join2(a, b)
			j2not := ecs.Join2(a, b).Not(c)
			j3 := ecs.Join3(a, b, c)
			stores := []*randStore{sa, sb, sc}
			for round := range 6 {
				for range r.IntN(int(n)) + 1 {
					stores[r.IntN(len(stores))].change(t, r, uint32(r.IntN(int(n))))
				}
				if r.IntN(20) == 0 {
					c.Clear()
					clear(sc.has)
				}
				want2 := indicesIn(n, []*randStore{sa, sb})
				want2not := indicesIn(n, []*randStore{sa, sb}, sc)
				want3 := indicesIn(n, stores)
				packed2, packed3 := g == "AB" || g == "BA", g == "ABC"
				for label, it := range map[string]ecs.Iter2[kA, kB]{"kept Join2": j2, "fresh Join2": ecs.Join2(a, b)} {
					got := ways2(t, it, n)
					checkWays(t, fmt.Sprintf("round %d, %s", round, label), got, want2)
					if got.packed != packed2 {
						t.Errorf("round %d, %s: Packed ok = %v, want %v", round, label, got.packed, packed2)
					}
				}
				checkWays(t, fmt.Sprintf("round %d, kept Join2.Not", round), ways2(t, j2not, n), want2not)
				checkWays(t, fmt.Sprintf("round %d, fresh Join2.Not", round), ways2(t, ecs.Join2(a, b).Not(c), n), want2not)
				for label, it := range map[string]ecs.Iter3[kA, kB, kC]{"kept Join3": j3, "fresh Join3": ecs.Join3(a, b, c)} {
					got := ways3(t, it, n)
					checkWays(t, fmt.Sprintf("round %d, %s", round, label), got, want3)
					if got.packed != packed3 {
						t.Errorf("round %d, %s: Packed ok = %v, want %v", round, label, got.packed, packed3)
					}
				}
				if t.Failed() {
					t.FailNow()
				}
			}
		})
	}
}

// TestJoinKeptTrackedRandomized is TestJoinKeptRandomized for joins that
// iterate through the tracking: one with a ViewMut of a tracked
// component (which marks what it hands out) and one with a Changed view
// (InsertedOrModified) of it, kept across random changes and clears of
// the tracking.
func TestJoinKeptTrackedRandomized(t *testing.T) {
	for seed := range uint64(100) {
		grouped := seed%2 == 1
		t.Run(fmt.Sprintf("seed=%d/group=%v", seed, grouped), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 11))
			w := ecs.NewWorld()
			if grouped {
				must(t, ecs.AddGroup2[kA, kT](w))
			}
			n := uint32(4 + r.IntN(60))
			for range n {
				_, err := w.AddEntity()
				must(t, err)
			}
			var a ecs.ViewMut[kA]
			var tv ecs.ViewMut[kT]
			release, err := w.Borrow(&a, &tv)
			must(t, err)
			defer release()
			sa, st := newRandStore(a), newRandStore(tv)
			// changed models the tracking: the components of kT inserted
			// or modified since the last clear.
			changed := &randStore{has: map[uint32]bool{}}
			addT := st.add
			st.add = func(i uint32) error {
				changed.has[i] = true // an insertion, or a replacement
				return addT(i)
			}
			tv.ClearAllInsertedAndModified()
			inserted, err := tv.InsertedOrModified()
			must(t, err)
			jMarks := ecs.Join2(a, tv)
			jChanged := ecs.Join2(a, inserted)
			stores := []*randStore{sa, st}
			for round := range 6 {
				if r.IntN(3) == 0 {
					tv.ClearAllInsertedAndModified()
					clear(changed.has)
				}
				for range r.IntN(int(n)) + 1 {
					stores[r.IntN(len(stores))].change(t, r, uint32(r.IntN(int(n))))
				}
				// The Changed joins first: the marking joins then mark
				// every component of kT they visit modified.
				want := indicesIn(n, []*randStore{sa, st, changed})
				checkWays(t, fmt.Sprintf("round %d, kept Changed Join2", round), ways2(t, jChanged, n), want)
				checkWays(t, fmt.Sprintf("round %d, fresh Changed Join2", round), ways2(t, ecs.Join2(a, inserted), n), want)
				want = indicesIn(n, stores)
				checkWays(t, fmt.Sprintf("round %d, kept marking Join2", round), ways2(t, jMarks, n), want)
				checkWays(t, fmt.Sprintf("round %d, fresh marking Join2", round), ways2(t, ecs.Join2(a, tv), n), want)
				for _, i := range want {
					changed.has[i] = true
				}
				if t.Failed() {
					t.FailNow()
				}
			}
		})
	}
}
