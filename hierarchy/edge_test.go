package hierarchy_test

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/hierarchy"
)

// snapshot is every Parent and Child component and the live entities.
type snapshot struct {
	parents  map[ecs.EntityID]hierarchy.Parent
	children map[ecs.EntityID]hierarchy.Child
	live     []ecs.EntityID
}

func take(h hierarchy.ViewMut) snapshot {
	s := snapshot{parents: map[ecs.EntityID]hierarchy.Parent{}, children: map[ecs.EntityID]hierarchy.Child{}}
	for _, id := range h.ParentView.IDs() {
		s.parents[id] = *h.ParentView.MustGet(id)
	}
	for _, id := range h.ChildView.IDs() {
		s.children[id] = *h.ChildView.MustGet(id)
	}
	s.live = slices.Collect(h.Entities.All())
	return s
}

func (s snapshot) equal(o snapshot) bool {
	return maps.Equal(s.parents, o.parents) && maps.Equal(s.children, o.children) && slices.Equal(s.live, o.live)
}

// tree is the fixture of the table tests:
//
//	root ── a ── a1
//	     │    └─ a2 ── a21
//	     └─ b
//	other (a second root) ── o1
//	lone (outside any tree), gone (deleted)
type tree struct {
	root, a, a1, a2, a21, b, other, o1, lone, gone ecs.EntityID
}

// growMain adds the fixture's main tree to h: root with children a and b,
// a with a1 and a2, a2 with a21.
func growMain(t *testing.T, h hierarchy.ViewMut, x *tree) {
	t.Helper()
	x.root = h.Entities.AddEntity()
	x.a = mustNew(t, h, x.root)
	x.a1 = mustNew(t, h, x.a)
	x.a2 = mustNew(t, h, x.a)
	x.a21 = mustNew(t, h, x.a2)
	x.b = mustNew(t, h, x.root)
}

func build(t *testing.T) (hierarchy.ViewMut, tree) {
	t.Helper()
	h, x, release := buildIn(t, ecs.NewWorld())
	t.Cleanup(release)
	return h, x
}

// buildIn is build in w, with the release of the ViewMut it borrows.
func buildIn(t *testing.T, w *ecs.World) (hierarchy.ViewMut, tree, func()) {
	t.Helper()
	var h hierarchy.ViewMut
	release, err := w.Borrow(&h)
	must(t, err)
	var x tree
	growMain(t, h, &x)
	x.other = h.Entities.AddEntity()
	x.o1 = mustNew(t, h, x.other)
	x.lone = h.Entities.AddEntity()
	x.gone = h.Entities.AddEntity()
	if !h.Entities.DeleteUnchecked(x.gone) {
		release()
		t.Fatal("could not delete the fixture's dead entity")
	}
	return h, x, release
}

// TestErrorsChangeNothing checks every refusal: the error's kind, that its
// text names what was wrong, and that nothing changed.
func TestErrorsChangeNothing(t *testing.T) {
	cases := []struct {
		name string
		op   func(h hierarchy.ViewMut, x tree) error
		is   error
		text string // a part of the message
	}{
		{"attach under itself", func(h hierarchy.ViewMut, x tree) error { return h.Attach(x.a, x.a) }, hierarchy.ErrCycle, "own parent"},
		{"attach under its child", func(h hierarchy.ViewMut, x tree) error { return h.Attach(x.a, x.a2) }, hierarchy.ErrCycle, "is a descendant of"},
		{"attach under a deeper descendant", func(h hierarchy.ViewMut, x tree) error { return h.Attach(x.root, x.a21) }, hierarchy.ErrCycle, "is a descendant of"},
		{"attach a root under itself", func(h hierarchy.ViewMut, x tree) error { return h.Attach(x.root, x.root) }, hierarchy.ErrCycle, "own parent"},
		{"attach to a dead parent", func(h hierarchy.ViewMut, x tree) error { return h.Attach(x.b, x.gone) }, ecs.ErrDeadEntity, "parent"},
		{"attach a dead child", func(h hierarchy.ViewMut, x tree) error { return h.Attach(x.gone, x.b) }, ecs.ErrDeadEntity, "entity"},
		{"attach the null id", func(h hierarchy.ViewMut, x tree) error { return h.Attach(ecs.NullID, x.b) }, ecs.ErrDeadEntity, "null"},
		{"attach under the null id", func(h hierarchy.ViewMut, x tree) error { return h.Attach(x.b, ecs.NullID) }, ecs.ErrDeadEntity, "null"},
		{"attach new under a dead parent", func(h hierarchy.ViewMut, x tree) error { _, err := h.AttachNew(x.gone); return err }, ecs.ErrDeadEntity, "parent"},
		{"detach a dead entity", func(h hierarchy.ViewMut, x tree) error { return h.Detach(x.gone) }, ecs.ErrDeadEntity, "Detach"},
		{"remove a dead entity", func(h hierarchy.ViewMut, x tree) error { return h.Remove(x.gone) }, ecs.ErrDeadEntity, "Remove"},
		{"remove all of a dead entity", func(h hierarchy.ViewMut, x tree) error { return h.RemoveAll(x.gone) }, ecs.ErrDeadEntity, "RemoveAll"},
		{"sort a dead entity's children", func(h hierarchy.ViewMut, x tree) error {
			return h.SortChildren(x.gone, func(a, b ecs.EntityID) bool { return a < b })
		}, ecs.ErrDeadEntity, "SortChildren"},
		{"sort with a nil less", func(h hierarchy.ViewMut, x tree) error { return h.SortChildren(x.a, nil) }, ecs.ErrNilFunc, "less is nil"},
		{"delete a dead entity", func(h hierarchy.ViewMut, x tree) error { return h.Delete(x.gone) }, ecs.ErrDeadEntity, "Delete"},
		{"delete the subtree of a dead entity", func(h hierarchy.ViewMut, x tree) error { _, err := h.DeleteSubtree(x.gone); return err }, ecs.ErrDeadEntity, "DeleteSubtree"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h, x := build(t)
			before := take(h)
			err := tc.op(h, x)
			if !errors.Is(err, tc.is) {
				t.Fatalf("error %v, want one wrapping %v", err, tc.is)
			}
			var he *hierarchy.Error
			if !errors.As(err, &he) {
				t.Errorf("error %v is not a *hierarchy.Error", err)
			}
			if !strings.Contains(err.Error(), tc.text) {
				t.Errorf("error %q does not say %q", err, tc.text)
			}
			if !take(h).equal(before) {
				t.Error("the refused change changed the hierarchy")
			}
			must(t, h.Check())
		})
	}
}

// TestEdgeCases checks changes at the edges: only children, first and last
// children, re-attaching to the same parent, entities outside any tree.
func TestEdgeCases(t *testing.T) {
	type walks struct {
		root, a, other []ecs.EntityID // descendants
	}
	cases := []struct {
		name string
		op   func(h hierarchy.ViewMut, x tree) error
		want func(x tree) walks
	}{
		{"nothing", func(h hierarchy.ViewMut, x tree) error { return nil },
			func(x tree) walks {
				return walks{[]ecs.EntityID{x.a, x.a1, x.a2, x.a21, x.b}, []ecs.EntityID{x.a1, x.a2, x.a21}, []ecs.EntityID{x.o1}}
			}},
		{"re-attach the first child to its parent moves it last", func(h hierarchy.ViewMut, x tree) error { return h.Attach(x.a, x.root) },
			func(x tree) walks {
				return walks{[]ecs.EntityID{x.b, x.a, x.a1, x.a2, x.a21}, []ecs.EntityID{x.a1, x.a2, x.a21}, []ecs.EntityID{x.o1}}
			}},
		{"re-attach the last child to its parent keeps it last", func(h hierarchy.ViewMut, x tree) error { return h.Attach(x.b, x.root) },
			func(x tree) walks {
				return walks{[]ecs.EntityID{x.a, x.a1, x.a2, x.a21, x.b}, []ecs.EntityID{x.a1, x.a2, x.a21}, []ecs.EntityID{x.o1}}
			}},
		{"move a subtree keeps its inner order", func(h hierarchy.ViewMut, x tree) error { return h.Attach(x.a, x.o1) },
			func(x tree) walks {
				return walks{[]ecs.EntityID{x.b}, []ecs.EntityID{x.a1, x.a2, x.a21}, []ecs.EntityID{x.o1, x.a, x.a1, x.a2, x.a21}}
			}},
		{"attach a root under another tree", func(h hierarchy.ViewMut, x tree) error { return h.Attach(x.other, x.b) },
			func(x tree) walks {
				return walks{[]ecs.EntityID{x.a, x.a1, x.a2, x.a21, x.b, x.other, x.o1}, []ecs.EntityID{x.a1, x.a2, x.a21}, []ecs.EntityID{x.o1}}
			}},
		{"detach an only child removes the parent's Parent", func(h hierarchy.ViewMut, x tree) error { return h.Detach(x.o1) },
			func(x tree) walks {
				return walks{[]ecs.EntityID{x.a, x.a1, x.a2, x.a21, x.b}, []ecs.EntityID{x.a1, x.a2, x.a21}, nil}
			}},
		{"detach a root or a lone entity does nothing", func(h hierarchy.ViewMut, x tree) error { return errors.Join(h.Detach(x.root), h.Detach(x.lone)) },
			func(x tree) walks {
				return walks{[]ecs.EntityID{x.a, x.a1, x.a2, x.a21, x.b}, []ecs.EntityID{x.a1, x.a2, x.a21}, []ecs.EntityID{x.o1}}
			}},
		{"remove a middle node orphans its children", func(h hierarchy.ViewMut, x tree) error { return h.Remove(x.a) },
			func(x tree) walks { return walks{[]ecs.EntityID{x.b}, nil, []ecs.EntityID{x.o1}} }},
		{"remove a lone entity does nothing", func(h hierarchy.ViewMut, x tree) error { return h.Remove(x.lone) },
			func(x tree) walks {
				return walks{[]ecs.EntityID{x.a, x.a1, x.a2, x.a21, x.b}, []ecs.EntityID{x.a1, x.a2, x.a21}, []ecs.EntityID{x.o1}}
			}},
		{"remove all of a middle node", func(h hierarchy.ViewMut, x tree) error { return h.RemoveAll(x.a2) },
			func(x tree) walks {
				return walks{[]ecs.EntityID{x.a, x.a1, x.b}, []ecs.EntityID{x.a1}, []ecs.EntityID{x.o1}}
			}},
		{"attach a lone entity", func(h hierarchy.ViewMut, x tree) error { return h.Attach(x.lone, x.a) },
			func(x tree) walks {
				return walks{[]ecs.EntityID{x.a, x.a1, x.a2, x.a21, x.lone, x.b}, []ecs.EntityID{x.a1, x.a2, x.a21, x.lone}, []ecs.EntityID{x.o1}}
			}},
		{"attach under a leaf", func(h hierarchy.ViewMut, x tree) error { return h.Attach(x.b, x.a21) },
			func(x tree) walks {
				return walks{[]ecs.EntityID{x.a, x.a1, x.a2, x.a21, x.b}, []ecs.EntityID{x.a1, x.a2, x.a21, x.b}, []ecs.EntityID{x.o1}}
			}},
		{"sort reverses", func(h hierarchy.ViewMut, x tree) error {
			return h.SortChildren(x.a, func(p, q ecs.EntityID) bool { return p > q })
		},
			func(x tree) walks {
				return walks{[]ecs.EntityID{x.a, x.a2, x.a21, x.a1, x.b}, []ecs.EntityID{x.a2, x.a21, x.a1}, []ecs.EntityID{x.o1}}
			}},
		{"sort a leaf does nothing", func(h hierarchy.ViewMut, x tree) error {
			return h.SortChildren(x.b, func(p, q ecs.EntityID) bool { return p > q })
		},
			func(x tree) walks {
				return walks{[]ecs.EntityID{x.a, x.a1, x.a2, x.a21, x.b}, []ecs.EntityID{x.a1, x.a2, x.a21}, []ecs.EntityID{x.o1}}
			}},
		{"delete re-parents the children in place", func(h hierarchy.ViewMut, x tree) error { return h.Delete(x.a) },
			func(x tree) walks { return walks{[]ecs.EntityID{x.a1, x.a2, x.a21, x.b}, nil, []ecs.EntityID{x.o1}} }},
		{"delete an only child with children", func(h hierarchy.ViewMut, x tree) error { return h.Delete(x.a2) },
			func(x tree) walks {
				return walks{[]ecs.EntityID{x.a, x.a1, x.a21, x.b}, []ecs.EntityID{x.a1, x.a21}, []ecs.EntityID{x.o1}}
			}},
		{"delete a root orphans its children", func(h hierarchy.ViewMut, x tree) error { return h.Delete(x.root) },
			func(x tree) walks { return walks{nil, []ecs.EntityID{x.a1, x.a2, x.a21}, []ecs.EntityID{x.o1}} }},
		{"delete a leaf", func(h hierarchy.ViewMut, x tree) error { return h.Delete(x.a1) },
			func(x tree) walks {
				return walks{[]ecs.EntityID{x.a, x.a2, x.a21, x.b}, []ecs.EntityID{x.a2, x.a21}, []ecs.EntityID{x.o1}}
			}},
		{"delete a subtree", func(h hierarchy.ViewMut, x tree) error { _, err := h.DeleteSubtree(x.a); return err },
			func(x tree) walks { return walks{[]ecs.EntityID{x.b}, nil, []ecs.EntityID{x.o1}} }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h, x := build(t)
			must(t, tc.op(h, x))
			must(t, h.Check())
			want := tc.want(x)
			wantSeq(t, "Descendants(root)", slices.Collect(h.Descendants(x.root)), want.root...)
			wantSeq(t, "Descendants(a)", slices.Collect(h.Descendants(x.a)), want.a...)
			wantSeq(t, "Descendants(other)", slices.Collect(h.Descendants(x.other)), want.other...)
		})
	}
}

// TestDeleteKills checks that the deletes kill exactly the entities they
// say, and that DeleteSubtree counts them.
func TestDeleteKills(t *testing.T) {
	h, x := build(t)
	n, err := h.DeleteSubtree(x.a)
	must(t, err)
	if n != 4 {
		t.Errorf("DeleteSubtree(a) = %d, want 4", n)
	}
	for _, id := range []ecs.EntityID{x.a, x.a1, x.a2, x.a21} {
		if h.Entities.IsAlive(id) {
			t.Errorf("%v survived DeleteSubtree", id)
		}
	}
	must(t, h.Delete(x.root))
	if h.Entities.IsAlive(x.root) || !h.Entities.IsAlive(x.b) {
		t.Error("Delete(root) killed the wrong entities")
	}
	if _, ok := h.Parent(x.b); ok {
		t.Error("b kept a parent after its parent was deleted")
	}
	must(t, h.Check())
}
