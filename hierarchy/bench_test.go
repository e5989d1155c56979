package hierarchy_test

import (
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/hierarchy"
)

// The transform benchmark: forests of complete binary trees of 11 levels
// (depth 10, 2047 nodes each), a million nodes in all, with their world
// positions computed from their local ones, once through Slipway (the
// propagate system of the examples, in a workload) and once by hand-written
// Go over a tree of structs.

const (
	benchLevels = 11
	benchNodes  = 1_000_000
)

// treeSize is the number of nodes of a complete binary tree of levels levels.
func treeSize(levels int) int { return 1<<levels - 1 }

// localOf is the Local of the i-th node made, the same in both versions.
func localOf(i int) Local { return Local{float64(i % 7), float64(i % 5)} }

// buildForest makes trees complete binary trees in w and returns the number
// of nodes. Nodes are made, and children attached, in depth-first order.
func buildForest(tb testing.TB, w *ecs.World, trees, levels int) int {
	tb.Helper()
	n := trees * treeSize(levels)
	locals := make([]Local, n)
	for i := range locals {
		locals[i] = localOf(i)
	}
	ids, err := ecs.BulkAddEntity2(w, locals, make([]Global, n))
	if err != nil {
		tb.Fatal(err)
	}
	var h hierarchy.ViewMut
	release, err := w.Borrow(&h)
	if err != nil {
		tb.Fatal(err)
	}
	defer release()
	next := 0
	var grow func(level int) ecs.EntityID
	grow = func(level int) ecs.EntityID {
		id := ids[next]
		next++
		if level > 1 {
			for range 2 {
				if err := h.Attach(grow(level-1), id); err != nil {
					tb.Fatal(err)
				}
			}
		}
		return id
	}
	for range trees {
		grow(levels)
	}
	return n
}

// node is the hand-written version's tree: plain structs and pointers.
type node struct {
	local, global Local
	children      []*node
}

// buildPlain makes the same forest as buildForest, as structs.
func buildPlain(trees, levels int) ([]*node, int) {
	next := 0
	var grow func(level int) *node
	grow = func(level int) *node {
		nd := &node{local: localOf(next)}
		next++
		if level > 1 {
			nd.children = make([]*node, 0, 2)
			for range 2 {
				nd.children = append(nd.children, grow(level-1))
			}
		}
		return nd
	}
	roots := make([]*node, trees)
	for i := range roots {
		roots[i] = grow(levels)
	}
	return roots, next
}

// propagatePlain is propagate by hand.
func propagatePlain(n *node, parent Local) {
	n.global = Local{parent.X + n.local.X, parent.Y + n.local.Y}
	for _, c := range n.children {
		propagatePlain(c, n.global)
	}
}

// propagateDescendants is propagate written with DescendantsErr, looking
// up each entity's parent and its Global: the walk before Propagate, kept
// as a benchmark row to show what carrying the parent's value down saves.
func propagateDescendants(t hierarchy.View, local ecs.View[Local], global ecs.ViewMut[Global]) error {
	for id, l := range ecs.Join1(local).Not(t.ChildView).WithID() {
		*global.MustGet(id) = Global(*l)
		for d, err := range t.DescendantsErr(id) {
			if err != nil {
				return err
			}
			p := global.MustGet(t.ChildView.MustGet(d).Parent)
			l := local.MustGet(d)
			*global.MustGet(d) = Global{p.X + l.X, p.Y + l.Y}
		}
	}
	return nil
}

// BenchmarkTransform runs the plain version first and reports each Slipway
// version's time per node as a ratio to it ("x-plain"), measured in the same
// run.
func BenchmarkTransform(b *testing.B) {
	trees := (benchNodes + treeSize(benchLevels) - 1) / treeSize(benchLevels)
	plainPerNode := 0.0
	b.Run("plain", func(b *testing.B) {
		roots, n := buildPlain(trees, benchLevels)
		for b.Loop() {
			for _, r := range roots {
				propagatePlain(r, Local{})
			}
		}
		plainPerNode = float64(b.Elapsed().Nanoseconds()) / float64(b.N) / float64(n)
		b.ReportMetric(plainPerNode, "ns/node")
	})
	for _, v := range []struct {
		name   string
		system func(hierarchy.View, ecs.View[Local], ecs.ViewMut[Global]) error
	}{
		{"slipway", propagate},
		{"slipway-descendants", propagateDescendants},
	} {
		b.Run(v.name, func(b *testing.B) {
			w := ecs.NewWorld()
			n := buildForest(b, w, trees, benchLevels)
			// Attaching filled the Child and Parent storages in the order of
			// the attaches; lay them out in the order of creation, depth
			// first like the walk, as the plain version's nodes are.
			if _, err := ecs.SortAs[hierarchy.Child, Local](w); err != nil {
				b.Fatal(err)
			}
			if _, err := ecs.SortAs[hierarchy.Parent, Local](w); err != nil {
				b.Fatal(err)
			}
			if err := w.AddWorkload("transform", ecs.FuncErr3(v.system)); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if err := w.RunWorkload("transform"); err != nil {
					b.Fatal(err)
				}
			}
			perNode := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / float64(n)
			b.ReportMetric(perNode, "ns/node")
			if plainPerNode > 0 {
				b.ReportMetric(perNode/plainPerNode, "x-plain")
			}
		})
	}
}

// TestTransformMatchesPlain checks that both versions of the benchmark
// compute the same positions, on a smaller forest.
func TestTransformMatchesPlain(t *testing.T) {
	const trees, levels = 3, 6
	w := ecs.NewWorld()
	n := buildForest(t, w, trees, levels)
	must(t, w.Run(propagate))
	roots, m := buildPlain(trees, levels)
	if n != m {
		t.Fatalf("%d entities, %d nodes", n, m)
	}
	var plain []Local
	var walk func(*node)
	walk = func(nd *node) {
		plain = append(plain, nd.global)
		for _, c := range nd.children {
			walk(c)
		}
	}
	for _, r := range roots {
		propagatePlain(r, Local{})
		walk(r)
	}
	// Entities were made in the plain version's depth-first order.
	i := 0
	must(t, ecs.Each1(w, func(id ecs.EntityID, g *Global) {
		if Local(*g) != plain[id.Index()] {
			t.Errorf("entity %v: %v, want %v", id, *g, plain[id.Index()])
		}
		i++
	}))
	if i != n {
		t.Errorf("%d Globals, want %d", i, n)
	}
	must(t, hierarchy.Check(w))
}
