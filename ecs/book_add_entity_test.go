package ecs_test

// The "Add Entity" chapter: creating an entity gives a unique handle, its
// EntityID, through the World or through views.

import (
	"fmt"
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// TestBookAddEntityWorld: an empty entity, one with a single component,
// one with several.
func TestBookAddEntityWorld(t *testing.T) {
	w := ecs.NewWorld()
	empty, err := w.AddEntity()
	must(t, err)
	single, err := ecs.AddEntity1(w, Pos{1, 2})
	must(t, err)
	multiple, err := ecs.AddEntity2(w, Pos{3, 4}, Vel{5, 6})
	must(t, err)

	ids := []ecs.EntityID{empty, single, multiple}
	for i, id := range ids {
		isTrue(t, w.IsAlive(id), "entity %d (%v) not alive", i, id)
		for j := range i {
			isTrue(t, ids[j] != id, "entities %d and %d share the id %v", j, i, id)
		}
	}
	equal(t, "EntityCount", w.EntityCount(), 3)

	_, err = ecs.Get[Pos](w, empty)
	errIs(t, err, ecs.ErrMissingComponent)
	p, err := ecs.Get[Pos](w, single)
	must(t, err)
	equal(t, "single's Pos", p, Pos{1, 2})
	_, err = ecs.Get[Vel](w, single)
	errIs(t, err, ecs.ErrMissingComponent)
	p, v, err := ecs.Get2[Pos, Vel](w, multiple)
	must(t, err)
	equal(t, "multiple's Pos", p, Pos{3, 4})
	equal(t, "multiple's Vel", v, Vel{5, 6})
}

// TestBookAddEntityViews: the same three entities created inside a system
// with EntitiesViewMut and ViewMut.
func TestBookAddEntityViews(t *testing.T) {
	w := ecs.NewWorld()
	var empty, single, multiple ecs.EntityID
	must(t, w.Run(func(entities ecs.EntitiesViewMut, vmPos ecs.ViewMut[Pos], vmVel ecs.ViewMut[Vel]) {
		empty = entities.AddEntity()
		single = vmPos.AddEntity(entities, Pos{1, 2})
		multiple = vmPos.AddEntity(entities, Pos{3, 4})
		must(t, vmVel.AddComponentUnchecked(multiple, Vel{5, 6}))

		// Visible at once, inside the same system.
		equal(t, "entities.Len", entities.Len(), 3)
		sameSet(t, "entities.All", slices.Collect(entities.All()), []ecs.EntityID{empty, single, multiple})
		equal(t, "vmPos.Len", vmPos.Len(), 2)
		equal(t, "vmVel.Len", vmVel.Len(), 1)
		isTrue(t, entities.IsAlive(empty), "empty entity not alive")
	}))
	equal(t, "EntityCount", w.EntityCount(), 3)
	isTrue(t, empty != single && single != multiple && empty != multiple, "ids not unique: %v %v %v", empty, single, multiple)
	has, err := ecs.Contains[Pos](w, empty)
	must(t, err)
	isTrue(t, !has, "the empty entity has a Pos")
	p, err := ecs.Get[Pos](w, single)
	must(t, err)
	equal(t, "single's Pos", p, Pos{1, 2})
	p, v, err := ecs.Get2[Pos, Vel](w, multiple)
	must(t, err)
	equal(t, "multiple's Pos and Vel", [2]any{p, v}, [2]any{Pos{3, 4}, Vel{5, 6}})
}

// TestBookAddEntityAllStorages: AllStoragesViewMut is a Storages, so the
// World functions work through it inside a system.
func TestBookAddEntityAllStorages(t *testing.T) {
	w := ecs.NewWorld()
	var a, b ecs.EntityID
	must(t, w.Run(func(all ecs.AllStoragesViewMut) {
		a = all.AddEntity()
		var err error
		b, err = ecs.AddEntity2(all, Pos{1, 1}, Vel{2, 2})
		must(t, err)
		isTrue(t, all.IsAlive(a) && all.IsAlive(b), "new entities not alive")
	}))
	equal(t, "EntityCount", w.EntityCount(), 2)
	p, v, err := ecs.Get2[Pos, Vel](w, b)
	must(t, err)
	equal(t, "Pos", p, Pos{1, 1})
	equal(t, "Vel", v, Vel{2, 2})
}

// Eight component types for the widest arities.
type c1 struct{ V int }
type c2 struct{ V int }
type c3 struct{ V int }
type c4 struct{ V int }
type c5 struct{ V int }
type c6 struct{ V int }
type c7 struct{ V int }
type c8 struct{ V int }

// TestBookAddEntityArities: AddEntity1..8 give the entity every component,
// and Get..Get8 read them back.
func TestBookAddEntityArities(t *testing.T) {
	w := ecs.NewWorld()
	id1, _ := ecs.AddEntity1(w, c1{1})
	id2, _ := ecs.AddEntity2(w, c1{1}, c2{2})
	id3, _ := ecs.AddEntity3(w, c1{1}, c2{2}, c3{3})
	id4, _ := ecs.AddEntity4(w, c1{1}, c2{2}, c3{3}, c4{4})
	id5, _ := ecs.AddEntity5(w, c1{1}, c2{2}, c3{3}, c4{4}, c5{5})
	id6, _ := ecs.AddEntity6(w, c1{1}, c2{2}, c3{3}, c4{4}, c5{5}, c6{6})
	id7, _ := ecs.AddEntity7(w, c1{1}, c2{2}, c3{3}, c4{4}, c5{5}, c6{6}, c7{7})
	id8, err := ecs.AddEntity8(w, c1{1}, c2{2}, c3{3}, c4{4}, c5{5}, c6{6}, c7{7}, c8{8})
	must(t, err)
	ids := []ecs.EntityID{id1, id2, id3, id4, id5, id6, id7, id8}

	// Entity n has components c1..cn: read all eight back from each.
	for n, id := range ids {
		got := components8(t, w, id)
		for k := range 8 {
			want := 0
			if k <= n {
				want = k + 1
			}
			equal(t, fmt.Sprintf("entity %d component c%d", n+1, k+1), got[k], want)
		}
	}
	a, b, c, d, e, f, g, h, err := ecs.Get8[c1, c2, c3, c4, c5, c6, c7, c8](w, id8)
	must(t, err)
	equal(t, "Get8", [8]int{a.V, b.V, c.V, d.V, e.V, f.V, g.V, h.V}, [8]int{1, 2, 3, 4, 5, 6, 7, 8})
	_, _, _, _, _, _, _, _, err = ecs.Get8[c1, c2, c3, c4, c5, c6, c7, c8](w, id7)
	ce := errAs[*ecs.ComponentError](t, err)
	equal(t, "missing type named by Get8", ce.Type, "ecs_test.c8")
	equal(t, "entity named by Get8", ce.ID, id7)
}

// components8 reads components c1..c8 of id, 0 where it has none.
func components8(t *testing.T, w *ecs.World, id ecs.EntityID) [8]int {
	t.Helper()
	var out [8]int
	get := func(k int, v int, err error) {
		if err == nil {
			out[k] = v
		}
	}
	v1, err := ecs.Get[c1](w, id)
	get(0, v1.V, err)
	v2, err := ecs.Get[c2](w, id)
	get(1, v2.V, err)
	v3, err := ecs.Get[c3](w, id)
	get(2, v3.V, err)
	v4, err := ecs.Get[c4](w, id)
	get(3, v4.V, err)
	v5, err := ecs.Get[c5](w, id)
	get(4, v5.V, err)
	v6, err := ecs.Get[c6](w, id)
	get(5, v6.V, err)
	v7, err := ecs.Get[c7](w, id)
	get(6, v7.V, err)
	v8, err := ecs.Get[c8](w, id)
	get(7, v8.V, err)
	return out
}

// TestBookAddEntityBulk: the performance tip "bulk_add_entity": many
// entities at once, with components from parallel slices.
func TestBookAddEntityBulk(t *testing.T) {
	w := ecs.NewWorld()
	pos := []Pos{{0, 0}, {1, 1}, {2, 2}, {3, 3}}
	vel := []Vel{{0, 1}, {1, 2}, {2, 3}, {3, 4}}
	ids, err := ecs.BulkAddEntity2(w, pos, vel)
	must(t, err)
	equal(t, "ids returned", len(ids), 4)
	for i, id := range ids {
		p, v, err := ecs.Get2[Pos, Vel](w, id)
		must(t, err)
		equal(t, "bulk Pos", p, pos[i])
		equal(t, "bulk Vel", v, vel[i])
	}
	// The World keeps its own copies: changing the slices later changes
	// nothing.
	pos[0] = Pos{99, 99}
	p, err := ecs.Get[Pos](w, ids[0])
	must(t, err)
	equal(t, "component after the caller's slice changed", p, Pos{0, 0})

	// Slices of different lengths: an error, and nothing created.
	_, err = ecs.BulkAddEntity2(w, pos, vel[:3])
	errIs(t, err, ecs.ErrLengthMismatch)
	errHas(t, err, "BulkAddEntity2", "slice 2 has 3 elements, slice 1 has 4")
	_, err = ecs.BulkAddEntity3(w, pos, vel, []c3{{1}})
	errIs(t, err, ecs.ErrLengthMismatch)
	errHas(t, err, "slice 3 has 1 elements")
	equal(t, "EntityCount after refused bulk adds", w.EntityCount(), 4)

	// An empty bulk add creates nothing.
	none, err := ecs.BulkAddEntity1(w, []Pos{})
	must(t, err)
	equal(t, "ids of an empty bulk add", len(none), 0)

	// Through EntitiesViewMut: ids only, appended to the slice given.
	must(t, w.Run(func(entities ecs.EntitiesViewMut, vmPos ecs.ViewMut[Pos]) {
		more := entities.BulkAddEntity(ids, 3)
		equal(t, "ids appended", len(more), 7)
		for _, id := range more[4:] {
			isTrue(t, entities.IsAlive(id), "%v not alive", id)
			must(t, vmPos.AddComponentUnchecked(id, Pos{7, 7}))
		}
		equal(t, "Pos storage", vmPos.Len(), 7)
	}))
	equal(t, "EntityCount", w.EntityCount(), 7)
}

// TestBookAddEntityIDReuse: "Entity ids": NewEntityID builds the id the
// last freed index comes back as.
func TestBookAddEntityIDReuse(t *testing.T) {
	w := ecs.NewWorld()
	a, _ := w.AddEntity()
	b, _ := w.AddEntity()
	must(t, w.DeleteEntity(a))
	must(t, w.DeleteEntity(b))
	c, _ := w.AddEntity()
	equal(t, "reused last in, first out", c, ecs.NewEntityID(b.Index(), b.Generation()+1))
	isTrue(t, !w.IsAlive(b), "the old id stays dead")
}

// TestBookAddEntitySpawnAt: "Spawning at an id": a saved id comes back
// alive, later creations skip it, and a live index is refused.
func TestBookAddEntitySpawnAt(t *testing.T) {
	w := ecs.NewWorld()
	saved := ecs.NewEntityID(3, 2)
	must(t, w.SpawnAt(saved))
	must(t, ecs.AddComponent1(w, saved, c1{12}))
	next, _ := w.AddEntity()
	equal(t, "next", next, ecs.NewEntityID(0, 0))
	err := w.SpawnAt(ecs.NewEntityID(3, 5))
	se := errAs[*ecs.SpawnError](t, err)
	equal(t, "Live", se.Live, saved)
	p, err := ecs.Get[c1](w, saved)
	must(t, err)
	equal(t, "component", p, c1{12})
	equal(t, "count", w.EntityCount(), 2)
}
