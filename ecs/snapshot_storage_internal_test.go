package ecs

import (
	"slices"
	"testing"
)

type spsV struct{ V int }

// TestSnapshotCopyPagesChoice checks when a snapshot copies a storage's
// sparse pages: only when its page table spans at most densePages
// entries per component with an entry; never for an identity prefix,
// which has no entries.
func TestSnapshotCopyPagesChoice(t *testing.T) {
	for _, tc := range []struct {
		name    string
		indices []uint32 // the entities given a component, in order
		want    bool
	}{
		{"identity prefix", seq(0, 2000), false},
		{"dense, out of order", reversed(seq(0, 2000)), true},
		{"two far apart", []uint32{5000, 3}, false},
		{"a quarter dense", reversed(seq(0, 256)), true},
		{"below a quarter", reversed(seq(0, 255)), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSparseSet[spsV]()
			for _, i := range tc.indices {
				s.insert(newEntityID(i, 0), spsV{int(i)})
			}
			c := s.snapshotTo(nil).(*setSnap[spsV])
			if c.byPages != tc.want {
				t.Fatalf("byPages = %v, want %v (%d pages, %d components, prefix %d)", c.byPages, tc.want, len(s.pages), len(s.dense), s.pre.n)
			}
		})
	}
}

// TestSnapshotRestoreFromBothWays restores one storage from copies made
// both ways (pages copied, entries rebuilt) over states that share few
// entities with the copy, and checks the layout and the contents.
func TestSnapshotRestoreFromBothWays(t *testing.T) {
	for _, dense := range []int{0, 1 << 30} {
		old := densePages
		densePages = dense
		s := newSparseSet[spsV]()
		for _, i := range reversed(seq(0, 1500)) {
			s.insert(newEntityID(i, 0), spsV{int(i)})
		}
		c := s.snapshotTo(nil).(*setSnap[spsV])
		wantIDs, wantData := slices.Clone(s.dense), slices.Clone(s.data)
		// Empty it, then fill it with others: some ids kept, some new,
		// some past the copy's pages.
		s.clear()
		for _, i := range append(seq(1000, 1200), seq(3000, 3100)...) {
			s.insert(newEntityID(i, 1), spsV{-1})
		}
		var clk clock
		s.restoreFrom(c, &clk)
		if err := s.layoutError(); err != nil {
			t.Fatalf("densePages=%d: %v", dense, err)
		}
		if !slices.Equal(s.dense, wantIDs) || !slices.Equal(s.data, wantData) {
			t.Fatalf("densePages=%d: restored contents differ", dense)
		}
		for _, id := range wantIDs {
			if s.pos(id) < 0 {
				t.Fatalf("densePages=%d: %v not found after restore", dense, id)
			}
		}
		if s.pos(newEntityID(3000, 1)) >= 0 {
			t.Fatalf("densePages=%d: a component added after the copy is still found", dense)
		}
		densePages = old
	}
}

func seq(from, to uint32) []uint32 {
	var s []uint32
	for i := from; i < to; i++ {
		s = append(s, i)
	}
	return s
}

func reversed(s []uint32) []uint32 {
	slices.Reverse(s)
	return s
}
