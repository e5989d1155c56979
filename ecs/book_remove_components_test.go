package ecs_test

// The "Remove Components" chapter: removing a component takes it out of
// the storage and returns it.

import (
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// TestBookRemoveComponentsWorld follows the World snippet. Slipway has no
// tuple of types, so removing (Pos, Vel) is two calls.
func TestBookRemoveComponentsWorld(t *testing.T) {
	w := ecs.NewWorld()
	id, err := ecs.AddEntity2(w, Pos{1, 2}, Vel{3, 4})
	must(t, err)

	v, ok, err := ecs.Remove[Vel](w, id)
	must(t, err)
	isTrue(t, ok, "Vel not removed")
	equal(t, "removed Vel", v, Vel{3, 4})

	p, ok, err := ecs.Remove[Pos](w, id)
	must(t, err)
	isTrue(t, ok, "Pos not removed")
	equal(t, "removed Pos", p, Pos{1, 2})
	// The second half of remove::<(Pos, Vel)>: Vel is already gone. That is
	// absence, reported with ok == false, not an error.
	v, ok, err = ecs.Remove[Vel](w, id)
	must(t, err)
	isTrue(t, !ok, "Vel removed twice")
	equal(t, "value when absent", v, Vel{})

	// The entity stays alive, with no component.
	isTrue(t, w.IsAlive(id), "entity died when its components were removed")
	_, _, err = ecs.Get2[Pos, Vel](w, id)
	errIs(t, err, ecs.ErrMissingComponent)

	// On a dead entity: an error.
	must(t, w.DeleteEntity(id))
	_, _, err = ecs.Remove[Pos](w, id)
	errIs(t, err, ecs.ErrDeadEntity)
}

// TestBookRemoveComponentsView follows the View snippet.
func TestBookRemoveComponentsView(t *testing.T) {
	w := ecs.NewWorld()
	other, err := ecs.AddEntity2(w, Pos{9, 9}, Vel{8, 8})
	must(t, err)
	must(t, w.Run(func(entities ecs.EntitiesViewMut, vmPos ecs.ViewMut[Pos], vmVel ecs.ViewMut[Vel]) {
		id := vmPos.AddEntity(entities, Pos{1, 2})
		must(t, vmVel.AddComponentUnchecked(id, Vel{3, 4}))

		p, ok := vmPos.Remove(id)
		isTrue(t, ok, "Pos not removed")
		equal(t, "removed Pos", p, Pos{1, 2})

		// (&mut vm_pos, &mut vm_vel).remove(id): Pos is already gone.
		_, okPos := vmPos.Remove(id)
		v, okVel := vmVel.Remove(id)
		isTrue(t, !okPos, "Pos removed twice")
		isTrue(t, okVel, "Vel not removed")
		equal(t, "removed Vel", v, Vel{3, 4})

		equal(t, "Pos Len", vmPos.Len(), 1)
		equal(t, "Vel Len", vmVel.Len(), 1)
		isTrue(t, entities.IsAlive(id), "entity died")
	}))
	p, v, err := ecs.Get2[Pos, Vel](w, other)
	must(t, err)
	equal(t, "other entity untouched", [2]any{p, v}, [2]any{Pos{9, 9}, Vel{8, 8}})
}

// TestBookRemoveComponentsKeepsOthers: removing swaps the last component
// into the hole; every other entity must still find its own.
func TestBookRemoveComponentsKeepsOthers(t *testing.T) {
	w := ecs.NewWorld()
	var ids []ecs.EntityID
	for i := range 10 {
		id, err := ecs.AddEntity1(w, Pos{float32(i), 0})
		must(t, err)
		ids = append(ids, id)
	}
	for _, i := range []int{0, 9, 4, 5} {
		p, ok, err := ecs.Remove[Pos](w, ids[i])
		must(t, err)
		isTrue(t, ok, "entity %d had no Pos", i)
		equal(t, "removed value", p.X, float32(i))
	}
	for i, id := range ids {
		p, err := ecs.Get[Pos](w, id)
		switch i {
		case 0, 9, 4, 5:
			errIs(t, err, ecs.ErrMissingComponent)
		default:
			must(t, err)
			equal(t, "kept value", p.X, float32(i))
		}
	}
}

// TestBookRemoveComponentsSeveralViews: "Several views at once":
// RemoveFrom2 returns a Taken per view, OK false for a missing one, and
// panics with a ViewsError, removing nothing, for the same view twice.
func TestBookRemoveComponentsSeveralViews(t *testing.T) {
	w := ecs.NewWorld()
	id, err := ecs.AddEntity2(w, Pos{1, 2}, Vel{3, 4})
	must(t, err)
	partial, err := ecs.AddEntity1(w, Vel{5, 6})
	must(t, err)
	must(t, w.Run(func(pos ecs.ViewMut[Pos], vel ecs.ViewMut[Vel]) {
		vmWantViewsPanic(t, "same view twice", "RemoveFrom2", 2, 1, ecs.ErrSameStorage, func() { ecs.RemoveFrom2(id, vel, vel) })
		equal(t, "Vel kept", vel.Len(), 2)

		p, v := ecs.RemoveFrom2(id, pos, vel)
		equal(t, "Pos", p, ecs.Taken[Pos]{Pos{1, 2}, true})
		equal(t, "Vel", v, ecs.Taken[Vel]{Vel{3, 4}, true})
		p, v = ecs.RemoveFrom2(id, pos, vel)
		isTrue(t, !p.OK && !v.OK, "removed twice: %v %v", p, v)

		p, v = ecs.RemoveFrom2(partial, pos, vel)
		equal(t, "no Pos", p, ecs.Taken[Pos]{})
		got, ok := v.Get()
		equal(t, "Vel of partial", got, Vel{5, 6})
		isTrue(t, ok, "Vel of partial not removed")
	}))
	isTrue(t, w.IsAlive(id) && w.IsAlive(partial), "entities died with their components")
}
