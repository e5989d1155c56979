package ecs_test

// The "Delete Entity" chapter: deleting an entity deletes it from the
// entities storage and deletes all its components.

import (
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// TestBookDeleteEntityWorld follows the World snippet.
func TestBookDeleteEntityWorld(t *testing.T) {
	w := ecs.NewWorld()
	id, err := ecs.AddEntity1(w, Pos{1, 2})
	must(t, err)
	other, err := ecs.AddEntity2(w, Pos{3, 4}, Vel{5, 6})
	must(t, err)

	must(t, w.DeleteEntity(id))

	isTrue(t, !w.IsAlive(id), "deleted entity still alive")
	equal(t, "EntityCount", w.EntityCount(), 1)
	_, err = ecs.Get[Pos](w, id)
	errIs(t, err, ecs.ErrDeadEntity)
	// Its component is gone from the storage, the other entity's stays.
	must(t, w.Run(func(vPos ecs.View[Pos]) {
		equal(t, "Pos storage Len", vPos.Len(), 1)
		isTrue(t, !vPos.Contains(id), "Pos storage still has the deleted entity")
		equal(t, "other's Pos", *vPos.MustGet(other), Pos{3, 4})
	}))
	// Deleting again is an error naming the id.
	err = w.DeleteEntity(id)
	ee := errAs[*ecs.EntityError](t, err)
	equal(t, "id in the error", ee.ID, id)
	errIs(t, err, ecs.ErrDeadEntity)
}

// TestBookDeleteEntityView follows the View snippet: inside a system, with
// AllStoragesViewMut.
func TestBookDeleteEntityView(t *testing.T) {
	w := ecs.NewWorld()
	var id ecs.EntityID
	must(t, w.Run(func(all ecs.AllStoragesViewMut) {
		var err error
		id, err = ecs.AddEntity1(all, Pos{1, 2})
		must(t, err)
		must(t, all.DeleteEntity(id))
		isTrue(t, !all.IsAlive(id), "deleted entity alive inside the system")
		errIs(t, all.DeleteEntity(id), ecs.ErrDeadEntity)
	}))
	isTrue(t, !w.IsAlive(id), "deleted entity alive after the system")
	equal(t, "EntityCount", w.EntityCount(), 0)
	must(t, w.Run(func(vPos ecs.View[Pos]) { equal(t, "Pos storage", vPos.Len(), 0) }))
}

// TestBookDeleteEntityFastPath follows the "Deleting entities" performance
// tip: delete from the storages the entity may use, then delete it from the
// entities storage without searching the others.
func TestBookDeleteEntityFastPath(t *testing.T) {
	w := ecs.NewWorld()
	id, err := ecs.AddEntity2(w, Pos{1, 2}, Vel{3, 4})
	must(t, err)
	keep, err := ecs.AddEntity2(w, Pos{5, 6}, Vel{7, 8})
	must(t, err)
	must(t, w.Run(func(entities ecs.EntitiesViewMut, vmPos ecs.ViewMut[Pos], vmVel ecs.ViewMut[Vel]) {
		isTrue(t, vmPos.Delete(id), "Pos not found")
		isTrue(t, vmVel.Delete(id), "Vel not found")
		isTrue(t, entities.DeleteUnchecked(id), "entity not found")
		isTrue(t, !entities.DeleteUnchecked(id), "deleted twice")
	}))
	isTrue(t, !w.IsAlive(id), "entity alive")
	p, v, err := ecs.Get2[Pos, Vel](w, keep)
	must(t, err)
	equal(t, "other entity untouched", [2]any{p, v}, [2]any{Pos{5, 6}, Vel{7, 8}})
}

// TestBookDeleteEntityEverywhere: every storage loses the entity, whatever
// types it had, including tags and storages created after it.
func TestBookDeleteEntityEverywhere(t *testing.T) {
	type tag struct{}
	w := ecs.NewWorld()
	id, err := ecs.AddEntity4(w, Pos{}, Vel{}, tag{}, "name")
	must(t, err)
	must(t, ecs.AddComponent1(w, id, 42))
	must(t, w.DeleteEntity(id))
	must(t, w.Run(func(a ecs.View[Pos], b ecs.View[Vel], c ecs.View[tag], d ecs.View[string], e ecs.View[int]) {
		equal(t, "total components left", a.Len()+b.Len()+c.Len()+d.Len()+e.Len(), 0)
	}))
}
