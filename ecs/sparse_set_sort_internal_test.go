package ecs

import (
	"cmp"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

// The storages of the random test below: one plain (identity prefix),
// one tracking everything, and a group of two, one of them tracked.
type (
	srtPlain struct{ V int }
	srtTrack struct{ V int }
	srtG1    struct{ V int }
	srtG2    struct{ V int }
)

func (srtTrack) Tracking() Tracking { return TrackAll }
func (srtG2) Tracking() Tracking    { return TrackInsertion | TrackModification }

// srtStamps is what tracking holds for one entity's component.
type srtStamps struct{ ins, mod uint64 }

// stampsByID returns each entity's timestamps in s, to check that they
// move with their entities.
func stampsByID[T any](s *sparseSet[T]) map[EntityID]srtStamps {
	m := map[EntityID]srtStamps{}
	if s.track == nil {
		return m
	}
	for i, id := range s.dense {
		var st srtStamps
		if s.track.kinds&TrackInsertion != 0 {
			st.ins = s.track.insertedAt[i]
		}
		if s.track.kinds&TrackModification != 0 {
			st.mod = s.track.modifiedAt[i]
		}
		m[id] = st
	}
	return m
}

// summaryError reports the first block summary of s that does not
// describe its modification timestamps (see modSummary), or nil.
func summaryError[T any](s *sparseSet[T]) error {
	t := s.track
	if t == nil || t.kinds&TrackModification == 0 {
		return nil
	}
	if len(t.modifiedAt) != len(s.dense) || len(t.modBlock) != blocks(len(s.dense)) {
		return fmt.Errorf("%s: %d timestamps, %d blocks, %d components", s.name, len(t.modifiedAt), len(t.modBlock), len(s.dense))
	}
	for i, ts := range t.modifiedAt {
		b := t.modBlock[i>>3]
		if b.at&(1<<(i&7)) != 0 && ts != b.max || b.at&(1<<(i&7)) == 0 && newer(ts, b.rest) {
			return fmt.Errorf("%s: position %d: timestamp %d, summary %+v", s.name, i, ts, b)
		}
	}
	return nil
}

// TestSortRetainDrainRandom applies random insertions, removals, sorts,
// retains and drains to storages of every kind (identity prefix,
// tracked, grouped), and checks after each step the contents against a
// map, the order a sort or retain promises, the sparse entries and
// identity prefix (layoutError), the tracking summaries, the group's
// packed range, and that every entity kept its timestamps.
func TestSortRetainDrainRandom(t *testing.T) {
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 53))
		w := NewWorld()
		if err := AddGroup2[srtG1, srtG2](w); err != nil {
			t.Fatal(err)
		}
		var ids []EntityID
		for range 64 {
			id, err := w.AddEntity()
			mustNoErr(t, err)
			ids = append(ids, id)
		}
		sp, st, g1, g2 := storageFor[srtPlain](w), storageFor[srtTrack](w), storageFor[srtG1](w), storageFor[srtG2](w)
		models := []map[EntityID]int{{}, {}, {}, {}}
		for step := range 300 {
			k := rng.IntN(4)
			op := rng.IntN(10)
			what := fmt.Sprintf("seed %d step %d storage %d op %d", seed, step, k, op)
			srtStep(t, w, k, op, rng, ids, models[k])
			for _, err := range []error{sp.layoutError(), st.layoutError(), g1.layoutError(), g2.layoutError(),
				summaryError(st), summaryError(g2)} {
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
			}
			checkGroup(t, g1.pack)
			for k, got := range []map[EntityID]int{srtContents(sp), srtContents(st), srtContents(g1), srtContents(g2)} {
				if !maps.Equal(got, models[k]) {
					t.Fatalf("%s: storage %d holds %v, want %v", what, k, got, models[k])
				}
			}
		}
	}
}

func srtContents[T ~struct{ V int }](s *sparseSet[T]) map[EntityID]int {
	m := map[EntityID]int{}
	for i, id := range s.dense {
		m[id] = vOf(s.data[i])
	}
	return m
}

// vOf returns c's value: Go has no field access on a type parameter.
func vOf[T ~struct{ V int }](c T) int { return struct{ V int }(c).V }

// srtStep applies op to storage k through a ViewMut, and to the model.
func srtStep(t *testing.T, w *World, k, op int, rng *rand.Rand, ids []EntityID, model map[EntityID]int) {
	switch k {
	case 0:
		srtOp[srtPlain](t, w, op, rng, ids, model)
	case 1:
		srtOp[srtTrack](t, w, op, rng, ids, model)
	case 2:
		srtOp[srtG1](t, w, op, rng, ids, model)
	default:
		srtOp[srtG2](t, w, op, rng, ids, model)
	}
}

func srtOp[T ~struct{ V int }](t *testing.T, w *World, op int, rng *rand.Rand, ids []EntityID, model map[EntityID]int) {
	t.Helper()
	var vm ViewMut[T]
	var ents EntitiesView
	release, err := w.Borrow(&ents, &vm)
	mustNoErr(t, err)
	defer release()
	s := vm.store()
	stampsBefore := stampsByID(s)
	mod := rng.IntN(5) + 1
	switch op {
	case 0, 1, 2, 3: // add a few (in index order sometimes, for the prefix)
		start := rng.IntN(len(ids))
		for j := range rng.IntN(6) + 1 {
			id := ids[(start+j)%len(ids)]
			v := rng.IntN(20)
			mustNoErr(t, vm.AddComponent(ents, id, T{v}))
			model[id] = v
		}
		return
	case 4: // remove a few
		for range rng.IntN(4) + 1 {
			id := ids[rng.IntN(len(ids))]
			vm.Remove(id)
			delete(model, id)
		}
		return
	case 5: // sort by a compare function
		before := slices.Clone(s.dense)
		mustNoErr(t, vm.SortFunc(func(a, b *T) int { return cmp.Compare(vOf(*a)%mod, vOf(*b)%mod) }))
		srtCheckOrder(t, s, before, func(v int) int { return v % mod })
	case 6: // sort by a key, descending
		before := slices.Clone(s.dense)
		mustNoErr(t, SortByKey(vm, func(c *T) int { return -vOf(*c) }))
		srtCheckOrder(t, s, before, func(v int) int { return -v })
	case 7, 8: // retain
		before := slices.Clone(s.dense)
		n, err := vm.Retain(func(id EntityID, c *T) bool { return vOf(*c)%mod != 0 })
		mustNoErr(t, err)
		gone := 0
		for id, v := range model {
			if v%mod == 0 {
				delete(model, id)
				gone++
			}
		}
		if n != gone {
			t.Fatalf("Retain deleted %d, want %d", n, gone)
		}
		if s.pack == nil {
			kept := slices.DeleteFunc(before, func(id EntityID) bool { _, ok := model[id]; return !ok })
			if !slices.Equal(s.dense, kept) {
				t.Fatalf("order after Retain %v, want %v", s.dense, kept)
			}
		}
	default: // drain
		before, vals := slices.Clone(s.dense), slices.Clone(s.data)
		gotIDs, gotVals := vm.Drain()
		if !slices.Equal(gotIDs, before) || !slices.Equal(gotVals, vals) || len(s.dense) != 0 {
			t.Fatalf("Drain returned %v %v, want %v %v, and left %d", gotIDs, gotVals, before, vals, len(s.dense))
		}
		clear(model)
	}
	for id, st := range stampsByID(s) {
		if stampsBefore[id] != st {
			t.Fatalf("op %d: %v's timestamps %+v became %+v", op, id, stampsBefore[id], st)
		}
	}
}

// srtCheckOrder checks that s holds the entities of before sorted by the
// key of their value, ties in the order of before; in a group, the
// packed range and the rest each so.
func srtCheckOrder[T ~struct{ V int }](t *testing.T, s *sparseSet[T], before []EntityID, key func(int) int) {
	t.Helper()
	split := 0
	if s.pack != nil {
		split = s.pack.n
	}
	val := func(id EntityID) int { return vOf(s.data[s.pos(id)]) }
	for _, r := range [][2]int{{0, split}, {split, len(before)}} {
		part := slices.Clone(before[r[0]:r[1]])
		want := slices.Clone(part)
		slices.SortStableFunc(want, func(a, b EntityID) int { return cmp.Compare(key(val(a)), key(val(b))) })
		if !slices.Equal(s.dense[r[0]:r[1]], want) {
			t.Fatalf("order %v, want %v", s.dense[r[0]:r[1]], want)
		}
	}
}
