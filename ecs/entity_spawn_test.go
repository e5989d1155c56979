package ecs_test

// Entities created at a given id (World.SpawnAt and its view forms), and
// the order in which freed indices are reused.

import (
	"errors"
	"math"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

type spPos struct{ X int }

// liveIDs lists w's live entities in index order.
func liveIDs(t *testing.T, w *ecs.World) []ecs.EntityID {
	t.Helper()
	var ids []ecs.EntityID
	must(t, w.Run(func(e ecs.EntitiesView) {
		for id := range e.All() {
			ids = append(ids, id)
		}
	}))
	return ids
}

func TestNewEntityID(t *testing.T) {
	for _, c := range []struct {
		i, g uint32
		null bool
	}{{0, 0, false}, {7, 3, false}, {math.MaxUint32, math.MaxUint32, true}, {math.MaxUint32, 0, false}, {0, math.MaxUint32, false}} {
		id := ecs.NewEntityID(c.i, c.g)
		equal(t, "Index", id.Index(), c.i)
		equal(t, "Generation", id.Generation(), c.g)
		equal(t, "IsNull", id.IsNull(), c.null)
	}
	w := ecs.NewWorld()
	id, _ := w.AddEntity()
	equal(t, "the first entity", id, ecs.NewEntityID(0, 0))
}

// TestFreedIndicesLastInFirstOut checks the documented reuse order: the
// index freed last is taken first, with its generation bumped; bulk
// creation takes them in the same order.
func TestFreedIndicesLastInFirstOut(t *testing.T) {
	for _, bulk := range []bool{false, true} {
		w := ecs.NewWorld()
		var ids []ecs.EntityID
		for range 5 {
			id, _ := w.AddEntity()
			ids = append(ids, id)
		}
		for _, k := range []int{1, 3, 0} {
			must(t, w.DeleteEntity(ids[k]))
		}
		var got []ecs.EntityID
		if bulk {
			must(t, w.Run(func(e ecs.EntitiesViewMut) { got = e.BulkAddEntity(nil, 4) }))
		} else {
			for range 4 {
				id, _ := w.AddEntity()
				got = append(got, id)
			}
		}
		want := []ecs.EntityID{ecs.NewEntityID(0, 1), ecs.NewEntityID(3, 1), ecs.NewEntityID(1, 1), ecs.NewEntityID(5, 0)}
		deepEqual(t, "reuse order", got, want)
	}
}

func TestSpawnAt(t *testing.T) {
	w := ecs.NewWorld()
	must(t, w.SpawnAt(ecs.NewEntityID(3, 7)))
	isTrue(t, w.IsAlive(ecs.NewEntityID(3, 7)), "spawned id alive")
	isTrue(t, !w.IsAlive(ecs.NewEntityID(3, 6)), "other generation dead")
	equal(t, "count", w.EntityCount(), 1)
	// The gap 0..2 is free, lowest first; index 3 is never handed out.
	var got []ecs.EntityID
	for range 4 {
		id, _ := w.AddEntity()
		got = append(got, id)
	}
	deepEqual(t, "creations after a spawn past the slots", got, []ecs.EntityID{
		ecs.NewEntityID(0, 0), ecs.NewEntityID(1, 0), ecs.NewEntityID(2, 0), ecs.NewEntityID(4, 0)})
	// Deleting the spawned entity frees its index with the next generation.
	must(t, w.DeleteEntity(ecs.NewEntityID(3, 7)))
	id, _ := w.AddEntity()
	equal(t, "reuse after the spawned entity dies", id, ecs.NewEntityID(3, 8))
}

func TestSpawnAtFreedIndex(t *testing.T) {
	w := ecs.NewWorld()
	var ids []ecs.EntityID
	for range 4 {
		id, _ := ecs.AddEntity1(w, spPos{1})
		ids = append(ids, id)
	}
	for _, id := range ids {
		must(t, w.DeleteEntity(id))
	}
	// Free list, top first: 3, 2, 1, 0, all at generation 1. Spawning 1
	// at a later generation takes it off the list.
	must(t, w.SpawnAt(ecs.NewEntityID(1, 5)))
	must(t, ecs.AddComponent1(w, ecs.NewEntityID(1, 5), spPos{9}))
	got, err := ecs.BulkAddEntity1(w, []spPos{{}, {}, {}, {}})
	must(t, err)
	deepEqual(t, "bulk creation skips the spawned index", got, []ecs.EntityID{
		ecs.NewEntityID(3, 1), ecs.NewEntityID(2, 1), ecs.NewEntityID(0, 1), ecs.NewEntityID(4, 0)})
	p, err := ecs.Get[spPos](w, ecs.NewEntityID(1, 5))
	must(t, err)
	equal(t, "spawned entity's component", p.X, 9)
	// The same generation as the freed slot's is allowed: no id of it was
	// ever handed out.
	must(t, w.DeleteEntity(ecs.NewEntityID(2, 1)))
	must(t, w.SpawnAt(ecs.NewEntityID(2, 2)))
}

func TestSpawnAtFarIndex(t *testing.T) {
	const far = 1 << 20
	w := ecs.NewWorld()
	must(t, w.SpawnAt(ecs.NewEntityID(far, 0)))
	must(t, w.SpawnAt(ecs.NewEntityID(far/2, 3)))
	// Bulk creation (parallel above its threshold) takes the rest of the
	// gap, lowest first, and then new slots: never the spawned ids.
	var got []ecs.EntityID
	must(t, w.Run(func(e ecs.EntitiesViewMut) { got = e.BulkAddEntity(nil, far+1) }))
	seen := make(map[ecs.EntityID]bool, len(got))
	for k, id := range got {
		if seen[id] || id.Index() == far || id.Index() == far/2 {
			t.Fatalf("creation %d handed out %v twice or a spawned index", k, id)
		}
		seen[id] = true
	}
	equal(t, "first", got[0], ecs.NewEntityID(0, 0))
	equal(t, "after the gap", got[far-1], ecs.NewEntityID(far+1, 0))
	equal(t, "count", w.EntityCount(), far+3)
	ids, err := ecs.BulkAddEntity1(w, make([]spPos, 3))
	must(t, err)
	equal(t, "BulkAddEntity1 after the gap", ids[0], ecs.NewEntityID(far+3, 0))
}

func TestSpawnAtRefused(t *testing.T) {
	w := ecs.NewWorld()
	live, _ := ecs.AddEntity1(w, spPos{1})
	dead, _ := w.AddEntity()
	must(t, w.DeleteEntity(dead)) // index 1 free at generation 1
	retiredID := ecs.NewEntityID(2, math.MaxInt32)
	must(t, w.SpawnAt(retiredID))
	must(t, w.DeleteEntity(retiredID)) // index 2 retired
	for _, c := range []struct {
		name string
		id   ecs.EntityID
		live ecs.EntityID
		why  string
	}{
		{"live index, same id", live, live, "holds the live entity EntityID(0.0)"},
		{"live index, other generation", ecs.NewEntityID(0, 4), live, "holds the live entity EntityID(0.0)"},
		{"NullID", ecs.NullID, ecs.NullID, "NullID is never alive"},
		{"reserved index", ecs.NewEntityID(math.MaxUint32, 0), ecs.NullID, "reserved for NullID"},
		{"alive bit", ecs.NewEntityID(5, 1<<31), ecs.NullID, "generation above"},
		{"older generation", ecs.NewEntityID(1, 0), ecs.NullID, "freed at generation 1"},
		{"retired index", retiredID, ecs.NullID, "retired"},
		// 3 slots in use: index 3+1<<24 would cost 128 MiB, one less is allowed.
		{"beyond reach", ecs.NewEntityID(3+1<<24, 0), ecs.NullID, "16,777,216 or more past the last slot (3 slots)"},
		{"far beyond reach", ecs.NewEntityID(math.MaxUint32-1, 0), ecs.NullID, "past the last slot"},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := liveIDs(t, w)
			err := w.SpawnAt(c.id)
			errIs(t, err, ecs.ErrSpawnRefused)
			isTrue(t, !errors.Is(err, ecs.ErrDeadEntity), "not a dead-entity error: %v", err)
			se := errAs[*ecs.SpawnError](t, err)
			equal(t, "ID", se.ID, c.id)
			equal(t, "Live", se.Live, c.live)
			errHas(t, err, "World.SpawnAt", c.why)
			deepEqual(t, "live entities unchanged", liveIDs(t, w), before)
		})
	}
	// Nothing changed: the next creation takes index 1, the only free one.
	id, _ := w.AddEntity()
	equal(t, "free list unchanged", id, ecs.NewEntityID(1, 1))
	id, _ = w.AddEntity()
	equal(t, "then a new slot", id, ecs.NewEntityID(3, 0))
}

func TestSpawnAtThroughViews(t *testing.T) {
	w := ecs.NewWorld()
	must(t, w.Run(func(e ecs.EntitiesViewMut, v ecs.ViewMut[spPos]) error {
		id := ecs.NewEntityID(2, 1)
		if err := e.SpawnAt(id); err != nil {
			return err
		}
		err := e.SpawnAt(id)
		errHas(t, err, "EntitiesViewMut.SpawnAt", "live entity EntityID(2.1)")
		return v.AddComponent(e, id, spPos{5})
	}))
	must(t, w.Run(func(a ecs.AllStoragesViewMut) error {
		if err := ecs.SpawnAt(a, ecs.NewEntityID(0, 2)); err != nil {
			return err
		}
		errHas(t, ecs.SpawnAt(a, ecs.NewEntityID(0, 2)), "SpawnAt", "live entity")
		return nil
	}))
	deepEqual(t, "live", liveIDs(t, w), []ecs.EntityID{ecs.NewEntityID(0, 2), ecs.NewEntityID(2, 1)})
	var nilWorld *ecs.World
	errIs(t, nilWorld.SpawnAt(0), ecs.ErrNilWorld)
	errIs(t, ecs.SpawnAt(nil, 0), ecs.ErrNilWorld)
	// Borrowed elsewhere: a borrow error, nothing spawned.
	must(t, w.Run(func(e ecs.EntitiesView) {
		errIs(t, w.SpawnAt(ecs.NewEntityID(9, 0)), ecs.ErrBorrowConflict)
	}))
	isTrue(t, !w.IsAlive(ecs.NewEntityID(9, 0)), "nothing spawned under a borrow")
}
