package ecs

import (
	"slices"
	"testing"
)

// fzC is the component of the tests below; it holds a pointer, so that
// the storage clears what it cuts off.
type fzC struct {
	V int
	S *string
}

// fzStorage returns a storage holding the components of ids, ids[i]'s
// being {V: i+1}, given one at a time.
func fzStorage(ids []EntityID) *sparseSet[fzC] {
	s := newSparseSet[fzC]()
	for i, id := range ids {
		s.insert(id, fzC{V: i + 1})
	}
	return s
}

// zeroMany leaves a storage as insert of a zero component for each id in
// turn does: the same components in the same order, every one found by
// id, a valid identity prefix; and spanOf finds the new components by
// position exactly when they all went to the end in order. The cases
// cover the identity prefix continued (with the run known or not),
// entries written for runs up and down and for scattered ids,
// replacements (also inside the prefix), repeats, and a dead entity's
// leftover taken over; one storage after the other and with the work
// shared with a worker (zeroManyAlone).
func TestZeroManyMatchesInsert(t *testing.T) {
	prefix := up(0, 50, 2)                                                                // a storage with an identity prefix
	scattered := []EntityID{newEntityID(700, 0), newEntityID(3, 1), newEntityID(5000, 4)} // and one without
	for _, c := range []struct {
		name   string
		before []EntityID // the storage's ids before the call
		ids    []EntityID
		span   bool // whether the components end in a span
	}{
		{"none", prefix, nil, false},
		{"the prefix started", nil, up(0, 3000, 0), true},
		{"the prefix continued", prefix, up(50, 2000, 2), true},
		{"the prefix continued, then a repeat", prefix, slices.Concat(up(50, 20, 2), up(60, 1, 2)), false},
		{"the next index in another generation", prefix, up(50, 20, 3), true},
		{"not the next index", prefix, up(51, 20, 2), true},
		{"a run down", prefix, down(3000, 2500, 1), true},
		{"a run down to the prefix's end", prefix, down(80, 31, 2), true},
		{"a run up, then scattered", scattered, slices.Concat(up(10, 40, 0), []EntityID{newEntityID(9000, 7), newEntityID(2, 0)}), true},
		{"replacements in the prefix", prefix, slices.Concat(up(60, 5, 2), up(10, 5, 2), up(70, 5, 2)), false},
		{"replacements out of it", scattered, slices.Concat(up(10, 5, 0), scattered[:2], up(20, 5, 0)), false},
		{"only replacements", prefix, down(49, 50, 2), false},
		{"a leftover taken over in the prefix", prefix, slices.Concat(up(100, 3, 0), up(20, 1, 3), up(200, 3, 0)), false},
		{"a leftover taken over out of it", scattered, slices.Concat(up(100, 3, 0), up(3, 1, 2), up(200, 3, 0)), false},
	} {
		for _, alone := range []bool{false, true} {
			name := c.name
			if alone {
				name += ", alone"
			}
			t.Run(name, func(t *testing.T) {
				defer SetBulkParallelMin(1)()
				got, want := fzStorage(c.before), fzStorage(c.before)
				base := len(got.dense)
				run := consecutive(c.ids)
				if alone {
					got.zeroManyAlone(c.ids, run)
				} else {
					got.zeroMany(c.ids, run)
				}
				for _, id := range c.ids {
					want.insert(id, fzC{})
				}
				if err := got.layoutError(); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got.dense, want.dense) || !slices.Equal(got.data, want.data) {
					t.Fatalf("zeroMany left\n%v %v\ninsert left\n%v %v", got.dense, got.data, want.dense, want.data)
				}
				for i, id := range got.dense {
					if p := got.get(id); p != &got.data[i] {
						t.Fatalf("%v at %d is not found by id", id, i)
					}
				}
				if cut := got.data[len(got.data):cap(got.data)]; slices.ContainsFunc(cut, func(c fzC) bool { return c != fzC{} }) {
					t.Errorf("components past the end are not cleared")
				}
				d := got.spanOf(base, len(c.ids))
				if (d != nil) != c.span {
					t.Fatalf("spanOf found a span: %v, want %v", d != nil, c.span)
				}
				for j, id := range c.ids {
					if p := got.fillAt(d, j, id); p != got.get(id) || p == nil {
						t.Fatalf("fillAt(%d, %v) = %p, want %p", j, id, p, got.get(id))
					}
				}
			})
		}
	}
}

// growIdent takes the ids' run on trust, so zeroMany is told run only
// for ids that consecutive accepts: ascending indices, one generation,
// no gap.
func TestConsecutive(t *testing.T) {
	for _, c := range []struct {
		ids  []EntityID
		want bool
	}{
		{nil, false},
		{up(7, 1, 3), true},
		{up(0, 5000, 2), true},
		{down(10, 5, 0), false},
		{slices.Concat(up(0, 5, 0), up(6, 5, 0)), false},
		{slices.Concat(up(0, 5, 0), up(5, 5, 1)), false},
		{slices.Concat(up(0, 5, 0), up(4, 1, 0)), false},
	} {
		if got := consecutive(c.ids); got != c.want {
			t.Errorf("consecutive(%v) = %v, want %v", c.ids, got, c.want)
		}
	}
}

// Given run for ids that continue the prefix, growIdent extends it over
// them and zeroMany writes no sparse entry (nor allocates a page); given
// ids that do not continue it, growIdent changes nothing.
func TestGrowIdent(t *testing.T) {
	s := fzStorage(up(0, 10, 1))
	if s.growIdent(up(11, 5, 1), true) || s.growIdent(up(10, 5, 2), true) || s.growIdent(up(10, 5, 1), false) || s.pre.n != 10 {
		t.Fatalf("growIdent took ids that do not continue the prefix: prefix %d", s.pre.n)
	}
	s.zeroMany(up(10, 3*pageSize, 1), true)
	if s.pre.n != 10+3*pageSize || s.pre.gen != uint64(newEntityID(0, 1)) {
		t.Errorf("prefix of %d in generation %d, want %d in 1", s.pre.n, s.pre.gen>>32, 10+3*pageSize)
	}
	for p, page := range s.pages {
		if page != &emptyPage {
			t.Errorf("page %d allocated", p)
		}
	}
	if err := s.layoutError(); err != nil {
		t.Fatal(err)
	}
}

// A tracked storage and a group member take insert for every id: their
// components are not in a span (the member's move into the group), and
// fillAt finds each by id.
func TestZeroManyBookkeepingStorages(t *testing.T) {
	w := NewWorld()
	if err := AddGroup2[bpA, bpB](w); err != nil {
		t.Fatal(err)
	}
	ids, err := BulkNewEntity1[bpB](w, nil, 30, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, tr := storageFor[bpA](w), storageFor[bpTrack](w)
	tr.enableTracking(TrackAll, &w.clock)
	pick := slices.Concat(ids[20:], ids[:5])
	baseA, baseT := len(a.dense), len(tr.dense)
	a.zeroMany(pick, consecutive(pick))
	tr.zeroMany(pick, consecutive(pick))
	if a.spanOf(baseA, len(pick)) != nil {
		t.Errorf("a group member's components were taken as a span")
	}
	if tr.spanOf(baseT, len(pick)) == nil {
		t.Errorf("a tracked storage's new components, appended in order, were not taken as a span")
	}
	if n := a.pack.n; n != len(pick) {
		t.Errorf("group of %d, want %d", n, len(pick))
	}
	for j, id := range pick {
		if p := a.fillAt(nil, j, id); p == nil || p != a.get(id) {
			t.Errorf("fillAt(%v) = %p, want %p", id, p, a.get(id))
		}
	}
	if len(tr.track.insertedAt) != len(tr.dense) {
		t.Errorf("%d insertion timestamps for %d components", len(tr.track.insertedAt), len(tr.dense))
	}
	if err := CheckLayouts(w); err != nil {
		t.Fatal(err)
	}
}
