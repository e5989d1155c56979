package ecs_test

// The "Add Components" chapter: an entity has any number of components but
// only one in each storage; adding another of the same type replaces it.

import (
	"errors"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// TestBookAddComponentsWorld follows the World snippet.
func TestBookAddComponentsWorld(t *testing.T) {
	w := ecs.NewWorld()
	id, err := w.AddEntity()
	must(t, err)

	must(t, ecs.AddComponent1(w, id, Vel{1, 1}))
	v, err := ecs.Get[Vel](w, id)
	must(t, err)
	equal(t, "Vel", v, Vel{1, 1})

	// Adding (Pos, Vel): Pos is new, Vel replaces the one there was.
	must(t, ecs.AddComponent2(w, id, Pos{2, 2}, Vel{3, 3}))
	p, v, err := ecs.Get2[Pos, Vel](w, id)
	must(t, err)
	equal(t, "Pos", p, Pos{2, 2})
	equal(t, "replaced Vel", v, Vel{3, 3})
	must(t, w.Run(func(vVel ecs.View[Vel]) {
		equal(t, "one Vel per entity", vVel.Len(), 1)
	}))

	// On a deleted entity: an error, and nothing added.
	must(t, w.DeleteEntity(id))
	err = ecs.AddComponent1(w, id, Vel{9, 9})
	errIs(t, err, ecs.ErrDeadEntity)
	must(t, w.Run(func(vVel ecs.View[Vel]) { equal(t, "Vel storage", vVel.Len(), 0) }))
}

// TestBookAddComponentsView follows the View snippet: the entities storage
// is only read, to check the entity is alive.
func TestBookAddComponentsView(t *testing.T) {
	w := ecs.NewWorld()
	var id ecs.EntityID
	must(t, w.Run(func(entities ecs.EntitiesViewMut) { id = entities.AddEntity() }))

	must(t, w.Run(func(entities ecs.EntitiesView, vmPos ecs.ViewMut[Pos], vmVel ecs.ViewMut[Vel]) {
		must(t, vmPos.AddComponent(entities, id, Pos{1, 1}))
		must(t, vmPos.AddComponent(entities, id, Pos{2, 2}))
		must(t, vmVel.AddComponent(entities, id, Vel{3, 3}))
		must(t, vmVel.AddComponentUnchecked(id, Vel{4, 4}))
		equal(t, "Pos", *vmPos.MustGet(id), Pos{2, 2})
		equal(t, "Vel", *vmVel.MustGet(id), Vel{4, 4})
		equal(t, "Pos Len", vmPos.Len(), 1)
		equal(t, "Vel Len", vmVel.Len(), 1)
	}))

	// "We don't need exclusive access to the entities storage": adding
	// components works while someone else reads the entities storage.
	var held ecs.EntitiesView
	release, err := w.Borrow(&held)
	must(t, err)
	must(t, w.Run(func(entities ecs.EntitiesView, vmPos ecs.ViewMut[Pos]) {
		must(t, vmPos.AddComponent(entities, id, Pos{5, 5}))
	}))
	release()
	p, err := ecs.Get[Pos](w, id)
	must(t, err)
	equal(t, "Pos added while entities were shared", p, Pos{5, 5})

	// A dead id is refused by the alive check.
	must(t, w.DeleteEntity(id))
	must(t, w.Run(func(entities ecs.EntitiesView, vmPos ecs.ViewMut[Pos]) {
		err := vmPos.AddComponent(entities, id, Pos{6, 6})
		ee := errAs[*ecs.EntityError](t, err)
		equal(t, "id in the error", ee.ID, id)
		hasAll(t, err.Error(), "ViewMut[ecs_test.Pos].AddComponent", id.String())
		equal(t, "Pos Len", vmPos.Len(), 0)
	}))
}

// TestBookAddComponentsThroughAllStorages: AddComponentN also works through
// AllStoragesViewMut, replacing like the World form.
func TestBookAddComponentsThroughAllStorages(t *testing.T) {
	w := ecs.NewWorld()
	id, err := ecs.AddEntity1(w, Pos{1, 1})
	must(t, err)
	must(t, w.Run(func(all ecs.AllStoragesViewMut) {
		must(t, ecs.AddComponent2(all, id, Vel{1, 2}, Pos{3, 4}))
	}))
	p, v, err := ecs.Get2[Pos, Vel](w, id)
	must(t, err)
	equal(t, "Pos replaced", p, Pos{3, 4})
	equal(t, "Vel added", v, Vel{1, 2})
}

// TestBookAddComponentsSameTypeTwice: "if two components have the same
// type, the last one wins".
func TestBookAddComponentsSameTypeTwice(t *testing.T) {
	w := ecs.NewWorld()
	id, err := ecs.AddEntity2(w, Pos{1, 1}, Pos{2, 2})
	must(t, err)
	must(t, ecs.AddComponent3(w, id, Pos{3, 3}, Vel{}, Pos{4, 4}))
	p, err := ecs.Get[Pos](w, id)
	must(t, err)
	equal(t, "last Pos wins", p, Pos{4, 4})
	must(t, w.Run(func(v ecs.View[Pos]) { equal(t, "Pos Len", v.Len(), 1) }))
}

type bookLevel struct{ N int }

func (bookLevel) Tracking() ecs.Tracking { return ecs.TrackModification }

// TestBookAddComponentsDistinct: "Only when different": an equal value
// records nothing, a different one a modification.
func TestBookAddComponentsDistinct(t *testing.T) {
	w := ecs.NewWorld()
	id, _ := ecs.AddEntity1(w, bookLevel{1})
	must(t, w.Run(func(entities ecs.EntitiesView, level ecs.ViewMut[bookLevel]) error {
		same, err := ecs.AddDistinct(level, entities, id, bookLevel{1})
		if err != nil {
			return err
		}
		modified, err := level.Modified()
		if err != nil {
			return err
		}
		equal(t, "same", same, false)
		equal(t, "modified after an equal value", modified.Count(), 0)
		changed, err := ecs.AddDistinct(level, entities, id, bookLevel{2})
		if err != nil {
			return err
		}
		modified, _ = level.Modified()
		equal(t, "changed", changed, true)
		equal(t, "modified after a new value", modified.Count(), 1)
		return nil
	}))
	changed, err := ecs.AddComponentDistinct(w, id, bookLevel{2})
	must(t, err)
	equal(t, "world form, equal", changed, false)
}

// TestBookAddComponentsSeveralViews: "Several views at once": AddTo2
// gives each view its component, and refuses the same storage twice,
// changing nothing.
func TestBookAddComponentsSeveralViews(t *testing.T) {
	w := ecs.NewWorld()
	id, err := w.AddEntity()
	must(t, err)
	must(t, w.Run(func(entities ecs.EntitiesView, pos ecs.ViewMut[Pos], vel ecs.ViewMut[Vel]) {
		must(t, ecs.AddTo2(entities, id, pos, vel, Pos{1, 2}, Vel{3, 4}))
		equal(t, "Pos", *pos.MustGet(id), Pos{1, 2})
		equal(t, "Vel", *vel.MustGet(id), Vel{3, 4})

		err := ecs.AddTo2(entities, id, pos, pos, Pos{5, 5}, Pos{6, 6})
		errIs(t, err, ecs.ErrSameStorage)
		var ve *ecs.ViewsError
		isTrue(t, errors.As(err, &ve) && ve.Arg == 2 && ve.Same == 1, "ViewsError %+v", ve)
		equal(t, "Pos after the refusal", *pos.MustGet(id), Pos{1, 2})

		// A dead id: nothing added to either view.
		errIs(t, ecs.AddTo2(entities, ecs.NullID, pos, vel, Pos{}, Vel{}), ecs.ErrDeadEntity)
		equal(t, "lengths", [2]int{pos.Len(), vel.Len()}, [2]int{1, 1})
	}))
}
