package ecs

import (
	"iter"
	"math/bits"
)

// Changed is a view narrowed to the components inserted and/or modified in
// its window: inside a workload, since the system's previous run (its own
// changes in this run included); outside workloads, since the last clear
// ([ViewMut.ClearAllInserted], [ViewMut.ClearAllModified]). Get one from
// [View.Inserted], [View.Modified] or [View.InsertedOrModified] (or the
// [ViewMut] methods), then iterate it, or join it with other views:
//
//	mod, err := life.Modified()
//	if err != nil {
//		return err
//	}
//	for id, l := range mod.WithID() { ... }
//	for l, d := range ecs.Join2(mod, dead).All() { ... }
//
// A Changed made from a ViewMut hands out pointers for writing, and marks
// what it hands out modified, like the ViewMut. It is valid as long as its
// view.
type Changed[T any] struct {
	c     *viewCore[T]
	epoch uint64 // the borrow of c it belongs to (see View.epoch)
	kinds Tracking
	mut   bool
}

func (c Changed[T]) joinView() (*viewCore[T], partKey) {
	return c.c, partKey{mut: c.mut, kinds: c.kinds, epoch: c.epoch}
}

// changedPart is a Changed view as its methods read it: the view's state
// (c.s is the storage) and what to do with its tracking.
type changedPart[T any] struct {
	c  *viewCore[T]
	op opTrack
}

// part reads the view (store panics if it was released) and its window.
func (c Changed[T]) part() changedPart[T] {
	c.c.store(c.epoch)
	return changedPart[T]{c: c.c, op: c.c.trackOp(partKey{mut: c.mut, kinds: c.kinds})}
}

// All iterates over the changed components, in storage order.
func (c Changed[T]) All() iter.Seq[*T] {
	return func(yield func(*T) bool) {
		p := c.part()
		data := p.c.s.data
		p.scan(func(i int) bool { return yield(&data[i]) })
	}
}

// WithID iterates over the changed components with their entities.
func (c Changed[T]) WithID() iter.Seq2[EntityID, *T] {
	return func(yield func(EntityID, *T) bool) {
		p := c.part()
		data, ids := p.c.s.data, p.c.s.dense
		p.scan(func(i int) bool { return yield(ids[i], &data[i]) })
	}
}

// Count returns the number of changed components. It does not mark them.
func (c Changed[T]) Count() int {
	p := c.part()
	p.op.mark = false
	n := 0
	p.scan(func(int) bool {
		n++
		return true
	})
	return n
}

// scan calls visit with the position of every component p's filter admits,
// in storage order, marking it first if p marks, until visit returns
// false. The loops read only the timestamps, so a scan costs little per
// component that did not change.
func (p *changedPart[T]) scan(visit func(int) bool) {
	t, op := p.c.s.track, &p.op
	n := len(p.c.s.data)
	hit := func(i int) bool {
		if op.mark {
			t.mark(i)
		}
		return visit(i)
	}
	switch op.filter {
	case TrackInsertion:
		since := op.ins
		for i, ts := range t.insertedAt[:n] {
			if newer(ts, since) && !hit(i) {
				return
			}
		}
	case TrackModification:
		// A block's summary tells which of its components changed in the
		// window, unless its rest is newer: then read its timestamps.
		since, mod := op.mod, t.modifiedAt[:n]
		for b, sum := range t.modBlock[:blocks(n)] {
			lo := b << 3
			if newer(sum.rest, since) {
				for i := lo; i < min(lo+8, n); i++ {
					if newer(mod[i], since) && !hit(i) {
						return
					}
				}
				continue
			}
			if !newer(sum.max, since) {
				continue
			}
			set := uint(sum.at)
			if n-lo < 8 {
				set &= 1<<(n-lo) - 1
			}
			for ; set != 0; set &= set - 1 {
				if !hit(lo + bits.TrailingZeros(set)) {
					return
				}
			}
		}
	default:
		ins, mod := t.insertedAt[:n], t.modifiedAt[:n]
		for i := range ins {
			if (newer(ins[i], op.ins) || newer(mod[i], op.mod)) && !hit(i) {
				return
			}
		}
	}
}

// Contains reports whether id has a component that changed in the window.
// It does not mark anything.
func (c Changed[T]) Contains(id EntityID) bool {
	p := c.part()
	x := p.c.s.pos(id)
	return x >= 0 && p.c.s.track.admits(&p.op, x)
}

// Inserted returns the view narrowed to the components inserted in its
// window, or a [*TrackingError] if T does not track insertion.
func (v View[T]) Inserted() (Changed[T], error) {
	return v.c.changed(v.epoch, "View", "Inserted", TrackInsertion, false)
}

// Modified returns the view narrowed to the components modified in its
// window, or a [*TrackingError] if T does not track modification.
func (v View[T]) Modified() (Changed[T], error) {
	return v.c.changed(v.epoch, "View", "Modified", TrackModification, false)
}

// InsertedOrModified returns the view narrowed to the components inserted
// or modified in its window, or a [*TrackingError] if T does not track both.
func (v View[T]) InsertedOrModified() (Changed[T], error) {
	return v.c.changed(v.epoch, "View", "InsertedOrModified", TrackInsertion|TrackModification, false)
}

// Inserted is [View.Inserted] through a ViewMut: what it hands out is
// marked modified if T tracks modification.
func (v ViewMut[T]) Inserted() (Changed[T], error) {
	return v.c.changed(v.epoch, "ViewMut", "Inserted", TrackInsertion, true)
}

// Modified is [View.Modified] through a ViewMut: what it hands out is
// marked modified again, with the current timestamp.
func (v ViewMut[T]) Modified() (Changed[T], error) {
	return v.c.changed(v.epoch, "ViewMut", "Modified", TrackModification, true)
}

// InsertedOrModified is [View.InsertedOrModified] through a ViewMut.
func (v ViewMut[T]) InsertedOrModified() (Changed[T], error) {
	return v.c.changed(v.epoch, "ViewMut", "InsertedOrModified", TrackInsertion|TrackModification, true)
}

func (c *viewCore[T]) changed(epoch uint64, view, method string, kinds Tracking, mut bool) (Changed[T], error) {
	s := c.store(epoch)
	if s.track == nil || s.track.kinds&kinds != kinds {
		return Changed[T]{}, s.needs(view+"["+s.name+"]."+method, kinds)
	}
	return Changed[T]{c: c, epoch: epoch, kinds: kinds, mut: mut}, nil
}

// Deleted iterates over the components deleted in the view's window
// (inside a workload: since the system's previous run; outside: since the
// last [ViewMut.ClearAllDeleted]), each with the entity that had it, in
// the order of deletion. The sequence reads the log when it is ranged
// over: after a clear, it yields what the clear kept. Deleting an entity, stripping it, and
// [ViewMut.Clear] delete its components. It returns a [*TrackingError] if T
// does not track deletion.
func (v View[T]) Deleted() (iter.Seq2[EntityID, T], error) { return v.c.deleted(v.epoch, "View") }

// Removed iterates over the entities whose component was removed (taken out
// with Remove) in the view's window, in the order of removal, or returns a
// [*TrackingError] if T does not track removal.
func (v View[T]) Removed() (iter.Seq[EntityID], error) { return v.c.removed(v.epoch, "View") }

// RemovedOrDeleted iterates over the entities whose component was removed
// or deleted in the view's window: removals first, then deletions. It
// returns a [*TrackingError] if T does not track both.
func (v View[T]) RemovedOrDeleted() (iter.Seq[EntityID], error) {
	return v.c.removedOrDeleted(v.epoch, "View")
}

// Deleted is [View.Deleted].
func (v ViewMut[T]) Deleted() (iter.Seq2[EntityID, T], error) { return v.c.deleted(v.epoch, "ViewMut") }

// Removed is [View.Removed].
func (v ViewMut[T]) Removed() (iter.Seq[EntityID], error) { return v.c.removed(v.epoch, "ViewMut") }

// RemovedOrDeleted is [View.RemovedOrDeleted].
func (v ViewMut[T]) RemovedOrDeleted() (iter.Seq[EntityID], error) {
	return v.c.removedOrDeleted(v.epoch, "ViewMut")
}

// logSince returns where the view's window starts for the deletion and
// removal logs, and whether every entry counts (outside workloads).
func (c *viewCore[T]) logSince() (since uint64, all bool) {
	if c.inWorkload {
		return c.last, false
	}
	return 0, true
}

func (c *viewCore[T]) deleted(epoch uint64, view string) (iter.Seq2[EntityID, T], error) {
	s := c.store(epoch)
	if err := s.needs(view+"["+s.name+"].Deleted", TrackDeletion); err != nil {
		return nil, err
	}
	return func(yield func(EntityID, T) bool) {
		since, all := c.logSince()
		log := c.store(epoch).track.deletions // the log as it is now, cleared or not
		for i := range log {
			if d := &log[i]; (all || newer(d.at, since)) && !yield(d.id, d.v) {
				return
			}
		}
	}, nil
}

func (c *viewCore[T]) removed(epoch uint64, view string) (iter.Seq[EntityID], error) {
	s := c.store(epoch)
	if err := s.needs(view+"["+s.name+"].Removed", TrackRemoval); err != nil {
		return nil, err
	}
	return func(yield func(EntityID) bool) {
		since, all := c.logSince()
		log := c.store(epoch).track.removals // the log as it is now, cleared or not
		for _, r := range log {
			if (all || newer(r.at, since)) && !yield(r.id) {
				return
			}
		}
	}, nil
}

func (c *viewCore[T]) removedOrDeleted(epoch uint64, view string) (iter.Seq[EntityID], error) {
	s := c.store(epoch)
	if err := s.needs(view+"["+s.name+"].RemovedOrDeleted", TrackRemoval|TrackDeletion); err != nil {
		return nil, err
	}
	return func(yield func(EntityID) bool) {
		since, all := c.logSince()
		t := c.store(epoch).track
		rem, del := t.removals, t.deletions // the logs as they are now
		for _, r := range rem {
			if (all || newer(r.at, since)) && !yield(r.id) {
				return
			}
		}
		for i := range del {
			if d := &del[i]; (all || newer(d.at, since)) && !yield(d.id) {
				return
			}
		}
	}, nil
}

// Clearing. Inside workloads there is no need to clear insertions and
// modifications: each system sees what changed since its own previous run.
// Outside workloads ([World.Run], [World.Borrow]), views see what changed
// since the last clear; the clears of insertions and modifications move
// only that window, also when a system of a workload calls them (its own
// window and the others' stay as they were). The deletion and removal
// logs keep their entries, in or out of workloads, until cleared: clear
// them (all, or the entries older than a timestamp every interested
// system has passed) to bound their memory. Clearing what T does not
// track does nothing.

// ClearAllInserted starts the window of insertions seen outside workloads
// now: the insertions made so far are no longer reported there.
func (v ViewMut[T]) ClearAllInserted() { v.clearChanges(TrackInsertion) }

// ClearAllModified starts the window of modifications seen outside
// workloads now.
func (v ViewMut[T]) ClearAllModified() { v.clearChanges(TrackModification) }

// ClearAllInsertedAndModified does [ViewMut.ClearAllInserted] and
// [ViewMut.ClearAllModified].
func (v ViewMut[T]) ClearAllInsertedAndModified() {
	v.clearChanges(TrackInsertion | TrackModification)
}

// ClearAllDeleted empties the deletion log.
func (v ViewMut[T]) ClearAllDeleted() { v.clearLogs(TrackDeletion, 0, true) }

// ClearAllRemoved empties the removal log.
func (v ViewMut[T]) ClearAllRemoved() { v.clearLogs(TrackRemoval, 0, true) }

// ClearAllRemovedAndDeleted empties the removal and deletion logs.
func (v ViewMut[T]) ClearAllRemovedAndDeleted() {
	v.clearLogs(TrackRemoval|TrackDeletion, 0, true)
}

// ClearAllDeletedOlderThan drops the deletions made at or before timestamp
// ts, that is, everything deleted before ts was read from
// [World.TrackingTimestamp]; later deletions stay.
func (v ViewMut[T]) ClearAllDeletedOlderThan(ts uint64) { v.clearLogs(TrackDeletion, ts, false) }

// ClearAllRemovedOlderThan drops the removals made at or before timestamp
// ts (see [ViewMut.ClearAllDeletedOlderThan]).
func (v ViewMut[T]) ClearAllRemovedOlderThan(ts uint64) { v.clearLogs(TrackRemoval, ts, false) }

// ClearAllRemovedAndDeletedOlderThan drops the removals and deletions made
// at or before timestamp ts.
func (v ViewMut[T]) ClearAllRemovedAndDeletedOlderThan(ts uint64) {
	v.clearLogs(TrackRemoval|TrackDeletion, ts, false)
}

func (v ViewMut[T]) clearChanges(kinds Tracking) {
	if t := v.store().track; t != nil {
		t.clearChanges(kinds)
	}
}

func (v ViewMut[T]) clearLogs(kinds Tracking, ts uint64, all bool) {
	if t := v.store().track; t != nil {
		t.clearLogs(kinds, ts, all)
	}
}
