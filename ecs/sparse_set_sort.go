package ecs

import (
	"cmp"
	"slices"
)

// The sparse set's whole-storage reorderings and removals: sorting by a
// compare function or a key (ViewMut.SortFunc, SortByKey), keeping the
// components a predicate accepts (ViewMut.Retain), and taking every
// component out (ViewMut.Drain). Each decides everything first, on copies
// or with calls that change nothing, and only then changes the storage,
// in one step that keeps every invariant of sparseSet: a panic in the
// caller's function, or a refusal, leaves the storage as it was.

// sortItem is a component copied out of the storage for SortFunc, with the
// position it came from: ties are broken by that position, so the sort is
// stable, and the position tells where each component's entity, sparse
// entry and timestamps come from.
type sortItem[T any] struct {
	v    T
	from int
}

// keyItem is a key computed for SortByKey, with its component's position.
type keyItem[K cmp.Ordered] struct {
	k    K
	from int
}

// sortFunc sorts the components at positions lo..hi-1 by cmp, stably, on
// copies: it returns the new order (from[i] is the old position of the
// component that goes to lo+i) and the components in that order, or nil
// when they are in order already. It changes nothing.
func (s *sparseSet[T]) sortFunc(lo, hi int, cmpFn func(a, b *T) int) ([]int, []T) {
	items := make([]sortItem[T], hi-lo)
	for i := range items {
		items[i] = sortItem[T]{s.data[lo+i], lo + i}
	}
	slices.SortFunc(items, func(a, b sortItem[T]) int {
		if c := cmpFn(&a.v, &b.v); c != 0 {
			return c
		}
		return cmp.Compare(a.from, b.from)
	})
	moved := false
	for i := range items {
		if items[i].from != lo+i {
			moved = true
			break
		}
	}
	if !moved {
		return nil, nil
	}
	from := make([]int, len(items))
	vals := make([]T, len(items))
	for i := range items {
		from[i], vals[i] = items[i].from, items[i].v
	}
	return from, vals
}

// sortKeys is sortFunc by a key computed once per component: it returns
// the new order only (nil when the range is in order), and calls key on
// the storage's components, which it does not change.
func sortKeys[T any, K cmp.Ordered](s *sparseSet[T], lo, hi int, key func(*T) K) []int {
	items := make([]keyItem[K], hi-lo)
	for i := range items {
		items[i] = keyItem[K]{key(&s.data[lo+i]), lo + i}
	}
	slices.SortFunc(items, func(a, b keyItem[K]) int {
		if c := cmp.Compare(a.k, b.k); c != 0 {
			return c
		}
		return cmp.Compare(a.from, b.from)
	})
	from := make([]int, 0, len(items))
	moved := false
	for i := range items {
		from = append(from, items[i].from)
		moved = moved || items[i].from != lo+i
	}
	if !moved {
		return nil
	}
	return from
}

// reorder puts the component at position from[i] at position lo+i, for
// every i, with its entity, sparse entry and timestamps; from is a
// permutation of lo..lo+len(from)-1. vals, when not nil, holds the
// components already in the new order (sortFunc's copies); otherwise
// reorder moves them too. The identity prefix is cut at the first position
// that changes; the positions before it keep their components.
func (s *sparseSet[T]) reorder(lo int, from []int, vals []T) {
	first := 0
	for first < len(from) && from[first] == lo+first {
		first++
	}
	if first == len(from) {
		return
	}
	from, start := from[first:], lo+first
	if vals != nil {
		vals = vals[first:]
	}
	s.cutIdent(start)
	n := len(from)
	// The old contents of the range, read through from.
	ids := slices.Clone(s.dense[start : start+n])
	if vals == nil {
		vals = make([]T, n)
		for i, f := range from {
			vals[i] = s.data[f]
		}
	}
	copy(s.data[start:], vals)
	moved := 0
	for i, f := range from {
		id := ids[f-start]
		s.dense[start+i] = id
		if f != start+i {
			s.pages[id.Index()>>pageShift][id.Index()&pageMask] = sparseEntry(id, start+i)
			moved++
		}
	}
	s.changes += uint64(moved) // joins that follow this storage's order see it changed (align.go)
	if t := s.track; t != nil {
		if t.kinds&TrackInsertion != 0 {
			permuteRange(t.insertedAt, start, from)
		}
		if t.kinds&TrackModification != 0 {
			permuteRange(t.modifiedAt, start, from)
			t.resummarise(start, start+n)
		}
	}
}

// permuteRange sets a[start+i] to the old a[from[i]], for every i; from
// is a permutation of start..start+len(from)-1.
func permuteRange[E any](a []E, start int, from []int) {
	old := slices.Clone(a[start : start+len(from)])
	for i, f := range from {
		a[start+i] = old[f-start]
	}
}

// resummarise recomputes the summaries of the blocks of modifiedAt that
// hold positions lo..hi-1, after their timestamps were moved: the Refs
// handed out before name other components now, and may write no more
// (see markRef).
func (t *stamps) resummarise(lo, hi int) {
	t.refNow = 0
	for b := lo >> 3; b < blocks(hi); b++ {
		ts := t.modifiedAt[b<<3 : min(b<<3+8, len(t.modifiedAt))]
		mx := ts[0]
		for _, x := range ts[1:] {
			if newer(x, mx) {
				mx = x
			}
		}
		sum := modSummary{max: mx, rest: mx - ancient}
		rested := false // rest is one of the block's timestamps
		for k, x := range ts {
			switch {
			case x == mx:
				sum.at |= 1 << k
			case !rested || newer(x, sum.rest):
				sum.rest, rested = x, true
			}
		}
		t.modBlock[b] = sum
	}
}

// sortPacked applies the order from of the packed range 0..len(from)-1
// of member self to every other member of its pack, so that the packed
// range keeps the same entities in the same order in every member.
func (g *pack) sortPacked(self int, from []int) {
	for k, m := range g.members {
		if k != self {
			m.permute(from)
		}
	}
}

// permute is reorder from position 0, for a pack member told the new
// order of the packed range by another member (packMember).
func (s *sparseSet[T]) permute(from []int) { s.reorder(0, from, nil) }

// sortRefusal returns the error of a sort (sorting) or Retain op through
// a ViewMut of s that would move components a View of the same frame
// reads (a member of s's pack, see pack.reader), or that an Each through
// an AllStoragesViewMut walks; nil when none would.
func (s *sparseSet[T]) sortRefusal(op string, sorting bool) error {
	verb, doing := "delete from", "deleting from"
	if sorting {
		verb, doing = "sort", "sorting"
	}
	if err := refuseWalked(op, verb+" the "+s.name+" storage", &s.sparseIndex, s.name); err != nil {
		return err
	}
	g := s.pack
	if g == nil || g.n == 0 {
		return nil
	}
	if k := g.reader(s.member); k >= 0 {
		m, r := s.name, g.members[k].typeName()
		return &GroupError{
			Group: g.name,
			Op:    op,
			View:  "View[" + r + "]",
			Reason: doing + " the " + m + " storage moves the " + r + " components of " + g.name +
				" too, which a View[" + r + "] of the same system (or World.Borrow) is reading: take " + r +
				" as a ViewMut[" + r + "] there instead, or do it in another system",
		}
	}
	return nil
}

// layoutMark is what a storage's layout was before a call of the
// caller's function, so that unchanged can tell whether it moved.
type layoutMark struct {
	changes   uint64
	n, packed int
}

func (s *sparseSet[T]) layoutNow() layoutMark {
	m := layoutMark{changes: s.changes, n: len(s.dense), packed: -1}
	if s.pack != nil {
		m.packed = s.pack.n
	}
	return m
}

// unchanged returns the error of op when the caller's function (named
// fn) added or removed components of the storage since m was taken:
// what op decided no longer matches the storage, so op changes nothing.
func (s *sparseSet[T]) unchanged(op, fn string, m layoutMark) error {
	if s.layoutNow() == m {
		return nil
	}
	return &argError{op: op, what: fn + " added or removed " + s.name + " components while it ran; it must only read", kind: ErrSortRefused}
}

// order sorts the storage by cmp or, when cmp is nil, by orderKeys: in a
// pack, the packed range and the rest separately, the packed range in
// every member in the same order. It changes nothing if a call of the
// caller's function panics, or adds or removes components.
func (s *sparseSet[T]) order(op string, sortRange func(lo, hi int) ([]int, []T)) error {
	if err := s.sortRefusal(op, true); err != nil {
		return err
	}
	before, n := s.layoutNow(), len(s.dense)
	split := 0
	if s.pack != nil {
		split = s.pack.n
	}
	fromP, valsP := sortRange(0, split)
	fromT, valsT := sortRange(split, n)
	if err := s.unchanged(op, "the compare or key function", before); err != nil {
		return err
	}
	if fromP != nil {
		s.reorder(0, fromP, valsP)
		s.pack.sortPacked(s.member, fromP)
	}
	if fromT != nil {
		s.reorder(split, fromT, valsT)
	}
	if fromP != nil || fromT != nil {
		s.lead = nil // the storage keeps this order (align.go): it follows no other
	}
	s.ordered = true
	return nil
}

// retain deletes the components keep rejects, and returns how many. It
// calls keep for every component first, changing nothing, so a panic in
// keep leaves the storage as it was; then deletes in one pass. Outside a
// pack, the components kept keep their order.
func (s *sparseSet[T]) retain(op string, keep func(EntityID, *T) bool) (int, error) {
	if keep == nil {
		return 0, &argError{op: op, what: "keep is nil", kind: ErrNilFunc}
	}
	if err := s.sortRefusal(op, false); err != nil {
		return 0, err
	}
	before, n := s.layoutNow(), len(s.dense)
	var drop []int
	for i := 0; i < n && i < len(s.dense); i++ {
		if !keep(s.dense[i], &s.data[i]) {
			drop = append(drop, i)
		}
	}
	if err := s.unchanged(op, "keep", before); err != nil {
		return 0, err
	}
	if len(drop) == 0 {
		return 0, nil
	}
	if s.reqBy != nil {
		for _, i := range drop {
			if err := s.keeps(op, s.dense[i]); err != nil {
				return 0, err
			}
		}
	}
	if s.pack != nil {
		ids := make([]EntityID, len(drop))
		for k, i := range drop {
			ids[k] = s.dense[i]
		}
		for _, id := range ids {
			s.deleteID(id)
		}
		return len(drop), nil
	}
	first := drop[0]
	s.cutIdent(first)
	t := s.track
	if t != nil && t.hooks != nil {
		ids, vals := make([]EntityID, len(drop)), make([]T, len(drop))
		for k, i := range drop {
			ids[k], vals[k] = s.dense[i], s.data[i]
		}
		defer s.hookAll(hookDelete, ids, vals) // once the storage is whole
	}
	if t != nil && t.kinds&TrackDeletion != 0 {
		ts := t.logStamp()
		for _, i := range drop {
			t.deletions = append(t.deletions, deletion[T]{id: s.dense[i], at: ts, v: s.data[i]})
		}
	}
	w, d := first, 0
	for i := first; i < n; i++ {
		id := s.dense[i]
		if d < len(drop) && drop[d] == i {
			d++
			s.pages[id.Index()>>pageShift][id.Index()&pageMask] = 0
			continue
		}
		s.dense[w], s.data[w] = id, s.data[i]
		s.pages[id.Index()>>pageShift][id.Index()&pageMask] = sparseEntry(id, w)
		if t != nil {
			if t.kinds&TrackInsertion != 0 {
				t.insertedAt[w] = t.insertedAt[i]
			}
			if t.kinds&TrackModification != 0 {
				t.modifiedAt[w] = t.modifiedAt[i]
			}
		}
		w++
	}
	if t != nil {
		if t.kinds&TrackInsertion != 0 {
			t.insertedAt = t.insertedAt[:w]
		}
		if t.kinds&TrackModification != 0 {
			t.modifiedAt = t.modifiedAt[:w]
			t.modBlock = t.modBlock[:blocks(w)]
			t.resummarise(first, w)
		}
	}
	s.cutTo(w)
	return len(drop), nil
}

// drainInto appends every component's entity to ids and the component to
// vals, in storage order, and empties the storage: a removal of each,
// for tracking. The storage keeps its arrays for the components added
// next.
func (s *sparseSet[T]) drainInto(ids []EntityID, vals []T) ([]EntityID, []T) {
	n := len(s.dense)
	if n == 0 {
		return ids, vals
	}
	start := len(ids)
	ids, vals = append(ids, s.dense...), append(vals, s.data...)
	if t := s.track; t != nil {
		if t.hooks != nil {
			defer s.hookAll(hookRemove, ids[start:], vals[start:]) // once the storage is empty
		}
		if t.kinds&TrackRemoval != 0 {
			ts := t.logStamp()
			for _, id := range s.dense {
				t.removals = append(t.removals, removal{id: id, at: ts})
			}
		}
		if t.kinds&TrackInsertion != 0 {
			t.insertedAt = t.insertedAt[:0]
		}
		if t.kinds&TrackModification != 0 {
			t.modifiedAt = t.modifiedAt[:0]
			t.modBlock = t.modBlock[:0]
		}
	}
	if s.pack != nil {
		s.pack.n = 0 // no entity has every member type any more
	}
	for _, id := range s.dense[s.pre.n:] {
		s.pages[id.Index()>>pageShift][id.Index()&pageMask] = 0
	}
	s.cutTo(0)
	return ids, vals
}
