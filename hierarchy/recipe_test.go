package hierarchy_test

import (
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/hierarchy"
)

// borrowMut borrows a hierarchy.ViewMut of w for the length of the test.
func borrowMut(t testing.TB, w *ecs.World) hierarchy.ViewMut {
	t.Helper()
	var h hierarchy.ViewMut
	release, err := w.Borrow(&h)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	return h
}

// must fails the test on a non-nil error.
func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// mustNew is AttachNew that fails the test on error.
func mustNew(t testing.TB, h hierarchy.ViewMut, parent ecs.EntityID) ecs.EntityID {
	t.Helper()
	id, err := h.AttachNew(parent)
	must(t, err)
	return id
}

// wantSeq checks that a walk yields exactly want.
func wantSeq(t testing.TB, what string, got []ecs.EntityID, want ...ecs.EntityID) {
	t.Helper()
	if want == nil {
		want = []ecs.EntityID{}
	}
	if got == nil {
		got = []ecs.EntityID{}
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// TestRecipeHierarchy is the recipe's test_hierarchy, followed by its
// continuation: detach, remove and remove_all.
func TestRecipeHierarchy(t *testing.T) {
	w := ecs.NewWorld()
	h := borrowMut(t, w)

	root1 := h.Entities.AddEntity()
	root2 := h.Entities.AddEntity()

	e1 := mustNew(t, h, root1)
	e2 := mustNew(t, h, e1)
	e3 := mustNew(t, h, e1)
	e4 := mustNew(t, h, e3)

	must(t, h.Attach(e3, root2))

	e5 := mustNew(t, h, e3)

	wantSeq(t, "children(e3)", slices.Collect(h.Children(e3)), e4, e5)
	wantSeq(t, "ancestors(e4)", slices.Collect(h.Ancestors(e4)), e3, root2)
	wantSeq(t, "descendants(root1)", slices.Collect(h.Descendants(root1)), e1, e2)
	wantSeq(t, "descendants(root2)", slices.Collect(h.Descendants(root2)), e3, e4, e5)
	must(t, h.Check())

	must(t, h.Detach(e1))

	wantSeq(t, "descendants(root1)", slices.Collect(h.Descendants(root1)))
	wantSeq(t, "ancestors(e1)", slices.Collect(h.Ancestors(e1)))
	wantSeq(t, "children(e1)", slices.Collect(h.Children(e1)), e2)
	must(t, h.Check())

	must(t, h.Remove(e1))

	wantSeq(t, "children(e1)", slices.Collect(h.Children(e1)))
	must(t, h.Check())

	must(t, h.RemoveAll(root2))

	wantSeq(t, "descendants(root2)", slices.Collect(h.Descendants(root2)))
	wantSeq(t, "descendants(e3)", slices.Collect(h.Descendants(e3)))
	wantSeq(t, "ancestors(e5)", slices.Collect(h.Ancestors(e5)))
	must(t, h.Check())

	// Nothing is left of the hierarchy: every entity is alive, outside it.
	if n, m := h.ParentView.Len(), h.ChildView.Len(); n != 0 || m != 0 {
		t.Errorf("%d Parent and %d Child components left, want none", n, m)
	}
	if n := h.Entities.Len(); n != 7 {
		t.Errorf("%d live entities, want 7", n)
	}
}

// TestRecipeSorting is the recipe's test_sorting.
func TestRecipeSorting(t *testing.T) {
	w := ecs.NewWorld()
	var (
		h      hierarchy.ViewMut
		usizes ecs.ViewMut[uint]
	)
	release, err := w.Borrow(&h, &usizes)
	must(t, err)
	defer release()

	root := h.Entities.AddEntity()

	e0 := mustNew(t, h, root)
	e1 := mustNew(t, h, root)
	e2 := mustNew(t, h, root)
	e3 := mustNew(t, h, root)
	e4 := mustNew(t, h, root)

	must(t, usizes.AddComponent(h.Entities, e0, 7))
	must(t, usizes.AddComponent(h.Entities, e1, 5))
	must(t, usizes.AddComponent(h.Entities, e2, 6))
	must(t, usizes.AddComponent(h.Entities, e3, 1))
	must(t, usizes.AddComponent(h.Entities, e4, 3))

	wantSeq(t, "children(root)", slices.Collect(h.Children(root)), e0, e1, e2, e3, e4)

	must(t, h.SortChildren(root, func(a, b ecs.EntityID) bool {
		return *usizes.MustGet(a) < *usizes.MustGet(b)
	}))

	wantSeq(t, "children(root)", slices.Collect(h.Children(root)), e3, e4, e1, e2, e0)
	must(t, h.Check())
}

// TestSharedView walks through a hierarchy.View, in a system, what a ViewMut
// built.
func TestSharedView(t *testing.T) {
	w := ecs.NewWorld()
	var root, a, b, c, d ecs.EntityID
	must(t, w.Run(func(h hierarchy.ViewMut) {
		root = h.Entities.AddEntity()
		a = mustNew(t, h, root)
		b = mustNew(t, h, root)
		c = mustNew(t, h, a)
		d = mustNew(t, h, b)
	}))
	must(t, w.Run(func(v hierarchy.View) {
		wantSeq(t, "Children", slices.Collect(v.Children(root)), a, b)
		wantSeq(t, "Descendants", slices.Collect(v.Descendants(root)), a, c, b, d)
		wantSeq(t, "DescendantsBreadthFirst", slices.Collect(v.DescendantsBreadthFirst(root)), a, b, c, d)
		wantSeq(t, "Ancestors", slices.Collect(v.Ancestors(d)), b, root)
		if n, err := v.Depth(d); n != 2 || err != nil {
			t.Errorf("Depth(d) = %d, %v, want 2, nil", n, err)
		}
		if p, ok := v.Parent(c); p != a || !ok {
			t.Errorf("Parent(c) = %v, %v, want %v, true", p, ok, a)
		}
		if _, ok := v.Parent(root); ok {
			t.Errorf("Parent(root) reports a parent")
		}
		if n := v.NumChildren(root); n != 2 {
			t.Errorf("NumChildren(root) = %d, want 2", n)
		}
	}))
	// Two shared views of the hierarchy do not conflict; a shared and an
	// exclusive one do.
	must(t, w.Run(func(v1, v2 hierarchy.View) {}))
	if err := w.Run(func(v hierarchy.View, h hierarchy.ViewMut) {}); err == nil {
		t.Error("View beside ViewMut did not conflict")
	}
	must(t, hierarchy.Check(w))
}
