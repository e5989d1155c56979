package ecs

import "errors"

// Lifecycle hooks: functions the world calls when a component of a type
// is inserted, replaced, removed or deleted, and when an entity is created
// or deleted (SetHooks, SetEntityHooks).
//
// A storage with hooks has a tracker (tracker.go) even when its type
// tracks nothing: the hooks ride the branches every insertion and removal
// already takes for tracking (s.track != nil), so a type with no hooks
// and no tracking pays nothing more. The tracker's hooks field says
// whether there are hooks; its kinds still say what is tracked.
//
// When hooks run: a hook runs once the change that triggered it is done,
// on the goroutine that made it, before the call that made it returns.
// Changes made through views (inside systems, or views from World.Borrow)
// run their hooks at once, each after its own change. World-level changes
// (the functions taking a Storages, through a *World or an
// AllStoragesViewMut) may change many components in one call: their hooks
// are queued, in the order of the changes, and run when the call ends,
// while the call still holds the world (hookSink counts the calls under
// way, and its flush runs the queue). So a hook never sees a storage
// halfway through a change, and a hook that panics leaves every storage
// whole.

// ComponentHooks are the lifecycle hooks of a component type: functions
// the world calls when a component of type T arrives or leaves. Set them
// with [SetHooks]; a nil field is no hook.
//
// Every hook gets the entity. OnInsert and OnReplace get a pointer to the
// component in its storage, valid only until the hook returns (or to a
// copy, if a World-level call that queued the hook removed the component
// again before the hook ran); OnRemove and OnDelete get the component's
// value, which has left the storage.
//
// What triggers each hook:
//
//   - OnInsert: a component added to an entity that had none of type T, by
//     any means: [AddComponent1] …, [ViewMut.AddComponent], bulk additions,
//     [BulkNewEntity1] … (after fill has set the components), a component
//     put over a dead entity's leftover (which first counts as the
//     leftover's deletion).
//   - OnReplace: a component added to an entity that had one already,
//     which it overwrites; old is the value overwritten. Writes through a
//     pointer ([ViewMut.Get], joins) are not replacements: Go cannot see
//     them (use modification tracking for those).
//   - OnRemove: a component taken out and handed back to the caller:
//     [Remove], [ViewMut.Remove], [ViewMut.Drain].
//   - OnDelete: a component destroyed: [DeleteComponent],
//     [ViewMut.Delete], [ViewMut.Retain], [ViewMut.Clear], the deletion of
//     its entity ([World.DeleteEntity], [DeleteAny], bulk deletions,
//     [World.Strip], the purge after [EntitiesViewMut.DeleteUnchecked]).
//
// # What a hook may do
//
// A hook runs while the change that triggered it holds what it borrowed:
// through the World, the whole world; in a system, the system's views. A
// hook may read and write the component it is given, and anything outside
// the world (its own variables, a channel, a log). It must not change the
// world's structure: no entity created or deleted, no component added or
// removed. Calls to the World from a hook fail with a [*BorrowError] (the
// world, or the hooked storage, is held by the change that runs the
// hook), and a hook that adds or removes components of its own type
// through a view it captured panics with a [*HookError] when it returns.
// To react to a change with structural changes, record them from the
// system that made the change, or in a later system.
//
// Hooks cost nothing to types without them: a type that tracks nothing
// and has no hooks takes the same paths as before hooks existed. A type
// with hooks takes the paths of a tracked type (no identity prefix, no
// bulk fast paths), plus the calls.
type ComponentHooks[T any] struct {
	OnInsert  func(id EntityID, c *T)
	OnReplace func(id EntityID, old T, c *T)
	OnRemove  func(id EntityID, c T)
	OnDelete  func(id EntityID, c T)
}

// none reports whether h has no hook at all.
func (h *ComponentHooks[T]) none() bool {
	return h.OnInsert == nil && h.OnReplace == nil && h.OnRemove == nil && h.OnDelete == nil
}

// EntityHooks are the hooks the world calls when an entity is created or
// deleted. Set them with [World.SetEntityHooks]; a nil field is no hook.
//
// OnCreate runs for every entity created: [World.AddEntity],
// [AddEntity1] …, [World.SpawnAt], [EntitiesViewMut.AddEntity], bulk
// creations. OnDelete runs for every entity deleted, once it is dead:
// [World.DeleteEntity], [DeleteAny], bulk deletions,
// [EntitiesViewMut.DeleteUnchecked], [AllStoragesViewMut.DeleteEntity].
// The entity's components are still in their storages when OnDelete runs
// through a view (they are purged later, see
// [EntitiesViewMut.DeleteUnchecked]); through a World-level call, their
// own OnDelete hooks run right after the entity's.
//
// They follow the rules of [ComponentHooks]: they run when the change is
// done, must not change the world's structure, and an entity hook that
// creates or deletes entities through a view it captured panics with a
// [*HookError].
type EntityHooks struct {
	OnCreate func(id EntityID)
	OnDelete func(id EntityID)
}

// ErrHookChange is wrapped by the [*HookError] a hook panics with when it
// changed the world's structure.
var ErrHookChange = errors.New("hook changed the world's structure")

// HookError is the panic value of a hook that changed the world's
// structure, which hooks must not do (see [ComponentHooks]): Hook names
// the hook ("OnInsert", "OnDelete"…), Type the component type (or
// "entities" for an [EntityHooks] hook), ID the entity the hook was given.
// It wraps [ErrHookChange].
type HookError struct {
	Hook string
	Type string
	ID   EntityID
}

func (e *HookError) Error() string {
	what := "added or removed " + e.Type + " components"
	if e.Type == "entities" {
		what = "created or deleted entities"
	}
	return "ecs: the " + e.Hook + " hook of " + e.Type + " (given " + e.ID.String() + ") " + what +
		"; hooks must not change the world's structure"
}

// Unwrap returns [ErrHookChange].
func (e *HookError) Unwrap() error { return ErrHookChange }

// SetHooks sets the lifecycle hooks of component type T in w, replacing
// any set before; zero ComponentHooks remove them. They apply from the
// next change on (changes already queued by a World-level call under way
// run the hooks set when they run).
//
// It borrows the world as World-level changes do, so it fails with a
// [*BorrowError] while a system or view holds any storage, and with an
// error wrapping [ErrNilWorld] for a nil world.
func SetHooks[T any](w *World, h ComponentHooks[T]) error {
	w, locked, err := beginWrite(w)
	if err != nil {
		return err
	}
	defer endWrite(w, locked)
	storageFor[T](w).setHooks(w, h)
	return nil
}

// SetEntityHooks sets the entity hooks of w, replacing any set before;
// zero EntityHooks remove them. It borrows the world as [SetHooks] does.
func (w *World) SetEntityHooks(h EntityHooks) error {
	w, locked, err := beginWrite(w)
	if err != nil {
		return err
	}
	defer endWrite(w, locked)
	if h.OnCreate == nil && h.OnDelete == nil && w.ents.observed == 0 && !w.ents.initing {
		w.ents.hooks = nil
		return nil
	}
	w.ents.hooks = &h
	w.ents.sink = &w.hooks
	return nil
}

// setHooks gives s the hooks h (none, if h has none). A storage with
// hooks has a tracker, which keeps no identity prefix.
func (s *sparseSet[T]) setHooks(w *World, h ComponentHooks[T]) {
	if h.none() {
		if s.track != nil && s.track.observed != 0 {
			s.track.hooks = &h // observers keep the storage hooked
		} else if s.track != nil {
			s.track.hooks = nil
			if s.track.kinds == 0 && len(s.track.queue) == 0 {
				s.track = nil
			}
		}
		return
	}
	if s.track == nil {
		s.cutIdent(0)
		s.track = &tracker[T]{stamps: stamps{clk: &w.clock}}
	}
	s.track.hooks = &h
	s.track.sink = &w.hooks
}

// hookKind is the change a queued hook call stands for.
type hookKind uint8

const (
	hookInsert hookKind = iota
	hookReplace
	hookRemove
	hookDelete
	// hookRequires is no hook call: its bit in a tracker's observed says
	// that the type requires others, whose fill its insertions queue
	// (requirements.go).
	hookRequires
)

var hookNames = [...]string{hookInsert: "OnInsert", hookReplace: "OnReplace", hookRemove: "OnRemove", hookDelete: "OnDelete"}

// hookEvent is a change a hook is told of: v is the value removed or
// deleted, or the old value replaced; for a queued insertion or
// replacement, now is the component as it was then, which the hook gets
// if the component is gone by the time it runs.
type hookEvent[T any] struct {
	kind hookKind
	id   EntityID
	v    T
	now  T
}

// hookQueue is a queue of hook calls: a storage's, or the entities'.
// hookSink.order lists them once per call queued, in the order queued.
type hookQueue interface {
	fireNext()
	dropNext()
}

// hooks returns s's hooks, or nil.
func (s *sparseSet[T]) hooks() *ComponentHooks[T] {
	if t := s.track; t != nil {
		return t.hooks
	}
	return nil
}

// hook tells s's hooks of a change: at once, or, under a World-level
// change, queued until it ends. v is the value that left (or the old
// value replaced); nil for an insertion. The caller checked s.hooks().
//
//go:noinline
func (s *sparseSet[T]) hook(k hookKind, id EntityID, v *T) {
	t := s.track
	e := hookEvent[T]{kind: k, id: id}
	if v != nil {
		e.v = *v
	}
	if t.sink.writing > 0 {
		if k == hookInsert || k == hookReplace {
			e.now = *s.get(id)
		}
		t.queue = append(t.queue, e)
		t.sink.order = append(t.sink.order, s)
		return
	}
	s.fire(&e)
}

// fire calls the hook of e, if s has it, and panics with a *HookError if
// the hook added or removed components of s's type.
func (s *sparseSet[T]) fire(e *hookEvent[T]) {
	h := s.hooks()
	if h == nil {
		return
	}
	before := s.layoutNow()
	switch e.kind {
	case hookInsert:
		if h.OnInsert != nil {
			h.OnInsert(e.id, s.current(e))
		}
	case hookReplace:
		if h.OnReplace != nil {
			h.OnReplace(e.id, e.v, s.current(e))
		}
	case hookRemove:
		if h.OnRemove != nil {
			h.OnRemove(e.id, e.v)
		}
	case hookDelete:
		if h.OnDelete != nil {
			h.OnDelete(e.id, e.v)
		}
	}
	if s.layoutNow() != before {
		panic(&HookError{Hook: hookNames[e.kind], Type: s.name, ID: e.id})
	}
	if s.track.observed != 0 {
		s.raise(e)
	}
}

// current returns the component an insertion or replacement e told of:
// in the storage, or, if a queued e's component left before its hook ran
// (later in the same World-level change), the copy e kept.
func (s *sparseSet[T]) current(e *hookEvent[T]) *T {
	if c := s.get(e.id); c != nil {
		return c
	}
	return &e.now
}

// fireNext runs the first hook call in s's queue.
func (s *sparseSet[T]) fireNext() {
	e := s.track.pop()
	s.fire(&e)
}

// dropNext drops the first hook call in s's queue.
func (s *sparseSet[T]) dropNext() { s.track.pop() }

// pop takes the first event out of t's queue.
func (t *tracker[T]) pop() hookEvent[T] {
	e := t.queue[t.qhead]
	t.qhead++
	if t.qhead == len(t.queue) {
		clear(t.queue)
		t.queue, t.qhead = t.queue[:0], 0
	}
	return e
}

// hookAll tells s's hooks of the change k of each of ids, whose values
// (for a removal or deletion) are vals.
func (s *sparseSet[T]) hookAll(k hookKind, ids []EntityID, vals []T) {
	for i, id := range ids {
		var v *T
		if vals != nil {
			v = &vals[i]
		}
		s.hook(k, id, v)
	}
}

// entEvent is an entity hook call: a creation, or a deletion.
type entEvent struct {
	id      EntityID
	created bool
}

// hooked tells the entity hooks of the creation (or deletion) of id: at
// once, or queued under a World-level change. The caller checked
// e.hooks.
//
//go:noinline
func (e *entities) hooked(id EntityID, created bool) {
	if e.initing {
		if created {
			e.fresh = append(e.fresh, id)
			e.notePending()
		}
		if e.quiet() {
			return
		}
	}
	ev := entEvent{id: id, created: created}
	if e.sink.writing > 0 {
		e.queue = append(e.queue, ev)
		e.sink.order = append(e.sink.order, e)
		return
	}
	e.fire(ev)
}

// hookedAll is hooked for each of ids.
func (e *entities) hookedAll(ids []EntityID, created bool) {
	if e.initing && e.quiet() {
		if created {
			e.fresh = append(e.fresh, ids...)
			e.notePending()
		}
		return
	}
	for _, id := range ids {
		e.hooked(id, created)
	}
}

// fire calls the entity hook of ev, if there is one, and panics with a
// *HookError if it created or deleted entities.
func (e *entities) fire(ev entEvent) {
	h := e.hooks
	if h == nil {
		return
	}
	before := e.shape()
	name := "OnDelete"
	if ev.created {
		name = "OnCreate"
		if h.OnCreate != nil {
			h.OnCreate(ev.id)
		}
	} else if h.OnDelete != nil {
		h.OnDelete(ev.id)
	}
	if e.shape() != before {
		panic(&HookError{Hook: name, Type: "entities", ID: ev.id})
	}
	if e.observed != 0 {
		e.raise(ev)
	}
}

// entShape is what changes when entities are created or deleted.
type entShape struct{ slots, free, live, unpurged int }

func (e *entities) shape() entShape {
	return entShape{len(e.slots), len(e.free), e.live, len(e.unpurged)}
}

func (e *entities) fireNext() {
	ev := e.queue[e.qhead]
	e.qhead++
	if e.qhead == len(e.queue) {
		e.queue, e.qhead = e.queue[:0], 0
	}
	e.fire(ev)
}

func (e *entities) dropNext() {
	e.qhead++
	if e.qhead == len(e.queue) {
		e.queue, e.qhead = e.queue[:0], 0
	}
}

// hookSink is a world's count of the World-level changes under way, and
// the hook calls they queued (World.hooks): while writing is above zero,
// the hooks of storages and of the entities queue their calls, and order
// lists the queues once per call, in the order made. The world runs them
// with flush as the outermost change ends. Only the holder of the
// exclusive all-storages borrow changes it.
type hookSink struct {
	writing int
	order   []hookQueue
	obs     *observers // the world's, where lifecycle events go
}

// flush runs the hook calls queued, in the order queued. If one panics,
// the rest are dropped and the panic goes on.
func (k *hookSink) flush() {
	i := 0
	defer func() {
		if i < len(k.order) { // a hook panicked
			for j := i; j < len(k.order); j++ {
				k.order[j].dropNext()
			}
		}
		clear(k.order)
		k.order = k.order[:0]
	}()
	for i < len(k.order) {
		q := k.order[i]
		i++
		q.fireNext()
	}
}
