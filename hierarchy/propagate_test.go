package hierarchy_test

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/hierarchy"
)

// propagateAgrees checks Propagate from id against DescendantsErr: the same
// entities in the same order, the same error, and each entity given the
// value its parent returned (here, the parent's id).
func propagateAgrees(t *testing.T, v hierarchy.View, id ecs.EntityID) {
	t.Helper()
	var want []ecs.EntityID
	var wantErr error
	for d, err := range v.DescendantsErr(id) {
		if err != nil {
			wantErr = err
			break
		}
		want = append(want, d)
	}
	var got []ecs.EntityID
	err := hierarchy.Propagate(v, id, id, func(d, parent ecs.EntityID) ecs.EntityID {
		got = append(got, d)
		if p, _ := v.Parent(d); p != parent {
			t.Errorf("Propagate(%v) gave %v the value of %v, want its parent %v's", id, d, parent, p)
		}
		return d
	})
	if !slices.Equal(got, want) {
		t.Errorf("Propagate(%v) visited %v, DescendantsErr yields %v", id, got, want)
	}
	if !reflect.DeepEqual(err, wantErr) {
		t.Errorf("Propagate(%v) = %v, DescendantsErr ends with %v", id, err, wantErr)
	}
}

// TestPropagate carries each entity's path from the root down the fixture's
// trees: every start, with and without children, dead or alive.
func TestPropagate(t *testing.T) {
	w := ecs.NewWorld()
	_, x, release := buildIn(t, w)
	release()
	names := map[ecs.EntityID]string{
		x.root: "root", x.a: "a", x.a1: "a1", x.a2: "a2", x.a21: "a21", x.b: "b",
		x.other: "other", x.o1: "o1", x.lone: "lone",
	}
	cases := []struct {
		name  string
		root  ecs.EntityID
		paths []string
		err   error
	}{
		{"a root", x.root, []string{"root/a", "root/a/a1", "root/a/a2", "root/a/a2/a21", "root/b"}, nil},
		{"a subtree", x.a2, []string{"a2/a21"}, nil},
		{"another tree", x.other, []string{"other/o1"}, nil},
		{"a leaf", x.a21, nil, nil},
		{"an entity in no tree", x.lone, nil, nil},
		{"a dead entity", x.gone, nil, ecs.ErrDeadEntity},
		{"the null id", ecs.NullID, nil, ecs.ErrDeadEntity},
	}
	must(t, w.Run(func(v hierarchy.View) {
		for _, tc := range cases {
			var paths []string
			err := hierarchy.Propagate(v, tc.root, names[tc.root], func(id ecs.EntityID, parent string) string {
				path := parent + "/" + names[id]
				paths = append(paths, path)
				return path
			})
			if !slices.Equal(paths, tc.paths) {
				t.Errorf("%s: paths %q, want %q", tc.name, paths, tc.paths)
			}
			if tc.err == nil && err != nil || tc.err != nil && !errors.Is(err, tc.err) {
				t.Errorf("%s: error %v, want %v", tc.name, err, tc.err)
			}
			var le *hierarchy.LinkError
			if tc.err != nil && (!errors.As(err, &le) || le.Link != "walk" || le.ID != tc.root) {
				t.Errorf("%s: error %v, want a *LinkError for a walk from %v", tc.name, err, tc.root)
			}
		}
	}))
}

// TestPropagateDeep walks a chain deeper than Propagate's fixed stack, so
// that the stack grows, and checks each entity's depth.
func TestPropagateDeep(t *testing.T) {
	const depth = 100
	w := ecs.NewWorld()
	chain := make([]ecs.EntityID, depth+1)
	must(t, w.Run(func(h hierarchy.ViewMut) {
		chain[0] = h.Entities.AddEntity()
		for i := 1; i <= depth; i++ {
			chain[i] = mustNew(t, h, chain[i-1])
		}
	}))
	must(t, w.Run(func(v hierarchy.View) {
		var got []ecs.EntityID
		err := hierarchy.Propagate(v, chain[0], 0, func(id ecs.EntityID, d int) int {
			got = append(got, id)
			if want := slices.Index(chain, id); d+1 != want {
				t.Errorf("%v given depth %d, want %d", id, d, want-1)
			}
			return d + 1
		})
		must(t, err)
		wantSeq(t, "Propagate(chain[0])", got, chain[1:]...)
	}))
}

// TestPropagateRandomForests builds random forests, some with members
// deleted behind the hierarchy's back, and checks Propagate against
// DescendantsErr from every entity.
func TestPropagateRandomForests(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 52))
	for round := range 60 {
		w := ecs.NewWorld()
		var ids []ecs.EntityID
		must(t, w.Run(func(h hierarchy.ViewMut) {
			for range 2 + rng.IntN(30) {
				id := h.Entities.AddEntity()
				if len(ids) > 0 && rng.IntN(4) > 0 {
					must(t, h.Attach(id, ids[rng.IntN(len(ids))]))
				}
				ids = append(ids, id)
			}
			// Move a few subtrees, so that sibling order is not creation order.
			for range rng.IntN(5) {
				a, b := ids[rng.IntN(len(ids))], ids[rng.IntN(len(ids))]
				if err := h.Attach(a, b); err != nil && !errors.Is(err, hierarchy.ErrCycle) {
					t.Fatalf("round %d: Attach(%v, %v): %v", round, a, b, err)
				}
			}
		}))
		if round%3 == 0 { // leave dangling links
			must(t, w.DeleteEntity(ids[rng.IntN(len(ids))]))
		}
		must(t, w.Run(func(v hierarchy.View) {
			for _, id := range ids {
				propagateAgrees(t, v, id)
			}
		}))
	}
}

// TestRoots checks that both views list the live entities with children and
// no parent, and stop when the loop breaks.
func TestRoots(t *testing.T) {
	w := ecs.NewWorld()
	h, x, release := buildIn(t, w)
	// A root deleted behind the hierarchy's back keeps its Parent component
	// until the world purges it: it is no root.
	dead := h.Entities.AddEntity()
	mustNew(t, h, dead)
	if !h.Entities.DeleteUnchecked(dead) {
		t.Fatal("could not delete the dead root")
	}
	if !h.ParentView.Contains(dead) {
		t.Fatal("the dead root lost its Parent before the purge")
	}
	want := []ecs.EntityID{x.root, x.other}
	sorted := func(ids []ecs.EntityID) []ecs.EntityID {
		return slices.SortedFunc(slices.Values(ids), func(a, b ecs.EntityID) int { return int(a.Index()) - int(b.Index()) })
	}
	wantSeq(t, "ViewMut.Roots", sorted(slices.Collect(h.Roots())), want...)
	for range h.Roots() {
		break // must not panic: the iterator stops
	}
	release()
	must(t, w.Run(func(v hierarchy.View) {
		wantSeq(t, "View.Roots", sorted(slices.Collect(v.Roots())), want...)
		n := 0
		for range v.Roots() {
			n++
			break
		}
		if n != 1 {
			t.Errorf("a loop over Roots broken at once ran %d times", n)
		}
	}))
}
