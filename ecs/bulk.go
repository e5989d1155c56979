package ecs

import (
	"strconv"
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
	// components are still in place (see AllStoragesViewMut.deleteLater).
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
// either way. When ids form a run (consecutive indices of one
// generation, in either order, as entities created together get them), a
// storage that holds no more components than there are ids frees the
// run's index entries page by page, with no look-up per id; one whose
// components all go is then cut to nothing at once. Storages that track
// changes or are in a group delete id by id. See "Whole storages go at
// once" in docs/delete-entity.md. With 65,536 ids or more, the caller and
// a worker of the pool each kill the entities of about half the ids, then
// the storages that hold no more components than there are ids (when
// deleting most entities, all of them) are cleared of the ids' components
// at once on the worker pool, one storage per goroutine, the caller's
// included.
//
// Inside [Each1] … [Each8] through an [AllStoragesViewMut], it deletes as
// [AllStoragesViewMut.DeleteEntity] does there: the entities are dead at
// once, their components stay in place until the Each returns.
func DeleteEntities(s Storages, ids ...EntityID) (err error) {
	w, locked, ids, err := beginBulkWrite(s, ids, false)
	if err != nil {
		return err
	}
	defer endWriteObs(w, locked, &err)
	if w.fin != nil {
		if err := w.ents.checkAlive("DeleteEntities", ids); err != nil {
			return err
		}
		if ids, err = w.fin.spareAll(w, "DeleteEntities", ids); err != nil || len(ids) == 0 {
			return err
		}
	}
	if w.eaching != 0 { // inside an Each through an AllStoragesViewMut
		return w.deleteManyLater(ids)
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
func BulkDeleteComponent[T any](s Storages, ids ...EntityID) (_ int, err error) {
	w, locked, ids, err := beginBulkWrite(s, ids, false)
	if err != nil {
		return 0, err
	}
	defer endWriteObs(w, locked, &err)
	if err := w.ents.checkAlive("BulkDeleteComponent", ids); err != nil {
		return 0, err
	}
	st := storageFor[T](w)
	if w.eaching != 0 {
		if err := refuseRemove("BulkDeleteComponent", st, ids...); err != nil {
			return 0, err
		}
	}
	if err := st.keepsAny("BulkDeleteComponent", ids); err != nil {
		return 0, err
	}
	return st.deleteIDs(ids, &w.scratch.pos), nil
}

// beginBulkWrite is beginWrite for a bulk call given ids, which may be
// the memory of a storage (a View's IDs, kept after the View's release):
// once it holds every storage, it copies ids out of the storages (always
// when copy is set, as insertions need; otherwise when they lie in one,
// inStorage) and only then purges what deleted entities left behind
// (stripDoomed), since the purge moves components within the storages.
// It returns the ids to read. The bulk calls run once per call, so this
// path keeps none of beginWrite's shortcuts.
func beginBulkWrite(s Storages, ids []EntityID, copy bool) (*World, bool, []EntityID, error) {
	if err := checkWorld(s); err != nil {
		return nil, false, nil, err
	}
	w, held := s.world()
	if !held {
		if err := w.allLock.acquire(worldWrite, true, allName); err != nil {
			return nil, false, nil, err
		}
	}
	if copy || w.inStorage(ids) {
		ids = w.ownIDs(ids)
	}
	w.stripDoomed()
	w.hooks.writing++
	w.ents.settle()
	return w, !held, ids, nil
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
// It is deleteComponentsIn with the run the ids form, if any.
func (w *World) deleteComponents(ids []EntityID) {
	w.deleteComponentsIn(ids, runOf(ids))
}

// deleteComponentsIn deletes the components of ids from every storage,
// run being the run ids form (runOf), or no run.
//
// The storages that hold no more components than there are ids (when
// deleting many entities, usually all of them) sweep (sweepRun). When
// the ids form no run, they go through the ids chunk by chunk, each
// storage freeing the entries of a chunk in turn while the chunk is in
// cache, so the ids are read from memory once, not once per storage; then
// each closes its gaps. Either way, a storage whose components all go (a
// whole storage) is then cut to nothing at once. The storages that hold
// more components than there are ids, or that track or belong to a
// group, delete the ids one storage after the other (deleteIDs).
func (w *World) deleteComponentsIn(ids []EntityID, run idRun) {
	if len(ids) == 0 {
		return
	}
	sw := w.scratch.sweep[:0]
	for _, st := range w.comps.all() {
		if st.sweepable(len(ids)) {
			sw = append(sw, sweeper{st: st})
		} else {
			st.deleteIDs(ids, &w.scratch.pos)
		}
	}
	w.scratch.sweep = sw[:0]
	switch {
	case len(sw) == 0:
	case run.n != 0:
		sweepRun(sw, run)
	case len(sw) > 1 && len(ids) >= bulkParallelMin:
		// Each storage sweeps all the ids on its own goroutine, and
		// closes its gaps there too.
		inParallel(len(sw), func(j int) {
			sw[j].st.closeGaps(sw[j].st.zeroIDs(ids))
		})
	case len(sw) == 1:
		sw[0].st.closeGaps(sw[0].st.zeroIDs(ids))
	default:
		for lo := 0; lo < len(ids); lo += sweepChunk {
			chunk := ids[lo:min(lo+sweepChunk, len(ids))]
			for j := range sw {
				sw[j].k += sw[j].st.zeroIDs(chunk)
			}
		}
		for _, x := range sw {
			x.st.closeGaps(x.k)
		}
	}
}

// sweepRun deletes the components of run's ids from the storages sw, each
// sweepable for as many ids: each frees the entries of the run's indices
// (vacateRun), reading no id, then closes its gaps. From bulkParallelMin
// ids, the storages do so at once, one per goroutine of the pool.
func sweepRun(sw []sweeper, run idRun) {
	if len(sw) > 1 && run.n >= uint64(bulkParallelMin) {
		inParallel(len(sw), func(j int) {
			sw[j].st.closeGaps(sw[j].st.vacateRun(run))
		})
		return
	}
	for _, x := range sw {
		x.st.closeGaps(x.st.vacateRun(run))
	}
}

// sweepAll returns the storages that have components, when each of them
// is sweepable for n ids, and true; otherwise false. DeleteAny asks it
// whether the deletion of n entities that form a run needs their ids.
func (w *World) sweepAll(n int) ([]sweeper, bool) {
	sw := w.scratch.sweep[:0]
	for _, st := range w.comps.all() {
		if st.length() == 0 {
			continue
		}
		if !st.sweepable(n) {
			w.scratch.sweep = sw[:0]
			return nil, false
		}
		sw = append(sw, sweeper{st: st})
	}
	w.scratch.sweep = sw[:0]
	return sw, true
}

// sweeper is a storage sweeping ids, and how many it freed so far.
type sweeper struct {
	st storage
	k  int
}
