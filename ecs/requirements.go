package ecs

import (
	"errors"
	"reflect"
	"runtime/debug"
	"slices"
)

// Required components (Bevy's, in sparse-set form): Require[A, B] makes
// every addition of an A to an entity without a B give it a B too, and
// refuses removing the B while the A stays.
//
// Adding: A's storage is hooked (as for observers), and its insertions
// are queued, without boxing, in the world's observers (required, by
// sparseSet.raise). The drain of the next sync point, before the
// observers' events, fills them in one World-level change per batch
// (fillRequired): before a World-level call returns, when Commands are
// applied, at the end of World.Run, of an ApplyCommands item or of a
// workload run (the points of observers and initializers). Every path
// that adds an A goes through the hook, so none is missed, and A's views
// need borrow nothing more. The B's insertions raise their own events
// and queue their own requirements, filled by the same drain.
//
// Removing: the calls that take components of B away without deleting
// their entity check A's storage first. World-level calls hold the
// world. A ViewMut[B] reads the storages of the types that require B:
// its frame borrows each of them shared unless one of its own views
// borrows it (frameGroupBorrows), and workload plans know it (partners),
// so the check reads storages no other system changes meanwhile.

// ErrRequired is wrapped by the [*RequiredError] of removing a component
// that another component of the entity requires.
var ErrRequired = errors.New("component is required")

// RequiredError is the error of removing a component of type Type from
// the entity ID while it holds a component of type By, which requires it
// (see [Require]). Op names the call. Nothing was removed. It wraps
// [ErrRequired].
type RequiredError struct {
	Op   string
	Type string
	By   string
	ID   EntityID
}

func (e *RequiredError) Error() string {
	return "ecs: " + e.Op + ": cannot remove " + e.Type + " from " + e.ID.String() +
		": its " + e.By + " requires one (Require[" + e.By + ", " + e.Type + "]); remove the " + e.By + " first"
}

// Unwrap returns [ErrRequired].
func (e *RequiredError) Unwrap() error { return ErrRequired }

// requirement is one Require declaration: fill gives each entity of ids
// that is alive, has an A and lacks a B, its B. The caller holds the
// world for a World-level change.
type requirement struct {
	a, b  storage
	name  string // "Require[main.A, main.B]"
	event string // the name of Inserted[A], for panics
	fill  func(w *World, ids []EntityID) error
}

// requirements are a world's Require declarations. A new value replaces
// them at each change, under the world's exclusive borrow and workMu,
// and the group generation moves on (frames and plans take partner
// borrows from them, as from groups).
type requirements struct {
	list []requirement
}

// requirers returns the storages of the types that require the type of
// key.
func (r *requirements) requirers(key resKey) []storage {
	var out []storage
	if r == nil {
		return nil
	}
	for _, q := range r.list {
		if q.b.accessKey() == key {
			out = append(out, q.a)
		}
	}
	return out
}

// requiredBy is what a storage of a required type keeps of the types that
// require it, for the removals to check.
type requiredBy struct {
	by []storage
}

// holder returns the first storage of by that has id and is not in also
// (the storages the same call removes id's components from), or nil.
func (r *requiredBy) holder(id EntityID, also []storage) storage {
	for _, a := range r.by {
		if a.has(id) && !slices.Contains(also, a) {
			return a
		}
	}
	return nil
}

// Require declares that the component type A requires B: every entity
// given an A by any means ([AddComponent1] …, [ViewMut.AddComponent],
// bulk additions, creation with components, [Commands]) and lacking a B
// gets one, and removing the B from an entity that still has an A is
// refused with a [*RequiredError].
//
// The B is made by newB; if newB is nil, by B's initializer
// ([SetDefault], or [SetInitializer1] … when the entity has the
// initializer's inputs), and otherwise it is B's zero value. It is added
// at the next sync point after the A: before a World-level call returns,
// when [Commands] are applied, at the end of [World.Run], of an
// [ApplyCommands] item or of a workload run, as observers run (see
// [Observe]). A system that adds an A through a view sees the entity
// without its B until then. An entity created with its inputs gets B's
// initializer's B first, then the requirement finds it there.
// Requirements chain: if B requires C, the B added brings a C.
//
// Entities that have an A and no B when Require is called get their B
// before it returns. Declaring the same pair again replaces newB.
//
// Removing: [Remove], [DeleteComponent], [BulkDeleteComponent] and the
// Commands that call them return the *RequiredError, changing nothing;
// [ViewMut.Remove], [ViewMut.Delete], [ViewMut.Clear], [ViewMut.Drain],
// [ViewMut.DrainInto] and [RemoveFrom2] … panic with it (they have no
// error result), and [ViewMut.Retain] returns it, deleting nothing.
// RemoveFrom2 … may remove A and B together. Deleting the entity, and
// [World.Strip], remove everything and are never refused. So that the
// views can check, a ViewMut[B] also borrows A's storage shared, unless
// the same system or frame borrows it already: a workload does not run
// it beside a system writing A.
//
// The components [EntitiesViewMut.DeleteUnchecked] leaves behind count
// until they are purged, as for every view look-up: a leftover A keeps
// its entity's leftover B from being removed through a view.
//
// Require borrows the world as World-level changes do, so it fails with a
// [*BorrowError] while anything in w is borrowed. It refuses A equal to B,
// and [Terminating] on either side, with an error wrapping
// [ErrInvalidView].
func Require[A, B any](w *World, newB func() B) (err error) {
	op := "Require[" + typeName(keyFor[A]()) + ", " + typeName(keyFor[B]()) + "]"
	ta, tb := reflect.TypeFor[A](), reflect.TypeFor[B]()
	if ta == tb {
		return &argError{op: op, what: "a type cannot require itself", kind: ErrInvalidView}
	}
	if ta == reflect.TypeFor[Terminating]() || tb == reflect.TypeFor[Terminating]() {
		return &argError{op: op, what: "only the world gives and takes Terminating (see SetFinalizer); it cannot take part in a requirement", kind: ErrInvalidView}
	}
	wr, locked, err := beginWrite(w)
	if err != nil {
		return err
	}
	defer endWriteObs(wr, locked, &err)
	sa, sb := storageFor[A](wr), storageFor[B](wr)
	fill := func(w *World, ids []EntityID) error {
		var init *initializer
		if newB == nil && w.inits != nil {
			for _, in := range w.inits.order {
				if in.target == keyFor[B]() {
					init = in
					break
				}
			}
		}
		grown := false
		for _, id := range ids {
			if !w.ents.isAlive(id) || !sa.has(id) || sb.has(id) {
				continue // an id may come twice: the first gave it its B
			}
			if w.fin != nil {
				if err := w.fin.refusesAdd(op, id, sb); err != nil {
					return err
				}
			}
			if init != nil {
				one := [1]EntityID{id}
				if init.run(w, one[:]); sb.has(id) {
					continue
				}
			}
			if !grown { // many to add: grow the storage once
				sb.reserve(len(ids))
				grown = true
			}
			var c B
			if newB != nil {
				c = newB()
			}
			sb.insert(id, c)
		}
		return nil
	}

	old := wr.reqs
	if old == nil {
		old = &requirements{}
	}
	nr := &requirements{list: slices.Clone(old.list)}
	q := requirement{a: sa, b: sb, name: op, event: typeName(keyFor[Inserted[A]]()), fill: fill}
	if i := slices.IndexFunc(nr.list, func(q requirement) bool { return q.a == storage(sa) && q.b == storage(sb) }); i >= 0 {
		nr.list[i] = q
	} else {
		nr.list = append(nr.list, q)
		by := &requiredBy{}
		if sb.reqBy != nil {
			by.by = slices.Clone(sb.reqBy.by)
		}
		by.by = append(by.by, sa)
		sb.reqBy = by
	}
	sa.observe(wr, hookRequires)
	wr.workMu.Lock()
	wr.reqs = nr
	wr.groupGen.Add(1)
	wr.workMu.Unlock()

	// The entities that have an A already.
	return fill(wr, slices.Clone(sa.ids()))
}

// fillRequired gives the entities of items the components their new
// components require, at a sync point, through a World-level change
// (so that what it adds raises its own events, and the insertions of
// requirers among them are filled in turn). If the world is held
// elsewhere, the items wait for the next sync point and it returns the
// *BorrowError. A panic of a requirement's function comes out as an
// *ObserverPanic naming the requirement.
func (w *World) fillRequired(items []requiredItem) (err error) {
	wr, locked, err := beginWrite(w)
	if err != nil {
		w.obs.putRequired(items)
		return err
	}
	defer endWriteObs(wr, locked, &err)
	var ids []EntityID
	for _, q := range wr.reqs.list {
		ids = ids[:0]
		for _, it := range items {
			if it.a == q.a {
				ids = append(ids, it.id)
			}
		}
		if len(ids) == 0 {
			continue
		}
		if err := q.run(wr, ids); err != nil {
			return err
		}
	}
	return nil
}

// run is q.fill with a panic turned into an *ObserverPanic naming q.
func (q *requirement) run(w *World, ids []EntityID) error {
	defer func() {
		if r := recover(); r != nil {
			panic(&ObserverPanic{Observer: q.name, Event: q.event, Value: r, Stack: debug.Stack()})
		}
	}()
	return q.fill(w, ids)
}

// keeps returns the *RequiredError of op removing id's component of s if
// another component of id requires it, and the same call does not remove
// that one too (also).
func (s *sparseSet[T]) keeps(op string, id EntityID, also ...storage) error {
	if s.reqBy == nil || !s.has(id) {
		return nil
	}
	if a := s.reqBy.holder(id, also); a != nil {
		return &RequiredError{Op: op, Type: s.name, By: a.typeName(), ID: id}
	}
	return nil
}

// keepsAny is keeps for each of ids.
func (s *sparseSet[T]) keepsAny(op string, ids []EntityID) error {
	if s.reqBy == nil {
		return nil
	}
	for _, id := range ids {
		if err := s.keeps(op, id); err != nil {
			return err
		}
	}
	return nil
}

// keepsAll is keeps for every component of s: the error of emptying it.
func (s *sparseSet[T]) keepsAll(op string) error {
	if s.reqBy == nil {
		return nil
	}
	for _, a := range s.reqBy.by {
		small, other := a, storage(s)
		if s.length() < a.length() {
			small, other = s, a
		}
		for _, id := range small.ids() {
			if other.has(id) {
				return &RequiredError{Op: op, Type: s.name, By: a.typeName(), ID: id}
			}
		}
	}
	return nil
}

// mustKeep panics with the error of keeps.
func (s *sparseSet[T]) mustKeep(op string, id EntityID, also ...storage) {
	if err := s.keeps(op, id, also...); err != nil {
		panic(err)
	}
}

// checksName names the access writer as it reads a, a type requiring
// writer's: "ViewMut[main.B] (which checks main.A: Require[main.A, main.B])".
func checksName(writer Access, a storage) string {
	return writer.View + " (which checks " + a.typeName() + ": Require[" + a.typeName() + ", " + writer.Type + "])"
}
