package ecs

// World's internals: the borrows World-level calls take (beginWrite,
// beginRead and their ends), the deletion of entities with their
// components, and the world's tables of storages and uniques (storageFor,
// uniqueFor). The public World API is world.go's.

// world makes *World a Storages.
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
			w.hooks.writing++
			w.ents.settle()
			return w, true, nil
		}
	} else if a, ok := s.(AllStoragesViewMut); ok && a.c != nil && a.c.w != nil && len(a.c.lent) == 0 {
		a.c.w.stripDoomed() // the system holds everything already
		a.c.w.hooks.writing++
		a.c.w.ents.settle()
		return a.c.w, false, nil
	}
	return beginWriteSlow(s)
}

// beginWriteSlow is beginWrite for a world borrowed elsewhere, for a nil
// *World or Storages (an error wrapping ErrNilWorld), and for an
// AllStoragesViewMut that is no longer (or was never) borrowed, or that
// lends views (see AllStoragesViewMut.Borrow), which panics.
func beginWriteSlow(s Storages) (*World, bool, error) {
	if err := checkWorld(s); err != nil {
		return nil, false, err
	}
	w, held := s.world()
	if held {
		w.hooks.writing++
		w.ents.settle()
		return w, false, nil
	}
	if err := w.allLock.acquire(worldWrite, true, allName); err != nil {
		return nil, false, err
	}
	w.stripDoomed()
	w.hooks.writing++
	w.ents.settle()
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

// endWrite ends a World-level change that beginWrite began: it runs the
// hooks the change queued, if it is the outermost (and no Each or fill
// through an AllStoragesViewMut is under way, whose end runs them), then
// gives the borrow back, even if a hook panics. It stays small enough to
// inline: the hooks' case is endWriteHooks.
func endWrite(w *World, locked bool) {
	w.hooks.writing--
	if len(w.hooks.order) != 0 {
		endWriteHooks(w, locked)
	} else if locked {
		w.allLock.releaseExclusive()
	}
}

// endWriteObs is endWrite for the World-level changes that raise
// lifecycle events: the outermost change through a *World is a sync
// point (observers.go), where the observers of the events its hooks
// raised run once the world is free. Their failure becomes *err, unless
// the change failed itself. Events are raised only by hooked storages,
// whose changes queue hook calls: the other changes take endWrite's path.
func endWriteObs(w *World, locked bool, err *error) {
	if locked && w.ents.initing && w.hooks.writing == 1 && len(w.ents.fresh) != 0 {
		initThenEnd(w, locked, err)
		return
	}
	w.hooks.writing--
	if len(w.hooks.order) != 0 {
		endWriteHooks(w, locked)
		if locked && w.obs.pending.Load() != 0 {
			if oerr := w.runObservers(); *err == nil {
				*err = oerr
			}
		}
	} else if locked {
		w.allLock.releaseExclusive()
	}
}

// endWriteHooks is endWrite with hook calls queued.
func endWriteHooks(w *World, locked bool) {
	if locked {
		defer w.allLock.releaseExclusive()
	}
	if w.hooks.writing == 0 && w.eaching == 0 {
		w.hooks.flush()
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
	if err := w.ents.lock.acquire(worldRead, false, "entities"); err != nil {
		w.allLock.release(worldRead, false)
		return nil, false, err
	}
	if err := st.acquire(worldRead, false, name); err != nil {
		w.ents.lock.release(worldRead, false)
		w.allLock.release(worldRead, false)
		return nil, false, err
	}
	return w, true, nil
}

func endRead(w *World, locked bool, st *borrowState) {
	if locked {
		st.release(worldRead, false)
		w.ents.lock.release(worldRead, false)
		w.allLock.release(worldRead, false)
	}
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
	if !w.ents.lock.peek() {
		w.allLock.endPeek()
		panic(w.ents.lock.conflict(b, "entities"))
	}
}

// endPeekEntities gives back the borrows of peekEntities.
func (w *World) endPeekEntities() {
	w.ents.lock.endPeek()
	w.allLock.endPeek()
}

// deleteEntity is DeleteEntity once the caller holds all storages.
func (w *World) deleteEntity(id EntityID) error {
	if w.fin != nil && w.ents.isAlive(id) {
		if spared, err := w.fin.spare(w, "DeleteEntity", id); spared {
			return err
		}
	}
	// Kill first: delete checks that id is alive as it goes, and the
	// storages match components by id, not by liveness.
	if !w.ents.deleteTold(id) {
		return &EntityError{Op: "DeleteEntity", ID: id}
	}
	w.stripAll(id)
	return nil
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

// deleteLater is deleteEntity for a system holding the AllStoragesViewMut v:
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
//
// It takes the view, not its world, so that the checks of held are made
// here: AllStoragesViewMut.DeleteEntity is then one call, inlined where
// it is called, and deleting one entity costs one call.
func (v AllStoragesViewMut) deleteLater(id EntityID) error {
	w := v.held()
	if w.fin != nil && w.ents.isAlive(id) {
		if spared, err := w.fin.spare(w, "DeleteEntity", id); spared {
			return err
		}
	}
	if !w.ents.delete(id) {
		return &EntityError{Op: "DeleteEntity", ID: id}
	}
	if w.ents.hooks != nil {
		w.ents.hooked(id, false)
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
	// The hooks of what it deletes are queued (see hooks.go): the caller
	// runs them once it holds what it needs (flushPurge, endWrite).
	w.hooks.writing++
	d := w.scratch.doomed
	if u := w.ents.unpurged; len(u) != 0 {
		d = append(d, u...)
		w.ents.unpurged = u[:0]
	}
	if len(d) == 1 {
		w.stripAll(d[0])
	} else if len(d) > 1 {
		w.deleteComponents(d)
	}
	w.scratch.doomed = d[:0]
	w.hooks.writing--
}

// flushPurge runs the hooks a purge (stripDoomed) queued outside a
// World-level change: the AllStoragesViewMut's borrow and release call
// it while they hold the world.
func (w *World) flushPurge() {
	if len(w.hooks.order) != 0 && w.hooks.writing == 0 && w.eaching == 0 {
		w.hooks.flush()
	}
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

// storageFor returns the storage of component type T, creating it on first
// use. It never blocks on a borrow: creating a storage does not touch any
// existing one.
func storageFor[T any](w *World) *sparseSet[T] {
	k := keyFor[T]()
	if s, ok := w.comps.get(k); ok {
		return s.(*sparseSet[T])
	}
	return addStorage[T](w, k)
}

// addStorage creates the storage of T, tracking what T declares. It runs
// once per type and world.
//
//go:noinline
func addStorage[T any](w *World, k typeKey) *sparseSet[T] {
	return w.comps.add(k, func() storage {
		s := newSparseSet[T]()
		if k := declaredTracking[T](); k != 0 {
			s.enableTracking(k, &w.clock)
		}
		return s
	}).(*sparseSet[T])
}

// uniqueFor returns the slot of unique type T, creating it on first use.
func uniqueFor[T any](w *World) *unique[T] {
	return w.uniques.getOrAdd(keyFor[T](), newUnique[T]).(*unique[T])
}
