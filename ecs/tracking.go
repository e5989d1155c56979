package ecs

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
)

// Tracking selects which changes to a component storage are recorded. It is
// a bit set: combine kinds with |.
type Tracking uint8

// The kinds of changes a storage can track.
const (
	// TrackInsertion records when each component was added to its entity.
	TrackInsertion Tracking = 1 << iota
	// TrackModification records when each component was last handed out
	// for writing through a [ViewMut] (see [ViewMut] for exactly what
	// marks).
	TrackModification
	// TrackDeletion keeps each deleted component, with its entity, until
	// cleared. Deleting an entity deletes each of its components.
	TrackDeletion
	// TrackRemoval keeps the entities whose component was removed (taken
	// out with Remove: the component itself went back to the caller),
	// until cleared.
	TrackRemoval
	// TrackAll tracks every kind.
	TrackAll = TrackInsertion | TrackModification | TrackDeletion | TrackRemoval
)

var trackingNames = [...]string{"insertion", "modification", "deletion", "removal"}

// String names the kinds in t, joined with "|": "insertion|modification".
// The zero Tracking prints "nothing".
func (t Tracking) String() string {
	if t == 0 {
		return "nothing"
	}
	var parts []string
	for i, name := range trackingNames {
		if t&(1<<i) != 0 {
			parts = append(parts, name)
		}
	}
	if rest := t &^ TrackAll; rest != 0 {
		parts = append(parts, "Tracking("+strconv.Itoa(int(rest))+")")
	}
	return strings.Join(parts, "|")
}

// Tracker is implemented by component types that declare what their storage
// tracks: the Go form of Shipyard's `type Tracking = track::Modification`.
// Implement it on the value type; the method is called once, on the zero
// value, when the storage is created, so it must return a constant:
//
//	type Life struct{ HP float64 }
//
//	func (Life) Tracking() ecs.Tracking { return ecs.TrackModification }
//
// For types you do not own, use [TrackComponent].
type Tracker interface {
	Tracking() Tracking
}

// declaredTracking returns what T declares with a Tracking method.
func declaredTracking[T any]() Tracking {
	var zero T
	if t, ok := any(zero).(Tracker); ok {
		return t.Tracking() & TrackAll
	}
	return 0
}

// ErrNotTracked is the error a view returns when asked for changes its
// component type does not track. See [TrackingError].
var ErrNotTracked = errors.New("component type does not track this")

// TrackingError reports a question about changes a storage does not track.
// It wraps [ErrNotTracked].
type TrackingError struct {
	Op      string   // the method asked, e.g. "View[main.Life].Modified"
	Type    string   // the component type, e.g. "main.Life"
	Missing Tracking // the kinds the question needs and the type lacks
	Has     Tracking // what the type tracks
}

func (e *TrackingError) Error() string {
	return "ecs: " + e.Op + ": " + e.Type + " does not track " + e.Missing.String() +
		" (it tracks " + e.Has.String() + "); declare it with a Tracking method on " + e.Type +
		" or with ecs.TrackComponent[" + e.Type + "]"
}

// Unwrap returns [ErrNotTracked].
func (e *TrackingError) Unwrap() error { return ErrNotTracked }

// TrackComponent makes the storage of T track the kinds in t, in addition
// to what it tracks already (what T declares with a [Tracker] method): the
// way to track types you do not own. Components already in the storage are
// not reported as inserted or modified. Tracking cannot be turned off. It
// borrows all storages, and returns a [*BorrowError] if they are borrowed
// elsewhere, or an error naming the bad kinds if t has bits beyond
// [TrackAll] (nothing changes then).
func TrackComponent[T any](s Storages, t Tracking) error {
	if t&^TrackAll != 0 {
		return errors.New("ecs: TrackComponent[" + typeName(reflect.TypeFor[T]()) + "]: " + t.String() + " is not a combination of TrackInsertion, TrackModification, TrackDeletion and TrackRemoval")
	}
	w, locked, err := beginWrite(s)
	if err != nil {
		return err
	}
	defer endWrite(w, locked)
	storageFor[T](w).enableTracking(t, w)
	return nil
}

// TrackingOf returns what the storage of T tracks. It borrows nothing:
// what a storage tracks only grows, and it reads it atomically, so it
// never conflicts and never races with [TrackComponent] on another
// goroutine (it returns what the storage tracked before or after it).
func TrackingOf[T any](s Storages) Tracking {
	w, _ := s.world()
	return Tracking(storageFor[T](w).tracked.Load())
}

// Timestamps.
//
// The world has one clock. Every system run takes the next timestamp, and
// so does every World-level change to a tracked storage made outside
// systems; changes made in a system carry the system's timestamp. A
// system in a workload sees the changes whose timestamp is after its own
// previous run (and up to the current one, which includes its own
// changes). Timestamps are 64-bit: at a billion system runs per second
// the clock wraps after 584 years. Comparisons are wrap-safe anyway
// (serial-number arithmetic: a is after b when a-b, modulo 2^64, is
// below 2^63), so the clock can start anywhere; "never modified" is
// stored as 2^62 ticks before the insertion, so it stays in the past
// for any window that starts less than 2^62 ticks before it.

// ancient is how far in the past "never" is put, relative to a stamp.
const ancient = 1 << 62

// newer reports whether ts is after since, wrap-safely.
func newer(ts, since uint64) bool { return int64(ts-since) > 0 }

// nextTick takes the next timestamp, never 0 (0 means "none").
func (w *World) nextTick() uint64 {
	t := w.tick.Add(1)
	if t == 0 {
		t = w.tick.Add(1)
	}
	return t
}

// TrackingTimestamp returns the world's current tracking timestamp: the
// last one taken, so every change made so far has it or an earlier one.
// Keep it to clear, later, the deletions and removals made up to it with
// the …OlderThan methods of [ViewMut].
func (w *World) TrackingTimestamp() uint64 {
	w.mustWorld("TrackingTimestamp")
	return w.tick.Load()
}

// TrackingTimestamp returns the world's current tracking timestamp (see
// [World.TrackingTimestamp]).
func (v AllStoragesViewMut) TrackingTimestamp() uint64 {
	w, _ := v.world()
	return w.tick.Load()
}

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
}

// stamps is the part of a tracker that does not depend on the component
// type: the timestamps kept per position, which joins read and mark
// without knowing the type.
type stamps struct {
	kinds Tracking
	w     *World
	// now is the timestamp of changes made through the ViewMut holding the
	// storage (its system's run), or 0 when no ViewMut holds it.
	now        uint64
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

// enableTracking makes s track kinds too, from now on.
func (s *sparseSet[T]) enableTracking(kinds Tracking, w *World) {
	if kinds == 0 {
		return
	}
	s.cutIdent(0) // a tracked storage keeps no identity prefix
	now := w.tick.Load()
	t := s.track
	if t == nil {
		t = &tracker[T]{stamps: stamps{w: w, insClear: now, modClear: now}}
	}
	add := kinds &^ t.kinds
	if add&TrackInsertion != 0 {
		t.insertedAt = filled(len(s.dense), cap(s.dense), now-ancient)
	}
	if add&TrackModification != 0 {
		t.modifiedAt = filled(len(s.dense), cap(s.dense), now-ancient)
		t.modBlock = filled(blocks(len(s.dense)), blocks(cap(s.dense)), summaryOf(now-ancient))
	}
	t.kinds |= kinds
	s.track = t
	s.tracked.Store(uint32(t.kinds))
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

// stamp returns the timestamp of a change made now: the holding system's,
// the AllStoragesViewMut's, or a new one for a World-level change.
func (t *stamps) stamp() uint64 {
	if t.now != 0 {
		return t.now
	}
	if t.w.allNow != 0 {
		return t.w.allNow
	}
	return t.w.nextTick()
}

// The hooks below keep the tracker in step with its storage, which calls
// them only when it has a tracker. They are kept out of line so the
// storage's own paths stay small.

// appended records a component appended at the end of the dense arrays.
//
//go:noinline
func (t *stamps) appended() {
	ts := t.stamp()
	if t.insertedAt != nil {
		t.insertedAt = append(t.insertedAt, ts)
	}
	if t.modifiedAt != nil {
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
	if t.modifiedAt != nil {
		t.setModified(i, t.stamp())
	}
}

// tookOver records that the component *v at i, left behind by the dead
// entity old (see EntitiesViewMut.DeleteUnchecked), is about to be
// overwritten by a new entity's: the deletion of old's, and an insertion.
//
//go:noinline
func (t *tracker[T]) tookOver(old EntityID, v *T, i int) {
	ts := t.stamp()
	if t.kinds&TrackDeletion != 0 {
		t.deletions = append(t.deletions, deletion[T]{id: old, at: ts, v: *v})
	}
	if t.insertedAt != nil {
		t.insertedAt[i] = ts
	}
	if t.modifiedAt != nil {
		t.setModified(i, ts-ancient)
	}
}

// gone records that the component at i leaves, and the one at last moves
// into its place (swap-remove).
func (t *stamps) gone(i, last int) {
	if a := t.insertedAt; a != nil {
		a[i] = a[last]
		t.insertedAt = a[:last]
	}
	if a := t.modifiedAt; a != nil {
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
		t.deletions = append(t.deletions, deletion[T]{id: id, at: t.stamp(), v: *v})
	}
	t.gone(i, last)
}

// removed records the removal of id's component, at position i.
//
//go:noinline
func (t *tracker[T]) removed(id EntityID, i, last int) {
	if t.kinds&TrackRemoval != 0 {
		t.removals = append(t.removals, removal{id: id, at: t.stamp()})
	}
	t.gone(i, last)
}

// cleared records the deletion of every component.
func (t *tracker[T]) cleared(ids []EntityID, data []T) {
	if t.kinds&TrackDeletion != 0 {
		ts := t.stamp()
		for i, id := range ids {
			t.deletions = append(t.deletions, deletion[T]{id: id, at: ts, v: data[i]})
		}
	}
	if t.insertedAt != nil {
		t.insertedAt = t.insertedAt[:0]
	}
	if t.modifiedAt != nil {
		t.modifiedAt = t.modifiedAt[:0]
		t.modBlock = t.modBlock[:0]
	}
}

// markFirst records that the components at 0..n-1 were handed out for
// writing.
//
//go:noinline
func (t *stamps) markFirst(n int) {
	if a := t.modifiedAt; a != nil {
		now := t.stamp()
		fill(a[:n], now)
		t.summarise(n, now)
	}
}

// markBlocks records in modBlock that the first n timestamps were set to
// t.now.
func (t *stamps) markBlocks(n int) { t.summarise(n, t.now) }

// summarise records in modBlock that the first n timestamps were set to
// ts, the newest timestamp the storage has seen.
func (t *stamps) summarise(n int, ts uint64) {
	fill(t.modBlock[:n>>3], summaryOf(ts))
	if n&7 != 0 {
		b := &t.modBlock[n>>3]
		if b.max != ts {
			b.retire()
			b.max, b.at = ts, 0
		}
		b.at |= 1<<(n&7) - 1
	}
}

// worldMarks prepares s for a World-level iteration that hands its
// components out for writing (Each1 … Each8): if s tracks modification,
// the iteration marks them, with the timestamp of this World-level change.
// endWorldMarks must follow.
func worldMarks[T any](s *sparseSet[T]) opTrack {
	if t := s.track; t != nil && t.modifiedAt != nil {
		if t.now == 0 {
			t.now = t.stamp()
		}
		return opTrack{mark: true}
	}
	return opTrack{}
}

// endWorldMarks ends what worldMarks started.
func endWorldMarks[T any](s *sparseSet[T]) {
	if s.track != nil {
		s.track.now = 0
	}
}

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
	if t.modifiedAt != nil {
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
	now := t.w.nextTick()
	if kinds&TrackInsertion != 0 {
		t.insClear = now
	}
	if kinds&TrackModification != 0 {
		t.modClear = now
	}
	if t.now != 0 {
		t.now = t.w.nextTick()
	} else if t.w.allNow != 0 {
		t.w.allNow = t.w.nextTick()
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

// needs returns a *TrackingError for op unless s tracks every kind in kinds.
func (s *sparseSet[T]) needs(op string, kinds Tracking) error {
	var has Tracking
	if s.track != nil {
		has = s.track.kinds
	}
	if has&kinds != kinds {
		return &TrackingError{Op: op, Type: s.name, Missing: kinds &^ has, Has: has}
	}
	return nil
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
