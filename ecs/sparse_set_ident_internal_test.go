package ecs

import (
	"fmt"
	"math"
	"testing"
)

// layoutError reports the first broken invariant of s's identity prefix
// and sparse entries (see sparseSet), or nil: the prefix holds the
// entities with indices 0..pre.n-1 of its generation in order, and has no
// entries; every other component has its entry; no other entry is set.
// A tracked storage and a group member have no prefix.
func (s *sparseSet[T]) layoutError() error {
	n := s.pre.n
	if n > uint64(len(s.dense)) {
		return fmt.Errorf("%s: prefix of %d past %d components", s.name, n, len(s.dense))
	}
	if n > 0 && (s.track != nil || s.pack != nil) {
		return fmt.Errorf("%s: prefix of %d in a tracked or grouped storage", s.name, n)
	}
	if s.pre.gen&^genMask != 0 {
		return fmt.Errorf("%s: prefix generation %#x has index bits", s.name, s.pre.gen)
	}
	for i, id := range s.dense[:n] {
		if id != EntityID(s.pre.gen+uint64(i)) {
			return fmt.Errorf("%s: prefix of %d in generation %d, but position %d holds %v", s.name, n, s.pre.gen>>32, i, id)
		}
	}
	set := 0 // the entries found set, each checked against its component
	for i, id := range s.dense[n:] {
		i += int(n)
		p, x := id.Index()>>pageShift, id.Index()&pageMask
		if int(p) >= len(s.pages) || s.pages[p][x] != sparseEntry(id, i) {
			return fmt.Errorf("%s: %v at position %d has no entry pointing at it", s.name, id, i)
		}
		set++
	}
	for _, page := range s.pages {
		if page == &emptyPage {
			continue
		}
		for _, e := range page {
			if e != 0 {
				set--
			}
		}
	}
	if set != 0 {
		return fmt.Errorf("%s: %d sparse entries set for no component", s.name, -set)
	}
	return nil
}

// checkLayouts fails t if a storage of w breaks a layout invariant.
func checkLayouts(t testing.TB, w *World) {
	t.Helper()
	if err := CheckLayouts(w); err != nil {
		t.Fatal(err)
	}
}

type idA struct{ V int }
type idB struct{ V int }

// TestIdentityPrefix follows the identity prefix of a storage through the
// operations that extend it and those that cut it, and checks that
// lookups agree with the sparse entries whichever way they go.
func TestIdentityPrefix(t *testing.T) {
	newWorld := func(t *testing.T, n int) (*World, []EntityID) {
		w := NewWorld()
		ids := make([]EntityID, n)
		for i := range ids {
			id, err := AddEntity2(w, idA{i}, idB{i})
			check(t, err)
			ids[i] = id
		}
		return w, ids
	}
	for _, tc := range []struct {
		name string
		do   func(t *testing.T, w *World, ids []EntityID)
		want uint64 // idA's ident afterwards
	}{
		{"created in order", func(*testing.T, *World, []EntityID) {}, 8},
		{"delete the last entity", func(t *testing.T, w *World, ids []EntityID) {
			check(t, w.DeleteEntity(ids[7]))
		}, 7},
		{"delete the last, then create again", func(t *testing.T, w *World, ids []EntityID) {
			check(t, w.DeleteEntity(ids[7]))
			// Index 7 comes back at position 7, but in generation 1.
			_, err := AddEntity2(w, idA{7}, idB{7})
			check(t, err)
		}, 7},
		{"delete all, then create again", func(t *testing.T, w *World, ids []EntityID) {
			// The next entities get indices 0..7 back, in order, in
			// generation 1: a prefix of that generation.
			for i := len(ids) - 1; i >= 0; i-- {
				check(t, w.DeleteEntity(ids[i]))
			}
			for i := range ids {
				id, err := AddEntity2(w, idA{i}, idB{i})
				check(t, err)
				if id != newEntityID(uint32(i), 1) {
					t.Fatalf("created %v, want index %d in generation 1", id, i)
				}
			}
			if s := storageFor[idA](w); s.pre.gen != 1<<32 {
				t.Errorf("prefix generation %d, want 1", s.pre.gen>>32)
			}
		}, 8},
		{"delete all, then create again out of order", func(t *testing.T, w *World, ids []EntityID) {
			check(t, DeleteEntities(w, ids...)) // the next entity gets index 7 back
			for i := range ids {
				_, err := AddEntity2(w, idA{i}, idB{i})
				check(t, err)
			}
		}, 0},
		{"delete in the middle", func(t *testing.T, w *World, ids []EntityID) {
			check(t, w.DeleteEntity(ids[3])) // entity 7 moves to position 3
		}, 3},
		{"remove in the middle", func(t *testing.T, w *World, ids []EntityID) {
			_, err := DeleteComponent[idA](w, ids[5])
			check(t, err)
		}, 5},
		{"remove from the other storage only", func(t *testing.T, w *World, ids []EntityID) {
			_, err := DeleteComponent[idB](w, ids[2])
			check(t, err)
		}, 8},
		{"a new entity takes over a leftover", func(t *testing.T, w *World, ids []EntityID) {
			// Entity 2 dies with its components left behind; the next
			// entity gets index 2 in generation 1 and takes over its
			// idA at position 2.
			check(t, w.Run(func(ents EntitiesViewMut, a ViewMut[idA]) error {
				if !ents.DeleteUnchecked(ids[2]) {
					t.Fatal("DeleteUnchecked failed")
				}
				id := ents.AddEntity()
				if id != newEntityID(2, 1) {
					t.Fatalf("created %v, want index 2 in generation 1", id)
				}
				return a.AddComponent(ents, id, idA{22})
			}))
			check(t, w.Run(func(a View[idA]) {
				if c, ok := a.Get(ids[2]); ok {
					t.Errorf("the dead entity's id found %v", *c)
				}
				if c, ok := a.Get(newEntityID(2, 1)); !ok || c.V != 22 {
					t.Errorf("the new entity's component: %v, %v", c, ok)
				}
			}))
		}, 2},
		{"replace a component", func(t *testing.T, w *World, ids []EntityID) {
			check(t, AddComponent1(w, ids[2], idA{20}))
		}, 8},
		{"bulk delete", func(t *testing.T, w *World, ids []EntityID) {
			check(t, DeleteEntities(w, ids[6], ids[1]))
		}, 1},
		{"bulk delete by sweeping", func(t *testing.T, w *World, ids []EntityID) {
			for _, id := range ids[4:] { // from the end: the prefix shrinks to 4
				_, err := DeleteComponent[idA](w, id)
				check(t, err)
			}
			// As many ids as components: one pass closes the gaps.
			n, err := BulkDeleteComponent[idA](w, ids[1], ids[5], ids[6], ids[7])
			check(t, err)
			if n != 1 {
				t.Fatalf("deleted %d components, want 1", n)
			}
		}, 1},
		{"delete every entity", func(t *testing.T, w *World, ids []EntityID) {
			check(t, DeleteEntities(w, ids...))
		}, 0},
		{"clear", func(t *testing.T, w *World, ids []EntityID) {
			check(t, w.Run(func(v ViewMut[idA]) { v.Clear() }))
		}, 0},
		{"bulk add after the prefix", func(t *testing.T, w *World, ids []EntityID) {
			_, err := BulkAddEntity1(w, make([]idA, 4)) // indices 8..11
			check(t, err)
		}, 12},
		{"a group reorders", func(t *testing.T, w *World, ids []EntityID) {
			_, err := DeleteComponent[idB](w, ids[0])
			check(t, err)
			check(t, AddGroup2[idA, idB](w)) // entity 0 leaves the packed front
		}, 0},
		{"shrink", func(t *testing.T, w *World, ids []EntityID) {
			check(t, w.ShrinkToFit())
		}, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, ids := newWorld(t, 8)
			tc.do(t, w, ids)
			checkLayouts(t, w)
			s := storageFor[idA](w)
			if s.pre.n != tc.want {
				t.Errorf("ident %d, want %d", s.pre.n, tc.want)
			}
			lookupsAgree(t, s, w)
		})
	}
}

// lookupsAgree checks slot against the sparse entries for every slot the
// world issued in generations 0 to 2, a few slots past them, a far index
// and NullID.
func lookupsAgree[T any](t *testing.T, s *sparseSet[T], w *World) {
	t.Helper()
	slots := len(w.ents.slots) + 4
	probe := make([]EntityID, 0, 3+3*slots)
	probe = append(probe, NullID, newEntityID(1<<20, 0), newEntityID(3, 5))
	for i := range slots { // every slot issued, and a few more
		for g := range uint32(3) {
			probe = append(probe, newEntityID(uint32(i), g))
		}
	}
	at := make(map[EntityID]int, len(s.dense)) // the reference: where each id is
	for i, id := range s.dense {
		at[id] = i
	}
	pos := func(id EntityID) int {
		if i, ok := at[id]; ok {
			return i
		}
		return -1
	}
	for _, id := range probe {
		if got := s.pos(id); got != pos(id) {
			t.Errorf("pos(%v) = %d, want %d", id, got, pos(id))
		}
		want := uint64(pos(id))
		if pos(id) < 0 {
			want = math.MaxUint64
		}
		got := s.slot(id)
		if got >= uint64(len(s.dense)) {
			got = math.MaxUint64
		}
		if got != want {
			t.Errorf("slot(%v) = %d, pos says %d", id, got, want)
		}
	}
	// A View answers from its copy of the storage's layout: the same
	// components, at the same addresses.
	var v View[T]
	release, err := w.Borrow(&v)
	check(t, err)
	defer release()
	for _, id := range probe {
		var want *T
		if k := pos(id); k >= 0 {
			want = &s.data[k]
			if got := v.MustGet(id); got != want {
				t.Errorf("View.MustGet(%v) = %p, want %p", id, got, want)
			}
		}
		if got, ok := v.Get(id); got != want || ok != (want != nil) {
			t.Errorf("View.Get(%v) = %p, %v; want %p", id, got, ok, want)
		}
	}
	// Lookup yields the probed ids that have a component, in order, each
	// with its component (compared as it goes: this runs after every step
	// of FuzzIdentityPrefix, and collecting the results made it slow).
	next := 0 // the position in probe of the next id Lookup must yield
	skip := func() {
		for next < len(probe) && pos(probe[next]) < 0 {
			next++
		}
	}
	for id, p := range v.Lookup(probe) {
		if skip(); next == len(probe) || probe[next] != id || p != &s.data[pos(id)] {
			t.Errorf("View.Lookup yielded %v at %p out of turn", id, p)
			return
		}
		next++
	}
	if skip(); next != len(probe) {
		t.Errorf("View.Lookup ended before %v", probe[next])
	}
}

func check(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestLayoutErrorCatches makes sure the checker fails on the layouts it
// guards against.
func TestLayoutErrorCatches(t *testing.T) {
	w := NewWorld()
	for i := range 3 {
		_, err := AddEntity1(w, idA{i})
		check(t, err)
	}
	s := storageFor[idA](w)
	if err := s.layoutError(); err != nil {
		t.Fatal(err)
	}
	s.pre.n = 4
	if err := s.layoutError(); err == nil {
		t.Error("ident past the components passed")
	}
	s.pre.n = 3
	s.dense[0], s.dense[1] = s.dense[1], s.dense[0]
	if err := s.layoutError(); err == nil {
		t.Error("a swapped prefix passed")
	}
	s.dense[0], s.dense[1] = s.dense[1], s.dense[0]
	s.dense[2] = newEntityID(2, 1)
	if err := s.layoutError(); err == nil {
		t.Error("a prefix with a generation out of step passed")
	}
}

// TestIdentityPrefixInSystems: entities created one at a time in a system,
// with the checked and the unchecked add, extend the prefix as the
// world-level calls do.
func TestIdentityPrefixInSystems(t *testing.T) {
	w := NewWorld()
	check(t, w.Run(func(ents EntitiesViewMut, a ViewMut[idA], b ViewMut[idB]) error {
		for i := range 3000 { // past a few growths of the arrays
			id := ents.AddEntity()
			if err := a.AddComponent(ents, id, idA{i}); err != nil {
				return err
			}
			if err := b.AddComponentUnchecked(id, idB{i}); err != nil {
				return err
			}
		}
		return nil
	}))
	checkLayouts(t, w)
	if a, b := storageFor[idA](w).pre.n, storageFor[idB](w).pre.n; a != 3000 || b != 3000 {
		t.Errorf("ident %d and %d, want 3000", a, b)
	}
	lookupsAgree(t, storageFor[idA](w), w)
}

// TestBulkInsertExtendsIdentity: the bulk insertions extend the identity
// prefix over the ids in step with their positions, whether they come as
// runs or one by one, and stop at the first id out of step.
func TestBulkInsertExtendsIdentity(t *testing.T) {
	// gen returns the ids of idx in generation g; ids, in generation 0.
	gen := func(g uint32, idx ...uint32) []EntityID {
		out := make([]EntityID, len(idx))
		for i, x := range idx {
			out[i] = newEntityID(x, g)
		}
		return out
	}
	ids := func(idx ...uint32) []EntityID { return gen(0, idx...) }
	for _, tc := range []struct {
		name      string
		have, add []EntityID
		want      uint64
	}{
		{"a run in step", ids(0, 1, 2, 3), ids(4, 5, 6), 7},
		{"one id in step", ids(0, 1, 2, 3), ids(4), 5},
		{"ids in step, not a run", ids(0, 1, 2, 3), ids(4, 5, 9, 7), 4},
		{"a run out of step", ids(0, 1, 2, 3), ids(5, 6), 4},
		{"a descending run", ids(0, 1, 2, 3), ids(6, 5, 4), 4},
		{"two runs, the second out of step", ids(0, 1, 2, 3), ids(4, 5, 7, 8), 4},
		{"a run that starts out of step", ids(0, 1, 2, 3), ids(3000, 4, 5), 4},
		{"the prefix does not reach the end", ids(1, 0), ids(2, 3), 0},
		{"into an empty storage", nil, ids(0, 1, 2, 3, 4), 5},
		{"a repeat stops the fast path", ids(0, 1), ids(2, 3, 3, 4), 2},
		{"a generation out of step", ids(0, 1), append(ids(2), gen(1, 3)...), 2},
		{"a run of another generation", ids(0, 1), gen(1, 2, 3), 2},
		{"into an empty storage, a later generation", nil, gen(2, 0, 1, 2), 3},
		{"into an empty storage, not from index 0", nil, ids(1, 2, 3), 0},
		{"one id into an empty storage", nil, ids(0), 1},
		{"one id of a later generation into an empty storage", nil, gen(5, 0), 1},
		{"an id the prefix holds, of a later generation", ids(0, 1, 2, 3), gen(1, 2, 4), 2},
		{"an id the prefix holds, of an earlier generation", gen(1, 0, 1, 2), ids(1, 3), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer SetBulkParallelMin(1)()
			for _, many := range []func(*sparseSet[idA], []EntityID, []idA){
				(*sparseSet[idA]).insertMany, (*sparseSet[idA]).insertManyAlone, (*sparseSet[idA]).bulkInsert,
			} {
				s := newSparseSet[idA]()
				for _, id := range tc.have {
					s.insert(id, idA{})
				}
				many(s, tc.add, make([]idA, len(tc.add)))
				if err := s.layoutError(); err != nil {
					t.Fatal(err)
				}
				if s.pre.n != tc.want {
					t.Errorf("ident %d, want %d", s.pre.n, tc.want)
				}
			}
		})
	}
}

// iMaxIDs and iMaxSteps bound one input of FuzzIdentityPrefix.
const (
	iMaxIDs   = 2100
	iMaxSteps = 600
)

// FuzzIdentityPrefix drives a world through random insertions, removals,
// deletions (dead entities' components left behind among them, and taken
// over by the next entity in their slot), bulk calls, a group and
// compaction, and after every step checks each storage's identity prefix
// against its dense ids (layoutError) and every lookup through the prefix
// against the sparse entries, which do not depend on it (lookupsAgree).
// The world models in fuzz_test.go check what the lookups return; this
// checks the prefix on paths those models do not take.
//
// An input runs for at most iMaxSteps steps and issues at most iMaxIDs ids
// (enough to pass two sparse pages, of 1,024 indices): each step checks
// every id, so a longer input would take ever longer (one from this
// machine's fuzz cache took 1.2 s uninstrumented), toward the 10 s Go's
// fuzzer allows one input.
func FuzzIdentityPrefix(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 5, 0, 0, 2, 1, 0, 0})
	f.Add([]byte{7, 4, 0, 0, 0, 5, 3, 0, 1, 6, 0, 0, 8, 2, 9, 0, 0, 0})
	f.Add([]byte{4, 8, 0, 1, 0, 3, 2, 5, 5, 0, 10, 0, 0, 11, 6, 1})
	f.Fuzz(func(t *testing.T, ops []byte) {
		ops = ops[:min(len(ops), 2*iMaxSteps)]
		w := NewWorld()
		var ids []EntityID // every id issued, dead ones included
		pick := func(k byte) EntityID {
			if len(ids) == 0 {
				return newEntityID(uint32(k), 0)
			}
			return ids[int(k)%len(ids)]
		}
		// liveFrom returns up to 8 live ids, the first from ids[k] on.
		liveFrom := func(k byte) []EntityID {
			var live []EntityID
			for i := int(k) % (len(ids) + 1); i < len(ids) && len(live) < 8; i++ {
				if w.IsAlive(ids[i]) {
					live = append(live, ids[i])
				}
			}
			return live
		}
		grouped := false
		for i := 0; i+1 < len(ops); i += 2 {
			op, arg := ops[i]%12, ops[i+1]
			if creates := op <= 1 || op == 6 || op == 7; creates && len(ids) >= iMaxIDs {
				continue
			}
			id := pick(arg)
			switch op {
			case 0: // a new entity with both components
				id, err := AddEntity2(w, idA{len(ids)}, idB{len(ids)})
				check(t, err)
				ids = append(ids, id)
			case 1: // a new entity with idB only: the next idA is out of step
				id, err := AddEntity1(w, idB{len(ids)})
				check(t, err)
				ids = append(ids, id)
			case 2: // add (or replace) idA
				if w.IsAlive(id) {
					check(t, AddComponent1(w, id, idA{int(arg)}))
				}
			case 3: // remove idA
				if w.IsAlive(id) {
					_, err := DeleteComponent[idA](w, id)
					check(t, err)
				}
			case 4: // delete the entity and its components
				if w.IsAlive(id) {
					check(t, w.DeleteEntity(id))
				}
			case 5: // delete the entity only: its components stay behind
				check(t, w.Run(func(ents EntitiesViewMut) { ents.DeleteUnchecked(id) }))
			case 6: // a new entity in a freed slot takes over leftovers
				check(t, w.Run(func(ents EntitiesViewMut, a ViewMut[idA]) error {
					id := ents.AddEntity()
					ids = append(ids, id)
					return a.AddComponent(ents, id, idA{len(ids)})
				}))
			case 7: // bulk creation
				n := min(int(arg%16)+1, iMaxIDs-len(ids))
				got, err := BulkAddEntity2(w, make([]idA, n), make([]idB, n))
				check(t, err)
				ids = append(ids, got...)
			case 8: // bulk deletion
				check(t, DeleteEntities(w, liveFrom(arg)...))
			case 9: // a group over both storages reorders them
				if !grouped {
					check(t, AddGroup2[idA, idB](w))
					grouped = true
				}
			case 10: // bulk removal of idA
				_, err := BulkDeleteComponent[idA](w, liveFrom(arg)...)
				check(t, err)
			default:
				check(t, w.ShrinkToFit())
			}
			checkLayouts(t, w)
			lookupsAgree(t, storageFor[idA](w), w)
			lookupsAgree(t, storageFor[idB](w), w)
		}
	})
}
