package ecs

import "reflect"

// tracker holds a storage's tracking state. A storage that tracks nothing
// has none: see sparseSet.track.
//
// Invariants: when the storage tracks insertion (modification),
// len(insertedAt) == len(dense) (len(modifiedAt) == len(dense)), and
// insertedAt[i] (modifiedAt[i]) belongs to dense[i]: every move in the
// storage moves them too. The logs are in timestamp order.
type tracker[T any] struct {
	stamps
	deletions []deletion[T]
	removals  []removal
	// hooks are the type's lifecycle hooks (hooks.go), or nil. A storage
	// with hooks has a tracker even when kinds is 0. sink is the world's
	// then, and queue holds the hook calls a World-level change queued,
	// from qhead on.
	hooks *ComponentHooks[T]
	sink  *hookSink
	queue []hookEvent[T]
	qhead int
	// observed has the bit 1<<k of each hookKind k whose lifecycle event
	// has observers (observers.go).
	observed uint8
}

// stamps is the part of a tracker that does not depend on the component
// type: the timestamps kept per position, which joins read and mark
// without knowing the type.
type stamps struct {
	// kinds is what the storage tracks. It alone says so: a slice below
	// may be nil for a kind tracked (ShrinkToFit of an empty storage).
	kinds Tracking
	clk   *clock // the world's clock
	// now is the timestamp of changes made through the ViewMut holding the
	// storage (its system's run), or 0 when no ViewMut holds it. Moving it
	// within a borrow goes through setNow.
	now uint64
	// refNow is the now for which prepareRefs readied modBlock for the
	// Refs of ViewMut.Refs and ParRefs, or 0 (see markRef).
	refNow     uint64
	insertedAt []uint64
	modifiedAt []uint64
	// modBlock[b] summarises modifiedAt[8b:8b+8] (see modSummary), so a
	// scan for modifications reads the timestamps of few blocks.
	// len(modBlock) == (len(modifiedAt)+7)/8.
	modBlock []modSummary
	// Outside workloads, views see the insertions (modifications) after
	// these timestamps: the last ClearAllInserted (ClearAllModified).
	insClear, modClear uint64
}

// modSummary summarises a block of 8 modification timestamps (a cache
// line of them) for a scan asking which are newer than since:
//
//   - bit k of at set: timestamp k of the block is exactly max;
//   - bit k of at clear: timestamp k is not newer than rest.
//
// So when rest is not newer than since, the answer is at (or nothing, if
// max is not newer either) without reading the block. Marking through a
// ViewMut sets the timestamps of a block to the same "now" again and
// again, which keeps at exact and rest old: a scan over a storage of
// which a few components changed reads the summaries in order and almost
// no timestamp. Bits of at past the end of the storage mean nothing.
type modSummary struct {
	max, rest uint64
	at        uint8
}

// summaryOf returns the summary of a block whose timestamps all are ts.
func summaryOf(ts uint64) modSummary { return modSummary{max: ts, rest: ts - ancient, at: 0xff} }

type deletion[T any] struct {
	id EntityID
	at uint64
	v  T
}

type removal struct {
	id EntityID
	at uint64
}

// blocks returns how many blocks of modBlock cover n timestamps.
func blocks(n int) int { return (n + 7) >> 3 }

// setModified sets the modification timestamp at i to ts, and keeps its
// block's summary true.
func (t *stamps) setModified(i int, ts uint64) {
	t.modifiedAt[i] = ts
	b, bit := &t.modBlock[i>>3], uint8(1)<<(i&7)
	switch {
	case ts == b.max:
		b.at |= bit
	case newer(ts, b.max):
		b.retire()
		b.max, b.at = ts, bit
	default:
		b.at &^= bit
		if newer(ts, b.rest) {
			b.rest = ts
		}
	}
}

// retire makes rest cover the timestamps at stands for, before max and at
// change.
func (b *modSummary) retire() {
	if b.at != 0 && newer(b.max, b.rest) {
		b.rest = b.max
	}
}

// fill sets every element of a to v. It fills a first chunk small enough
// to stay in the L1 cache, then copies it over the rest: memmove's wide
// stores rather than one store per loop iteration.
func fill[E any](a []E, v E) {
	const chunk = 1024
	first := a[:min(len(a), chunk)]
	for i := range first {
		first[i] = v
	}
	for n := len(first); n < len(a); n += chunk {
		copy(a[n:], first)
	}
}

func filled[E any](n, c int, v E) []E {
	s := make([]E, n, c)
	fill(s, v)
	return s
}

// stamp returns the timestamp of a change made now: the holding borrow's,
// the AllStoragesViewMut's, or a new one for a World-level change.
func (t *stamps) stamp() uint64 {
	if t.now != 0 {
		return t.now
	}
	if t.clk.allNow != 0 {
		return t.clk.allNow
	}
	return t.clk.nextTick()
}

// logStamp returns the timestamp of a deletion or removal logged now: as
// stamp, but newer than every mark TrackingTimestamp has returned. A
// borrow whose timestamp is not newer (it was taken before the mark was
// read) moves on to a new one, for this entry and its later changes.
// Only the goroutine holding the borrow writes its timestamps: t.now
// (its ViewMut or World-level iteration) and, while an
// AllStoragesViewMut holds every storage, allNow.
func (t *stamps) logStamp() uint64 {
	ts := t.stamp()
	if m := t.clk.marked.Load(); m != 0 && !newer(ts, m) {
		ts = t.clk.nextTick()
		if t.now != 0 {
			t.setNow(ts)
		}
		if t.clk.allNow != 0 {
			t.clk.allNow = ts
		}
	}
	return ts
}

// appended records a component appended at the end of the dense arrays.
//
//go:noinline
func (t *stamps) appended() {
	ts := t.stamp()
	if t.kinds&TrackInsertion != 0 {
		t.insertedAt = append(t.insertedAt, ts)
	}
	if t.kinds&TrackModification != 0 {
		t.modifiedAt = append(t.modifiedAt, ts-ancient)
		if len(t.modBlock) < blocks(len(t.modifiedAt)) {
			t.modBlock = append(t.modBlock, summaryOf(ts-ancient))
		}
		t.setModified(len(t.modifiedAt)-1, ts-ancient)
	}
}

// replaced records that the component at i was overwritten by a new value
// for the same entity: a modification, not an insertion.
//
//go:noinline
func (t *stamps) replaced(i int) {
	if t.kinds&TrackModification != 0 {
		t.setModified(i, t.stamp())
	}
}

// tookOver records that the component *v at i, left behind by the dead
// entity old (see EntitiesViewMut.DeleteUnchecked), is about to be
// overwritten by a new entity's: the deletion of old's, and an insertion.
//
//go:noinline
func (t *tracker[T]) tookOver(old EntityID, v *T, i int) {
	var ts uint64
	if t.kinds&TrackDeletion != 0 {
		ts = t.logStamp()
		t.deletions = append(t.deletions, deletion[T]{id: old, at: ts, v: *v})
	} else {
		ts = t.stamp()
	}
	if t.kinds&TrackInsertion != 0 {
		t.insertedAt[i] = ts
	}
	if t.kinds&TrackModification != 0 {
		t.setModified(i, ts-ancient)
	}
}

// gone records that the component at i leaves, and the one at last moves
// into its place (swap-remove).
func (t *stamps) gone(i, last int) {
	if t.kinds&TrackInsertion != 0 {
		a := t.insertedAt
		a[i] = a[last]
		t.insertedAt = a[:last]
	}
	if t.kinds&TrackModification != 0 {
		a := t.modifiedAt
		t.setModified(i, a[last])
		t.modifiedAt = a[:last]
		t.modBlock = t.modBlock[:blocks(last)]
	}
}

// deleted records the deletion of id's component *v, at position i.
//
//go:noinline
func (t *tracker[T]) deleted(id EntityID, v *T, i, last int) {
	if t.kinds&TrackDeletion != 0 {
		t.deletions = append(t.deletions, deletion[T]{id: id, at: t.logStamp(), v: *v})
	}
	t.gone(i, last)
}

// removed records the removal of id's component, at position i.
//
//go:noinline
func (t *tracker[T]) removed(id EntityID, i, last int) {
	if t.kinds&TrackRemoval != 0 {
		t.removals = append(t.removals, removal{id: id, at: t.logStamp()})
	}
	t.gone(i, last)
}

// cleared records the deletion of every component.
func (t *tracker[T]) cleared(ids []EntityID, data []T) {
	if t.kinds&TrackDeletion != 0 {
		ts := t.logStamp()
		for i, id := range ids {
			t.deletions = append(t.deletions, deletion[T]{id: id, at: ts, v: data[i]})
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

// markFirst records that the components at 0..n-1 were handed out for
// writing.
//
//go:noinline
func (t *stamps) markFirst(n int) {
	if t.kinds&TrackModification != 0 {
		now := t.stamp()
		fill(t.modifiedAt[:n], now)
		t.summarise(n, now)
	}
}

// summarise records in modBlock that the first n timestamps were set to
// ts, the newest timestamp the storage has seen.
func (t *stamps) summarise(n int, ts uint64) {
	fill(t.modBlock[:n>>3], summaryOf(ts))
	if n&7 != 0 {
		b := &t.modBlock[n>>3]
		*b = b.marked(n&7, ts)
	}
}

// marked returns the summary of a block summarised by b once its first k
// timestamps (1 ≤ k ≤ 8) are set to ts, the newest timestamp the storage
// has seen.
func (b modSummary) marked(k int, ts uint64) modSummary {
	if k >= 8 {
		return summaryOf(ts)
	}
	if b.max != ts {
		b.retire()
		b.max, b.at = ts, 0
	}
	b.at |= 1<<k - 1
	return b
}

// pending returns the summary of a block while a loop sets its timestamps
// to now, the newest timestamp the storage has seen, one by one: it
// claims no timestamp (at is clear), and rest covers them all, so it stays
// true however many the loop set when it stops, even by a panic, at the
// cost of scans reading the block's timestamps. The loop replaces it with
// the exact summary (marked) when it leaves the block normally.
func pending(now uint64) modSummary { return modSummary{max: now, rest: now} }

// markAll records that every component was handed out for writing.
func (t *stamps) markAll() { t.markFirst(len(t.modifiedAt)) }

// opTrack is what a join does with the tracking of one of its operands.
type opTrack struct {
	filter   Tracking // restrict to what was inserted/modified in the window (0: no filter)
	mark     bool     // mark visited components modified (a ViewMut of a type tracking modification)
	ins, mod uint64   // the window: insertions (modifications) after these count
}

// admits reports whether the component at i was inserted or modified (as
// op.filter asks) in op's window.
func (t *stamps) admits(op *opTrack, i int) bool {
	return (op.filter&TrackInsertion != 0 && newer(t.insertedAt[i], op.ins)) ||
		(op.filter&TrackModification != 0 && newer(t.modifiedAt[i], op.mod))
}

// mark records that the component at i is handed out for writing.
func (t *stamps) mark(i int) {
	if t.kinds&TrackModification != 0 {
		// As setModified, knowing that t.now is the newest timestamp
		// the storage has seen.
		t.modifiedAt[i] = t.now
		b := &t.modBlock[i>>3]
		if b.max != t.now {
			b.retire()
			b.max, b.at = t.now, 0
		}
		b.at |= 1 << (i & 7)
	}
}

// clearChanges starts the outside-workload window of kinds (insertion,
// modification) now.
//
// The clear takes a timestamp of its own; a system or borrow holding the
// storage moves on to a later one, so that what it changes after the clear
// is seen and what it changed before is not.
func (t *stamps) clearChanges(kinds Tracking) {
	now := t.clk.nextTick()
	if kinds&TrackInsertion != 0 {
		t.insClear = now
	}
	if kinds&TrackModification != 0 {
		t.modClear = now
	}
	if t.now != 0 {
		t.setNow(t.clk.nextTick())
	} else if t.clk.allNow != 0 {
		t.clk.allNow = t.clk.nextTick()
	}
}

// clearLogs drops the deletions and/or removals (as kinds says) made at or
// before ts, or all of them when all is set.
func (t *tracker[T]) clearLogs(kinds Tracking, ts uint64, all bool) {
	if kinds&TrackDeletion != 0 {
		t.deletions = dropBefore(t.deletions, ts, all, func(d *deletion[T]) uint64 { return d.at })
	}
	if kinds&TrackRemoval != 0 {
		t.removals = dropBefore(t.removals, ts, all, func(r *removal) uint64 { return r.at })
	}
}

// dropBefore drops the entries of log made at or before ts (all of them
// when all is set), keeping the array; entries are in timestamp order.
func dropBefore[E any](log []E, ts uint64, all bool, at func(*E) uint64) []E {
	n := len(log)
	if !all {
		n = 0
		for n < len(log) && !newer(at(&log[n]), ts) {
			n++
		}
	}
	kept := copy(log, log[n:])
	clear(log[kept:])
	return log[:kept]
}

// trackingMemory returns the bytes the tracker uses and allocates.
func (t *tracker[T]) memory() (used, allocated int) {
	if t == nil {
		return 0, 0
	}
	const stamp = 8
	sum := int(reflect.TypeFor[modSummary]().Size())
	del, rem := int(reflect.TypeFor[deletion[T]]().Size()), int(reflect.TypeFor[removal]().Size())
	used = (len(t.insertedAt)+len(t.modifiedAt))*stamp + len(t.modBlock)*sum + len(t.deletions)*del + len(t.removals)*rem
	allocated = (cap(t.insertedAt)+cap(t.modifiedAt))*stamp + cap(t.modBlock)*sum + cap(t.deletions)*del + cap(t.removals)*rem
	return used, allocated
}

func (t *tracker[T]) shrink() {
	if t == nil {
		return
	}
	t.insertedAt = fit(t.insertedAt)
	t.modifiedAt = fit(t.modifiedAt)
	t.modBlock = fit(t.modBlock)
	t.deletions = fit(t.deletions)
	t.removals = fit(t.removals)
}
