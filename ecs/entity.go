package ecs

import (
	"fmt"
	"math"
	"strconv"
	"sync"
	"sync/atomic"
)

// EntityID identifies an entity. It packs a 32-bit index (the slot the entity
// occupies) and a 32-bit generation (how many times that slot was reused).
//
// Deleting an entity bumps the generation of its slot, so an EntityID kept
// after its entity was deleted is stale: it never resolves to the entity that
// later reuses the slot. Every operation given a stale id, or one this world
// has no entity for, reports [ErrDeadEntity] (or false, for the calls
// documented to report absence), and never touches another entity's data.
//
// An EntityID is only meaningful in the world that issued it: it carries
// nothing that names its world. Given to another world, it is taken as
// that world's id with the same index and generation, so it acts on that
// world's entity if one is alive with both, and is refused as dead
// otherwise. Keep ids with their world; to refer to an entity of another
// world, store the world beside the id.
//
// The zero EntityID is a valid id (index 0, generation 0); use [NullID] for
// "no entity".
type EntityID uint64

// NullID is an id no entity ever has: index and generation are both all ones.
// It is the Go form of Shipyard's dead id, useful as a "no entity" marker in
// components that refer to other entities.
const NullID EntityID = math.MaxUint64

const (
	maxIndex = math.MaxUint32 - 1 // index math.MaxUint32 is reserved for NullID
	// aliveBit marks a live entity's slot in entities.slots, above the
	// generation: one load tells whether an id is alive.
	aliveBit      = 1 << 31
	maxGeneration = aliveBit - 1 // a slot whose generation reaches this is retired
	// spawnReach is how far past the last slot SpawnAt may place an
	// entity: the slots it adds cost eight bytes each, so an id from a
	// file or a peer can cost at most 128 MiB, not the 32 GiB that index
	// maxIndex would.
	spawnReach = 1 << 24
)

func newEntityID(index, generation uint32) EntityID {
	return EntityID(uint64(generation)<<32 | uint64(index))
}

// NewEntityID returns the EntityID with the given index and generation,
// for tools and tests that build ids by hand, and for loaders that
// recreate entities with [World.SpawnAt]. It refuses nothing: every pair
// is an id, though not every id can be alive. NewEntityID(math.MaxUint32,
// math.MaxUint32) is [NullID], which no entity ever has; an id whose
// generation is 1<<31 or more, or whose index is math.MaxUint32, is never
// alive either (the entities storage keeps a live flag above the
// generation), and SpawnAt refuses it.
//
// Freed indices are reused last in, first out: the next entity created
// takes the index of the entity deleted last, with its generation bumped.
// Shipyard reuses them first in, first out. Code that must not depend on
// either order keeps the ids it is given rather than predicting them.
func NewEntityID(index, generation uint32) EntityID { return newEntityID(index, generation) }

// Index returns the slot the entity occupies. Two live entities never share an
// index; a deleted entity's index is reused by a later one.
func (id EntityID) Index() uint32 { return uint32(id) }

// Generation returns how many times the entity's slot had been reused when the
// entity was created.
func (id EntityID) Generation() uint32 { return uint32(id >> 32) }

// IsNull reports whether id is [NullID].
func (id EntityID) IsNull() bool { return id == NullID }

// String formats the id as index.generation, or "null".
func (id EntityID) String() string {
	if id == NullID {
		return "EntityID(null)"
	}
	return fmt.Sprintf("EntityID(%d.%d)", id.Index(), id.Generation())
}

// entities is the entities storage: which ids are alive, and which indices
// can be reused.
//
// Invariants:
//   - slots[i] is the generation of the entity that occupies (or last
//     occupied) slot i, with aliveBit set while it is alive. Generations
//     stay at or below maxGeneration, below aliveBit.
//   - free holds exactly the dead slots whose generation is below
//     maxGeneration, each once; retired slots are never reused.
//   - live counts the alive slots.
//   - unpurged holds the ids killed by deleteUnpurged (the work of
//     [EntitiesViewMut.DeleteUnchecked]) since the world last purged
//     them, each once: dead ids whose components may still be in the
//     component storages. Their indices are free as any other (a
//     storage matches components by id, generation included, so the
//     purge never touches a later entity of the index). The world
//     empties the list with World.stripDoomed.
type entities struct {
	slots    []uint32
	free     []uint32
	live     int
	unpurged []EntityID
	lock     borrowState // its borrow flag (EntitiesView, EntitiesViewMut, World-level reads)
	// hooks are the entity hooks (hooks.go), or nil; sink is the
	// world's then, and queue holds the hook calls a World-level change
	// queued, from qhead on.
	hooks *EntityHooks
	sink  *hookSink
	queue []entEvent
	qhead int
	// observed has bit 1 if EntityCreated has observers, bit 2 if
	// EntityDeleted has (observers.go).
	observed uint8
	// reserved counts the ids Commands.AddEntity reserved since the
	// last flush (commands.go): reserve reads it under the shared
	// borrow, every change of the slots or the free list settles it
	// first.
	reserved atomic.Int64
	// cancels holds reserved ids whose commands were dropped while the
	// world was held elsewhere (entities.cancel): the flush that makes
	// them live deletes them. n is len(ids), read without the mutex.
	cancels struct {
		sync.Mutex
		ids []EntityID
		n   atomic.Int32
	}

	// initing is set once the world has initializers (initializers.go):
	// every entity created is then noted in fresh (by hooked, through
	// the empty hook set the world gives the storage), until a sync
	// point runs the initializers over them; freshPending says so to
	// the sync points that look without holding the world.
	initing      bool
	fresh        []EntityID
	freshPending atomic.Bool
}

// aliveAs reports whether slot s holds the live entity of generation g.
// A generation no id of the world has, aliveBit or above, matches no slot:
// its sum with aliveBit does not fit in 32 bits.
func aliveAs(s, g uint32) bool { return uint64(s) == uint64(g)+aliveBit }

// isAlive reports whether id is a live entity.
func (e *entities) isAlive(id EntityID) bool {
	i := id.Index()
	return uint(i) < uint(len(e.slots)) && aliveAs(e.slots[i], id.Generation())
}

// create returns a new live entity, reusing a free index when there is one.
func (e *entities) create() EntityID {
	if n := len(e.free) - 1; n >= 0 {
		i := e.free[n]
		e.free = e.free[:n]
		g := e.slots[i] // dead: no aliveBit
		e.slots[i] = g | aliveBit
		e.live++
		id := newEntityID(i, g)
		if e.hooks != nil {
			e.hooked(id, true)
		}
		return id
	}
	return e.createNew()
}

// createNew returns a new live entity in a new slot.
//
//go:noinline
func (e *entities) createNew() EntityID {
	i := len(e.slots)
	if uint64(i) > maxIndex {
		panic("ecs: more than 4294967294 entity slots in use; delete entities to free slots")
	}
	e.slots = append(e.slots, aliveBit)
	e.live++
	id := newEntityID(uint32(i), 0)
	if e.hooks != nil {
		e.hooked(id, true)
	}
	return id
}

// createMany appends n new entities to dst and returns it: free indices
// first (most recently freed first, as create does), then new slots.
func (e *entities) createMany(dst []EntityID, n int) []EntityID {
	if e.hooks != nil {
		first := len(dst)
		dst = e.createManyQuiet(dst, n)
		e.hookedAll(dst[first:], true)
		return dst
	}
	return e.createManyQuiet(dst, n)
}

// createManyQuiet is createMany's work, without the hooks.
func (e *entities) createManyQuiet(dst []EntityID, n int) []EntityID {
	dst = grow(dst, n)
	if k := min(n, len(e.free)); k > 0 {
		free, slots := e.free, e.slots
		if k < bulkParallelMin {
			for j := len(free) - 1; j >= len(free)-k; j-- {
				i := free[j]
				g := slots[i]
				slots[i] = g | aliveBit
				dst = append(dst, newEntityID(i, g))
			}
		} else {
			// The worker pool shares the work: the free indices are
			// distinct, so the parts write distinct slots.
			base := len(dst)
			dst = dst[:base+k]
			out, top := dst[base:], len(free)-1
			parallelFor(k, k/2, func(start, end int) {
				for p := start; p < end; p++ {
					i := free[top-p]
					g := slots[i]
					slots[i] = g | aliveBit
					out[p] = newEntityID(i, g)
				}
			})
		}
		e.free = free[:len(free)-k]
		e.live += k
		n -= k
	}
	if n == 0 {
		return dst
	}
	start := len(e.slots)
	if uint64(start)+uint64(n)-1 > maxIndex {
		panic("ecs: more than 4294967294 entity slots in use; delete entities to free slots")
	}
	e.slots = grow(e.slots, n)
	for i := 0; i < n; i++ {
		e.slots = append(e.slots, aliveBit)
		dst = append(dst, newEntityID(uint32(start+i), 0))
	}
	e.live += n
	return dst
}

// delete kills id and reports whether it was alive. The slot's generation is
// bumped; a slot that reaches maxGeneration is retired instead of reused.
func (e *entities) delete(id EntityID) bool {
	i := id.Index()
	g := id.Generation()
	if uint(i) >= uint(len(e.slots)) || !aliveAs(e.slots[i], g) {
		return false
	}
	e.live--
	if g < maxGeneration {
		e.slots[i] = g + 1
		e.free = append(e.free, i)
	} else {
		e.slots[i] = g // retired
	}
	return true
}

// deleteTold is delete, telling the entity hooks. delete itself does not,
// so that it stays small enough to inline into its callers on the
// per-entity paths, which test e.hooks themselves (deleteLater).
func (e *entities) deleteTold(id EntityID) bool {
	if !e.delete(id) {
		return false
	}
	if e.hooks != nil {
		e.hooked(id, false)
	}
	return true
}

// spawnAt makes id alive, at the index and generation it names, and
// returns nil; or, changing nothing, a *SpawnError saying why it cannot:
// id is NullID, its index or generation is out of range, its index holds
// a live entity, or the index already went through id's generation (a
// stale id of an entity deleted before must never name a new one). An
// index past the slots makes the slots between free, at generation 0,
// the lowest on top of the free list; an index on the free list leaves
// it. So no later creation hands out id's index while id is alive, and
// when it dies the index is freed with a generation past id's.
func (e *entities) spawnAt(op string, id EntityID) error {
	i, g := id.Index(), id.Generation()
	switch {
	case id == NullID:
		return &SpawnError{Op: op, ID: id, Live: NullID, Reason: "NullID is never alive"}
	case i > maxIndex:
		return &SpawnError{Op: op, ID: id, Live: NullID, Reason: "index 4294967295 is reserved for NullID"}
	case g > maxGeneration:
		return &SpawnError{Op: op, ID: id, Live: NullID, Reason: "generation above 2147483647 (1<<31 - 1)"}
	}
	if uint(i) >= uint(len(e.slots)) {
		if uint64(i)-uint64(len(e.slots)) >= spawnReach {
			return &SpawnError{Op: op, ID: id, Live: NullID, Reason: "index " + strconv.FormatUint(uint64(i), 10) +
				" is 16,777,216 or more past the last slot (" + strconv.Itoa(len(e.slots)) +
				" slots); spawn lower indices first"}
		}
		gap := int(i) - len(e.slots)
		e.slots = grow(e.slots, gap+1)
		e.free = grow(e.free, gap)
		for k := int(i) - 1; k >= len(e.slots); k-- {
			e.free = append(e.free, uint32(k))
		}
		for k := 0; k < gap; k++ {
			e.slots = append(e.slots, 0)
		}
		e.slots = append(e.slots, g|aliveBit)
		e.live++
		if e.hooks != nil {
			e.hooked(id, true)
		}
		return nil
	}
	s := e.slots[i]
	if s&aliveBit != 0 {
		return &SpawnError{Op: op, ID: id, Live: newEntityID(i, s&^aliveBit), Reason: "its index holds a live entity"}
	}
	if g < s {
		return &SpawnError{Op: op, ID: id, Live: NullID, Reason: "its index was freed at generation " + strconv.FormatUint(uint64(s), 10) + "; an older generation would let a stale id name the new entity"}
	}
	k := lastIndexOf(e.free, i)
	if k < 0 { // retired: its last entity had generation maxGeneration
		return &SpawnError{Op: op, ID: id, Live: NullID, Reason: "its index is retired (it reached the last generation)"}
	}
	e.free = append(e.free[:k], e.free[k+1:]...)
	e.slots[i] = g | aliveBit
	e.live++
	if e.hooks != nil {
		e.hooked(id, true)
	}
	return nil
}

// lastIndexOf returns the position of the last i in s, or -1. The free
// list is searched from its top, where the indices freed last are.
func lastIndexOf(s []uint32, i uint32) int {
	for k := len(s) - 1; k >= 0; k-- {
		if s[k] == i {
			return k
		}
	}
	return -1
}

// deleteUnpurged is delete for an entity whose components may stay in
// the component storages: it also lists id among those the world must
// purge the storages of.
func (e *entities) deleteUnpurged(id EntityID) bool {
	if !e.deleteTold(id) {
		return false
	}
	e.unpurged = append(e.unpurged, id)
	return true
}

// each calls fn with every live entity, in index order.
func (e *entities) each(fn func(EntityID) bool) {
	for i, s := range e.slots {
		if s&aliveBit != 0 && !fn(newEntityID(uint32(i), s&^aliveBit)) {
			return
		}
	}
}

// grow makes room for n more elements without changing len(s).
func grow[S ~[]E, E any](s S, n int) S {
	if cap(s)-len(s) < n {
		ns := make(S, len(s), len(s)+max(n, len(s)))
		copy(ns, s)
		return ns
	}
	return s
}

// killAll kills every id of ids, as delete does for each in turn, if they
// are all alive and distinct, and reports whether they were. If they are
// not, it changes nothing. Checking and killing in the same pass reads
// the ids and the entities storage once. From bulkParallelMin ids the
// pass is split (killAllSplit).
func (e *entities) killAll(ids []EntityID) bool {
	if e.hooks != nil {
		if !e.killAllQuiet(ids) {
			return false
		}
		e.hookedAll(ids, false)
		return true
	}
	return e.killAllQuiet(ids)
}

// killAllQuiet is killAll's work, without the hooks.
func (e *entities) killAllQuiet(ids []EntityID) bool {
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
	if e.hooks != nil { // one by one, each deletion told to the hooks
		n := 0
		for _, id := range ids {
			if e.deleteTold(id) {
				n++
			}
		}
		return n
	}
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

// deleteManyLastFirst is deleteMany over ids taken last first, reading
// them where they are: DeleteAny kills the entities of a storage's dense
// array without copying it.
//
// The loop writes the indices it frees into the free list's spare room by
// position, and counts the retired slots apart, which keeps it to few
// live values (an append, with its call to grow the list, made the loop
// keep its counter on the stack).
func (e *entities) deleteManyLastFirst(ids []EntityID) int {
	if e.hooks != nil { // one by one, each deletion told to the hooks
		n := 0
		for k := len(ids) - 1; k >= 0; k-- {
			if e.deleteTold(ids[k]) {
				n++
			}
		}
		return n
	}
	free := grow(e.free, len(ids))
	base := len(free)
	out, m := free[base:base+len(ids)], 0 // the indices freed: out[:m]
	slots := e.slots
	retired := 0
	for k := len(ids) - 1; k >= 0; k-- {
		id := ids[k]
		i, g := id.Index(), id.Generation()
		if uint(i) >= uint(len(slots)) || !aliveAs(slots[i], g) {
			continue
		}
		if g < maxGeneration {
			slots[i] = g + 1
			out[m] = i
			m++
		} else {
			slots[i] = g // retired
			retired++
		}
	}
	e.free = free[:base+m]
	e.live -= m + retired
	return m + retired
}
