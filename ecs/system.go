package ecs

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
)

// borrowCtx is what a view needs to borrow itself.
type borrowCtx struct {
	w  *World
	by string // the system name, or the World function
	// Tracking (tracking.go). In a workload, the views' window starts
	// after last, the end of the system's previous run. sysShape.call
	// sets end to the clock at the end of the run, read while the views
	// are still held: the next run's last.
	inWorkload bool
	last       uint64
	end        uint64
	// held lists the group members whose storages the frame borrows
	// exclusively itself (see groupBorrows): its Views of them take no
	// borrow of their own.
	held []resKey
	// under is set for views borrowed inside an AllStoragesViewMut,
	// which holds all storages exclusively: they take no borrow of all
	// storages, only of what they view.
	under bool
	// shareAll is set by frame.borrow (when not under): the frame takes
	// the shared borrow of all storages once, at its first view that
	// needs it, in that view's name (allB), and gives it back after the
	// last view in frame.release. Its views take none of their own, so
	// that a system of k views pays for one borrow of all storages, not
	// k.
	shareAll bool
	allB     *borrower
	// cmds is where a Commands view records (commands.go): the frame's
	// buffer, for the runs that apply it (World.Run, workloads); nil
	// elsewhere, which refuses Commands.
	cmds *cmdBuffer
	// event is the event an observer runs for (observers.go), which its
	// Event view reads; nil for other runs.
	event any
}

// lockAll takes the shared borrow of all storages that every view holds,
// unless the view is borrowed under an AllStoragesViewMut, which holds it,
// or its frame holds it already (shareAll). b is the view's borrower,
// made with ownsNoAll.
func (ctx *borrowCtx) lockAll(b *borrower) error {
	if ctx.shareAll {
		if ctx.allB != nil {
			return nil
		}
		if err := ctx.w.allLock.acquire(b, false, allName); err != nil {
			return err
		}
		ctx.allB = b
		return nil
	}
	if b.under {
		return nil
	}
	return ctx.w.allLock.acquire(b, false, allName)
}

// ownsNoAll reports whether the views borrowed with ctx leave the borrow
// of all storages to someone else (an AllStoragesViewMut, or their frame):
// the under of their borrowers, which unlockAll reads.
func (ctx *borrowCtx) ownsNoAll() bool { return ctx.under || ctx.shareAll }

// unlockAll releases what lockAll took.
func (ctx *borrowCtx) unlockAll(b *borrower) { ctx.w.unlockAll(b) }

// unlockAll releases the shared borrow of all storages that lockAll took
// for b.
func (w *World) unlockAll(b *borrower) {
	if !b.under {
		w.allLock.release(b, false)
	}
}

// viewParam is implemented by pointers to Slipway's view types.
type viewParam interface {
	access(*accessSet)
	// borrowView borrows the view into its variable and returns what
	// releases this borrow: the release is bound to the borrow, not to
	// the variable, which a later borrow (or a failed one) may fill in
	// again. A failed borrow leaves the variable as it was.
	borrowView(*borrowCtx) (releaser, error)
}

// viewChecker is implemented by the views that can be refused by their
// type alone (the isotope views): viewProblem says why, or "".
type viewChecker interface {
	viewProblem() string
}

// releaser releases one borrow of a view.
type releaser interface {
	release()
}

// BorrowHook is implemented (with a pointer receiver) by custom views that
// prepare something once their view fields are borrowed: the Go form of a
// Shipyard "wild view". OnBorrow runs once every view of the system (or of
// the [World.Borrow] call) is borrowed, the hooks of a custom view's
// fields before its own; if a view cannot be borrowed, no hook runs. If
// OnBorrow returns an error, every view is released (with the OnRelease
// of the custom views whose OnBorrow ran) and the system does not run;
// the error is returned from [World.Run] (or the workload) wrapped with
// the system's name.
type BorrowHook interface {
	OnBorrow() error
}

// ReleaseHook is implemented (with a pointer receiver) by custom views that
// finish something before their view fields are released: the Go form of
// Drop. It runs after the system returns, even if the system panicked, for
// a custom view whose OnBorrow (if it has one) ran and succeeded.
type ReleaseHook interface {
	OnRelease()
}

var (
	viewParamType   = reflect.TypeFor[viewParam]()
	borrowHookType  = reflect.TypeFor[BorrowHook]()
	releaseHookType = reflect.TypeFor[ReleaseHook]()
	errorType       = reflect.TypeFor[error]()
)

// viewShape is the analysis of one view type: a Slipway view, or a custom
// view (a struct whose fields include views, with optional hooks).
type viewShape struct {
	t         reflect.Type
	builtin   bool
	fields    []fieldShape
	onBorrow  bool
	onRelease bool
	access    []Access
}

// fieldShape is a view field of a custom view, or the elements of an
// array of views (t an array type, every element of shape).
type fieldShape struct {
	index int // the field's index in the custom view's struct; -1 for an array's elements
	shape *viewShape
}

// ecsPath is the import path of this package: the built-in views are the
// types of it that implement viewParam. A struct elsewhere that embeds one
// gains its methods too, but is a custom view (its fields are borrowed).
var ecsPath = reflect.TypeFor[View[int]]().PkgPath()

// isBuiltin reports whether t is one of the package's views.
func isBuiltin(t reflect.Type) bool {
	return t.PkgPath() == ecsPath && reflect.PointerTo(t).Implements(viewParamType)
}

var viewShapes sync.Map // reflect.Type -> *viewShape or error (reason string)

// analyseView returns the shape of t, or a reason why t is not a view.
func analyseView(t reflect.Type) (*viewShape, string) {
	if v, ok := viewShapes.Load(t); ok {
		if s, ok := v.(*viewShape); ok {
			return s, ""
		}
		return nil, v.(string)
	}
	s, reason := buildShape(t, 0)
	if s != nil {
		viewShapes.Store(t, s)
	} else {
		viewShapes.Store(t, reason)
	}
	return s, reason
}

func buildShape(t reflect.Type, depth int) (*viewShape, string) {
	if t == nil {
		return nil, "is nil"
	}
	if isBuiltin(t) {
		p := reflect.New(t).Interface().(viewParam)
		if c, ok := p.(viewChecker); ok {
			if reason := c.viewProblem(); reason != "" {
				return nil, reason
			}
		}
		var a accessSet
		p.access(&a)
		return &viewShape{t: t, builtin: true, access: a.list}, ""
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Chan:
		return nil, indirectReason(t)
	case reflect.Array:
		if t.Len() == 0 || !isViewCandidate(t.Elem()) {
			return nil, "is an array of no views"
		}
		es, reason := buildShape(t.Elem(), depth+1)
		if es == nil {
			return nil, "has elements that " + reason
		}
		s := &viewShape{t: t, fields: []fieldShape{{index: -1, shape: es}}}
		for range t.Len() {
			s.access = append(s.access, es.access...)
		}
		return s, ""
	}
	if t.Kind() != reflect.Struct {
		return nil, notAView
	}
	if depth > 16 {
		return nil, "nests custom views more than 16 deep"
	}
	s := &viewShape{t: t,
		onBorrow:  reflect.PointerTo(t).Implements(borrowHookType),
		onRelease: reflect.PointerTo(t).Implements(releaseHookType),
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if !isViewCandidate(f.Type) {
			continue
		}
		fs, reason := buildShape(f.Type, depth+1)
		if fs == nil {
			return nil, fmt.Sprintf("has field %s (%s) that %s", f.Name, typeName(f.Type), reason)
		}
		s.fields = append(s.fields, fieldShape{index: i, shape: fs})
		s.access = append(s.access, fs.access...)
	}
	if len(s.fields) == 0 && !s.onBorrow {
		return nil, "is a struct with no view field and no OnBorrow method, so it is not a view"
	}
	return s, ""
}

// notAView is why a type is not a view, when it is not one at all.
const notAView = "is not a view (View, ViewMut, UniqueView, UniqueViewMut, EntitiesView, EntitiesViewMut, AllStoragesViewMut, or a struct of views)"

// indirectReason is why t, a pointer, slice, map or channel type, is not
// a view: it leads to no view at all, or the views it leads to are not
// fixed by its type.
func indirectReason(t reflect.Type) string {
	switch {
	case !isViewCandidate(t):
		return notAView
	case t.Kind() == reflect.Pointer && isBuiltin(t.Elem()):
		return "is a pointer; take views by value (View[T], not *View[T])"
	case t.Kind() == reflect.Pointer:
		return "is a pointer to views (" + typeName(t.Elem()) + " holds views); take views and custom views by value"
	case isBuiltin(t.Elem()):
		return "is a " + t.Kind().String() + " of views, whose length is not known when the system is analysed; use an array or separate fields"
	default:
		return "is a " + t.Kind().String() + " that holds views (through " + typeName(t.Elem()) + "), whose number is not known when the system is analysed; use an array or separate fields"
	}
}

// isViewCandidate reports whether a struct field should be borrowed: it is a
// Slipway view, an array of them, or a struct that (recursively) contains
// one or has hooks. Pointers, slices, maps and channels that lead to views
// are candidates too, so that buildShape refuses them with a message rather
// than skip them. Other types (functions, interfaces, and pointers and
// containers that lead to no view) are not.
func isViewCandidate(t reflect.Type) bool {
	return leadsToView(t, map[reflect.Type]bool{})
}

// leadsToView is isViewCandidate for t, without looking again into the
// types in seen: those being looked into (further up the recursion) or
// looked into already, and found to lead to no view on their own. A type
// that leads to a view through a type in seen leads to it from there too,
// so the answer is the same, and recursive types (a struct that points to
// itself, as container/list's List and Element do) end the recursion.
func leadsToView(t reflect.Type, seen map[reflect.Type]bool) bool {
	if isBuiltin(t) {
		return true
	}
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map, reflect.Chan:
		return leadsToView(t.Elem(), seen)
	}
	if t.Kind() != reflect.Struct {
		return false
	}
	if reflect.PointerTo(t).Implements(borrowHookType) {
		return true
	}
	for i := range t.NumField() {
		if leadsToView(t.Field(i).Type, seen) {
			return true
		}
	}
	return false
}

// instance returns a viewParam that borrows into v, an addressable value
// of type s.t.
func (s *viewShape) instance(v reflect.Value) viewParam {
	if s.builtin {
		return addrOf(v).Interface().(viewParam)
	}
	c := &customView{shape: s}
	for _, f := range s.fields {
		if f.index < 0 { // an array's elements
			for i := range v.Len() {
				c.fields = append(c.fields, f.shape.instance(v.Index(i)))
			}
			continue
		}
		c.fields = append(c.fields, f.shape.instance(v.Field(f.index)))
	}
	c.held = make([]releaser, len(c.fields))
	if s.onBorrow {
		c.onBorrow = addrOf(v).Interface().(BorrowHook)
	}
	if s.onRelease {
		c.onRelease = addrOf(v).Interface().(ReleaseHook)
	}
	return c
}

// customView borrows the view fields of a custom view; its hooks run
// once the whole frame is borrowed (runHooks), so that a frame that starts
// over (see frame.borrow) has run none.
type customView struct {
	shape     *viewShape
	fields    []viewParam
	held      []releaser // the releases of the fields' borrows, as fields
	onBorrow  BorrowHook
	onRelease ReleaseHook
	borrowed  int  // fields borrowed so far
	hooked    bool // OnBorrow ran and succeeded (or there is none)
}

func (c *customView) access(a *accessSet) { a.list = append(a.list, c.shape.access...) }

func (c *customView) borrowView(ctx *borrowCtx) (releaser, error) {
	if c.borrowed > 0 {
		// The same custom view borrowed twice in one frame: the frame
		// refuses overlapping arguments, so this is a bug.
		panic("ecs: custom view " + typeName(c.shape.t) + " borrowed twice")
	}
	for _, f := range c.fields {
		r, err := f.borrowView(ctx)
		if err != nil {
			c.releaseFields()
			return nil, err
		}
		c.held[c.borrowed] = r
		c.borrowed++
	}
	return c, nil
}

// runHooks runs the OnBorrow hooks of the custom views among params, the
// fields' before the view's own, as a custom view's fields are borrowed
// before it.
func runHooks(params []viewParam) error {
	for _, p := range params {
		c, ok := p.(*customView)
		if !ok {
			continue
		}
		if err := runHooks(c.fields); err != nil {
			return err
		}
		if c.onBorrow != nil {
			if err := c.onBorrow.OnBorrow(); err != nil {
				return fmt.Errorf("ecs: custom view %s: OnBorrow: %w", typeName(c.shape.t), err)
			}
		}
		c.hooked = true
	}
	return nil
}

// hasHooks reports whether a custom view among params (or their fields)
// has an OnBorrow or OnRelease hook: only then does runHooks have work.
func hasHooks(params []viewParam) bool {
	for _, p := range params {
		if c, ok := p.(*customView); ok && (c.onBorrow != nil || c.onRelease != nil || hasHooks(c.fields)) {
			return true
		}
	}
	return false
}

// release releases the custom view: its OnRelease hook, if its OnBorrow
// ran, then its fields.
func (c *customView) release() {
	if c.onRelease != nil && c.hooked && c.borrowed == len(c.fields) {
		c.hooked = false
		defer c.releaseFields()
		c.onRelease.OnRelease()
		return
	}
	c.hooked = false
	c.releaseFields()
}

// releaseFields releases the borrowed fields in reverse order, going on
// after a field's OnRelease that panics, as frame.release does.
func (c *customView) releaseFields() {
	defer func() {
		if c.borrowed > 0 { // a release panicked
			c.releaseFields()
		}
	}()
	for c.borrowed > 0 {
		c.borrowed--
		c.held[c.borrowed].release()
	}
}

// sysShape is the analysis of a function type as a system. It depends only
// on the type, so functions of the same type share it (and its frames).
type sysShape struct {
	t           reflect.Type
	params      []*viewShape
	access      []Access
	returnsErr  bool
	returnsBool bool      // a condition, not a system
	frames      sync.Pool // *frame
	// conflict says which two of params conflict with each other, with
	// no System (see selfConflict); nil if none do.
	conflict *SystemError
}

// frame is the argument storage for one call of a system: the parameter
// values, and the viewParams that borrow into them.
type frame struct {
	args   []reflect.Value // the parameters, for reflect.Value.Call
	ptrs   []any           // a pointer to each parameter (*View[T]...), for a typed call
	params []viewParam
	held   []releaser // the releases of the params' borrows, as params
	n      int        // params borrowed so far
	ctx    borrowCtx  // kept here so that borrowing does not allocate
	groups groupBorrows
	nlocks int       // groups.locks taken so far
	hooks  bool      // a custom view among params has a hook (hasHooks), set with params
	cmds   cmdBuffer // what its Commands views recorded (commands.go)
	// unborrowed is set by call when the views could not be borrowed:
	// the system was not called.
	unborrowed bool
}

var sysShapes sync.Map // reflect.Type -> *sysShape or *SystemError

// analyseSystem checks that fn is a function whose parameters are views and
// whose result is nothing or an error.
func analyseSystem(fn any, name string) (*sysShape, error) {
	if ts, ok := fn.(*TypedSystem); ok {
		if ts == nil {
			return nil, &SystemError{Reason: "the system is a nil *TypedSystem; make one with Func1 … Func8 or FuncErr1 … FuncErr8"}
		}
		fn = ts.fn
	}
	if fn == nil {
		return nil, &SystemError{Reason: "the system is nil; pass a function whose parameters are views"}
	}
	t := reflect.TypeOf(fn)
	if t.Kind() != reflect.Func {
		return nil, &SystemError{Reason: fmt.Sprintf("a system must be a function whose parameters are views, not %s", typeName(t))}
	}
	if reflect.ValueOf(fn).IsNil() {
		return nil, &SystemError{System: name, Reason: "the system is a nil function"}
	}
	s, err := shapeOf(t, name)
	if err == nil && s.returnsBool {
		err = &SystemError{System: name, Reason: "returns bool; a system returns nothing or an error (a func returning bool is a run condition: use it with RunIf)"}
	}
	return s, err
}

// shapeOf analyses the function type t, caching the result.
func shapeOf(t reflect.Type, name string) (*sysShape, error) {
	if v, ok := sysShapes.Load(t); ok {
		if s, ok := v.(*sysShape); ok {
			return s, nil
		}
		e := *v.(*SystemError)
		e.System = name
		return nil, &e
	}
	s, err := buildSystem(t)
	if err != nil {
		sysShapes.Store(t, err)
		e := *err
		e.System = name
		return nil, &e
	}
	v, _ := sysShapes.LoadOrStore(t, s)
	return v.(*sysShape), nil
}

// analyseCond checks that cond is a run condition: a function whose
// parameters are views and whose only result is a bool.
func analyseCond(cond any, name string) (*sysShape, error) {
	if cond == nil {
		return nil, &SystemError{System: name, Reason: "the run condition is nil"}
	}
	t := reflect.TypeOf(cond)
	if t.Kind() != reflect.Func || reflect.ValueOf(cond).IsNil() {
		return nil, &SystemError{System: name, Reason: fmt.Sprintf("a run condition must be a non-nil function returning bool, not %s", typeName(t))}
	}
	if t.NumOut() != 1 || t.Out(0).Kind() != reflect.Bool {
		return nil, &SystemError{System: name, Reason: fmt.Sprintf("the run condition %s must return bool", typeName(t))}
	}
	s, err := shapeOf(t, name)
	if err == nil && !s.returnsBool {
		err = &SystemError{System: name, Reason: fmt.Sprintf("the run condition %s must return bool", typeName(t))}
	}
	return s, err
}

func buildSystem(t reflect.Type) (*sysShape, *SystemError) {
	if t.IsVariadic() {
		return nil, &SystemError{Reason: "is variadic; a system's parameters are views"}
	}
	s := &sysShape{t: t}
	switch {
	case t.NumOut() == 0:
	case t.NumOut() == 1 && t.Out(0) == errorType:
		s.returnsErr = true
	case t.NumOut() == 1 && t.Out(0).Kind() == reflect.Bool:
		s.returnsBool = true
	default:
		outs := make([]string, t.NumOut())
		for i := range outs {
			outs[i] = typeName(t.Out(i))
		}
		return nil, &SystemError{Reason: fmt.Sprintf("returns (%s); a system returns nothing or an error", strings.Join(outs, ", "))}
	}
	for i := range t.NumIn() {
		p := t.In(i)
		vs, reason := analyseView(p)
		if vs == nil {
			return nil, &SystemError{Param: i + 1, Type: typeName(p), Reason: reason}
		}
		s.params = append(s.params, vs)
		s.access = append(s.access, vs.access...)
	}
	s.conflict = viewsConflict(s.params, "every run")
	s.frames.New = func() any { return s.newFrame() }
	return s, nil
}

func (s *sysShape) newFrame() *frame {
	f := &frame{}
	for _, p := range s.params {
		v := reflect.New(p.t)
		f.args = append(f.args, v.Elem())
		f.ptrs = append(f.ptrs, v.Interface())
		f.params = append(f.params, p.instance(v.Elem()))
	}
	f.held = make([]releaser, len(f.params))
	f.hooks = hasHooks(f.params)
	return f
}

// borrow borrows every parameter, releasing them all if one fails. In a
// world with packed groups it first takes the borrows its ViewMuts of
// group members call for (see groupBorrows), and starts over if a group
// was added meanwhile. Once every view is borrowed, it runs the custom
// views' OnBorrow hooks. Whatever fails, panics or ends the goroutine
// (runtime.Goexit) on the way, a hook included, leaves nothing borrowed:
// the release is deferred (with the OnRelease of the hooks that ran).
func (f *frame) borrow() error {
	ctx := &f.ctx
	ok := false
	defer func() {
		if !ok {
			f.release()
		}
	}()
	for {
		gen := ctx.w.groupGen.Load()
		if borrowHook != nil {
			borrowHook()
		}
		ctx.held = nil
		ctx.shareAll, ctx.allB = !ctx.under, nil
		if gen != 0 {
			if g := &f.groups; g.w != ctx.w || g.gen != gen || g.by != ctx.by {
				*g = frameGroupBorrows(ctx.w, gen, ctx.by, f.params)
			}
			ctx.held = f.groups.held
			for i := range f.groups.locks {
				e := &f.groups.locks[i]
				if err := e.lock.acquire(&e.b, !e.shared, e.resource); err != nil {
					return err
				}
				f.nlocks++
			}
		}
		for _, p := range f.params {
			r, err := p.borrowView(ctx)
			if err != nil {
				return err
			}
			f.held[f.n] = r
			f.n++
		}
		// The views hold the all-storages borrow now (if they borrow
		// any storage), which declaring a group needs exclusively: the
		// groups cannot change until they are released.
		if ctx.w.groupGen.Load() != gen {
			f.release()
			continue
		}
		if f.hooks {
			if err := runHooks(f.params); err != nil {
				return err
			}
		}
		ok = true
		return nil
	}
}

// borrowHook, set by tests only, runs in frame.borrow between reading the
// group generation and borrowing.
var borrowHook func()

// release releases the borrowed parameters in reverse order, then the
// group borrows. A custom view's OnRelease that panics (or ends the
// goroutine) does not stop it: the deferred call releases the rest before
// the panic goes on.
func (f *frame) release() {
	defer func() {
		if f.n > 0 || f.nlocks > 0 || f.ctx.allB != nil { // a release panicked
			f.release()
		}
	}()
	for f.n > 0 {
		f.n--
		f.held[f.n].release()
	}
	for f.nlocks > 0 {
		f.nlocks--
		e := &f.groups.locks[f.nlocks]
		e.lock.release(&e.b, !e.shared)
	}
	if b := f.ctx.allB; b != nil {
		f.ctx.allB = nil
		f.ctx.w.allLock.release(b, false)
	}
}

// callee is a system or run condition as the scheduler calls it: through
// the typed adapter of a [TypedSystem], or through reflect.
type callee struct {
	v     reflect.Value          // the function
	typed func(args []any) error // TypedSystem.call, or nil
}

// calleeOf returns the callee of fn, a function or a [TypedSystem].
func calleeOf(fn any) callee {
	if ts, ok := fn.(*TypedSystem); ok && ts != nil {
		return callee{v: reflect.ValueOf(ts.fn), typed: ts.call}
	}
	return callee{v: reflect.ValueOf(fn)}
}

// call borrows (with f.ctx), calls fn and releases, even if fn panics.
// It sets f.ctx.end before the release (or after a failed borrow).
func (s *sysShape) call(fn callee, f *frame) (err error) {
	f.unborrowed = false
	if err := f.borrow(); err != nil {
		f.ctx.end = f.ctx.w.tick.Load()
		f.unborrowed = true
		return err
	}
	defer func() {
		// Every change of the run has this timestamp or an earlier one;
		// a change made after the release, through a later borrow, will
		// have a later one.
		f.ctx.end = f.ctx.w.tick.Load()
		f.release()
	}()
	if fn.typed != nil {
		return fn.typed(f.ptrs)
	}
	if !s.returnsErr && !s.returnsBool {
		fn.v.Call(f.args)
		return nil
	}
	out := fn.v.Call(f.args)
	if s.returnsBool {
		if !out[0].Bool() {
			return errCondFalse
		}
		return nil
	}
	if e := out[0]; !e.IsNil() {
		return e.Interface().(error)
	}
	return nil
}

// errCondFalse is how call reports a run condition that returned false.
var errCondFalse = errors.New("condition false")

// overlap reports whether the values two pointers point to share memory.
func overlap(a, b reflect.Value) bool {
	pa, pb := a.Pointer(), b.Pointer()
	sa, sb := max(a.Type().Elem().Size(), 1), max(b.Type().Elem().Size(), 1)
	return pa < pb+sb && pb < pa+sa
}

var funcNames sync.Map // uintptr -> string

// funcName returns the name of the function fn: its package name and
// function name, "main.collision", or "main.main.func1" for a closure.
func funcName(fn any) string {
	if ts, ok := fn.(*TypedSystem); ok && ts != nil {
		fn = ts.fn
	}
	v := reflect.ValueOf(fn)
	if v.Kind() != reflect.Func || v.IsNil() {
		return fmt.Sprintf("%T", fn)
	}
	pc := v.Pointer()
	if n, ok := funcNames.Load(pc); ok {
		return n.(string)
	}
	name := "unknown"
	if f := runtime.FuncForPC(pc); f != nil {
		name = f.Name()
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			name = name[i+1:]
		}
		name = strings.TrimSuffix(name, "-fm")
	}
	funcNames.Store(pc, name)
	return name
}

// SystemFailure wraps an error returned by a system (or a failure to borrow
// its views) with the system's name. errors.Is and errors.As reach the
// system's own error through it.
type SystemFailure struct {
	System string
	Err    error
	// unborrowed: the system was not called, its views could not be
	// borrowed (an observer's run is then tried again: observers.go).
	unborrowed bool
}

func (e *SystemFailure) Error() string {
	// The package's own errors (a failed borrow) keep their "ecs: " in
	// front; the system's own errors are the user's words.
	if msg, ok := strings.CutPrefix(e.Err.Error(), "ecs: "); ok {
		return "ecs: system " + e.System + ": " + msg
	}
	return "system " + e.System + ": " + e.Err.Error()
}

// Unwrap returns the system's error.
func (e *SystemFailure) Unwrap() error { return e.Err }

// Run runs system now, on the calling goroutine: borrows the views its
// parameters ask for, calls it, and releases them (also if it panics).
//
// system is any function whose parameters are views — [View], [ViewMut],
// [UniqueView], [UniqueViewMut], [EntitiesView], [EntitiesViewMut],
// [AllStoragesViewMut], or custom views (structs of views, see [BorrowHook])
// — and which returns nothing or an error. The parameter list is analysed
// once per function type and cached.
//
// Run returns a [*SystemError] if system is not such a function, or if
// two of its views conflict with each other (ViewMut[T] twice, View[T]
// beside ViewMut[T], AllStoragesViewMut beside any other view: they could
// never be borrowed together), as [World.AddWorkload] does (the error
// wraps [ErrInvalidSystem] and [ErrBorrowConflict]); a
// [*SystemFailure] wrapping a [*BorrowError] if a view cannot be borrowed
// (the system is not called then); and a *SystemFailure wrapping the
// system's own error if it returns one.
func (w *World) Run(system any) error {
	if w == nil {
		return errNilWorld
	}
	return runSystem(w, nil, system)
}

// runSystem is [World.Run] in w, or [AllStoragesViewMut.Run] if under, the
// AllStoragesViewMut's core, is not nil.
func runSystem(w *World, under *allCore, system any) error {
	in := runInfoOf(system)
	if in.err != nil {
		return in.err
	}
	return runIn(w, under, in, calleeOf(system), nil)
}

// runIn runs the system in, called as fn, in w, or under the
// AllStoragesViewMut whose core is under, if it is not nil: its views
// then borrow under it, it is lent to the frame until the system returns,
// and the world has no sync point (it is held; the AllStoragesViewMut's
// own system or Borrow has one). ev is the event of an observer's run
// (observers.go), or nil.
func runIn(w *World, under *allCore, in *runInfo, fn callee, ev any) error {
	name, s := in.name, in.shape
	f := s.frames.Get().(*frame)
	defer s.frames.Put(f)
	f.ctx = borrowCtx{w: w, by: name, under: under != nil, cmds: &f.cmds, event: ev}
	defer f.dropLeft(w, under) // the commands of a system that panicked
	if under != nil {
		under.lend(f)
		defer under.unlend(f)
	}
	err := s.call(fn, f)
	if !f.cmds.empty() {
		if err != nil {
			f.dropLeft(w, under)
		} else {
			err = f.applyOwn(w, under, name)
		}
	}
	if under == nil {
		w.syncPoint()
		w.initPending()
		if oerr := w.runObservers(); err == nil && oerr != nil {
			return oerr
		}
	}
	if err != nil {
		return &SystemFailure{System: name, Err: err, unborrowed: f.unborrowed}
	}
	return nil
}

// applyOwn applies the commands of f, the frame of the system name that
// World.Run (or AllStoragesViewMut.Run, if under is not nil) ran.
func (f *frame) applyOwn(w *World, under *allCore, name string) error {
	if under != nil {
		under.unlend(f) // the apply goes through the AllStoragesViewMut
		defer under.lend(f)
		return applyHeld(w, "", []string{name}, []*cmdBuffer{&f.cmds})
	}
	return w.applyCommands("", []string{name}, []*cmdBuffer{&f.cmds})
}

// dropLeft drops the commands left in f: those of a system that failed,
// whose reserved entities it deletes (through the AllStoragesViewMut
// under, if not nil).
func (f *frame) dropLeft(w *World, under *allCore) {
	if f.cmds.empty() {
		return
	}
	f.cmds.abandon()
	if under != nil {
		if under.w != nil && len(under.lent) == 0 {
			_ = applyHeld(w, "", []string{""}, []*cmdBuffer{&f.cmds})
		}
		f.cmds.reset()
		return
	}
	w.dropCommands(&f.cmds)
}

// Borrow borrows views directly, outside any system: each argument is a
// pointer to a view variable (or to a custom view) that Borrow fills in. It
// returns a function that releases them all; call it when done (it may be
// called more than once). Borrowing is all or nothing: on error nothing
// stays borrowed, and the error is a [*BorrowError], [*UniqueError] or
// [*SystemError]. Views that conflict with each other (two ViewMut[T],
// View[T] beside ViewMut[T]) are refused before anything is borrowed,
// with a *SystemError wrapping [ErrInvalidView] (and [ErrBorrowConflict])
// that names both.
//
//	var pos ecs.ViewMut[Pos]
//	var vel ecs.View[Vel]
//	release, err := w.Borrow(&pos, &vel)
//	if err != nil { ... }
//	defer release()
func (w *World) Borrow(views ...any) (release func(), err error) {
	if w == nil {
		return nil, errNilWorld
	}
	f, err := borrowFrame(w, nil, "World.Borrow", views)
	if err != nil {
		return nil, err
	}
	return func() {
		f.release()
		w.syncPoint()
	}, nil
}

// borrowFrame checks views, pointers to views, and borrows them into a
// new frame for by, in w or under the AllStoragesViewMut whose core is
// under.
func borrowFrame(w *World, under *allCore, by string, views []any) (*frame, error) {
	f := &frame{}
	shapes := make([]*viewShape, 0, len(views))
	for i, v := range views {
		rv := reflect.ValueOf(v)
		if v == nil || rv.Kind() != reflect.Pointer || rv.IsNil() {
			return nil, &SystemError{System: by, Param: i + 1, Type: fmt.Sprintf("%T", v), Reason: "is not a non-nil pointer to a view", kind: ErrInvalidView}
		}
		s, reason := analyseView(rv.Type().Elem())
		if s == nil {
			return nil, &SystemError{System: by, Param: i + 1, Type: fmt.Sprintf("%T", v), Reason: "points to a type that " + reason, kind: ErrInvalidView}
		}
		for j := range i {
			if pj := reflect.ValueOf(views[j]); overlap(pj, rv) {
				return nil, &SystemError{System: by, Param: i + 1, Type: fmt.Sprintf("%T", v), Reason: fmt.Sprintf("shares memory with argument %d (the same variable, or a custom view and one of its fields); borrow each view once", j+1), kind: ErrInvalidView}
			}
		}
		shapes = append(shapes, s)
		f.params = append(f.params, s.instance(rv.Elem()))
	}
	if e := viewsConflict(shapes, "every call"); e != nil {
		e.System, e.kind = by, conflictKind{ErrInvalidView}
		return nil, e
	}
	f.held = make([]releaser, len(f.params))
	f.hooks = hasHooks(f.params)
	f.ctx = borrowCtx{w: w, by: by, under: under != nil}
	if err := f.borrow(); err != nil {
		return nil, err
	}
	return f, nil
}

// valueInfos caches the runInfo of the systems of RunValue1 … and
// RunValueErr1 …, by code pointer and type, as runInfos does for Run.
var valueInfos sync.Map // runKey -> *runInfo

// runValue runs fn, the system of a RunValueN or RunValueErrN, in s (a
// *World or an AllStoragesViewMut) through call, which calls fn with
// *args[i] as its parameters and keeps its result. ins are fn's parameter
// types: fn is analysed as a system of them that returns an error.
func runValue(s Storages, fn any, call func(args []any) error) error {
	if err := checkWorld(s); err != nil {
		return err
	}
	v := reflect.ValueOf(fn)
	key := runKey{v.Pointer(), v.Type()}
	var in *runInfo
	if x, ok := valueInfos.Load(key); ok {
		in = x.(*runInfo)
	} else {
		in = newValueRunInfo(fn, v)
		if in.err != nil {
			return in.err
		}
		valueInfos.Store(key, in)
	}
	if a, ok := s.(AllStoragesViewMut); ok {
		return runIn(a.lender(), a.c, in, callee{v: v, typed: call}, nil)
	}
	return runIn(s.(*World), nil, in, callee{v: v, typed: call}, nil)
}

// newValueRunInfo analyses fn, the system of a RunValueN or
// RunValueErrN, whose value is v: as a system of the same parameters
// that returns an error.
func newValueRunInfo(fn any, v reflect.Value) *runInfo {
	in := &runInfo{name: funcName(fn)}
	if v.IsNil() {
		in.err = &SystemError{System: in.name, Reason: "the system is a nil function"}
		return in
	}
	t := v.Type()
	ins := make([]reflect.Type, t.NumIn())
	for i := range ins {
		ins[i] = t.In(i)
	}
	in.shape, in.err = shapeOf(reflect.FuncOf(ins, []reflect.Type{errorType}, false), in.name)
	if in.err == nil {
		in.err = selfConflict(in.shape, in.name)
	}
	return in
}

// TypedSystem is a system function wrapped by one of [Func1] to [Func8]
// or [FuncErr1] to [FuncErr8], whose parameter types the compiler knows:
// running it calls the function directly instead of through
// reflect.Value.Call. Use the *TypedSystem wherever a system function
// goes ([World.Run], [World.AddWorkload], [System]); its name is the
// function's. Make it once and keep it: each FuncN call allocates.
//
//	w.Run(ecs.Func2(move)) // move is func(ecs.ViewMut[Pos], ecs.View[Vel])
type TypedSystem struct {
	fn   any                     // the function, for its name and analysis
	call func(args []any) error  // calls fn with *args[i] as its parameters
	info atomic.Pointer[runInfo] // for World.Run, made at its first run
}

// runInfo is what World.Run needs of a system before it borrows: its name,
// its analysis, and the error that refuses it.
type runInfo struct {
	name  string
	shape *sysShape
	err   error
}

// runInfos caches the runInfo of plain functions by code pointer and type
// (runKey): the name and the analysis in one look-up.
var runInfos sync.Map // runKey -> *runInfo

type runKey struct {
	pc uintptr
	t  reflect.Type
}

// runInfoOf returns system's runInfo: kept in a *TypedSystem, cached by
// runKey for a function. A system refused is analysed again at each run:
// each call gets an error of its own, which the caller may change.
func runInfoOf(system any) *runInfo {
	ts, typed := system.(*TypedSystem)
	if typed && ts != nil {
		if in := ts.info.Load(); in != nil {
			return in
		}
		in := newRunInfo(system)
		if in.err == nil {
			ts.info.Store(in)
		}
		return in
	}
	v := reflect.ValueOf(system)
	if v.Kind() != reflect.Func || v.IsNil() {
		return newRunInfo(system)
	}
	key := runKey{v.Pointer(), v.Type()}
	if in, ok := runInfos.Load(key); ok {
		return in.(*runInfo)
	}
	in := newRunInfo(system)
	if in.err == nil {
		runInfos.Store(key, in)
	}
	return in
}

func newRunInfo(system any) *runInfo {
	in := &runInfo{name: funcName(system)}
	in.shape, in.err = analyseSystem(system, in.name)
	if in.err == nil {
		in.err = selfConflict(in.shape, in.name)
	}
	return in
}
