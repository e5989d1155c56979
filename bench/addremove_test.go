package bench

// The add/remove workloads: add Velocity to N entities, then remove it from
// all of them.

import (
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// addRemoveLayouts are the Slipway variants of the add/remove workloads
// that add and remove one entity at a time.
var addRemoveLayouts = []layout{plainLayout, groupLayout}

// BenchmarkAddRemove: N entities with Position; the round adds Velocity to
// all of them, then removes it from all. The warm-up round of measure runs
// first, so the Velocity storage has its capacity. ns/entity is per
// add+remove pair.
func BenchmarkAddRemove(b *testing.B) { benchAddRemove(b, buildAddRemove) }

// BenchmarkAddRemoveLarge is AddRemove on entities that also have C1..C10:
// a sparse set does not move an entity's other components, so it should cost
// the same.
func BenchmarkAddRemoveLarge(b *testing.B) { benchAddRemove(b, buildAddRemoveLarge) }

// benchAddRemove measures the baseline (the component in a slice indexed by
// entity, with a presence flag), every layout, and the bulk variant:
// BulkAddComponent1 gives every entity its Velocity, then
// BulkDeleteComponent deletes them all (both check every id first).
func benchAddRemove(b *testing.B, build func(testing.TB, *ecs.World, int) []ecs.EntityID) {
	impls := []impl{{"plain", func(b *testing.B, n int) {
		s := &plainFlagged[Velocity]{vals: make([]Velocity, n), has: make([]bool, n)}
		measure(b, n, func() { addRemoveFlagged(s, Velocity{1, 2}) })
	}}}
	for _, l := range addRemoveLayouts {
		impls = append(impls, impl{l.name, func(b *testing.B, n int) {
			w := l.newWorld(b)
			sys := addRemoveSystem(build(b, w, n))
			measure(b, n, func() { check(b, w.Run(sys)) })
		}})
	}
	impls = append(impls, impl{"slipway-bulk", func(b *testing.B, n int) {
		w := ecs.NewWorld()
		ids := build(b, w, n)
		vels := constColumn[Velocity](n, 1, 2)
		measure(b, n, func() { check(b, addRemoveBulk(w, ids, vels)) })
	}}, refAddRemoveImpl, refAddRemoveGroupImpl)
	runImpls(b, impls...)
}

// buildAddRemove fills w with n entities with Position and returns their ids.
func buildAddRemove(tb testing.TB, w *ecs.World, n int) []ecs.EntityID {
	tb.Helper()
	ids, err := ecs.BulkAddEntity1(w, column[Position](n))
	check(tb, err)
	return ids
}

// buildAddRemoveLarge fills w with n entities with Position and C1..C10.
func buildAddRemoveLarge(tb testing.TB, w *ecs.World, n int) []ecs.EntityID {
	tb.Helper()
	ids := buildAddRemove(tb, w, n)
	for _, add := range addC {
		add(tb, w, ids, nil)
	}
	return ids
}

// addRemoveSystem returns the system of one round: through the checked
// ViewMut.AddComponent, then ViewMut.Delete, one entity at a time.
func addRemoveSystem(ids []ecs.EntityID) func(ecs.EntitiesView, ecs.ViewMut[Velocity]) error {
	return func(ents ecs.EntitiesView, vel ecs.ViewMut[Velocity]) error {
		return addRemove(ents, vel, ids)
	}
}

//go:noinline
func addRemove(ents ecs.EntitiesView, vel ecs.ViewMut[Velocity], ids []ecs.EntityID) error {
	if err := addEach(ents, vel, ids); err != nil {
		return err
	}
	removeEach(vel, ids)
	return nil
}

// addEach gives every entity of ids a Velocity, one at a time.
func addEach(ents ecs.EntitiesView, vel ecs.ViewMut[Velocity], ids []ecs.EntityID) error {
	for _, id := range ids {
		if err := vel.AddComponent(ents, id, Velocity{1, 2}); err != nil {
			return err
		}
	}
	return nil
}

// removeEach deletes the Velocity of every entity of ids, one at a time.
func removeEach(vel ecs.ViewMut[Velocity], ids []ecs.EntityID) {
	for _, id := range ids {
		vel.Delete(id)
	}
}

// addRemoveBulk is one round of the bulk variant: vels[i] to ids[i] in one
// call, then every Velocity of ids deleted in another.
//
//go:noinline
func addRemoveBulk(w *ecs.World, ids []ecs.EntityID, vels []Velocity) error {
	if err := ecs.BulkAddComponent1(w, ids, vels); err != nil {
		return err
	}
	_, err := ecs.BulkDeleteComponent[Velocity](w, ids...)
	return err
}
