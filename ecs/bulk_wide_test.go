package ecs_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// Wide bulk deletes: DeleteAny and DeleteEntities over entities whose ids
// form a run (consecutive indices of one generation, as bulk creation
// hands them out). The storages those entities make up go whole, those
// they make up in part and that hold no more components than there are
// ids are swept by the run's entries, and the others delete id by id.
// Every case must leave the world as deleting the entities one by one
// does (bkSame: components, tracking logs, and the ids handed out next),
// with every storage's layout sound.

// wdWorld builds the same world into a and b (one for the bulk call, one
// for the one-by-one deletion) and returns the ids the builder names.
type wdWorld func(t *testing.T, w *ecs.World) []ecs.EntityID

// wdBulk creates n entities with the components of mask (1 bkPos, 2
// bkVel, 4 bkTag, 8 bkName, 16 bkLife) in one call per type after the
// first, and returns their ids in the order they were created.
func wdBulk(t *testing.T, w *ecs.World, n, mask, k int) []ecs.EntityID {
	t.Helper()
	var ids []ecs.EntityID
	var err error
	must(t, w.Run(func(ents ecs.EntitiesViewMut) { ids = ents.BulkAddEntity(nil, n) }))
	if mask&1 != 0 {
		err = firstErr(err, ecs.BulkAddComponent1(w, ids, bkVals(n, func(i int) bkPos { return bkPos{float64(k + i), 1} })))
	}
	if mask&2 != 0 {
		err = firstErr(err, ecs.BulkAddComponent1(w, ids, bkVals(n, func(i int) bkVel { return bkVel{1, float64(k + i)} })))
	}
	if mask&4 != 0 {
		err = firstErr(err, ecs.BulkAddComponent1(w, ids, make([]bkTag, n)))
	}
	if mask&8 != 0 {
		err = firstErr(err, ecs.BulkAddComponent1(w, ids, bkVals(n, func(i int) bkName { return bkName{fmt.Sprint("n", k+i)} })))
	}
	if mask&16 != 0 {
		err = firstErr(err, ecs.BulkAddComponent1(w, ids, bkVals(n, func(i int) bkLife { return bkLife{k + i} })))
	}
	must(t, err)
	return ids
}

// wdRecycled creates n entities with mask and deletes them in creation
// order, so that the next n entities come in the reverse index order, in
// the next generation: storages of sparse entries, not identity prefixes.
func wdRecycled(t *testing.T, w *ecs.World, n, mask int) {
	t.Helper()
	must(t, w.DeleteEntities(wdBulk(t, w, n, mask, 0)...))
}

// wdFresh creates n entities with mask: in a new world, identity prefixes.
func wdFresh(n, mask int) wdWorld {
	return func(t *testing.T, w *ecs.World) []ecs.EntityID { return wdBulk(t, w, n, mask, 0) }
}

// wdDown is wdFresh after a round of creation and deletion: the ids run
// down, in the next generation, and the storages hold sparse entries.
func wdDown(n, mask int) wdWorld {
	return func(t *testing.T, w *ecs.World) []ecs.EntityID {
		wdRecycled(t, w, n, mask)
		return wdBulk(t, w, n, mask, 100)
	}
}

// wdDel deletes the ids a world names with one bulk call, and one by one.
type wdDel struct {
	bulk func(w *ecs.World, ids []ecs.EntityID) error
	one  func(t *testing.T, w *ecs.World, ids []ecs.EntityID)
}

// wdCase is a world and a deletion.
type wdCase struct {
	name  string
	world wdWorld
	del   wdDel
}

// wdEntities deletes ids with DeleteEntities, given as pick makes them.
func wdEntities(pick func([]ecs.EntityID) []ecs.EntityID) wdDel {
	return wdDel{func(w *ecs.World, ids []ecs.EntityID) error { return w.DeleteEntities(pick(ids)...) },
		func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
			seen := map[ecs.EntityID]bool{}
			for _, id := range pick(ids) {
				if !seen[id] {
					seen[id] = true
					must(t, w.DeleteEntity(id))
				}
			}
		}}
}

// wdAny deletes with DeleteAny[T]: one by one, that is every entity of
// T's storage from the last (DeleteAny's documented order), checking the
// count.
func wdAny[T any]() wdDel {
	return wdDel{func(w *ecs.World, _ []ecs.EntityID) error {
		want := len(ecs.OrderOf[T](w))
		n, err := ecs.DeleteAny[T](w)
		if err == nil && n != want {
			return fmt.Errorf("DeleteAny deleted %d entities, want %d", n, want)
		}
		return err
	}, func(t *testing.T, w *ecs.World, _ []ecs.EntityID) {
		ids := ecs.OrderOf[T](w)
		for i := len(ids) - 1; i >= 0; i-- {
			must(t, w.DeleteEntity(ids[i]))
		}
	}}
}

func same(ids []ecs.EntityID) []ecs.EntityID { return ids }

func reversed(ids []ecs.EntityID) []ecs.EntityID {
	r := slices.Clone(ids)
	slices.Reverse(r)
	return r
}

func TestWideDeletesMatchOneByOne(t *testing.T) {
	const n = 2500 // runs across sparse pages
	var cases []wdCase
	add := func(name string, world wdWorld, del wdDel) {
		cases = append(cases, wdCase{name, world, del})
	}
	for _, shape := range []struct {
		name  string
		world func(n, mask int) wdWorld
	}{{"identity prefixes", wdFresh}, {"sparse entries", wdDown}} {
		// Every holder of bkPos holds bkVel and bkTag, and nothing else
		// holds them: three whole storages.
		for _, size := range []int{1, 5, n} {
			name := fmt.Sprintf("whole, %s, n=%d", shape.name, size)
			add(name+", DeleteAny", shape.world(size, 7), wdAny[bkPos]())
			add(name+", DeleteEntities up", shape.world(size, 7), wdEntities(same))
			add(name+", DeleteEntities down", shape.world(size, 7), wdEntities(reversed))
		}
		// bkName holds pointers: what is cut off is cleared.
		add("whole with pointers, "+shape.name, shape.world(n, 1|8), wdEntities(same))
		// Half the run: no storage is whole, none is swept.
		add("partial, half the run, "+shape.name, shape.world(n, 7), wdEntities(func(ids []ecs.EntityID) []ecs.EntityID { return ids[:n/2] }))
		// bkLife tracks everything: its storage deletes id by id and logs
		// the deletions in the order one-by-one deletion does.
		add("tracked, "+shape.name, shape.world(n, 1|16), wdAny[bkPos]())
		add("tracked, DeleteEntities, "+shape.name, shape.world(n, 1|16), wdEntities(reversed))
	}
	// One storage whole, one swept in part (it holds an entity of
	// another run), one holding more than the run (id by id), one the
	// run does not reach.
	mixed := func(t *testing.T, w *ecs.World) []ecs.EntityID {
		ids := wdBulk(t, w, n, 1|4, 0)
		other := wdBulk(t, w, 3, 2|8, n)
		must(t, ecs.BulkAddComponent1(w, ids[:n-10], make([]bkVel, n-10)))
		must(t, ecs.BulkAddComponent1(w, ids, bkVals(n, func(i int) bkName { return bkName{fmt.Sprint(i)} })))
		must(t, ecs.BulkAddComponent1(w, other[:1], []bkLife{{7}}))
		return ids
	}
	add("mixed, DeleteEntities", mixed, wdEntities(same))
	add("mixed, DeleteAny", mixed, wdAny[bkTag]())
	// A storage swept in part, whose identity prefix reaches past the
	// run: the prefix keeps its entities before the run.
	add("prefix past the run", func(t *testing.T, w *ecs.World) []ecs.EntityID {
		ids := wdBulk(t, w, 15, 1, 0)
		must(t, ecs.BulkAddComponent1(w, ids[:10], make([]bkVel, 10)))
		return ids[5:]
	}, wdEntities(same))
	// A storage swept in part whose identity prefix the run covers, and
	// whose entity out of the run has a sparse entry.
	add("prefix covered, entry kept", func(t *testing.T, w *ecs.World) []ecs.EntityID {
		ids := wdBulk(t, w, n, 1, 0)
		must(t, ecs.BulkAddComponent1(w, ids[:n-2], make([]bkVel, n-2)))
		must(t, w.DeleteEntity(ids[n-1]))
		wdBulk(t, w, 1, 2, 9) // takes index n-1 back, in bkVel only
		return ids[:n-1]
	}, wdEntities(same))
	// Runs in a group's storages: the group keeps them on the
	// per-element path.
	add("grouped", func(t *testing.T, w *ecs.World) []ecs.EntityID {
		must(t, ecs.AddGroup2[bkPos, bkVel](w))
		return wdBulk(t, w, n, 7, 0)
	}, wdAny[bkTag]())
	// A dead entity's component stored with AddComponentUnchecked under
	// an older generation of an index of the run stays (DeleteEntities),
	// and goes with its storage's other entities (DeleteAny).
	leftover := func(t *testing.T, w *ecs.World) []ecs.EntityID {
		old := wdBulk(t, w, 3, 0, 0)
		must(t, w.DeleteEntities(old[2], old[1]))
		withViewMut(t, w, func(v ecs.ViewMut[bkTag]) { must(t, v.AddComponentUnchecked(old[1], bkTag{})) })
		must(t, w.DeleteEntities(old[0]))
		return wdBulk(t, w, 3, 1|2, 0) // indices 0, 1, 2 of the next generation
	}
	add("leftover of an older generation, DeleteEntities", leftover, wdEntities(same))
	// Dead entities' components, stored with AddComponentUnchecked in
	// order, make an identity prefix of an older generation over the
	// run's indices: they stay.
	add("leftovers in a prefix of an older generation", func(t *testing.T, w *ecs.World) []ecs.EntityID {
		old := wdBulk(t, w, 5, 0, 0)
		must(t, w.DeleteEntities(reversed(old)...))
		withViewMut(t, w, func(v ecs.ViewMut[bkTag]) {
			for _, id := range old {
				must(t, v.AddComponentUnchecked(id, bkTag{}))
			}
		})
		return wdBulk(t, w, 5, 1|2, 0) // indices 0 … 4 of the next generation
	}, wdEntities(same))
	// Components DeleteUnchecked left behind are purged first, as a run.
	add("DeleteUnchecked leftovers purged first", func(t *testing.T, w *ecs.World) []ecs.EntityID {
		ids := wdBulk(t, w, n, 7, 0)
		must(t, w.Run(func(ents ecs.EntitiesViewMut) {
			for _, id := range ids[n/2:] {
				ents.DeleteUnchecked(id)
			}
		}))
		return ids[:n/2]
	}, wdEntities(same))
	// Repeated ids form no run, and take the id-by-id path.
	add("repeated ids", wdFresh(n, 7), wdEntities(func(ids []ecs.EntityID) []ecs.EntityID {
		return append(slices.Clone(ids), ids[3])
	}))
	for _, mode := range bkModes {
		for _, c := range cases {
			t.Run(c.name+mode.name, func(t *testing.T) {
				defer ecs.SetBulkParallelMin(mode.min)()
				a, b := ecs.NewWorld(), ecs.NewWorld()
				ids := c.world(t, a)
				c.world(t, b)
				must(t, w0(t, a, func() error { return c.del.bulk(a, ids) }))
				must(t, w0(t, b, func() error { c.del.one(t, b, ids); return nil }))
				must(t, ecs.CheckLayouts(a))
				bkSame(t, a, b)
			})
		}
	}
}

// w0 runs f, after starting the tracking windows of w, so that the
// deletion logs hold only the call's.
func w0(t *testing.T, w *ecs.World, f func() error) error {
	t.Helper()
	must(t, w.Run(func(l ecs.ViewMut[bkLife]) {
		l.ClearAllInsertedAndModified()
		l.ClearAllRemovedAndDeleted()
	}))
	return f()
}

// A run holding a dead id is refused, naming it, and changes nothing;
// through DeleteAny the storages' own dead ids (their components under a
// dead id) go with the rest, uncounted.
func TestWideDeletesDeadIDs(t *testing.T) {
	for _, mode := range bkModes {
		t.Run("DeleteEntities"+mode.name, func(t *testing.T) {
			defer ecs.SetBulkParallelMin(mode.min)()
			w := ecs.NewWorld()
			ids := wdBulk(t, w, 40, 7, 0)
			must(t, w.DeleteEntity(ids[39]))
			before := bkSnap(t, w)
			err := w.DeleteEntities(ids...)
			errIs(t, err, ecs.ErrDeadEntity)
			equal(t, "refused index", errAs[*ecs.BulkError](t, err).Index, 39)
			deepEqual(t, "unchanged", bkSnap(t, w), before)
			equal(t, "entities", w.EntityCount(), 39)
		})
		// The dead entity's components continue the identity prefixes
		// (AddComponentUnchecked): the storages' ids form a run.
		t.Run("DeleteAny"+mode.name, func(t *testing.T) {
			defer ecs.SetBulkParallelMin(mode.min)()
			w := ecs.NewWorld()
			ids := wdBulk(t, w, 40, 0, 0)
			must(t, w.DeleteEntities(ids[10]))
			for i, id := range ids {
				withViewMut(t, w, func(v ecs.ViewMut[bkPos]) { must(t, v.AddComponentUnchecked(id, bkPos{float64(i), 0})) })
				withViewMut(t, w, func(v ecs.ViewMut[bkVel]) { must(t, v.AddComponentUnchecked(id, bkVel{})) })
			}
			if got := ecs.OrderOf[bkPos](w); !slices.Equal(got, ids) {
				t.Fatalf("bkPos holds %v, want %v", got, ids)
			}
			n, err := ecs.DeleteAny[bkPos](w)
			must(t, err)
			equal(t, "deleted", n, 39)
			equal(t, "entities", w.EntityCount(), 0)
			equal(t, "bkPos left", len(ecs.OrderOf[bkPos](w)), 0)
			equal(t, "bkVel left", len(ecs.OrderOf[bkVel](w)), 0)
			must(t, ecs.CheckLayouts(w))
			// The live ones' slots come back in storage order, then the
			// dead one's, freed when it was deleted.
			want := append(slices.Concat(ids[:10], ids[11:]), ids[10])
			for i, id := range wdBulk(t, w, 40, 0, 0) {
				equal(t, "index of the new entity", id.Index(), want[i].Index())
			}
		})
	}
}

// Inside an Each through an AllStoragesViewMut, DeleteAny is refused
// whatever the storages, and changes nothing.
func TestWideDeleteAnyInEach(t *testing.T) {
	w := ecs.NewWorld()
	wdBulk(t, w, 30, 7, 0)
	before := bkSnap(t, w)
	must(t, w.Run(func(all ecs.AllStoragesViewMut) {
		must(t, ecs.Each1(all, func(ecs.EntityID, *bkVel) {
			_, err := ecs.DeleteAny[bkPos](all)
			errIs(t, err, ecs.ErrIterating)
		}))
	}))
	deepEqual(t, "unchanged", bkSnap(t, w), before)
}
