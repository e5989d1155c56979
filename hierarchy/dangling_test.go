package hierarchy_test

import (
	"errors"
	"iter"
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/hierarchy"
)

// walker is what View and ViewMut both offer to walk the trees.
type walker interface {
	Children(ecs.EntityID) iter.Seq[ecs.EntityID]
	Ancestors(ecs.EntityID) iter.Seq[ecs.EntityID]
	Descendants(ecs.EntityID) iter.Seq[ecs.EntityID]
	DescendantsBreadthFirst(ecs.EntityID) iter.Seq[ecs.EntityID]
	ChildrenErr(ecs.EntityID) iter.Seq2[ecs.EntityID, error]
	AncestorsErr(ecs.EntityID) iter.Seq2[ecs.EntityID, error]
	DescendantsErr(ecs.EntityID) iter.Seq2[ecs.EntityID, error]
	DescendantsBreadthFirstErr(ecs.EntityID) iter.Seq2[ecs.EntityID, error]
	Depth(ecs.EntityID) (int, error)
}

var (
	_ walker = hierarchy.View{}
	_ walker = hierarchy.ViewMut{}
)

// walkAll runs every walk from every entity given and returns the errors
// that ended them. It must not panic nor loop.
// allBroken fails for each of errs that does not wrap ErrBrokenLink.
func allBroken(t *testing.T, errs []error) {
	t.Helper()
	for _, err := range errs {
		if !errors.Is(err, hierarchy.ErrBrokenLink) {
			t.Errorf("walk error %v does not wrap ErrBrokenLink", err)
		}
	}
}

// attachesRefusedCleanly attaches every id of all to every other in turn
// and fails for each refusal that changed the hierarchy.
func attachesRefusedCleanly(t *testing.T, h hierarchy.ViewMut, all []ecs.EntityID) {
	t.Helper()
	for _, id := range all {
		for _, to := range all {
			before := take(h)
			if err := h.Attach(id, to); err != nil && !take(h).equal(before) {
				t.Errorf("Attach(%v, %v) refused (%v) but changed the hierarchy", id, to, err)
			}
		}
	}
}

func walkAll(t *testing.T, v walker, ids []ecs.EntityID) []error {
	t.Helper()
	var errs []error
	for _, id := range ids {
		for _, seq := range []iter.Seq2[ecs.EntityID, error]{
			v.ChildrenErr(id), v.AncestorsErr(id), v.DescendantsErr(id), v.DescendantsBreadthFirstErr(id),
		} {
			n := 0
			for _, err := range seq {
				if n++; n > 1000 {
					t.Fatal("a walk took more than 1000 steps in a tiny hierarchy")
				}
				if err != nil {
					errs = append(errs, err)
				}
			}
		}
		// The plain forms stop quietly.
		for _, seq := range []iter.Seq[ecs.EntityID]{
			v.Children(id), v.Ancestors(id), v.Descendants(id), v.DescendantsBreadthFirst(id),
		} {
			n := 0
			for range seq {
				if n++; n > 1000 {
					t.Fatal("a walk took more than 1000 steps in a tiny hierarchy")
				}
			}
		}
		if _, err := v.Depth(id); err != nil {
			errs = append(errs, err)
		}
		if v, ok := v.(hierarchy.View); ok {
			propagateAgrees(t, v, id)
		}
	}
	return errs
}

// TestDanglingLinks deletes hierarchy members with a plain World.DeleteEntity,
// which the hierarchy cannot see, and checks that the walks end with a clear
// error, that Check reports the broken links and that changes across them
// are refused without changing anything.
func TestDanglingLinks(t *testing.T) {
	for _, victim := range []string{"root", "a", "a1", "a2", "a21", "b"} {
		t.Run(victim, func(t *testing.T) {
			w := ecs.NewWorld()
			var x tree
			var all []ecs.EntityID
			must(t, w.Run(func(h hierarchy.ViewMut) {
				growMain(t, h, &x)
				all = []ecs.EntityID{x.root, x.a, x.a1, x.a2, x.a21, x.b}
			}))
			dead := map[string]ecs.EntityID{"root": x.root, "a": x.a, "a1": x.a1, "a2": x.a2, "a21": x.a21, "b": x.b}[victim]
			must(t, w.DeleteEntity(dead))

			err := hierarchy.Check(w)
			if !errors.Is(err, hierarchy.ErrBrokenLink) || !errors.Is(err, ecs.ErrDeadEntity) {
				t.Fatalf("Check = %v, want broken links to a dead entity", err)
			}
			var le *hierarchy.LinkError
			if !errors.As(err, &le) {
				t.Fatalf("Check's error holds no *LinkError: %v", err)
			}

			var v hierarchy.View
			release, berr := w.Borrow(&v)
			must(t, berr)
			errs := walkAll(t, v, all)
			release()
			h := borrowMut(t, w)
			errs = append(errs, walkAll(t, h, all)...)
			if len(errs) == 0 {
				t.Fatal("no walk reported the dangling link")
			}
			allBroken(t, errs)

			// Every change either works or is refused with nothing changed;
			// none panics.
			attachesRefusedCleanly(t, h, all)
			for _, id := range all {
				for _, op := range []func(ecs.EntityID) error{h.Detach, h.Remove, h.RemoveAll} {
					before := take(h)
					if err := op(id); err != nil && !take(h).equal(before) {
						t.Errorf("a change of %v refused (%v) but changed the hierarchy", id, err)
					}
				}
			}
		})
	}
}

// TestDanglingWalks checks the walk errors of a deleted middle node, one by
// one.
func TestDanglingWalks(t *testing.T) {
	w := ecs.NewWorld()
	var root, a, b, c ecs.EntityID
	must(t, w.Run(func(h hierarchy.ViewMut) {
		root = h.Entities.AddEntity()
		a = mustNew(t, h, root)
		b = mustNew(t, h, root)
		c = mustNew(t, h, b)
	}))
	must(t, w.DeleteEntity(b))
	must(t, w.Run(func(v hierarchy.View) {
		var got []ecs.EntityID
		var last error
		for id, err := range v.DescendantsErr(root) {
			if err != nil {
				last = err
				break
			}
			got = append(got, id)
		}
		wantSeq(t, "Descendants(root) before the break", got, a)
		var le *hierarchy.LinkError
		if !errors.As(last, &le) || le.ID != a || le.Link != "Child.Next" || le.Target != b {
			t.Errorf("Descendants(root) ended with %v, want a.Child.Next = b dead", last)
		}
		if _, err := v.Depth(c); !errors.Is(err, ecs.ErrDeadEntity) {
			t.Errorf("Depth(c) error = %v, want a dead parent", err)
		}
		wantSeq(t, "Ancestors(c)", slices.Collect(v.Ancestors(c)))
		for _, err := range v.ChildrenErr(b) {
			if !errors.Is(err, ecs.ErrDeadEntity) {
				t.Errorf("Children of a dead entity ended with %v", err)
			}
		}
	}))
}

// TestCorruptedByHand breaks the links in the ways a careless hand could, and
// checks that no walk panics or loops, that Check reports the damage and that
// the changes refuse to work across it.
func TestCorruptedByHand(t *testing.T) {
	cases := []struct {
		name    string
		corrupt func(h hierarchy.ViewMut, x tree)
		unseen  bool // no walk follows the broken link: only Check sees it
	}{
		{"a cycle of parents", func(h hierarchy.ViewMut, x tree) {
			// root becomes a21's child: root → a → a2 → a21 → root.
			must(t, h.ParentView.AddComponent(h.Entities, x.a21, hierarchy.Parent{NumChildren: 1, FirstChild: x.root}))
			must(t, h.ChildView.AddComponent(h.Entities, x.root, hierarchy.Child{Parent: x.a21, Prev: x.root, Next: x.root}))
		}, false},
		{"an entity its own parent", func(h hierarchy.ViewMut, x tree) {
			must(t, h.ParentView.AddComponent(h.Entities, x.b, hierarchy.Parent{NumChildren: 1, FirstChild: x.b}))
			h.ChildView.MustGet(x.b).Parent = x.b
		}, false},
		{"a sibling chain that never closes", func(h hierarchy.ViewMut, x tree) {
			h.ChildView.MustGet(x.a2).Next = x.a2
		}, false},
		{"a count too large", func(h hierarchy.ViewMut, x tree) {
			h.ParentView.MustGet(x.a).NumChildren = 1 << 30
		}, false},
		{"a count too small", func(h hierarchy.ViewMut, x tree) {
			h.ParentView.MustGet(x.a).NumChildren = 1
		}, false},
		{"a zero count", func(h hierarchy.ViewMut, x tree) {
			h.ParentView.MustGet(x.a).NumChildren = 0
		}, false},
		{"a negative count", func(h hierarchy.ViewMut, x tree) {
			h.ParentView.MustGet(x.root).NumChildren = -3
		}, false},
		{"a next sibling in another family", func(h hierarchy.ViewMut, x tree) {
			h.ChildView.MustGet(x.a1).Next = x.b
		}, false},
		{"a child without its Child component", func(h hierarchy.ViewMut, x tree) {
			h.ChildView.Delete(x.a2)
		}, false},
		{"a parent without its Parent component", func(h hierarchy.ViewMut, x tree) {
			h.ParentView.Delete(x.a2)
		}, false},
		{"a first child that is not a child", func(h hierarchy.ViewMut, x tree) {
			h.ParentView.MustGet(x.a).FirstChild = x.b
		}, false},
		{"a next link to the null id", func(h hierarchy.ViewMut, x tree) {
			h.ChildView.MustGet(x.a1).Next = ecs.NullID
		}, false},
		{"a prev link to the null id", func(h hierarchy.ViewMut, x tree) {
			h.ChildView.MustGet(x.a1).Prev = ecs.NullID
		}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := ecs.NewWorld()
			h, x, release := buildIn(t, w)
			defer func() { release() }()
			tc.corrupt(h, x)
			all := []ecs.EntityID{x.root, x.a, x.a1, x.a2, x.a21, x.b, x.other, x.o1, x.lone}
			if err := h.Check(); !errors.Is(err, hierarchy.ErrBrokenLink) {
				t.Errorf("Check = %v, want broken links", err)
			}
			errs := walkAll(t, h, all)
			if len(errs) == 0 && !tc.unseen {
				t.Error("no walk reported the damage")
			}
			allBroken(t, errs)
			attachesRefusedCleanly(t, h, all)

			// Propagate, which only a View offers, ends as DescendantsErr.
			release()
			var v hierarchy.View
			release, err := w.Borrow(&v)
			must(t, err)
			for _, id := range all {
				propagateAgrees(t, v, id)
			}
		})
	}
}
