package ecs

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Workload errors.
var (
	// ErrUnknownWorkload: no workload has the name given.
	ErrUnknownWorkload = errors.New("unknown workload")
	// ErrInvalidWorkload: a workload cannot be built (duplicate name, empty,
	// bad item, unknown label, nil condition...). See [WorkloadBuildError].
	ErrInvalidWorkload = errors.New("invalid workload")
	// ErrCyclicOrdering: before/after constraints form a cycle. The error's
	// text goes round the cycle: for each step, which system must run
	// before which, and the Before or After (and its label) that says so.
	ErrCyclicOrdering = errors.New("cyclic ordering")
	// ErrWorkloadRunning: the workload is running, and cannot be renamed,
	// replaced or removed until it ends; or it has 64 runs under way
	// already (a system that runs its own workload, when nothing it
	// borrows ends the nesting first).
	ErrWorkloadRunning = errors.New("workload already running")
)

// SystemSpec is a system with scheduling options, made by [System]. A plain
// function in a workload is the same as System(fn) with no option.
type SystemSpec struct {
	fn       any
	name     string
	labels   []string
	before   []string
	after    []string
	conds    []condSpec
	onCaller bool
	// reqBefore and reqAfter are the labels RequireBefore and
	// RequireAfter name: checks of the built plan, not constraints.
	reqBefore []string
	reqAfter  []string
	err       error // the first bad option given (an empty label), reported by AddWorkload
}

type condSpec struct {
	fn   any
	skip bool // SkipIf: run when the condition is false
}

// System wraps fn, a system function or a [TypedSystem], so that scheduling options can be
// given to it:
//
//	w.AddWorkload("frame", update, ecs.System(render).OnCaller().After("update"))
func System(fn any) *SystemSpec {
	return &SystemSpec{fn: fn, name: funcName(fn)}
}

// Label tags the system with labels that ordering constraints ([SystemSpec.Before],
// [SystemSpec.After]) can refer to. Every system is also labelled with its own
// name, and with the names and labels of the workloads that contain it.
// A label must not be empty: [World.AddWorkload] refuses a system given
// one.
func (s *SystemSpec) Label(labels ...string) *SystemSpec {
	s.err = cmp.Or(s.err, emptyLabel("Label", labels))
	s.labels = append(s.labels, labels...)
	return s
}

// Before makes the system run before every system labelled label (in an
// earlier batch). [World.AddWorkload] refuses an empty label.
func (s *SystemSpec) Before(label string) *SystemSpec {
	s.err = cmp.Or(s.err, emptyLabel("Before", []string{label}))
	s.before = append(s.before, label)
	return s
}

// After makes the system run after every system labelled label.
// [World.AddWorkload] refuses an empty label.
func (s *SystemSpec) After(label string) *SystemSpec {
	s.err = cmp.Or(s.err, emptyLabel("After", []string{label}))
	s.after = append(s.after, label)
	return s
}

// RequireBefore checks, when the workload is built, that for each label
// at least one system labelled label runs before this one: the plan
// makes it finish before this system starts (it is an earlier system the
// system conflicts with, one a constraint or a [Barrier] or
// [WorkloadSpec.Sequential] puts before it, or one that runs before such
// a system). It is Shipyard's require_before: a check of the order the
// workload already has, not a constraint that orders anything (that is
// [SystemSpec.After]). A label no system runs before this one with, or
// that no system has, makes [World.AddWorkload] and [WorkloadSpec.Build]
// return a [*WorkloadBuildError] naming the system and the label. A label
// must not be empty.
func (s *SystemSpec) RequireBefore(labels ...string) *SystemSpec {
	s.err = cmp.Or(s.err, emptyLabel("RequireBefore", labels))
	s.reqBefore = append(s.reqBefore, labels...)
	return s
}

// RequireAfter checks, when the workload is built, that for each label
// at least one system labelled label runs after this one: the plan makes
// it wait for this system to finish. See [SystemSpec.RequireBefore].
func (s *SystemSpec) RequireAfter(labels ...string) *SystemSpec {
	s.err = cmp.Or(s.err, emptyLabel("RequireAfter", labels))
	s.reqAfter = append(s.reqAfter, labels...)
	return s
}

// emptyLabel returns the error of a call method(labels...) if one of
// labels is empty, or nil. A builder method cannot return it, so the spec
// keeps the first one (cmp.Or) and AddWorkload reports it: an empty label
// would otherwise end up in a confusing "no system has the label" error
// or cycle.
func emptyLabel(method string, labels []string) error {
	i := slices.Index(labels, "")
	if i < 0 {
		return nil
	}
	args := make([]string, len(labels))
	for k, l := range labels {
		args[k] = strconvQuote(l)
	}
	call := method + "(" + strings.Join(args, ", ") + ")"
	if len(labels) == 1 {
		return fmt.Errorf("%s: the label is empty; a label must be a non-empty name", call)
	}
	return fmt.Errorf("%s: label %d is empty; a label must be a non-empty name", call, i+1)
}

// RunIf makes the system run only when cond returns true. cond is a
// func() bool, or a function whose parameters are views and whose result is
// a bool; it is evaluated on the calling goroutine once the systems the
// system follows have finished, just before it would start, and its views
// count as the system's accesses for scheduling, so no system that
// conflicts with them runs meanwhile. Other systems may be running then: a
// func() bool should read only what no system writes. Several conditions
// must all hold. Tracking views in cond see the system's window: what
// changed since the system last ran.
func (s *SystemSpec) RunIf(cond any) *SystemSpec {
	s.conds = append(s.conds, condSpec{fn: cond})
	return s
}

// SkipIf makes the system run only when cond returns false. See
// [SystemSpec.RunIf].
func (s *SystemSpec) SkipIf(cond any) *SystemSpec {
	s.conds = append(s.conds, condSpec{fn: cond, skip: true})
	return s
}

// OnCaller makes the system always run on the goroutine that called
// [World.RunWorkload], never on a worker: the Go form of Shipyard's
// non-Send systems, for APIs bound to one goroutine, such as drawing inside
// Ebitengine's Draw. Other systems still run in parallel with it.
func (s *SystemSpec) OnCaller() *SystemSpec {
	s.onCaller = true
	return s
}

// Named gives the system a name for errors and reports, instead of its
// function name (useful for closures). The name must not be empty:
// [World.AddWorkload] refuses a system given one.
func (s *SystemSpec) Named(name string) *SystemSpec {
	if name == "" {
		s.err = cmp.Or(s.err, errors.New(`Named(""): the name is empty; a system name must be a non-empty name`))
		return s
	}
	s.name = name
	return s
}

// WorkloadSpec is a nested workload: a named group of systems and workloads
// with shared options, made by [Workload].
type WorkloadSpec struct {
	name   string
	items  []any
	labels []string
	before []string
	after  []string
	conds  []condSpec
	seq    bool  // Sequential
	err    error // the first bad option given (an empty label), reported by AddWorkload
}

// BarrierItem is the item [Barrier] returns, to put among the items of a
// workload.
type BarrierItem struct{}

// Barrier returns a point in a workload that no system crosses: every
// system declared before it in the same workload (at any depth of
// nesting) finishes before any system declared after it starts. Put it
// among the items of [World.AddWorkload] or [Workload]:
//
//	w.AddWorkload("frame", input, ai, ecs.Barrier(), physics, render)
//
// A barrier applies to the items of the workload whose list holds it; a
// workload around it keeps running its other systems beside them. It is
// an ordering like [SystemSpec.After]: a Before or After that goes the
// other way across it is a cycle ([ErrCyclicOrdering]). The plan
// ([World.WorkloadPlan]) lists it in [Plan.Barriers], and the reason of a
// system it holds back reads "barrier in <workload>".
func Barrier() BarrierItem { return BarrierItem{} }

// Sequential makes the workload run its systems one after the other, in
// declared order (nested workloads flattened in place), with no two at
// once: Shipyard's sequential workloads, for steps whose order matters
// even where their views do not conflict. Labels, Before and After, run
// conditions and OnCaller still work; a Before or After that goes against
// the declared order is a cycle ([ErrCyclicOrdering]). The workloads
// around it are not made sequential: their other systems may run beside
// its systems.
func (s *WorkloadSpec) Sequential() *WorkloadSpec {
	s.seq = true
	return s
}

// BuiltWorkload is a workload built and checked by [WorkloadSpec.Build],
// apart from any world. Add it to worlds with [World.AddBuiltWorkload]; it
// can be added to several worlds, and again after its workload was
// removed. It does not change once built: later changes to the spec and
// its items do not reach it.
type BuiltWorkload struct {
	p *plan
}

// Build builds the workload s describes and checks it as
// [World.AddWorkload] would (every system, label, condition, constraint,
// requirement, and the ordering for cycles), returning the same
// [*WorkloadBuildError], without a world: the workload's name is s's
// name, its items s's items, and s's own options (Label, Before, After,
// RunIf, SkipIf, Sequential) apply to every system. Print its plan with
// [BuiltWorkload.Plan]; add it to a world with [World.AddBuiltWorkload].
//
// Built without a world, the plan knows of no group: in a world with
// groups, AddBuiltWorkload orders it again for them (a ViewMut of a group
// member also borrows the other members), which adds conflicts and never
// breaks a check Build made.
func (s *WorkloadSpec) Build() (*BuiltWorkload, error) {
	if s == nil {
		return nil, &WorkloadBuildError{Workload: `""`, Reason: "Build of a nil *WorkloadSpec"}
	}
	if s.name == "" {
		return nil, &WorkloadBuildError{Workload: `""`, Reason: "a workload needs a name"}
	}
	p, err := buildRoot(s, layout{}, 0)
	if err != nil {
		return nil, err
	}
	return &BuiltWorkload{p: p}, nil
}

// Name returns the name of the built workload.
func (b *BuiltWorkload) Name() string { return b.p.name }

// Plan returns the plan of the built workload, as [World.WorkloadPlan]
// would give it in a world with no group.
func (b *BuiltWorkload) Plan() *Plan { return b.p.report() }

// AddBuiltWorkload adds b, built by [WorkloadSpec.Build], to the world
// under its name, as [World.AddWorkload] would: a taken name is a
// [*WorkloadBuildError], and the world is unchanged then. The world gets
// a copy of its own (ordered again for the world's groups), so b can be
// added to other worlds too.
func (w *World) AddBuiltWorkload(b *BuiltWorkload) error {
	if w == nil {
		return errNilWorld
	}
	if b == nil || b.p == nil {
		return &WorkloadBuildError{Workload: `""`, Reason: "AddBuiltWorkload of a nil *BuiltWorkload (make one with WorkloadSpec.Build)"}
	}
	name := b.p.name
	if w.hasWorkload(name) {
		return &WorkloadBuildError{Workload: name, Reason: "a workload with this name already exists (use ReplaceWorkload to replace it)"}
	}
	gen, lay := w.groupsNow()
	p, err := b.p.replan(lay, gen)
	if err != nil {
		return &WorkloadBuildError{Workload: name, Err: err}
	}
	p.fresh() // b's windows and statistics stay b's
	return w.storePlan(name, p, false)
}

// RenameWorkload gives the workload old the name new. Errors, reports and
// statistics name it new from then on; if old was the default workload,
// new is. Its systems keep the labels they were built with (old among
// them), so the order of the workload does not change. It returns an
// error wrapping [ErrUnknownWorkload] if there is no workload old, a
// [*WorkloadBuildError] if new is empty or taken, and an error wrapping
// [ErrWorkloadRunning] if the workload is running; the world is unchanged
// then. Renaming a workload to its own name does nothing.
func (w *World) RenameWorkload(old, new string) error {
	if w == nil {
		return errNilWorld
	}
	w.workMu.Lock()
	defer w.workMu.Unlock()
	p, ok := w.workloads[old]
	if !ok {
		return fmt.Errorf("ecs: cannot rename workload: no workload named %q: %w", old, ErrUnknownWorkload)
	}
	if new == "" {
		return &WorkloadBuildError{Workload: `""`, Reason: fmt.Sprintf("cannot rename workload %q: a workload needs a name", old)}
	}
	if new == old {
		return nil
	}
	if _, taken := w.workloads[new]; taken {
		return &WorkloadBuildError{Workload: new, Reason: fmt.Sprintf("cannot rename workload %q: a workload with this name already exists", old)}
	}
	if p.busy() {
		return fmt.Errorf("ecs: cannot rename workload %s while it runs: %w", old, ErrWorkloadRunning)
	}
	defer p.running.Unlock()
	w.workloads[new] = p.renamed(new)
	delete(w.workloads, old)
	if w.defaultWL == old {
		w.defaultWL = new
	}
	return nil
}

// hasWorkload reports whether the world has a workload name.
func (w *World) hasWorkload(name string) bool {
	w.workMu.Lock()
	defer w.workMu.Unlock()
	_, ok := w.workloads[name]
	return ok
}

// Workload groups items (system functions, [*SystemSpec] and nested
// [*WorkloadSpec]) under a name, to nest in another workload:
//
//	w.AddWorkload("main_loop", increment, ecs.Workload("filter_vel", flagDeletedVel, clearDeletedVel))
//
// Errors and reports name a system's workloads by their path, the names
// joined by "/" ("main_loop/filter_vel"), where a "/" in a name is
// written "%2F" and a "%" is written "%25" (see [PlanSystem]).
func Workload(name string, items ...any) *WorkloadSpec {
	return &WorkloadSpec{name: name, items: items}
}

// Label tags every system of the workload with labels. A label must not
// be empty: [World.AddWorkload] refuses a workload given one.
func (s *WorkloadSpec) Label(labels ...string) *WorkloadSpec {
	s.err = cmp.Or(s.err, emptyLabel("Label", labels))
	s.labels = append(s.labels, labels...)
	return s
}

// Before makes every system of the workload run before the systems
// labelled label. [World.AddWorkload] refuses an empty label.
func (s *WorkloadSpec) Before(label string) *WorkloadSpec {
	s.err = cmp.Or(s.err, emptyLabel("Before", []string{label}))
	s.before = append(s.before, label)
	return s
}

// After makes every system of the workload run after the systems labelled
// label. [World.AddWorkload] refuses an empty label.
func (s *WorkloadSpec) After(label string) *WorkloadSpec {
	s.err = cmp.Or(s.err, emptyLabel("After", []string{label}))
	s.after = append(s.after, label)
	return s
}

// RunIf makes the workload's systems run only when cond holds. The
// condition is evaluated once per run, when the schedule reaches the
// workload's first system, and not at all when a condition of a workload
// around it does not hold. Its tracking views see the workload's own
// window, as a system's conditions see the system's: what changed since
// the workload last ran (the last run in which its conditions held),
// leaving out what its own systems changed then; at its first run,
// everything. A workload of one system with a condition behaves as the
// system with that condition. See [SystemSpec.RunIf] for what cond may be.
func (s *WorkloadSpec) RunIf(cond any) *WorkloadSpec {
	s.conds = append(s.conds, condSpec{fn: cond})
	return s
}

// SkipIf makes the workload's systems run only when cond is false.
func (s *WorkloadSpec) SkipIf(cond any) *WorkloadSpec {
	s.conds = append(s.conds, condSpec{fn: cond, skip: true})
	return s
}

// WorkloadBuildError reports why a workload cannot be built.
type WorkloadBuildError struct {
	Workload string
	System   string // the system at fault, if one is
	Reason   string
	Err      error // the underlying error (a *SystemError, ErrCyclicOrdering...), if any
}

func (e *WorkloadBuildError) Error() string {
	s := "ecs: workload " + e.Workload
	if e.System != "" {
		s += ": system " + e.System
	}
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	if e.Err != nil {
		s += ": " + causeText(e.Err, e.System)
	}
	return s
}

// causeText is err's message inside a workload error about system: without
// the "ecs: " every error of the package starts with, and without the
// system's name when err is a *SystemError that names it already.
func causeText(err error, system string) string {
	if se, ok := err.(*SystemError); ok && system != "" && se.System == system {
		return se.detail()
	}
	return strings.TrimPrefix(err.Error(), "ecs: ")
}

// Unwrap returns [ErrInvalidWorkload] and the underlying error.
func (e *WorkloadBuildError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrInvalidWorkload, e.Err}
	}
	return []error{ErrInvalidWorkload}
}

// WorkloadError wraps the error of a system that failed during a workload
// run (the error it returned, or the failure to borrow its views or to
// evaluate its condition). errors.Is and errors.As reach the system's own
// error through it.
type WorkloadError struct {
	Workload string
	System   string
	Err      error
}

func (e *WorkloadError) Error() string {
	return fmt.Sprintf("ecs: workload %s: system %s: %s", e.Workload, e.System, causeText(e.Err, e.System))
}

// Unwrap returns the system's error.
func (e *WorkloadError) Unwrap() error { return e.Err }

// SystemPanic is the value re-panicked on the caller's goroutine when a
// system panics during a workload run: it carries the system's name, the
// original panic value and the stack where it happened. All borrows are
// released by then, and the world and the workload stay usable.
type SystemPanic struct {
	Workload string
	System   string
	Value    any
	Stack    []byte
}

func (p *SystemPanic) Error() string {
	return fmt.Sprintf("ecs: workload %s: system %s panicked: %v\n\n%s", p.Workload, p.System, p.Value, p.Stack)
}

// Unwrap returns the panic value if it is an error.
func (p *SystemPanic) Unwrap() error { return panicError(p.Value) }

// panicError returns the panic value v if it is an error, and nil if not.
func panicError(v any) error {
	err, _ := v.(error)
	return err
}

// AddWorkload builds the workload name from items (system functions,
// [*SystemSpec] and nested [*WorkloadSpec]) and stores it in the world,
// ready to be run with [World.RunWorkload] again and again. The first
// workload added becomes the default one.
//
// Building checks every system (an error names the system and the bad
// parameter), orders the systems (keeping the declared order between any
// two that conflict, and every before/after constraint) and groups them
// into batches (the plan [World.WorkloadPlan] prints; RunWorkload starts
// each system as soon as those it follows have finished). It returns a
// [*WorkloadBuildError] if name is empty or taken, items is empty, an item
// is not a system, a label given to Label, Before or After is empty, a
// constraint names a label no system has, a condition is nil or not a
// condition, or the ordering has a cycle; the world is unchanged then.
//
// A system or run condition whose own views conflict with each other is
// refused too, as a [*SystemError] wrapping [ErrInvalidSystem] that names
// both parameters (or both fields of a custom view): for instance
// View[T] beside ViewMut[T], ViewMut[T] twice, UniqueView[T] beside
// UniqueViewMut[T], or AllStoragesViewMut beside any view that borrows
// something. Its views are borrowed together, so every run would fail
// with a [*BorrowError]; [World.Run] refuses such a system with the same
// *SystemError. Views that only share, such as View[T] twice, do not
// conflict.
func (w *World) AddWorkload(name string, items ...any) error {
	if w == nil {
		return errNilWorld
	}
	return w.putWorkload(name, items, false)
}

// ReplaceWorkload is [World.AddWorkload] for a name that may already exist:
// the new workload replaces the old one (which must not be running).
func (w *World) ReplaceWorkload(name string, items ...any) error {
	if w == nil {
		return errNilWorld
	}
	return w.putWorkload(name, items, true)
}

func (w *World) putWorkload(name string, items []any, replace bool) error {
	if name == "" {
		return &WorkloadBuildError{Workload: `""`, Reason: "a workload needs a name"}
	}
	if !replace && w.hasWorkload(name) {
		return &WorkloadBuildError{Workload: name, Reason: "a workload with this name already exists (use ReplaceWorkload to replace it)"}
	}
	gen, lay := w.groupsNow()
	p, err := buildPlan(name, items, lay, gen)
	if err != nil {
		return err
	}
	return w.storePlan(name, p, replace)
}

// storePlan stores p as the workload name, replacing the workload there
// if replace says so and it is not running.
func (w *World) storePlan(name string, p *plan, replace bool) error {
	w.workMu.Lock()
	defer w.workMu.Unlock()
	old, exists := w.workloads[name]
	if exists && !replace {
		return &WorkloadBuildError{Workload: name, Reason: "a workload with this name already exists (use ReplaceWorkload to replace it)"}
	}
	if exists {
		if old.busy() {
			return &WorkloadBuildError{Workload: name, Reason: "cannot replace it while it runs", Err: ErrWorkloadRunning}
		}
		defer old.running.Unlock()
	}
	if w.workloads == nil {
		w.workloads = make(map[string]*plan)
	}
	w.workloads[name] = p
	if w.defaultWL == "" {
		w.defaultWL = name
	}
	return nil
}

// RemoveWorkload deletes the workload name. If it was the default, there is
// no default workload afterwards.
func (w *World) RemoveWorkload(name string) error {
	if w == nil {
		return errNilWorld
	}
	w.workMu.Lock()
	defer w.workMu.Unlock()
	p, ok := w.workloads[name]
	if !ok {
		return unknownWorkload(name)
	}
	if p.busy() {
		return fmt.Errorf("ecs: cannot remove workload %s while it runs: %w", name, ErrWorkloadRunning)
	}
	defer p.running.Unlock()
	delete(w.workloads, name)
	if w.defaultWL == name {
		w.defaultWL = ""
	}
	return nil
}

// Workloads returns the names of the world's workloads, sorted.
func (w *World) Workloads() []string {
	w.mustWorld("Workloads")
	w.workMu.Lock()
	defer w.workMu.Unlock()
	names := make([]string, 0, len(w.workloads))
	for n := range w.workloads {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// SetDefaultWorkload makes name the workload [World.RunDefaultWorkload] runs.
func (w *World) SetDefaultWorkload(name string) error {
	if w == nil {
		return errNilWorld
	}
	w.workMu.Lock()
	defer w.workMu.Unlock()
	if _, ok := w.workloads[name]; !ok {
		return unknownWorkload(name)
	}
	w.defaultWL = name
	return nil
}

// RunDefaultWorkload runs the default workload: the first one added, or the
// one set with [World.SetDefaultWorkload].
func (w *World) RunDefaultWorkload() error {
	if w == nil {
		return errNilWorld
	}
	w.workMu.Lock()
	name := w.defaultWL
	w.workMu.Unlock()
	if name == "" {
		return fmt.Errorf("ecs: there is no default workload (add one with AddWorkload): %w", ErrUnknownWorkload)
	}
	return w.RunWorkload(name)
}

// RunWorkload runs the workload name once, on the calling goroutine and a
// pool of GOMAXPROCS goroutines: each system starts as soon as the systems
// it follows have finished (the earlier ones it conflicts with, and those
// its constraints put before it), so systems that nothing orders run in
// parallel, and a system does not wait for the rest of the batch before it
// in the plan (with GOMAXPROCS=1, all in order on the calling goroutine).
//
// A system that returns an error or panics stops the workload: no system
// starts once it has returned, and RunWorkload returns when those running
// have finished. An error comes back as a [*WorkloadError] naming the
// workload and the system, through which errors.Is and errors.As reach the
// system's own error; a panic is re-raised here as a [*SystemPanic]
// (panics first, then errors, each the first in declared order when
// several systems failed). A run condition's error or panic counts as its
// system's. In every case every borrow is released and the world stays
// usable.
//
// Several goroutines may run workloads at once, the same one too, as
// Shipyard allows: each run borrows what its systems need, when they
// start, as two goroutines borrowing views would. Runs whose borrows do
// not conflict (two runs of a workload that only reads, say) go on side
// by side; a system whose borrow conflicts with one another run holds
// fails, its run stops, and RunWorkload returns a [*WorkloadError] naming
// it, wrapping the [*BorrowError] (which names the holder). Concurrent runs
// of one workload share its systems' tracking windows: a system sees what
// changed since the latest of its runs that ended. A workload has at most
// 64 runs under way: one more returns an error wrapping
// [ErrWorkloadRunning].
func (w *World) RunWorkload(name string) error {
	if w == nil {
		return errNilWorld
	}
	p, err := w.takePlan(name)
	if err != nil {
		return err
	}
	defer w.givePlan(p)
	defer w.syncPoint()
	return p.run(w)
}

// maxRuns is how many runs of one workload may be under way at once. It
// also ends a system that runs its own workload (the run nested in it runs
// the system again, which runs the workload again...) when nothing
// borrowed stops it first: the run that would be one too many returns
// ErrWorkloadRunning.
const maxRuns = 64

// takePlan returns the plan of the workload name to run, with its run lock
// held, ordered again first if a group was added since it was ordered (see
// replanned). Finding the plan and locking it are one step under workMu,
// so a plan replaced meanwhile (by a replan or ReplaceWorkload) is never
// run beside the one that replaced it.
//
// If the plan is running, the run gets a guest: a copy of the plan, of
// its own for the run, made from proto, sharing the systems' tracking
// windows and statistics. Both runs go on as long as their borrows allow,
// as with any two goroutines borrowing from one world: a system whose
// borrow conflicts with one the other run holds fails with a
// [*BorrowError], and its run stops with a [*WorkloadError] naming it.
// Give the plan back with givePlan.
func (w *World) takePlan(name string) (*plan, error) {
	w.workMu.Lock()
	defer w.workMu.Unlock()
	p, ok := w.workloads[name]
	if !ok {
		return nil, unknownWorkload(name)
	}
	if p.running.TryLock() {
		p = w.replanned(name, p)
		if p.proto == nil {
			p.proto = p.copyPlan() // p is not running: it races with nothing
		}
		return p, nil
	}
	if p.guests+1 >= maxRuns {
		return nil, fmt.Errorf("ecs: workload %s: %d runs at once: %w", p.name, maxRuns, ErrWorkloadRunning)
	}
	p.guests++
	if n := len(p.spare); n > 0 {
		g := p.spare[n-1]
		p.spare[n-1] = nil
		p.spare = p.spare[:n-1]
		return g, nil
	}
	g := p.proto.copyPlan()
	g.origin = p
	return g, nil
}

// givePlan ends a run of p, given by takePlan.
func (w *World) givePlan(p *plan) {
	if o := p.origin; o != nil {
		w.workMu.Lock()
		o.guests--
		o.spare = append(o.spare, p)
		w.workMu.Unlock()
		return
	}
	p.running.Unlock()
}

// busy reports whether the plan p is running (its own run, or guests), and
// otherwise holds p.running for the caller, who holds workMu.
func (p *plan) busy() bool {
	if !p.running.TryLock() {
		return true
	}
	if p.guests > 0 {
		p.running.Unlock()
		return true
	}
	return false
}

// groupsNow returns the world's group generation and layout (groups and
// requirements).
func (w *World) groupsNow() (uint64, layout) {
	w.workMu.Lock()
	defer w.workMu.Unlock()
	return w.groupGen.Load(), w.layoutHeld()
}

// currentPlan returns the plan of the workload name for a report, ordered
// again first as RunWorkload would. A plan that is running is returned as
// it is: a group added by one of its own systems (through an
// AllStoragesViewMut) takes effect at its next run, and until then its
// systems' borrows still exclude each other, at run time, as errors
// rather than races.
func (w *World) currentPlan(name string) (*plan, bool) {
	w.workMu.Lock()
	defer w.workMu.Unlock()
	p, ok := w.workloads[name]
	if !ok || !p.running.TryLock() {
		return p, ok
	}
	p = w.replanned(name, p)
	p.running.Unlock()
	return p, true
}

// replanned returns p, the plan of the workload name, or if a group was
// added since p was ordered (a ViewMut of a member now conflicts with
// views of the other members: see partners), the plan that replaces it,
// ordered for the world's groups and stored under name. The new plan
// keeps what p knew of past runs (tracking timestamps and statistics).
// The caller holds workMu and p.running; it gets the returned plan's
// running held.
func (w *World) replanned(name string, p *plan) *plan {
	gen := w.groupGen.Load()
	if p.groupGen == gen {
		return p
	}
	q, err := p.replan(w.layoutHeld(), gen)
	if err != nil {
		// Cannot happen: groups add conflict edges, which never go
		// against the order constraints p was built with.
		return p
	}
	q.running.Lock() // new: nobody else has it
	w.workloads[name] = q
	p.running.Unlock()
	return q
}

func unknownWorkload(name string) error {
	return fmt.Errorf("ecs: no workload named %q: %w", name, ErrUnknownWorkload)
}
