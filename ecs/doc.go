// Package ecs is Slipway's Entity Component System: entities are ids,
// components are plain Go values stored in one sparse set per type, and
// systems are plain functions whose parameters are views.
//
// This page is organised by task. The user guide in the repository's docs
// directory covers the same ground with runnable examples.
//
// # Worlds and entities
//
// Everything lives in a [World], made by [NewWorld]:
//
//	w := ecs.NewWorld()
//	player, err := ecs.AddEntity2(w, Pos{0, 0}, Vel{1, 0})
//
// An entity is an [EntityID]: an index and a generation. [World.AddEntity]
// creates one with no component, [AddEntity1] … [AddEntity8] create one with
// components, [BulkAddEntity1] … [BulkAddEntity8] create many at once
// from slices, and [BulkNewEntity1] … [BulkNewEntity8] create many with
// their components made in place (zero values, set by a function you
// pass). [World.DeleteEntity] deletes an entity with all its
// components, [World.DeleteEntities] many at once. Its index is reused
// later, with a new generation, so an id kept after the delete is stale:
// every call given it reports [ErrDeadEntity] (or false, for the calls that
// report absence) and never touches the entity that reuses the index. [World.IsAlive] tells whether an id is alive, and
// [NullID] is an id that never is.
//
// # Components and storages
//
// Any Go type is a component: structs, named numbers, empty structs used as
// tags. A type's storage is created the first time the type is used. The
// functions that take a [Storages] (a *World, or an [AllStoragesViewMut]
// inside a system) operate on the world directly:
//
//   - add or replace components: [AddComponent1] … [AddComponent8];
//   - take one out and get it back: [Remove];
//   - delete one: [DeleteComponent]; all of an entity's: [Strip];
//   - read copies: [Get], [Get2] … [Get8]; ask: [Contains];
//   - visit every entity with given components: [Each1] … [Each8];
//   - delete every entity that has a component type: [DeleteAny].
//
// Through a *World, each of these borrows what it needs for the length of
// the call.
//
// The bulk calls do the same for many entities at once, in one pass per
// storage: [BulkAddEntity1] … [BulkAddEntity8], [BulkAddComponent1] …
// [BulkAddComponent8], their in-place forms [BulkNewEntity1] …
// [BulkNewEntity8] and [BulkFillComponent1] … [BulkFillComponent8],
// [BulkDeleteComponent] and [DeleteEntities]. Each
// has the outcome of the one-entity call applied to every id in turn, and
// checks every id before it changes anything: a dead one is reported in a
// [*BulkError] with its position.
//
// # Views and borrowing
//
// A view is access to one storage: [View] and [ViewMut] for components,
// [UniqueView] and [UniqueViewMut] for uniques, [EntitiesView] and
// [EntitiesViewMut] for the entities storage, and [AllStoragesViewMut] for
// everything at once. A storage can be borrowed shared by many views, or
// exclusively by one. A borrow that breaks this rule is a [*BorrowError]
// naming the type and both accesses. It is returned at once, never waited
// for, and never turns into a data race.
//
// Views come from a system run with [World.Run], or from [World.Borrow],
// which fills in view variables and returns the function that releases them:
//
//	var pos ecs.ViewMut[Pos]
//	release, err := w.Borrow(&pos)
//	if err != nil {
//		return err
//	}
//	defer release()
//	pos.MustGet(player).X = 10
//
// Through views: [ViewMut.AddComponent] (checks that the entity is alive
// against an [EntitiesView]), [ViewMut.AddComponentUnchecked],
// [EntitiesViewMut.AddEntity], [ViewMut.Remove], [ViewMut.Delete],
// [View.Get] and the index form [View.MustGet], [View.Len],
// [View.Contains].
//
// # Iterating and joins
//
// A view ranges over its components with [View.All], with their ids with
// [View.WithID], or hands them out as a slice with [View.Slice]. [Join2] …
// [Join8] combine views (shared and exclusive, in any mix). The result visits
// each entity that has all the components, and can be used as a cursor
// ([Iter2.Next]), with range ([Iter2.All], [Iter2.WithID]) or with a
// callback ([Iter2.Each]). [Iter2.Not] leaves out the entities present in
// other views:
//
//	for p, v := range ecs.Join2(pos, vel).All() {
//		p.X += v.X
//	}
//
// The order of iteration is unspecified. Do not add or remove components of
// a type while iterating over it.
//
// # Packed groups
//
// A join looks each entity up in every storage but the one that drives it.
// When one join dominates a frame, declare a packed owning group over its
// types with [AddGroup2] … [AddGroup8]: the entities that have all of them
// are kept at the front of each member's storage, in the same order, so a
// join over exactly those types walks aligned positions with no look-up,
// and [Iter2.Packed] hands out the aligned slices themselves, for a plain
// Go loop:
//
//	_ = ecs.AddGroup2[Pos, Vel](w)
//	_ = w.Run(func(pos ecs.ViewMut[Pos], vel ecs.View[Vel]) {
//		_, ps, vs, ok := ecs.Join2(pos, vel).Packed() // ok: the group is exactly these types
//		for i := range ps {
//			ps[i].X += vs[i].X
//		}
//		_ = ok
//	})
//
// What it costs: each addition or removal of a member's component swaps
// one component per member into or out of the packed range; a type
// belongs to one group only; and a [ViewMut] of one member borrows every
// member exclusively, since changing one member moves the others'
// components (a workload plan names the group as the reason two systems
// do not run side by side). [GroupLen] tells how many entities are
// packed. The guide's Groups chapter (docs/groups.md) measures both
// sides, and says when a group pays.
//
// # Uniques
//
// A unique is a value the world holds once, by type, with no entity: the
// player, a clock, a random source. Add it with [AddUnique], read it with
// [GetUnique], take it out with [RemoveUnique]. Systems use [UniqueView]
// and [UniqueViewMut], or [UniqueOrDefault], [UniqueOrDefaultMut] and
// [UniqueOrInitMut], which add the unique if the world has none.
//
// # Systems
//
// A system is any function whose parameters are views, returning nothing or
// an error:
//
//	func move(pos ecs.ViewMut[Pos], vel ecs.View[Vel]) {
//		for p, v := range ecs.Join2(pos, vel).All() {
//			p.X += v.X
//		}
//	}
//
//	err := w.Run(move)
//
// [World.Run] analyses the parameter list once per function type (with
// reflect, then cached), borrows the views, calls the function and releases
// the views, even if the function panics. A function that is not a system
// gives a [*SystemError] naming the bad parameter. An error the system
// returns comes back wrapped in a [*SystemFailure] with the system's name.
// Closures are systems too, and they are how a system keeps state of its
// own.
//
// # Custom views
//
// A struct whose fields are views is a view too, called a bundle. It borrows
// what its fields borrow. A struct may also implement [BorrowHook] (run once
// its fields are borrowed, it may refuse with an error) and [ReleaseHook]
// (run before they are released), which lets a custom view do set-up and
// tear-down around every system that takes it.
//
// # Errors
//
// Calls that find nothing where something may or may not be report absence
// with a bool: [Contains], [View.Get], [ViewMut.Remove], the ok result of
// [Remove]. Calls that cannot do what was asked return an error wrapping a
// sentinel ([ErrDeadEntity], [ErrMissingComponent], [ErrMissingUnique],
// [ErrBorrowConflict], [ErrInvalidSystem], [ErrInvalidView],
// [ErrLengthMismatch]), with the details in a typed error ([*EntityError],
// [*ComponentError], [*UniqueError], [*BorrowError], [*SystemError]). A call
// that returns an error has changed nothing. Panics are kept for
// programmer errors, such as the index form ([View.MustGet]) on a missing
// component or the use of a released view, and their message says what to
// do.
//
// # Running systems
//
// [World.Run] runs one system now, on the calling goroutine. A workload
// runs many, again and again: build it once with [World.AddWorkload] from
// system functions, [System] specs (a name, labels, ordering, run
// conditions) and nested [Workload] specs, then run it with
// [World.RunWorkload]. Systems that conflict run in the order given; the
// others run in parallel on the world's pool ([World.SetPool]). A
// system's error stops the run and comes back as a [*WorkloadError]
// naming the workload and the system. Several goroutines may run
// workloads at once, the same one too: their systems' borrows keep them
// apart, as they keep any two goroutines apart.
//
// Workloads live in the world, by name: [World.Workloads] lists them.
// [World.WorkloadPlan] returns a workload's [*Plan]: its systems in
// batches, each with the conflict or constraint that keeps it out of an
// earlier batch. Print it, or export it with [Plan.JSON], [Plan.DOT] or
// [Plan.Mermaid]. Timings are kept only while [World.SetTracing] is on,
// which also makes each run a runtime/trace task and labels each system
// for pprof; [World.SystemStats] then returns each system's number of
// runs, last and total time. The guide's workloads and parallelism
// chapters show each of these at work.
//
// # Commands and hooks
//
// A [Commands] view records structural changes (create and delete
// entities, add, remove and delete components, add and remove uniques)
// for the world to apply later: after the system returns for [World.Run],
// and in a workload at an [ApplyCommands] item or at the end of the run.
// It borrows only the entities storage, shared, so systems that record
// run in parallel. [CommandsFor] records the commands of one type;
// [Commands.AddEntity] reserves the new entity's id at once. A command
// that fails when applied comes back as a [*CommandError].
//
// [SetHooks] gives a component type functions called when one of its
// components is inserted, replaced, removed or deleted
// ([ComponentHooks]); [World.SetEntityHooks] does the same for entities
// created and deleted. A hook runs once its change is done and must not
// change the world's structure (a breach panics with a [*HookError]).
//
// # Observers
//
// [Observe] registers a system to run when an event of a type happens: the
// caller's own, raised with [Trigger] or, from a system, [Emit]; or a
// lifecycle event ([Inserted], [Replaced], [Removed], [Deleted],
// [EntityCreated], [EntityDeleted]). An observer reads its event through
// an [Event] view and may change anything a system may. Events wait for
// the world's next sync point: the end of a World-level call, of
// [World.Run] or [Trigger], an [ApplyCommands] item or the end of a
// workload's run. Failures come back as an [*ObserverError], panics as an
// [*ObserverPanic]; chains of events stop at [MaxObserverDepth].
//
// # Finalizers
//
// [SetFinalizer] declares a component type a finalizer (Dynec's finalizer
// components): deleting an entity that holds one marks it [Terminating]
// instead, alive and readable, until its last finalizer is removed; it is
// then deleted at the next sync point. A system finds the entities whose
// clean-up is due by joining View[Terminating] with the finalizer.
//
// # Initializers
//
// [SetInitializer1] … [SetInitializer4] give a component type a function
// that makes it from other components, and [SetDefault] a default value:
// every entity created without the component gets it at the sync point
// after its creation, however it was created. Initializers may read what
// other initializers make; a cycle among them is refused
// ([ErrInitializerCycle]).
//
// # Required components
//
// [Require] declares that a component type requires another: every
// entity given an A gets a B at the next sync point (from a function, B's
// initializer or B's zero value), and removing the B while the A stays is
// refused with a [*RequiredError]. A ViewMut of a required type also
// reads the types that require it, which workload plans take into account.
//
// # Isotopes
//
// An isotope is a component kept under a discriminant, a value of any
// comparable type: an entity may hold one Amount per Element. Each
// discriminant has a storage of its own. [AddIsotope] and
// [RemoveIsotope] work at the World level; in systems, [IsoView] and
// [IsoViewMut] cover every discriminant, [IsoSubView] and
// [IsoSubViewMut] the set an [IsoSet] type lists, so that systems
// writing disjoint sets run in parallel. Their Of method gives an
// ordinary [View] or [ViewMut] of one discriminant, which joins with
// other views. A discriminant outside a partial view's set panics with
// an [*IsotopeError].
//
// # Tracking
//
// A component type can track insertion, modification, deletion and
// removal ([Tracking]): declare it with a Tracking method on the type
// ([Tracker]) or with [TrackComponent]. [View.Inserted], [View.Modified]
// and [View.InsertedOrModified] narrow a view to what changed, as a
// [Changed] view that joins like any other; [View.Deleted] and
// [View.Removed] read the logs. Inside a workload each system sees what
// changed since its own previous run; outside, since the last clear
// ([ViewMut.ClearAllModified] and its siblings). A [ViewMut] marks a
// component modified when it hands it out for writing. Untracked types pay
// nothing.
package ecs
