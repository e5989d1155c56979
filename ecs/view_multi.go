package ecs

import (
	"errors"
	"strconv"
)

// Several components at once, through views: the hand-written core of
// AddTo2 … AddTo8 and RemoveFrom2 … RemoveFrom8 (view_multi_gen.go), the
// Go form of Shipyard's (&mut a, &mut b).add_component_unchecked(id,
// (A, B)) and (&mut a, &mut b).remove(id). Each generated shell finds the
// storages its views hold, checks everything that could refuse the call,
// and only then changes the storages, so that a refused call changes
// nothing.

// ErrSameStorage: two views given to one call of [AddTo2] … [AddTo8] or
// [RemoveFrom2] … [RemoveFrom8] are views of the same storage (the same
// view twice, or two views of one component type). One call adds or
// removes at most one component per storage. See [ViewsError].
var ErrSameStorage = errors.New("two views of the same storage")

// ViewsError reports a view that cannot take part in a call through
// several views ([AddTo2] … [AddTo8], [RemoveFrom2] … [RemoveFrom8]):
// released (or never borrowed), or of the same storage as an earlier
// view, or, for the entities argument of AddTo, nil. The call changes
// nothing.
type ViewsError struct {
	Op string // the call, e.g. "AddTo2"
	// Arg is the 1-based position of the view at fault among the call's
	// views (v1 is 1), or 0 for the entities argument of AddTo.
	Arg int
	// View is the view at fault, e.g. "ViewMut[main.Pos]", or
	// "EntitiesView".
	View string
	// Same is, for [ErrSameStorage], the position of the earlier view of
	// the same storage; 0 otherwise.
	Same int
	kind error // ErrReleased, ErrSameStorage or ErrInvalidView
}

func (e *ViewsError) Error() string {
	arg := "entities (" + e.View + ")"
	if e.Arg > 0 {
		arg = "v" + strconv.Itoa(e.Arg) + " (" + e.View + ")"
	}
	switch e.kind {
	case ErrSameStorage:
		return "ecs: " + e.Op + ": " + arg + " is a view of the same storage as v" + strconv.Itoa(e.Same) +
			": one call adds or removes at most one component per storage"
	case ErrInvalidView:
		return "ecs: " + e.Op + ": entities is nil: pass an EntitiesView, an EntitiesViewMut or an AllStoragesViewMut"
	}
	return "ecs: " + e.Op + ": " + arg + " is released (used after its system returned or its Borrow was released, or never borrowed)"
}

// Unwrap returns [ErrReleased], [ErrSameStorage], or, for a nil entities
// argument, [ErrInvalidView].
func (e *ViewsError) Unwrap() error { return e.kind }

// Taken is what [RemoveFrom2] … [RemoveFrom8] took out of one view: the
// component, and whether the entity had one (OK false, Value the zero
// value, when it had none). It is the Go form of the Option<T> that each
// element of Shipyard's (&mut a, &mut b).remove(id) is.
type Taken[T any] struct {
	Value T
	OK    bool
}

// Get returns the component and whether there was one: the comma-ok
// form,
//
//	if pos, ok := taken.Get(); ok { … }
func (t Taken[T]) Get() (T, bool) { return t.Value, t.OK }

// multiStore returns the storage v holds, or a *ViewsError naming v as
// the view at position k of op if v is released (or a zero ViewMut).
func (v ViewMut[T]) multiStore(op string, k int) (*sparseSet[T], error) {
	if s := v.c.holding(v.epoch); s != nil {
		return s, nil
	}
	return nil, &ViewsError{Op: op, Arg: k, View: "ViewMut[" + typeName(typeOf[T]()) + "]", kind: ErrReleased}
}

// mustMultiStore is multiStore for RemoveFrom: it panics with the error.
func (v ViewMut[T]) mustMultiStore(op string, k int) *sparseSet[T] {
	s, err := v.multiStore(op, k)
	if err != nil {
		panic(err)
	}
	return s
}

// distinct returns a *ViewsError for the first storage of sts that is
// also an earlier one, or nil if they are all different. The storages
// are compared as interface values: the same pointer, of the same type.
func distinct(op string, sts ...storage) error {
	for j := 1; j < len(sts); j++ {
		for i := range j {
			if sts[i] == sts[j] {
				return &ViewsError{Op: op, Arg: j + 1, Same: i + 1, View: "ViewMut[" + sts[j].typeName() + "]", kind: ErrSameStorage}
			}
		}
	}
	return nil
}

// mustDistinct is distinct for RemoveFrom: it panics with the error.
func mustDistinct(op string, sts ...storage) {
	if err := distinct(op, sts...); err != nil {
		panic(err)
	}
}

// aliveFor returns nil if id is alive according to entities, and
// otherwise the error of op: an [*EntityError] for an id not alive, a
// *ViewsError for a nil entities or one of Slipway's entities views
// released, the [*BorrowError] of an AllStoragesViewMut lending views.
// It never panics for Slipway's own views; an AliveChecker of the
// caller's is asked with IsAlive.
func aliveFor(op string, entities AliveChecker, id EntityID) error {
	var alive bool
	switch e := entities.(type) {
	case nil:
		return &ViewsError{Op: op, View: "nil", kind: ErrInvalidView}
	case EntitiesView:
		if e.c == nil || e.c.w == nil {
			return &ViewsError{Op: op, View: "EntitiesView", kind: ErrReleased}
		}
		alive = e.c.w.ents.isAlive(id)
	case EntitiesViewMut:
		if e.c == nil || e.c.w == nil {
			return &ViewsError{Op: op, View: "EntitiesViewMut", kind: ErrReleased}
		}
		alive = e.c.w.ents.isAlive(id)
	case AllStoragesViewMut:
		if e.c == nil || e.c.w == nil {
			return &ViewsError{Op: op, View: "AllStoragesViewMut", kind: ErrReleased}
		}
		if len(e.c.lent) > 0 {
			return errAllStoragesLent
		}
		alive = e.c.w.ents.isAlive(id)
	default:
		alive = entities.IsAlive(id)
	}
	if !alive {
		return &EntityError{Op: op, ID: id}
	}
	return nil
}

// addRefused returns the [*GroupError] of op if s's group refuses an
// insertion of id's component now (see groupRefuses), and nil otherwise.
// The refusal depends only on s's own entry for id and on the group's
// readers, which insertions into other storages do not change: checked
// for every view first, it tells whether all the insertions will pass.
func (s *sparseSet[T]) addRefused(op string, id EntityID) error {
	if s.pack != nil && s.groupRefuses(id) {
		e := s.movesError(op, "adding")
		e.Op = op + " (through ViewMut[" + s.name + "])"
		return e
	}
	return nil
}

// mustRemovable panics with the [*GroupError] of op if removing id's
// component from s would be refused (as ViewMut.Remove panics): id is in
// the packed range of s's group and a View of the same system reads
// another member. A removal from another storage never moves id into a
// packed range, so checked for every view first, it tells whether all
// the removals will pass.
func (s *sparseSet[T]) mustRemovable(op string, id EntityID) {
	if g := s.pack; g != nil && g.reader(s.member) >= 0 {
		if i := s.pos(id); i >= 0 && i < g.n {
			e := s.movesError(op, "removing")
			e.Op = op + " (through ViewMut[" + s.name + "])"
			panic(e)
		}
	}
}

// take removes id's component from s, as ViewMut.Remove does.
func take[T any](s *sparseSet[T], id EntityID) Taken[T] {
	c, ok := s.remove(id)
	return Taken[T]{c, ok}
}
