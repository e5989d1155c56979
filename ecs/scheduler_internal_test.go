package ecs

import (
	"slices"
	"testing"
)

// TestTopoOrder: the order keeps every edge, and among the systems ready
// at once takes the smallest index first (so declared order wins where no
// constraint says otherwise).
func TestTopoOrder(t *testing.T) {
	for _, c := range []struct {
		name  string
		n     int
		preds map[int][]int // v: its predecessors
		want  []int
	}{
		{"no systems", 0, nil, []int{}},
		{"no edges: declared order", 4, nil, []int{0, 1, 2, 3}},
		{"a chain against declared order", 3, map[int][]int{0: {1}, 1: {2}}, []int{2, 1, 0}},
		{"the smallest ready first", 4, map[int][]int{0: {3}, 1: {3}}, []int{2, 3, 0, 1}},
		{"a diamond", 4, map[int][]int{1: {0}, 2: {0}, 3: {1, 2}}, []int{0, 1, 2, 3}},
		{"a diamond declared backwards", 4, map[int][]int{2: {3}, 1: {3}, 0: {1, 2}}, []int{3, 1, 2, 0}},
		{"a late system freed early", 3, map[int][]int{1: {2}}, []int{0, 2, 1}},
	} {
		got := topoOrder(c.n, func(v int) []edge {
			var es []edge
			for _, p := range c.preds[v] {
				es = append(es, edge{from: p})
			}
			return es
		})
		if got == nil {
			got = []int{}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: topoOrder = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestDedup: sorted, without repeats, and the argument left alone.
func TestDedup(t *testing.T) {
	in := []string{"b", "a", "b", "c", "a"}
	if got := dedup(in); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("dedup = %v", got)
	}
	if !slices.Equal(in, []string{"b", "a", "b", "c", "a"}) {
		t.Errorf("dedup changed its argument: %v", in)
	}
	if got := dedup(nil); len(got) != 0 {
		t.Errorf("dedup(nil) = %v", got)
	}
}
