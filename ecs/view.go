package ecs

import (
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"
	"unsafe"
)

// View is shared access to the components of type T: read them, iterate
// them, join them with other views. Declare it as a system parameter, or
// borrow it with [World.Borrow].
//
// A View is a small value (three words: a handle and copies of where the
// storage keeps its components), valid until the system returns (or the
// release function of World.Borrow is called); using it later, or a copy
// of it, panics. Pass it by value: a loop over [View.Get] then keeps the
// copies in registers. Pointers it hands out are for reading: Go cannot
// forbid writing through them, but a write through a View is a data race
// the borrow checks cannot see, and it is never recorded as a
// modification. Use a [ViewMut] to change components.
type View[T any] struct {
	c *viewCore[T]

	// Copies of the storage's layout, taken at the borrow, for
	// Get and MustGet: where its components are, and its identity
	// prefix's generation. The compiler keeps a struct of four fields or
	// fewer in registers, so a loop of Gets over a View parameter or
	// variable reads these once. A look-up in the prefix then reads its
	// id, the prefix's length from c (in the cache) and its component,
	// where a plain slice indexed by id reads the index and the element.
	// With base and identGen behind c too, it read two more words per
	// look-up, and at a million entities, where each look-up waits on
	// memory, took 1.6 to 2 times as long as the slice. The length stays
	// in c because the release zeroes it there: every look-up of a
	// released view, or of a copy of one, misses the prefix and panics
	// on the miss. The release zeroes these two in the borrowed variable.
	base     unsafe.Pointer
	identGen uint64
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
	// The blank field, of size zero, keeps ViewMut a struct type of its
	// own, different from any other view's, as View's copies of the
	// layout do for View: a View reads copies of its storage's layout
	// that a ViewMut does not keep, and a ViewMut writes what a View may
	// not. A ViewMut is still one word, stored in an interface as is
	// (see partOf).
	_ [0]int
	c *viewCore[T]
}

// viewCore is the state behind a View or ViewMut. It is allocated once per
// system parameter (or per borrowed variable) and reused by every borrow.
type viewCore[T any] struct {
	s *sparseSet[T] // nil unless borrowed

	// The storage's layout, copied at the borrow of a View for Get,
	// MustGet and Lookup: its identity prefix's length, its sparse pages
	// and its number of components n (the View itself holds the address
	// of the first component and the prefix's generation, see View). A
	// lookup then reads these and none of the storage's fields:
	// the processor has fewer loads to keep in flight per lookup and more
	// room for the misses on the components themselves. A shared borrow
	// keeps the storage as it is until the release, which zeroes the
	// copies: a released view's lookups all miss, and the miss panics.
	// The exception is a View of a group member beside a ViewMut of
	// another member in the same frame (held): see borrow. Unused (zero)
	// in a ViewMut.
	//
	// They come first, after s: View.Get reads ident for every id and s
	// on a miss, and at offsets below 128 bytes the instructions that
	// read them are three bytes shorter (an 8-bit displacement), which
	// keeps a loop of Gets on fewer 64-byte lines of code.
	ident uint64
	pages []*sparsePage
	n     uint64
	room  uint64 // see View.borrowView

	w    *World
	b    borrower
	held bool // the frame holds the storage's borrow (see groupBorrows): the view takes none

	// Tracking (tracking.go): inside a workload, the view's window starts
	// after last, the system's previous run; outside, after the last clear.
	inWorkload bool
	last       uint64
}

// Filter is anything that can tell whether an entity belongs to a set:
// every [View] and [ViewMut] is one. Joins use filters to exclude entities
// ([Iter1.Not]).
type Filter interface {
	Contains(id EntityID) bool
}

// Part is implemented by [View], [ViewMut] and [Changed]: the views a join
// can combine. Its method is unexported; other types cannot be parts of a
// join.
type Part[T any] interface {
	joinView() (*viewCore[T], partKey)
}

// partKey is the kind of view a join reads: whether it hands out
// components for writing, and its Changed filter (0 for a View or ViewMut).
type partKey struct {
	mut   bool
	kinds Tracking
}

// joinView returns the state of the view a join is made of (its storage,
// and whether it is borrowed), and its kind: the join reads the storage
// and its tracking from them when an iteration starts. They are small on
// purpose: returning the storage and the tracking window through Part as
// well doubled what making a join costs.
func (v View[T]) joinView() (*viewCore[T], partKey)    { return v.c, partKey{} }
func (v ViewMut[T]) joinView() (*viewCore[T], partKey) { return v.c, partKey{mut: true} }

// partOf is p.joinView() for a join, spelled as a type switch over Part's
// implementations (its method is unexported, so there are no others).
//
// A View is three words, so converting it to a Part at the join's call
// site copies it to a box that the interface points to, on the stack
// unless it escapes. A call of the interface's method would let it
// escape; so would binding the value in the switch, which escape analysis
// of generic code takes for the interface's data word. So partOf reads a
// View's core, and a Changed's, through the data word, the box's
// address: what escapes is what the box holds, not the box. A ViewMut,
// one pointer and a field of size zero, is the data word itself, with
// no box: partOf reads it as an integer first, so that escape analysis
// does not take it for the data word either. TestPartOf checks each case,
// and TestCustomViewSystemDoesNotAllocate that a join allocates nothing.
func partOf[T any](p Part[T]) (*viewCore[T], partKey) {
	data := &(*[2]unsafe.Pointer)(unsafe.Pointer(&p))[1]
	switch p.(type) {
	case View[T]:
		return (*View[T])(*data).c, partKey{}
	case ViewMut[T]:
		word := *(*uintptr)(unsafe.Pointer(data))
		return *(**viewCore[T])(unsafe.Pointer(&word)), partKey{mut: true}
	case Changed[T]:
		c := (*Changed[T])(*data)
		return c.c, partKey{mut: c.mut, kinds: c.kinds}
	}
	panic("ecs: a join was given a nil view")
}

// trackOp is what a view c of the kind k does with the tracking of its
// storage, which must track: mark what it hands out, and for a Changed
// view, the filter and its window (after the system's previous run inside
// a workload, after the last clear outside).
func (c *viewCore[T]) trackOp(k partKey) (op opTrack) {
	t := c.s.track
	op.mark = k.mut && t.modifiedAt != nil
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

// store returns the borrowed storage. It must stay small enough to inline
// into every accessor, so it panics with a constant.
func (c *viewCore[T]) store() *sparseSet[T] {
	if c == nil || c.s == nil {
		panic(errViewReleased)
	}
	return c.s
}

// errViewReleased is the panic value of a view used outside its borrow.
var errViewReleased = releasedError("a view was")

// The panic values of the other views used outside their borrow. They name
// the view.
var (
	errEntitiesReleased    = releasedError("an entities view was")
	errAllStoragesReleased = releasedError("an AllStoragesViewMut was")
)

// uniqueReleased is the panic value of a unique view of T used outside its
// borrow, naming T. Out of line, so that the accessors stay inlinable.
//
//go:noinline
func uniqueReleased[T any]() error {
	return releasedError("a unique view of " + typeName(typeOf[T]()) + " was")
}

// releasedError returns the error of a view used after release: what
// names the view, and the error wraps [ErrReleased].
func releasedError(what string) error {
	return fmt.Errorf("ecs: %s used after release, or was never borrowed: use views only inside the system, or before calling the release function of World.Borrow: %w", what, ErrReleased)
}

// borrow borrows s, the storage of T in ctx.w, for the view.
func (c *viewCore[T]) borrow(ctx *borrowCtx, s *sparseSet[T], kind accessKind, kindName string) error {
	if c.w != ctx.w || c.b.by != ctx.by || c.b.kind != kind {
		c.w = ctx.w
		c.b = borrower{kind: kind, view: kindName, typ: s.name, by: ctx.by}
	}
	if err := ctx.lockAll(&c.b); err != nil {
		return err
	}
	c.held = s.group != nil && len(ctx.held) > 0 && slices.Contains(ctx.held, s.accessKey())
	if !c.held {
		if err := s.lock.acquire(&c.b, kind.exclusive(), s.name); err != nil {
			ctx.unlockAll(&c.b)
			return err
		}
	}
	c.s = s
	if kind == accView {
		// min: the prefix is never past the components (layoutError
		// checks it); should that break, a look-up still stays inside
		// the array.
		c.pages, c.n = s.pages, uint64(len(s.data))
		c.ident = min(s.pre.n, uint64(len(s.data)))
		// A held view's storage is a group member (another view of the
		// frame can move its components within the group: a swap does
		// not reallocate, so pages, n and the View's address of the
		// components stay valid), which keeps no prefix.
	}
	if s.track != nil {
		c.inWorkload, c.last = ctx.inWorkload, ctx.last
		if kind.exclusive() {
			s.track.now = ctx.stamp()
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
	if !c.held {
		c.s.lock.release(&c.b, c.b.kind.exclusive())
	}
	c.w.allLock.release(&c.b, false)
	c.s, c.pages, c.n, c.ident = nil, nil, 0, 0
}

func (v *View[T]) access(a *accessSet)    { a.add(componentAccess[T]("View", false)) }
func (v *ViewMut[T]) access(a *accessSet) { a.add(componentAccess[T]("ViewMut", true)) }

// borrowView borrows the view's core. A view variable gets a core of its
// own at its first borrow and keeps it, so that later borrows allocate
// nothing. A copy of a view shares its core; borrowing the copy while the
// original is borrowed gives the copy a new core, so that each borrow is
// released by its own release (and a failed borrow releases nothing of
// the original's). ViewMut.borrowView does the same.
//
// A View's copies of the layout add one case. A copy of the view kept past
// the release shares the core, and reads the prefix's length, the pages
// and n from it, but the address of the components from the copy: if the
// core is borrowed again over more components, such a copy would read
// past the end of the array it holds. So the core keeps room, the least
// capacity of the arrays it was borrowed over, and is reused only for a
// storage of no more components than that; otherwise the view takes a
// new core, and leaves such copies a released core, whose look-ups
// panic. A storage outgrows room when it grows past its capacity, or when
// a system alternates between worlds of different sizes; in a steady
// state the core is reused.
func (v *View[T]) borrowView(ctx *borrowCtx) error {
	s := storageFor[T](ctx.w)
	if v.c == nil || v.c.s != nil || v.c.room < uint64(len(s.data)) {
		v.c = &viewCore[T]{room: math.MaxUint64}
	}
	if err := v.c.borrow(ctx, s, accView, "View"); err != nil {
		return err
	}
	v.c.room = min(v.c.room, uint64(cap(s.data)))
	v.base, v.identGen = unsafe.Pointer(unsafe.SliceData(s.data)), s.pre.gen
	return nil
}

func (v *ViewMut[T]) borrowView(ctx *borrowCtx) error {
	if v.c == nil || v.c.s != nil { // as View.borrowView
		v.c = &viewCore[T]{}
	}
	return v.c.borrow(ctx, storageFor[T](ctx.w), accViewMut, "ViewMut")
}

func (v *View[T]) releaseView() {
	v.c.release()
	v.base, v.identGen = nil, 0
}
func (v *ViewMut[T]) releaseView() { v.c.release() }

// Len returns the number of components in the storage.
func (v View[T]) Len() int { return len(v.c.store().dense) }

// IsEmpty reports whether the storage has no component.
func (v View[T]) IsEmpty() bool { return len(v.c.store().dense) == 0 }

// Contains reports whether id has a component of type T. A stale id
// reports false.
func (v View[T]) Contains(id EntityID) bool { return v.c.store().has(id) }

// Get returns a pointer to id's component, and false if id has none (or
// is not alive). The pointer is valid until the storage changes (a component
// of type T is added or removed) and is for reading only.
//
// Get is small enough for the compiler to inline at the call site. To stay
// so, it checks only for a released view, or a copy of one (a panic
// wrapping [ErrReleased]); a zero View that was never borrowed panics with
// a nil dereference.
func (v View[T]) Get(id EntityID) (*T, bool) {
	c := v.c
	x := uint64(id) - v.identGen // the storage's slot(id), on the copies in v and c
	if x >= c.ident {
		// slotIn, spelled out. An id past the page table keeps its x,
		// which is a miss too: with the prefix's generation, x is its
		// index, at least the prefix's length and the table's reach, and
		// every component of the storage sits in one of the two, so x is
		// at least n; with another generation, x is 2^32 or more. Leaving
		// out slotIn's math.MaxUint64 leaves Get a shorter path off the
		// prefix, which sits between the prefix's test and its return
		// (see TestGetPastThePageTable).
		//
		// The look-up reads x, not id: x has id's index in its low 32
		// bits (identGen has none), and id's generation bits are x's plus
		// identGen's. So a loop around an inlined Get keeps no copy of id
		// for this path, and the path of an id in the prefix, from the
		// loop's test to the prefix's, is shorter (22 bytes in Random's
		// loop, with ident's 8-bit offset in viewCore): fewer placements
		// of the loop split it over two 64-byte lines of code, which
		// costs the processor one more fetch per id (up to 1.6 times the
		// time per id on the AMD EPYC of the benchmarks).
		if p := uint32(x) >> pageShift; int(p) < len(c.pages) {
			x = (c.pages[p][x&pageMask] ^ (x - uint64(uint32(x)) + v.identGen)) - 1
		}
		if x >= c.n {
			if c.s == nil {
				panic(errViewReleased)
			}
			return nil, false
		}
	}
	// The component's address, spelled out here, in MustGet and in lookup:
	// a generic helper would put Get over the inlining budget.
	return (*T)(unsafe.Add(v.base, uintptr(x)*unsafe.Sizeof(*new(T)))), true
}

// MustGet returns a pointer to id's component: the index form, for when the
// entity is known to have one. Panics if it has none, naming the type and id.
func (v View[T]) MustGet(id EntityID) *T {
	c := v.c
	x := uint64(id) - v.identGen
	if x >= c.ident {
		if x = slotIn(c.pages, uint64(id)); x >= c.n {
			panic(missing[T]{id, c.s}) // one panic for both failures keeps MustGet inlinable
		}
	}
	return (*T)(unsafe.Add(v.base, uintptr(x)*unsafe.Sizeof(*new(T))))
}

// All iterates over every component, in storage order (unspecified, and
// changed by removals). Like every sequence a view returns, it finds the
// storage when ranged over: range over it while the view is borrowed, as
// ranging it after the release panics.
func (v View[T]) All() iter.Seq[*T] { return all(v.c) }

// WithID iterates over every component with the id of its entity.
func (v View[T]) WithID() iter.Seq2[EntityID, *T] { return withID(v.c) }

// Lookup iterates over the components of the entities in ids, in the
// order of ids, each with its entity: [View.Get] for every id of a slice.
// An id with no component of type T, or not alive, is skipped; an id given
// twice is visited twice. The pointers are for reading, as Get's are.
// Range over the sequence while the view is borrowed: ranging it after
// the release panics, as Get does.
//
// Lookup is the fast way to look up many ids. Get reads where the
// storage keeps its components, and the length of its identity prefix,
// for every id (the view's copies of them: Go does not hoist those reads
// out of a loop); Lookup reads them once per range, so each id costs the
// reads of the id and its component (and of its sparse entry, for an id
// outside the storage's identity prefix), as indexing a plain slice costs
// the index and the element, and a processor can have more of the
// lookups in flight at once: see docs/performance-tips.md.
func (v View[T]) Lookup(ids []EntityID) iter.Seq2[EntityID, *T] { return lookup(v, ids) }

// Slice returns the components as a slice, in the same order as [View.IDs]:
// the fastest way to iterate, with no call per entity. It aliases the
// storage: do not keep it after the view is released, and do not write to
// it through a View.
func (v View[T]) Slice() []T { return v.c.store().data }

// IDs returns the entities owning the components, in the order of
// [View.Slice]. It aliases the storage: do not change it.
func (v View[T]) IDs() []EntityID { return v.c.store().dense }

// Len returns the number of components in the storage.
func (v ViewMut[T]) Len() int { return len(v.c.store().dense) }

// IsEmpty reports whether the storage has no component.
func (v ViewMut[T]) IsEmpty() bool { return len(v.c.store().dense) == 0 }

// Contains reports whether id has a component of type T.
func (v ViewMut[T]) Contains(id EntityID) bool { return v.c.store().has(id) }

// Get returns a pointer to id's component, to read or change, and false if
// id has none (or is not alive). The pointer is valid until a component of
// type T is added or removed. If T tracks modification, the component is
// marked modified (see [ViewMut]).
func (v ViewMut[T]) Get(id EntityID) (*T, bool) {
	s := v.c.store()
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
	s := v.c.store()
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
// components handed out are marked modified when the loop ends, including
// the one the loop body was given when it broke out of the loop. Range
// over it while the view is borrowed: ranging it after the release
// panics.
func (v ViewMut[T]) All() iter.Seq[*T] { return allMut(v.c) }

// WithID iterates over every component with the id of its entity, marking
// the components handed out modified if T tracks modification.
func (v ViewMut[T]) WithID() iter.Seq2[EntityID, *T] { return withIDMut(v.c) }

// allMut is all for a ViewMut: it counts what it hands out, and marks that
// many components modified after the loop, keeping the loop itself as
// tight as all's.
func allMut[T any](c *viewCore[T]) iter.Seq[*T] {
	return func(yield func(*T) bool) {
		s := c.store()
		data, t := s.data, s.track
		if t != nil && t.modifiedAt != nil {
			mod, now := t.modifiedAt[:len(data)], t.now
			for i := range data {
				mod[i] = now
				if !yield(&data[i]) {
					t.markBlocks(i + 1)
					return
				}
			}
			t.markBlocks(len(data))
			return
		}
		for i := range data {
			if !yield(&data[i]) {
				return
			}
		}
	}
}

func withIDMut[T any](c *viewCore[T]) iter.Seq2[EntityID, *T] {
	return func(yield func(EntityID, *T) bool) {
		s := c.store()
		data, ids, t := s.data, s.dense[:len(s.data)], s.track
		i := 0
		for i < len(data) {
			i++
			if !yield(ids[i-1], &data[i-1]) {
				break
			}
		}
		if t != nil {
			t.markFirst(i)
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
		v.c.store() // panics after the release, even with no ids
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
	s := v.c.store()
	if s.track != nil {
		s.track.markAll()
	}
	return s.data
}

// IDs returns the entities owning the components, in the order of
// [ViewMut.Slice]. Do not change it.
func (v ViewMut[T]) IDs() []EntityID { return v.c.store().dense }

// AddComponent gives the live entity id the component c, replacing the one
// it had. entities is only read, to check that id is alive: pass an
// [EntitiesView] or [EntitiesViewMut]. It returns an [EntityError] if id is
// not alive, and changes nothing then.
func (v ViewMut[T]) AddComponent(entities AliveChecker, id EntityID, c T) error {
	s := v.c.store()
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
		s.joinNew(id)
	} else {
		s.insertSlow(id, c)
	}
	return nil
}

// notAlive is AddComponent's error, built out of line so that its string
// concatenation does not weigh on the common path.
//
//go:noinline
func (s *sparseSet[T]) notAlive(id EntityID) error {
	return &EntityError{Op: "ViewMut[" + s.name + "].AddComponent", ID: id}
}

// AddComponentUnchecked gives id the component c without checking that id is
// alive. It still refuses [NullID], and an id older than the entity that
// owns the same slot in this storage, returning an [EntityError]; adding to
// an id that was deleted, with no newer entity in this storage, is the
// caller's mistake and leaves a component no live entity owns.
func (v ViewMut[T]) AddComponentUnchecked(id EntityID, c T) error {
	s := v.c.store()
	if s.appendsIdent(id) && uint64(id) < noGen { // insert, spelled out (see freeEntry); no forged id of noGen joins a group member's prefix
		s.putIdent(id, c)
		return nil
	}
	if e := s.freeEntry(id); e != nil && id.Index() <= maxIndex {
		s.putNew(e, id, c)
		s.joinNew(id)
		return nil
	}
	if id.Index() > maxIndex || s.insertSlow(id, c) == refused {
		return s.refusedUnchecked(id)
	}
	return nil
}

// refusedUnchecked is AddComponentUnchecked's error, built out of line as
// notAlive is.
//
//go:noinline
func (s *sparseSet[T]) refusedUnchecked(id EntityID) error {
	return &EntityError{Op: "ViewMut[" + s.name + "].AddComponentUnchecked", ID: id}
}

// AddEntity creates an entity whose only component is c: a shortcut for
// [EntitiesViewMut.AddEntity] followed by [ViewMut.AddComponentUnchecked].
func (v ViewMut[T]) AddEntity(entities EntitiesViewMut, c T) EntityID {
	s := v.c.store()
	id := entities.c.ents().create()
	s.insert(id, c)
	return id
}

// Remove takes id's component out of the storage and returns it; ok is false
// when id has none (nothing changes then).
func (v ViewMut[T]) Remove(id EntityID) (c T, ok bool) { return v.c.store().remove(id) }

// Delete deletes id's component and reports whether there was one.
func (v ViewMut[T]) Delete(id EntityID) bool { return v.c.store().deleteID(id) }

// Clear deletes every component of type T. The entities stay alive.
func (v ViewMut[T]) Clear() { v.c.store().clear() }

// absent is the panic value of MustGet for a missing component. It is
// formatted only when printed, so the call site carries no string building.
type absent struct {
	id   EntityID
	name string // the component type
	n    int    // how many entities have one
}

func (a absent) Error() string {
	return "ecs: " + a.id.String() + " has no " + a.name + " component; use Get to handle absence (" + strconv.Itoa(a.n) + " entities have one)"
}

// missing is the panic value of View.MustGet: absent, or errViewReleased if
// the view has no storage (s is nil). It holds the storage rather than its
// name and size so that the call site stays small enough to inline; the
// size is read when the message is formatted.
type missing[T any] struct {
	id EntityID
	s  *sparseSet[T]
}

func (m missing[T]) Error() string {
	if m.s == nil {
		return errViewReleased.Error()
	}
	return absent{m.id, m.s.name, len(m.s.dense)}.Error()
}

func (m missing[T]) Unwrap() error {
	if m.s == nil {
		return errViewReleased
	}
	return nil
}

func all[T any](c *viewCore[T]) iter.Seq[*T] {
	return func(yield func(*T) bool) {
		data := c.store().data
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
// View holds them, so the loop keeps them in locals, and its identity
// prefix too. In a group, a ViewMut of another member in the same system
// (which the View does not conflict with) can move this storage's
// components in the loop's body; but a group member keeps no prefix, and
// its ids are looked up in the sparse pages, which every move keeps
// right.
func lookup[T any](v View[T], ids []EntityID) iter.Seq2[EntityID, *T] {
	return func(yield func(EntityID, *T) bool) {
		// View.Get on locals: the copies of the storage's layout in v
		// and its core stay valid while the view is borrowed.
		c := v.c
		c.store() // panics after the release (or for a zero View), even with no ids
		pages, n, base, ident, gen := c.pages, c.n, v.base, c.ident, v.identGen
		// With a prefix, an id of it takes the first branch to a yield of
		// its own, so that its path through the loop has no jump but the
		// one back: with the prefix's test ahead of a branch to a yield
		// shared with the pages' path, Random slipway-bulk at 1,000 and
		// 16,000 entities took 20-35% longer (benchstat, 6 alternated
		// runs). With none, the loop is the pages' look-up alone
		// (RandomMoved: 20-40% faster than behind a test of the prefix).
		if ident == 0 {
			for _, id := range ids {
				if x := slotIn(pages, uint64(id)); x < n {
					if !yield(id, (*T)(unsafe.Add(base, uintptr(x)*unsafe.Sizeof(*new(T))))) {
						return
					}
				}
			}
			return
		}
		for _, id := range ids {
			if x := uint64(id) - gen; x < ident {
				if !yield(id, (*T)(unsafe.Add(base, uintptr(x)*unsafe.Sizeof(*new(T))))) {
					return
				}
				continue
			}
			if x := slotIn(pages, uint64(id)); x < n {
				if !yield(id, (*T)(unsafe.Add(base, uintptr(x)*unsafe.Sizeof(*new(T))))) {
					return
				}
			}
		}
	}
}

func withID[T any](c *viewCore[T]) iter.Seq2[EntityID, *T] {
	return func(yield func(EntityID, *T) bool) {
		s := c.store()
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
// To take components out and get them back, call [ViewMut.Remove] on each
// view; to delete every component of an entity, use [Strip].
func DeleteFrom(id EntityID, views ...Deleter) int {
	n := 0
	for _, v := range views {
		if v.Delete(id) {
			n++
		}
	}
	return n
}
