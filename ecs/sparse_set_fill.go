package ecs

// The sparse set's in-place bulk insertion: a zero component for each of
// many ids, which the caller then fills through pointers into the
// storage (BulkNewEntity1 … BulkNewEntity8 and BulkFillComponent1 …
// BulkFillComponent8: world_gen.go and fill.go). It is insertMany with
// the copy of the components replaced by a clear of the grown array.

// zeroMany gives each of ids a zero component, with the outcome of
// insert(id, zero) for each id in turn: a new component for an id that
// has none here, a zeroed one for an id that has one (a replacement, or a
// repeat), a dead entity's leftover taken over. It first assumes every id
// is new here, as insertMany does: when run says that ids are
// consecutive indices of one generation (consecutive, checked once by the
// caller for all its storages) and they continue the identity prefix,
// the prefix grows over them with no loop; otherwise newEntries writes
// the sparse entries of positions at the end (or finds that the ids
// continue the prefix). The caller checks the ids only when one of its
// storages could continue its prefix with them. Then the ids are appended in one copy and the new
// components cleared in one pass: no loop writes three arrays at once. At
// the first id that has an entry already, the rest go one by one
// (zeroEach). Storages that track changes or belong to a group take
// insert for every id, which keeps their bookkeeping in step.
func (s *sparseSet[T]) zeroMany(ids []EntityID, run bool) {
	if !s.bulkable() {
		s.zeroEach(ids)
		return
	}
	k := len(ids)
	if !s.growIdent(ids, run) {
		k = s.newEntries(ids, len(s.dense))
	}
	s.appendZero(ids[:k])
	if k < len(ids) {
		s.zeroEach(ids[k:])
	}
}

// growIdent extends the identity prefix over ids and reports true if run
// says they are consecutive indices of one generation and the first
// continues the prefix (so do the others then: continueIdent's outcome,
// without its loop); otherwise it changes nothing.
func (s *sparseSet[T]) growIdent(ids []EntityID, run bool) bool {
	if !run || len(ids) == 0 || !s.continuesIdent(ids[0]) {
		return false
	}
	s.pre.n += uint64(len(ids))
	s.pre.gen = uint64(ids[0]) & genMask
	return true
}

// consecutive reports whether ids are consecutive indices of one
// generation, ascending: what continueIdent checks after its first id.
func consecutive(ids []EntityID) bool {
	if len(ids) == 0 {
		return false
	}
	first := ids[0]
	for k, id := range ids {
		if id != first+EntityID(k) {
			return false
		}
	}
	return true
}

// appendZero appends ids to the dense ids with zero components, once
// their sparse entries are written (or the identity prefix extended over
// them).
func (s *sparseSet[T]) appendZero(ids []EntityID) {
	n := len(s.dense)
	s.editedMany(n, len(ids))
	s.reserve(len(ids))
	s.dense = append(s.dense, ids...)
	s.data = s.data[:n+len(ids)]
	clear(s.data[n:])
}

// zeroEach gives each of ids a zero component, one at a time: in a
// storage on the fast paths, a component the id has already is zeroed
// where it is (what insert does for a replacement, which such a storage
// does not log); everything else goes through insert.
func (s *sparseSet[T]) zeroEach(ids []EntityID) {
	var zero T
	fast := s.bulkable()
	for _, id := range ids {
		if fast {
			if x := s.slot(id); x < uint64(len(s.data)) {
				s.data[x] = zero
				continue
			}
		}
		s.insert(id, zero)
	}
}

// zeroManyAlone is zeroMany for a call that inserts into this storage
// alone (BulkNewEntity1, BulkFillComponent1), which has the worker pool
// to itself: from bulkParallelMin ids, a worker copies the ids past the
// end of the dense ids and clears the components there while the caller
// writes the sparse entries, as insertManyAlone does. The copy is made
// for every id and then cut to the ids newEntries took.
func (s *sparseSet[T]) zeroManyAlone(ids []EntityID, run bool) {
	if len(ids) < bulkParallelMin || !s.bulkable() || run && s.continuesIdent(ids[0]) {
		s.zeroMany(ids, run) // no entries to write, or no fast path
		return
	}
	k, _ := s.appendAlone(ids, func(tail []T) { clear(tail) })
	if k < len(ids) {
		s.zeroEach(ids[k:])
	}
}

// spanOf returns the components of the n ids a bulk call gave this
// storage, ids[j]'s at j, when they are in one span from position base
// (the storage's length before the call), or nil when they are not: the
// caller then looks each up (fillAt). Call it once every insertion of the
// call is done. Outside a group nothing moves a component while
// components are inserted, and each id either appends its component at
// the end or finds one in place (a replacement, a repeat, a leftover
// taken over), so the storage grew by n exactly when every id appended
// its component, in order. A type given twice is one storage, whose
// second pass appends nothing.
func (s *sparseSet[T]) spanOf(base, n int) []T {
	if n == 0 || s.pack != nil || len(s.data) != base+n {
		return nil
	}
	return s.data[base : base+n : base+n]
}

// fillAt returns a pointer to the component of id, the j-th id of a bulk
// call whose components are d, spanOf's result: &d[j] when they are in a
// span, otherwise the component found by id.
func (s *sparseSet[T]) fillAt(d []T, j int, id EntityID) *T {
	if d != nil {
		return &d[j]
	}
	return s.get(id)
}
