package ecs

import (
	"errors"
	"fmt"
	"iter"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
)

// Isotopes (Dynec's isotope components): an entity may hold several
// components of one type T, each keyed by a discriminant, a value of a
// comparable type D. Each discriminant has a storage of its own, an
// ordinary *sparseSet[T] with its own borrow, created on first use and
// listed with the world's other storages (so deleting an entity, the
// memory report and snapshots cover it). The storages of one pair
// (D, T) form a family, which has a borrow of its own too: a full write
// (IsoViewMut) holds it exclusively, every other isotope view of the
// family shares it, so that a discriminant cannot appear under a full
// writer. A full view borrows each discriminant's storage as well, those
// that exist when it is borrowed at once and those created later when it
// first reaches them; a partial view (IsoSubView, IsoSubViewMut)
// borrows its set's storages, creating them if needed.

// IsoSet names the discriminants of a partial isotope view
// ([IsoSubView], [IsoSubViewMut]): a type, usually an empty struct,
// whose Discriminants method lists them. The set is part of the view's
// type, so it is fixed when the system is analysed, and workloads can
// tell which systems touch which discriminants: Slipway calls
// Discriminants once per type, on the zero value, and keeps the answer.
// It must list at least one discriminant; repeats count once.
type IsoSet[D comparable] interface {
	Discriminants() []D
}

// IsotopeError is the panic value of an isotope view asked for a
// discriminant it does not cover ([IsoSubView.Of] outside its set), and
// the error of a discriminant that cannot key a storage (a value of an
// interface type D whose dynamic type is not comparable). It wraps
// [ErrIsotope].
type IsotopeError struct {
	View          string // the view or call: "IsoSubView[main.Element, main.Amount, main.Hot]"
	Type          string // the component type: "main.Amount"
	Discriminant  string // the discriminant, as fmt's %v prints it
	Discriminants string // the view's set, "[Fire Water]", if it has one
	Reason        string
}

// ErrIsotope is wrapped by every [IsotopeError].
var ErrIsotope = errors.New("isotope discriminant refused")

func (e *IsotopeError) Error() string {
	return "ecs: " + e.View + ": discriminant " + e.Discriminant + " of " + e.Type + " " + e.Reason
}

// Unwrap returns [ErrIsotope].
func (e *IsotopeError) Unwrap() error { return ErrIsotope }

// isoFamKey is the type that keys the family of (D, T) in World.isos and
// in resKeys: a type of its own, so that an isotope storage never shares
// a key with T's storage, nor with T's isotopes by another D.
type isoFamKey[D comparable, T any] struct{}

// isoWhole is the discriminant of a resKey that stands for every
// discriminant of a family: the key of a full view's access. No value of
// a user's D can equal it: the type is unexported.
type isoWhole struct{}

// isoTag is what an isotope storage keeps of its family.
type isoTag struct {
	key resKey
	// home returns the storage of the same family and discriminant in
	// w, creating it if needed (a snapshot restored into another world).
	home func(w *World) storage
}

// isoFamily is the family of (D, T) in one world.
type isoFamily[D comparable, T any] struct {
	w     *World
	tname string // "main.Amount"
	name  string // "main.Amount#*": the family's borrow, in messages
	lock  borrowState
	// readers is held shared by the full reads (IsoView): a partial
	// write refuses to start while it is (see isoCore.borrow).
	readers borrowState
	mu      sync.Mutex // serialises the creation of storages
	cur     atomic.Pointer[isoIndex[D, T]]
}

// isoIndex lists a family's storages, in the order they were created.
// An index is never changed once published: creating a storage publishes
// a new one.
type isoIndex[D comparable, T any] struct {
	pos   map[D]int
	discs []D
	sets  []*sparseSet[T]
}

// isoFamilyOf returns w's family of (D, T), creating it on first use.
func isoFamilyOf[D comparable, T any](w *World) *isoFamily[D, T] {
	k := keyFor[isoFamKey[D, T]]()
	if f, ok := w.isos.get(k); ok {
		return f.(*isoFamily[D, T])
	}
	return w.isos.add(k, func() any {
		t := typeName(typeOf[T]())
		return &isoFamily[D, T]{w: w, tname: t, name: t + "#*"}
	}).(*isoFamily[D, T])
}

// index returns the family's current index (an empty one before the
// first storage).
func (f *isoFamily[D, T]) index() *isoIndex[D, T] {
	if x := f.cur.Load(); x != nil {
		return x
	}
	return &isoIndex[D, T]{}
}

// storage returns the storage of discriminant d, creating it if needed.
// d must be comparable (checkDisc). Creating a storage borrows nothing:
// it touches no existing storage.
func (f *isoFamily[D, T]) storage(d D) *sparseSet[T] {
	if x := f.cur.Load(); x != nil {
		if i, ok := x.pos[d]; ok {
			return x.sets[i]
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	old := f.index()
	if i, ok := old.pos[d]; ok {
		return old.sets[i]
	}
	s := newSparseSet[T]()
	s.name = isoName(f.tname, d)
	s.iso = &isoTag{
		key:  resKey{t: keyFor[isoFamKey[D, T]](), d: d},
		home: func(w *World) storage { return isoFamilyOf[D, T](w).storage(d) },
	}
	if k := declaredTracking[T](); k != 0 {
		s.enableTracking(k, &f.w.clock)
	}
	x := &isoIndex[D, T]{
		pos:   make(map[D]int, len(old.pos)+1),
		discs: append(old.discs[:len(old.discs):len(old.discs)], d),
		sets:  append(old.sets[:len(old.sets):len(old.sets)], s),
	}
	for k, v := range old.pos {
		x.pos[k] = v
	}
	x.pos[d] = len(x.sets) - 1
	// Listed with the world's storages first, so that whoever finds it
	// in the family finds it there too.
	f.w.comps.addUnkeyed(s)
	f.cur.Store(x)
	return s
}

// isoName names the storage of discriminant d of T: "main.Amount#Fire".
func isoName[D any](tname string, d D) string { return tname + "#" + fmt.Sprint(d) }

// checkDisc returns an *IsotopeError if d cannot key a storage: d is not
// equal to itself (a NaN, or a value holding one), so that no look-up
// would ever find its storage, or D is an interface type and d's
// dynamic type is not comparable (using it as a map key would panic).
func checkDisc[D comparable, T any](view string, d D) error {
	if reflect.TypeFor[D]().Kind() == reflect.Interface {
		if v := reflect.ValueOf(any(d)); v.IsValid() && !v.Comparable() {
			return &IsotopeError{View: view, Type: typeName(typeOf[T]()), Discriminant: fmt.Sprintf("%v (%T)", d, d), Reason: "is of a type that is not comparable, so it cannot key a storage"}
		}
	}
	if d != d {
		return &IsotopeError{View: view, Type: typeName(typeOf[T]()), Discriminant: fmt.Sprint(d), Reason: "is not equal to itself (a NaN), so it cannot key a storage"}
	}
	return nil
}

// isoSet is the analysed discriminant set of a partial view.
type isoSet[D comparable] struct {
	list []D
	pos  map[D]int
	text string // "[Fire Water]"
}

var isoSets sync.Map // reflect.Type of S -> *isoSet[D] or string (why S is refused)

// isoSetOf returns the set S names, or why it is refused.
func isoSetOf[D comparable, T any, S IsoSet[D]]() (*isoSet[D], string) {
	k := reflect.TypeFor[S]()
	if v, ok := isoSets.Load(k); ok {
		if s, ok := v.(*isoSet[D]); ok {
			return s, ""
		}
		return nil, v.(string)
	}
	s, reason := buildIsoSet[D, T, S]()
	if s != nil {
		isoSets.Store(k, s)
	} else {
		isoSets.Store(k, reason)
	}
	return s, reason
}

func buildIsoSet[D comparable, T any, S IsoSet[D]]() (set *isoSet[D], reason string) {
	sname := typeName(reflect.TypeFor[S]())
	defer func() {
		if r := recover(); r != nil {
			set, reason = nil, fmt.Sprintf("has a discriminant set %s whose Discriminants method panicked on the zero value: %v", sname, r)
		}
	}()
	var zero S
	list := zero.Discriminants()
	if len(list) == 0 {
		return nil, "has a discriminant set " + sname + " that lists no discriminant"
	}
	set = &isoSet[D]{pos: make(map[D]int, len(list))}
	var text []string
	for _, d := range list {
		if err := checkDisc[D, T]("", d); err != nil {
			e := err.(*IsotopeError)
			return nil, "has a discriminant set " + sname + " whose discriminant " + e.Discriminant + " " + e.Reason
		}
		if _, ok := set.pos[d]; ok {
			continue
		}
		set.pos[d] = len(set.list)
		set.list = append(set.list, d)
		text = append(text, fmt.Sprint(d))
	}
	set.text = "[" + strings.Join(text, " ") + "]"
	return set, ""
}

// isoCore is the state behind an isotope view, allocated once per view
// variable (or system parameter) and reused by its borrows, as viewCore
// is.
type isoCore[D comparable, T any] struct {
	f     *isoFamily[D, T] // nil unless borrowed
	epoch uint64
	mut   bool
	set   *isoSet[D] // a partial view's discriminants; nil for a full view
	view  string     // "IsoViewMut[main.Element, main.Amount]"
	b     *borrower  // the family's borrow
	ctx   borrowCtx  // what the cores' borrows need, for the late ones
	// reading is set while a full read holds the family's readers.
	reading bool

	// cores[i] views the family's i-th storage (a full view) or the
	// storage of set.list[i] (a partial view); cores[:n] are borrowed.
	// They are kept from one borrow to the next. mu guards n and cores
	// while a full view borrows late ones (Of and its siblings may be
	// called from several goroutines of one system).
	mu    sync.Mutex
	cores []*viewCore[T]
	n     int

	home  *World
	homeF *isoFamily[D, T]
}

// isoViewName returns "kind[main.Element, main.Amount]", or, with a set
// type S, "kind[main.Element, main.Amount, main.Hot]".
func isoViewName[D comparable, T any](kind string, s reflect.Type) string {
	n := kind + "[" + typeName(typeOf[D]()) + ", " + typeName(typeOf[T]())
	if s != nil {
		n += ", " + typeName(s)
	}
	return n + "]"
}

// isoAccess appends the accesses of an isotope view: the whole family
// for a full view, each discriminant of set for a partial one.
func isoAccess[D comparable, T any](a *accessSet, view string, excl bool, set *isoSet[D]) {
	key := keyFor[isoFamKey[D, T]]()
	tname := typeName(typeOf[T]())
	if set == nil {
		a.add(Access{Kind: IsotopeStorage, Type: tname + "#*", Exclusive: excl, View: view, key: resKey{t: key, d: isoWhole{}}})
		return
	}
	for _, d := range set.list {
		a.add(Access{Kind: IsotopeStorage, Type: isoName(tname, d), Exclusive: excl, View: view, key: resKey{t: key, d: d}})
	}
}

// isoProblem is why an isotope view of T cannot be borrowed, or "".
func isoProblem[T any]() string {
	if _, ok := any(*new(T)).(Terminating); ok {
		return "is an isotope view of ecs.Terminating, which only the world writes, in its own storage"
	}
	return ""
}

// borrowIso borrows an isotope view whose core is *cp, as View.borrowView
// does a View: a core of its own per borrow, the variable unchanged by a
// failed borrow. describe gives the view's name and set (nil for a full
// view), or why its set is refused; it is called for the variable's
// first core only: later cores take them from the one before.
func borrowIso[D comparable, T any](cp **isoCore[D, T], epoch *uint64, ctx *borrowCtx, mut bool, describe func() (string, *isoSet[D], string)) (releaser, error) {
	c := *cp
	if c == nil {
		view, set, reason := describe()
		if reason == "" {
			reason = isoProblem[T]()
		}
		if reason != "" {
			return nil, &argError{op: view, what: reason, kind: ErrInvalidView}
		}
		c = &isoCore[D, T]{mut: mut, set: set, view: view}
	} else if c.f != nil {
		c = &isoCore[D, T]{mut: mut, set: c.set, view: c.view}
	}
	if err := c.borrow(ctx); err != nil {
		return nil, err
	}
	*cp, *epoch = c, c.epoch
	return c, nil
}

func (c *isoCore[D, T]) borrow(ctx *borrowCtx) error {
	w := ctx.w
	if c.home != w {
		c.home, c.homeF = w, isoFamilyOf[D, T](w)
	}
	f := c.homeF
	kind := accView
	if c.mut {
		kind = accViewMut
	}
	if c.b == nil || c.b.by != ctx.by || c.b.under != ctx.ownsNoAll() {
		c.b = &borrower{kind: kind, view: c.view, by: ctx.by, under: ctx.ownsNoAll()}
	}
	if err := ctx.lockAll(c.b); err != nil {
		return err
	}
	// Only a full write holds the family exclusively: partial writers
	// of disjoint sets share it, and meet on their storages' borrows.
	excl := c.mut && c.set == nil
	if err := f.lock.acquire(c.b, excl, f.name); err != nil {
		ctx.unlockAll(c.b)
		return err
	}
	// The storages' cores borrow with a copy of ctx, also later in the
	// run (catchUp): under a frame's borrow of all storages (shareAll),
	// which lockAll above took if no view had, they take none of their
	// own.
	c.ctx = borrowCtx{w: w, by: ctx.by, inWorkload: ctx.inWorkload, last: ctx.last, under: ctx.under, shareAll: ctx.shareAll, allB: ctx.allB}
	c.f = f
	c.n = 0
	var err error
	switch {
	case c.set != nil:
		for _, d := range c.set.list {
			if err = c.borrowNext(f.storage(d)); err != nil {
				break
			}
		}
		// A full read conflicts with a partial write, but may have
		// been borrowed before a discriminant of the write existed,
		// so that the storages' borrows do not meet: the full reads
		// announce themselves in readers before they read the index,
		// and the write looks there after its storages exist (both
		// atomic), so one of the two sees the other.
		if err == nil && c.mut && f.readers.n.Load() > 0 {
			err = f.readers.conflict(c.b, f.name)
		}
	case c.mut:
		err = c.catchUp()
	default:
		_ = f.readers.acquire(c.b, false, f.name) // never held exclusively
		c.reading = true
		err = c.catchUp()
	}
	if err != nil {
		c.release()
		return err
	}
	return nil
}

// borrowNext borrows s into the next core.
func (c *isoCore[D, T]) borrowNext(s *sparseSet[T]) error {
	if c.n == len(c.cores) {
		c.cores = append(c.cores, &viewCore[T]{})
	}
	kind, name := accView, "View"
	if c.mut {
		kind, name = accViewMut, "ViewMut"
	}
	if err := c.cores[c.n].borrow(&c.ctx, s, kind, name); err != nil {
		return err
	}
	c.n++
	return nil
}

// catchUp borrows, for a full view, the family's storages it has not
// borrowed yet: those created since.
func (c *isoCore[D, T]) catchUp() error {
	x := c.f.index()
	for c.n < len(x.sets) {
		if err := c.borrowNext(x.sets[c.n]); err != nil {
			return err
		}
	}
	return nil
}

func (c *isoCore[D, T]) release() {
	if c == nil || c.f == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.n > 0 {
		c.n--
		c.cores[c.n].release()
	}
	if c.reading {
		c.f.readers.release(c.b, false)
		c.reading = false
	}
	c.f.lock.release(c.b, c.mut && c.set == nil)
	c.ctx.unlockAll(c.b)
	c.f = nil
	c.ctx = borrowCtx{}
	c.epoch++
}

// live returns c if it holds the borrow epoch, and panics otherwise.
func (c *isoCore[D, T]) live(epoch uint64, view string) *isoCore[D, T] {
	if c == nil || c.f == nil || c.epoch != epoch {
		panic(released{view})
	}
	return c
}

// core returns the borrowed core of d's storage. A full view creates the
// storage if needed when create is set (it returns nil otherwise for a
// discriminant with no storage); a partial view panics with an
// *IsotopeError for a discriminant outside its set.
func (c *isoCore[D, T]) core(d D, create bool) *viewCore[T] {
	if c.set != nil {
		i, ok := c.set.pos[d]
		if !ok {
			panic(&IsotopeError{View: c.view, Type: c.f.tname, Discriminant: fmt.Sprint(d), Discriminants: c.set.text, Reason: "is outside the view's discriminants " + c.set.text})
		}
		return c.cores[i]
	}
	if err := checkDisc[D, T](c.view, d); err != nil {
		panic(err)
	}
	x := c.f.index()
	i, ok := x.pos[d]
	if !ok {
		if !create {
			return nil
		}
		c.f.storage(d)
		i = c.f.index().pos[d]
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if i >= c.n {
		if err := c.catchUp(); err != nil {
			panic(err)
		}
	}
	return c.cores[i]
}

// cover returns the discriminants the view covers and their borrowed
// cores: a partial view's set, or every discriminant of the family (a
// full view borrows those created since first).
func (c *isoCore[D, T]) cover() ([]D, []*viewCore[T]) {
	if c.set != nil {
		return c.set.list, c.cores[:len(c.set.list)]
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.catchUp(); err != nil {
		panic(err)
	}
	return c.f.index().discs[:c.n], c.cores[:c.n]
}

// IsoView is shared access to every isotope of T by discriminant type D:
// the components of type T an entity holds, each under a discriminant,
// a value of D (Dynec's isotope components). Each discriminant has a
// storage of its own; [IsoView.Of] gives a [View] of one, which reads and
// joins as any View does. Declare it as a system parameter, or borrow it
// with [World.Borrow].
//
// It reads every discriminant, those that appear while it is held too,
// so it conflicts with every write to the isotopes of T by D: an
// [IsoViewMut], or an [IsoSubViewMut]. To read some discriminants only,
// use an [IsoSubView].
type IsoView[D comparable, T any] struct {
	c     *isoCore[D, T]
	epoch uint64
}

// IsoViewMut is exclusive access to every isotope of T by discriminant
// type D: what an [IsoView] does, with [ViewMut]s of the discriminants,
// which add, change and remove components; a discriminant's storage is
// created the first time it is asked for. It conflicts with every other
// access to the isotopes of T by D. To write some discriminants only,
// use an [IsoSubViewMut].
type IsoViewMut[D comparable, T any] struct {
	c     *isoCore[D, T]
	epoch uint64
}

// IsoSubView is shared access to the isotopes of T under the
// discriminants S lists (see [IsoSet]): a partial access. It conflicts
// only with writes to those discriminants, so systems reading and
// writing disjoint sets run in parallel in a workload. Asking it for a
// discriminant outside the set panics with an [*IsotopeError].
type IsoSubView[D comparable, T any, S IsoSet[D]] struct {
	c     *isoCore[D, T]
	epoch uint64
}

// IsoSubViewMut is exclusive access to the isotopes of T under the
// discriminants S lists: a partial write. It conflicts with every
// access to those discriminants, and with full accesses ([IsoView],
// [IsoViewMut]) to the isotopes of T by D; systems writing disjoint sets
// run in parallel.
type IsoSubViewMut[D comparable, T any, S IsoSet[D]] struct {
	c     *isoCore[D, T]
	epoch uint64
}

func (v *IsoView[D, T]) access(a *accessSet) {
	isoAccess[D, T](a, isoViewName[D, T]("IsoView", nil), false, nil)
}

func (v *IsoViewMut[D, T]) access(a *accessSet) {
	isoAccess[D, T](a, isoViewName[D, T]("IsoViewMut", nil), true, nil)
}

func (v *IsoSubView[D, T, S]) access(a *accessSet) {
	set, _ := isoSetOf[D, T, S]()
	if set != nil {
		isoAccess[D, T](a, isoViewName[D, T]("IsoSubView", reflect.TypeFor[S]()), false, set)
	}
}

func (v *IsoSubViewMut[D, T, S]) access(a *accessSet) {
	set, _ := isoSetOf[D, T, S]()
	if set != nil {
		isoAccess[D, T](a, isoViewName[D, T]("IsoSubViewMut", reflect.TypeFor[S]()), true, set)
	}
}

// viewProblem reports, when a system is analysed, why the view cannot
// be borrowed (see viewChecker).
func (v *IsoView[D, T]) viewProblem() string    { return isoProblem[T]() }
func (v *IsoViewMut[D, T]) viewProblem() string { return isoProblem[T]() }

func (v *IsoSubView[D, T, S]) viewProblem() string {
	if _, reason := isoSetOf[D, T, S](); reason != "" {
		return reason
	}
	return isoProblem[T]()
}

func (v *IsoSubViewMut[D, T, S]) viewProblem() string {
	return (*IsoSubView[D, T, S])(v).viewProblem()
}

func (v *IsoView[D, T]) borrowView(ctx *borrowCtx) (releaser, error) {
	return borrowIso(&v.c, &v.epoch, ctx, false, func() (string, *isoSet[D], string) {
		return isoViewName[D, T]("IsoView", nil), nil, ""
	})
}

func (v *IsoViewMut[D, T]) borrowView(ctx *borrowCtx) (releaser, error) {
	return borrowIso(&v.c, &v.epoch, ctx, true, func() (string, *isoSet[D], string) {
		return isoViewName[D, T]("IsoViewMut", nil), nil, ""
	})
}

func (v *IsoSubView[D, T, S]) borrowView(ctx *borrowCtx) (releaser, error) {
	return borrowIso(&v.c, &v.epoch, ctx, false, func() (string, *isoSet[D], string) {
		set, reason := isoSetOf[D, T, S]()
		return isoViewName[D, T]("IsoSubView", reflect.TypeFor[S]()), set, reason
	})
}

func (v *IsoSubViewMut[D, T, S]) borrowView(ctx *borrowCtx) (releaser, error) {
	return borrowIso(&v.c, &v.epoch, ctx, true, func() (string, *isoSet[D], string) {
		set, reason := isoSetOf[D, T, S]()
		return isoViewName[D, T]("IsoSubViewMut", reflect.TypeFor[S]()), set, reason
	})
}

// viewOf returns a View of the storage core c holds.
func viewOf[T any](c *viewCore[T]) View[T] {
	s := c.s
	return View[T]{c: c, epoch: c.epoch, gen: s.pre.gen, ident: min(s.pre.n, uint64(len(s.data)))}
}

// Of returns a [View] of discriminant d's storage, valid as long as v
// (until the system returns, or the release of [World.Borrow]). It joins
// with other views as any View does. A discriminant no entity ever had
// gets an empty storage.
func (v IsoView[D, T]) Of(d D) View[T] {
	return viewOf(v.c.live(v.epoch, "IsoView").core(d, true))
}

// Of returns a [View] of d's storage; d must be in the view's set, or Of
// panics with an [*IsotopeError].
func (v IsoSubView[D, T, S]) Of(d D) View[T] {
	return viewOf(v.c.live(v.epoch, "IsoSubView").core(d, true))
}

// Of returns a [ViewMut] of discriminant d's storage, creating the
// storage if needed, valid as long as v. Add, change and remove the
// isotopes of d through it; it joins with other views as any ViewMut
// does.
func (v IsoViewMut[D, T]) Of(d D) ViewMut[T] {
	c := v.c.live(v.epoch, "IsoViewMut").core(d, true)
	return ViewMut[T]{c: c, epoch: c.epoch}
}

// Of returns a [ViewMut] of d's storage; d must be in the view's set, or
// Of panics with an [*IsotopeError].
func (v IsoSubViewMut[D, T, S]) Of(d D) ViewMut[T] {
	c := v.c.live(v.epoch, "IsoSubViewMut").core(d, true)
	return ViewMut[T]{c: c, epoch: c.epoch}
}

// Discriminants returns the discriminants the view covers: every one
// with a storage in the world, in the order they first appeared. The
// slice must not be changed.
func (v IsoView[D, T]) Discriminants() []D {
	d, _ := v.c.live(v.epoch, "IsoView").cover()
	return d
}

// Discriminants returns the discriminants of the view's set, in the
// order S lists them. The slice must not be changed.
func (v IsoSubView[D, T, S]) Discriminants() []D {
	d, _ := v.c.live(v.epoch, "IsoSubView").cover()
	return d
}

// Discriminants returns every discriminant with a storage in the world,
// in the order they first appeared. The slice must not be changed.
func (v IsoViewMut[D, T]) Discriminants() []D {
	d, _ := v.c.live(v.epoch, "IsoViewMut").cover()
	return d
}

// Discriminants returns the discriminants of the view's set. The slice
// must not be changed.
func (v IsoSubViewMut[D, T, S]) Discriminants() []D {
	d, _ := v.c.live(v.epoch, "IsoSubViewMut").cover()
	return d
}

// Get returns id's component under discriminant d, and whether it has
// one. It creates no storage.
func (v IsoView[D, T]) Get(id EntityID, d D) (*T, bool) {
	if c := v.c.live(v.epoch, "IsoView").core(d, false); c != nil {
		return viewOf(c).Get(id)
	}
	return nil, false
}

// Get returns id's component under d, and whether it has one; d must be
// in the view's set.
func (v IsoSubView[D, T, S]) Get(id EntityID, d D) (*T, bool) {
	return viewOf(v.c.live(v.epoch, "IsoSubView").core(d, false)).Get(id)
}

// Get returns id's component under d for writing (marking it modified
// if T tracks modification, as [ViewMut.Get] does), and whether it has
// one. It creates no storage.
func (v IsoViewMut[D, T]) Get(id EntityID, d D) (*T, bool) {
	if c := v.c.live(v.epoch, "IsoViewMut").core(d, false); c != nil {
		return ViewMut[T]{c: c, epoch: c.epoch}.Get(id)
	}
	return nil, false
}

// Get returns id's component under d for writing, and whether it has
// one; d must be in the view's set.
func (v IsoSubViewMut[D, T, S]) Get(id EntityID, d D) (*T, bool) {
	c := v.c.live(v.epoch, "IsoSubViewMut").core(d, false)
	return ViewMut[T]{c: c, epoch: c.epoch}.Get(id)
}

// Isotopes yields id's components of type T under each discriminant the
// view covers, in the order of [IsoView.Discriminants].
func (v IsoView[D, T]) Isotopes(id EntityID) iter.Seq2[D, *T] {
	return isotopesOf(v.c.live(v.epoch, "IsoView"), id, false)
}

// Isotopes yields id's components under each discriminant of the set.
func (v IsoSubView[D, T, S]) Isotopes(id EntityID) iter.Seq2[D, *T] {
	return isotopesOf(v.c.live(v.epoch, "IsoSubView"), id, false)
}

// Isotopes yields id's components under each discriminant, for writing
// (each is marked modified if T tracks modification).
func (v IsoViewMut[D, T]) Isotopes(id EntityID) iter.Seq2[D, *T] {
	return isotopesOf(v.c.live(v.epoch, "IsoViewMut"), id, true)
}

// Isotopes yields id's components under each discriminant of the set,
// for writing.
func (v IsoSubViewMut[D, T, S]) Isotopes(id EntityID) iter.Seq2[D, *T] {
	return isotopesOf(v.c.live(v.epoch, "IsoSubViewMut"), id, true)
}

func isotopesOf[D comparable, T any](c *isoCore[D, T], id EntityID, mut bool) iter.Seq2[D, *T] {
	epoch := c.epoch
	return func(yield func(D, *T) bool) {
		if c.f == nil || c.epoch != epoch {
			panic(released{c.view})
		}
		discs, cores := c.cover()
		for i, core := range cores {
			var p *T
			var ok bool
			if mut {
				p, ok = ViewMut[T]{c: core, epoch: core.epoch}.Get(id)
			} else {
				p, ok = viewOf(core).Get(id)
			}
			if ok && !yield(discs[i], p) {
				return
			}
		}
	}
}

// AddIsotope gives the live entity id the component c under discriminant
// d, replacing the one it had under d, through a World-level change (see
// [Storages]). It returns an [*EntityError] if id is not alive, and an
// [*IsotopeError] if d cannot key a storage, and changes nothing then.
func AddIsotope[D comparable, T any](s Storages, id EntityID, d D, c T) (err error) {
	op := isoViewName[D, T]("AddIsotope", nil)
	if r := isoProblem[T](); r != "" {
		return &argError{op: op, what: r, kind: ErrInvalidView}
	}
	if err := checkDisc[D, T](op, d); err != nil {
		return err
	}
	w, locked, err := beginWrite(s)
	if err != nil {
		return err
	}
	defer endWriteObs(w, locked, &err)
	if !w.ents.isAlive(id) {
		return &EntityError{Op: op, ID: id}
	}
	isoFamilyOf[D, T](w).storage(d).insert(id, c)
	return nil
}

// RemoveIsotope takes id's component under discriminant d out of the
// world and returns it; ok is false (and nothing changes) when id has
// none. err is an [*EntityError] when id is not alive.
func RemoveIsotope[D comparable, T any](s Storages, id EntityID, d D) (v T, ok bool, err error) {
	op := isoViewName[D, T]("RemoveIsotope", nil)
	if err := checkDisc[D, T](op, d); err != nil {
		return v, false, err
	}
	w, locked, err := beginWrite(s)
	if err != nil {
		return v, false, err
	}
	defer endWriteObs(w, locked, &err)
	if !w.ents.isAlive(id) {
		return v, false, &EntityError{Op: op, ID: id}
	}
	if x := isoFamilyOf[D, T](w).index(); x.pos != nil {
		if i, found := x.pos[d]; found {
			v, ok = x.sets[i].remove(id)
		}
	}
	return v, ok, nil
}
