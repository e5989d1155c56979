package ecs

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// plan is a workload built for running: its systems in declared order, the
// batches they run in, and the per-run state.
//
// Invariants:
//   - systems[i].idx == i, in the order the workload declares them (nested
//     workloads flattened in place).
//   - for every edge u->v (an explicit before/after constraint, or a
//     conflict between u and v), systems[u].batch < systems[v].batch.
//   - any two systems whose accesses conflict are joined by an edge, in
//     declared order unless explicit constraints order them the other way.
//   - seq lists every system in an order that respects every edge, taking
//     the lowest declared index whenever there is a choice.
type plan struct {
	name    string
	systems []*planSystem
	batches [][]int
	seq     []int
	wconds  []*planCond
	// wlevels lists the nested workloads that have run conditions, for
	// moving their windows once a run is over (closeWindows). Built
	// once, never changed: a plan ordered again shares it.
	wlevels []condLevel
	// spans are the Barrier and Sequential orderings of the workload,
	// which order adds as explicit edges. Built once, never changed.
	spans []span
	// groupGen is the generation of the world's groups the plan was
	// ordered for: a group added later changes what conflicts (partners),
	// and the plan is ordered again (World.replanned, plan.replan).
	groupGen uint64

	running sync.Mutex // held while the workload runs (World.takePlan)
	world   *World     // the world of the current run

	// A run that finds the plan running runs a copy of it, a guest (see
	// World.takePlan), made from proto: a copy taken before the plan's
	// first run, which never runs, so that copying it races with nothing.
	// guests counts the guests running, spare keeps those that finished
	// for the next, and a guest's origin is the plan it copies. All four
	// are under World.workMu. Every copy shares the systems' windows and
	// statistics (window, sysStats).
	proto  *plan
	guests int
	spare  []*plan
	origin *plan

	// The parallel run in progress (see runParallel): the systems any
	// goroutine may start (ready[head:]) and those only the caller may
	// (gated[ghead:]), and each system's count of unfinished systems it
	// follows (waiting, by index), under mu; the systems not finished;
	// whether an error or a panic stopped the run; the caller's wake-up
	// signal; the woken workers; and how many workers there are.
	mu       sync.Mutex
	ready    []*planSystem
	head     int
	gated    []*planSystem
	ghead    int
	waiting  []int32
	left     atomic.Int32
	stopped  atomic.Bool
	signal   chan struct{}
	crew     crew
	nworkers int
	timeline timeline // of the run in progress, while tracing
}

// timeline is what a traced run of a plan records of where and when its
// systems ran ([SystemStats] LastRun, LastStart, LastWorker): the run's
// number, its start, and the numbers of the pool's workers helping it.
// Off while tracing is off (run 0), when it costs nothing.
type timeline struct {
	run   uint64    // World.tracedRuns when the run started; 0: not tracing
	start time.Time // when the run started
	mu    sync.Mutex
	busy  []bool // busy[i-1]: a worker helping the run has number i
}

// join gives a worker helping the run the lowest number (from 1) no other
// worker helping it holds, so that a Gantt chart of the run needs no more
// rows than the goroutines that ran its systems at once. Not tracing, it
// returns 1.
func (t *timeline) join() int {
	if t.run == 0 {
		return 1
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	i := 0
	for i < len(t.busy) && t.busy[i] {
		i++
	}
	if i == len(t.busy) {
		t.busy = append(t.busy, false)
	}
	t.busy[i] = true
	return i + 1
}

// leave gives back the number join gave.
func (t *timeline) leave(worker int) {
	if t.run == 0 {
		return
	}
	t.mu.Lock()
	t.busy[worker-1] = false
	t.mu.Unlock()
}

type planSystem struct {
	idx      int
	name     string
	path     string // the workloads containing it: "main_loop/filter_vel" (see pathName)
	fn       callee
	shape    *sysShape
	frame    *frame
	access   []Access // its views', and its conditions'
	labels   []string
	before   []string
	after    []string
	onCaller bool
	// reqBefore and reqAfter are the labels of RequireBefore and
	// RequireAfter, checked once the plan is ordered (checkRequires).
	reqBefore []string
	reqAfter  []string
	conds     []*planCond
	wconds    []int // indices in plan.wconds, outermost first
	batch     int
	preds     []edge
	reason    string // why it is not in an earlier batch
	p         *plan
	// workloads are the names of the workloads containing it, outermost
	// first, as given (path writes them escaped).
	workloads []string
	// succ lists the systems that follow it (each once), npreds the
	// systems it follows; gated says that only the caller may start it
	// (OnCaller, or run conditions to evaluate first). See plan.runParallel.
	succ   []int
	npreds int32
	gated  bool
	// applies marks an ApplyCommands item: running it applies the
	// commands of the systems declared before it (plan.applyUpTo).
	applies bool

	win   *window   // where its tracking window starts
	stats *sysStats // shared by every copy of the plan
	// worker numbers the goroutine running it in the run: 0 the caller,
	// from 1 a worker of the pool (timeline.join).
	worker int

	// per run
	err      error
	panicked *SystemPanic
	tctx     context.Context // the trace context, nil when not tracing
}

// window is where a tracking window starts: the end of the latest run
// that has ended, of a system or of a workload (its conditions' window).
// Concurrent runs of a workload run copies of its plan that share their
// windows (see World.takePlan), so it is atomic. 0 means that it never
// ran: a timestamp taken at the end of a run is never 0 once anything has
// changed, and before that a window from 0 sees what a first run sees.
type window struct{ last atomic.Uint64 }

// start returns where the window starts, and whether it ran.
func (w *window) start() (uint64, bool) {
	t := w.last.Load()
	return t, t != 0
}

// advance moves the window's start to end, unless a run that ended later
// (a concurrent one) moved it further already.
func (w *window) advance(end uint64) {
	for {
		cur := w.last.Load()
		if end == 0 || cur != 0 && !newer(end, cur) {
			return
		}
		if w.last.CompareAndSwap(cur, end) {
			return
		}
	}
}

// sysStats is a system's timing statistics (World.SystemStats), shared by
// every copy of its plan that runs, under mu.
type sysStats struct {
	mu sync.Mutex
	s  SystemStats
}

// add records a run of d, started at start by worker in the run of tl.
func (st *sysStats) add(tl *timeline, start time.Time, d time.Duration, worker int) {
	st.mu.Lock()
	st.s.Runs++
	st.s.Last = d
	st.s.Total += d
	st.s.LastRun = tl.run
	st.s.LastStart = start.Sub(tl.start)
	st.s.LastWorker = worker
	st.mu.Unlock()
}

// get returns a copy of the statistics.
func (st *sysStats) get() SystemStats {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.s
}

// named returns a copy of the statistics for the workload path.
func (st *sysStats) named(path string) *sysStats {
	c := &sysStats{s: st.get()}
	c.s.Workload = path
	return c
}

// fresh gives p's systems and conditions windows and statistics of their
// own, as if it never ran: a plan built once is added to several worlds
// (World.AddBuiltWorkload), each of which keeps its own.
func (p *plan) fresh() {
	for _, s := range p.systems {
		s.win = new(window)
		s.stats = &sysStats{s: SystemStats{Workload: s.path, System: s.name}}
	}
	for _, c := range p.wconds {
		c.win = new(window)
	}
}

// edge orders from before to the system holding it.
type edge struct {
	from   int
	reason string
	label  string // the label of an explicit constraint; "" for a conflict
	// after says that the constraint is an After(label) of the later
	// system; otherwise an explicit edge is a Before(label) of the
	// earlier one.
	after bool
	// span says, for an edge of a Barrier or a Sequential workload, why
	// the earlier system runs first (for a cycle's text); "" otherwise.
	span string
}

// span is a Barrier or a Sequential workload: an ordering between the
// systems of a range of plan.systems. A barrier puts every system of
// [lo, mid) before every system of [mid, hi); a sequential workload puts
// each system of [lo, hi) before the next. from is where the workload's
// own list of systems starts (for the report: a barrier's systems
// before it start there; lo is after the previous barrier).
type span struct {
	from, lo, mid, hi int
	seq               bool
	path              string // the workload's path
	nth               int    // the span's place in declared order (Barrier items, Sequential workloads)
}

// planCond is a run condition.
type planCond struct {
	owner string // the system or workload it belongs to
	name  string // how its borrows are named: "main.draw (run condition)"
	skip  bool
	plain func() bool
	fn    callee
	shape *sysShape
	frame *frame

	// A workload's condition has a tracking window of its own: it sees
	// what changed after the end of the last run of its workload (see
	// plan.closeWindows). A system's conditions see the system's window
	// instead, and have none (nil).
	win *window
	// root says that the condition is the workload's own (given to the
	// WorkloadSpec built by Build), named after the workload.
	root bool

	done  bool   // evaluated in this run (workload conditions)
	at    uint64 // the timestamp it was evaluated with (workload conditions)
	value bool
	err   error
}

// condLevel is a nested workload with run conditions: the conditions
// (indices in plan.wconds) and the systems it holds, at any depth
// (indices in plan.systems).
type condLevel struct {
	conds   []int
	systems []int
}

type flatCtx struct {
	path   string
	names  []string // the workloads' names, outermost first
	labels []string
	before []string
	after  []string
	wconds []int
	levels []int // indices in plan.wlevels, outermost first
}

type planBuilder struct {
	nspans int // spans met so far, in declared order (span.nth)
	p      *plan
	lay    layout // the world's packed groups and requirements (see partners)
}

// buildPlan builds the workload name from items, for a world with groups,
// generation gen (World.groupGen).
func buildPlan(name string, items []any, lay layout, gen uint64) (*plan, error) {
	return buildRoot(&WorkloadSpec{name: name, items: items}, lay, gen)
}

// buildRoot builds the workload spec describes: its name, its items,
// and its own options, which apply to every system.
func buildRoot(spec *WorkloadSpec, lay layout, gen uint64) (*plan, error) {
	name := spec.name
	b := &planBuilder{p: &plan{name: name, groupGen: gen}, lay: lay}
	if len(spec.items) == 0 {
		return nil, &WorkloadBuildError{Workload: name, Reason: "the workload has no system"}
	}
	if spec.err != nil {
		return nil, &WorkloadBuildError{Workload: name, Err: spec.err}
	}
	root := flatCtx{
		path:   pathName(name),
		names:  []string{name},
		labels: concat([]string{name}, spec.labels),
		before: slices.Clone(spec.before),
		after:  slices.Clone(spec.after),
	}
	if err := b.flattenSpec(spec, root, true); err != nil {
		return nil, err
	}
	if err := b.order(); err != nil {
		return nil, err
	}
	return b.p, nil
}

// replan returns a copy of p ordered again for the world's groups of
// generation gen: the same systems, labels, constraints and run
// conditions, as p was built from, with new conflict edges and batches.
// It does not read the items p was built from, which the caller may have
// changed since. Each system keeps its tracking timestamp and statistics,
// and gets frames of its own, so p is untouched. p must not be running.
func (p *plan) replan(lay layout, gen uint64) (*plan, error) {
	q := &plan{name: p.name, groupGen: gen, wlevels: p.wlevels, spans: p.spans}
	for _, c := range p.wconds {
		q.wconds = append(q.wconds, c.clone())
	}
	for _, s := range p.systems {
		c := s.cloneFor(q)
		c.preds, c.batch, c.reason = nil, 0, ""
		c.succ, c.npreds = nil, 0
		q.systems = append(q.systems, c)
	}
	b := &planBuilder{p: q, lay: lay}
	if err := b.order(); err != nil {
		return nil, err
	}
	return q, nil
}

// clone returns a copy of c with a frame of its own and no per-run state;
// it keeps the condition's window.
func (c *planCond) clone() *planCond {
	d := *c
	if d.shape != nil {
		d.frame = d.shape.newFrame()
	}
	d.done, d.at, d.value, d.err = false, 0, false, nil
	return &d
}

// copyPlan returns a copy of p in the same order, with frames of its own
// and no per-run state; each system and condition keeps its window and
// statistics. The order (edges, batches, seq) is shared: it never
// changes once built.
func (p *plan) copyPlan() *plan {
	q := &plan{
		name: p.name, batches: p.batches, seq: p.seq, wlevels: p.wlevels, spans: p.spans,
		groupGen: p.groupGen, waiting: make([]int32, len(p.systems)),
	}
	for _, c := range p.wconds {
		q.wconds = append(q.wconds, c.clone())
	}
	q.systems = make([]*planSystem, 0, len(p.systems))
	for _, s := range p.systems {
		q.systems = append(q.systems, s.cloneFor(q))
	}
	return q
}

// cloneFor returns a copy of s for plan q, with a frame and conditions of
// its own and no outcome of a run; it keeps its place in the order, its
// window and its statistics.
func (s *planSystem) cloneFor(q *plan) *planSystem {
	c := *s
	c.p = q
	c.err, c.panicked, c.tctx = nil, nil, nil
	c.frame = s.shape.newFrame()
	c.conds = nil
	for _, pc := range s.conds {
		c.conds = append(c.conds, pc.clone())
	}
	return &c
}

// renamed returns a copy of p named name: its systems' paths, workloads
// and statistics, and the workload's own conditions, say name. Labels
// stay as built, so the order holds. p must not be running.
func (p *plan) renamed(name string) *plan {
	q := p.copyPlan()
	oldPath, newPath := pathName(p.name), pathName(name)
	q.name = name
	for _, s := range q.systems {
		s.path = newPath + strings.TrimPrefix(s.path, oldPath)
		s.workloads = slices.Clone(s.workloads)
		s.workloads[0] = name
		s.stats = s.stats.named(s.path)
	}
	for _, c := range q.wconds {
		if c.root {
			c.owner, c.name = name, name+" (run condition)"
		}
	}
	return q
}

// flattenSpec adds the systems of the workload x, whose context inner is
// (its path, names, labels, constraints and the conditions around it):
// its conditions, its items, and its Sequential span. root says that x is
// the workload being built, not one nested in it.
func (b *planBuilder) flattenSpec(x *WorkloadSpec, inner flatCtx, root bool) error {
	if len(x.conds) > 0 {
		var level condLevel
		inner.wconds = slices.Clone(inner.wconds)
		for _, c := range x.conds {
			pc, err := newCond(c, x.name)
			if err != nil {
				return &WorkloadBuildError{Workload: inner.path, Reason: "bad run condition", Err: err}
			}
			pc.root, pc.win = root, new(window)
			level.conds = append(level.conds, len(b.p.wconds))
			inner.wconds = append(inner.wconds, len(b.p.wconds))
			b.p.wconds = append(b.p.wconds, pc)
		}
		inner.levels = append(slices.Clone(inner.levels), len(b.p.wlevels))
		b.p.wlevels = append(b.p.wlevels, level)
	}
	lo, nth := len(b.p.systems), b.nspans
	if x.seq {
		b.nspans++
	}
	if err := b.flatten(x.items, inner); err != nil {
		return err
	}
	if x.seq {
		b.p.spans = append(b.p.spans, span{from: lo, lo: lo, hi: len(b.p.systems), seq: true, path: inner.path, nth: nth})
	}
	return nil
}

// flatten adds the systems of items, the list of a workload whose
// context is ctx, and the spans of the Barriers among them.
func (b *planBuilder) flatten(items []any, ctx flatCtx) error {
	from := len(b.p.systems)
	var mids, nths []int // where each barrier is, in plan.systems, and its span.nth
	defer func() {
		lo := from
		for k, mid := range mids {
			b.p.spans = append(b.p.spans, span{from: from, lo: lo, mid: mid, hi: len(b.p.systems), path: ctx.path, nth: nths[k]})
			lo = mid
		}
	}()
	for i, it := range items {
		switch x := it.(type) {
		case *SystemSpec:
			if x == nil {
				return &WorkloadBuildError{Workload: ctx.path, Reason: fmt.Sprintf("item %d is a nil *SystemSpec", i+1)}
			}
			if err := b.addSystem(x, ctx); err != nil {
				return err
			}
		case *WorkloadSpec:
			if x == nil {
				return &WorkloadBuildError{Workload: ctx.path, Reason: fmt.Sprintf("item %d is a nil *WorkloadSpec", i+1)}
			}
			if x.name == "" {
				return &WorkloadBuildError{Workload: ctx.path, Reason: fmt.Sprintf("item %d is a nested workload with no name", i+1)}
			}
			if len(x.items) == 0 {
				return &WorkloadBuildError{Workload: ctx.path + "/" + pathName(x.name), Reason: "the workload has no system"}
			}
			if x.err != nil {
				return &WorkloadBuildError{Workload: ctx.path + "/" + pathName(x.name), Err: x.err}
			}
			inner := flatCtx{
				path:   ctx.path + "/" + pathName(x.name),
				names:  concat(ctx.names, []string{x.name}),
				labels: concat(ctx.labels, []string{x.name}, x.labels),
				before: concat(ctx.before, x.before),
				after:  concat(ctx.after, x.after),
				wconds: ctx.wconds,
				levels: ctx.levels,
			}
			if err := b.flattenSpec(x, inner, false); err != nil {
				return err
			}
		case BarrierItem:
			mids, nths = append(mids, len(b.p.systems)), append(nths, b.nspans)
			b.nspans++
		case ApplyCommandsItem:
			if err := b.addSystem(System(applyMark).Named("ApplyCommands"), ctx); err != nil {
				return err
			}
			b.p.systems[len(b.p.systems)-1].applies = true
		case nil:
			return &WorkloadBuildError{Workload: ctx.path, Reason: fmt.Sprintf("item %d is nil", i+1)}
		case *TypedSystem:
			if err := b.addSystem(System(x), ctx); err != nil {
				return err
			}
		default:
			if reflect.TypeOf(it).Kind() != reflect.Func {
				return &WorkloadBuildError{Workload: ctx.path, Reason: fmt.Sprintf("item %d (%T) is not a system; a workload holds system functions, *ecs.TypedSystem, *ecs.SystemSpec, *ecs.WorkloadSpec ecs.Barrier() and ecs.ApplyCommands()", i+1, it)}
			}
			if err := b.addSystem(System(it), ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

// pathName is a workload's name as written in a workload path, where "/"
// separates the names: with each "%" written "%25" and each "/" written
// "%2F", so that a path reads one way only ("phys%2Fics" is the
// workload "phys/ics"; "phys/ics" is "ics" inside "phys").
func pathName(name string) string {
	if !strings.ContainsAny(name, "%/") {
		return name
	}
	return pathEscaper.Replace(name)
}

var pathEscaper = strings.NewReplacer("%", "%25", "/", "%2F")

func concat(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

func (b *planBuilder) addSystem(spec *SystemSpec, ctx flatCtx) error {
	if spec.err != nil {
		return &WorkloadBuildError{Workload: ctx.path, System: spec.name, Err: spec.err}
	}
	shape, err := analyseSystem(spec.fn, spec.name)
	if err == nil {
		err = selfConflict(shape, spec.name)
	}
	if err != nil {
		return &WorkloadBuildError{Workload: ctx.path, System: spec.name, Err: err}
	}
	s := &planSystem{
		idx:       len(b.p.systems),
		name:      spec.name,
		path:      ctx.path,
		workloads: ctx.names,
		fn:        calleeOf(spec.fn),
		shape:     shape,
		frame:     shape.newFrame(),
		access:    appendNew(nil, shape.access...),
		labels:    concat([]string{spec.name}, spec.labels, ctx.labels),
		before:    concat(spec.before, ctx.before),
		after:     concat(spec.after, ctx.after),
		onCaller:  spec.onCaller,
		reqBefore: spec.reqBefore,
		reqAfter:  spec.reqAfter,
		wconds:    ctx.wconds,
		p:         b.p,
		// Named before any run, so that a system never run (its run
		// conditions false) is listed by name with Runs 0.
		stats: &sysStats{s: SystemStats{Workload: ctx.path, System: spec.name}},
		win:   new(window),
	}
	for _, c := range spec.conds {
		pc, err := newCond(c, spec.name)
		if err != nil {
			return &WorkloadBuildError{Workload: ctx.path, System: spec.name, Reason: "bad run condition", Err: err}
		}
		s.conds = append(s.conds, pc)
		if pc.shape != nil {
			s.access = appendNew(s.access, pc.shape.access...)
		}
	}
	for _, wc := range ctx.wconds {
		if c := b.p.wconds[wc]; c.shape != nil {
			s.access = appendNew(s.access, c.shape.access...)
		}
	}
	for _, l := range ctx.levels {
		b.p.wlevels[l].systems = append(b.p.wlevels[l].systems, s.idx)
	}
	b.p.systems = append(b.p.systems, s)
	return nil
}

func newCond(c condSpec, owner string) (*planCond, error) {
	if f, ok := c.fn.(func() bool); ok {
		if f == nil {
			return nil, &SystemError{System: owner, Reason: "the run condition is nil"}
		}
		return &planCond{owner: owner, name: owner + " (run condition)", skip: c.skip, plain: f}, nil
	}
	shape, err := analyseCond(c.fn, owner)
	if err == nil {
		err = selfConflict(shape, owner)
	}
	if err != nil {
		return nil, err
	}
	return &planCond{owner: owner, name: owner + " (run condition)", skip: c.skip, fn: calleeOf(c.fn), shape: shape, frame: shape.newFrame()}, nil
}

// appendNew appends to list each of more that list does not hold yet, in
// order. A system's accesses gather its views' and its run conditions',
// which often repeat each other; the plan lists and compares each once.
func appendNew(list []Access, more ...Access) []Access {
	for _, a := range more {
		if !slices.Contains(list, a) {
			list = append(list, a)
		}
	}
	return list
}

// selfConflict returns a *SystemError if two views of shape, a system or
// run condition named name, conflict with each other: a function's views
// are borrowed together, so it would fail with a BorrowError at every run.
// [World.Run] and [World.AddWorkload] both refuse such a function with
// it. The check is made once per function type (buildSystem).
func selfConflict(shape *sysShape, name string) error {
	if shape.conflict == nil {
		return nil
	}
	e := *shape.conflict
	e.System = name
	return &e
}

// viewsConflict returns a *SystemError, with no System, if two of params,
// views borrowed together, conflict with each other; fails says what
// would fail then: "every run" of a system, "every call" of World.Borrow.
// Custom views are looked into, field by field. It compares the views as
// declared, without the group members a ViewMut also borrows (partners):
// a View of one member beside a ViewMut of another is allowed (see
// groupBorrows).
func viewsConflict(params []*viewShape, fails string) *SystemError {
	var leaves []viewLeaf
	for i, p := range params {
		leaves = p.leaves(i, "", leaves)
	}
	for j, y := range leaves {
		for _, x := range leaves[:j] {
			if !x.acc.ConflictsWith(y.acc) {
				continue
			}
			res := x.acc.Resource()
			if x.acc.Kind == AllStorages || y.acc.Kind == AllStorages {
				res = allName
			}
			why := "; the views are borrowed together, so " + fails + " would fail to borrow " + res
			if res == allName {
				why += " (AllStoragesViewMut reaches every storage itself: take no other view beside it)"
			} else {
				why += " (take one view of it: an exclusive view reads as well)"
			}
			e := &SystemError{Param: x.param + 1, Type: x.paramType(params), kind: conflictKind{ErrInvalidSystem}}
			if x.param == y.param {
				e.Reason = fmt.Sprintf("has two views that conflict: %s (%s) and %s (%s), on %s%s", x.where(), x.acc.View, y.where(), y.acc.View, res, why)
			} else {
				mine, theirs := "", ""
				if x.field != "" {
					mine = x.part() + " "
				}
				if y.field != "" {
					theirs = " " + y.part()
				}
				e.Reason = fmt.Sprintf("%sconflicts with parameter %d (%s)%s on %s%s", mine, y.param+1, y.paramType(params), theirs, res, why)
			}
			return e
		}
	}
	return nil
}

// viewLeaf is one built-in view among a function's parameters: a
// parameter, or a field (at any depth) of a custom view parameter.
type viewLeaf struct {
	param int    // the parameter's 0-based position
	field string // the path in the custom view or array, "Inner.Pos", "[1]", "Pair[0].Pos"; "" for a parameter that is a built-in view
	acc   Access
}

// leaves appends the built-in views of s, parameter param, at field path
// field, to out.
func (s *viewShape) leaves(param int, field string, out []viewLeaf) []viewLeaf {
	if s.builtin {
		for _, a := range s.access {
			out = append(out, viewLeaf{param: param, field: field, acc: a})
		}
		return out
	}
	for _, f := range s.fields {
		if f.index < 0 { // the elements of an array of views
			for i := range s.t.Len() {
				out = f.shape.leaves(param, fmt.Sprintf("%s[%d]", field, i), out)
			}
			continue
		}
		path := s.t.Field(f.index).Name
		if field != "" {
			path = field + "." + path
		}
		out = f.shape.leaves(param, path, out)
	}
	return out
}

// paramType names the leaf's parameter: its view, "View[main.Pos]", or
// the custom view's type, "main.Movement".
func (l viewLeaf) paramType(params []*viewShape) string {
	if l.field == "" {
		return l.acc.View
	}
	return typeName(params[l.param].t)
}

// where names the part of its custom view or array parameter that the
// leaf is: "field Inner.Pos", "element [1]".
func (l viewLeaf) where() string {
	if strings.HasPrefix(l.field, "[") {
		return "element " + l.field
	}
	return "field " + l.field
}

// part names the part of its custom view or array parameter that the
// leaf is, and its view: "field Pos (ViewMut[main.Pos])".
func (l viewLeaf) part() string { return l.where() + " (" + l.acc.View + ")" }

// order adds the explicit and conflict edges, rejects cycles, and assigns
// batches.
func (b *planBuilder) order() error {
	p := b.p
	n := len(p.systems)
	byLabel := map[string][]int{}
	for _, s := range p.systems {
		for _, l := range dedup(s.labels) {
			byLabel[l] = append(byLabel[l], s.idx)
		}
	}
	// Explicit edges.
	succ := make([][]edge, n) // succ[u] = edges u->v, with edge.from = v
	addExplicit := func(u, v int, label string, after bool, reason string) {
		succ[u] = append(succ[u], edge{from: v, reason: reason, label: label, after: after})
		p.systems[v].preds = append(p.systems[v].preds, edge{from: u, reason: reason, label: label, after: after})
	}
	for _, s := range p.systems {
		for _, l := range s.before {
			targets, ok := byLabel[l]
			if !ok {
				return &WorkloadBuildError{Workload: p.name, System: s.name, Reason: fmt.Sprintf("Before(%q): no system has the label %q", l, l)}
			}
			for _, t := range targets {
				addExplicit(s.idx, t, l, false, "ordered: "+strconvQuote(s.name)+" runs before "+strconvQuote(l))
			}
		}
		for _, l := range s.after {
			targets, ok := byLabel[l]
			if !ok {
				return &WorkloadBuildError{Workload: p.name, System: s.name, Reason: fmt.Sprintf("After(%q): no system has the label %q", l, l)}
			}
			for _, t := range targets {
				addExplicit(t, s.idx, l, true, "ordered: "+strconvQuote(s.name)+" runs after "+strconvQuote(l))
			}
		}
	}
	addSpan := func(u, v int, sp span) {
		reason, why := "barrier: in workload "+strconvQuote(sp.path), "a Barrier in workload "+strconvQuote(sp.path)+" separates them"
		if sp.seq {
			reason, why = "sequential: workload "+strconvQuote(sp.path), "workload "+strconvQuote(sp.path)+" is Sequential"
		}
		succ[u] = append(succ[u], edge{from: v, reason: reason, span: why})
		p.systems[v].preds = append(p.systems[v].preds, edge{from: u, reason: reason, span: why})
	}
	for _, sp := range p.spans {
		if sp.seq {
			for u := sp.lo; u+1 < sp.hi; u++ {
				addSpan(u, u+1, sp)
			}
			continue
		}
		for u := sp.lo; u < sp.mid; u++ {
			for v := sp.mid; v < sp.hi; v++ {
				addSpan(u, v, sp)
			}
		}
	}
	if cyc := findCycle(p.systems, succ); cyc != "" {
		return &WorkloadBuildError{Workload: p.name, Err: fmt.Errorf("%w: %s", ErrCyclicOrdering, cyc)}
	}
	// Reachability over explicit edges, as bit sets.
	words := (n + 63) / 64
	reach := make([][]uint64, n)
	for i := range reach {
		reach[i] = make([]uint64, words)
	}
	has := func(u, v int) bool { return reach[u][v/64]&(1<<(v%64)) != 0 }
	// reaches records that x reaches v, and so what v reaches.
	reaches := func(x, v int) {
		reach[x][v/64] |= 1 << (v % 64)
		for w := range reach[x] {
			reach[x][w] |= reach[v][w]
		}
	}
	topo := topoOrder(n, func(v int) []edge { return p.systems[v].preds })
	for i := len(topo) - 1; i >= 0; i-- {
		u := topo[i]
		for _, e := range succ[u] {
			reaches(u, e.from)
		}
	}
	// Conflict edges, in declared order unless already ordered the other way.
	access := make([][]Access, n)
	for i, s := range p.systems {
		access[i] = partners(s.access, b.lay)
	}
	for j := 0; j < n; j++ {
		for i := 0; i < j; i++ {
			a, c, ok := conflict(access[i], access[j])
			if !ok {
				continue
			}
			u, v := i, j
			if has(j, i) {
				continue // explicitly ordered j before i: that order holds
			}
			reason := "conflict: " + describeConflict(a, c)
			p.systems[v].preds = append(p.systems[v].preds, edge{from: u, reason: reason})
			// everything reaching u (and u) now reaches v and what v reaches
			for x := 0; x < n; x++ {
				if x == u || has(x, u) {
					reaches(x, v)
				}
			}
		}
	}
	// Batches: longest path from the sources.
	p.seq = topoOrder(n, func(v int) []edge { return p.systems[v].preds })
	for _, v := range p.seq {
		s := p.systems[v]
		s.batch = 0
		for _, e := range s.preds {
			if bt := p.systems[e.from].batch + 1; bt > s.batch || (bt == s.batch && s.reason == "") {
				s.batch, s.reason = bt, e.reason
			}
		}
		for len(p.batches) <= s.batch {
			p.batches = append(p.batches, nil)
		}
	}
	for _, s := range p.systems {
		p.batches[s.batch] = append(p.batches[s.batch], s.idx)
	}
	// What the parallel run follows: the edges, each once.
	for _, s := range p.systems {
		s.gated = s.onCaller || len(s.conds) > 0 || len(s.wconds) > 0
		for k, e := range s.preds {
			if !slices.ContainsFunc(s.preds[:k], func(d edge) bool { return d.from == e.from }) {
				s.npreds++
				p.systems[e.from].succ = append(p.systems[e.from].succ, s.idx)
			}
		}
	}
	p.waiting = make([]int32, n)
	return p.checkRequires(byLabel)
}

// checkRequires checks every RequireBefore and RequireAfter against the
// ordered plan: a system labelled with the label must run before (or
// after) the system, that is, be joined to it by a path of edges.
func (p *plan) checkRequires(byLabel map[string][]int) error {
	n := len(p.systems)
	var anc [][]uint64 // anc[v]: the systems v follows, directly or not, as a bit set
	isAnc := func(u, v int) bool { return anc[v][u/64]&(1<<(u%64)) != 0 }
	for _, s := range p.systems {
		if len(s.reqBefore)+len(s.reqAfter) == 0 {
			continue
		}
		if anc == nil {
			anc = make([][]uint64, n)
			for _, v := range p.seq {
				anc[v] = make([]uint64, (n+63)/64)
				for _, e := range p.systems[v].preds {
					anc[v][e.from/64] |= 1 << (e.from % 64)
					for w, bits := range anc[e.from] {
						anc[v][w] |= bits
					}
				}
			}
		}
		for _, r := range []struct {
			method string
			labels []string
			runs   func(t int) bool
			where  string
		}{
			{"RequireBefore", s.reqBefore, func(t int) bool { return isAnc(t, s.idx) }, "before"},
			{"RequireAfter", s.reqAfter, func(t int) bool { return isAnc(s.idx, t) }, "after"},
		} {
			for _, l := range r.labels {
				var others []string
				ok := false
				for _, t := range byLabel[l] {
					if t == s.idx {
						continue
					}
					if r.runs(t) {
						ok = true
						break
					}
					others = append(others, p.systems[t].name)
				}
				if ok {
					continue
				}
				reason := fmt.Sprintf("%s(%q): no other system has the label %q", r.method, l, l)
				if len(others) > 0 {
					reason = fmt.Sprintf("%s(%q): no system labelled %q runs %s it: %s %s not ordered %s it (order it with %s, or a Barrier)",
						r.method, l, l, r.where, strings.Join(others, ", "), isAre(len(others)), r.where, orderHint(r.where, l))
				}
				return &WorkloadBuildError{Workload: p.name, System: s.name, Reason: reason}
			}
		}
	}
	return nil
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// orderHint is the constraint that would put a system labelled label
// where (before or after) the system that requires it.
func orderHint(where, label string) string {
	if where == "before" {
		return fmt.Sprintf("After(%q)", label)
	}
	return fmt.Sprintf("Before(%q)", label)
}

func describeConflict(mine, theirs Access) string {
	// mine belongs to the earlier system, theirs to the later one.
	res := mine.Resource()
	if mine.Kind == AllStorages || theirs.Kind == AllStorages {
		res = allName
	}
	return fmt.Sprintf("%s vs %s on %s", theirs.View, mine.View, res)
}

func strconvQuote(s string) string { return fmt.Sprintf("%q", s) }

func dedup(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return slices.Compact(out)
}

// topoOrder returns a topological order of 0..n-1 under the predecessor
// lists given by preds, taking the smallest index whenever several are
// ready. The graph must be acyclic.
func topoOrder(n int, preds func(int) []edge) []int {
	indeg := make([]int, n)
	succ := make([][]int, n)
	for v := 0; v < n; v++ {
		for _, e := range preds(v) {
			indeg[v]++
			succ[e.from] = append(succ[e.from], v)
		}
	}
	var ready []int // kept sorted descending, so the smallest is last
	push := func(v int) {
		i, _ := slices.BinarySearchFunc(ready, v, func(a, b int) int { return b - a })
		ready = slices.Insert(ready, i, v)
	}
	for v := 0; v < n; v++ {
		if indeg[v] == 0 {
			push(v)
		}
	}
	order := make([]int, 0, n)
	for len(ready) > 0 {
		v := ready[len(ready)-1]
		ready = ready[:len(ready)-1]
		order = append(order, v)
		for _, w := range succ[v] {
			if indeg[w]--; indeg[w] == 0 {
				push(w)
			}
		}
	}
	return order
}

// findCycle returns a printed cycle of explicit edges (see cycleText),
// or "".
func findCycle(systems []*planSystem, succ [][]edge) string {
	const (
		white = iota
		grey
		black
	)
	color := make([]int, len(systems))
	type step struct {
		v int
		e edge // the edge that led here, from the step before
	}
	var stack []step
	var found string
	var visit func(v int) bool
	visit = func(v int) bool {
		color[v] = grey
		for _, e := range succ[v] {
			if color[e.from] == grey {
				// the cycle is the stack from e.from to v, then back to e.from
				start := 0
				for i, st := range stack {
					if st.v == e.from {
						start = i
					}
				}
				var steps []string
				for i := start + 1; i < len(stack); i++ {
					steps = append(steps, cycleStep(systems, stack[i-1].v, stack[i].v, stack[i].e))
				}
				steps = append(steps, cycleStep(systems, v, e.from, e))
				found = strings.Join(steps, "; ")
				return true
			}
			if color[e.from] == white {
				stack = append(stack, step{v: e.from, e: e})
				if visit(e.from) {
					return true
				}
				stack = stack[:len(stack)-1]
			}
		}
		color[v] = black
		return false
	}
	for v := range systems {
		if color[v] == white {
			stack = append(stack[:0], step{v: v})
			if visit(v) {
				return found
			}
		}
	}
	return ""
}

// cycleStep prints the explicit edge e from system u to system v, one
// step of a cycle: which system must run before which, and the
// constraint that says so, telling labels (quoted) from systems:
//
//	system main.move must run before system main.bounce (main.move has Before("physics"), and label "physics" includes main.bounce)
//	system main.bounce must run before system main.move (main.move has After("main.bounce"))
//
// A label that is the name of the system it leads to (every system has
// its name as a label) is not spelled out again.
func cycleStep(systems []*planSystem, u, v int, e edge) string {
	from, to := systems[u].name, systems[v].name
	if e.span != "" {
		return fmt.Sprintf("system %s must run before system %s (%s)", from, to, e.span)
	}
	holder, kind, other := from, "Before", to // other is the system the label picks
	if e.after {
		holder, kind, other = to, "After", from
	}
	what := "system " + to
	if u == v {
		what = "itself"
	}
	why := fmt.Sprintf("%s has %s(%q)", holder, kind, e.label)
	if e.label != other {
		why += fmt.Sprintf(", and label %q includes %s", e.label, other)
	}
	return fmt.Sprintf("system %s must run before %s (%s)", from, what, why)
}

// SystemStats are the timing statistics of one system in one workload,
// collected while tracing is on (see [World.SetTracing]). An
// [ApplyCommands] item is listed and timed as a system named
// "ApplyCommands".
type SystemStats struct {
	Workload string        // the workload path: "main_loop/filter_vel" (see [PlanSystem])
	System   string        // the system's name
	Runs     int           // how many times it ran (skipped runs not counted)
	Last     time.Duration // the duration of its last run
	Total    time.Duration // the sum of all its runs

	// Where and when its last run was, for a timeline of a workload run
	// (a Gantt chart). LastRun numbers the workload run it was part of:
	// each run of a workload while tracing is on takes the next number,
	// counted from 1 across the world, so the systems of one workload
	// with the same LastRun ran in the same run, and a system that run
	// conditions skipped keeps an older one. LastStart is when it began,
	// from the start of that workload run. LastWorker is the goroutine
	// that ran it: 0 the one that called [World.RunWorkload], from 1 the
	// pool's workers helping that run, each numbered with the lowest
	// number free when it joined the run (so the numbers in use at once
	// never exceed the number of workers).
	LastRun    uint64
	LastStart  time.Duration
	LastWorker int
}

// Mean returns the mean duration of a run, or 0 if it never ran.
func (s SystemStats) Mean() time.Duration {
	if s.Runs == 0 {
		return 0
	}
	return s.Total / time.Duration(s.Runs)
}
