package ecs

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error Slipway returns wraps one of these, so callers
// can test for the kind of failure with [errors.Is] and read the details with
// [errors.As] on the typed errors below.
var (
	// ErrDeadEntity: the world has no live entity with the EntityID's
	// index and generation: the entity was deleted, or no entity of this
	// world ever had the id. A world cannot tell its ids from another
	// world's: an id issued by another world is taken as this world's id
	// with the same index and generation, so it is refused only when this
	// world has no live entity with both (see [EntityID]).
	ErrDeadEntity = errors.New("entity is not alive")
	// ErrMissingComponent: the entity is alive but has no component of the type.
	ErrMissingComponent = errors.New("entity has no such component")
	// ErrMissingUnique: no unique of the type was added to the world.
	ErrMissingUnique = errors.New("no such unique")
	// ErrBorrowConflict: a storage is already borrowed in a way that forbids
	// the requested access. See [BorrowError]. A [SystemError] refusing
	// views that conflict with each other, borrowed together by one
	// system or one [World.Borrow], wraps it too.
	ErrBorrowConflict = errors.New("conflicting borrow")
	// ErrInvalidSystem: a value given as a system is not a function whose
	// parameters are views. See [SystemError].
	ErrInvalidSystem = errors.New("invalid system")
	// ErrInvalidView: a value given to [World.Borrow] is not a pointer to a view.
	ErrInvalidView = errors.New("invalid view")
	// ErrLengthMismatch: the slices given to a bulk operation differ in length.
	ErrLengthMismatch = errors.New("slices differ in length")
	// ErrReleased: a view was used after its borrow was released.
	ErrReleased = errors.New("view used after release")
	// ErrNilWorld: a nil *World, or a nil [Storages], was given where a
	// world is needed. The functions taking a Storages that add, delete,
	// get or iterate entities, components or uniques return it (and
	// change nothing), as do [World.AddEntity], [World.DeleteEntity],
	// [World.DeleteEntities], [World.Strip], [World.MemoryUsage] and
	// [World.ShrinkToFit] called on a nil *World. Create worlds with
	// [NewWorld].
	ErrNilWorld = errors.New("nil *World")
	// ErrNilFunc: a nil function was given to a call that would call it:
	// the fn of [UpdateUnique], or of [Each1] … [Each8]. The call changes
	// nothing.
	ErrNilFunc = errors.New("nil function")
	// ErrSortRefused: [SortAs] was asked to sort a storage it cannot: in
	// its own order, or a packed group's member. It changes nothing.
	ErrSortRefused = errors.New("storage cannot be sorted so")
	// ErrIterating: inside [Each1] … [Each8] through an
	// [AllStoragesViewMut], a call through it would add or remove
	// components in a storage the Each walks (or in a storage packed in a
	// group with one), or is [DeleteAny]. It changes nothing. Make the
	// change after the Each returns; deleting entities is allowed inside
	// it (see [AllStoragesViewMut]). The fill function of
	// [BulkNewEntity1] … [BulkNewEntity8] and [BulkFillComponent1] …
	// [BulkFillComponent8] called through an AllStoragesViewMut gets the
	// same error for the storages it fills.
	ErrIterating = errors.New("storage is being iterated")
	// ErrNegativeCount: [BulkNewEntity1] … [BulkNewEntity8] were asked
	// for a negative number of entities. The call changes nothing.
	ErrNegativeCount = errors.New("negative count")
	// ErrOnlyOptional: a join was made of [Optional] terms only (a
	// programmer error: the join panics with it).
	ErrOnlyOptional = errors.New("join of optional terms only")
	// ErrBadOr: an [Or2], [Or3] or [Or4] join term was given an Optional
	// term, or two views of the same storage (a programmer error: the
	// join panics with it).
	ErrBadOr = errors.New("bad Or join term")
)

// argError reports a bad argument: which call, when known, and what is
// wrong with which parameter. It wraps the sentinel kind.
type argError struct {
	op   string // the call, e.g. "UpdateUnique[main.Player]"; "" when unknown
	what string // what is wrong, naming the parameter: "fn is nil"
	kind error  // the sentinel it wraps
}

func (e *argError) Error() string {
	if e.op == "" {
		return "ecs: " + e.what
	}
	return "ecs: " + e.op + ": " + e.what
}

func (e *argError) Unwrap() error { return e.kind }

// The errors of a nil world.
var (
	errNilWorld    error = &argError{what: "the *World is nil (create worlds with ecs.NewWorld)", kind: ErrNilWorld}
	errNilStorages error = &argError{what: "the Storages is nil (pass a *World, or an AllStoragesViewMut inside a system)", kind: ErrNilWorld}
)

// errNilFunc returns the error of a call op given a nil fn.
func errNilFunc(op string) error {
	return &argError{op: op, what: "fn is nil", kind: ErrNilFunc}
}

// EntityError reports an operation on an entity that is not alive.
type EntityError struct {
	Op string   // the operation, e.g. "ecs.AddComponent1"
	ID EntityID // the id given
}

func (e *EntityError) Error() string {
	return fmt.Sprintf("ecs: %s: %v %s", e.Op, e.ID, notAlive)
}

// notAlive is what an EntityError says of its id.
const notAlive = "is not alive (deleted, or never created by this world)"

// Unwrap returns [ErrDeadEntity].
func (e *EntityError) Unwrap() error { return ErrDeadEntity }

// ErrSpawnRefused: [World.SpawnAt] (or [EntitiesViewMut.SpawnAt], [SpawnAt])
// cannot make an entity alive with the id given. See [SpawnError].
var ErrSpawnRefused = errors.New("cannot spawn an entity with this id")

// SpawnError reports an id that [World.SpawnAt] cannot give a new entity:
// its index holds a live entity (Live is that entity), or the id can never
// be alive or could be stale (Live is [NullID]); Reason says which. The
// call changes nothing.
type SpawnError struct {
	Op     string   // the operation, e.g. "World.SpawnAt"
	ID     EntityID // the id given
	Live   EntityID // the live entity at ID's index, or NullID
	Reason string   // why, e.g. "its index holds a live entity"
}

func (e *SpawnError) Error() string {
	if e.Live != NullID {
		return fmt.Sprintf("ecs: %s: cannot spawn %v: its index holds the live entity %v", e.Op, e.ID, e.Live)
	}
	return fmt.Sprintf("ecs: %s: cannot spawn %v: %s", e.Op, e.ID, e.Reason)
}

// Unwrap returns [ErrSpawnRefused].
func (e *SpawnError) Unwrap() error { return ErrSpawnRefused }

// ComponentError reports that an entity lacks a component.
type ComponentError struct {
	Op   string   // the operation, e.g. "ecs.Get"
	ID   EntityID // the entity
	Type string   // the component type, e.g. "main.Pos"
}

func (e *ComponentError) Error() string {
	return fmt.Sprintf("ecs: %s: %v has no %s component", e.Op, e.ID, e.Type)
}

// Unwrap returns [ErrMissingComponent].
func (e *ComponentError) Unwrap() error { return ErrMissingComponent }

// UniqueError reports a missing unique.
type UniqueError struct {
	Op   string // the operation, e.g. "UniqueView"
	Type string // the unique's type
}

func (e *UniqueError) Error() string {
	return fmt.Sprintf("ecs: %s: there is no unique %s (add it first with ecs.AddUnique)", e.Op, e.Type)
}

// Unwrap returns [ErrMissingUnique].
func (e *UniqueError) Unwrap() error { return ErrMissingUnique }

// BorrowError reports a borrow that conflicts with one already held: the Go
// form of the "already borrowed" error of a RefCell, with both sides named.
type BorrowError struct {
	Resource   string // what was borrowed: "main.Pos", "unique main.Player", "entities", "all storages"
	Access     string // the access asked for: "ViewMut[main.Pos]", or "ViewMut[main.Vel] (which moves main.Pos: Group[main.Pos, main.Vel])" for a group member (see [AddGroup2])
	By         string // who asked: a system name, or the World function
	HeldAccess string // the access already held
	HeldBy     string // who holds it
}

func (e *BorrowError) Error() string {
	return fmt.Sprintf("ecs: cannot borrow %s as %s for %s: already borrowed as %s by %s",
		e.Resource, e.Access, e.By, e.HeldAccess, e.HeldBy)
}

// Unwrap returns [ErrBorrowConflict].
func (e *BorrowError) Unwrap() error { return ErrBorrowConflict }

// SystemError reports a function that cannot be a system, or a value that
// cannot be borrowed as a view.
type SystemError struct {
	System string // the function's name, when known
	Param  int    // the 1-based parameter position, 0 when the problem is not one parameter
	Type   string // the parameter's type
	Reason string
	kind   error // ErrInvalidSystem or ErrInvalidView
}

func (e *SystemError) Error() string {
	if e.System != "" {
		return fmt.Sprintf("ecs: system %s: %s", e.System, e.detail())
	}
	return "ecs: " + e.detail()
}

// detail is the message without the package and the system's name.
func (e *SystemError) detail() string {
	if e.Param > 0 {
		return fmt.Sprintf("parameter %d (%s) %s", e.Param, e.Type, e.Reason)
	}
	return e.Reason
}

// Unwrap returns [ErrInvalidSystem] or [ErrInvalidView]. For views that
// conflict with each other, which could never be borrowed together, it
// returns an error wrapping that and [ErrBorrowConflict].
func (e *SystemError) Unwrap() error {
	if e.kind == nil {
		return ErrInvalidSystem
	}
	return e.kind
}

// conflictKind is the kind of a *SystemError refusing views that conflict
// with each other (see viewsConflict): an invalid system or view, and a
// borrow conflict, as the views could never be borrowed together.
type conflictKind struct{ kind error }

func (k conflictKind) Error() string   { return k.kind.Error() + ": " + ErrBorrowConflict.Error() }
func (k conflictKind) Unwrap() []error { return []error{k.kind, ErrBorrowConflict} }
