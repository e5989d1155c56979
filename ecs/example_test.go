package ecs_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/slipway-ecs/slipway/ecs"
)

// The examples use the guide's components, declared in
// book_world_test.go:
//
//	type Pos struct{ X, Y float32 }
//	type Vel struct{ X, Y float32 }

// A system is a function whose parameters are views; Run borrows them,
// calls it and releases them.
func ExampleWorld_Run() {
	w := ecs.NewWorld()
	ecs.AddEntity2(w, Pos{0, 0}, Vel{1, 2})
	ecs.AddEntity2(w, Pos{10, 10}, Vel{-1, 0})
	ecs.AddEntity1(w, Pos{5, 5}) // no Vel: it does not move

	move := func(vmPos ecs.ViewMut[Pos], vVel ecs.View[Vel]) {
		for p, v := range ecs.Join2(vmPos, vVel).All() {
			p.X += v.X
			p.Y += v.Y
		}
	}
	if err := w.Run(move); err != nil {
		fmt.Println(err)
	}

	w.Run(func(vPos ecs.View[Pos]) {
		var out []string
		for p := range vPos.All() {
			out = append(out, fmt.Sprint(*p))
		}
		slices.Sort(out) // iteration order is unspecified
		fmt.Println(strings.Join(out, " "))
	})
	// Output: {1 2} {5 5} {9 10}
}

// A join visits the entities that have every joined component; Not
// excludes those that have another.
func ExampleJoin2() {
	w := ecs.NewWorld()
	type Frozen struct{}
	a, _ := ecs.AddEntity2(w, Pos{1, 1}, Vel{1, 0})
	ecs.AddEntity3(w, Pos{2, 2}, Vel{1, 0}, Frozen{})
	ecs.AddEntity1(w, Pos{3, 3})

	w.Run(func(vPos ecs.View[Pos], vVel ecs.View[Vel], vFrozen ecs.View[Frozen]) {
		fmt.Println("with Pos and Vel:", ecs.Join2(vPos, vVel).Count())
		for id, row := range ecs.Join2(vPos, vVel).Not(vFrozen).WithID() {
			fmt.Println("moving and not frozen:", id == a, *row.A, *row.B)
		}
		// The cursor form: no function call per entity.
		it := ecs.Join1(vPos).Not(vVel)
		for it.Next() {
			fmt.Println("still:", *it.Values())
		}
	})
	// Output:
	// with Pos and Vel: 2
	// moving and not frozen: true {1 1} {1 0}
	// still: {3 3}
}

// Runs hands a join out as aligned slices: entities given both components
// together sit at the same positions in both storages.
func ExampleIter2_Runs() {
	w := ecs.NewWorld()
	ecs.BulkAddEntity2(w, []Pos{{0, 0}, {1, 1}, {2, 2}}, []Vel{{1, 0}, {1, 0}, {1, 0}})
	ecs.AddEntity1(w, Pos{9, 9}) // no Vel: not joined

	w.Run(func(vPos ecs.ViewMut[Pos], vVel ecs.View[Vel]) {
		for r := range ecs.Join2(vPos, vVel).Runs() {
			vs := r.B[:len(r.A)]
			for i := range r.A {
				r.A[i].X += vs[i].X
			}
			fmt.Println(len(r.IDs), "entities in one run:", r.A)
		}
	})
	// Output:
	// 3 entities in one run: [{1 0} {2 1} {3 2}]
}

// WithID gives each component with the id of its entity.
func ExampleView_WithID() {
	w := ecs.NewWorld()
	ids, _ := ecs.BulkAddEntity1(w, []Pos{{0, 1}, {2, 3}, {4, 5}})
	w.Run(func(vPos ecs.View[Pos]) {
		owner := map[ecs.EntityID]Pos{}
		for id, p := range vPos.WithID() {
			owner[id] = *p
		}
		for _, id := range ids {
			fmt.Println(id, owner[id])
		}
	})
	// Output:
	// EntityID(0.0) {0 1}
	// EntityID(1.0) {2 3}
	// EntityID(2.0) {4 5}
}

// Lookup visits the components of a list of entities, in the list's
// order: here the targets a turret picked, one of which has no position.
func ExampleView_Lookup() {
	w := ecs.NewWorld()
	ids, _ := ecs.BulkAddEntity1(w, []Pos{{0, 1}, {2, 3}, {4, 5}})
	ghost, _ := w.AddEntity()
	targets := []ecs.EntityID{ids[2], ghost, ids[0]}
	w.Run(func(vPos ecs.View[Pos]) {
		for id, p := range vPos.Lookup(targets) {
			fmt.Println(id, *p)
		}
	})
	// Output:
	// EntityID(2.0) {4 5}
	// EntityID(0.0) {0 1}
}

// Entities are created with their components; an entity has at most one
// component of each type.
func ExampleAddEntity2() {
	w := ecs.NewWorld()
	id, err := ecs.AddEntity2(w, Pos{1, 2}, Vel{3, 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	p, v, _ := ecs.Get2[Pos, Vel](w, id)
	fmt.Println(id, p, v)

	// Adding a component of a type the entity has replaces it.
	ecs.AddComponent1(w, id, Vel{0, 0})
	v, _ = ecs.Get[Vel](w, id)
	fmt.Println(v)
	// Output:
	// EntityID(0.0) {1 2} {3 4}
	// {0 0}
}

// Borrow gives views outside a system, and fails instead of blocking when
// a view conflicts with one held elsewhere.
func ExampleWorld_Borrow() {
	w := ecs.NewWorld()
	id, _ := ecs.AddEntity1(w, Pos{1, 2})

	var vPos ecs.View[Pos]
	release, err := w.Borrow(&vPos)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(*vPos.MustGet(id))

	// While vPos is held, Pos cannot be borrowed exclusively.
	var vmPos ecs.ViewMut[Pos]
	_, err = w.Borrow(&vmPos)
	fmt.Println(err)
	fmt.Println(errors.Is(err, ecs.ErrBorrowConflict))

	release()
	releaseMut, err := w.Borrow(&vmPos)
	fmt.Println(err)
	vmPos.MustGet(id).X = 10
	releaseMut()
	p, _ := ecs.Get[Pos](w, id)
	fmt.Println(p)
	// Output:
	// {1 2}
	// ecs: cannot borrow ecs_test.Pos as ViewMut[ecs_test.Pos] for World.Borrow: already borrowed as View[ecs_test.Pos] by World.Borrow
	// true
	// <nil>
	// {10 2}
}

// The guide's clean_up: flag entities with a tag component, then delete
// every flagged entity at once.
func ExampleDeleteAny() {
	type ToDelete struct{}
	w := ecs.NewWorld()
	ids, _ := ecs.BulkAddEntity1(w, []Pos{{0, 0}, {1, 1}, {2, 2}, {3, 3}})

	w.Run(func(entities ecs.EntitiesView, vPos ecs.View[Pos], vmDel ecs.ViewMut[ToDelete]) {
		for id, p := range vPos.WithID() {
			if p.X >= 2 {
				vmDel.AddComponent(entities, id, ToDelete{})
			}
		}
	})
	cleanUp := func(all ecs.AllStoragesViewMut) error {
		n, err := ecs.DeleteAny[ToDelete](all)
		fmt.Println("deleted", n)
		return err
	}
	w.Run(cleanUp)
	for _, id := range ids {
		fmt.Println(id, w.IsAlive(id))
	}
	// Output:
	// deleted 2
	// EntityID(0.0) true
	// EntityID(1.0) true
	// EntityID(2.0) false
	// EntityID(3.0) false
}

// Uniques hold data there is one of; systems reach them with UniqueView
// and UniqueViewMut.
func ExampleAddUnique() {
	type Score struct{ Points int }
	w := ecs.NewWorld()
	ecs.AddUnique(w, Score{})
	ecs.BulkAddEntity1(w, []Pos{{}, {}, {}})

	count := func(score ecs.UniqueViewMut[Score], vPos ecs.View[Pos]) {
		score.Get().Points += vPos.Len()
	}
	w.Run(count)
	w.Run(count)
	s, _ := ecs.GetUnique[Score](w)
	fmt.Println(s.Points)

	// A system asking for a unique that is not there does not run.
	err := w.Run(func(ecs.UniqueView[Camera]) {})
	fmt.Println(errors.Is(err, ecs.ErrMissingUnique))
	// Output:
	// 6
	// true
}

// A system's error comes back from Run with the system's name;
// errors.Is and errors.As see through it.
func ExampleSystemFailure() {
	errVictory := errors.New("victory")
	w := ecs.NewWorld()
	checkGameOver := func(vPos ecs.View[Pos]) error {
		if vPos.IsEmpty() {
			return errVictory
		}
		return nil
	}
	err := w.Run(checkGameOver)
	fmt.Println(errors.Is(err, errVictory))
	var sf *ecs.SystemFailure
	fmt.Println(errors.As(err, &sf) && sf.Err == errVictory)
	// Output:
	// true
	// true
}

// A deleted entity's slot is reused with a new generation: the old id
// stays dead.
func ExampleEntityID() {
	w := ecs.NewWorld()
	old, _ := ecs.AddEntity1(w, Pos{})
	w.DeleteEntity(old)
	reused, _ := ecs.AddEntity1(w, Pos{})
	fmt.Println(old, reused)
	fmt.Println(old.Index() == reused.Index(), reused.Generation())
	_, err := ecs.Get[Pos](w, old)
	fmt.Println(err)
	// Output:
	// EntityID(0.0) EntityID(0.1)
	// true 1
	// ecs: Get: EntityID(0.0) is not alive (deleted, or never created by this world)
}

// Remove takes a component out and returns it; an absent component is
// reported with ok == false, not an error.
func ExampleRemove() {
	w := ecs.NewWorld()
	id, _ := ecs.AddEntity2(w, Pos{1, 2}, Vel{3, 4})
	v, ok, err := ecs.Remove[Vel](w, id)
	fmt.Println(v, ok, err)
	v, ok, err = ecs.Remove[Vel](w, id)
	fmt.Println(v, ok, err)
	// Output:
	// {3 4} true <nil>
	// {0 0} false <nil>
}

// Bulk adds create many entities at once from parallel slices.
func ExampleBulkAddEntity2() {
	w := ecs.NewWorld()
	ids, err := ecs.BulkAddEntity2(w, []Pos{{0, 0}, {1, 1}}, []Vel{{1, 0}, {0, 1}})
	fmt.Println(ids, err)
	_, err = ecs.BulkAddEntity2(w, []Pos{{0, 0}}, []Vel{})
	fmt.Println(errors.Is(err, ecs.ErrLengthMismatch), w.EntityCount())
	// Output:
	// [EntityID(0.0) EntityID(1.0)] <nil>
	// true 2
}

// BulkAppendEntity2 appends the new ids to a slice, which can be reused
// from frame to frame.
func ExampleBulkAppendEntity2() {
	w := ecs.NewWorld()
	ids := make([]ecs.EntityID, 0, 4)
	for frame := range 2 {
		ids, _ = ecs.BulkAppendEntity2(w, ids[:0], []Pos{{0, 0}, {1, 1}}, []Vel{{1, 0}, {0, 1}})
		fmt.Println(frame, ids, cap(ids))
		_ = w.DeleteEntities(ids...)
	}
	// Output:
	// 0 [EntityID(0.0) EntityID(1.0)] 4
	// 1 [EntityID(1.1) EntityID(0.1)] 4
}

// BulkAddComponent2 gives many existing entities their components at once;
// a dead id among them is refused, with its position, before anything
// changes.
func ExampleBulkAddComponent2() {
	w := ecs.NewWorld()
	first, _ := w.AddEntity()
	more, _ := ecs.BulkAddEntity1(w, []Pos{{5, 5}, {6, 6}})
	all := append([]ecs.EntityID{first}, more...)

	err := ecs.BulkAddComponent2(w, all, []Pos{{0, 0}, {1, 1}, {2, 2}}, []Vel{{1, 0}, {0, 1}, {1, 1}})
	fmt.Println(err)
	fmt.Println(ecs.Get2[Pos, Vel](w, all[1])) // the Pos was replaced

	_ = w.DeleteEntity(all[2])
	err = ecs.BulkAddComponent1(w, all, []Vel{{9, 9}, {9, 9}, {9, 9}})
	var be *ecs.BulkError
	fmt.Println(errors.As(err, &be), be.Index, errors.Is(err, ecs.ErrDeadEntity))
	fmt.Println(ecs.Get[Vel](w, all[0])) // unchanged
	// Output:
	// <nil>
	// {1 1} {0 1} <nil>
	// true 2 true
	// {1 0} <nil>
}

// DeleteEntities deletes many entities with all their components, all or
// nothing; an id given twice is deleted once.
func ExampleDeleteEntities() {
	w := ecs.NewWorld()
	ids, _ := ecs.BulkAddEntity2(w, make([]Pos, 5), make([]Vel, 5))

	fmt.Println(ecs.DeleteEntities(w, ids[1], ids[3], ids[1]), w.EntityCount())
	err := ecs.DeleteEntities(w, ids[0], ids[3])
	fmt.Println(err)
	fmt.Println(w.EntityCount(), w.IsAlive(ids[0]))
	// Output:
	// <nil> 3
	// ecs: DeleteEntities: ids[1]: EntityID(3.0) is not alive (deleted, or never created by this world)
	// 3 true
}

// Inside a system, DeleteEntity kills at once and strips the components
// of every entity deleted meanwhile together, before anything else looks
// at the storages: here, deleting the entities an Each hands out.
func ExampleAllStoragesViewMut_DeleteEntity() {
	w := ecs.NewWorld()
	for i := range 5 {
		ecs.AddEntity2(w, Pos{float32(i), 0}, Vel{})
	}
	w.Run(func(all ecs.AllStoragesViewMut) {
		ecs.Each1(all, func(id ecs.EntityID, p *Pos) {
			if p.X >= 2 {
				all.DeleteEntity(id)
				fmt.Println("deleted", id, "alive:", all.IsAlive(id))
			}
		})
		n := 0
		ecs.Each2(all, func(ecs.EntityID, *Pos, *Vel) { n++ })
		fmt.Println("left with Pos and Vel:", n)
	})
	// Output:
	// deleted EntityID(2.0) alive: false
	// deleted EntityID(3.0) alive: false
	// deleted EntityID(4.0) alive: false
	// left with Pos and Vel: 2
}

// BulkDeleteComponent deletes one component type from many entities and
// reports how many had one.
func ExampleBulkDeleteComponent() {
	w := ecs.NewWorld()
	ids, _ := ecs.BulkAddEntity1(w, make([]Pos, 4))
	_ = ecs.BulkAddComponent1(w, ids[:2], []Vel{{1, 0}, {2, 0}})

	n, err := ecs.BulkDeleteComponent[Vel](w, ids...)
	fmt.Println(n, err)
	fmt.Println(ecs.Contains[Vel](w, ids[0]))
	// Output:
	// 2 <nil>
	// false <nil>
}

// MemoryUsage reports each storage's bytes, used and allocated, and what
// the used bytes are made of; ShrinkToFit gives back what is not used.
// Entities created in order with their components, as here, are the
// storage's identity prefix and need no sparse pages; the entities of a
// storage that gets its components in another order each use 8 bytes of
// sparse page.
func ExampleWorld_MemoryUsage() {
	w := ecs.NewWorld()
	const n = 100_000
	ids, _ := ecs.BulkAddEntity1(w, make([]Pos, n))
	_, _ = ecs.BulkAddEntity1(w, make([]Vel, n)) // indices n..2n-1: not Vel's prefix
	r, _ := w.MemoryUsage()
	for _, s := range r.Storages {
		fmt.Printf("%s: %d components, %d sparse pages\n", s.Type, s.Components, s.Pages)
		fmt.Printf("bytes per component: %.0f of data, %.0f of id, %.2f of sparse page\n",
			float64(s.DataBytes)/n, float64(s.IDBytes)/n, float64(s.PageBytes)/n)
	}

	_ = w.DeleteEntities(ids[1000:]...)
	_ = w.ShrinkToFit()
	r, _ = w.MemoryUsage()
	s := r.Storages[0]
	fmt.Printf("after deleting all but 1,000: %d components, %d sparse pages, %d bytes used\n", s.Components, s.Pages, s.UsedBytes)
	// Output:
	// ecs_test.Pos: 100000 components, 0 sparse pages
	// bytes per component: 8 of data, 8 of id, 0.00 of sparse page
	// ecs_test.Vel: 100000 components, 99 sparse pages
	// bytes per component: 8 of data, 8 of id, 8.11 of sparse page
	// after deleting all but 1,000: 1000 components, 0 sparse pages, 16000 bytes used
}
