package ecs

import (
	"math"
	"reflect"
	"strconv"
	"sync/atomic"
)

// Bulk operations: many entities per call. Each has the outcome of the
// one-entity call applied to every id in turn (tested against it), but
// borrows once, looks every storage up once, checks every id before
// changing anything, and works through each storage in one pass with no
// call per entity. BulkAddEntity1 … BulkAddEntity8 and BulkAddComponent1 …
// BulkAddComponent8 are generated (world_gen.go); the rest is here.
//
// Storages that track changes (or belong to a group) go through their
// per-element methods, which keep the tracking logs (and the group) in
// step; only the storages that need no bookkeeping take the fast paths.
//
// With at least bulkParallelMin ids, an operation over several such
// storages works on them at once, one storage per goroutine of the worker
// pool (the caller included): their passes are independent, and two cores
// move more memory than one. An insertion into one such storage splits its
// pass in two instead (insertManyAlone). The liveness check of the ids,
// which only reads, is split over the pool too, and so are the killing of
// the entities that DeleteEntities deletes (killAllSplit) and the revival
// of free slots for the entities BulkAddEntity creates (createMany).

// BulkError reports the id a bulk operation refused, with its position in
// the ids given. Err says what is wrong with it: an [*EntityError] (so
// errors.Is(err, ErrDeadEntity) holds for a dead id). A bulk operation that
// returns an error has changed nothing.
type BulkError struct {
	Op    string // the operation, e.g. "DeleteEntities"
	Index int    // the position of the refused id in the ids given
	Err   error  // what is wrong with it
}

func (e *BulkError) Error() string {
	msg := "ecs: " + e.Op + ": ids[" + strconv.Itoa(e.Index) + "]: "
	if ee, ok := e.Err.(*EntityError); ok {
		return msg + ee.ID.String() + " " + notAlive
	}
	return msg + e.Err.Error()
}

// Unwrap returns Err.
func (e *BulkError) Unwrap() error { return e.Err }

// bulkScratch is memory the bulk operations reuse from call to call, so
// that they allocate nothing in steady state. It is only touched under the
// world's exclusive all-storages borrow.
type bulkScratch struct {
	pos   []uint32   // dense positions freed in one storage
	ids   []EntityID // ids to work on, copied out of a storage (DeleteAny) or the caller's slice (ownIDs)
	sweep []sweeper  // the storages sweeping (deleteComponents)
	// doomed are entities deleted through an AllStoragesViewMut whose
	// components are still in place (see World.deleteLater).
	doomed []EntityID
}

// DeleteEntities deletes each of ids with all its components: the result
// of calling [DeleteEntity] for each in turn, in one pass per storage. It
// is the bulk form for deleting many entities at once.
//
// Every id must be alive: otherwise DeleteEntities returns a [*BulkError]
// naming the first id that is not and its position in ids (it wraps an
// [*EntityError], so errors.Is(err, ErrDeadEntity) holds), and deletes
// nothing. An id given more than once is deleted once. ids may be a
// storage's memory (a View's [View.IDs], kept after the View's release):
// DeleteEntities then reads them from a copy, so the storages it changes
// do not change which entities it deletes. Through a [*World] it borrows
// all storages for the call, and fails with a [*BorrowError] when
// something is borrowed elsewhere.
//
// The components that remain may sit in another storage order than
// one-by-one deletion would leave them in; iteration order is unspecified
// either way. With 65,536 ids or more, the caller and a worker of the pool
// each kill the entities of about half the ids, then the storages that
// hold no more components than there are ids (when deleting most
// entities, all of them) are cleared of the ids' components at once on the
// worker pool, one storage per goroutine, the caller's included.
//
// Inside [Each1] … [Each8] through an [AllStoragesViewMut], it deletes as
// [AllStoragesViewMut.DeleteEntity] does there: the entities are dead at
// once, their components stay in place until the Each returns.
func DeleteEntities(s Storages, ids ...EntityID) error {
	w, locked, err := beginWrite(s)
	if err != nil {
		return err
	}
	defer endWrite(w, locked)
	if w.eaching != 0 { // inside an Each through an AllStoragesViewMut
		return w.deleteManyLater(ids)
	}
	if w.inStorage(ids) {
		ids = w.ownIDs(ids)
	}
	if w.ents.killAll(ids) {
		w.deleteComponents(ids)
		return nil
	}
	// An id is dead, or repeated: which?
	if err := w.ents.checkAlive("DeleteEntities", ids); err != nil {
		return err
	}
	w.deleteMany(ids)
	return nil
}

// DeleteEntities deletes each of ids with all its components, all or
// nothing: see [DeleteEntities].
func (w *World) DeleteEntities(ids ...EntityID) error { return DeleteEntities(w, ids...) }

// DeleteEntities deletes each of ids with all its components, all or
// nothing: see [DeleteEntities].
func (v AllStoragesViewMut) DeleteEntities(ids ...EntityID) error { return DeleteEntities(v, ids...) }

// BulkDeleteComponent deletes the component of type T of each of ids and
// returns how many there were: the result of calling [DeleteComponent] for
// each id in turn, in one pass over the storage. Ids without a T are
// skipped, and an id given more than once counts once.
//
// Every id must be alive: otherwise it returns a [*BulkError] naming the
// first id that is not and its position in ids (it wraps an
// [*EntityError]), and deletes nothing. The components that remain may sit
// in another storage order than one-by-one deletion would leave them in.
// ids may be a storage's memory (a View's [View.IDs], kept after the
// View's release): it then reads them from a copy, so the deletions do not
// change which components it deletes.
func BulkDeleteComponent[T any](s Storages, ids ...EntityID) (int, error) {
	w, locked, err := beginWrite(s)
	if err != nil {
		return 0, err
	}
	defer endWrite(w, locked)
	if err := w.ents.checkAlive("BulkDeleteComponent", ids); err != nil {
		return 0, err
	}
	st := storageFor[T](w)
	if w.eaching != 0 {
		if err := refuseRemove("BulkDeleteComponent", st, ids...); err != nil {
			return 0, err
		}
	}
	if !st.bulkable() && w.inStorage(ids) {
		// The per-element path reads each id after deleting the one
		// before, which may move others (a group's swaps) in the
		// storage's memory, which ids may be. The fast path reads every
		// id before it moves a component (deleteIDs).
		ids = w.ownIDs(ids)
	}
	return st.deleteIDs(ids, &w.scratch), nil
}

// ownIDs copies ids, given by the caller of a bulk operation, into the
// world's scratch memory and returns the copy, for the operation to read
// while it changes the storages: ids may be the memory of a storage (a
// View's IDs, kept after the View was released), which a change of that
// storage rewrites under the reads that follow. The copy is the caller's
// until it returns (the operations run under the exclusive all-storages
// borrow).
func (w *World) ownIDs(ids []EntityID) []EntityID {
	c := append(w.scratch.ids[:0], ids...)
	w.scratch.ids = c[:0]
	return c
}

// inStorage reports whether ids start inside the components of one of
// w's storages, which is what a deletion (DeleteEntities,
// BulkDeleteComponent) must copy them out of (ownIDs) before it changes
// anything: deletions write a storage's dense array only below its
// length, and ids that overlap that part start in it. They cannot start
// before it: a dense array starts its allocation (it is only ever
// allocated, grown into a new one or cut at the end). And an id at
// position p there is the entity whose component is at p, so looking
// ids[0] up in each storage finds its position if anywhere. Insertions
// also write past the length, where nothing tells an id's position:
// they always copy.
func (w *World) inStorage(ids []EntityID) bool {
	if len(ids) == 0 {
		return false
	}
	id := ids[0]
	for _, st := range w.comps.all() {
		var p int
		if pre := st.identRef(); uint64(id)-pre.gen < pre.n {
			p = int(uint64(id) - pre.gen)
		} else {
			p = posIn(*st.pagesRef(), id)
		}
		if d := st.ids(); p >= 0 && p < len(d) && &d[p] == &ids[0] {
			return true
		}
	}
	return false
}

// deleteMany deletes ids (alive, or dead leftovers whose components are to
// go) from every storage, then kills the live ones, and returns how many
// it killed. It is a no-op for ids that are neither.
func (w *World) deleteMany(ids []EntityID) int {
	w.deleteComponents(ids)
	return w.ents.deleteMany(ids)
}

// bulkParallelMin is the number of ids from which a bulk operation works
// on several storages at once (see bulkParallel). Below it, a pass over a
// storage is too short to pay for waking a worker (measured with the
// Create and Delete benchmarks of bench/: see docs/benchmarks.md). It is a
// variable so that tests can reach the parallel paths with small worlds.
var bulkParallelMin = 1 << 16

// bulkParallel reports whether a bulk operation over n ids should work on
// the storages sts at once: there are at least bulkParallelMin ids, two
// storages or more, all distinct (a type given twice is one storage, which
// its two passes must take in turn), and all take the fast paths (tracking
// logs and groups are shared with other storages or the world).
func bulkParallel(n int, sts ...storage) bool {
	if n < bulkParallelMin || len(sts) < 2 {
		return false
	}
	for i, st := range sts {
		if !st.bulkable() {
			return false
		}
		for _, other := range sts[:i] {
			if other == st {
				return false
			}
		}
	}
	return true
}

// inParallel calls task(0) … task(n-1) at once on the worker pool and the
// calling goroutine, and returns when all have returned.
func inParallel(n int, task func(i int)) {
	parallelFor(n, 1, func(start, end int) {
		for i := start; i < end; i++ {
			task(i)
		}
	})
}

// sweepChunk is how many ids deleteComponents hands each sweeping storage
// at a time: few enough to stay in the first-level cache while every
// storage reads them.
const sweepChunk = 1024

// deleteComponents deletes the components of ids from every storage.
//
// The storages that hold no more components than there are ids (when
// deleting many entities, usually all of them) sweep: they go through the
// ids chunk by chunk, each storage freeing the entries of a chunk in turn
// while the chunk is in cache, so the ids are read from memory once, not
// once per storage; then each closes its gaps. The others delete the ids
// one storage after the other (deleteIDs).
func (w *World) deleteComponents(ids []EntityID) {
	if len(ids) == 0 {
		return
	}
	sw := w.scratch.sweep[:0]
	for _, st := range w.comps.all() {
		if st.sweepable(len(ids)) {
			sw = append(sw, sweeper{st: st})
		} else {
			st.deleteIDs(ids, &w.scratch)
		}
	}
	switch {
	case len(sw) == 0:
	case len(sw) > 1 && len(ids) >= bulkParallelMin:
		// Each storage sweeps all the ids on its own goroutine, and
		// closes its gaps there too.
		inParallel(len(sw), func(j int) {
			sw[j].st.closeGaps(sw[j].st.zeroIDs(ids))
		})
		w.scratch.sweep = sw[:0]
		return
	case len(sw) == 1:
		sw[0].k = sw[0].st.zeroIDs(ids)
	default:
		for lo := 0; lo < len(ids); lo += sweepChunk {
			chunk := ids[lo:min(lo+sweepChunk, len(ids))]
			for j := range sw {
				sw[j].k += sw[j].st.zeroIDs(chunk)
			}
		}
	}
	for _, x := range sw {
		x.st.closeGaps(x.k)
	}
	w.scratch.sweep = sw[:0]
}

// sweeper is a storage sweeping ids, and how many it freed so far.
type sweeper struct {
	st storage
	k  int
}

// killAll kills every id of ids, as delete does for each in turn, if they
// are all alive and distinct, and reports whether they were. If they are
// not, it changes nothing. Checking and killing in the same pass reads
// the ids and the entities storage once. From bulkParallelMin ids the
// pass is split (killAllSplit).
func (e *entities) killAll(ids []EntityID) bool {
	if len(ids) >= bulkParallelMin {
		return e.killAllSplit(ids)
	}
	free := grow(e.free, len(ids))
	slots := e.slots
	for k, id := range ids {
		i, g := id.Index(), id.Generation()
		if uint(i) >= uint(len(slots)) || !aliveAs(slots[i], g) {
			// Undo: the ids before k were alive and distinct.
			e.reviveIn(ids[:k], 0, math.MaxUint32+1)
			e.free = free[:len(e.free)]
			return false
		}
		if g < maxGeneration {
			slots[i] = g + 1
			free = append(free, i)
		} else {
			slots[i] = g // retired
		}
	}
	e.free = free
	e.live -= len(ids)
	return true
}

// killAllSplit is killAll shared with a worker of the pool: the caller
// kills the ids whose index is below a middle index, the worker the
// others, up to the largest index an id can have (NullID's, which no
// entity has: it fails there as a dead id, like any index past the
// slots). Both read all the ids, but each writes only its own entities,
// and the index of ids[k] goes to position k of the free list's new part,
// where killAll would append it. An id given twice is on the same side
// both times, so the side that meets it again finds it dead. An id that
// reaches the last generation is retired, not freed, which would shift
// the free list: it fails the split pass too, and killAll's caller falls
// back to the one-by-one order. A side that fails brings its entities
// back to life; if the other succeeded, it is undone here.
func (e *entities) killAllSplit(ids []EntityID) bool {
	base := len(e.free)
	free := grow(e.free, len(ids))[:base+len(ids)]
	// Side j kills the ids whose index is in [bounds[j], bounds[j+1]):
	// every index, math.MaxUint32 included, is on one side.
	bounds := [3]uint64{0, uint64(middleIndex(ids)), math.MaxUint32 + 1}
	var ok [2]bool
	inParallel(2, func(j int) {
		ok[j] = e.killIn(ids, free[base:], bounds[j], bounds[j+1])
	})
	if ok[0] && ok[1] {
		e.free = free
		e.live -= len(ids)
		return true
	}
	for j, done := range ok {
		if done {
			e.reviveIn(ids, bounds[j], bounds[j+1])
		}
	}
	return false
}

// killIn kills the ids of ids whose index is in [lo, hi), writing the
// index of ids[k] to out[k], and reports whether they were all alive,
// distinct and short of the last generation. If not, it brings back those
// it killed and returns false.
func (e *entities) killIn(ids []EntityID, out []uint32, lo, hi uint64) bool {
	slots := e.slots
	for k, id := range ids {
		i := id.Index()
		if uint64(i) < lo || uint64(i) >= hi {
			continue
		}
		g := id.Generation()
		if uint(i) >= uint(len(slots)) || !aliveAs(slots[i], g) || g >= maxGeneration {
			e.reviveIn(ids[:k], lo, hi)
			return false
		}
		slots[i] = g + 1
		out[k] = i
	}
	return true
}

// reviveIn brings back to life the entities of ids whose index is in
// [lo, hi), which a kill of all of them (killIn, or killAll's loop) took
// from alive and distinct ids.
func (e *entities) reviveIn(ids []EntityID, lo, hi uint64) {
	for _, id := range ids {
		if i := id.Index(); uint64(i) >= lo && uint64(i) < hi {
			e.slots[i] = id.Generation() | aliveBit
		}
	}
}

// middleIndex returns an entity index that splits ids into two parts of
// about the same size: the median of the indices of the ids a quarter,
// half and three quarters of the way through. For ids in index order
// (either way round, as bulk creation hands them out) it is the middle
// id's index.
func middleIndex(ids []EntityID) uint32 {
	n := len(ids)
	a, b, c := ids[n/4].Index(), ids[n/2].Index(), ids[3*n/4].Index()
	if a > b {
		a, b = b, a
	}
	return max(a, min(b, c)) // the median of a ≤ b and c
}

// checkAlive returns a *BulkError for op naming the first of ids that is
// not alive, or nil. From bulkParallelMin ids, it reads them on the worker
// pool too: the check only reads, and two cores read memory faster than
// one.
func (e *entities) checkAlive(op string, ids []EntityID) error {
	var k int
	if len(ids) >= bulkParallelMin {
		k = e.firstDeadParallel(ids)
	} else {
		k = e.firstDead(ids)
	}
	if k < 0 {
		return nil
	}
	return &BulkError{Op: op, Index: k, Err: &EntityError{Op: op, ID: ids[k]}}
}

// firstDead returns the position of the first of ids that is not alive,
// or -1.
func (e *entities) firstDead(ids []EntityID) int {
	slots := e.slots
	for k, id := range ids {
		i := id.Index()
		if uint(i) >= uint(len(slots)) || !aliveAs(slots[i], id.Generation()) {
			return k
		}
	}
	return -1
}

// firstDeadParallel is firstDead with the ids split into chunks that the
// caller and the worker pool check at once; the first dead id of any chunk
// lowers the answer to its position.
func (e *entities) firstDeadParallel(ids []EntityID) int {
	var first atomic.Int64
	first.Store(math.MaxInt64)
	parallelFor(len(ids), bulkParallelMin/2, func(start, end int) {
		k := e.firstDead(ids[start:end])
		if k < 0 {
			return
		}
		at := int64(start + k)
		for old := first.Load(); at < old && !first.CompareAndSwap(old, at); old = first.Load() {
		}
	})
	if k := first.Load(); k != math.MaxInt64 {
		return int(k)
	}
	return -1
}

// deleteMany kills the live ones of ids, in order, as delete does for
// each, and returns how many it killed. Dead ids (repeats included) are
// skipped.
func (e *entities) deleteMany(ids []EntityID) int {
	free := grow(e.free, len(ids))
	slots := e.slots
	n := 0
	for _, id := range ids {
		i := id.Index()
		g := id.Generation()
		if uint(i) >= uint(len(slots)) || !aliveAs(slots[i], g) {
			continue
		}
		n++
		if g < maxGeneration {
			slots[i] = g + 1
			free = append(free, i)
		} else {
			slots[i] = g // retired
		}
	}
	e.free = free
	e.live -= n
	return n
}

// bulkable reports whether the storage can take the bulk fast paths: it
// has no tracking logs or group to keep in step.
func (s *sparseSet[T]) bulkable() bool { return s.track == nil && s.group == nil }

// deleteIDs deletes the components of ids and returns how many there were,
// with the outcome of deleteID for each id in turn (repeats find nothing
// the second time). The fast path frees every position first, then fills
// the freed positions below the new length with the survivors above it:
// one lookup per id, and one move per hole that is not in the part cut
// off. It needs no order among the ids. sc provides the memory for the
// freed positions. The fast path reads every id before it moves a
// component, so ids may be the storage's own memory (BulkDeleteComponent
// copies them only for the per-element path).
func (s *sparseSet[T]) deleteIDs(ids []EntityID, sc *bulkScratch) int {
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
	holes := grow(sc.pos[:0], min(len(ids), len(s.dense)))
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
		e := &page[id&pageMask]
		if x := (*e ^ uint64(id)&genMask) - 1; x < math.MaxUint32 {
			*e = 0
			holes = append(holes, uint32(x))
		}
	}
	sc.pos = holes
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
	base, end := len(s.dense), len(s.dense)+len(ids)
	s.reserve(len(ids))
	dense, data := s.dense[:end], s.data[:end]
	k := 0
	inParallel(2, func(i int) {
		if i == 0 {
			k = s.newEntries(ids, base)
			return
		}
		copy(dense[base:], ids)
		copy(data[base:], vals)
	})
	s.dense, s.data = dense[:base+k], data[:base+k]
	s.editedMany(base, k)
	if k < len(ids) {
		if s.ptrs {
			clear(data[base+k:]) // copies past the end hold no references
		}
		s.bulkInsert(ids[k:], vals[k:])
	}
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
// deleteIDs repeats the id-at-a-time loop, collecting the positions it
// frees; a loop shared by both, with a flag, measured much slower in the
// bulk deletes, so the two copies stay: change them together.
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
		e := &page[id&pageMask]
		if (*e^uint64(id)&genMask)-1 < math.MaxUint32 {
			*e = 0
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

// hasPointers reports whether values of type t hold pointers the garbage
// collector follows, so that a slice of them must be cleared where it is
// cut, not just shortened. Storages compute it once, when created.
func hasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return false
	case reflect.Array:
		return t.Len() > 0 && hasPointers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if hasPointers(t.Field(i).Type) {
				return true
			}
		}
		return false
	default: // pointers, strings, slices, maps, channels, functions, interfaces
		return true
	}
}
