package ecs

import (
	"errors"
	"reflect"
	"slices"
	"testing"
)

// aliveAll says every id is alive, so that AddComponent reaches the
// storage for ids the test makes up.
type aliveAll struct{}

func (aliveAll) IsAlive(EntityID) bool { return true }

// storeSnapshot is what an insertion may change in a storage, compared
// between two worlds.
type storeSnapshot[T any] struct {
	Dense      []EntityID
	Data       []T
	Entries    map[EntityID]uint64
	InsertedAt []uint64
	ModifiedAt []uint64
	GroupLen   int
	Ident      identity // the identity prefix
}

func snapshotOf[T any](s *sparseSet[T], ids []EntityID) storeSnapshot[T] {
	snap := storeSnapshot[T]{
		Dense:    slices.Clone(s.dense),
		Data:     slices.Clone(s.data),
		Entries:  map[EntityID]uint64{},
		GroupLen: -1,
		Ident:    s.pre,
	}
	for _, id := range ids {
		if e := s.entryFor(id); e != nil {
			snap.Entries[id] = *e
		}
	}
	if s.track != nil {
		snap.InsertedAt = slices.Clone(s.track.insertedAt)
		snap.ModifiedAt = slices.Clone(s.track.modifiedAt)
	}
	if s.pack != nil {
		snap.GroupLen = s.pack.n
	}
	return snap
}

// TestAddComponentMatchesInsert: ViewMut.AddComponent,
// AddComponentUnchecked and insert append in line when they can
// (freeEntry, putNew, joinNew) and call insertSlow otherwise; either way the
// storage must end as insertSlow, the general path, leaves it, whatever
// room its arrays have, whatever it tracks and whichever group it is in.
func TestAddComponentMatchesInsert(t *testing.T) {
	id := newEntityID
	// group puts the storages under test (gA, and gT for the tracked
	// runs) in groups.
	group := func(w *World) {
		if err := AddGroup2[gA, gB](w); err != nil {
			t.Fatal(err)
		}
		if err := AddGroup2[gT, gC](w); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		// room is how much capacity the dense and data arrays have past
		// their length (3 components) before the addition.
		denseRoom, dataRoom int
		setup               func(w *World)
		add                 EntityID
	}{
		{"room in both arrays", 4, 4, nil, id(5, 0)},
		{"continues the identity prefix", 4, 4, nil, id(3, 0)},
		{"dense full", 0, 4, nil, id(5, 0)},
		{"data full", 4, 0, nil, id(5, 0)},
		{"both full", 0, 0, nil, id(5, 0)},
		{"new page", 4, 4, nil, id(3*pageSize+7, 0)},
		{"replace", 4, 4, nil, id(1, 0)},
		{"dead entity's leftover", 4, 4, nil, id(1, 2)},
		{"older than the owner", 4, 4, func(w *World) {
			storageFor[gA](w).insert(id(1, 3), gA{})
			storageFor[gT](w).insert(id(1, 3), gT{})
		}, id(1, 2)},
		{"grouped, joins", 4, 4, func(w *World) {
			group(w)
			storageFor[gB](w).insert(id(5, 0), gB{})
			storageFor[gC](w).insert(id(5, 0), gC{})
		}, id(5, 0)},
		{"grouped, stays out", 4, 4, group, id(5, 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addMatchesInsert(t, tc.denseRoom, tc.dataRoom, tc.setup, tc.add, func(i int) gA { return gA{i} })
		})
		t.Run(tc.name+", tracked", func(t *testing.T) {
			addMatchesInsert(t, tc.denseRoom, tc.dataRoom, tc.setup, tc.add, func(i int) gT { return gT{i} })
		})
	}
	t.Run("empty storage", func(t *testing.T) {
		addMatchesInsert(t, -1, -1, nil, id(5, 0), func(i int) gA { return gA{i} })
	})
}

// addMatchesInsert builds worlds alike, with a storage of T holding
// entities 0, 1, 2 (unless denseRoom is -1) and then as much spare
// capacity as denseRoom and dataRoom say, runs setup on each, adds T to
// id with insertSlow in the first and each of the other ways in the
// others, and compares the storages.
func addMatchesInsert[T any](t *testing.T, denseRoom, dataRoom int, setup func(w *World), id EntityID, val func(int) T) {
	t.Helper()
	ways := []struct {
		name string
		add  func(v ViewMut[T]) error
	}{
		{"insertSlow", func(v ViewMut[T]) error { v.store().insertSlow(id, val(99)); return nil }},
		{"AddComponent", func(v ViewMut[T]) error { return v.AddComponent(aliveAll{}, id, val(99)) }},
		{"AddComponentUnchecked", func(v ViewMut[T]) error { return v.AddComponentUnchecked(id, val(99)) }},
		{"insert", func(v ViewMut[T]) error { v.store().insert(id, val(99)); return nil }},
	}
	worlds := make([]*World, len(ways))
	for k := range worlds {
		w := NewWorld()
		worlds[k] = w
		s := storageFor[T](w)
		if denseRoom >= 0 {
			for i := range 3 {
				s.insert(newEntityID(uint32(i), 0), val(i))
			}
		}
		if setup != nil {
			setup(w)
		}
		if denseRoom >= 0 {
			s.dense = append(make([]EntityID, 0, len(s.dense)+denseRoom), s.dense...)
			s.data = append(make([]T, 0, len(s.data)+dataRoom), s.data...)
		}
	}
	for k, way := range ways {
		if err := worlds[k].Run(way.add); err != nil && !errors.Is(err, ErrDeadEntity) {
			t.Fatalf("%s: %v", way.name, err)
		}
	}
	ids := []EntityID{newEntityID(0, 0), newEntityID(1, 0), newEntityID(2, 0), id}
	want := snapshotOf(storageFor[T](worlds[0]), ids)
	if len(want.Dense) != len(want.Data) {
		t.Errorf("%d ids but %d components", len(want.Dense), len(want.Data))
	}
	for k, way := range ways[1:] {
		w := worlds[k+1]
		if got := snapshotOf(storageFor[T](w), ids); !reflect.DeepEqual(got, want) {
			t.Errorf("%s left\n%+v\ninsertSlow left\n%+v", way.name, got, want)
		}
		if g := storageFor[T](w).pack; g != nil {
			checkGroup(t, g)
		}
	}
}
