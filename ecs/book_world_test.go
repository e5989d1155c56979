package ecs_test

// The "World" chapter of the guide's Fundamentals, and the components every
// later chapter uses.

import (
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// Pos and Vel are the guide's two components, assumed by every book test
// (the guide's "following snippet is assumed to be present in all other
// snippets"). Any Go type is a component: nothing to derive or implement.
type Pos struct{ X, Y float32 }
type Vel struct{ X, Y float32 }

// TestBookWorldCreation: a new World is empty and ready for use.
func TestBookWorldCreation(t *testing.T) {
	w := ecs.NewWorld()
	equal(t, "EntityCount of a new world", w.EntityCount(), 0)
	isTrue(t, !w.IsAlive(0), "entity 0 alive in a new world")
	isTrue(t, !w.IsAlive(ecs.NullID), "NullID alive in a new world")

	// Two worlds share nothing.
	w2 := ecs.NewWorld()
	id, err := ecs.AddEntity1(w, Pos{1, 2})
	must(t, err)
	equal(t, "EntityCount after one add", w.EntityCount(), 1)
	equal(t, "EntityCount of the other world", w2.EntityCount(), 0)
	_, err = ecs.Get[Pos](w2, id)
	errIs(t, err, ecs.ErrDeadEntity)
}

// TestBookWorldViews: the guide's first view, a shared access to the
// entities storage requested by a system run on the world.
func TestBookWorldViews(t *testing.T) {
	w := ecs.NewWorld()
	ran := false
	must(t, w.Run(func(entities ecs.EntitiesView) {
		ran = true
		equal(t, "entities in a new world", entities.Len(), 0)
	}))
	isTrue(t, ran, "the system did not run")
}

// TestBookWorldRunAndBorrowSameAccess: "run, borrow and workloads have the
// exact same storage access abilities; borrow has the extra ability to
// allow fallible storage access".
func TestBookWorldRunAndBorrowSameAccess(t *testing.T) {
	w := ecs.NewWorld()
	id, err := ecs.AddEntity2(w, Pos{1, 2}, Vel{3, 4})
	must(t, err)

	// What a system reads...
	var fromRun Pos
	must(t, w.Run(func(entities ecs.EntitiesView, vPos ecs.View[Pos]) {
		isTrue(t, entities.IsAlive(id), "entity not alive in the system")
		fromRun = *vPos.MustGet(id)
	}))
	// ...borrowing reads too.
	var entities ecs.EntitiesView
	var vPos ecs.View[Pos]
	release, err := w.Borrow(&entities, &vPos)
	must(t, err)
	isTrue(t, entities.IsAlive(id), "entity not alive through Borrow")
	equal(t, "Pos through Borrow", *vPos.MustGet(id), fromRun)

	// Fallible access: while the borrow is held, an exclusive access to Pos
	// is refused with an error, not a panic or a wait; shared access works.
	var vmPos ecs.ViewMut[Pos]
	_, err = w.Borrow(&vmPos)
	errIs(t, err, ecs.ErrBorrowConflict)
	err = w.Run(func(ecs.ViewMut[Pos]) { t.Error("system ran despite the conflict") })
	errIs(t, err, ecs.ErrBorrowConflict)
	must(t, w.Run(func(v ecs.View[Pos]) { equal(t, "shared Len", v.Len(), 1) }))

	release()
	release() // releasing twice is allowed
	release2, err := w.Borrow(&vmPos)
	must(t, err)
	vmPos.MustGet(id).X = 10
	release2()
	got, err := ecs.Get[Pos](w, id)
	must(t, err)
	equal(t, "Pos changed through a borrowed ViewMut", got, Pos{10, 2})
}
