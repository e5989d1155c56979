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

// TestDeleteEntityInSystemIsBatched: AllStoragesViewMut.DeleteEntity kills
// the entity at once and strips its components the next time anything
// looks at the storages (see its doc). Each case deletes entities in a
// system and then makes one call that must see them gone, or ends the
// system in some way; the world must then hold exactly what one-by-one
// stripping would have left.
func TestDeleteEntityInSystemIsBatched(t *testing.T) {
	type setup struct {
		w         *ecs.World
		ids       []ecs.EntityID // Pos{i, i} and Vel{i, 0}; the first two, deleted, also an int
		keptTotal int            // Pos+Vel components the survivors have
	}
	build := func(t *testing.T) setup {
		w := ecs.NewWorld()
		must(t, ecs.AddGroup2[Pos, Vel](w))
		must(t, ecs.TrackComponent[Pos](w, ecs.TrackDeletion))
		var ids []ecs.EntityID
		for i := range 5 {
			id, err := ecs.AddEntity2(w, Pos{float32(i), float32(i)}, Vel{float32(i), 0})
			must(t, err)
			ids = append(ids, id)
		}
		must(t, ecs.AddComponent1(w, ids[0], 10))
		must(t, ecs.AddComponent1(w, ids[1], 11))
		return setup{w, ids, 6}
	}
	deleteTwo := func(t *testing.T, all ecs.AllStoragesViewMut, s setup) {
		must(t, all.DeleteEntity(s.ids[0]))
		must(t, ecs.DeleteEntity(all, s.ids[1]))
		isTrue(t, !all.IsAlive(s.ids[0]) && !all.IsAlive(s.ids[1]), "deleted entities alive")
		errIs(t, all.DeleteEntity(s.ids[0]), ecs.ErrDeadEntity)
	}
	cases := []struct {
		name string
		then func(t *testing.T, all ecs.AllStoragesViewMut, s setup)
	}{
		{"nothing: the system's end strips", func(*testing.T, ecs.AllStoragesViewMut, setup) {}},
		{"a new entity takes a freed slot", func(t *testing.T, all ecs.AllStoragesViewMut, s setup) {
			id, err := ecs.AddEntity1(all, Pos{9, 9})
			must(t, err)
			equal(t, "slot reused", id.Index(), s.ids[1].Index())
			_, err = ecs.Get[Vel](all, id)
			errIs(t, err, ecs.ErrMissingComponent)
			p, ok, err := ecs.Remove[Pos](all, id) // back to the totals
			must(t, err)
			isTrue(t, ok && p == Pos{9, 9}, "Remove[Pos] of the new entity: %v %v", p, ok)
		}},
		{"GroupLen", func(t *testing.T, all ecs.AllStoragesViewMut, _ setup) {
			n, ok, err := ecs.GroupLen[Pos](all)
			must(t, err)
			equal(t, "GroupLen", n, 3)
			isTrue(t, ok, "no group")
		}},
		{"Each", func(t *testing.T, all ecs.AllStoragesViewMut, s setup) {
			var seen []ecs.EntityID
			must(t, ecs.Each2(all, func(id ecs.EntityID, _ *Pos, _ *Vel) { seen = append(seen, id) }))
			sameSet(t, "Each2 ids", seen, s.ids[2:])
		}},
		{"DeleteAny", func(t *testing.T, all ecs.AllStoragesViewMut, _ setup) {
			n, err := ecs.DeleteAny[int](all) // only the deleted had one
			must(t, err)
			equal(t, "DeleteAny[int] count", n, 0)
		}},
		{"a panic", func(*testing.T, ecs.AllStoragesViewMut, setup) { panic("boom") }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := build(t)
			sys := func(all ecs.AllStoragesViewMut) {
				deleteTwo(t, all, s)
				c.then(t, all, s)
			}
			if c.name == "a panic" {
				panicsWith(t, func() { _ = s.w.Run(sys) }, "boom")
			} else {
				must(t, s.w.Run(sys))
			}
			checkStripped(t, s.w, s.ids, s.keptTotal)
		})
	}
	t.Run("World.Borrow", func(t *testing.T) {
		s := build(t)
		var all ecs.AllStoragesViewMut
		release, err := s.w.Borrow(&all)
		must(t, err)
		deleteTwo(t, all, s)
		release()
		checkStripped(t, s.w, s.ids, s.keptTotal)
	})
	t.Run("Each deleting what it hands out", func(t *testing.T) {
		s := build(t)
		must(t, s.w.Run(func(all ecs.AllStoragesViewMut) {
			seen := map[ecs.EntityID]int{}
			must(t, ecs.Each2(all, func(id ecs.EntityID, p *Pos, _ *Vel) {
				seen[id]++
				if id == s.ids[0] || id == s.ids[1] {
					must(t, all.DeleteEntity(id))
				} else {
					p.Y = -1 // kept: the change must stay
				}
			}))
			equal(t, "entities handed out", len(seen), 5)
			for id, n := range seen {
				equal(t, "times "+id.String()+" was handed out", n, 1)
			}
		}))
		checkStripped(t, s.w, s.ids, s.keptTotal)
		for _, id := range s.ids[2:] {
			p, err := ecs.Get[Pos](s.w, id)
			must(t, err)
			equal(t, "Pos.Y changed in Each", p.Y, -1)
		}
	})
}

// checkStripped checks that ids[0] and ids[1] are dead with none of their
// components left, logged once each as deleted Pos, and that the others
// kept theirs: total Pos+Vel components in all, all in the Pos+Vel group.
func checkStripped(t *testing.T, w *ecs.World, ids []ecs.EntityID, total int) {
	t.Helper()
	must(t, w.Run(func(p ecs.View[Pos], v ecs.View[Vel]) {
		equal(t, "Pos+Vel components", p.Len()+v.Len(), total)
		for _, id := range ids[:2] {
			isTrue(t, !p.Contains(id) && !v.Contains(id), "%v kept a component", id)
		}
		for _, id := range ids[2:] {
			equal(t, "kept Pos", *p.MustGet(id), Pos{float32(id.Index()), p.MustGet(id).Y})
		}
	}))
	n, _, err := ecs.GroupLen[Pos](w)
	must(t, err)
	equal(t, "GroupLen", n, total/2)
	got := deletedOf[Pos](t, w)
	want := []del[Pos]{{ids[0], Pos{0, 0}}, {ids[1], Pos{1, 1}}}
	sameSeq(t, "deleted Pos", got, want)
}
