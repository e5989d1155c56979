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
	comps   typeTable[storage] // isotope storages are listed, under no key
	uniques typeTable[uniqueSlot]
	isos    typeTable[any] // the isotope families (isotope.go), by isoFamKey

	ents    entities
	allLock borrowState
	scratch bulkScratch // memory the bulk operations reuse (bulk.go)
	strip   []stripRef  // every storage, for stripAll

	workMu    sync.Mutex
	workloads map[string]*plan
	defaultWL string
	// groups are the packed groups (group.go), under workMu; groupGen
	// counts them, so that a workload whose plan was made before the
	// last one was added gets a new plan (World.currentPlan).
	groups   []*group
	groupGen atomic.Uint64
	tracing  atomic.Bool
	// tracedRuns counts the workload runs made while tracing was on
	// (SystemStats.LastRun).
	tracedRuns atomic.Uint64

	clock // the tracking clock (clock.go)
	// pool runs the workloads (pool.go): the one given to SetPool, or the
	// world's own, made on first need; nil until then.
	pool atomic.Pointer[Pool]
	// align holds the joins' requests for re-alignment (align.go).
	align aligner
	// eaching counts the Each1 … Each8 calls through an
	// AllStoragesViewMut under way, nested ones included, and the fills
	// of in-place bulk calls through one (fill.go): while it is above
	// zero, stripDoomed waits, and World-level changes check that they
	// move no component of a storage an Each or a fill walks (each.go).
	eaching int
	// hooks counts the World-level changes under way (beginWrite …
	// endWrite, nested through an AllStoragesViewMut, and the purges of
	// stripDoomedNow), and queues the hook calls they make, which run as
	// the outermost change ends (hooks.go). Only the holder of the
	// exclusive all-storages borrow changes it.
	hooks hookSink
	// obs holds the observers and the events waiting for them
	// (observers.go).
	obs observers
	// inits is the initializers (initializers.go), nil until one is
	// declared.
	inits *initializers
	// fin is the finalizer types and the Terminating storage
	// (finalizers.go), nil until SetFinalizer declares one.
	fin *finalizers
	// reqs is the Require declarations (requirements.go), nil until one
	// is made; under workMu, as groups are.
	reqs *requirements
}

// NewWorld returns an empty world.
func NewWorld() *World {
	w := &World{}
	w.hooks.obs = &w.obs
	return w
}

// Storages is what world-level operations act on: a *[World], or an
// [AllStoragesViewMut] inside a system. Through a World, each call borrows
// what it needs for the duration of the call; through an AllStoragesViewMut,
// the system already holds everything exclusively.
type Storages interface {
	world() (w *World, held bool)
}

// AddEntity creates an entity with no component and returns its id.
// It fails only if all storages are borrowed elsewhere, or if w is nil
// (an error wrapping [ErrNilWorld]).
func (w *World) AddEntity() (_ EntityID, err error) {
	w, locked, err := beginWrite(w)
	if err != nil {
		return NullID, err
	}
	defer endWriteObs(w, locked, &err)
	return w.ents.create(), nil
}

// SpawnAt creates an entity with no component whose id is id, index and
// generation as given: the form of entity creation that loaders and
// networking need, to recreate entities under the ids a save file or a
// server gave them. Give it components with [AddComponent1] … afterwards.
//
// It returns a [*SpawnError] (wrapping [ErrSpawnRefused]), and changes
// nothing, if id's index holds a live entity (the error names it), if id
// is [NullID] or its index or generation can never be alive (see
// [NewEntityID]), or if the index was freed at a later generation than
// id's, or retired: an older generation would let a stale id of a
// deleted entity name the new one, or if the index lies 1<<24 or more
// past every slot in use (an id read from a file or a peer must not make
// the world allocate gigabytes). An index past every slot in use makes
// the indices in between free, for later creations to take, lowest
// first. Later creations never hand out id while it is alive, and when
// it is deleted its index comes back with a later generation, as for any
// entity.
//
// Taking an index off the free list costs a search of the list, from the
// indices freed last; an index past every slot costs the slots up to it
// (four bytes each, and four more for each index it frees).
//
// It fails, too, if all storages are borrowed elsewhere, or if w is nil
// (an error wrapping [ErrNilWorld]).
func (w *World) SpawnAt(id EntityID) error { return spawnAt("World.SpawnAt", w, id) }

// SpawnAt is [World.SpawnAt] through a [Storages]: a *World, or an
// [AllStoragesViewMut] inside a system.
func SpawnAt(s Storages, id EntityID) error { return spawnAt("SpawnAt", s, id) }

func spawnAt(op string, s Storages, id EntityID) (err error) {
	w, locked, err := beginWrite(s)
	if err != nil {
		return err
	}
	defer endWriteObs(w, locked, &err)
	return w.ents.spawnAt(op, id)
}

// AddComponentDistinct gives the live entity id the component c unless it
// has an equal one already, and reports whether it changed anything, as
// [AddDistinct] does through a view: an equal component is left alone and
// no modification is recorded. It returns an [EntityError] for a dead id,
// with changed false, and changes nothing then.
func AddComponentDistinct[T comparable](s Storages, id EntityID, c T) (changed bool, err error) {
	w, locked, err := beginWrite(s)
	if err != nil {
		return false, err
	}
	defer endWriteObs(w, locked, &err)
	if !w.ents.isAlive(id) {
		return false, &EntityError{Op: "AddComponentDistinct", ID: id}
	}
	st := storageFor[T](w)
	if w.fin != nil {
		if err := w.fin.refusesAdd("AddComponentDistinct", id, st); err != nil {
			return false, err
		}
	}
	if p := st.get(id); p != nil && *p == c {
		return false, nil
	}
	if w.eaching != 0 {
		if err := refuseAdd("AddComponentDistinct", false, []EntityID{id}, st); err != nil {
			return false, err
		}
	}
	st.insert(id, c)
	return true, nil
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

// DeleteEntity deletes id and all its components.
// It returns an [EntityError] if id is not alive, and changes nothing then.
func (w *World) DeleteEntity(id EntityID) error { return DeleteEntity(w, id) }

// Strip deletes all of id's components; the entity stays alive.
// It returns an [EntityError] if id is not alive.
func (w *World) Strip(id EntityID) error { return Strip(w, id) }

// DeleteEntity deletes id and all its components. It returns an
// [EntityError] if id is not alive, and changes nothing then.
func DeleteEntity(s Storages, id EntityID) (err error) {
	if a, ok := s.(AllStoragesViewMut); ok {
		return a.DeleteEntity(id)
	}
	w, locked, err := beginWrite(s)
	if err != nil {
		return err
	}
	defer endWriteObs(w, locked, &err)
	return w.deleteEntity(id)
}

// Strip deletes all of id's components; the entity stays alive. It returns
// an [EntityError] if id is not alive.
func Strip(s Storages, id EntityID) (err error) {
	w, locked, err := beginWrite(s)
	if err != nil {
		return err
	}
	defer endWriteObs(w, locked, &err)
	return w.stripEntity(id)
}

// DeleteAny deletes every entity that has a component of type T (with all
// their components) and returns how many it deleted. It is the guide's
// `delete_any`, used to clean up entities flagged with a tag component.
// It works like [DeleteEntities], in one pass per storage, with the ids
// of T's storage taken last first: when they form a run and the entities
// make up every storage they have components in (every holder of T holds
// the same other types, and nothing else holds those), each storage is
// cleared at once, with no look-up per entity. Components of
// type T that no live entity owns (stored under a dead id with
// [ViewMut.AddComponentUnchecked]) go too, with whatever else their dead
// entity left, but are not counted. (Those that
// [EntitiesViewMut.DeleteUnchecked] left behind are gone before it looks:
// every World-level change purges them first.)
//
// Inside [Each1] … [Each8] through an [AllStoragesViewMut], it returns an
// error wrapping [ErrIterating] and deletes nothing: call it after the
// Each, or delete with [AllStoragesViewMut.DeleteEntity] there.
func DeleteAny[T any](s Storages) (_ int, err error) {
	w, locked, err := beginWrite(s)
	if err != nil {
		return 0, err
	}
	defer endWriteObs(w, locked, &err)
	st := storageFor[T](w)
	if w.fin != nil && w.eaching == 0 {
		return w.deleteAnyFinal(st.dense)
	}
	if w.eaching != 0 {
		return 0, &argError{op: "DeleteAny[" + st.name + "]", what: "would delete entities with their components while an Each (Each1 … Each8) through the AllStoragesViewMut walks storages; call it after the Each returns, or delete with DeleteEntity or DeleteEntities inside it", kind: ErrIterating}
	}
	// Kill the entities last first: the order of one-by-one deletion from
	// the end, which leaves the free list such that new entities take the
	// indices of the old ones in their storage order. When they form a
	// run and every storage with components is one the run sweeps
	// (sweepable), no storage needs their ids: each frees the run's
	// entries on its own (sweepRun).
	run := runOf(st.dense)
	n := w.ents.deleteManyLastFirst(st.dense)
	if run.n != 0 {
		if sw, ok := w.sweepAll(len(st.dense)); ok {
			sweepRun(sw, run)
			return n, nil
		}
	}
	// Otherwise copy the ids out (deleting them empties the storage they
	// come from), last first, the order in which tracked storages log
	// their deletions, and delete their components from every storage.
	ids := grow(w.scratch.ids[:0], len(st.dense))[:len(st.dense)]
	for i, id := range st.dense {
		ids[len(ids)-1-i] = id
	}
	w.deleteComponentsIn(ids, run)
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
	defer endWriteObs(w, locked, &err)
	if !w.ents.isAlive(id) {
		return v, false, &EntityError{Op: "Remove", ID: id}
	}
	st := storageFor[T](w)
	if w.eaching != 0 {
		if err := refuseRemove("Remove", st, id); err != nil {
			return v, false, err
		}
	}
	if err := st.keeps("Remove", id); err != nil {
		return v, false, err
	}
	v, ok = st.remove(id)
	return v, ok, nil
}

// DeleteComponent deletes id's component of type T and reports whether there
// was one. err is an [EntityError] when id is not alive.
func DeleteComponent[T any](s Storages, id EntityID) (_ bool, err error) {
	w, locked, err := beginWrite(s)
	if err != nil {
		return false, err
	}
	defer endWriteObs(w, locked, &err)
	if !w.ents.isAlive(id) {
		return false, &EntityError{Op: "DeleteComponent", ID: id}
	}
	st := storageFor[T](w)
	if w.eaching != 0 {
		if err := refuseRemove("DeleteComponent", st, id); err != nil {
			return false, err
		}
	}
	if err := st.keeps("DeleteComponent", id); err != nil {
		return false, err
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
