package ecs

import "iter"

// Reads through a ViewMut that record nothing, and handles that mark only
// what is written: the Go form of Shipyard's rule that a component is
// modified when it is written, not when it is read (issue 53, item 7).
//
// A pointer from [ViewMut.Get] or [ViewMut.All] can be written through at
// any time, and Go cannot see the write, so handing one out marks the
// component modified. A system that reads every component and writes some
// of them (filter by reading, write the kept ones) would then report every
// component as modified. [ViewMut.Read] and [ViewMut.Values] hand out
// copies, which mark nothing; [ViewMut.Refs] and [ViewMut.ParRefs] hand out
// a [Ref] per component, whose Get marks nothing and whose Set and Ptr
// mark the component they write.

// Ref is a handle to one component of a [ViewMut], handed out by
// [ViewMut.Refs] and [ViewMut.ParRefs]: reading through it records
// nothing, writing through it marks the component modified when its type
// tracks modification ([TrackModification]). Use it in a loop that reads
// every component and writes a few, so that only those few are reported
// by [ViewMut.Modified] and its siblings.
//
// A Ref is valid while the view it came from is borrowed and no component
// of its type is added or removed, as a pointer from [ViewMut.Get] is.
// Its zero value refers to nothing: every method panics with a nil
// dereference.
type Ref[T any] struct {
	p *T
	t *stamps // the storage's timestamps when it tracks modification, else nil
	i int     // the component's position in the storage
}

// Get returns a copy of the component. It records nothing.
func (r Ref[T]) Get() T { return *r.p }

// Set replaces the component with v, and marks it modified if its type
// tracks modification.
func (r Ref[T]) Set(v T) {
	if r.t != nil {
		r.mark() // first: a Ref kept past its view's release panics, writing nothing
	}
	*r.p = v
}

// Ptr returns a pointer to the component, to change it in place, and marks
// it modified if its type tracks modification: the pointer can be written
// through, as [ViewMut.Get]'s can. The pointer is valid as long as the
// Ref.
func (r Ref[T]) Ptr() *T {
	if r.t != nil {
		r.mark()
	}
	return r.p
}

// mark marks the component modified with the timestamp of the ViewMut
// holding the storage (see stamps.markRef).
func (r Ref[T]) mark() { r.t.markRef(r.i) }

// errRefReleased is the panic value of a write through a Ref kept past
// its view's release.
var errRefReleased error = released{"a Ref"}

// markRef is mark for a Ref: the storage tracks modification, and t.now
// is the timestamp of the ViewMut holding it, the newest the storage has
// seen. A Ref kept past its view's release finds no such timestamp (the
// release clears it) and panics rather than record a change no borrow
// made. The common case, a block already marked at now, stays small
// enough to inline into the loop's body.
func (t *stamps) markRef(i int) {
	now := t.now
	if now == 0 {
		panic(errRefReleased)
	}
	t.modifiedAt[i] = now
	b := &t.modBlock[i>>3]
	if b.max != now {
		b.restart(now)
	}
	b.at |= 1 << (i & 7)
}

// restart makes now, newer than every timestamp of the block, its max.
//
//go:noinline
func (b *modSummary) restart(now uint64) {
	b.retire()
	b.max, b.at = now, 0
}

// modStamps returns the timestamps a Ref of s marks, or nil if s does not
// track modification.
func modStamps[T any](s *sparseSet[T]) *stamps {
	if t := s.track; t != nil && t.kinds&TrackModification != 0 {
		return &t.stamps
	}
	return nil
}

// Read returns a copy of id's component, and false if id has none (or is
// not alive). Unlike [ViewMut.Get], it marks nothing: a copy cannot be
// written back unnoticed.
func (v ViewMut[T]) Read(id EntityID) (T, bool) {
	s := v.store()
	x := s.slot(id)
	if x >= uint64(len(s.data)) {
		var zero T
		return zero, false
	}
	return s.data[x], true
}

// Values iterates over every component, as a copy, with the id of its
// entity, in storage order. Unlike [ViewMut.WithID], it marks nothing.
// Do not add or remove components of type T while iterating. Range over
// it while the view is borrowed: ranging it after the release panics.
func (v ViewMut[T]) Values() iter.Seq2[EntityID, T] {
	c, epoch := v.c, v.epoch
	return func(yield func(EntityID, T) bool) {
		s := c.store(epoch)
		data, ids := s.data, s.dense[:len(s.data)]
		for i := range data {
			if !yield(ids[i], data[i]) {
				return
			}
		}
	}
}

// Refs iterates over every component, in storage order, as a [Ref] with
// the id of its entity: the loop reads through [Ref.Get], which marks
// nothing, and writes through [Ref.Set] or [Ref.Ptr], which mark the
// component written. Do not add or remove components of type T while
// iterating. Range over it while the view is borrowed: ranging it after
// the release panics.
func (v ViewMut[T]) Refs() iter.Seq2[EntityID, Ref[T]] {
	c, epoch := v.c, v.epoch
	return func(yield func(EntityID, Ref[T]) bool) {
		s := c.store(epoch)
		data, ids, t := s.data, s.dense[:len(s.data)], modStamps(s)
		for i := range data {
			if !yield(ids[i], Ref[T]{p: &data[i], t: t, i: i}) {
				return
			}
		}
	}
}

// ParRefs calls fn with every component as a [Ref], with the id of its
// entity, splitting the storage across the world's worker pool as
// [ViewMut.ParEach] does; only the components fn writes through a Ref are
// marked modified. fn runs on several goroutines at once, each with
// different components. Storages smaller than 2×[ParallelMin] are
// iterated on the caller. A panic in fn reaches the caller once the
// other goroutines are done. Panics if fn is nil.
func (v ViewMut[T]) ParRefs(fn func(EntityID, Ref[T])) { v.ParRefsMin(ParallelMin, fn) }

// ParRefsMin is [ViewMut.ParRefs] with chunks of at least grain components
// (and no parallelism below 2×grain).
//
// The chunks are whole blocks of eight components: the modification
// timestamps of a block share one summary (see modSummary), which a mark
// updates, so a block is never split between goroutines.
func (v ViewMut[T]) ParRefsMin(grain int, fn func(EntityID, Ref[T])) {
	if fn == nil {
		panic(errNilFunc("ViewMut.ParRefs"))
	}
	s := v.store()
	data, ids, t := s.data, s.dense[:len(s.data)], modStamps(s)
	n := len(data)
	v.c.w.Pool().parallelFor(blocks(n), max(1, (grain+7)>>3), func(start, end int) {
		for i := start << 3; i < min(end<<3, n); i++ {
			fn(ids[i], Ref[T]{p: &data[i], t: t, i: i})
		}
	})
}
