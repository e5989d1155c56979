package ecs

import "math"

// bulkable reports whether the storage can take the bulk fast paths: it
// has no tracking logs or group to keep in step.
func (s *sparseSet[T]) bulkable() bool { return s.track == nil && s.pack == nil }

// deleteIDs deletes the components of ids and returns how many there were,
// with the outcome of deleteID for each id in turn (repeats find nothing
// the second time). The fast path frees every position first, then fills
// the freed positions below the new length with the survivors above it:
// one lookup per id, and one move per hole that is not in the part cut
// off. It needs no order among the ids. *freed provides the memory for the
// freed positions. The fast path reads every id before it moves a
// component, so ids may be the storage's own memory (BulkDeleteComponent
// copies them only for the per-element path).
func (s *sparseSet[T]) deleteIDs(ids []EntityID, freed *[]uint32) int {
	if len(s.dense) == 0 || len(ids) == 0 {
		return 0
	}
	if !s.bulkable() {
		n := 0
		for _, id := range ids {
			if s.deleteID(id) {
				n++
			}
		}
		return n
	}
	if len(ids) >= len(s.dense) {
		k := s.zeroIDs(ids)
		s.closeGaps(k)
		return k
	}
	s.cutIdentFor(ids) // the loop below looks the ids up in the pages
	holes := grow((*freed)[:0], min(len(ids), len(s.dense)))
	pages := s.pages
	var page *sparsePage
	cur := ^uint32(0) // the page index of page
	for _, id := range ids {
		if p := uint32(id) >> pageShift; p != cur {
			if p >= uint32(len(pages)) {
				continue
			}
			page, cur = pages[p], p
		}
		if x, ok := vacate(&page[id&pageMask], id); ok {
			holes = append(holes, x)
		}
	}
	*freed = holes
	k := len(holes)
	if k == 0 {
		return 0
	}
	dense, data := s.dense, s.data
	n := len(dense)
	keep := n - k
	if keep > 0 {
		// Mark the holes in the part cut off, so the scan for survivors
		// there can skip them; NullID is never stored (insertions refuse
		// it). Then fill each hole below keep with a survivor from the
		// top: there are exactly as many of those as holes below keep.
		for _, h := range holes {
			if int(h) >= keep {
				dense[h] = NullID
			}
		}
		top := n - 1
		for _, h := range holes {
			if int(h) >= keep {
				continue
			}
			for dense[top] == NullID {
				top--
			}
			s.edited(int(h))
			moved := dense[top]
			dense[h] = moved
			data[h] = data[top]
			pages[moved.Index()>>pageShift][moved.Index()&pageMask] = sparseEntry(moved, int(h))
			top--
		}
	}
	s.cutTo(keep)
	return k
}

// insertMany gives ids[k] the component vals[k], with the outcome of
// insert for each k in turn. It first assumes every id is new here (the
// usual case: new entities, or entities that lack the type), writing the
// sparse entries for positions at the end, then appends all the ids and
// components in two copies, which move memory much faster than a loop
// writing three arrays at once. At the first id that has an entry already
// (a replacement, a repeat, or a dead entity's leftover), it appends what
// it has and hands the rest to bulkInsert.
func (s *sparseSet[T]) insertMany(ids []EntityID, vals []T) {
	vals = vals[:len(ids)]
	if !s.bulkable() {
		s.bulkInsert(ids, vals)
		return
	}
	k := s.newEntries(ids, len(s.dense))
	s.editedMany(len(s.dense), k)
	s.reserve(k)
	s.dense = append(s.dense, ids[:k]...)
	s.data = append(s.data, vals[:k]...)
	if k < len(ids) {
		s.bulkInsert(ids[k:], vals[k:])
	}
}

// insertManyAlone is insertMany for a call that inserts into this storage
// alone (BulkAddEntity1, BulkAddComponent1), which has the worker pool to
// itself. From bulkParallelMin ids, a worker copies the ids and the
// components past the end of the dense arrays while the caller writes the
// sparse entries: the two touch different memory, and take about as long
// as each other. The copies are made for every id and then cut to the ids
// newEntries took, so they need not wait for it.
func (s *sparseSet[T]) insertManyAlone(ids []EntityID, vals []T) {
	if len(ids) < bulkParallelMin || !s.bulkable() {
		s.insertMany(ids, vals)
		return
	}
	vals = vals[:len(ids)]
	k, rest := s.appendAlone(ids, func(tail []T) { copy(tail, vals) })
	if k < len(ids) {
		if s.ptrs {
			clear(rest) // copies past the end hold no references
		}
		s.bulkInsert(ids[k:], vals[k:])
	}
}

// appendAlone is the parallel part of insertManyAlone and zeroManyAlone:
// the caller writes the sparse entries of ids (newEntries) while a worker
// copies the ids past the end of the dense ids and puts their components
// in tail, the data past the end. Both arrays are then cut to the k ids
// newEntries took; rest is the data past the new end that put filled.
func (s *sparseSet[T]) appendAlone(ids []EntityID, put func(tail []T)) (k int, rest []T) {
	base, end := len(s.dense), len(s.dense)+len(ids)
	s.reserve(len(ids))
	dense, data := s.dense[:end], s.data[:end]
	inParallel(2, func(i int) {
		if i == 0 {
			k = s.newEntries(ids, base)
			return
		}
		copy(dense[base:], ids)
		put(data[base:])
	})
	s.dense, s.data = dense[:base+k], data[:base+k]
	s.editedMany(base, k)
	return k, data[base+k:]
}

// newEntries writes the sparse entry of ids[k] for position base+k, for
// each k in turn until an id has an entry already, and returns how many it
// wrote: the ids up to there are new here. The dense arrays are the
// caller's to fill. When the ids continue the identity prefix
// (continueIdent), it writes no entry and extends the prefix over them;
// otherwise the ids get entries, and the prefix is cut where they would
// meet it (cutIdentFor).
//
// Where a page starts with a run of consecutive indices, ascending or
// descending (new entities come that way: fresh slots ascending, recycled
// ones in the reverse order they were freed), newRun writes the run's
// entries in a tighter loop (BenchmarkNewEntries compares it with the
// id-at-a-time loop).
func (s *sparseSet[T]) newEntries(ids []EntityID, base int) (k int) {
	if s.continueIdent(ids) {
		return len(ids)
	}
	s.cutIdentFor(ids) // the loop below looks the ids up in the pages
	var page *sparsePage
	cur := ^uint32(0) // the page index of page
	for ; k < len(ids); k++ {
		id := ids[k]
		if p := uint32(id) >> pageShift; p != cur {
			if page, cur = s.allocated(p), p; page == nil {
				page = s.page(p)
			}
			if k+1 < len(ids) && adjacent(id, ids[k+1]) {
				if j := newRun(page, ids[k:], sparseEntry(id, base+k)); j > 0 {
					k += j - 1
					cur = ^uint32(0) // a run may end mid-page: look again there
					continue
				}
			}
		}
		e := &page[id&pageMask]
		if *e != 0 {
			break
		}
		*e = sparseEntry(id, base+k)
	}
	return k
}

// adjacent reports whether b is a, one index up or one down, with a's
// generation (or, for a at index 0, an id newRun stops at at once).
func adjacent(a, b EntityID) bool { return b-a+1 <= 2 && b != a }

// newRun writes the entries of the run of consecutive ids at the start of
// ids, on page, the page of ids[0]: e0+j for ids[j], where e0 is ids[0]'s
// entry. The run goes the way ids[1] goes from ids[0], and stops at the
// first id out of step, at the page's edge, or before an entry already
// set. It returns its length: 0 when ids[0]'s own entry is set.
//
// zeroRun repeats its bounds of the run, so that each loop keeps them in
// registers: change them together.
func newRun(page *sparsePage, ids []EntityID, e0 uint64) int {
	id := ids[0]
	off := uint32(id) & pageMask
	j := 0
	if ids[1] == id+1 {
		run := ids[:min(len(ids), pageSize-int(off))]
		es := page[off:][:len(run)]
		for j < len(run) && run[j] == id+EntityID(j) && es[j] == 0 {
			es[j] = e0 + uint64(j)
			j++
		}
		return j
	}
	run := ids[:min(len(ids), int(off)+1)]
	for j < len(run) && run[j] == id-EntityID(j) {
		e := &page[(off-uint32(j))&pageMask]
		if *e != 0 {
			break
		}
		*e = e0 + uint64(j)
		j++
	}
	return j
}

// vacate frees *e, the sparse entry at id's index, if it is id's
// (its generation, and a position), and returns the position it held.
func vacate(e *uint64, id EntityID) (uint32, bool) {
	x := (*e ^ uint64(id)&genMask) - 1
	if x >= math.MaxUint32 {
		return 0, false
	}
	*e = 0
	return uint32(x), true
}

// idRun is the ids of a bulk deletion when they form a run: the n ids
// whose bits are base, base+1, …, base+n-1, which are n consecutive
// indices of one generation (runOf). The zero idRun (n zero) is no run,
// and has no id. New entities come in runs: fresh slots ascending, slots
// freed together descending, all of them in one generation. A storage
// frees the components of a run's ids with no look-up per id and without
// reading the ids (vacateRun): they are the entries of the run's indices
// that have its generation, and the part of the identity prefix the run
// covers.
type idRun struct {
	base, n uint64
}

// runOf returns the run ids form, in either direction, or no run (n
// zero): a repeat, a gap, a change of direction or of generation breaks
// it. It stops at the first id out of step, so ids that form no run
// usually cost it a few reads.
func runOf(ids []EntityID) idRun {
	if len(ids) == 0 {
		return idRun{}
	}
	step := runStep(ids)
	want := ids[0]
	for _, id := range ids {
		if id != want {
			return idRun{}
		}
		want += step
	}
	return runFound(ids[0], step, len(ids))
}

// runStep returns what ids[1] adds to ids[0]: 1 or -1 (wrapping) when
// they start a run up or down.
func runStep(ids []EntityID) EntityID {
	if len(ids) < 2 {
		return 1
	}
	return ids[1] - ids[0]
}

// runFound returns the run of n ids that start at first and go on by
// step, which a loop checked them to do: a run when step is 1 or -1 and
// the ids keep one generation (their indices do not wrap around into the
// generation's bits); otherwise no run.
func runFound(first, step EntityID, n int) idRun {
	base := first
	switch {
	case n == 1, step == 1:
	case step == ^EntityID(0): // -1
		base = first - EntityID(n-1)
	default:
		return idRun{}
	}
	if uint64(base.Index())+uint64(n-1) > math.MaxUint32 {
		return idRun{}
	}
	return idRun{base: uint64(base), n: uint64(n)}
}

// vacateRun is zeroIDs for the ids of r: it frees the sparse entries of
// those of them that have a component here and returns how many there
// were, leaving the dense arrays for closeGaps, which finishes the
// deletion (nothing else may touch the storage in between). It reads no
// id: r's components past the identity prefix are the entries of r's
// indices that hold r's generation, which it frees page by page, and
// stops looking once it has found as many as the storage has past the
// prefix; those in the prefix are the positions r's indices cover there,
// if r has the prefix's generation.
//
// When r takes every component (a whole storage), closeGaps(k) cuts the
// arrays to nothing and reads no mark: the storage went in one pass over
// its entries, none over the ids, and in no pass at all when the prefix
// holds every component. Otherwise the positions freed in the prefix get
// zeroIDsIdent's mark (NullID), for closeGaps.
func (s *sparseSet[T]) vacateRun(r idRun) int {
	if r.n == 0 || len(s.dense) == 0 {
		return 0
	}
	gen := r.base & genMask
	lo := uint32(r.base) // r's indices are lo … lo+n-1
	pn := s.pre.n
	// The prefix's positions r covers: from a to b, excluded.
	a, b := uint64(lo), min(uint64(lo)+r.n, pn)
	if gen != s.pre.gen || a >= b {
		a, b = 0, 0
	}
	k := int(b - a)
	if rest := len(s.dense) - int(pn); rest > 0 {
		k += vacateRange(s.pages, gen, lo, lo+uint32(r.n-1), rest)
	}
	if k < len(s.dense) {
		for p := a; p < b; p++ {
			s.dense[p] = NullID
		}
	}
	return k
}

// vacateRange frees the sparse entries of the indices lo … hi that hold
// generation gen (in the high bits, as in an EntityID), on the pages
// allocated, page after page until it has freed limit of them, and
// returns how many it freed. emptyPage is never written: its entries hold
// no generation.
func vacateRange(pages []*sparsePage, gen uint64, lo, hi uint32, limit int) int {
	k := 0
	for p := lo >> pageShift; p <= hi>>pageShift && p < uint32(len(pages)) && k < limit; p++ {
		page := pages[p]
		if page == &emptyPage {
			continue
		}
		first := p << pageShift
		es := page[max(lo, first)-first : min(hi, first+pageMask)-first+1]
		for j, e := range es {
			if (e^gen)-1 < math.MaxUint32 {
				es[j] = 0
				k++
			}
		}
	}
	return k
}

// sweepable reports whether the storage deletes n ids by sweeping
// (zeroIDs, then closeGaps): it takes the fast paths, has components, and
// no more than n.
func (s *sparseSet[T]) sweepable(n int) bool {
	return s.bulkable() && len(s.dense) > 0 && len(s.dense) <= n
}

// zeroIDs frees the sparse entries of those of ids that have a component
// here and returns how many there were. It leaves the dense arrays as
// they are: closeGaps finishes the deletion, and nothing else may touch
// the storage in between.
//
// Where a page starts with a run of consecutive ids, zeroRun frees the
// run's entries in a tighter loop, as newRun writes them.
//
// deleteIDs walks the ids the same way, collecting the positions it
// frees; both free an entry with vacate. They stay two loops: one loop
// with a flag slows the bulk deletes (Delete2Comp/slipway-bulk).
func (s *sparseSet[T]) zeroIDs(ids []EntityID) int {
	if s.pre.n > 0 {
		return s.zeroIDsIdent(ids)
	}
	pages := s.pages
	var page *sparsePage
	cur := ^uint32(0) // the page index of page
	k := 0
	for i := 0; i < len(ids); i++ {
		id := ids[i]
		if p := uint32(id) >> pageShift; p != cur {
			if p >= uint32(len(pages)) {
				continue
			}
			page, cur = pages[p], p
			if i+1 < len(ids) && adjacent(id, ids[i+1]) {
				j, freed := zeroRun(page, ids[i:])
				i += j - 1
				k += freed
				cur = ^uint32(0) // a run may end mid-page: look again there
				continue
			}
		}
		if _, ok := vacate(&page[id&pageMask], id); ok {
			k++
		}
	}
	return k
}

// zeroIDsIdent is zeroIDs for a storage with an identity prefix. A
// component of the prefix has no entry to free: its dense id is set to
// NullID instead (never stored otherwise: insertions refuse it), which
// closeGaps reads as the mark of a freed position.
func (s *sparseSet[T]) zeroIDsIdent(ids []EntityID) int {
	pre, dense, pages := s.pre, s.dense, s.pages
	k := 0
	for _, id := range ids {
		if x := pre.at(id); x < pre.n {
			if dense[x] != NullID {
				dense[x] = NullID
				k++
			}
			continue
		}
		if e := entryIn(pages, id); e != nil {
			*e = 0
			k++
		}
	}
	return k
}

// zeroRun is zeroIDs over the run of consecutive ids at the start of ids,
// on page, the page of ids[0]; the run is as newRun's. It returns the
// run's length (at least 1) and how many entries it freed.
func zeroRun(page *sparsePage, ids []EntityID) (j, freed int) {
	id := ids[0]
	off := uint32(id) & pageMask
	gen := uint64(id) & genMask
	if ids[1] == id+1 {
		run := ids[:min(len(ids), pageSize-int(off))]
		es := page[off:][:len(run)]
		for j < len(run) && run[j] == id+EntityID(j) {
			if (es[j]^gen)-1 < math.MaxUint32 {
				es[j] = 0
				freed++
			}
			j++
		}
		return j, freed
	}
	run := ids[:min(len(ids), int(off)+1)]
	for j < len(run) && run[j] == id-EntityID(j) {
		if e := &page[(off-uint32(j))&pageMask]; (*e^gen)-1 < math.MaxUint32 {
			*e = 0
			freed++
		}
		j++
	}
	return j, freed
}

// closeGaps removes the k components whose entries zeroIDs freed: when
// components remain, it moves them down over the freed positions in one
// pass over the storage, keeping their order. Sweeping is for deleting at
// least as many ids as the storage holds, so the pass is no longer than
// the ids.
func (s *sparseSet[T]) closeGaps(k int) {
	if k == 0 {
		return
	}
	dense, data := s.dense, s.data
	n := len(dense)
	s.editedMany(0, n) // the survivors move down, in order: count them all
	keep := 0
	if k < n {
		// In the identity prefix, a component stays when its dense id is
		// not NullID (zeroIDsIdent): those before the first freed
		// position stay where they are, in the prefix; the next ones
		// move down, out of it, and get entries.
		pn := int(s.pre.n)
		for keep < pn && dense[keep] != NullID {
			keep++
		}
		s.pre.n = uint64(keep)
		for p := keep; p < pn; p++ {
			if id := dense[p]; id != NullID {
				dense[keep] = id
				data[keep] = data[p]
				*s.newEntry(id) = sparseEntry(id, keep)
				keep++
			}
		}
		// Past the prefix, a component stays when its entity's entry is
		// still set (the entry of dense[p] belongs to dense[p]: a storage
		// holds one component per index).
		pages := s.pages
		for p := pn; p < n; p++ {
			id := dense[p]
			e := &pages[id.Index()>>pageShift][id.Index()&pageMask]
			if *e == 0 {
				continue
			}
			if keep != p {
				dense[keep] = id
				data[keep] = data[p]
				*e = sparseEntry(id, keep)
			}
			keep++
		}
	}
	s.cutTo(keep)
}
