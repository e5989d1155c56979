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
// of its type is added or removed, as a pointer from [ViewMut.Get] is; it
// may be kept past the loop that handed it out. A write through a Ref
// kept past its view's release, or past a [ViewMut.SortFunc],
// [SortByKey] or [ViewMut.Retain] of its storage (which move components,
// so that the Ref would name another), panics with an error wrapping
// [ErrReleased] and writes nothing. Its zero value refers to nothing:
// every method panics with a nil dereference.
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

// errRefStale is the panic value of a write through a Ref kept past its
// view's release, or past a sort or Retain of its storage (which move
// components, so that the Ref no longer names the component it did).
var errRefStale error = staleRef{}

type staleRef struct{}

func (staleRef) Error() string {
	return "ecs: a Ref written after its view was released, or after its storage was sorted (SortFunc, SortByKey) or retained (Retain): take new ones from Refs or ParRefs"
}

func (staleRef) Unwrap() error { return ErrReleased }

// markRef is mark for a Ref: the storage tracks modification, and
// prepareRefs readied its summaries for t.now, the timestamp of the
// ViewMut holding it, the newest the storage has seen. The write then
// sets the timestamp and its bit in the block's summary, and nothing
// else, so that Set and Ptr inline into the loop's body. A Ref whose
// storage is no longer ready for it panics rather than record a change
// no borrow made, or leave a summary false: the release clears t.now,
// a sort or Retain clears refNow, and a later borrow has another now.
func (t *stamps) markRef(i int) {
	now := t.now
	if now != t.refNow || now == 0 {
		panic(errRefStale)
	}
	t.modifiedAt[i] = now
	t.modBlock[i>>3].at |= 1 << (i & 7)
}

// prepareRefs readies the summaries of the first n timestamps for the
// Refs that Refs and ParRefs hand out: the max of every block becomes
// t.now with no bit of at set (the timestamps it summarised before stay
// covered by rest, which retire raises), which is true of the block
// whatever its Refs write. It costs a pass over the summaries, an eighth
// of the components, and makes scans of the blocks no Ref writes read
// their timestamps when the window reaches back before the Refs.
func (t *stamps) prepareRefs(n int) {
	now := t.now
	for k := range t.modBlock[:blocks(n)] {
		b := &t.modBlock[k]
		if b.max != now {
			b.retire()
			b.max, b.at = now, 0
		}
	}
	t.refNow = now
}

// setNow moves the timestamp of the ViewMut holding the storage to ts, a
// newer one, and readies the summaries for the Refs handed out under
// the old one.
func (t *stamps) setNow(ts uint64) {
	t.now = ts
	if t.refNow != 0 {
		t.prepareRefs(len(t.modifiedAt))
	}
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
//
// When T tracks modification, a range over Refs first readies the
// storage's block summaries (a pass over an eighth of the components), so
// that a write through a Ref costs a timestamp and a bit.
func (v ViewMut[T]) Refs() iter.Seq2[EntityID, Ref[T]] {
	c, epoch := v.c, v.epoch
	return func(yield func(EntityID, Ref[T]) bool) {
		s := c.store(epoch)
		data, ids, t := s.data, s.dense[:len(s.data)], modStamps(s)
		if t != nil {
			t.prepareRefs(len(data))
		}
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
	if t != nil {
		t.prepareRefs(n)
	}
	v.c.w.Pool().parallelFor(blocks(n), max(1, (grain+7)>>3), func(start, end int) {
		for i := start << 3; i < min(end<<3, n); i++ {
			fn(ids[i], Ref[T]{p: &data[i], t: t, i: i})
		}
	})
}
