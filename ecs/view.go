package ecs

import (
	"cmp"
	"fmt"
	"io"
	"iter"
	"math"
	"slices"
	"strconv"
)

// View is shared access to the components of type T: read them, iterate
// them, join them with other views. Declare it as a system parameter, or
// borrow it with [World.Borrow].
//
// A View is a small value (four words: a handle, the number of the
// borrow it belongs to, and the storage's identity prefix), valid until the system returns (or the release
// function of World.Borrow is called); using it later, or a copy of it,
// panics with an error wrapping [ErrReleased]. Pointers it hands out are
// for reading: Go cannot forbid writing through them, but a write through
// a View is a data race the borrow checks cannot see, and it is never
// recorded as a modification. Use a [ViewMut] to change components.
type View[T any] struct {
	c *viewCore[T]
	// epoch is the borrow of c this view belongs to: a copy kept past
	// its release finds c released or borrowed again (c.epoch moved on),
	// and panics instead of reading what the later borrow holds.
	epoch uint64
	// The storage's identity prefix at the borrow (see sparseSet.pre):
	// its generation bits and its length. They sit in the View, not
	// behind c, because Go keeps a struct of up to four words in
	// registers: a loop of Gets over a View then tests the prefix with
	// no load, where behind c it reloaded them for every id.
	gen, ident uint64
}

// ViewMut is exclusive access to the components of type T: everything a
// [View] does, plus adding, removing and changing components.
//
// Modification tracking: Go cannot see a write through a pointer, so when T
// tracks modification ([TrackModification]) a ViewMut marks a component
// modified when it hands it out for writing: [ViewMut.Get] and
// [ViewMut.MustGet] (when the component exists), every component visited
// by [ViewMut.All], [ViewMut.WithID], [ViewMut.ParEach] and by joins the
// ViewMut is part of (also through [ViewMut.Modified] and its siblings),
// and every component at once by [ViewMut.Slice]. Adding a component to an
// entity that already has one (a replacement) marks it modified too; it is
// not an insertion. A [View] never marks, and neither do
// [ViewMut.Contains], [ViewMut.Len], [ViewMut.IDs] or removals.
type ViewMut[T any] struct {
	c     *viewCore[T]
	epoch uint64 // as View's
}

// viewCore is the state behind a View or ViewMut. It is allocated once per
// system parameter (or per borrowed variable) and reused by every borrow.
type viewCore[T any] struct {
	s *sparseSet[T] // nil unless borrowed

	// epoch counts the borrows of this core; a view holds the epoch of
	// the borrow that filled it in (see View.epoch).
	epoch uint64

	// The storage's layout, copied at the borrow of a View for Get,
	// MustGet and Lookup: the sparse pages and the components (the
	// identity prefix is in the View). A shared borrow keeps the storage
	// as it is until the release, which zeroes the copies. Unused in a
	// ViewMut.
	pages []*sparsePage
	data  []T

	w    *World
	b    *borrower // immutable once published: a new borrow that differs takes a new one
	held bool      // the frame holds the storage's borrow (see groupBorrows): the view takes none

	// home and homeS remember the storage of T in the world the core was
	// last borrowed from: a world keeps its storages for good, so later
	// borrows from it need no look-up by type.
	home  *World
	homeS *sparseSet[T]

	// Tracking (tracking.go): inside a workload, the view's window starts
	// after last, the system's previous run; outside, after the last clear.
	inWorkload bool
	last       uint64

	// build, when set, makes the storage a join reads (an [Or2] term's
	// table, built afresh for each iteration, and never kept here, so
	// that iterations may run at once): see store. live then tells
	// whether the term's views are all still borrowed (see holds).
	build func() *sparseSet[T]
	live  func() bool
}

// Filter is anything that can tell whether an entity belongs to a set:
// every [View] and [ViewMut] is one. Joins use filters to exclude entities
// ([Iter1.Not]).
type Filter interface {
	Contains(id EntityID) bool
}

// Part is implemented by [View], [ViewMut], [Changed], [OptionalView] and
// [OrView2], [OrView3], [OrView4]:
// the views a join can combine. Its method is unexported; other types
// cannot be parts of a join. The joins take their parts as type parameters constrained by Part,
// so a view passed to a join is not converted to an interface.
type Part[T any] interface {
	joinView() (*viewCore[T], partKey)
}

// partKey is the kind of view a join reads: whether it hands out
// components for writing, whether it is optional, its Changed filter (0
// for a View or ViewMut), and the borrow of the view's core it belongs
// to.
type partKey struct {
	mut   bool
	opt   bool // an Optional term: absent components do not exclude
	kinds Tracking
	epoch uint64
}

// joinView returns the state of the view a join is made of (its storage,
// and whether it is borrowed), and its kind: the join reads the storage
// and its tracking from them when an iteration starts.
func (v View[T]) joinView() (*viewCore[T], partKey) {
	return v.c, partKey{epoch: v.epoch}
}

func (v ViewMut[T]) joinView() (*viewCore[T], partKey) {
	return v.c, partKey{mut: true, epoch: v.epoch}
}

// trackOp is what a view c of the kind k does with the tracking of its
// storage, which must track: mark what it hands out, and for a Changed
// view, the filter and its window (after the system's previous run inside
// a workload, after the last clear outside).
func (c *viewCore[T]) trackOp(k partKey) (op opTrack) {
	t := c.s.track
	op.mark = k.mut && t.kinds&TrackModification != 0
	if k.kinds != 0 {
		op.filter = k.kinds
		if c.inWorkload {
			op.ins, op.mod = c.last, c.last
		} else {
			op.ins, op.mod = t.insClear, t.modClear
		}
	}
	return op
}

// holds reports whether c still holds s, the storage a join read from it
// when it was borrowed at epoch: false once it is released, or borrowed
// again. The core of an Or term holds the tables joins build from it as
// long as the term's views are borrowed as they were.
func (c *viewCore[T]) holds(s *sparseSet[T], epoch uint64) bool {
	if c.live != nil {
		return c.live()
	}
	return c.s == s && c.epoch == epoch
}

// store returns the storage borrowed by the borrow epoch of c, and panics
// if c is not borrowed or is borrowed again since (a copy of a view kept
// past its release), naming the view by c's borrower (a join of a zero
// view, never borrowed, has no core: it names the type only).
func (c *viewCore[T]) store(epoch uint64) *sparseSet[T] {
	if c != nil && c.build != nil {
		return c.build()
	}
	if c == nil || c.s == nil || c.epoch != epoch {
		panic((*releasedCore[T])(c))
	}
	return c.s
}

// store returns the view's storage, and panics with [ErrReleased] as
// viewCore.store does, naming the View.
func (v View[T]) store() *sparseSet[T] {
	if c := v.c; c != nil && c.s != nil && c.epoch == v.epoch {
		return c.s
	}
	panic(releasedOf[T]{"View"})
}

// store returns the view's storage; see View.store.
func (v ViewMut[T]) store() *sparseSet[T] {
	if c := v.c; c != nil && c.s != nil && c.epoch == v.epoch {
		return c.s
	}
	panic(releasedOf[T]{"ViewMut"})
}

// errViewReleased is the panic value of a join whose view was released
// while it iterated.
var errViewReleased error = released{"a view of a join"}

// released is the panic value of a view used outside its borrow: view
// names it ("EntitiesView"). It wraps [ErrReleased].
type released struct{ view string }

func (e released) Error() string {
	return "ecs: " + e.view + " used after its system returned or its Borrow was released (or never borrowed): use a view only inside its system, or before calling the release function of World.Borrow"
}

func (e released) Unwrap() error { return ErrReleased }

// releasedOf is released for a view of the type T: view is its kind
// ("ViewMut", "UniqueView"), or "" if unknown. It names T only when the
// message is read, so that the accessors that panic with it stay small
// enough to inline.
type releasedOf[T any] struct{ view string }

func (e releasedOf[T]) Error() string {
	if e.view == "" {
		return released{"a view of " + typeName(typeOf[T]())}.Error()
	}
	return released{e.view + "[" + typeName(typeOf[T]()) + "]"}.Error()
}

func (e releasedOf[T]) Unwrap() error { return ErrReleased }

// releasedCore is the panic value of a view used outside its borrow
// where only its core is at hand, as a *releasedCore: it names the view
// by the core's borrower, or only T if the core is nil (a zero view,
// never borrowed). The conversion of the core's pointer costs nothing, so
// that the accessors that panic with it stay small enough to inline.
type releasedCore[T any] viewCore[T]

func (e *releasedCore[T]) Error() string {
	if e == nil {
		return releasedOf[T]{}.Error()
	}
	if e.b == nil {
		return releasedOf[T]{}.Error()
	}
	return releasedOf[T]{e.b.view}.Error()
}

func (e *releasedCore[T]) Unwrap() error { return ErrReleased }

// borrow borrows s, the storage of T in ctx.w, for the view.
func (c *viewCore[T]) borrow(ctx *borrowCtx, s *sparseSet[T], kind accessKind, kindName string) error {
	c.w = ctx.w
	if c.b == nil || c.b.by != ctx.by || c.b.kind != kind || c.b.under != ctx.ownsNoAll() {
		c.b = &borrower{kind: kind, view: kindName, typ: s.name, by: ctx.by, under: ctx.ownsNoAll()}
	}
	if err := ctx.lockAll(c.b); err != nil {
		return err
	}
	// A View of a group member beside a ViewMut of another member in
	// the same frame is held: the frame borrows the member exclusively
	// (groupBorrows), and the view marks the storage read, so that the
	// other member's additions and removals, which would move its
	// components under the view, are refused (group.reader).
	c.held = s.pack != nil && len(ctx.held) > 0 && slices.Contains(ctx.held, s.accessKey())
	if c.held {
		s.pack.pin(s.member)
	} else if err := s.lock.acquire(c.b, kind.exclusive(), s.name); err != nil {
		ctx.unlockAll(c.b)
		return err
	}
	c.s = s
	c.epoch++
	if kind == accView {
		c.pages, c.data = s.pages, s.data
	}
	if s.track != nil {
		c.inWorkload, c.last = ctx.inWorkload, ctx.last
		if kind.exclusive() {
			// Taken now that the storage is held: later than every
			// earlier borrow's end (see Timestamps in tracking.go).
			s.track.now = ctx.w.nextTick()
		}
	}
	return nil
}

func (c *viewCore[T]) release() {
	if c == nil || c.s == nil {
		return
	}
	if c.s.track != nil && c.b.kind.exclusive() {
		c.s.track.now = 0
	}
	if c.held {
		c.s.pack.unpin(c.s.member)
	} else {
		c.s.lock.release(c.b, c.b.kind.exclusive())
	}
	c.w.unlockAll(c.b)
	c.s, c.pages, c.data = nil, nil, nil
	c.epoch++ // copies of the view, and joins of it, now panic when used
}

func (v *View[T]) access(a *accessSet)    { a.add(componentAccess[T]("View", false)) }
func (v *ViewMut[T]) access(a *accessSet) { a.add(componentAccess[T]("ViewMut", true)) }

// borrowView borrows the view's core, and returns it as the borrow's
// releaser. A view variable gets a core of its own at its first borrow
// and keeps it, so that later borrows allocate nothing; each borrow moves
// the core's epoch on, so copies of the view from an earlier borrow panic
// when used. A variable (or a copy of it) borrowed while its core is
// borrowed gets a new core: each borrow has its own, which its own release
// releases. A failed borrow leaves the variable as it was, so an earlier
// borrow of it stays usable. ViewMut.borrowView does the same.
func (v *View[T]) borrowView(ctx *borrowCtx) (releaser, error) {
	old := *v
	if v.c == nil || v.c.s != nil {
		v.c = &viewCore[T]{}
	}
	s := v.c.storageIn(ctx.w)
	if err := v.c.borrow(ctx, s, accView, "View"); err != nil {
		*v = old
		return nil, err
	}
	// min: the prefix is never past the components (layoutError checks
	// it); should that break, a look-up still stays inside the array, as
	// indexing checks it.
	v.epoch, v.gen, v.ident = v.c.epoch, s.pre.gen, min(s.pre.n, uint64(len(s.data)))
	return v.c, nil
}

func (v *ViewMut[T]) borrowView(ctx *borrowCtx) (releaser, error) {
	if err := refuseTerminatingMut[T](); err != nil {
		return nil, err
	}
	old := *v
	if v.c == nil || v.c.s != nil { // as View.borrowView
		v.c = &viewCore[T]{}
	}
	if err := v.c.borrow(ctx, v.c.storageIn(ctx.w), accViewMut, "ViewMut"); err != nil {
		*v = old
		return nil, err
	}
	v.epoch = v.c.epoch
	return v.c, nil
}

// storageIn returns the storage of T in w.
func (c *viewCore[T]) storageIn(w *World) *sparseSet[T] {
	if c.home != w {
		c.home, c.homeS = w, storageFor[T](w)
	}
	return c.homeS
}

// Len returns the number of components in the storage.
func (v View[T]) Len() int { return len(v.store().dense) }

// IsEmpty reports whether the storage has no component.
func (v View[T]) IsEmpty() bool { return len(v.store().dense) == 0 }

// Contains reports whether id has a component of type T. A stale id
// reports false.
func (v View[T]) Contains(id EntityID) bool { return v.store().has(id) }

// Get returns a pointer to id's component, and false if id has none (or
// is not alive). The pointer is valid until the storage changes (a component
// of type T is added or removed) and is for reading only.
//
// A zero View that was never borrowed panics with a nil dereference; a
// released one, or a copy of one, with an error wrapping [ErrReleased].
func (v View[T]) Get(id EntityID) (*T, bool) {
	c := v.c
	if c.epoch != v.epoch {
		panic((*releasedCore[T])(c)) // released, or borrowed again since
	}
	// sparseSet.slot, spelled out (slotIn included) so that Get stays
	// within the inliner's budget: a loop of look-ups inlined in the
	// caller makes no call per id.
	x := uint64(id) - v.gen // the identity prefix: see sparseSet.pre
	if x >= v.ident {
		x = math.MaxUint64
		if p := int(uint32(id) >> pageShift); p < len(c.pages) {
			x = (c.pages[p][id&pageMask] ^ uint64(id)&genMask) - 1
		}
	}
	if x < uint64(len(c.data)) {
		return &c.data[x], true
	}
	return nil, false
}

// MustGet returns a pointer to id's component: the index form, for when the
// entity is known to have one. Panics if it has none, naming the type and id.
func (v View[T]) MustGet(id EntityID) *T {
	if p, ok := v.Get(id); ok {
		return p
	}
	v.c.absent(id)
	return nil
}

// absent panics for MustGet of an id with no component, naming the type
// and the id. It reads the storage as borrowed: View.MustGet calls it
// only after Get, which panics for a view released (or borrowed again).
func (c *viewCore[T]) absent(id EntityID) {
	panic(absent{id, c.s.name, len(c.s.dense)})
}

// All iterates over every component, in storage order (unspecified, and
// changed by removals). Like every sequence a view returns, it finds the
// storage when ranged over: range over it while the view is borrowed, as
// ranging it after the release panics.
func (v View[T]) All() iter.Seq[*T] { return all(v.c, v.epoch) }

// WithID iterates over every component with the id of its entity.
func (v View[T]) WithID() iter.Seq2[EntityID, *T] { return withID(v.c, v.epoch) }

// Lookup iterates over the components of the entities in ids, in the
// order of ids, each with its entity: [View.Get] for every id of a slice.
// An id with no component of type T, or not alive, is skipped; an id given
// twice is visited twice. The pointers are for reading, as Get's are.
// Range over the sequence while the view is borrowed: ranging it after
// the release panics, as Get does.
//
// Lookup reads the view's layout once per range, where a loop of Get
// reads it for every id; see docs/performance-tips.md for when either is
// faster.
func (v View[T]) Lookup(ids []EntityID) iter.Seq2[EntityID, *T] { return lookup(v, ids) }

// Slice returns the components as a slice, in the same order as [View.IDs]:
// the fastest way to iterate, with no call per entity. It aliases the
// storage: do not keep it after the view is released, and do not write to
// it through a View.
func (v View[T]) Slice() []T { return v.store().data }

// IDs returns the entities owning the components, in the order of
// [View.Slice]. It aliases the storage: do not change it.
func (v View[T]) IDs() []EntityID { return v.store().dense }

// Len returns the number of components in the storage.
func (v ViewMut[T]) Len() int { return len(v.store().dense) }

// IsEmpty reports whether the storage has no component.
func (v ViewMut[T]) IsEmpty() bool { return len(v.store().dense) == 0 }

// Contains reports whether id has a component of type T.
func (v ViewMut[T]) Contains(id EntityID) bool { return v.store().has(id) }

// Get returns a pointer to id's component, to read or change, and false if
// id has none (or is not alive). The pointer is valid until a component of
// type T is added or removed. If T tracks modification, the component is
// marked modified (see [ViewMut]).
func (v ViewMut[T]) Get(id EntityID) (*T, bool) {
	s := v.store()
	x := s.slot(id)
	if x >= uint64(len(s.data)) {
		return nil, false
	}
	if s.track != nil {
		s.track.mark(int(x))
	}
	return &s.data[x], true
}

// MustGet returns a pointer to id's component: the index form, for when the
// entity is known to have one. Panics if it has none, naming the type and
// id. It marks the component modified like [ViewMut.Get].
func (v ViewMut[T]) MustGet(id EntityID) *T {
	s := v.store()
	x := s.slot(id)
	if x >= uint64(len(s.data)) {
		panic(absent{id, s.name, len(s.dense)})
	}
	if s.track != nil {
		s.track.mark(int(x))
	}
	return &s.data[x]
}

// All iterates over every component, in storage order. Do not add or remove
// components of type T while iterating. If T tracks modification, the
// components handed out are marked modified, including the one the loop
// body was given when it broke out of the loop, returned or panicked. Range
// over it while the view is borrowed: ranging it after the release
// panics.
func (v ViewMut[T]) All() iter.Seq[*T] { return allMut(v.c, v.epoch) }

// WithID iterates over every component with the id of its entity, marking
// the components handed out modified if T tracks modification, as
// [ViewMut.All] does.
func (v ViewMut[T]) WithID() iter.Seq2[EntityID, *T] { return withIDMut(v.c, v.epoch) }

// allMut is all for a ViewMut. If T tracks modification, it sets the
// timestamp of each component it hands out, and the summary of its block
// once per block (see pending and marked), keeping the loop itself as
// tight as all's: however the loop ends, even by a panic in its body, the
// summaries are true.
func allMut[T any](c *viewCore[T], epoch uint64) iter.Seq[*T] {
	return func(yield func(*T) bool) {
		s := c.store(epoch)
		data, t := s.data, s.track
		if t != nil && t.kinds&TrackModification != 0 {
			mod, sum, now := t.modifiedAt[:len(data)], t.modBlock[:blocks(len(data))], t.now
			for lo := 0; lo < len(data); lo += 8 {
				b := &sum[lo>>3]
				was := *b
				*b = pending(now)
				end := min(lo+8, len(data))
				for i := lo; i < end; i++ {
					mod[i] = now
					if !yield(&data[i]) {
						*b = was.marked(i+1-lo, now)
						return
					}
				}
				*b = was.marked(end-lo, now)
			}
			return
		}
		for i := range data {
			if !yield(&data[i]) {
				return
			}
		}
	}
}

// withIDMut is allMut with the ids.
func withIDMut[T any](c *viewCore[T], epoch uint64) iter.Seq2[EntityID, *T] {
	return func(yield func(EntityID, *T) bool) {
		s := c.store(epoch)
		data, ids, t := s.data, s.dense[:len(s.data)], s.track
		if t != nil && t.kinds&TrackModification != 0 {
			mod, sum, now := t.modifiedAt[:len(data)], t.modBlock[:blocks(len(data))], t.now
			for lo := 0; lo < len(data); lo += 8 {
				b := &sum[lo>>3]
				was := *b
				*b = pending(now)
				end := min(lo+8, len(data))
				for i := lo; i < end; i++ {
					mod[i] = now
					if !yield(ids[i], &data[i]) {
						*b = was.marked(i+1-lo, now)
						return
					}
				}
				*b = was.marked(end-lo, now)
			}
			return
		}
		for i := range data {
			if !yield(ids[i], &data[i]) {
				return
			}
		}
	}
}

// Lookup iterates over the components of the entities in ids, in the
// order of ids, each with its entity: [ViewMut.Get] for every id of a
// slice, marking each component it hands out modified as Get does. An id
// with no component of type T, or not alive, is skipped; an id given twice
// is visited twice. The loop may add and remove components through the
// view: each id is looked up in the storage as it is then, so Lookup is
// not faster than calling Get (unlike [View.Lookup]). Range over the
// sequence while the view is borrowed: ranging it after the release
// panics, as Get does.
func (v ViewMut[T]) Lookup(ids []EntityID) iter.Seq2[EntityID, *T] {
	return func(yield func(EntityID, *T) bool) {
		v.store() // panics after the release, even with no ids
		for _, id := range ids {
			if p, ok := v.Get(id); ok && !yield(id, p) {
				return
			}
		}
	}
}

// Slice returns the components as a slice, in the order of [ViewMut.IDs]:
// the fastest way to iterate. It aliases the storage; it is invalid after
// a component of type T is added or removed, or the view released. If T
// tracks modification, Slice marks every component modified: it hands
// them all out for writing.
func (v ViewMut[T]) Slice() []T {
	s := v.store()
	if s.track != nil {
		s.track.markAll()
	}
	return s.data
}

// IDs returns the entities owning the components, in the order of
// [ViewMut.Slice]. Do not change it.
func (v ViewMut[T]) IDs() []EntityID { return v.store().dense }

// AddComponent gives the live entity id the component c, replacing the one
// it had. entities is only read, to check that id is alive: pass an
// [EntitiesView] or [EntitiesViewMut]. It returns an [EntityError] if id is
// not alive, and a [GroupError] if T is in a group and a View of the same
// system reads another member (adding a component could move that
// member's components under it), and changes nothing then.
func (v ViewMut[T]) AddComponent(entities AliveChecker, id EntityID, c T) error {
	s := v.store()
	var alive bool
	if ec := coreOf(entities); ec != nil { // no call for Slipway's entities views
		alive = ec.ents().isAlive(id)
	} else {
		alive = entities.IsAlive(id)
	}
	if !alive {
		return s.notAlive(id)
	}
	if s.appendsIdent(id) { // insert, spelled out (see freeEntry)
		s.putIdent(id, c)
	} else if e := s.freeEntry(id); e != nil {
		s.putNew(e, id, c)
		if s.pack != nil && !s.joinNew(id) { // no call outside a group
			return s.movesError("AddComponent", "adding")
		}
	} else if err := v.c.addFinalRefused("AddComponent", id); err != nil {
		return err
	} else if s.insertSlow(id, c) == blocked {
		return s.movesError("AddComponent", "adding")
	}
	return nil
}

// AddDistinct gives the live entity id the component c unless it has an
// equal one already, and reports whether it changed anything: the Go form
// of Shipyard's add_distinct_component. When id has a component equal to
// c (by ==), nothing is written and, if T tracks modification, nothing is
// recorded; otherwise c replaces id's component (recorded as a
// modification) or is inserted (recorded as an insertion), as
// [ViewMut.AddComponent] does. A value that is not equal to itself (a NaN
// float) always counts as different.
//
// It is a function, not a method of ViewMut, because it needs T to be
// comparable. It returns the errors of [ViewMut.AddComponent] (an
// [EntityError] for a dead id, a [GroupError]) with changed false, and
// changes nothing then.
func AddDistinct[T comparable](v ViewMut[T], entities AliveChecker, id EntityID, c T) (changed bool, err error) {
	s := v.store()
	if p := s.get(id); p != nil && *p == c && entities.IsAlive(id) {
		return false, nil
	}
	if err := v.AddComponent(entities, id, c); err != nil {
		return false, err
	}
	return true, nil
}

// AddComponentUnchecked gives id the component c without checking that id is
// alive. It still refuses [NullID], and an id older than the entity that
// owns the same slot in this storage, returning an [EntityError]; adding to
// an id that was deleted, with no newer entity in this storage, is the
// caller's mistake and leaves a component no live entity owns. It returns
// a [GroupError] when [ViewMut.AddComponent] would, and changes nothing
// then.
func (v ViewMut[T]) AddComponentUnchecked(id EntityID, c T) error {
	s := v.store()
	if s.appendsIdent(id) && uint64(id) < noGen { // insert, spelled out (see freeEntry); no forged id of noGen joins a group member's prefix
		s.putIdent(id, c)
		return nil
	}
	if e := s.freeEntry(id); e != nil && id.Index() <= maxIndex {
		s.putNew(e, id, c)
		if s.pack != nil && !s.joinNew(id) { // no call outside a group
			return s.movesError("AddComponentUnchecked", "adding")
		}
		return nil
	}
	if id.Index() > maxIndex {
		return s.refusedUnchecked(id)
	}
	if err := v.c.addFinalRefused("AddComponentUnchecked", id); err != nil {
		return err
	}
	switch s.insertSlow(id, c) {
	case refused:
		return s.refusedUnchecked(id)
	case blocked:
		return s.movesError("AddComponentUnchecked", "adding")
	}
	return nil
}

// AddEntity creates an entity whose only component is c: a shortcut for
// [EntitiesViewMut.AddEntity] followed by [ViewMut.AddComponentUnchecked].
// Panics with a [*GroupError], creating nothing, where AddComponent would
// return one.
func (v ViewMut[T]) AddEntity(entities EntitiesViewMut, c T) EntityID {
	s := v.store()
	if g := s.pack; g != nil && g.reader(s.member) >= 0 {
		panic(s.movesError("AddEntity", "adding"))
	}
	id := entities.c.ents().create()
	s.insert(id, c)
	return id
}

// Remove takes id's component out of the storage and returns it; ok is false
// when id has none (nothing changes then). Panics with a [*GroupError],
// changing nothing, if T is in a group, id is in it, and a View of the same
// system reads another member (removing the component would move that
// member's components under it).
func (v ViewMut[T]) Remove(id EntityID) (c T, ok bool) {
	s := v.store()
	if s.reqBy != nil {
		s.mustKeep("ViewMut["+s.name+"].Remove", id)
	}
	return s.remove(id)
}

// Delete deletes id's component and reports whether there was one. Panics
// with a [*GroupError] where [ViewMut.Remove] does.
func (v ViewMut[T]) Delete(id EntityID) bool {
	s := v.store()
	if s.reqBy != nil {
		s.mustKeep("ViewMut["+s.name+"].Delete", id)
	}
	return s.deleteID(id)
}

// Clear deletes every component of type T. The entities stay alive.
func (v ViewMut[T]) Clear() {
	s := v.store()
	if err := s.keepsAll("ViewMut[" + s.name + "].Clear"); err != nil {
		panic(err)
	}
	s.clear()
}

// SortFunc sorts the components in place by cmp, which returns a
// negative number when a goes before b, a positive one when after, and
// zero when either order will do, as for [slices.SortFunc]: the Go form
// of Shipyard's sort_unstable_by. Components that compare equal keep
// their relative order (the sort is stable). Afterwards [ViewMut.All],
// [ViewMut.WithID], [ViewMut.IDs], [ViewMut.Slice] and the joins driven
// by T's storage visit the components in that order, until components
// of T are added or removed (an addition goes at the end, a removal
// moves the last component into its place). The typical use is render
// order.
//
// Each entity keeps its component: the component moves with its entity,
// its sparse entry and its tracking timestamps. Sorting is not a
// modification; nothing is marked. cmp is given pointers to copies, valid
// only during the call; it must not add or remove components of T.
//
// Automatic re-alignment ([World.SetAutoAlign]) leaves a storage sorted
// so in its order from then on: joins driven by another storage look its
// components up rather than undo the sort. [SortAs] hands it back to
// re-alignment.
//
// If T is in a packed group, the group is sorted: the entities in the
// group come first, sorted by cmp, in every member storage in the same
// order, then T's other components, sorted by cmp.
//
// SortFunc returns an error, changing nothing, if cmp is nil
// ([ErrNilFunc]); if cmp added or removed components of T
// ([ErrSortRefused]); if T is in a group and a View of the same system
// reads another member ([*GroupError]: the sort would move that
// member's components under it); or if an Each through an
// [AllStoragesViewMut] walks the storage ([ErrIterating]). A panic in
// cmp also leaves the storage unchanged. Do not sort while ranging over
// the storage.
func (v ViewMut[T]) SortFunc(cmp func(a, b *T) int) error {
	s := v.store()
	op := "ViewMut[" + s.name + "].SortFunc"
	if cmp == nil {
		return &argError{op: op, what: "cmp is nil", kind: ErrNilFunc}
	}
	return s.order(op, func(lo, hi int) ([]int, []T) { return s.sortFunc(lo, hi, cmp) })
}

// SortByKey sorts the components of v in place by the key that key
// returns for each, in increasing order ([cmp.Compare]'s: a NaN key goes
// first): [ViewMut.SortFunc] with the keys computed once per component
// rather than once per comparison. Components with equal keys keep their
// relative order. key must not add or remove components of T; it is
// called once for each component, with a pointer to it, and nothing is
// marked modified. Everything else, errors included, is as for SortFunc.
func SortByKey[T any, K cmp.Ordered](v ViewMut[T], key func(*T) K) error {
	s := v.store()
	op := "SortByKey[" + s.name + "]"
	if key == nil {
		return &argError{op: op, what: "key is nil", kind: ErrNilFunc}
	}
	return s.order(op, func(lo, hi int) ([]int, []T) { return sortKeys(s, lo, hi, key), nil })
}

// Retain keeps the components for which keep returns true and deletes
// the others, returning how many it deleted: Shipyard's retain. keep
// sees every component once, with its entity, before anything is
// deleted, so a panic in keep leaves the storage as it was. The
// components kept keep their order, unless T is in a packed group (then
// each deletion is [ViewMut.Delete]'s swap). If T tracks deletion, each
// component deleted is recorded as a deletion, with its value, as
// [ViewMut.Delete] records it.
//
// keep is given a pointer to the component itself, to read: a write
// through it is not recorded as a modification. It must not add or
// remove components of T.
//
// Retain returns an error, deleting nothing, if keep is nil
// ([ErrNilFunc]); if keep added or removed components of T
// ([ErrSortRefused]); if T is in a group and a View of the same system
// reads another member ([*GroupError]); or if an Each through an
// [AllStoragesViewMut] walks the storage ([ErrIterating]).
func (v ViewMut[T]) Retain(keep func(id EntityID, c *T) bool) (int, error) {
	s := v.store()
	return s.retain("ViewMut["+s.name+"].Retain", keep)
}

// Drain takes every component out of the storage and returns them with
// their entities, in storage order: ids[i] owned vals[i]. The storage is
// empty afterwards, and keeps its memory for the components added next.
// If T tracks removal, each component is recorded as removed, as
// [ViewMut.Remove] records it. It is one call, with no function of the
// caller's in it, so the storage is never left half drained. The ids
// include those of entities deleted with
// [EntitiesViewMut.DeleteUnchecked] whose components are still there.
func (v ViewMut[T]) Drain() (ids []EntityID, vals []T) { return v.DrainInto(nil, nil) }

// DrainInto is [ViewMut.Drain] appending to ids and vals, so that a
// caller draining every frame can reuse its slices:
//
//	ids, vals = vm.DrainInto(ids[:0], vals[:0])
func (v ViewMut[T]) DrainInto(ids []EntityID, vals []T) ([]EntityID, []T) {
	s := v.store()
	if err := s.keepsAll("ViewMut[" + s.name + "].Drain"); err != nil {
		panic(err)
	}
	return s.drainInto(ids, vals)
}

// absent is the panic value of MustGet for a missing component. It is
// formatted only when printed, so the call site carries no string building.
type absent struct {
	id   EntityID
	name string // the component type
	n    int    // how many entities have one
}

func (a absent) Error() string {
	have := " entities have one)"
	if a.n == 1 {
		have = " entity has one)"
	}
	return "ecs: " + a.id.String() + " has no " + a.name + " component; use Get to handle absence (" + strconv.Itoa(a.n) + have
}

func all[T any](c *viewCore[T], epoch uint64) iter.Seq[*T] {
	return func(yield func(*T) bool) {
		data := c.store(epoch).data
		for i := range data {
			if !yield(&data[i]) {
				return
			}
		}
	}
}

// lookup is View.Lookup. It finds the storage when ranged over, not when
// called, so a sequence kept past the view's release panics. The
// storage's dense arrays and sparse pages stay where they are while a
// View holds them, so the loop keeps the view's copies of its layout in
// locals. In a group, a ViewMut of another member in the same system
// (which the View does not conflict with) can move this storage's
// components in the loop's body; but a group member keeps no prefix, and
// its ids are looked up in the sparse pages, which every move keeps
// right.
func lookup[T any](v View[T], ids []EntityID) iter.Seq2[EntityID, *T] {
	return func(yield func(EntityID, *T) bool) {
		c := v.c
		v.store() // panics after the release (or for a zero View), even with no ids
		pages, data, pre, gen := c.pages, c.data, c.data[:v.ident], v.gen
		for _, id := range ids {
			if x := uint64(id) - gen; x < uint64(len(pre)) {
				if !yield(id, &pre[x]) {
					return
				}
			} else if x := slotIn(pages, uint64(id)); x < uint64(len(data)) {
				if !yield(id, &data[x]) {
					return
				}
			}
		}
	}
}

func withID[T any](c *viewCore[T], epoch uint64) iter.Seq2[EntityID, *T] {
	return func(yield func(EntityID, *T) bool) {
		s := c.store(epoch)
		data, ids := s.data, s.dense[:len(s.data)]
		for i := range data {
			if !yield(ids[i], &data[i]) {
				return
			}
		}
	}
}

// Deleter is a storage components can be deleted from: every [ViewMut].
type Deleter interface {
	Delete(id EntityID) bool
}

// DeleteFrom deletes id's component from each of views and returns how many
// it had: the Go form of deleting through several views at once,
//
//	ecs.DeleteFrom(id, vmPos, vmVel)
//
// To take components out and get them back, use [RemoveFrom2] …
// [RemoveFrom8]; to delete every component of an entity, use [Strip].
//
// Unlike RemoveFrom, DeleteFrom accepts the same view twice: deleting a
// component that is gone already reports false, so the count stays
// true, and any [Deleter] of the caller's can take part.
func DeleteFrom(id EntityID, views ...Deleter) int {
	n := 0
	for _, v := range views {
		if v.Delete(id) {
			n++
		}
	}
	return n
}

// Printing views: View, ViewMut, UniqueView and UniqueViewMut implement
// fmt.Formatter, the Go form of Shipyard's Debug of a view.

// Format prints the view's (id, component) pairs in storage order, as
// [View.WithID] visits them: "[(EntityID(0.0), {1 2}) (EntityID(3.0), {5 6})]".
// The components are printed with the verb and flags given (%v, %+v,
// %#v, %d…), the ids with %v. The %+v form starts with the view's kind
// and type, "View[main.Pos] [...]". A released view (or a copy of one
// kept past its release) prints "View[main.Pos](released)" whatever the
// verb, and does not panic.
func (v View[T]) Format(f fmt.State, verb rune) { formatView(f, verb, "View", v.c.holding(v.epoch)) }

// Format prints the view as [View.Format] does. It reads the components
// without handing them out for writing, so it marks none modified.
func (v ViewMut[T]) Format(f fmt.State, verb rune) {
	formatView(f, verb, "ViewMut", v.c.holding(v.epoch))
}

// Format prints the unique with the verb and flags given; the %+v form
// starts with the view's kind and type, "UniqueView[main.Player] {HP:5}".
// A released view prints "UniqueView[main.Player](released)" and does not
// panic.
func (v UniqueView[T]) Format(f fmt.State, verb rune) {
	formatUnique(f, verb, "UniqueView", v.c.holding(v.epoch))
}

// Format prints the unique as [UniqueView.Format] does.
func (v UniqueViewMut[T]) Format(f fmt.State, verb rune) {
	formatUnique(f, verb, "UniqueViewMut", v.c.holding(v.epoch))
}

// holding returns the storage c holds under the borrow epoch, or nil if c
// is released (or was never borrowed): store without the panic.
func (c *viewCore[T]) holding(epoch uint64) *sparseSet[T] {
	if c == nil || c.s == nil || c.epoch != epoch {
		return nil
	}
	return c.s
}

// holding returns the unique c holds under the borrow epoch, or nil.
func (c *uniqueCore[T]) holding(epoch uint64) *unique[T] {
	if c == nil || c.u == nil || c.epoch != epoch {
		return nil
	}
	return c.u
}

// formatHead prints what comes before a view's contents: the view's kind
// and type for %+v, or, for a released view, that it is released, in
// which case it reports false and nothing else is printed.
func formatHead[T any](f fmt.State, verb rune, kind string, live bool) bool {
	name := kind + "[" + typeName(typeOf[T]()) + "]"
	if !live {
		io.WriteString(f, name+"(released)")
		return false
	}
	if verb == 'v' && f.Flag('+') {
		io.WriteString(f, name+" ")
	}
	return true
}

// formatView prints s, the storage a view of kind borrows (nil if it is
// released), for Format.
func formatView[T any](f fmt.State, verb rune, kind string, s *sparseSet[T]) {
	if !formatHead[T](f, verb, kind, s != nil) {
		return
	}
	item := "(%v, " + fmt.FormatString(f, verb) + ")"
	io.WriteString(f, "[")
	for i, id := range s.dense {
		if i > 0 {
			io.WriteString(f, " ")
		}
		fmt.Fprintf(f, item, id, s.data[i])
	}
	io.WriteString(f, "]")
}

// formatUnique prints u, the unique a view of kind borrows (nil if it is
// released), for Format.
func formatUnique[T any](f fmt.State, verb rune, kind string, u *unique[T]) {
	if formatHead[T](f, verb, kind, u != nil) {
		fmt.Fprintf(f, fmt.FormatString(f, verb), u.v)
	}
}
