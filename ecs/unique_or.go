package ecs

import (
	"fmt"
	"io"
	"reflect"
)

// Unique views that add their unique when the world has none: Shipyard's
// UniqueOrDefaultView, UniqueOrDefaultViewMut and UniqueOrInitViewMut.
//
// Adding a unique changes it, so each of these views counts as a writer
// of its unique in a system's access ([Access.Exclusive] is true), the
// read-only [UniqueOrDefault] too: a workload never runs a system that
// holds one beside another system that uses the same unique, so the
// unique is added by the first of them in declaration order, and the
// systems that run beside it never see it half there. To let readers of
// a unique run side by side, add it up front with [AddUnique] and read it
// with [UniqueView].

// UniqueOrDefault is read access to the unique of type T that first adds
// it, with T's zero value, if the world has none: Shipyard's
// UniqueOrDefaultView. It is for uniques whose zero value is ready to use
// (a score, a frame counter, settings whose zero value means "the
// defaults"): no setup call, and no [ErrMissingUnique].
//
// Its borrow is shared once the unique is there: a [World.Run] on another
// goroutine may read the unique beside it. Adding the unique takes it
// exclusively for that moment only (see [UniqueOrDefaultMut] to write).
// In a system's access it counts as a writer of the unique (see the
// comment above): two systems with a UniqueOrDefault[T] in one workload
// run one after the other.
type UniqueOrDefault[T any] struct {
	c     *uniqueCore[T]
	epoch uint64
}

// UniqueOrDefaultMut is exclusive access to the unique of type T that
// first adds it, with T's zero value, if the world has none: Shipyard's
// UniqueOrDefaultViewMut. It is a [UniqueViewMut] that never fails with
// [ErrMissingUnique].
type UniqueOrDefaultMut[T any] struct {
	c     *uniqueCore[T]
	epoch uint64
}

// UniqueOrInitMut is exclusive access to the unique of type T, whether
// the world has it or not: Shipyard's UniqueOrInitViewMut. The system
// reads it with [UniqueOrInitMut.Get], and adds it when it is missing with
// [UniqueOrInitMut.GetOrInit], which calls the init function given there.
//
// The init function is given where the unique is used, not registered
// with the world beforehand, as [sync.OnceValue] takes its function: a
// closure captures what it needs (a seed, a loaded config), the system
// decides whether the unique is needed at all, and there is no
// registration to forget, so no "no init registered" error at run time.
// Go has no function-valued type parameters, and a method on T
// (InitUnique() T) could not capture anything. For a unique whose zero
// value will do, [UniqueOrDefaultMut] is shorter.
//
// The view holds the unique exclusively from its borrow on, present or
// not, so nothing else can add it meanwhile: GetOrInit cannot fail to
// borrow.
type UniqueOrInitMut[T any] struct {
	c     *uniqueCore[T]
	epoch uint64
}

// Get returns a copy of the unique, which the view's borrow added with
// T's zero value if the world had none. Panics if the view was released
// (or is a copy of one).
func (v UniqueOrDefault[T]) Get() T { return *v.c.ptr(v.epoch, "UniqueOrDefault") }

// Get returns a pointer to the unique, which the view's borrow added with
// T's zero value if the world had none, to read or change it. Do not keep
// the pointer after the view is released. Panics if the view was released
// (or is a copy of one).
func (v UniqueOrDefaultMut[T]) Get() *T { return v.c.ptr(v.epoch, "UniqueOrDefaultMut") }

// Get returns a pointer to the unique and true, or nil and false if the
// world has none. Do not keep the pointer after the view is released.
// Panics if the view was released (or is a copy of one).
func (v UniqueOrInitMut[T]) Get() (*T, bool) {
	p := v.c.ptr(v.epoch, "UniqueOrInitMut")
	if !v.c.u.present {
		return nil, false
	}
	return p, true
}

// GetOrInit returns a pointer to the unique, adding it first with the
// value init returns if the world has none; init is called at most once,
// and only then. Do not keep the pointer after the view is released.
//
// A nil init is an error wrapping [ErrNilFunc], even when the unique is
// there, and nothing changes. If init panics the unique stays missing,
// and the view is released with the system as after any panic. Panics if
// the view was released (or is a copy of one).
func (v UniqueOrInitMut[T]) GetOrInit(init func() T) (*T, error) {
	p := v.c.ptr(v.epoch, "UniqueOrInitMut")
	if init == nil {
		return nil, errNilFunc("UniqueOrInitMut[" + typeName(reflect.TypeFor[T]()) + "].GetOrInit")
	}
	if u := v.c.u; !u.present {
		x := init()
		u.v, u.present = x, true
	}
	return p, nil
}

func (v *UniqueOrDefault[T]) access(a *accessSet) {
	a.add(uniqueAccess[T]("UniqueOrDefault", true))
}

func (v *UniqueOrDefaultMut[T]) access(a *accessSet) {
	a.add(uniqueAccess[T]("UniqueOrDefaultMut", true))
}

func (v *UniqueOrInitMut[T]) access(a *accessSet) {
	a.add(uniqueAccess[T]("UniqueOrInitMut", true))
}

func (v *UniqueOrDefault[T]) borrowView(ctx *borrowCtx) (releaser, error) {
	return borrowUniqueOr(&v.c, &v.epoch, ctx, accUniqueView, "UniqueOrDefault", uniqueOrZero)
}

func (v *UniqueOrDefaultMut[T]) borrowView(ctx *borrowCtx) (releaser, error) {
	return borrowUniqueOr(&v.c, &v.epoch, ctx, accUniqueViewMut, "UniqueOrDefaultMut", uniqueOrZero)
}

func (v *UniqueOrInitMut[T]) borrowView(ctx *borrowCtx) (releaser, error) {
	return borrowUniqueOr(&v.c, &v.epoch, ctx, accUniqueViewMut, "UniqueOrInitMut", uniqueMaybe)
}

// borrowUniqueOr borrows a view whose core and epoch are *c and *epoch,
// as [UniqueView]'s borrowView does: a core borrowed already is replaced
// by a new one, and a failed borrow leaves the view as it was.
func borrowUniqueOr[T any](c **uniqueCore[T], epoch *uint64, ctx *borrowCtx, kind accessKind, name string, mode uniqueMode) (releaser, error) {
	core := *c
	if core == nil || core.u != nil {
		core = &uniqueCore[T]{}
	}
	if err := core.borrow(ctx, kind, name, mode); err != nil {
		return nil, err
	}
	*c, *epoch = core, core.epoch
	return core, nil
}

// Format prints the unique as [UniqueView.Format] does, with the kind
// "UniqueOrDefault".
func (v UniqueOrDefault[T]) Format(f fmt.State, verb rune) {
	formatUnique(f, verb, "UniqueOrDefault", v.c.holding(v.epoch))
}

// Format prints the unique as [UniqueView.Format] does, with the kind
// "UniqueOrDefaultMut".
func (v UniqueOrDefaultMut[T]) Format(f fmt.State, verb rune) {
	formatUnique(f, verb, "UniqueOrDefaultMut", v.c.holding(v.epoch))
}

// Format prints the unique as [UniqueView.Format] does, with the kind
// "UniqueOrInitMut"; while the world has none it prints
// "UniqueOrInitMut[main.Player](missing)" whatever the verb.
func (v UniqueOrInitMut[T]) Format(f fmt.State, verb rune) {
	u := v.c.holding(v.epoch)
	if u != nil && !u.present {
		io.WriteString(f, "UniqueOrInitMut["+typeName(typeOf[T]())+"](missing)")
		return
	}
	formatUnique(f, verb, "UniqueOrInitMut", u)
}
