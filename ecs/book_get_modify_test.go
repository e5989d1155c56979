package ecs_test

// The "Get and Modify Components" chapter: get works with shared and
// exclusive views; the index form (MustGet) is for when the entity surely
// has the component.

import (
	"fmt"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// TestBookGetModify follows the snippet step by step:
//
//	(&mut vm_vel).get(id).unwrap().0 += 1.0;
//	let (mut i, j) = (&mut vm_pos, &vm_vel).get(id).unwrap();
//	i.0 += j.0;
//	vm_pos[id].0 += 1.0;
func TestBookGetModify(t *testing.T) {
	w := ecs.NewWorld()
	id, err := ecs.AddEntity2(w, Pos{1, 2}, Vel{10, 20})
	must(t, err)

	must(t, w.Run(func(vmPos ecs.ViewMut[Pos], vmVel ecs.ViewMut[Vel]) {
		v, ok := vmVel.Get(id)
		isTrue(t, ok, "no Vel")
		v.X += 1

		i, j, ok := ecs.Join2(vmPos, vmVel).Get(id)
		isTrue(t, ok, "no (Pos, Vel)")
		i.X += j.X

		vmPos.MustGet(id).X += 1
	}))

	p, v, err := ecs.Get2[Pos, Vel](w, id)
	must(t, err)
	equal(t, "Vel", v, Vel{11, 20})
	equal(t, "Pos", p, Pos{1 + 11 + 1, 2})
}

// TestBookGetShared: Get works with shared views too, and several shared
// views can read the same entity.
func TestBookGetShared(t *testing.T) {
	w := ecs.NewWorld()
	id, err := ecs.AddEntity2(w, Pos{1, 2}, Vel{3, 4})
	must(t, err)
	bare, err := w.AddEntity()
	must(t, err)
	must(t, w.Run(func(vPos ecs.View[Pos], vVel ecs.View[Vel]) {
		p, ok := vPos.Get(id)
		isTrue(t, ok, "no Pos")
		equal(t, "Pos", *p, Pos{1, 2})
		p, v, ok := ecs.Join2(vPos, vVel).Get(id)
		isTrue(t, ok, "no (Pos, Vel)")
		equal(t, "joined", [2]any{*p, *v}, [2]any{Pos{1, 2}, Vel{3, 4}})

		// Absence is reported, not an error or a panic.
		p, ok = vPos.Get(bare)
		isTrue(t, !ok && p == nil, "Get on an entity without Pos = %v, %v", p, ok)
		_, _, ok = ecs.Join2(vPos, vVel).Get(bare)
		isTrue(t, !ok, "joined Get on an entity without components")
		isTrue(t, vPos.Contains(id) && !vPos.Contains(bare), "Contains")
	}))
}

// TestBookGetIndexFormPanics: the index form on a missing component panics
// with a message naming the type and the entity.
func TestBookGetIndexFormPanics(t *testing.T) {
	w := ecs.NewWorld()
	bare, err := w.AddEntity()
	must(t, err)
	must(t, w.Run(func(vPos ecs.View[Pos], vmVel ecs.ViewMut[Vel]) {
		panicsWith(t, func() { vPos.MustGet(bare) }, "ecs_test.Pos", bare.String())
		panicsWith(t, func() { vmVel.MustGet(bare) }, "ecs_test.Vel", bare.String())
	}))
	// The system's views were released although the panics happened inside
	// it (they were recovered there): the world is usable.
	_, err = ecs.AddEntity1(w, Pos{})
	must(t, err)
}

// TestBookGetWorld: the World-level gets return copies, with an error that
// tells a dead entity from a missing component.
func TestBookGetWorld(t *testing.T) {
	w := ecs.NewWorld()
	id, err := ecs.AddEntity2(w, Pos{1, 2}, Vel{3, 4})
	must(t, err)
	p, err := ecs.Get[Pos](w, id)
	must(t, err)
	p.X = 100 // a copy: the world is unchanged
	p2, err := ecs.Get[Pos](w, id)
	must(t, err)
	equal(t, "Pos after changing the copy", p2, Pos{1, 2})

	_, err = ecs.Get[c1](w, id)
	ce := errAs[*ecs.ComponentError](t, err)
	equal(t, "ComponentError.Type", ce.Type, "ecs_test.c1")
	equal(t, "ComponentError.ID", ce.ID, id)
	errIs(t, err, ecs.ErrMissingComponent)
	hasAll(t, err.Error(), "ecs_test.c1", id.String())

	// Get2 names the first missing type.
	_, _, err = ecs.Get2[Pos, c2](w, id)
	equal(t, "Get2 missing type", errAs[*ecs.ComponentError](t, err).Type, "ecs_test.c2")
}

// TestBookGetPointerStability: a pointer from Get stays valid while no
// component of that type is added or removed, and writes through it land
// in the storage.
func TestBookGetPointerStability(t *testing.T) {
	w := ecs.NewWorld()
	var ids []ecs.EntityID
	for i := range 5 {
		id, err := ecs.AddEntity1(w, Pos{float32(i), 0})
		must(t, err)
		ids = append(ids, id)
	}
	must(t, w.Run(func(vmPos ecs.ViewMut[Pos], vVel ecs.View[Vel]) {
		ps := make([]*Pos, len(ids))
		for i, id := range ids {
			ps[i] = vmPos.MustGet(id)
		}
		// Reading other storages does not move Pos components.
		_ = vVel.Len()
		for i, p := range ps {
			p.Y = float32(10 * i)
		}
	}))
	for i, id := range ids {
		p, err := ecs.Get[Pos](w, id)
		must(t, err)
		equal(t, fmt.Sprintf("Pos of entity %d", i), p, Pos{float32(i), float32(10 * i)})
	}
}
