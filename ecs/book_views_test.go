package ecs_test

// The "Views" part of the World chapter: storage access follows Go's
// version of Rust's borrowing rules — as many shared accesses to a storage
// as you like, or a single exclusive one.

import (
	"fmt"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

type bookCamera struct{ Zoom float32 }

// viewKind is one kind of view: how to borrow it with World.Borrow, and a
// system that asks for it.
type viewKind struct {
	name   string
	borrow func(w *ecs.World) (func(), error)
	system any
}

func viewKinds() []viewKind {
	return []viewKind{
		{"View[Pos]", func(w *ecs.World) (func(), error) { var v ecs.View[Pos]; return w.Borrow(&v) }, func(ecs.View[Pos]) {}},
		{"ViewMut[Pos]", func(w *ecs.World) (func(), error) { var v ecs.ViewMut[Pos]; return w.Borrow(&v) }, func(ecs.ViewMut[Pos]) {}},
		{"View[Vel]", func(w *ecs.World) (func(), error) { var v ecs.View[Vel]; return w.Borrow(&v) }, func(ecs.View[Vel]) {}},
		{"ViewMut[Vel]", func(w *ecs.World) (func(), error) { var v ecs.ViewMut[Vel]; return w.Borrow(&v) }, func(ecs.ViewMut[Vel]) {}},
		{"UniqueView[bookCamera]", func(w *ecs.World) (func(), error) { var v ecs.UniqueView[bookCamera]; return w.Borrow(&v) }, func(ecs.UniqueView[bookCamera]) {}},
		{"UniqueViewMut[bookCamera]", func(w *ecs.World) (func(), error) { var v ecs.UniqueViewMut[bookCamera]; return w.Borrow(&v) }, func(ecs.UniqueViewMut[bookCamera]) {}},
		{"EntitiesView", func(w *ecs.World) (func(), error) { var v ecs.EntitiesView; return w.Borrow(&v) }, func(ecs.EntitiesView) {}},
		{"EntitiesViewMut", func(w *ecs.World) (func(), error) { var v ecs.EntitiesViewMut; return w.Borrow(&v) }, func(ecs.EntitiesViewMut) {}},
		{"AllStoragesViewMut", func(w *ecs.World) (func(), error) { var v ecs.AllStoragesViewMut; return w.Borrow(&v) }, func(ecs.AllStoragesViewMut) {}},
	}
}

// compatible is the borrow rule: two views can be held together unless
// they touch the same storage and one of them is exclusive, or one of them
// is AllStoragesViewMut.
func compatible(a, b string) bool {
	if a == "AllStoragesViewMut" || b == "AllStoragesViewMut" {
		return false
	}
	resource := map[string]string{
		"View[Pos]": "Pos", "ViewMut[Pos]": "Pos", "View[Vel]": "Vel", "ViewMut[Vel]": "Vel",
		"UniqueView[bookCamera]": "Camera", "UniqueViewMut[bookCamera]": "Camera",
		"EntitiesView": "entities", "EntitiesViewMut": "entities",
	}
	exclusive := map[string]bool{"ViewMut[Pos]": true, "ViewMut[Vel]": true, "UniqueViewMut[bookCamera]": true, "EntitiesViewMut": true}
	return resource[a] != resource[b] || (!exclusive[a] && !exclusive[b])
}

// TestBookViewsBorrowRules checks every pair of view kinds: one held with
// World.Borrow, the other asked for by a system run meanwhile.
func TestBookViewsBorrowRules(t *testing.T) {
	for _, held := range viewKinds() {
		for _, asked := range viewKinds() {
			t.Run(held.name+"+"+asked.name, func(t *testing.T) {
				w := ecs.NewWorld()
				must(t, ecs.AddUnique(w, bookCamera{1}))
				release, err := held.borrow(w)
				must(t, err)
				err = w.Run(asked.system)
				if compatible(held.name, asked.name) {
					must(t, err)
				} else {
					errIs(t, err, ecs.ErrBorrowConflict)
					be := errAs[*ecs.BorrowError](t, err)
					equal(t, "held access", be.HeldAccess, qualified(held.name))
					equal(t, "asked access", be.Access, qualified(asked.name))
				}
				// The same pair through two borrows gives the same answer.
				release2, err := asked.borrow(w)
				equal(t, "Borrow agrees with Run", err == nil, compatible(held.name, asked.name))
				if err == nil {
					release2()
				}
				release()
				// Once released, everything can be borrowed again.
				release3, err := asked.borrow(w)
				must(t, err)
				release3()
			})
		}
	}
}

// qualified turns "View[Pos]" into the name Slipway prints:
// "View[ecs_test.Pos]".
func qualified(view string) string {
	for _, typ := range []string{"Pos", "Vel", "bookCamera"} {
		for _, kind := range []string{"View", "ViewMut", "UniqueView", "UniqueViewMut"} {
			if view == kind+"["+typ+"]" {
				return kind + "[ecs_test." + typ + "]"
			}
		}
	}
	return view
}

// TestBookViewsManyShared: any number of shared views of one storage at
// once, in one system and across borrows.
func TestBookViewsManyShared(t *testing.T) {
	w := ecs.NewWorld()
	_, err := ecs.AddEntity1(w, Pos{1, 1})
	must(t, err)
	var held [5]ecs.View[Pos]
	for i := range held {
		release, err := w.Borrow(&held[i])
		must(t, err)
		defer release()
	}
	must(t, w.Run(func(a, b, c ecs.View[Pos], e1, e2 ecs.EntitiesView) {
		equal(t, "Len through the third view", c.Len(), 1)
	}))
	for i, v := range held {
		equal(t, fmt.Sprintf("Len through held view %d", i), v.Len(), 1)
	}
}

// TestBookViewsAnyTypeIsAComponent: the guide's components derive a trait;
// in Go every type is a component, including tags, scalars, pointers and
// slices, each with its own storage.
func TestBookViewsAnyTypeIsAComponent(t *testing.T) {
	type tag struct{}
	type named string
	w := ecs.NewWorld()
	x := 7
	id, err := ecs.AddEntity8(w, tag{}, 3, "three", named("n"), &x, []byte("ab"), [2]int{1, 2}, map[string]int{"k": 1})
	must(t, err)
	i, s, n, err := ecs.Get3[int, string, named](w, id)
	must(t, err)
	equal(t, "int component", i, 3)
	equal(t, "string component", s, "three")
	equal(t, "named string component (a distinct type)", n, named("n"))
	p, err := ecs.Get[*int](w, id)
	must(t, err)
	equal(t, "pointer component", p, &x)
	b, err := ecs.Get[[]byte](w, id)
	must(t, err)
	equal(t, "slice component", string(b), "ab")
	has, err := ecs.Contains[tag](w, id)
	must(t, err)
	isTrue(t, has, "tag component missing")
	// A type never used has an empty storage: asking costs nothing and
	// creates no entity.
	has, err = ecs.Contains[float64](w, id)
	must(t, err)
	isTrue(t, !has, "float64 component that was never added")
}

// TestBookViewsPrinting follows "Printing a view": pairs in storage
// order, the kind and type under %+v, and a released view that prints
// so rather than panicking.
func TestBookViewsPrinting(t *testing.T) {
	w := ecs.NewWorld()
	a, _ := ecs.AddEntity1(w, bookCamera{1})
	_, _ = ecs.AddEntity1(w, bookCamera{2})
	_, _ = ecs.DeleteComponent[bookCamera](w, a) // the last moves first
	var kept ecs.ViewMut[bookCamera]
	must(t, w.Run(func(v ecs.ViewMut[bookCamera]) {
		equal(t, "%v", fmt.Sprint(v), "[(EntityID(1.0), {2})]")
		equal(t, "%+v", fmt.Sprintf("%+v", v), "ViewMut[ecs_test.bookCamera] [(EntityID(1.0), {Zoom:2})]")
		kept = v
	}))
	equal(t, "released", fmt.Sprint(kept), "ViewMut[ecs_test.bookCamera](released)")
}
