package ecs

import (
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// Observers: systems the world runs when an event happens, registered for
// one event type with Observe. Events are the user's own (Trigger, Emit)
// or lifecycle events (Inserted, Replaced, Removed, Deleted,
// EntityCreated, EntityDeleted), which the hooks machinery (hooks.go)
// raises for the storages and the entities that have observers.
//
// Events wait in the world's queue (observers.queue, under a mutex: the
// systems of a workload raise them from several goroutines) until a sync
// point, where the world is free and observers.drain runs them: for each
// event in the order raised, each of its observers in registration order,
// as World.Run runs a system. Sync points: the end of World.Run, of a
// World-level change through a *World, of Trigger; in a workload, the
// ApplyCommands items and the end of the run. An observer's own events
// (raised by its changes, or emitted through its Commands) are one level
// deeper than the event it handles, and join the queue; a drain that
// reaches an event deeper than MaxObserverDepth stops with an error.

// MaxObserverDepth is how deep events may nest: an event raised by an
// observer of an event raised by an observer ... of an event raised
// outside observers has a depth of one more per observer in the chain,
// counted from 0. An event deeper than MaxObserverDepth is not delivered:
// the sync point that reaches it returns an [*ObserverError] wrapping
// [ErrObserverDepth] and drops the events still queued.
const MaxObserverDepth = 16

// ErrObserverDepth: events raised by observers nested deeper than
// [MaxObserverDepth], most likely a cycle (an observer of E that raises
// E). See [ObserverError].
var ErrObserverDepth = errors.New("observer events nested too deep")

// Inserted is the event of a component of type T added to an entity that
// had none: its observers run after the change, at the next sync point
// (see [Observe]); read the component through a view. It is raised
// wherever the OnInsert hook would be called (see [ComponentHooks]).
type Inserted[T any] struct{ ID EntityID }

// Replaced is the event of a component of type T added to an entity that
// had one, which it overwrote: Old is the value overwritten. It is raised
// wherever the OnReplace hook would be called.
type Replaced[T any] struct {
	ID  EntityID
	Old T
}

// Removed is the event of a component of type T taken out of an entity
// and handed back to the caller ([Remove], [ViewMut.Remove],
// [ViewMut.Drain]); Value is the component. It is raised wherever the
// OnRemove hook would be called.
type Removed[T any] struct {
	ID    EntityID
	Value T
}

// Deleted is the event of a component of type T destroyed: deleted on its
// own, or with its entity; Value is the component. It is raised wherever
// the OnDelete hook would be called.
type Deleted[T any] struct {
	ID    EntityID
	Value T
}

// EntityCreated is the event of an entity created, by any means (reserved
// ids of [Commands.AddEntity] included, when they become live).
type EntityCreated struct{ ID EntityID }

// EntityDeleted is the event of an entity deleted, by any means. Its
// components' [Deleted] events come with it.
type EntityDeleted struct{ ID EntityID }

// lifecycleEvent is implemented by the lifecycle event types: observe
// makes w raise the event, under the world's exclusive borrow.
type lifecycleEvent interface {
	observe(w *World)
}

func (Inserted[T]) observe(w *World)   { storageFor[T](w).observe(w, hookInsert) }
func (Replaced[T]) observe(w *World)   { storageFor[T](w).observe(w, hookReplace) }
func (Removed[T]) observe(w *World)    { storageFor[T](w).observe(w, hookRemove) }
func (Deleted[T]) observe(w *World)    { storageFor[T](w).observe(w, hookDelete) }
func (EntityCreated) observe(w *World) { w.ents.observe(w, true) }
func (EntityDeleted) observe(w *World) { w.ents.observe(w, false) }

// observe makes s raise the lifecycle event of kind k: s gets hooks (an
// empty set if it had none), and the bit of k.
func (s *sparseSet[T]) observe(w *World, k hookKind) {
	if s.track == nil {
		s.cutIdent(0)
		s.track = &tracker[T]{stamps: stamps{clk: &w.clock}}
	}
	if s.track.hooks == nil {
		s.track.hooks = &ComponentHooks[T]{}
		s.track.sink = &w.hooks
	}
	s.track.observed |= 1 << k
}

// observe makes e raise EntityCreated (or EntityDeleted) events.
func (e *entities) observe(w *World, created bool) {
	if e.hooks == nil {
		e.hooks = &EntityHooks{}
		e.sink = &w.hooks
	}
	if created {
		e.observed |= 1
	} else {
		e.observed |= 2
	}
}

// raise queues the lifecycle event of e, if s's observers want it.
func (s *sparseSet[T]) raise(e *hookEvent[T]) {
	t := s.track
	if e.kind == hookInsert && t.observed&(1<<hookRequires) != 0 {
		t.sink.obs.noteRequired(s, e.id)
	}
	if t.observed&(1<<e.kind) == 0 {
		return
	}
	var ev any
	switch e.kind {
	case hookInsert:
		ev = Inserted[T]{ID: e.id}
	case hookReplace:
		ev = Replaced[T]{ID: e.id, Old: e.v}
	case hookRemove:
		ev = Removed[T]{ID: e.id, Value: e.v}
	default:
		ev = Deleted[T]{ID: e.id, Value: e.v}
	}
	t.sink.obs.push(reflect.TypeOf(ev), ev)
}

// raise queues EntityCreated or EntityDeleted for ev, if wanted.
func (e *entities) raise(ev entEvent) {
	switch {
	case ev.created && e.observed&1 != 0:
		e.sink.obs.push(reflect.TypeFor[EntityCreated](), EntityCreated{ID: ev.id})
	case !ev.created && e.observed&2 != 0:
		e.sink.obs.push(reflect.TypeFor[EntityDeleted](), EntityDeleted{ID: ev.id})
	}
}

// observers is a world's observers and its queue of events.
type observers struct {
	mu     sync.Mutex
	byType map[typeKey][]*observer // in registration order
	queue  []queuedEvent
	head   int
	// pending is len(queue)-head, read without the mutex by the sync
	// points, which drain only when it is above zero.
	pending atomic.Int64
	// draining is set while a drain runs (under mu): a sync point
	// reached meanwhile (the end of an observer's run, a Trigger from an
	// observer) leaves the queue to it. depth is the depth of the event
	// whose observers run, 0 when none.
	draining bool
	depth    int
	// required is the insertions of requirers' components (see
	// Require) waiting for the components they require, in order. While
	// it is not empty, pending counts it as one event.
	required []requiredItem
}

// requiredItem is an insertion of a component of the storage a, which
// requires other components, into the entity id.
type requiredItem struct {
	a  storage
	id EntityID
}

// noteRequired queues the insertion of id's component of a for the
// requirements' fill at the next sync point.
func (o *observers) noteRequired(a storage, id EntityID) {
	o.mu.Lock()
	if len(o.required) == 0 {
		o.pending.Add(1)
	}
	o.required = append(o.required, requiredItem{a: a, id: id})
	o.mu.Unlock()
}

// putRequired puts items back in front of the queued insertions.
func (o *observers) putRequired(items []requiredItem) {
	o.mu.Lock()
	if len(o.required) == 0 {
		o.pending.Add(1)
	}
	o.required = append(items, o.required...)
	o.mu.Unlock()
}

// observer is a registered observer: a system and its analysis.
type observer struct {
	info *runInfo
	fn   callee
}

// queuedEvent is an event waiting for its observers.
type queuedEvent struct {
	key   typeKey
	ev    any
	depth int
	from  int // how many of its observers ran already (see drain)
}

// push queues ev, of type key, one level deeper than the event whose
// observers run (if any).
func (o *observers) push(key typeKey, ev any) {
	o.mu.Lock()
	d := 0
	if o.draining {
		d = o.depth + 1
	}
	o.queue = append(o.queue, queuedEvent{key: key, ev: ev, depth: d})
	o.pending.Add(1)
	o.mu.Unlock()
}

// next takes the next work out of the queue: the queued insertions of
// requirers (items), which come first, or else the next event, marked as
// the one whose observers run.
func (o *observers) next() (_ queuedEvent, _ []*observer, items []requiredItem, ok bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if items = o.required; len(items) > 0 {
		o.required = nil
		o.pending.Add(-1)
		return queuedEvent{}, nil, items, true
	}
	if o.head == len(o.queue) {
		return queuedEvent{}, nil, nil, false
	}
	e := o.queue[o.head]
	o.queue[o.head] = queuedEvent{}
	o.head++
	o.pending.Add(-1)
	if o.head == len(o.queue) {
		o.queue, o.head = o.queue[:0], 0
	}
	o.depth = e.depth
	return e, o.byType[e.key], nil, true
}

// putBack puts e back at the front of the queue, and ends the drain.
func (o *observers) putBack(e queuedEvent) {
	o.mu.Lock()
	if o.head > 0 {
		o.head--
		o.queue[o.head] = e
	} else {
		o.queue = append(o.queue, queuedEvent{})
		copy(o.queue[1:], o.queue)
		o.queue[0] = e
	}
	o.pending.Add(1)
	o.draining, o.depth = false, 0
	o.mu.Unlock()
}

// stop ends the drain, leaving the queue for the next one.
func (o *observers) stop() {
	o.mu.Lock()
	o.draining, o.depth = false, 0
	o.mu.Unlock()
}

// dropAll empties the queue and ends the drain.
func (o *observers) dropAll() {
	o.mu.Lock()
	clear(o.queue)
	o.queue, o.head = o.queue[:0], 0
	o.required = nil
	o.pending.Store(0)
	o.draining, o.depth = false, 0
	o.mu.Unlock()
}

// runObservers is a sync point of w: it runs the observers of the events
// queued, if any, unless a drain is under way (which will). It returns
// the first observer failure as an *ObserverError, and panics with an
// *ObserverPanic if an observer panics; either way the events not handled
// yet stay queued for the next sync point (see drain).
func (w *World) runObservers() error {
	o := &w.obs
	if o.pending.Load() == 0 {
		return nil
	}
	o.mu.Lock()
	if o.draining {
		o.mu.Unlock()
		return nil
	}
	o.draining = true
	o.mu.Unlock()
	return w.drain()
}

// drain runs the queue's events, as runObservers says. When an observer
// fails, its event goes back to the front of the queue with the observers
// still to run: the one that failed, if it could not borrow its views
// (another goroutine holds them: it was not called), or those after it.
// Only an event nested too deep empties the queue, to end the loop.
func (w *World) drain() (err error) {
	o := &w.obs
	var cur queuedEvent
	var by *observer
	done := false
	defer func() {
		if done {
			return
		}
		cur.from++ // the observer that panicked ran
		if list := w.obs.list(cur.key); cur.from < len(list) {
			o.putBack(cur)
		} else {
			o.stop()
		}
		if r := recover(); r != nil {
			if p, ok := r.(*ObserverPanic); ok && by == nil { // from fillRequired
				panic(p)
			}
			name := ""
			if by != nil {
				name = by.info.name
			}
			panic(&ObserverPanic{Observer: name, Event: typeName(cur.key), Value: r, Stack: debug.Stack()})
		}
	}()
	for {
		e, list, items, ok := o.next()
		if !ok {
			break
		}
		if items != nil {
			cur, by = queuedEvent{}, nil
			if err := w.fillRequired(items); err != nil {
				done = true
				o.stop()
				return err
			}
			continue
		}
		cur = e
		if e.depth > MaxObserverDepth {
			done = true
			o.dropAll()
			return &ObserverError{Event: typeName(e.key), Depth: e.depth, Err: ErrObserverDepth}
		}
		for ; cur.from < len(list); cur.from++ {
			ob := list[cur.from]
			by = ob
			if err := runIn(w, nil, ob.info, ob.fn, e.ev); err != nil {
				var f *SystemFailure
				if errors.As(err, &f) && f.System == ob.info.name {
					err = f.Err
					if !f.unborrowed {
						cur.from++
					}
				} else {
					cur.from++
				}
				done = true
				if cur.from < len(list) {
					o.putBack(cur)
				} else {
					o.stop()
				}
				return &ObserverError{Observer: ob.info.name, Event: typeName(e.key), Depth: e.depth, Err: err}
			}
		}
	}
	done = true
	o.stop()
	if o.pending.Load() != 0 { // raised after the last next, by another goroutine
		return w.runObservers()
	}
	return nil
}

// list returns the observers of the event type key.
func (o *observers) list(key typeKey) []*observer {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.byType[key]
}

// ObserverError is the failure of an observer, or of a chain of events
// nested too deep: it names the observer ("" for the depth limit), the
// event's type and its depth (see [MaxObserverDepth]), and wraps the
// observer's error (its own, or the [*BorrowError] of a view it could not
// borrow), or [ErrObserverDepth].
type ObserverError struct {
	Observer string
	Event    string
	Depth    int
	Err      error
}

func (e *ObserverError) Error() string {
	if e.Observer == "" {
		return fmt.Sprintf("ecs: event %s at depth %d: %v", e.Event, e.Depth, e.Err)
	}
	return fmt.Sprintf("ecs: observer %s of event %s: %s", e.Observer, e.Event, causeText(e.Err, e.Observer))
}

// Unwrap returns the cause.
func (e *ObserverError) Unwrap() error { return e.Err }

// ObserverPanic is the value re-panicked when an observer panics: it names
// the observer and the event's type, and carries the panic value and the
// stack where it happened. The observer's borrows are released by then;
// the event's later observers and the events still queued wait for the
// next sync point.
type ObserverPanic struct {
	Observer string
	Event    string
	Value    any
	Stack    []byte
}

func (p *ObserverPanic) Error() string {
	return fmt.Sprintf("ecs: observer %s of event %s panicked: %v\n\n%s", p.Observer, p.Event, p.Value, p.Stack)
}

// Unwrap returns the panic value if it is an error.
func (p *ObserverPanic) Unwrap() error { return panicError(p.Value) }

// Observe registers system (a function whose parameters are
// views, as for [World.Run], or a [*TypedSystem]), to run for every event
// of type E. It may take an [Event][E] view to read the event.
//
// Events are the caller's own, raised with [Trigger] or [Emit], or the
// lifecycle events [Inserted], [Replaced], [Removed] and [Deleted] of a
// component type, and [EntityCreated] and [EntityDeleted]: observing one
// makes the world raise it from then on, wherever the matching hook
// ([ComponentHooks], [EntityHooks]) would be called.
//
// # When observers run
//
// An event waits until the next sync point, where no system runs and the
// world is free: the end of the World-level call that raised it through a
// *World (AddComponent1, DeleteEntity, ...), of [World.Run], of [Trigger];
// in a workload, the next [ApplyCommands] item, or the end of the run.
// There, each event is handled in the order raised, and each of its
// observers runs in registration order, as World.Run runs a system:
// borrow-checked, its [Commands] applied when it returns. An observer's
// own changes and emitted events are handled after those already
// waiting, at a depth one more than its event's, up to
// [MaxObserverDepth].
//
// An observer's error (its own, or the failure to borrow its views) stops
// the sync point, which returns an [*ObserverError] naming the observer
// and the event; a panic goes on as an [*ObserverPanic] naming both.
// Where the sync point is the end of a World-level call, the call returns
// the error; in a workload, the run does. Nothing is lost: the event's
// later observers, and the events still waiting, are handled at the next
// sync point, and an observer that could not borrow its views (another
// goroutine held them) is not called, and is tried again there.
//
// Observe fails with a [*SystemError] for a function that is not a
// system, and with a [*BorrowError] while anything in w is borrowed (it
// borrows w as World-level changes do). Observers cannot be removed.
func Observe[E any](w *World, system any) error {
	if w == nil {
		return errNilWorld
	}
	in := runInfoOf(system)
	if in.err != nil {
		return in.err
	}
	if err := checkEventParams(system, in.name, keyFor[E]()); err != nil {
		return err
	}
	wr, locked, err := beginWrite(w)
	if err != nil {
		return err
	}
	defer endWrite(wr, locked)
	var z E
	if l, ok := any(z).(lifecycleEvent); ok {
		l.observe(w)
	}
	w.obs.add(keyFor[E](), in, system)
	return nil
}

// add registers system, analysed as in, as an observer of the events of
// type k.
func (o *observers) add(k typeKey, in *runInfo, system any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.byType == nil {
		o.byType = map[typeKey][]*observer{}
	}
	o.byType[k] = append(o.byType[k], &observer{info: in, fn: calleeOf(system)})
}

// eventParam is implemented by *Event[E]: eventKey returns E's key.
type eventParam interface{ eventKey() typeKey }

func (*Event[E]) eventKey() typeKey { return keyFor[E]() }

var eventParamType = reflect.TypeFor[eventParam]()

// checkEventParams returns a *SystemError if system, registered as an
// observer of the event type want, takes an Event view of another type:
// it could never be borrowed.
func checkEventParams(system any, name string, want typeKey) error {
	if ts, ok := system.(*TypedSystem); ok {
		system = ts.fn
	}
	t := reflect.TypeOf(system)
	for i := range t.NumIn() {
		p := t.In(i)
		if !reflect.PointerTo(p).Implements(eventParamType) {
			continue
		}
		if got := reflect.New(p).Interface().(eventParam).eventKey(); got != want {
			return &SystemError{System: name, Param: i + 1, Type: typeName(p), Reason: "is an Event of " + typeName(got) + ", but the system observes " + typeName(want), kind: ErrInvalidSystem}
		}
	}
	return nil
}

// Trigger raises the event ev and handles it at once, with every event
// waiting before it and every event its observers raise: it is a sync
// point (see [Observe]). It returns what the observers returned, as an
// [*ObserverError]. Called from an observer, or while another goroutine
// is at a sync point of w, it only queues ev, to be handled by the sync
// point under way (which gets the errors). An event no observer watches
// is dropped.
func Trigger[E any](w *World, ev E) error {
	if w == nil {
		return errNilWorld
	}
	w.obs.push(keyFor[E](), ev)
	return w.runObservers()
}

// Emit records the event ev in c, to be raised when c's commands apply,
// in recording order with them (see [Commands]): its observers then run
// at the sync point that follows.
func Emit[E any](c Commands, ev E) {
	b := c.c.buffer()
	b.events = append(b.events, emitted{key: keyFor[E](), ev: ev})
	b.order = append(b.order, cmd{kind: cmdEmit, q: int32(len(b.events) - 1)})
}

// emitted is an event recorded by Emit.
type emitted struct {
	key typeKey
	ev  any
}

// Event is the view an observer takes to read the event it handles (see
// [Observe]). It borrows nothing. A system that is not running as an
// observer of E cannot borrow it: [World.Run] and workloads refuse it
// with an error wrapping [ErrInvalidView].
type Event[E any] struct{ c *eventCore[E] }

type eventCore[E any] struct {
	v    E
	live bool
}

func (c *eventCore[E]) release() { c.live = false }

func (v *Event[E]) access(*accessSet) {}

func (v *Event[E]) borrowView(ctx *borrowCtx) (releaser, error) {
	ev, ok := ctx.event.(E)
	if !ok {
		return nil, &argError{op: "Event[" + typeName(keyFor[E]()) + "]", what: "only an observer of this event type (see ecs.Observe) can borrow it", kind: ErrInvalidView}
	}
	if v.c == nil || v.c.live {
		v.c = &eventCore[E]{}
	}
	v.c.v, v.c.live = ev, true
	return v.c, nil
}

// Get returns the event. It panics with an error wrapping [ErrReleased]
// outside the observer's run.
func (v Event[E]) Get() E {
	if v.c == nil || !v.c.live {
		panic(releasedOf[E]{"Event"})
	}
	return v.c.v
}
