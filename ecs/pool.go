package ecs

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"runtime/trace"
	"sync"
	"sync/atomic"
	"time"
)

// A Pool is a set of worker goroutines that run a workload's systems beside
// the goroutine that runs the workload, and share the work of parallel
// iterations with the goroutine that iterates.
//
// Each [World] has a pool of its own, made on its first parallel run, with
// GOMAXPROCS-1 workers (the caller is the other goroutine at work), unless
// it is given one with [World.SetPool]: worlds that share a pool share its
// workers, and together use no more goroutines than it has. Parallel
// iterations ([View.ParEach], [ViewMut.ParEach], the joins' ParEach) run
// on the pool of the world their views belong to; the bulk calls that
// split their work share one process-wide pool, made and sized as a
// world's own.
//
// A worker starts when a job needs it, and one with nothing to do blocks
// until a job comes, so an idle pool costs no CPU (unless spinning is
// turned on: [Pool.SetSpin]). A worker idle for longer than the idle
// timeout ([Pool.SetIdleTimeout]) exits, and the pool starts one again
// when a job needs it: a World or a Pool that is dropped leaves no
// goroutine behind once its workers have timed out, and no worker holds a
// reference to a World between jobs. [Pool.Close] stops the workers
// without waiting for the timeout.
//
// A job never waits for a worker to become free: the caller takes part in
// its own job, and takes back the shares no worker has started when it
// runs out of work, so a system may itself run a workload or a parallel
// iteration on the same pool. A Pool is safe for use by several
// goroutines at once.
type Pool struct {
	workers int          // how many workers; negative: GOMAXPROCS-1
	idleFor atomic.Int64 // a time.Duration, see SetIdleTimeout
	spinFor atomic.Int64 // a time.Duration, see SetSpin
	closed  atomic.Bool  // Close was called (set under mu)

	// queue[head:] holds the jobs waiting for a helper, oldest first, one
	// entry per helper a job asked for; parked holds the workers blocked
	// for want of a job, the last parked last; live counts the worker
	// goroutines. All three under mu.
	mu     sync.Mutex
	queue  []helper
	head   int
	parked []*worker
	live   int

	// queued is len(queue)-head, for spinning workers to poll without
	// the lock; spinning counts the workers polling it (SetSpin), which
	// a job can count on instead of waking parked ones.
	queued   atomic.Int32
	spinning atomic.Int32
}

// defaultIdle is a pool's idle timeout unless SetIdleTimeout changes it.
const defaultIdle = time.Second

// NewPool returns a pool of the given number of workers: goroutines that
// help the callers, who take part in their jobs too. With 0 workers,
// every job runs on its caller alone (a workload then runs its systems in
// declared order, as with GOMAXPROCS=1). With a negative number, the pool
// has GOMAXPROCS-1 workers, GOMAXPROCS as it is at each job, as a World's
// own pool does. No goroutine starts before a job needs it.
func NewPool(workers int) *Pool {
	p := &Pool{workers: workers}
	p.idleFor.Store(int64(defaultIdle))
	return p
}

// Workers returns how many workers the pool runs a job with now: 0 once
// it is closed.
func (p *Pool) Workers() int {
	if p.closed.Load() {
		return 0
	}
	if p.workers < 0 {
		return runtime.GOMAXPROCS(0) - 1
	}
	return p.workers
}

// SetIdleTimeout sets how long a worker with nothing to do waits for a job
// before it exits (one second unless set; the pool starts a worker again
// when a job needs one). With d <= 0, workers never exit on their own,
// only when the pool is closed. It applies from each worker's next wait.
func (p *Pool) SetIdleTimeout(d time.Duration) { p.idleFor.Store(int64(d)) }

// SetSpin turns spinning on (d > 0) or off (d <= 0, the default). With
// spinning on, a worker that has finished its part of a job polls for the
// next job for up to d, yielding its core between polls, before it
// blocks, and a caller waiting for its helpers or for a system to finish
// polls for up to d before it blocks. Waking a blocked goroutine on
// another core takes long on some machines, longer than a short system
// runs: spinning lets jobs that follow each other closely (a workload's
// systems, the steps of a simulation run flat out) find the workers
// awake, for up to d of CPU per worker after each job.
func (p *Pool) SetSpin(d time.Duration) { p.spinFor.Store(int64(d)) }

// Close stops the pool's workers: those blocked exit now, those running a
// part of a job exit when they have finished it (Close does not wait for
// them). The jobs run after it, and the rest of those in progress, run on
// their callers alone: a World whose pool is closed runs its workloads'
// systems in declared order on the calling goroutine, until it is given
// another pool (World.SetPool(nil) gives it a new one of its own). Close
// may be called more than once.
func (p *Pool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed.Load() {
		return
	}
	p.closed.Store(true)
	for _, w := range p.parked {
		w.parked = false
		w.wake <- struct{}{}
	}
	p.parked = nil
}

// worker is a worker goroutine's state for its waits.
type worker struct {
	wake   chan struct{} // a token when taken off Pool.parked (capacity 1)
	timer  *time.Timer   // the idle timeout
	parked bool          // on Pool.parked, under Pool.mu
}

// helper is a job workers can help with: a workload run, or a parallel
// iteration. help claims and runs parts of the job until none is left,
// then tells the job's crew it is done.
type helper interface {
	help()
}

// enqueue queues job h for n helpers, wakes parked workers for those the
// spinning ones do not cover, and starts workers for those the parked
// ones do not cover either, as far as the pool's size allows; a worker
// busy with another job takes the rest when it has finished. It reports
// false, and queues nothing, if the pool is closed.
func (p *Pool) enqueue(h helper, n int) bool {
	p.mu.Lock()
	if p.closed.Load() {
		p.mu.Unlock()
		return false
	}
	for range n {
		p.queue = append(p.queue, h)
	}
	p.queued.Add(int32(n))
	want := n - int(p.spinning.Load())
	for ; want > 0 && len(p.parked) > 0; want-- {
		w := p.parked[len(p.parked)-1]
		p.parked[len(p.parked)-1] = nil
		p.parked = p.parked[:len(p.parked)-1]
		w.parked = false
		w.wake <- struct{}{}
	}
	start := max(0, min(want, p.Workers()-p.live))
	p.live += start
	p.mu.Unlock()
	for range start {
		go p.work()
	}
	return true
}

// take removes the oldest queued job and returns it, or returns nil. The
// caller holds p.mu.
func (p *Pool) take() helper {
	if p.head == len(p.queue) {
		return nil
	}
	h := p.queue[p.head]
	p.queue[p.head] = nil
	p.head++
	if p.head == len(p.queue) {
		p.queue, p.head = p.queue[:0], 0
	}
	p.queued.Add(-1)
	return h
}

// retract removes the entries of job h that no worker has taken, and
// returns how many there were.
func (p *Pool) retract(h helper) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	q := p.queue[p.head:]
	kept := q[:0]
	for _, e := range q {
		if e != h {
			kept = append(kept, e)
		}
	}
	n := len(q) - len(kept)
	clear(q[len(kept):])
	p.queue = p.queue[:p.head+len(kept)]
	if p.head == len(p.queue) {
		p.queue, p.head = p.queue[:0], 0
	}
	p.queued.Add(-int32(n))
	return n
}

// work is a worker's loop: take a job and help with it, or wait for one;
// exit when the pool is closed, when it has more workers than it should
// (GOMAXPROCS went down), or after waiting for the idle timeout.
func (p *Pool) work() {
	// A goroutine starts with its creator's profiler labels, which may be
	// those of a traced system that needed a helper: the worker's own
	// labels stay empty, and each traced system it runs sets them while
	// it runs.
	pprof.SetGoroutineLabels(context.Background())
	w := &worker{wake: make(chan struct{}, 1)}
	p.mu.Lock()
	for {
		if p.live > p.Workers() {
			p.live--
			p.mu.Unlock()
			return
		}
		if h := p.take(); h != nil {
			p.mu.Unlock()
			p.runJob(h)
			p.poll()
			p.mu.Lock()
			continue
		}
		w.parked = true
		p.parked = append(p.parked, w)
		p.mu.Unlock()
		woken := w.wait(time.Duration(p.idleFor.Load()))
		p.mu.Lock()
		if !woken {
			if w.parked { // timed out, and nobody woke it since
				p.unpark(w)
				p.live--
				p.mu.Unlock()
				return
			}
			<-w.wake // woken as it timed out: the token was sent under mu
		}
	}
}

// runJob runs a worker's share of job h. If h ends the goroutine
// (runtime.Goexit: testing.T.FailNow in a system, for instance), the
// worker ends with it, and another worker takes its place; h itself
// accounts for its share (its deferred calls run).
func (p *Pool) runJob(h helper) {
	returned := false
	defer func() {
		if !returned {
			go p.work() // p.live still counts the worker that ended
		}
	}()
	h.help()
	returned = true
}

// unpark removes w from p.parked. The caller holds p.mu.
func (p *Pool) unpark(w *worker) {
	for i, x := range p.parked {
		if x == w {
			copy(p.parked[i:], p.parked[i+1:])
			p.parked[len(p.parked)-1] = nil
			p.parked = p.parked[:len(p.parked)-1]
			break
		}
	}
	w.parked = false
}

// wait blocks until the worker is woken, and reports true, or until idle
// has passed (if idle > 0), and reports false.
func (w *worker) wait(idle time.Duration) bool {
	if idle <= 0 {
		<-w.wake
		return true
	}
	if w.timer == nil {
		w.timer = time.NewTimer(idle)
	} else {
		w.timer.Reset(idle)
	}
	select {
	case <-w.wake:
		// Drain a value the timer may have sent meanwhile (with the timer
		// channels of Go before 1.23, which a main module declaring an
		// older go version still gets), so the next wait does not take it
		// for a timeout.
		if !w.timer.Stop() {
			select {
			case <-w.timer.C:
			default:
			}
		}
		return true
	case <-w.timer.C:
		return false
	}
}

// poll is what a worker does between a job and its next look at the
// queue: nothing, unless spinning is on (SetSpin); then it polls the queue
// for up to the spin time, counted in p.spinning meanwhile.
func (p *Pool) poll() {
	d := time.Duration(p.spinFor.Load())
	if d <= 0 {
		return
	}
	p.spinning.Add(1)
	// The worker looks at the queue under p.mu after it stops being
	// counted: a job that counted on it meanwhile, and woke no one, is
	// found there.
	spin(d, func() bool { return p.queued.Load() > 0 })
	p.spinning.Add(-1)
}

// spin polls done, yielding the core between polls, for up to d, and
// reports whether done became true.
func spin(d time.Duration, done func() bool) bool {
	for start := time.Now(); time.Since(start) < d; runtime.Gosched() {
		if done() {
			return true
		}
	}
	return false
}

// crew is the part of a job that tracks its helpers: the ones asked for
// that have not finished yet (queued or started).
type crew struct {
	pool *Pool
	left atomic.Int32
	wg   sync.WaitGroup
}

// hire queues job h on c.pool for n helpers. The caller then works on h
// itself and calls wait.
func (c *crew) hire(h helper, n int) {
	if n <= 0 {
		return
	}
	c.left.Add(int32(n))
	c.wg.Add(n)
	if !c.pool.enqueue(h, n) {
		for range n {
			c.done()
		}
	}
}

// done is called by each helper when it has finished.
func (c *crew) done() {
	c.left.Add(-1)
	c.wg.Done()
}

// wait returns when every helper of job h has finished. It first takes
// back the shares no worker has started, so it waits only for workers
// that are running h; it blocks for them (after polling, if spinning is
// on).
func (c *crew) wait(h helper) {
	if c.left.Load() == 0 {
		c.wg.Wait() // for the last helper's Done, after its count
		return
	}
	for range c.pool.retract(h) {
		c.done()
	}
	if d := time.Duration(c.pool.spinFor.Load()); d > 0 {
		spin(d, func() bool { return c.left.Load() == 0 })
	}
	c.wg.Wait()
}

// Pool returns the pool that runs the world's workloads: the one given to
// [World.SetPool], or else the world's own, which is made now if the
// world has none yet, with GOMAXPROCS-1 workers (see [Pool]).
func (w *World) Pool() *Pool {
	w.mustWorld("Pool")
	if p := w.pool.Load(); p != nil {
		return p
	}
	p := NewPool(-1)
	if w.pool.CompareAndSwap(nil, p) {
		return p
	}
	return w.pool.Load()
}

// SetPool makes the world run its workloads on p from the next run, as
// other worlds given p do; with p nil, the world makes a pool of its own
// again at its next parallel run. The pool it used so far is not closed:
// its workers exit after its idle timeout if nothing else uses it, or at
// its Close.
func (w *World) SetPool(p *Pool) {
	w.mustWorld("SetPool")
	w.pool.Store(p)
}

// ErrGoexit is the error of a workload system or run condition that ended
// its goroutine with runtime.Goexit (as testing.T.FailNow does) on a
// worker of the pool: the worker ends, another takes its place, and
// RunWorkload returns a [*WorkloadError] wrapping ErrGoexit once the
// systems running meanwhile have finished. A ParEach whose function does
// so on a worker panics with ErrGoexit on the calling goroutine. On the
// goroutine that called RunWorkload, runtime.Goexit ends that goroutine,
// as it always does, after the systems running on workers have finished
// and with every borrow released.
var ErrGoexit = errors.New("ecs: runtime.Goexit called on a worker goroutine of the pool")

// sharedPool is the pool of the parallel passes that have no world's pool
// at hand: the bulk calls' (parallelFor).
var sharedPool = sync.OnceValue(func() *Pool { return NewPool(-1) })

// SetTracing turns tracing and profiling of workload runs on or off. When
// on, each workload run is a runtime/trace task and each system a region in
// it (see `go tool trace`); each system runs with runtime/pprof labels
// "workload" and "system", so a CPU profile splits by system; and each
// system's timing is collected ([World.SystemStats]). When off (the
// default), none of this costs anything.
func (w *World) SetTracing(on bool) {
	w.mustWorld("SetTracing")
	w.tracing.Store(on)
}

// SystemStats returns the timing statistics of every system of every
// workload, collected while tracing was on, sorted by workload then
// declared order. A system that never ran (tracing off, or its run
// conditions false) is listed too, by name, with Runs 0. A workload
// running at the time is left out.
func (w *World) SystemStats() []SystemStats {
	w.mustWorld("SystemStats")
	var out []SystemStats
	for _, name := range w.Workloads() {
		w.workMu.Lock()
		p := w.workloads[name]
		w.workMu.Unlock()
		if p == nil || !p.statsMu.TryLock() {
			continue
		}
		for _, s := range p.systems {
			out = append(out, s.stats)
		}
		p.statsMu.Unlock()
	}
	return out
}

// run runs the plan once. The caller holds p.running (World.takePlan).
func (p *plan) run(w *World) error {
	p.statsMu.Lock()
	defer p.statsMu.Unlock()
	p.world = w
	for _, c := range p.wconds {
		c.done = false
	}
	defer p.closeWindows() // also if a system panics
	var tctx context.Context
	if w.tracing.Load() {
		var task *trace.Task
		tctx, task = trace.NewTask(context.Background(), "workload "+p.name)
		defer task.End()
	}
	pool := w.Pool()
	n := pool.Workers()
	if n <= 0 {
		return p.runSequential(tctx)
	}
	p.crew.pool = pool
	return p.runParallel(tctx, n)
}

// runSequential runs every system on the caller, in declared order
// (adjusted only where explicit constraints demand it).
func (p *plan) runSequential(tctx context.Context) error {
	for _, i := range p.seq {
		s := p.systems[i]
		s.err, s.panicked = nil, nil
		if !p.check(s) {
			if err := s.outcome(); err != nil {
				return err
			}
			continue
		}
		s.tctx = tctx
		s.exec()
		if err := s.outcome(); err != nil {
			return err
		}
	}
	return nil
}

// runParallel runs every system once, each as soon as the systems it
// follows (plan.order: the earlier ones it conflicts with, and explicit
// constraints) have finished, on the caller and the worker pool. Systems
// that no order separates run side by side; a system never waits for one
// it does not follow, as it would with the batches run one after the
// other: with A alone, and B then C over other storages, A runs beside B
// and C in turn.
//
// A goroutine that finishes a system releases the systems that were
// waiting for it alone: it runs one of them next, puts the others on the
// ready list and wakes helpers for them. A gated system (OnCaller, or with
// run conditions) goes to the caller instead, which evaluates its
// conditions (on the calling goroutine, as documented, while no system it
// conflicts with runs: the conditions' views count as the system's) and
// runs it or puts it on the ready list. After an error or a panic, no
// system starts; those running finish.
func (p *plan) runParallel(tctx context.Context, nworkers int) error {
	if p.signal == nil {
		p.signal = make(chan struct{}, 1)
	}
	p.nworkers = nworkers
	p.stopped.Store(false)
	p.left.Store(int32(len(p.systems)))
	p.mu.Lock()
	p.ready, p.head, p.gated, p.ghead = p.ready[:0], 0, p.gated[:0], 0
	for _, s := range p.systems {
		s.err, s.panicked, s.tctx = nil, nil, tctx
		p.waiting[s.idx] = s.npreds
		if s.npreds == 0 {
			p.queue(s)
		}
	}
	// The caller takes one ready system, unless it has gated ones to run
	// first: then every ready system needs a helper.
	first := len(p.ready) - 1
	if len(p.gated) > 0 {
		first++
	}
	p.mu.Unlock()
	returned := false
	defer func() {
		if !returned {
			// runtime.Goexit on the caller, in a system or a condition
			// it ran: no system starts any more, and the goroutine ends
			// once the systems running on workers have finished, so
			// that no helper is still inside the plan when the next run
			// (or a replacement of the workload) begins.
			p.stopped.Store(true)
			p.crew.wait(p)
		}
	}()
	p.hireFor(first)
	for p.left.Load() > 0 {
		if !p.runGated() && !p.runReady(true) {
			p.await()
		}
	}
	p.crew.wait(p)
	returned = true
	// Panics first, then errors, in declared order.
	for _, s := range p.systems {
		if s.panicked != nil {
			panic(s.panicked)
		}
	}
	for _, s := range p.systems {
		if err := s.outcome(); err != nil {
			return err
		}
	}
	return nil
}

// queue puts s, whose preds have all finished, on the list it starts
// from. The caller holds p.mu.
func (p *plan) queue(s *planSystem) {
	if s.gated {
		p.gated = append(p.gated, s)
	} else {
		p.ready = append(p.ready, s)
	}
}

// help runs systems of the ready list until it is empty: a worker's part
// of a run.
func (p *plan) help() {
	defer p.crew.done() // also if a system ends the goroutine (runtime.Goexit)
	for p.runReady(false) {
	}
}

// runReady runs the first system of the ready list, and reports whether
// there was one. caller says whether the goroutine is the caller's (see
// finish).
func (p *plan) runReady(caller bool) bool {
	s, _ := p.pop(&p.ready, &p.head)
	if s == nil {
		return false
	}
	returned := false
	defer func() { p.finish(s, caller, !returned) }() // also if s ends the goroutine (runtime.Goexit)
	if !p.stopped.Load() {
		p.exec(s)
	}
	returned = true
	return true
}

// pop takes the first system of list[*head:], or returns nil, and reports
// whether other systems remain there.
func (p *plan) pop(list *[]*planSystem, head *int) (s *planSystem, more bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if *head == len(*list) {
		return nil, false
	}
	s = (*list)[*head]
	*head++
	return s, *head < len(*list)
}

// runGated evaluates the conditions of the first system of the gated list
// (on the caller: only the caller calls it) and runs it, skips it, or puts
// it on the ready list; it reports whether there was one.
func (p *plan) runGated() bool {
	s, more := p.pop(&p.gated, &p.ghead)
	if s == nil {
		return false
	}
	run := !p.stopped.Load() && p.check(s)
	if run && !s.onCaller && more {
		// Other gated systems wait for the caller: let a worker run it.
		p.mu.Lock()
		p.ready = append(p.ready, s)
		p.mu.Unlock()
		p.hireFor(1)
		return true
	}
	returned := false
	defer func() { p.finish(s, true, !returned) }() // also if s ends the goroutine (runtime.Goexit)
	if run {
		p.exec(s)
	}
	returned = true
	return true
}

// exec runs s, and stops the run at once if s fails: no system starts
// once a failed one has returned.
func (p *plan) exec(s *planSystem) {
	s.exec()
	if s.err != nil || s.panicked != nil {
		p.stopped.Store(true)
	}
}

// finish records that s has finished (run, skipped, or not started after
// an error) and releases the systems that were waiting for it alone: the
// goroutine calling it runs one of the ready ones next (runReady), and
// helpers are woken for the others; the caller is woken for gated ones, or
// when s was the last. caller says that the goroutine calling finish is
// the caller's, which runs the gated systems first: if there are any, every
// ready one gets a helper. exiting says that s ended the goroutine
// (runtime.Goexit), which takes no system next: every ready one gets a
// helper, and the caller is woken in case no helper is free (the exiting
// worker still counts as helping until its deferred calls have run).
func (p *plan) finish(s *planSystem, caller, exiting bool) {
	if s.err != nil || s.panicked != nil {
		p.stopped.Store(true)
	}
	ready, gated := 0, 0
	p.mu.Lock()
	for _, t := range s.succ {
		if p.waiting[t]--; p.waiting[t] == 0 {
			ts := p.systems[t]
			p.queue(ts)
			if ts.gated {
				gated++
			} else {
				ready++
			}
		}
	}
	takesNext := !exiting && !(caller && p.ghead < len(p.gated))
	p.mu.Unlock()
	if takesNext {
		p.hireFor(ready - 1)
	} else {
		p.hireFor(ready)
	}
	if p.left.Add(-1) == 0 || gated > 0 || ready > 1 || exiting && ready > 0 {
		select {
		case p.signal <- struct{}{}:
		default: // the caller has a wake-up already
		}
	}
}

// hireFor wakes helpers for n systems put on the ready list, as far as
// the workers not already helping allow.
func (p *plan) hireFor(n int) {
	if n = min(n, p.nworkers-int(p.crew.left.Load())); n > 0 {
		p.crew.hire(p, n)
	}
}

// await waits until the caller may have something to do: a system on
// either list, or the run's end. It blocks until a finishing system
// signals (after polling, if the pool's spinning is on).
func (p *plan) await() {
	if d := time.Duration(p.crew.pool.spinFor.Load()); d > 0 && spin(d, p.callerHasWork) {
		return
	}
	<-p.signal
}

// callerHasWork reports whether a system waits on either list, or the run
// has ended.
func (p *plan) callerHasWork() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.head < len(p.ready) || p.ghead < len(p.gated) || p.left.Load() == 0
}

// check evaluates the run conditions of s and of its workloads, and
// reports whether s should run. A condition's error is recorded as the
// system's, and its panic as the system's panic, so that a run stops on
// them as on the system's own, after the systems running meanwhile have
// finished.
func (p *plan) check(s *planSystem) (run bool) {
	defer func() {
		if r := recover(); r != nil {
			s.panicked = &SystemPanic{Workload: s.path, System: s.name, Value: r, Stack: debug.Stack()}
			run = false
		}
	}()
	ok, err := p.shouldRun(s)
	s.err = err
	return ok && err == nil
}

// shouldRun evaluates the run conditions of s and of its workloads.
func (p *plan) shouldRun(s *planSystem) (bool, error) {
	for _, wi := range s.wconds {
		c := p.wconds[wi]
		if !c.done {
			c.value, c.err = c.evalOwn(p.world)
			c.done = true
		}
		if c.err != nil || !c.value {
			return false, c.err
		}
	}
	for _, c := range s.conds {
		v, err := c.eval(p.world, s)
		if err != nil || !v {
			return false, err
		}
	}
	return true, nil
}

// eval evaluates the condition of system s, applying SkipIf's negation.
// Its views see s's tracking window (what changed since s last ran).
func (c *planCond) eval(w *World, s *planSystem) (bool, error) {
	last := s.lastRun
	if !s.ran {
		last = w.firstWindow()
	}
	return c.evalIn(borrowCtx{w: w, by: c.name, inWorkload: true, last: last})
}

// evalOwn evaluates the condition of a workload, applying SkipIf's
// negation. Its views see the condition's own window: what changed since
// its workload last ran (see plan.closeWindows), or everything before its
// workload's first run. It takes a timestamp of its own, recorded in c.at.
func (c *planCond) evalOwn(w *World) (bool, error) {
	now := w.nextTick()
	last := c.lastRun
	if !c.ran {
		last = now - ancient/2 // as firstWindow, from this condition's own stamp
	}
	c.at = now
	return c.evalIn(borrowCtx{w: w, by: c.name, inWorkload: true, last: last})
}

// evalIn evaluates the condition, its views borrowed with ctx.
func (c *planCond) evalIn(ctx borrowCtx) (bool, error) {
	var v bool
	if c.plain != nil {
		v = c.plain()
	} else {
		c.frame.ctx = ctx
		switch err := c.shape.call(c.fn, c.frame); err {
		case nil:
			v = true
		case errCondFalse:
			v = false
		default:
			return false, fmt.Errorf("run condition: %w", err)
		}
	}
	return v != c.skip, nil
}

// closeWindows ends the run for the windows of the workloads' conditions,
// once no system of the run is running. A workload ran if all its
// conditions held (those of the workloads around it did, since they are
// evaluated first): the window of each of its conditions then starts
// after the latest timestamp its run took, the conditions' own or that
// of the last of its systems to start. So, as a system's window leaves
// out what the system changed at its previous run, a workload's leaves
// out what its systems changed. The conditions of a workload that did not
// run (one that was false, failed or was not reached) keep their window.
func (p *plan) closeWindows() {
	for _, l := range p.wlevels {
		var end uint64
		ran := true
		for _, ci := range l.conds {
			c := p.wconds[ci]
			if !c.done || c.err != nil || !c.value {
				ran = false
				break
			}
			if end == 0 || newer(c.at, end) {
				end = c.at
			}
		}
		if !ran {
			continue
		}
		for _, si := range l.systems {
			// A system that ran in this run started after its
			// conditions were evaluated; one that did not ran before.
			if s := p.systems[si]; s.ran && newer(s.lastRun, end) {
				end = s.lastRun
			}
		}
		for _, ci := range l.conds {
			p.wconds[ci].lastRun, p.wconds[ci].ran = end, true
		}
	}
}

// exec runs the system once, recording its error or panic. A system that
// ends its goroutine (runtime.Goexit) gets ErrGoexit as its error: on a
// worker, the run then stops as after an error; on the caller, the
// goroutine ends once the run has (see runParallel).
func (s *planSystem) exec() {
	returned := false
	defer func() {
		if r := recover(); r != nil {
			s.panicked = &SystemPanic{Workload: s.path, System: s.name, Value: r, Stack: debug.Stack()}
		} else if !returned {
			s.err = ErrGoexit
		}
	}()
	w := s.p.world
	last := s.lastRun
	if !s.ran {
		last = w.firstWindow() // the first run sees everything
	}
	s.frame.ctx = borrowCtx{w: w, by: s.name, inWorkload: true, last: last}
	if s.tctx == nil {
		s.err = s.shape.call(s.fn, s.frame)
	} else {
		s.execTraced()
	}
	s.lastRun, s.ran = s.frame.ctx.end, true
	returned = true
}

func (s *planSystem) execTraced() {
	pprof.Do(s.tctx, pprof.Labels("workload", s.path, "system", s.name), func(c context.Context) {
		start := time.Now()
		trace.WithRegion(c, s.name, func() {
			s.err = s.shape.call(s.fn, s.frame)
		})
		d := time.Since(start)
		s.stats.Runs++
		s.stats.Last = d
		s.stats.Total += d
	})
}

// outcome returns the system's error wrapped for the caller, re-panicking
// if it panicked.
func (s *planSystem) outcome() error {
	if s.panicked != nil {
		panic(s.panicked)
	}
	if s.err != nil {
		return &WorkloadError{Workload: s.path, System: s.name, Err: s.err}
	}
	return nil
}
