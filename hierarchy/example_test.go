package hierarchy_test

import (
	"errors"
	"fmt"
	"slices"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/hierarchy"
)

// Local is an entity's position relative to its parent.
type Local struct{ X, Y float64 }

// Global is an entity's position in the world: its parent's Global plus its
// own Local.
type Global struct{ X, Y float64 }

// propagate is the transform system: it computes every Global from the
// Locals, down each tree, parents before their children. Propagate hands
// each entity its parent's Global, so that it needs no look-up.
func propagate(t hierarchy.View, local ecs.View[Local], global ecs.ViewMut[Global]) error {
	// Every Global starts as its Local: right for the roots, and for the
	// entities in no tree.
	for l, g := range ecs.Join2(local, global).All() {
		*g = Global(*l)
	}
	// Then each tree, down from its root.
	for root := range t.Roots() {
		err := hierarchy.Propagate(t, root, *global.MustGet(root), func(id ecs.EntityID, parent Global) Global {
			l, g := local.MustGet(id), global.MustGet(id)
			*g = Global{parent.X + l.X, parent.Y + l.Y}
			return *g
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// Transform propagation as a system of a workload: a ship carries a turret,
// which carries a gun; moving the ship moves them all.
func Example_transform() {
	w := ecs.NewWorld()
	ship, _ := ecs.AddEntity2(w, Local{100, 50}, Global{})
	turret, _ := ecs.AddEntity2(w, Local{0, 10}, Global{})
	gun, _ := ecs.AddEntity2(w, Local{5, 0}, Global{})
	flag, _ := ecs.AddEntity2(w, Local{-3, 4}, Global{})

	_ = w.Run(func(h hierarchy.ViewMut) error {
		return errors.Join(h.Attach(turret, ship), h.Attach(gun, turret), h.Attach(flag, ship))
	})
	if err := w.AddWorkload("transform", ecs.FuncErr3(propagate)); err != nil {
		fmt.Println(err)
		return
	}

	show := func() {
		var gs []Global
		for _, id := range []ecs.EntityID{ship, turret, gun, flag} {
			g, _ := ecs.Get[Global](w, id)
			gs = append(gs, g)
		}
		fmt.Println(gs)
	}
	_ = w.RunWorkload("transform")
	show()

	_ = ecs.AddComponent1(w, ship, Local{0, 0}) // the ship moves
	_ = w.RunWorkload("transform")
	show()
	// Output:
	// [{100 50} {100 60} {105 60} {97 54}]
	// [{0 0} {0 10} {5 10} {-3 4}]
}

// A tree built through World.Borrow, walked in the orders the package offers.
func Example() {
	w := ecs.NewWorld()
	var h hierarchy.ViewMut
	release, err := w.Borrow(&h)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer release()

	names := map[ecs.EntityID]string{}
	add := func(name string, parent ecs.EntityID) ecs.EntityID {
		id, _ := h.AttachNew(parent)
		names[id] = name
		return id
	}
	root := h.Entities.AddEntity()
	names[root] = "root"
	a := add("a", root)
	add("a1", a)
	a2 := add("a2", a)
	add("b", root)
	deep := add("a21", a2)

	show := func(what string, ids []ecs.EntityID) {
		s := make([]string, len(ids))
		for i, id := range ids {
			s[i] = names[id]
		}
		fmt.Println(what, s)
	}
	show("children:", slices.Collect(h.Children(root)))
	show("depth first:", slices.Collect(h.Descendants(root)))
	show("breadth first:", slices.Collect(h.DescendantsBreadthFirst(root)))
	show("ancestors:", slices.Collect(h.Ancestors(deep)))
	d, _ := h.Depth(deep)
	fmt.Println("depth:", d)

	err = h.Attach(a, deep)
	fmt.Println(errors.Is(err, hierarchy.ErrCycle))
	// Output:
	// children: [a b]
	// depth first: [a a1 a2 a21 b]
	// breadth first: [a b a1 a2 a21]
	// ancestors: [a2 a root]
	// depth: 3
	// true
}

// Delete re-parents the children of the deleted entity in its place;
// DeleteSubtree deletes them too.
func ExampleViewMut_Delete() {
	w := ecs.NewWorld()
	_ = w.Run(func(h hierarchy.ViewMut) {
		root := h.Entities.AddEntity()
		a, _ := h.AttachNew(root)
		b, _ := h.AttachNew(root)
		c, _ := h.AttachNew(root)
		x, _ := h.AttachNew(b)
		y, _ := h.AttachNew(b)

		_ = h.Delete(b)
		fmt.Println(slices.Equal(slices.Collect(h.Children(root)), []ecs.EntityID{a, x, y, c}))

		n, _ := h.DeleteSubtree(root)
		fmt.Println(n, "deleted;", h.Entities.Len(), "left")
	})
	// Output:
	// true
	// 5 deleted; 0 left
}

// A plain World.DeleteEntity leaves dangling links behind: the walks end with
// an error, and Check reports every broken link.
func ExampleView_DescendantsErr() {
	w := ecs.NewWorld()
	var root, mid ecs.EntityID
	_ = w.Run(func(h hierarchy.ViewMut) {
		root = h.Entities.AddEntity()
		mid, _ = h.AttachNew(root)
		_, _ = h.AttachNew(mid)
	})
	_ = w.DeleteEntity(mid) // not hierarchy's Delete: the links dangle

	_ = w.Run(func(t hierarchy.View) {
		for id, err := range t.DescendantsErr(root) {
			if err != nil {
				fmt.Println(errors.Is(err, hierarchy.ErrBrokenLink), errors.Is(err, ecs.ErrDeadEntity))
				break
			}
			fmt.Println("visited", id)
		}
	})
	err := hierarchy.Check(w)
	var le *hierarchy.LinkError
	fmt.Println(errors.As(err, &le), le.Link)
	// Output:
	// true true
	// true Child.Parent
}

// Propagate carries a value down a tree: here each entity's path from the
// root, built from its parent's.
func ExamplePropagate() {
	w := ecs.NewWorld()
	names := map[ecs.EntityID]string{}
	_ = w.Run(func(h hierarchy.ViewMut) {
		add := func(name string, parent ecs.EntityID) ecs.EntityID {
			id := h.Entities.AddEntity()
			if !parent.IsNull() {
				_ = h.Attach(id, parent)
			}
			names[id] = name
			return id
		}
		root := add("ship", ecs.NullID)
		turret := add("turret", root)
		add("gun", turret)
		add("flag", root)
	})
	_ = w.Run(func(t hierarchy.View) error {
		for root := range t.Roots() {
			err := hierarchy.Propagate(t, root, names[root], func(id ecs.EntityID, parent string) string {
				path := parent + "/" + names[id]
				fmt.Println(path)
				return path
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	// Output:
	// ship/turret
	// ship/turret/gun
	// ship/flag
}

// With Install, a plain World.DeleteEntity of a member mends the tree.
func ExampleInstall() {
	w := ecs.NewWorld()
	if err := hierarchy.Install(w); err != nil {
		fmt.Println(err)
	}
	var root, mid, leaf ecs.EntityID
	_ = w.Run(func(h hierarchy.ViewMut) {
		root = h.Entities.AddEntity()
		mid, _ = h.AttachNew(root)
		leaf, _ = h.AttachNew(mid)
	})
	_ = w.DeleteEntity(mid)
	_ = w.Run(func(t hierarchy.View) {
		p, _ := t.Parent(leaf)
		fmt.Println(p == root, t.NumChildren(root))
	})
	fmt.Println(hierarchy.Check(w))
	// Output:
	// true 1
	// <nil>
}
