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
	st := storageFor[T](w)
	if w.eaching != 0 {
		if err := refuseWalked("TrackComponent["+st.name+"]", "change what the "+st.name+" storage tracks", &st.sparseIndex, st.name); err != nil {
			return err
		}
	}
	st.enableTracking(t, &w.clock)
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

// TrackingTimestamp returns the world's current tracking timestamp: every
// deletion and removal logged so far has it or an earlier one, and every
// one logged after the call has a later one, also when it is made through
// a view that was borrowed before the call and is still held (by this
// goroutine or a system running on another). Keep it to clear, later,
// the deletions and removals made up to it with the …OlderThan methods
// of [ViewMut].
func (w *World) TrackingTimestamp() uint64 {
	w.mustWorld("TrackingTimestamp")
	return w.mark()
}

// TrackingTimestamp returns the world's current tracking timestamp (see
// [World.TrackingTimestamp]).
func (v AllStoragesViewMut) TrackingTimestamp() uint64 {
	w, _ := v.world()
	return w.mark()
}

// The hooks below keep the tracker in step with its storage, which calls
// them only when it has a tracker. They are kept out of line so the
// storage's own paths stay small.

// worldMarks prepares s for a World-level iteration that hands its
// components out for writing (Each1 … Each8): if s tracks modification,
// the iteration marks them, with the timestamp of this World-level change.
// endWorldMarks must follow.
func worldMarks[T any](s *sparseSet[T]) opTrack {
	if t := s.track; t != nil && t.kinds&TrackModification != 0 {
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

// Clearing every tracked storage at once: Shipyard's clear_all_inserted …
// on AllStorages. Each call does what the ViewMut clear of the same name
// ([ViewMut.ClearAllInserted] …) does, for every component storage of the
// world that tracks the kind; storages that do not track it are left as
// they are. The World forms borrow all storages exclusively for the call,
// so they fail with a [*BorrowError] and clear nothing if any view or
// World-level call holds any storage: clearing is all or nothing. The
// [AllStoragesViewMut] forms are for systems, which hold everything
// already; like its other methods they panic if the view was released or
// lends views (see [AllStoragesViewMut.Borrow]).

// ClearAllInserted starts the window of insertions seen outside workloads
// now, in every storage that tracks insertion (see
// [ViewMut.ClearAllInserted]). It returns a [*BorrowError] if a storage is
// borrowed elsewhere (nothing is cleared then), or [ErrNilWorld] if w is
// nil.
func (w *World) ClearAllInserted() error {
	return w.clearAll("ClearAllInserted", TrackInsertion, 0, true)
}

// ClearAllModified starts the window of modifications seen outside
// workloads now, in every storage that tracks modification. It fails as
// [World.ClearAllInserted] does.
func (w *World) ClearAllModified() error {
	return w.clearAll("ClearAllModified", TrackModification, 0, true)
}

// ClearAllInsertedAndModified does [World.ClearAllInserted] and
// [World.ClearAllModified] under one borrow.
func (w *World) ClearAllInsertedAndModified() error {
	return w.clearAll("ClearAllInsertedAndModified", TrackInsertion|TrackModification, 0, true)
}

// ClearAllDeleted empties the deletion log of every storage that tracks
// deletion. It fails as [World.ClearAllInserted] does.
func (w *World) ClearAllDeleted() error {
	return w.clearAll("ClearAllDeleted", TrackDeletion, 0, true)
}

// ClearAllRemoved empties the removal log of every storage that tracks
// removal. It fails as [World.ClearAllInserted] does.
func (w *World) ClearAllRemoved() error {
	return w.clearAll("ClearAllRemoved", TrackRemoval, 0, true)
}

// ClearAllRemovedAndDeleted does [World.ClearAllRemoved] and
// [World.ClearAllDeleted] under one borrow.
func (w *World) ClearAllRemovedAndDeleted() error {
	return w.clearAll("ClearAllRemovedAndDeleted", TrackRemoval|TrackDeletion, 0, true)
}

// ClearAllDeletedOlderThan drops, in every storage that tracks deletion,
// the deletions made at or before timestamp ts (a value of
// [World.TrackingTimestamp]); later ones stay. It fails as
// [World.ClearAllInserted] does.
func (w *World) ClearAllDeletedOlderThan(ts uint64) error {
	return w.clearAll("ClearAllDeletedOlderThan", TrackDeletion, ts, false)
}

// ClearAllRemovedOlderThan drops, in every storage that tracks removal,
// the removals made at or before timestamp ts. It fails as
// [World.ClearAllInserted] does.
func (w *World) ClearAllRemovedOlderThan(ts uint64) error {
	return w.clearAll("ClearAllRemovedOlderThan", TrackRemoval, ts, false)
}

// ClearAllRemovedAndDeletedOlderThan does [World.ClearAllRemovedOlderThan]
// and [World.ClearAllDeletedOlderThan] under one borrow.
func (w *World) ClearAllRemovedAndDeletedOlderThan(ts uint64) error {
	return w.clearAll("ClearAllRemovedAndDeletedOlderThan", TrackRemoval|TrackDeletion, ts, false)
}

// clearAll clears kinds (see sparseSet.clearTracking) in every storage of
// w, holding all storages exclusively, for the World method op. The
// components of entities deleted without them are purged first
// (stripDoomed): their deletions were made before the call, so a clear of
// deletions drops them too.
func (w *World) clearAll(op string, kinds Tracking, ts uint64, all bool) error {
	if w == nil {
		return errNilWorld
	}
	b := &borrower{kind: accWorldWrite, view: "World-level change", by: "World." + op}
	if err := w.allLock.acquire(b, true, allName); err != nil {
		return err
	}
	defer w.allLock.releaseExclusive()
	w.stripDoomed()
	w.flushPurge()
	w.clearTracking(kinds, ts, all)
	return nil
}

// clearTracking clears kinds in every storage of w; the caller holds them.
func (w *World) clearTracking(kinds Tracking, ts uint64, all bool) {
	for _, st := range w.comps.all() {
		st.clearTracking(kinds, ts, all)
	}
}

// ClearAllInserted is [World.ClearAllInserted] for a system holding all
// storages.
func (v AllStoragesViewMut) ClearAllInserted() { v.clearAll(TrackInsertion, 0, true) }

// ClearAllModified is [World.ClearAllModified] for a system holding all
// storages.
func (v AllStoragesViewMut) ClearAllModified() { v.clearAll(TrackModification, 0, true) }

// ClearAllInsertedAndModified is [World.ClearAllInsertedAndModified] for a
// system holding all storages.
func (v AllStoragesViewMut) ClearAllInsertedAndModified() {
	v.clearAll(TrackInsertion|TrackModification, 0, true)
}

// ClearAllDeleted is [World.ClearAllDeleted] for a system holding all
// storages.
func (v AllStoragesViewMut) ClearAllDeleted() { v.clearAll(TrackDeletion, 0, true) }

// ClearAllRemoved is [World.ClearAllRemoved] for a system holding all
// storages.
func (v AllStoragesViewMut) ClearAllRemoved() { v.clearAll(TrackRemoval, 0, true) }

// ClearAllRemovedAndDeleted is [World.ClearAllRemovedAndDeleted] for a
// system holding all storages.
func (v AllStoragesViewMut) ClearAllRemovedAndDeleted() {
	v.clearAll(TrackRemoval|TrackDeletion, 0, true)
}

// ClearAllDeletedOlderThan is [World.ClearAllDeletedOlderThan] for a
// system holding all storages.
func (v AllStoragesViewMut) ClearAllDeletedOlderThan(ts uint64) {
	v.clearAll(TrackDeletion, ts, false)
}

// ClearAllRemovedOlderThan is [World.ClearAllRemovedOlderThan] for a
// system holding all storages.
func (v AllStoragesViewMut) ClearAllRemovedOlderThan(ts uint64) {
	v.clearAll(TrackRemoval, ts, false)
}

// ClearAllRemovedAndDeletedOlderThan is
// [World.ClearAllRemovedAndDeletedOlderThan] for a system holding all
// storages.
func (v AllStoragesViewMut) ClearAllRemovedAndDeletedOlderThan(ts uint64) {
	v.clearAll(TrackRemoval|TrackDeletion, ts, false)
}

// clearAll clears kinds in every storage of the world v holds, after
// purging the components of entities deleted so far (v.world).
func (v AllStoragesViewMut) clearAll(kinds Tracking, ts uint64, all bool) {
	w, _ := v.world()
	w.clearTracking(kinds, ts, all)
}
