package ecs_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

type blA struct{ V int }

// A bulk call given a View's IDs that name an entity deleted with
// DeleteUnchecked, whose component is still in place, refuses that dead
// id and changes nothing. The purge of such leftovers, which every
// World-level change makes first, once rewrote the caller's ids (they are
// the storage's memory) before the call read them: deleting e0 and e1
// deleted e1 and e2.
func TestBulkAliasedIDsNamingLeftovers(t *testing.T) {
	calls := []struct {
		name string
		call func(w *ecs.World, ids []ecs.EntityID) error
	}{
		{"DeleteEntities", func(w *ecs.World, ids []ecs.EntityID) error { return w.DeleteEntities(ids...) }},
		{"BulkDeleteComponent", func(w *ecs.World, ids []ecs.EntityID) error {
			_, err := ecs.BulkDeleteComponent[blA](w, ids...)
			return err
		}},
		{"BulkAddComponent1", func(w *ecs.World, ids []ecs.EntityID) error {
			return ecs.BulkAddComponent1(w, ids, []blA{{10}, {11}})
		}},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			w := ecs.NewWorld()
			var es []ecs.EntityID
			for i := range 3 {
				id, err := ecs.AddEntity1(w, blA{i})
				must(t, err)
				es = append(es, id)
			}
			must(t, w.Run(func(e ecs.EntitiesViewMut) { e.DeleteUnchecked(es[0]) }))
			var ids []ecs.EntityID
			withView(t, w, func(v ecs.View[blA]) { ids = v.IDs()[:2] })
			if !slices.Equal(ids, es[:2]) {
				t.Fatalf("View.IDs()[:2] = %v, want %v", ids, es[:2])
			}
			err := c.call(w, ids)
			var be *ecs.BulkError
			if !errors.As(err, &be) || be.Index != 0 || !errors.Is(err, ecs.ErrDeadEntity) {
				t.Fatalf("%s(%v) = %v, want a *BulkError for the dead ids[0]", c.name, es[:2], err)
			}
			for i, id := range es[1:] {
				got, err := ecs.Get[blA](w, id)
				if err != nil || got.V != i+1 {
					t.Errorf("after the refused call, Get[blA](%v) = %v, %v; want {%d}", id, got, err, i+1)
				}
			}
			if n := w.EntityCount(); n != 2 {
				t.Errorf("EntityCount = %d, want 2", n)
			}
		})
	}
}
