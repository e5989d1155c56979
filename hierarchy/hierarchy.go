package hierarchy

import (
	"errors"
	"fmt"

	"github.com/slipway-ecs/slipway/ecs"
)

// Parent is the component of an entity that has children.
//
// Invariants, kept by the methods of [ViewMut]: NumChildren is at least 1
// (an entity whose last child leaves loses its Parent component), and
// walking Child.Next from FirstChild visits NumChildren distinct entities,
// each with a Child whose Parent is this entity, and comes back to
// FirstChild.
type Parent struct {
	NumChildren int          // how many children the entity has
	FirstChild  ecs.EntityID // the first of them, in sibling order
}

// Child is the component of an entity that has a parent.
//
// Invariants, kept by the methods of [ViewMut]: Parent has a [Parent]
// component whose chain holds this entity; Prev and Next are siblings (the
// entity itself when it is an only child) with Prev.Next and Next.Prev
// pointing back here; and no entity is its own ancestor.
type Child struct {
	Parent ecs.EntityID // the parent
	Prev   ecs.EntityID // the previous sibling; the first child's is the last
	Next   ecs.EntityID // the next sibling; the last child's is the first
}

// View is shared access to the hierarchy: walk the trees, check them. It is a
// custom view (a bundle): take it as a system parameter, or borrow it with
// [ecs.World.Borrow]. Systems that only take Views of the hierarchy run in
// parallel with each other.
//
// Walks through a View read only. The fields are the underlying views, for
// joins of your own (for instance the roots: entities with a Parent and no
// Child).
type View struct {
	Entities   ecs.EntitiesView
	ParentView ecs.View[Parent]
	ChildView  ecs.View[Child]
}

// ViewMut is exclusive access to the hierarchy: everything [View] does, plus
// attaching, detaching, removing, sorting and deleting. It is a custom view
// (a bundle): take it as a system parameter, or borrow it with
// [ecs.World.Borrow].
//
// Every change checks what it is given and the links it will touch before it
// changes anything: on error, nothing has changed.
//
// If Parent or Child track modification (see [ecs.TrackComponent]), the walks
// through a ViewMut mark the components they read as modified, as every read
// through an [ecs.ViewMut] does. Use a [View] to walk without marking.
type ViewMut struct {
	Entities   ecs.EntitiesViewMut
	ParentView ecs.ViewMut[Parent]
	ChildView  ecs.ViewMut[Child]
}

var (
	// ErrCycle: the change would make an entity its own ancestor (attaching
	// an entity under itself or under one of its descendants).
	ErrCycle = errors.New("entity would be its own ancestor")
	// ErrBrokenLink: a link of the hierarchy names a dead entity, an entity
	// without the component it should have, or contradicts another link
	// (a chain that does not close, a cycle made by hand...). See
	// [LinkError].
	ErrBrokenLink = errors.New("broken hierarchy link")
)

// Error is the error of a change of [ViewMut] that was refused. It names the
// operation and the entities it was given; Err is the reason: an error
// wrapping [ErrCycle], one wrapping [ecs.ErrDeadEntity] for an entity given
// that is not alive, or a [*LinkError] for a broken link met on the way.
// errors.Is and errors.As reach through Err.
type Error struct {
	Op     string       // the method, e.g. "Attach"
	ID     ecs.EntityID // the entity the operation was given
	Parent ecs.EntityID // the parent it was given, or ecs.NullID
	Err    error
}

// Error formats the operation, its entities and the reason.
func (e *Error) Error() string {
	if e.Parent.IsNull() {
		return fmt.Sprintf("hierarchy: %s %v: %v", e.Op, e.ID, e.Err)
	}
	return fmt.Sprintf("hierarchy: %s %v under %v: %v", e.Op, e.ID, e.Parent, e.Err)
}

// Unwrap returns the reason.
func (e *Error) Unwrap() error { return e.Err }

// LinkError is a broken link: the link Link of entity ID, which holds Target,
// is wrong for the reason given in Problem. Link is a field ("Child.Parent",
// "Child.Prev", "Child.Next", "Parent.FirstChild", "Parent.NumChildren"), or
// "Child" or "Parent" for a component on a dead entity, "ancestors" or
// "descendants" for a walk from ID that found more entities than there are
// Child components (a cycle), or "walk" for a walk that starts at an entity
// that is not alive.
//
// It wraps [ErrBrokenLink], and also [ecs.ErrDeadEntity] when Target is not
// alive.
type LinkError struct {
	ID      ecs.EntityID // the entity holding the link
	Link    string       // the link
	Target  ecs.EntityID // what the link holds
	Problem string       // what is wrong with it
	Dead    bool         // whether the problem is that an entity is not alive
}

// Error formats the link and what is wrong with it.
func (e *LinkError) Error() string {
	return fmt.Sprintf("hierarchy: broken link: %s of %v is %v: %s", e.Link, e.ID, e.Target, e.Problem)
}

// Unwrap returns [ErrBrokenLink], and [ecs.ErrDeadEntity] when the problem is
// a dead entity.
func (e *LinkError) Unwrap() []error {
	if e.Dead {
		return []error{ErrBrokenLink, ecs.ErrDeadEntity}
	}
	return []error{ErrBrokenLink}
}

// deadLink is the LinkError of a link to an entity that is not alive.
func deadLink(id ecs.EntityID, link string, target ecs.EntityID) *LinkError {
	return &LinkError{ID: id, Link: link, Target: target, Problem: "entity is not alive", Dead: true}
}

// brokenLink is a LinkError of any other kind.
func brokenLink(id ecs.EntityID, link string, target ecs.EntityID, format string, args ...any) *LinkError {
	return &LinkError{ID: id, Link: link, Target: target, Problem: fmt.Sprintf(format, args...)}
}

// deadError is the reason of an [Error] for an entity given that is not
// alive: role says which one ("entity", "parent").
type deadError struct {
	role string
	id   ecs.EntityID
}

func (e deadError) Error() string { return fmt.Sprintf("the %s %v is not alive", e.role, e.id) }

func (e deadError) Unwrap() error { return ecs.ErrDeadEntity }
