package ecs_test

// The "Delete Components" chapter: deleting a component erases it without
// returning it; strip deletes all of an entity's components.

import (
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// TestBookDeleteComponentsWorld follows the World snippet.
func TestBookDeleteComponentsWorld(t *testing.T) {
	w := ecs.NewWorld()
	id, err := ecs.AddEntity2(w, Pos{1, 2}, Vel{3, 4})
	must(t, err)

	had, err := ecs.DeleteComponent[Vel](w, id)
	must(t, err)
	isTrue(t, had, "Vel not deleted")
	// delete_component::<(Pos, Vel)>: Pos goes, Vel is already absent.
	had, err = ecs.DeleteComponent[Pos](w, id)
	must(t, err)
	isTrue(t, had, "Pos not deleted")
	had, err = ecs.DeleteComponent[Vel](w, id)
	must(t, err)
	isTrue(t, !had, "Vel deleted twice")

	isTrue(t, w.IsAlive(id), "entity died")
	must(t, w.Run(func(a ecs.View[Pos], b ecs.View[Vel]) {
		equal(t, "components left", a.Len()+b.Len(), 0)
	}))

	must(t, w.DeleteEntity(id))
	_, err = ecs.DeleteComponent[Pos](w, id)
	errIs(t, err, ecs.ErrDeadEntity)
}

// TestBookDeleteComponentsStripWorld follows "All Components" for the
// World: strip deletes every component; the entity lives on.
func TestBookDeleteComponentsStripWorld(t *testing.T) {
	w := ecs.NewWorld()
	id, err := ecs.AddEntity2(w, Pos{1, 2}, Vel{3, 4})
	must(t, err)
	other, err := ecs.AddEntity2(w, Pos{5, 6}, Vel{7, 8})
	must(t, err)

	must(t, w.Strip(id))

	isTrue(t, w.IsAlive(id), "stripped entity died")
	_, err = ecs.Get[Pos](w, id)
	errIs(t, err, ecs.ErrMissingComponent)
	_, err = ecs.Get[Vel](w, id)
	errIs(t, err, ecs.ErrMissingComponent)
	p, v, err := ecs.Get2[Pos, Vel](w, other)
	must(t, err)
	equal(t, "other entity untouched", [2]any{p, v}, [2]any{Pos{5, 6}, Vel{7, 8}})

	// A stripped entity can get components again.
	must(t, ecs.AddComponent1(w, id, Vel{9, 9}))
	v, err = ecs.Get[Vel](w, id)
	must(t, err)
	equal(t, "Vel after strip", v, Vel{9, 9})

	// The package-level form, and a dead entity.
	must(t, ecs.Strip(w, id))
	must(t, w.DeleteEntity(id))
	errIs(t, w.Strip(id), ecs.ErrDeadEntity)
	errIs(t, ecs.Strip(w, id), ecs.ErrDeadEntity)
}

// TestBookDeleteComponentsView follows the View snippet.
func TestBookDeleteComponentsView(t *testing.T) {
	w := ecs.NewWorld()
	must(t, w.Run(func(entities ecs.EntitiesViewMut, vmPos ecs.ViewMut[Pos], vmVel ecs.ViewMut[Vel]) {
		id := vmPos.AddEntity(entities, Pos{1, 2})
		must(t, vmVel.AddComponentUnchecked(id, Vel{3, 4}))

		isTrue(t, vmPos.Delete(id), "Pos not deleted")
		// (&mut vm_pos, &mut vm_vel).delete(id)
		isTrue(t, !vmPos.Delete(id), "Pos deleted twice")
		isTrue(t, vmVel.Delete(id), "Vel not deleted")
		equal(t, "components left", vmPos.Len()+vmVel.Len(), 0)
		isTrue(t, entities.IsAlive(id), "entity died")
	}))
}

// TestBookDeleteComponentsStripView follows "All Components" for views.
func TestBookDeleteComponentsStripView(t *testing.T) {
	w := ecs.NewWorld()
	var id ecs.EntityID
	must(t, w.Run(func(all ecs.AllStoragesViewMut) {
		var err error
		id, err = ecs.AddEntity2(all, Pos{1, 2}, Vel{3, 4})
		must(t, err)
		must(t, all.Strip(id))
		isTrue(t, all.IsAlive(id), "stripped entity died")
	}))
	must(t, w.Run(func(a ecs.View[Pos], b ecs.View[Vel]) {
		equal(t, "components left", a.Len()+b.Len(), 0)
	}))
	isTrue(t, w.IsAlive(id), "stripped entity died")
}

// TestBookDeleteComponentsClear: ViewMut.Clear deletes every component of
// one type and keeps the entities.
func TestBookDeleteComponentsClear(t *testing.T) {
	w := ecs.NewWorld()
	ids, err := ecs.BulkAddEntity2(w, []Pos{{1, 1}, {2, 2}, {3, 3}}, []Vel{{1, 1}, {2, 2}, {3, 3}})
	must(t, err)
	must(t, w.Run(func(vmPos ecs.ViewMut[Pos]) {
		vmPos.Clear()
		isTrue(t, vmPos.IsEmpty(), "Pos storage not empty after Clear")
	}))
	for _, id := range ids {
		isTrue(t, w.IsAlive(id), "%v died", id)
		has, err := ecs.Contains[Pos](w, id)
		must(t, err)
		isTrue(t, !has, "%v still has a Pos", id)
		has, err = ecs.Contains[Vel](w, id)
		must(t, err)
		isTrue(t, has, "%v lost its Vel", id)
	}
	// The storage works after Clear.
	must(t, ecs.AddComponent1(w, ids[1], Pos{5, 5}))
	p, err := ecs.Get[Pos](w, ids[1])
	must(t, err)
	equal(t, "Pos after Clear", p, Pos{5, 5})
}
