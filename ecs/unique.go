package ecs

import "reflect"

// AddUnique stores v as the world's unique of type T, replacing the one
// there was. Uniques (Shipyard's "unique components", often called
// resources) hold data there is exactly one of: the player, a clock, a
// random source. Systems reach them with [UniqueView] and [UniqueViewMut].
//
// It fails only when the unique is borrowed elsewhere, or with an error
// wrapping [ErrNilWorld] when s is nil or a nil *World.
func AddUnique[T any](s Storages, v T) error {
	if err := checkWorld(s); err != nil {
		return err
	}
	w, _ := s.world()
	u := uniqueFor[T](w)
	b := &borrower{kind: accUniqueViewMut, view: "UniqueViewMut", typ: u.name, by: "ecs.AddUnique"}
	if err := u.lock.acquire(b, true, u.typeName()); err != nil {
		return err
	}
	u.v, u.present = v, true
	u.lock.release(b, true)
	return nil
}

// GetUnique returns a copy of the world's unique of type T, or a
// [UniqueError] if there is none (an error wrapping [ErrNilWorld] if s is
// nil or a nil *World).
func GetUnique[T any](s Storages) (T, error) {
	var zero T
	if err := checkWorld(s); err != nil {
		return zero, err
	}
	w, _ := s.world()
	u := uniqueFor[T](w)
	if err := u.lock.acquire(worldRead, false, u.typeName()); err != nil {
		return zero, err
	}
	defer u.lock.release(worldRead, false)
	if !u.present {
		return zero, &UniqueError{Op: "GetUnique", Type: u.name}
	}
	return u.v, nil
}

// UpdateUnique calls fn with a pointer to the world's unique of type T, to
// change it in place, or returns a [UniqueError] if there is none. It
// borrows only that unique, so it works while other storages are borrowed.
// Do not keep the pointer after fn returns.
//
// A nil fn is an error wrapping [ErrNilFunc], and a nil s (or nil *World)
// one wrapping [ErrNilWorld]; nothing changes then.
func UpdateUnique[T any](s Storages, fn func(*T)) error {
	if err := checkWorld(s); err != nil {
		return err
	}
	if fn == nil {
		return errNilFunc("UpdateUnique[" + typeName(reflect.TypeFor[T]()) + "]")
	}
	w, _ := s.world()
	u := uniqueFor[T](w)
	if err := u.lock.acquire(uniqueUpdate, true, u.resource); err != nil {
		return err
	}
	defer u.lock.release(uniqueUpdate, true)
	if !u.present {
		return &UniqueError{Op: "UpdateUnique", Type: u.name}
	}
	fn(&u.v)
	return nil
}

var uniqueUpdate = &borrower{kind: accUniqueViewMut, view: "UniqueViewMut (ecs.UpdateUnique)", by: "ecs.UpdateUnique"}

// RemoveUnique takes the world's unique of type T out and returns it, or
// returns a [UniqueError] if there is none (an error wrapping
// [ErrNilWorld] if s is nil or a nil *World).
func RemoveUnique[T any](s Storages) (T, error) {
	var zero T
	if err := checkWorld(s); err != nil {
		return zero, err
	}
	w, _ := s.world()
	u := uniqueFor[T](w)
	b := &borrower{kind: accUniqueViewMut, view: "UniqueViewMut", typ: u.name, by: "ecs.RemoveUnique"}
	if err := u.lock.acquire(b, true, u.typeName()); err != nil {
		return zero, err
	}
	defer u.lock.release(b, true)
	if !u.present {
		return zero, &UniqueError{Op: "RemoveUnique", Type: u.name}
	}
	v := u.v
	u.v, u.present = zero, false
	return v, nil
}

// UniqueView is shared access to the unique of type T. Declare it as a
// system parameter; the system fails with a [UniqueError] if the world has
// no such unique.
type UniqueView[T any] struct {
	c     *uniqueCore[T]
	epoch uint64 // the borrow of c the view belongs to (see View)
}

// UniqueViewMut is exclusive access to the unique of type T.
type UniqueViewMut[T any] struct {
	c     *uniqueCore[T]
	epoch uint64
}

type uniqueCore[T any] struct {
	u     *unique[T] // nil when not borrowed
	w     *World
	b     *borrower // immutable once published: a new borrow that differs takes a new one
	epoch uint64    // moved on by every borrow and release
}

// Get returns a copy of the unique. Panics if the view was released (or
// is a copy of one).
func (v UniqueView[T]) Get() T { return *v.c.ptr(v.epoch, "UniqueView") }

// Get returns a pointer to the unique, to read or change it. Do not keep the
// pointer after the view is released. Panics if the view was released (or
// is a copy of one).
func (v UniqueViewMut[T]) Get() *T { return v.c.ptr(v.epoch, "UniqueViewMut") }

// ptr returns the unique c borrows, and panics with [ErrReleased],
// naming the view (view is its kind, "UniqueView"), if c is released or
// borrowed again since the borrow epoch.
func (c *uniqueCore[T]) ptr(epoch uint64, view string) *T {
	if c == nil || c.u == nil || c.epoch != epoch {
		panic(releasedOf[T]{view})
	}
	return &c.u.v
}

func (v *UniqueView[T]) access(a *accessSet)    { a.add(uniqueAccess[T]("UniqueView", false)) }
func (v *UniqueViewMut[T]) access(a *accessSet) { a.add(uniqueAccess[T]("UniqueViewMut", true)) }

func (v *UniqueView[T]) borrowView(ctx *borrowCtx) (releaser, error) {
	old := *v
	if v.c == nil || v.c.u != nil { // borrowed already: as View.borrowView
		v.c = &uniqueCore[T]{}
	}
	if err := v.c.borrow(ctx, accUniqueView, "UniqueView", uniqueMust); err != nil {
		*v = old
		return nil, err
	}
	v.epoch = v.c.epoch
	return v.c, nil
}

func (v *UniqueViewMut[T]) borrowView(ctx *borrowCtx) (releaser, error) {
	old := *v
	if v.c == nil || v.c.u != nil { // borrowed already: as View.borrowView
		v.c = &uniqueCore[T]{}
	}
	if err := v.c.borrow(ctx, accUniqueViewMut, "UniqueViewMut", uniqueMust); err != nil {
		*v = old
		return nil, err
	}
	v.epoch = v.c.epoch
	return v.c, nil
}

// uniqueMode is what a unique view does when the world has no unique of
// its type.
type uniqueMode uint8

const (
	uniqueMust   uniqueMode = iota // fail with a UniqueError (UniqueView, UniqueViewMut)
	uniqueOrZero                   // add T's zero value (UniqueOrDefault, UniqueOrDefaultMut)
	uniqueMaybe                    // borrow the empty slot (UniqueOrInitMut)
)

// borrow borrows the unique of type T for a view of kind (kindName its
// name, "UniqueView"), doing what mode says if the world has none.
func (c *uniqueCore[T]) borrow(ctx *borrowCtx, kind accessKind, kindName string, mode uniqueMode) error {
	u := uniqueFor[T](ctx.w)
	c.w = ctx.w
	if c.b == nil || c.b.by != ctx.by || c.b.kind != kind || c.b.view != kindName || c.b.under != ctx.ownsNoAll() {
		c.b = &borrower{kind: kind, view: kindName, typ: u.name, by: ctx.by, under: ctx.ownsNoAll()}
	}
	if err := ctx.lockAll(c.b); err != nil {
		return err
	}
	excl := c.b.kind.exclusive()
	if err := u.lock.acquire(c.b, excl, u.typeName()); err != nil {
		ctx.unlockAll(c.b)
		return err
	}
	if !u.present {
		var err error
		switch {
		case mode == uniqueMaybe:
		case mode == uniqueOrZero && excl:
			u.addZero()
		case mode == uniqueOrZero:
			u.lock.release(c.b, false)
			err = u.addZeroShared(c.b)
		default:
			u.lock.release(c.b, excl)
			err = &UniqueError{Op: c.b.access() + " in " + ctx.by, Type: u.name}
		}
		if err != nil {
			ctx.unlockAll(c.b)
			return err
		}
	}
	c.u = u
	c.epoch++
	return nil
}

// addZero stores T's zero value as the unique. The caller holds u
// exclusively and has seen it missing.
func (u *unique[T]) addZero() {
	var zero T
	u.v, u.present = zero, true
}

// addZeroShared adds T's zero value as the unique if it is missing, and
// leaves u borrowed shared by b; b holds no borrow of u when it is
// called. Adding needs u exclusively for a moment, which the shared
// borrow then takes over (downgrade) with no moment at which another
// caller could remove the unique. If another caller holds u, the unique
// may have been added meanwhile: then b reads it as it is; otherwise the
// error is the conflict, naming that caller.
func (u *unique[T]) addZeroShared(b *borrower) error {
	err := u.lock.acquire(b, true, u.resource)
	if err == nil {
		if !u.present {
			u.addZero()
		}
		u.lock.downgrade(b)
		return nil
	}
	if u.lock.acquire(b, false, u.resource) == nil {
		if u.present {
			return nil
		}
		u.lock.release(b, false)
	}
	return err
}

func (c *uniqueCore[T]) release() {
	if c == nil || c.u == nil {
		return
	}
	c.u.lock.release(c.b, c.b.kind.exclusive())
	c.w.unlockAll(c.b)
	c.u = nil
	c.epoch++
}
