package ecs

import (
	"sync"
	"sync/atomic"
)

// World holds every entity, component and unique, and runs systems and
// workloads. Create one with [NewWorld]; the zero World is not usable, nor
// is a nil *World: the World-level functions return an error wrapping
// [ErrNilWorld] for it (see there for which), and the methods that return
// no error panic.
//
// A World is safe for use from several goroutines in the sense that misuse is
// reported, never a data race: every access borrows what it touches, and a
// borrow that conflicts with one held elsewhere returns a [BorrowError]
// instead of waiting. World-level changes (adding or deleting entities and
// components through the functions of this package that take [Storages])
// borrow all storages exclusively, like Shipyard's `&mut World`; reads such
// as [Get] borrow shared. Inside a system, use views instead.
type World struct {
	comps   typeTable[storage]
	uniques typeTable[uniqueSlot]

	ents    entities
	entLock borrowState
	allLock borrowState
	scratch bulkScratch // memory the bulk operations reuse (bulk.go)
	strip   []stripRef  // every storage, for stripAll

	workMu    sync.Mutex
	workloads map[string]*plan
	defaultWL string
	// groups are the packed groups (group.go), under workMu; groupGen
	// counts them, so that a workload planned before the last one was
	// added is planned again (World.currentPlan).
	groups   []*group
	groupGen atomic.Uint64
	tracing  atomic.Bool

	clock // the tracking clock (clock.go)
	// pool runs the workloads (pool.go): the one given to SetPool, or the
	// world's own, made on first need; nil until then.
	pool atomic.Pointer[Pool]
	// align holds the joins' requests for re-alignment (align.go).
	align aligner
	// eaching counts the Each1 … Each8 calls through an
	// AllStoragesViewMut under way, nested ones included: while it is
	// above zero, stripDoomed waits, and World-level changes check that
	// they move no component of a storage an Each walks (each.go).
	eaching int
}

// NewWorld returns an empty world.
func NewWorld() *World {
	return &World{}
}

// Storages is what world-level operations act on: a *[World], or an
// [AllStoragesViewMut] inside a system. Through a World, each call borrows
// what it needs for the duration of the call; through an AllStoragesViewMut,
// the system already holds everything exclusively.
type Storages interface {
	world() (w *World, held bool)
}

func (w *World) world() (*World, bool) { return w, false }

var (
	worldWrite = &borrower{kind: accWorldWrite, view: "World-level change", by: "the World API"}
	worldRead  = &borrower{kind: accWorldRead, view: "World-level read", by: "the World API"}
)

const allName = "all storages"

// beginWrite borrows everything exclusively for a World-level change, and
// purges the components of the entities killed without them (see
// stripDoomed) before the change looks at the storages. Its common cases
// make no further call: a *World whose storages nobody borrows takes the
// borrow with one compare-and-swap, and a live AllStoragesViewMut needs
// none; both then call stripDoomed, which only tests two lengths when
// there is nothing to purge. World-level changes run it once per entity.
func beginWrite(s Storages) (*World, bool, error) {
	if w, ok := s.(*World); ok && w != nil {
		if l := &w.allLock; l.n.CompareAndSwap(0, -1) {
			if l.excl.Load() != worldWrite {
				l.excl.Store(worldWrite)
			}
			w.stripDoomed()
			return w, true, nil
		}
	} else if a, ok := s.(AllStoragesViewMut); ok && a.c != nil && a.c.w != nil {
		a.c.w.stripDoomed() // the system holds everything already
		return a.c.w, false, nil
	}
	return beginWriteSlow(s)
}

// beginWriteSlow is beginWrite for a world borrowed elsewhere, for a nil
// *World or Storages (an error wrapping ErrNilWorld), and for an
// AllStoragesViewMut that is no longer (or was never) borrowed, which
// panics.
func beginWriteSlow(s Storages) (*World, bool, error) {
	if err := checkWorld(s); err != nil {
		return nil, false, err
	}
	w, held := s.world()
	if held {
		return w, false, nil
	}
	if err := w.allLock.acquire(worldWrite, true, allName); err != nil {
		return nil, false, err
	}
	w.stripDoomed()
	return w, true, nil
}

// checkWorld returns an error wrapping ErrNilWorld if s is nil or a nil
// *World, and nil otherwise. Functions taking a Storages call it (or
// beginWrite, which does) before anything that would dereference the
// world.
func checkWorld(s Storages) error {
	switch w := s.(type) {
	case nil:
		return errNilStorages
	case *World:
		if w == nil {
			return errNilWorld
		}
	}
	return nil
}

// mustWorld panics, naming the method op, if w is nil: the methods of
// World that return no error call it first.
func (w *World) mustWorld(op string) {
	if w == nil {
		panic("ecs: World." + op + ": the *World is nil (create worlds with ecs.NewWorld)")
	}
}

func endWrite(w *World, locked bool) {
	if locked {
		w.allLock.releaseExclusive()
	}
}

// beginRead borrows all storages and st shared for a World-level read.
// The caller has checked s with checkWorld.
func beginRead(s Storages, st *borrowState, name string) (*World, bool, error) {
	w, held := s.world()
	if held {
		return w, false, nil
	}
	if err := w.allLock.acquire(worldRead, false, allName); err != nil {
		return nil, false, err
	}
	// The entities storage too, shared: the read checks that ids are
	// alive, which a system holding EntitiesViewMut may be changing.
	if err := w.entLock.acquire(worldRead, false, "entities"); err != nil {
		w.allLock.release(worldRead, false)
		return nil, false, err
	}
	if err := st.acquire(worldRead, false, name); err != nil {
		w.entLock.release(worldRead, false)
		w.allLock.release(worldRead, false)
		return nil, false, err
	}
	return w, true, nil
}

func endRead(w *World, locked bool, st *borrowState) {
	if locked {
		st.release(worldRead, false)
		w.entLock.release(worldRead, false)
		w.allLock.release(worldRead, false)
	}
}

// AddEntity creates an entity with no component and returns its id.
// It fails only if all storages are borrowed elsewhere, or if w is nil
// (an error wrapping [ErrNilWorld]).
func (w *World) AddEntity() (EntityID, error) {
	w, locked, err := beginWrite(w)
	if err != nil {
		return NullID, err
	}
	defer endWrite(w, locked)
	return w.ents.create(), nil
}

// IsAlive reports whether id is a live entity of this world: whether this
// world has a live entity with id's index and generation (an id issued by
// another world is taken as this world's: see [EntityID]).
//
// Like [Get], it borrows all storages and the entities storage shared for
// the call, so that it never races with a change to the entities made
// elsewhere. Having no error to return, it panics with the [*BorrowError]
// when they are borrowed exclusively: while a World-level change runs on
// another goroutine, or a system (or [World.Borrow]) holds an
// [EntitiesViewMut] or an [AllStoragesViewMut], also on this goroutine.
// Inside such a system, ask the view: [EntitiesViewMut.IsAlive],
// [AllStoragesViewMut.IsAlive].
//
// Panics if w is nil.
func (w *World) IsAlive(id EntityID) bool {
	w.mustWorld("IsAlive")
	w.peekEntities(isAliveRead)
	alive := w.ents.isAlive(id)
	w.endPeekEntities()
	return alive
}

// EntityCount returns the number of live entities.
//
// It borrows as [World.IsAlive] does, and panics as it does with the
// [*BorrowError] when the entities may be changing elsewhere. Inside a
// system that holds an [EntitiesViewMut], use [EntitiesViewMut.Len].
//
// Panics if w is nil.
func (w *World) EntityCount() int {
	w.mustWorld("EntityCount")
	w.peekEntities(entityCountRead)
	n := w.ents.live
	w.endPeekEntities()
	return n
}

var (
	isAliveRead     = &borrower{kind: accWorldRead, view: "World-level read", by: "World.IsAlive"}
	entityCountRead = &borrower{kind: accWorldRead, view: "World-level read", by: "World.EntityCount"}
)

// peekEntities borrows all storages and the entities storage shared for
// b, a World method that reads the entities and has no error to return:
// it panics with the *BorrowError if either is held exclusively. The
// borrows are peeks (see borrowState.peek): taken per call, as often as
// once per entity, they cost two atomic operations each. endPeekEntities
// gives them back.
func (w *World) peekEntities(b *borrower) {
	if !w.allLock.peek() {
		panic(w.allLock.conflict(b, allName))
	}
	if !w.entLock.peek() {
		w.allLock.endPeek()
		panic(w.entLock.conflict(b, "entities"))
	}
}

// endPeekEntities gives back the borrows of peekEntities.
func (w *World) endPeekEntities() {
	w.entLock.endPeek()
	w.allLock.endPeek()
}

// DeleteEntity deletes id and all its components.
// It returns an [EntityError] if id is not alive, and changes nothing then.
func (w *World) DeleteEntity(id EntityID) error { return DeleteEntity(w, id) }

// Strip deletes all of id's components; the entity stays alive.
// It returns an [EntityError] if id is not alive.
func (w *World) Strip(id EntityID) error { return Strip(w, id) }

// DeleteEntity deletes id and all its components. It returns an
// [EntityError] if id is not alive, and changes nothing then.
func DeleteEntity(s Storages, id EntityID) error {
	if a, ok := s.(AllStoragesViewMut); ok {
		return a.DeleteEntity(id)
	}
	w, locked, err := beginWrite(s)
	if err != nil {
		return err
	}
	defer endWrite(w, locked)
	return w.deleteEntity(id)
}

// deleteEntity is DeleteEntity once the caller holds all storages.
func (w *World) deleteEntity(id EntityID) error {
	// Kill first: delete checks that id is alive as it goes, and the
	// storages match components by id, not by liveness.
	if !w.ents.delete(id) {
		return &EntityError{Op: "DeleteEntity", ID: id}
	}
	w.stripAll(id)
	return nil
}

// Strip deletes all of id's components; the entity stays alive. It returns
// an [EntityError] if id is not alive.
func Strip(s Storages, id EntityID) error {
	w, locked, err := beginWrite(s)
	if err != nil {
		return err
	}
	defer endWrite(w, locked)
	return w.stripEntity(id)
}

// stripEntity is Strip once the caller holds all storages.
func (w *World) stripEntity(id EntityID) error {
	if !w.ents.isAlive(id) {
		return &EntityError{Op: "Strip", ID: id}
	}
	if w.eaching != 0 {
		if err := w.refuseStrip("Strip", id); err != nil {
			return err
		}
	}
	w.stripAll(id)
	return nil
}

// deleteLater is deleteEntity for a system holding an AllStoragesViewMut:
// it kills id at once but leaves its components in place, on a list that
// stripDoomed empties with one pass per storage (the path of
// DeleteEntities) the next time anything goes through the
// AllStoragesViewMut, and when it is released. Nothing can see the
// storages meanwhile: the system holds them all, and every other way in
// (every function taking a Storages, AddEntity, Strip, the release) strips
// first. Deleting one at a time then costs what deleting in bulk does:
// stripAll visits every storage per entity, and at 10 storages its
// interleaved reads and writes miss the cache far more often than ten
// passes, each over one storage. It also lets an Each through the
// AllStoragesViewMut delete entities: while one runs, stripDoomed waits
// for it to return (see each.go).
func (w *World) deleteLater(id EntityID) error {
	if !w.ents.delete(id) {
		return &EntityError{Op: "DeleteEntity", ID: id}
	}
	w.scratch.doomed = append(w.scratch.doomed, id)
	return nil
}

// stripDoomed deletes the components of the entities deleteLater killed,
// and purges those that the entities EntitiesViewMut.DeleteUnchecked
// killed left behind (entities.unpurged), if there are any. It runs under
// the exclusive all-storages borrow: at the start of every World-level
// change (beginWrite), and for an AllStoragesViewMut at its borrow, its
// calls that reach the storages (but for those made inside an Each
// through it, which leave the list for the first call after the Each), and
// its release. It does not run at sync points. Tracked storages log
// what it deletes as deleted, with the timestamp of that moment (the
// AllStoragesViewMut's system's, or a new one), as World.DeleteEntity
// does.
func (w *World) stripDoomed() {
	if (len(w.scratch.doomed) != 0 || len(w.ents.unpurged) != 0) && w.eaching == 0 {
		w.stripDoomedNow()
	}
}

// stripDoomedNow is stripDoomed's work. The ids are distinct (each was
// killed once, by deleteLater or by deleteUnpurged) and dead, as
// deleteComponents needs. An index may appear with several generations,
// and may be alive again with a later one: the storages match components
// by id, generation included, so only the dead ids' components go.
func (w *World) stripDoomedNow() {
	d := w.scratch.doomed
	if u := w.ents.unpurged; len(u) != 0 {
		d = append(d, u...)
		w.ents.unpurged = u[:0]
	}
	if len(d) == 1 {
		w.stripAll(d[0])
	} else {
		w.deleteComponents(d)
	}
	w.scratch.doomed = d[:0]
}

// stripAll deletes id's components from every storage. It looks id up in
// each storage's sparse pages itself, through w.strip, and calls the
// storage (through its interface) only when id has a component there,
// handing it the entry found: a world may have many component types, an
// entity usually few of them. It runs under the exclusive all-storages
// borrow, like everything that touches w.strip.
func (w *World) stripAll(id EntityID) {
	all := w.comps.all()
	if len(w.strip) != len(all) {
		w.strip = w.strip[:0]
		for _, st := range all {
			w.strip = append(w.strip, stripRef{pages: st.pagesRef(), pre: st.identRef(), st: st})
		}
	}
	for _, r := range w.strip {
		if r.pre.at(id) < r.pre.n { // in the storage's identity prefix: no entry
			r.st.deleteID(id)
		} else if e := entryIn(*r.pages, id); e != nil {
			r.st.deleteFound(id, e)
		}
	}
}

// stripRef is a storage as stripAll sees it: the addresses of its page
// table and of its identity prefix, and the storage.
type stripRef struct {
	pages *[]*sparsePage
	pre   *identity
	st    storage
}

// DeleteAny deletes every entity that has a component of type T (with all
// their components) and returns how many it deleted. It is the guide's
// `delete_any`, used to clean up entities flagged with a tag component.
// It works like [DeleteEntities], in one pass per storage. Components of
// type T that no live entity owns (stored under a dead id with
// [ViewMut.AddComponentUnchecked]) go too, with whatever else their dead
// entity left, but are not counted. (Those that
// [EntitiesViewMut.DeleteUnchecked] left behind are gone before it looks:
// every World-level change purges them first.)
//
// Inside [Each1] … [Each8] through an [AllStoragesViewMut], it returns an
// error wrapping [ErrIterating] and deletes nothing: call it after the
// Each, or delete with [AllStoragesViewMut.DeleteEntity] there.
func DeleteAny[T any](s Storages) (int, error) {
	w, locked, err := beginWrite(s)
	if err != nil {
		return 0, err
	}
	defer endWrite(w, locked)
	st := storageFor[T](w)
	if w.eaching != 0 {
		return 0, &argError{op: "DeleteAny[" + st.name + "]", what: "would delete entities with their components while an Each (Each1 … Each8) through the AllStoragesViewMut walks storages; call it after the Each returns, or delete with DeleteEntity or DeleteEntities inside it", kind: ErrIterating}
	}
	// Copy the ids out (deleting them empties the storage they come from),
	// last first: the order of one-by-one deletion from the end, which
	// leaves the free list such that new entities take the indices of the
	// old ones in their storage order.
	ids := grow(w.scratch.ids[:0], len(st.dense))[:len(st.dense)]
	for i, id := range st.dense {
		ids[len(ids)-1-i] = id
	}
	n := w.deleteMany(ids)
	w.scratch.ids = ids[:0]
	return n, nil
}

// Remove takes id's component of type T out of the world and returns it.
// ok is false (and nothing changes) when id has no T. err is an
// [EntityError] when id is not alive.
func Remove[T any](s Storages, id EntityID) (v T, ok bool, err error) {
	w, locked, err := beginWrite(s)
	if err != nil {
		return v, false, err
	}
	defer endWrite(w, locked)
	if !w.ents.isAlive(id) {
		return v, false, &EntityError{Op: "Remove", ID: id}
	}
	st := storageFor[T](w)
	if w.eaching != 0 {
		if err := refuseRemove("Remove", st, id); err != nil {
			return v, false, err
		}
	}
	v, ok = st.remove(id)
	return v, ok, nil
}

// DeleteComponent deletes id's component of type T and reports whether there
// was one. err is an [EntityError] when id is not alive.
func DeleteComponent[T any](s Storages, id EntityID) (bool, error) {
	w, locked, err := beginWrite(s)
	if err != nil {
		return false, err
	}
	defer endWrite(w, locked)
	if !w.ents.isAlive(id) {
		return false, &EntityError{Op: "DeleteComponent", ID: id}
	}
	st := storageFor[T](w)
	if w.eaching != 0 {
		if err := refuseRemove("DeleteComponent", st, id); err != nil {
			return false, err
		}
	}
	return st.deleteID(id), nil
}

// Get returns a copy of id's component of type T. It returns an
// [EntityError] when id is not alive and a [ComponentError] when it has no
// T. To change a component in place, use a [ViewMut] (in a system, or from
// [World.Borrow]), or add it again with [AddComponent1].
func Get[T any](s Storages, id EntityID) (T, error) {
	var zero T
	if err := checkWorld(s); err != nil {
		return zero, err
	}
	w0, _ := s.world()
	st := storageFor[T](w0)
	w, locked, err := beginRead(s, &st.lock, st.name)
	if err != nil {
		return zero, err
	}
	defer endRead(w, locked, &st.lock)
	if !w.ents.isAlive(id) {
		return zero, &EntityError{Op: "Get", ID: id}
	}
	p := st.get(id)
	if p == nil {
		return zero, &ComponentError{Op: "Get", ID: id, Type: st.name}
	}
	return *p, nil
}

// Contains reports whether id is alive and has a component of type T.
func Contains[T any](s Storages, id EntityID) (bool, error) {
	if err := checkWorld(s); err != nil {
		return false, err
	}
	w, _ := s.world()
	st := storageFor[T](w)
	w, locked, err := beginRead(s, &st.lock, st.name)
	if err != nil {
		return false, err
	}
	defer endRead(w, locked, &st.lock)
	return w.ents.isAlive(id) && st.has(id), nil
}
