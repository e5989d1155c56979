package ecs

import (
	"iter"
	"strconv"
)

// AliveChecker tells whether an entity is alive: [EntitiesView],
// [EntitiesViewMut] and [AllStoragesViewMut] are.
type AliveChecker interface {
	IsAlive(id EntityID) bool
}

// EntitiesView is shared access to the entities storage: check that ids are
// alive (for instance before adding a component with
// [ViewMut.AddComponent]) and list the live entities.
//
// An EntitiesView is one word, so that passing it as an [AliveChecker]
// allocates nothing; unlike a View, a copy kept past its release is
// caught only while the view is not borrowed again.
type EntitiesView struct{ c *entitiesCore }

// EntitiesViewMut is exclusive access to the entities storage: everything
// [EntitiesView] does, plus creating entities.
type EntitiesViewMut struct{ c *entitiesCore }

type entitiesCore struct {
	w *World    // nil unless borrowed
	b *borrower // immutable once published: a new borrow that differs takes a new one
}

// ents returns the entities storage c borrows, and panics with
// [ErrReleased], naming the view, if c is released.
func (c *entitiesCore) ents() *entities {
	if c == nil || c.w == nil {
		panic((*releasedEntities)(c))
	}
	return &c.w.ents
}

func (c *entitiesCore) borrow(ctx *borrowCtx, kind accessKind, view string) error {
	if c.b == nil || c.b.by != ctx.by || c.b.kind != kind || c.b.under != ctx.ownsNoAll() {
		c.b = &borrower{kind: kind, view: view, by: ctx.by, under: ctx.ownsNoAll()}
	}
	if err := ctx.lockAll(c.b); err != nil {
		return err
	}
	if err := ctx.w.ents.lock.acquire(c.b, kind.exclusive(), "entities"); err != nil {
		ctx.unlockAll(c.b)
		return err
	}
	c.w = ctx.w
	return nil
}

func (c *entitiesCore) release() {
	if c == nil || c.w == nil {
		return
	}
	c.w.ents.lock.release(c.b, c.b.kind.exclusive())
	c.w.unlockAll(c.b)
	c.w = nil
}

func entitiesAccess(excl bool, view string) Access {
	return Access{Kind: EntitiesStorage, Exclusive: excl, View: view}
}

func (v *EntitiesView) access(a *accessSet) { a.add(entitiesAccess(false, "EntitiesView")) }
func (v *EntitiesViewMut) access(a *accessSet) {
	a.add(entitiesAccess(true, "EntitiesViewMut"))
}

func (v *EntitiesView) borrowView(ctx *borrowCtx) (releaser, error) {
	old := *v
	if v.c == nil || v.c.w != nil { // borrowed already: as View.borrowView
		v.c = &entitiesCore{}
	}
	if err := v.c.borrow(ctx, accEntitiesView, "EntitiesView"); err != nil {
		*v = old
		return nil, err
	}
	return v.c, nil
}

func (v *EntitiesViewMut) borrowView(ctx *borrowCtx) (releaser, error) {
	old := *v
	if v.c == nil || v.c.w != nil { // borrowed already: as View.borrowView
		v.c = &entitiesCore{}
	}
	if err := v.c.borrow(ctx, accEntitiesViewMut, "EntitiesViewMut"); err != nil {
		*v = old
		return nil, err
	}
	// The entities Commands reserved come alive before anything else
	// creates or deletes entities (commands.go).
	ctx.w.ents.settle()
	return v.c, nil
}

// IsAlive reports whether id is a live entity.
func (v EntitiesView) IsAlive(id EntityID) bool { return v.c.ents().isAlive(id) }

// Len returns the number of live entities.
func (v EntitiesView) Len() int { return v.c.ents().live }

// All iterates over the live entities in index order.
func (v EntitiesView) All() iter.Seq[EntityID] { return entitiesAll(v.c) }

// IsAlive reports whether id is a live entity.
func (v EntitiesViewMut) IsAlive(id EntityID) bool { return v.c.ents().isAlive(id) }

// Len returns the number of live entities.
func (v EntitiesViewMut) Len() int { return v.c.ents().live }

// All iterates over the live entities in index order. Do not create
// entities while iterating.
func (v EntitiesViewMut) All() iter.Seq[EntityID] { return entitiesAll(v.c) }

// entitiesAll is All of both entities views. It finds the entities when
// ranged over, so that a sequence kept past the view's release panics.
func entitiesAll(c *entitiesCore) iter.Seq[EntityID] {
	return func(yield func(EntityID) bool) { c.ents().each(yield) }
}

// AddEntity creates an entity with no component. Give it components with
// [ViewMut.AddComponentUnchecked] (or [ViewMut.AddEntity] to do both).
func (v EntitiesViewMut) AddEntity() EntityID { return v.c.ents().create() }

// SpawnAt creates an entity with no component whose id is id, or
// returns a [*SpawnError] and changes nothing: see [World.SpawnAt]. Give
// it components with [ViewMut.AddComponent].
func (v EntitiesViewMut) SpawnAt(id EntityID) error {
	return v.c.ents().spawnAt("EntitiesViewMut.SpawnAt", id)
}

// BulkAddEntity creates n entities with no component and appends their ids
// to dst, which it returns.
//
// Panics if n is negative.
func (v EntitiesViewMut) BulkAddEntity(dst []EntityID, n int) []EntityID {
	if n < 0 {
		panic("ecs: EntitiesViewMut.BulkAddEntity: n is negative (" + strconv.Itoa(n) + "); it is the number of entities to create")
	}
	return v.c.ents().createMany(dst, n)
}

// DeleteUnchecked deletes id from the entities storage only, and reports
// whether it was alive. It is the guide's "Deleting entities you know the
// shape of" tip: delete the entity's components from the storages you
// know it uses (with [ViewMut.Delete]), then call this. The system needs
// no [AllStoragesViewMut], so in a workload it can run beside systems
// that use other storages.
//
// The entity is dead at once: IsAlive reports false, every call that
// checks liveness refuses id, and its index may go to the next entity
// created, with a new generation, so that id never names that entity.
//
// Components of id still in a storage (those not deleted first) stay
// there, under id, until the world next borrows all its storages
// exclusively: at the start of the next World-level change (a call
// through a *World that adds or deletes entities or components, or
// iterates with [Each1] … [Each8], or is [SortAs], [AddGroup2] …
// [AddGroup8], [TrackComponent], [World.MemoryUsage] or
// [World.ShrinkToFit]) once it has its borrow, whatever it then does (an
// id it refuses included), or at the borrow of an [AllStoragesViewMut]
// (by a system, or [World.Borrow]), whichever comes first. There they
// are deleted from every storage, one pass per storage for all the
// entities deleted this way meanwhile, and a type that tracks deletion
// logs them as deleted (with id) at that moment, as [World.DeleteEntity]
// does. [World.Run], [World.RunWorkload], the release of a
// [World.Borrow] and the World-level reads ([Get], [Contains],
// [GroupLen], [World.IsAlive]…) do not purge, not even when the world
// re-aligns storages for a join as they end (see [World.SetAutoAlign]):
// it moves the leftovers with the other components. The end of a Run or
// of a workload does purge when it is a sync point with work to do
// (initializers of new entities, components that [Require] adds, or
// observers borrowing an AllStoragesViewMut): that work is a World-level
// change. So does applying recorded [Commands] (at the end of a Run or a
// workload, or at an [ApplyCommands] item), when at least one command was
// recorded.
//
// Until the purge, iterations ([View.All], [View.WithID], joins,
// [View.ParEach]…) still yield those components under id, and each
// storage's Len counts them; so do the views' look-ups by id
// ([View.Get], [View.Contains], [ViewMut.Delete]…), which read the
// storage alone, while every call that checks liveness ([Get],
// [ViewMut.AddComponent]…) refuses id. A new entity that gets a component
// of the same type before the purge takes the leftover's place in that
// storage (logged as the leftover's deletion where tracked).
func (v EntitiesViewMut) DeleteUnchecked(id EntityID) bool {
	return v.c.ents().deleteUnpurged(id)
}

// errAllStoragesLent is the panic value of a call through an
// AllStoragesViewMut while views borrowed under it are held.
var errAllStoragesLent error = &BorrowError{
	Resource:   allName,
	Access:     "AllStoragesViewMut",
	By:         "a call through it",
	HeldAccess: "views borrowed from it",
	HeldBy:     "AllStoragesViewMut.Borrow, Run or RunValue1 … (release them first)",
}

// errAllStoragesReleased is the panic value of an AllStoragesViewMut used
// outside its borrow.
var errAllStoragesReleased error = released{"AllStoragesViewMut"}

// releasedEntities is the panic value of an entities view used outside
// its borrow, as a *releasedEntities: it names the view by its core's
// borrower, or both kinds if the core is nil (a zero view, never
// borrowed). The conversion of the core's pointer costs nothing, so that
// the accessors stay small enough to inline.
type releasedEntities entitiesCore

func (e *releasedEntities) Error() string {
	if e == nil {
		return released{"EntitiesView (or EntitiesViewMut)"}.Error()
	}
	if e.b == nil {
		return released{"EntitiesView (or EntitiesViewMut)"}.Error()
	}
	return released{e.b.view}.Error()
}

func (e *releasedEntities) Unwrap() error { return ErrReleased }

// AllStoragesViewMut is exclusive access to everything in the world: the
// only way, inside a system, to delete entities from every storage at once.
// Pass it wherever a [Storages] is asked for ([DeleteAny], [DeleteEntity],
// [AddEntity1], [Get]...): those calls then use the access the system
// already holds. A system with an AllStoragesViewMut runs alone.
//
// Inside [Each1] … [Each8] through an AllStoragesViewMut, the function
// given to the Each may make any call through it, and the storages the
// Each walks do not change under the iteration:
//
//   - Deleting entities ([AllStoragesViewMut.DeleteEntity],
//     [AllStoragesViewMut.DeleteEntities], [DeleteEntity],
//     [DeleteEntities]) kills them at once and leaves their components
//     in place until the outermost such Each returns (then the next call
//     through the AllStoragesViewMut, or its release, deletes them). The
//     calls that check liveness refuse the deleted entities meanwhile, and
//     [GroupLen] does not count them; but an iteration (the Each itself,
//     or one nested in it) still hands out an entity deleted before it
//     reaches it, dead (IsAlive tells), with its components.
//   - Reads, uniques, and changes to other storages work as usual.
//   - A change that would add a component to, or remove one from, a
//     storage the Each walks (one of its types, or a type packed in a
//     group with one) returns an error wrapping [ErrIterating] and
//     changes nothing: [AddEntity1] …, [AddComponent1] … and their bulk
//     forms giving an entity a component of such a type that it lacks,
//     [DeleteComponent], [Remove], [BulkDeleteComponent] and [Strip] of
//     an entity that has one, and [SortAs], [AddGroup2] … and
//     [TrackComponent] of such a type. Replacing a component an entity
//     has moves nothing and is allowed. [DeleteAny] is refused too,
//     whatever it would delete.
//
// An AllStoragesViewMut is one word, so that passing it as a [Storages]
// allocates nothing; a copy kept past its release is caught only while
// the view is not borrowed again.
type AllStoragesViewMut struct{ c *allCore }

type allCore struct {
	w *World    // nil unless borrowed
	b *borrower // immutable once published: a new borrow that differs takes a new one
	// lent lists the frames of the views borrowed under the view
	// (AllStoragesViewMut.Borrow, Run, RunValue1 …) and not yet
	// released, in borrow order. While it is not empty, the calls through
	// the view but those panic (see errAllStoragesLent): they take no
	// borrow, so they would change storages under those views.
	lent []*frame
}

// lend records f, a frame borrowed (or being borrowed) under c.
func (c *allCore) lend(f *frame) { c.lent = append(c.lent, f) }

// unlend forgets f, and reports whether c had lent it.
func (c *allCore) unlend(f *frame) bool {
	for i := len(c.lent) - 1; i >= 0; i-- {
		if c.lent[i] == f {
			c.lent = append(c.lent[:i], c.lent[i+1:]...)
			return true
		}
	}
	return false
}

// world returns the world, with the components of the entities deleted so
// far stripped (see AllStoragesViewMut.deleteLater), unless an Each through v runs:
// every function taking a Storages calls it, or beginWrite, which does
// the same.
func (v AllStoragesViewMut) world() (*World, bool) {
	w := v.held()
	w.stripDoomed()
	return w, true
}

// held returns the world as it is, for the calls that do not look at the
// storages.
func (v AllStoragesViewMut) held() *World {
	if v.c == nil || v.c.w == nil {
		panic(errAllStoragesReleased)
	}
	if len(v.c.lent) > 0 {
		panic(errAllStoragesLent)
	}
	return v.c.w
}

// lender returns the world for a borrow under v: [AllStoragesViewMut.Borrow]
// and Run, which may be called while v lends other views.
func (v AllStoragesViewMut) lender() *World {
	if v.c == nil || v.c.w == nil {
		panic(errAllStoragesReleased)
	}
	return v.c.w
}

func (v *AllStoragesViewMut) access(a *accessSet) {
	a.add(Access{Kind: AllStorages, Exclusive: true, View: "AllStoragesViewMut"})
}

func (v *AllStoragesViewMut) borrowView(ctx *borrowCtx) (releaser, error) {
	old := *v
	if v.c == nil || v.c.w != nil { // borrowed already: as View.borrowView
		v.c = &allCore{}
	}
	if v.c.b == nil || v.c.b.by != ctx.by {
		v.c.b = &borrower{kind: accAllStoragesViewMut, view: "AllStoragesViewMut", by: ctx.by}
	}
	if err := ctx.w.allLock.acquire(v.c.b, true, allName); err != nil {
		*v = old
		return nil, err
	}
	v.c.w = ctx.w
	ctx.w.allNow = ctx.w.nextTick() // now that it holds everything
	// Purge what DeleteUnchecked left behind now, with the view's
	// timestamp for tracking, so that nothing the system sees holds it,
	// and bring the entities Commands reserved to life (commands.go).
	// If a hook of the purge panics, the borrow is given back.
	ctx.w.ents.settle()
	ctx.w.stripDoomed()
	if len(ctx.w.hooks.order) != 0 {
		done := false
		defer func() {
			if !done {
				ctx.w.allNow = 0
				ctx.w.allLock.release(v.c.b, true)
				*v = old
			}
		}()
		ctx.w.flushPurge()
		done = true
	}
	return v.c, nil
}

func (c *allCore) release() {
	if c == nil || c.w == nil {
		return
	}
	// Views borrowed under it and not released (a Borrow whose release
	// was not called) go first, the latest first: they hold storages
	// that nothing else could release. A release that panics (a custom
	// view's OnRelease) does not stop the others.
	defer func() {
		if len(c.lent) > 0 {
			c.release()
		}
	}()
	for len(c.lent) > 0 {
		f := c.lent[len(c.lent)-1]
		c.lent = c.lent[:len(c.lent)-1]
		f.release()
	}
	c.w.stripDoomed() // with the view's timestamp, for tracking
	defer c.unlock()  // even if a hook of the purge panics
	c.w.flushPurge()
}

// unlock gives back the all-storages borrow of c.
func (c *allCore) unlock() {
	c.w.allNow = 0
	c.w.allLock.release(c.b, true)
	c.w = nil
}

// AddEntity creates an entity with no component.
func (v AllStoragesViewMut) AddEntity() EntityID {
	w, _ := v.world()
	return w.ents.create()
}

// IsAlive reports whether id is a live entity.
func (v AllStoragesViewMut) IsAlive(id EntityID) bool { return v.held().ents.isAlive(id) }

// DeleteEntity deletes id and all its components, or returns an
// [EntityError] if id is not alive.
//
// The system holds every storage already, so this takes no borrow. The
// entity is dead at once (IsAlive reports false, and its index may be
// reused); its components go the next time anything looks at the storages
// (any call through v, or v's release at the end of the system), all
// those deleted meanwhile together, one pass per storage as in
// [DeleteEntities]. Nothing can tell the difference but the speed:
// deleting entities one at a time in a system costs about what deleting
// them in bulk does. Inside [Each1] … [Each8] through v, the components
// stay until the Each returns, whatever else is called through v (see
// [AllStoragesViewMut]): an entity deleted before the iteration reaches
// it is still handed out, dead.
func (v AllStoragesViewMut) DeleteEntity(id EntityID) error { return v.deleteLater(id) }

// Strip deletes all of id's components, or returns an [EntityError] if id
// is not alive.
func (v AllStoragesViewMut) Strip(id EntityID) error {
	w, _ := v.world()
	return w.stripEntity(id)
}

// coreOf returns the state of a, if a is one of Slipway's entities views,
// or nil: AddComponent then checks liveness with no call.
func coreOf(a AliveChecker) *entitiesCore {
	switch v := a.(type) {
	case EntitiesView:
		return v.c
	case EntitiesViewMut:
		return v.c
	}
	return nil
}

// Borrow borrows views under v, as [World.Borrow] borrows them in the
// world: the Go form of Shipyard's all_storages.borrow. Each argument is
// a pointer to a view variable (or to a custom view) that Borrow fills
// in; it returns a function that releases them all (it may be called more
// than once). v holds every storage exclusively, so the views borrow
// under it: they take only the borrows of what they view, and two of
// them conflict as they would in the world (a ViewMut[T] borrowed while
// another is held gives a [*BorrowError] naming both). Errors are those
// of World.Borrow, and leave nothing borrowed.
//
// While views borrowed from v are held, every other call through v (and
// every function given v as its [Storages]) panics with a [*BorrowError]
// wrapping [ErrBorrowConflict]: those calls take no borrow, so they could
// change a storage under the views. Views still held when v is released
// (at the end of its system, or at the release of its World.Borrow) are
// released first, also if the system panics.
//
// Panics if v is released.
func (v AllStoragesViewMut) Borrow(views ...any) (release func(), err error) {
	w := v.lender()
	c := v.c
	f, err := borrowFrame(w, c, "AllStoragesViewMut.Borrow", views)
	if err != nil {
		return nil, err
	}
	c.lend(f)
	return func() {
		if c.unlend(f) {
			f.release()
		}
	}, nil
}

// Run runs system now under v, as [World.Run] runs it in the world: the
// Go form of Shipyard's all_storages.run. Its views borrow under v (see
// [AllStoragesViewMut.Borrow]): they conflict with views borrowed from v
// and still held, and a system that takes an AllStoragesViewMut itself
// cannot be borrowed (a [*BorrowError]). The views are released when the
// system returns, also if it panics; the errors are World.Run's. While
// the system runs, calls through v panic, as they do while v lends views.
//
// Panics if v is released.
func (v AllStoragesViewMut) Run(system any) error {
	return runSystem(v.lender(), v.c, system)
}

// Entities iterates over the live entities in index order, as
// [EntitiesView.All] does. Do not create or delete entities while
// iterating.
//
// Panics if v is released, or lends views (see [AllStoragesViewMut.Borrow]),
// also when the iteration starts.
func (v AllStoragesViewMut) Entities() iter.Seq[EntityID] {
	v.held()
	return func(yield func(EntityID) bool) { v.held().ents.each(yield) }
}
