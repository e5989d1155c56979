package ecs

import "slices"

// The storage side of snapshots (snapshot.go): the typed copy of one
// component storage (setSnap) and of one unique (uniqueCopy), and the
// methods of sparseSet[T] and unique[T] that make and restore them. Each
// copies slices of concrete types with append or copy: no reflection and
// no call per entity. Like the rest of the storage layer, it knows
// nothing of World: the methods that find a world's storage of a type
// are snapshot.go's.

// setSnap is the copy of a *sparseSet[T]. Its slices are reused by the
// next snapshot into it.
type setSnap[T any] struct {
	k     resKey
	iso   *isoTag // the storage's, if it is an isotope storage
	ptrs  bool    // T holds pointers: slots past the length are cleared
	dense []EntityID
	data  []T
	pre   identity
	pack  *pack // the pack the storage was a member of, and its length
	packN int
	// byPages says that the sparse pages were copied: pageIdx[k] is the
	// index of the page whose entries are pageCopy[k], every allocated
	// page in order. Otherwise a restore rebuilds the entries from dense
	// (see restoreFrom).
	byPages  bool
	pageIdx  []uint32
	pageCopy []sparsePage

	// The tracking state (tracker), when kinds is not 0.
	kinds              Tracking
	insertedAt         []uint64
	modifiedAt         []uint64
	modBlock           []modSummary
	deletions          []deletion[T]
	removals           []removal
	insClear, modClear uint64
}

func (c *setSnap[T]) key() resKey          { return c.k }
func (c *setSnap[T]) packed() (*pack, int) { return c.pack, c.packN }

// copyInto sets *dst to a copy of src, reusing *dst's array when it has
// room; with ptrs, the elements the copy no longer covers are zeroed, so
// that the garbage collector can have what they referenced.
func copyInto[E any](dst *[]E, src []E, ptrs bool) {
	old := len(*dst)
	*dst = append((*dst)[:0], src...)
	if ptrs && old > len(src) {
		clear((*dst)[len(src):old])
	}
}

// snapshotTo copies s into prev if it is a copy of a storage of T (the
// copy of the last snapshot of the same world), or into a new copy.
func (s *sparseSet[T]) snapshotTo(prev storageSnap) storageSnap {
	c, ok := prev.(*setSnap[T])
	if !ok {
		c = &setSnap[T]{ptrs: s.ptrs}
	}
	c.k, c.iso = s.accessKey(), s.iso
	copyInto(&c.dense, s.dense, false)
	copyInto(&c.data, s.data, c.ptrs)
	c.pre = s.pre
	c.copyPages(s)
	c.pack, c.packN = s.pack, 0
	if s.pack != nil {
		c.packN = s.pack.n
	}
	t := s.track
	if t == nil {
		c.kinds = 0
		c.insertedAt, c.modifiedAt, c.modBlock = c.insertedAt[:0], c.modifiedAt[:0], c.modBlock[:0]
		copyInto(&c.deletions, nil, true)
		c.removals = c.removals[:0]
		return c
	}
	c.kinds = t.kinds
	copyInto(&c.insertedAt, t.insertedAt, false)
	copyInto(&c.modifiedAt, t.modifiedAt, false)
	copyInto(&c.modBlock, t.modBlock, false)
	copyInto(&c.deletions, t.deletions, true)
	copyInto(&c.removals, t.removals, false)
	c.insClear, c.modClear = t.insClear, t.modClear
	return c
}

// densePages is how many sparse entries a page table may span per
// component mapped, at most, for a snapshot to copy the pages (see
// copyPages). A variable only for the tests, which set it to reach both
// ways with small worlds.
var densePages = 4

// copyPages copies s's sparse pages if they are dense: a restore then
// copies them back with memmove, where writing the entries one by one
// (zeroing those of the components it replaces, then setting those of the
// components it restores, each a dependent load and a store) costs several
// times as much. The page table must span at most densePages entries per
// component with an entry (those of the identity prefix have none): a
// sparse storage, a few components far apart, would copy whole pages for
// them, and is rebuilt instead.
func (c *setSnap[T]) copyPages(s *sparseSet[T]) {
	c.byPages = false
	c.pageIdx, c.pageCopy = c.pageIdx[:0], c.pageCopy[:0]
	mapped := len(s.dense) - int(s.pre.n)
	// In 64 bits: densePages*mapped may not fit an int on 32-bit targets.
	if mapped == 0 || uint64(len(s.pages))*pageSize > uint64(densePages)*uint64(mapped) {
		return
	}
	c.byPages = true
	for p, page := range s.pages {
		if page != &emptyPage {
			c.pageIdx = append(c.pageIdx, uint32(p))
		}
	}
	// Copied with copy, a memmove straight into place: an append of
	// *page may go through a temporary of the page's 8 KiB.
	c.pageCopy = slices.Grow(c.pageCopy, len(c.pageIdx))[:len(c.pageIdx)]
	for k, p := range c.pageIdx {
		copy(c.pageCopy[k][:], s.pages[p][:])
	}
}

// restorePages makes s's sparse pages hold what c copied: every page of
// s that c has no copy of is zeroed, the others overwritten (allocated
// first if needed).
func (s *sparseSet[T]) restorePages(c *setSnap[T]) {
	k := 0
	for p := range s.pages {
		if k < len(c.pageIdx) && c.pageIdx[k] == uint32(p) {
			copy(s.page(uint32(p))[:], c.pageCopy[k][:])
			k++
		} else if s.pages[p] != &emptyPage {
			clear(s.pages[p][:])
		}
	}
	for ; k < len(c.pageIdx); k++ {
		copy(s.page(c.pageIdx[k])[:], c.pageCopy[k][:])
	}
}

// restoreFrom makes s hold what c holds: the same components, in the same
// order, with the same identity prefix and tracking state. The sparse
// pages are copied back if c copied them (copyPages); otherwise the
// entries are rebuilt from the dense ids: those of s's components are
// zeroed, then those of c's written, which costs in proportion to the
// components, not to the page table's reach. It keeps
// what is s's configuration: its pack (the caller sets the pack's length
// once every member is restored: Snapshot.restorePack) and what it
// tracks (at least c's kinds: tracking only grows).
func (s *sparseSet[T]) restoreFrom(c *setSnap[T], clk *clock) {
	if c.byPages {
		s.restorePages(c)
	} else {
		// Zero the current entries: the prefix's have none.
		for _, id := range s.dense[s.pre.n:] {
			s.pages[id.Index()>>pageShift][id.Index()&pageMask] = 0
		}
	}
	// The order changes: re-alignment measures it (align.go).
	s.editedMany(0, max(len(s.dense), len(c.dense)))
	copyInto(&s.dense, c.dense, false)
	copyInto(&s.data, c.data, s.ptrs)
	s.pre = c.pre
	if !c.byPages {
		var page *sparsePage
		cur := ^uint32(0) // the page index of page
		for i := int(s.pre.n); i < len(s.dense); i++ {
			id := s.dense[i]
			if p := id.Index() >> pageShift; p != cur {
				page, cur = s.page(p), p
			}
			page[id.Index()&pageMask] = sparseEntry(id, i)
		}
	}
	s.restoreTracking(c, clk)
	// A group member, or a tracked storage, keeps no identity prefix: the
	// copy may have one if the group was added, or tracking enabled,
	// after the snapshot was taken.
	if s.pack != nil {
		s.noIdent()
	} else if s.track != nil {
		s.cutIdent(0)
	}
}

// restoreTracking restores s's tracking state from c, on the clock clk,
// which the caller set to the snapshot's time. A kind that s tracks and c
// did not gets the state enableTracking gives it: components never
// inserted nor modified in any window.
func (s *sparseSet[T]) restoreTracking(c *setSnap[T], clk *clock) {
	kinds := c.kinds
	if s.track != nil {
		kinds |= s.track.kinds
	}
	if kinds == 0 {
		return
	}
	t := s.track
	if t == nil {
		t = &tracker[T]{stamps: stamps{clk: clk}}
		s.track = t
	}
	t.clk = clk
	now := clk.tick.Load()
	t.kinds = kinds
	t.now, t.refNow = 0, 0 // no borrow holds s; refNow's preparation is stale
	if c.kinds != 0 {
		t.insClear, t.modClear = c.insClear, c.modClear
	} else {
		t.insClear, t.modClear = now, now
	}
	n := len(s.dense)
	t.insertedAt, t.modifiedAt, t.modBlock = t.insertedAt[:0], t.modifiedAt[:0], t.modBlock[:0]
	if kinds&TrackInsertion != 0 {
		if c.kinds&TrackInsertion != 0 {
			t.insertedAt = append(t.insertedAt, c.insertedAt...)
		} else {
			t.insertedAt = grow(t.insertedAt, n)[:n]
			fill(t.insertedAt, now-ancient)
		}
	}
	if kinds&TrackModification != 0 {
		if c.kinds&TrackModification != 0 {
			t.modifiedAt = append(t.modifiedAt, c.modifiedAt...)
			t.modBlock = append(t.modBlock, c.modBlock...)
		} else {
			t.modifiedAt = grow(t.modifiedAt, n)[:n]
			fill(t.modifiedAt, now-ancient)
			t.modBlock = grow(t.modBlock, blocks(n))[:blocks(n)]
			fill(t.modBlock, summaryOf(now-ancient))
		}
	}
	if c.kinds&TrackDeletion != 0 {
		copyInto(&t.deletions, c.deletions, true)
	} else {
		copyInto(&t.deletions, nil, true)
	}
	if c.kinds&TrackRemoval != 0 {
		copyInto(&t.removals, c.removals, false)
	} else {
		t.removals = t.removals[:0]
	}
	s.tracked.Store(uint32(kinds))
}

// restoreEmpty empties s, tracking state included, for a restore from a
// snapshot taken before s was created: s then held nothing, and its
// windows start at the snapshot's time, tick.
func (s *sparseSet[T]) restoreEmpty(tick uint64) {
	for _, id := range s.dense[s.pre.n:] {
		s.pages[id.Index()>>pageShift][id.Index()&pageMask] = 0
	}
	s.cutTo(0) // clears the prefix, and the slots if T holds pointers
	if t := s.track; t != nil {
		t.insertedAt, t.modifiedAt, t.modBlock = t.insertedAt[:0], t.modifiedAt[:0], t.modBlock[:0]
		copyInto(&t.deletions, nil, true)
		t.removals = t.removals[:0]
		t.insClear, t.modClear = tick, tick
		t.now, t.refNow = 0, 0
	}
	if s.pack != nil {
		s.pack.n = 0
	}
}

// uniqueCopy is the copy of a *unique[T].
type uniqueCopy[T any] struct {
	k       typeKey
	v       T
	present bool
}

func (c *uniqueCopy[T]) key() typeKey { return c.k }

// restoreInto puts the copy into u, the world's slot of T.
func (c *uniqueCopy[T]) restoreInto(u uniqueSlot) {
	x := u.(*unique[T])
	x.v, x.present = c.v, c.present
}

// key returns the key of the unique's type.
func (u *unique[T]) key() typeKey { return keyFor[T]() }

// snapshotTo copies u into prev if it is a copy of a unique of T, or into
// a new copy.
func (u *unique[T]) snapshotTo(prev uniqueSnap) uniqueSnap {
	c, ok := prev.(*uniqueCopy[T])
	if !ok {
		c = &uniqueCopy[T]{k: keyFor[T]()}
	}
	c.v, c.present = u.v, u.present
	return c
}

// restoreAbsent removes the unique, for a restore from a snapshot taken
// when it was not there.
func (u *unique[T]) restoreAbsent() {
	var zero T
	u.v, u.present = zero, false
}
