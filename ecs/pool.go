package ecs

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"runtime/trace"
	"sync"
	"sync/atomic"
	"time"
)

// The worker pool runs workload systems and parallel iterations. It is
// shared by all worlds: a fixed set of goroutines, started on first use and
// grown to GOMAXPROCS. To run a job (a workload run, a parallel
// iteration), the caller puts it on the queue once per helper it wants
// (about as many as there are workers), and the caller and the helpers
// then take the job's parts (systems, chunks of a range) until none is
// left. No goroutine is started per system or per run.
//
// Waking a parked goroutine on another core can take far longer than a
// small job: on the 2-core virtual machines Slipway is measured on, a
// worker blocked on a channel starts about 100 µs after the send, by when
// the caller has often claimed every part itself. So a worker that has
// finished a job stays awake for spinFor, polling the queue and yielding
// its core between polls, and a caller only wakes parked workers for the
// helpers the awake ones do not cover; and the caller waits for its
// helpers by polling too, before it blocks (crew.wait), so a worker does
// not have to wake a parked caller. Jobs that follow each other closely,
// as a workload's systems and a simulation's steps do, find the workers
// awake. The cost is at most spinFor of polling after each job, on a core
// nothing else wanted: a poll yields to any goroutine ready to run.
var workers struct {
	mu sync.Mutex
	n  int
	// queue holds the jobs; workers only poll it. wake holds a token per
	// parked worker to wake. spinning counts the workers polling queue.
	queue    chan helper
	wake     chan struct{}
	spinning atomic.Int32
}

// spinFor is how long a worker, or a caller waiting for its helpers, polls
// before it blocks.
const spinFor = 100 * time.Microsecond

// spin polls done, yielding the core between polls, for up to spinFor, and
// reports whether done became true.
func spin(done func() bool) bool {
	for start := time.Now(); time.Since(start) < spinFor; runtime.Gosched() {
		if done() {
			return true
		}
	}
	return false
}

// helper is a job workers can help with: a workload run, or a parallel
// iteration. help claims and runs parts of the job until none is left,
// then tells the job's crew it is done.
type helper interface {
	help()
}

func ensureWorkers() int {
	want := runtime.GOMAXPROCS(0)
	workers.mu.Lock()
	defer workers.mu.Unlock()
	if workers.queue == nil {
		workers.queue = make(chan helper, 1024)
		workers.wake = make(chan struct{}, 1024)
	}
	for ; workers.n < want; workers.n++ {
		go work()
	}
	return workers.n
}

// work is a worker's loop: wait to be woken, then poll the queue until no
// job has come for spinFor.
func work() {
	for range workers.wake {
		for poll() {
		}
	}
}

// poll takes jobs from the queue until none has come for spinFor, counted
// in workers.spinning meanwhile (but not while it runs a job: a caller then
// wakes another worker). It reports whether it found a job in a last look
// after it stopped being counted: a caller that counted on it just before
// may have queued one, and woken no one for it.
func poll() bool {
	workers.spinning.Add(1)
	for last := time.Now(); time.Since(last) < spinFor; {
		select {
		case h := <-workers.queue:
			workers.spinning.Add(-1)
			h.help()
			workers.spinning.Add(1)
			last = time.Now()
		default:
			runtime.Gosched()
		}
	}
	workers.spinning.Add(-1)
	select {
	case h := <-workers.queue:
		h.help()
		return true
	default:
		return false
	}
}

// crew is the part of a job that tracks its helpers: the woken workers
// that have not finished yet.
type crew struct {
	left atomic.Int32
	wg   sync.WaitGroup
}

// hire queues job h for n helpers, waking parked workers for those the
// polling ones do not cover. The caller then works on h itself and calls
// wait.
func (c *crew) hire(h helper, n int) {
	if n == 0 {
		return
	}
	c.left.Add(int32(n))
	c.wg.Add(n)
	for range n {
		select {
		case workers.queue <- h:
		default: // the queue is full: the caller does that share itself
			c.done()
		}
	}
	for range n - int(workers.spinning.Load()) {
		select {
		case workers.wake <- struct{}{}:
		default: // every worker has a token already
		}
	}
}

// done is called by each helper when it has finished.
func (c *crew) done() {
	c.left.Add(-1)
	c.wg.Done()
}

// wait returns when every helper has finished. It first takes back the
// queued jobs no worker picked up yet (helping with other jobs if it finds
// those: that also keeps a system that runs a workload itself from waiting
// on busy workers forever), then polls for the rest for up to spinFor,
// then blocks.
func (c *crew) wait() {
	for done := false; !done; {
		select {
		case h := <-workers.queue:
			h.help()
		default:
			done = true
		}
	}
	spin(func() bool { return c.left.Load() == 0 })
	c.wg.Wait()
}

// SetTracing turns tracing and profiling of workload runs on or off. When
// on, each workload run is a runtime/trace task and each system a region in
// it (see `go tool trace`); each system runs with runtime/pprof labels
// "workload" and "system", so a CPU profile splits by system; and each
// system's timing is collected ([World.SystemStats]). When off (the
// default), none of this costs anything.
func (w *World) SetTracing(on bool) { w.tracing.Store(on) }

// SystemStats returns the timing statistics of every system of every
// workload, collected while tracing was on, sorted by workload then
// declared order. A workload running at the time is left out.
func (w *World) SystemStats() []SystemStats {
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
	var tctx context.Context
	if w.tracing.Load() {
		var task *trace.Task
		tctx, task = trace.NewTask(context.Background(), "workload "+p.name)
		defer task.End()
	}
	if runtime.GOMAXPROCS(0) == 1 {
		return p.runSequential(tctx)
	}
	return p.runParallel(tctx, ensureWorkers())
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
	p.mu.Unlock()
	p.hireFor(len(p.ready) - 1)
	for p.left.Load() > 0 {
		if !p.runGated() && !p.runReady() {
			p.await()
		}
	}
	p.crew.wait()
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
	for p.runReady() {
	}
	p.crew.done()
}

// runReady runs the first system of the ready list, and reports whether
// there was one.
func (p *plan) runReady() bool {
	s, _ := p.pop(&p.ready, &p.head)
	if s == nil {
		return false
	}
	if !p.stopped.Load() {
		p.exec(s)
	}
	p.finish(s)
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
	switch {
	case run && !s.onCaller && more:
		// Other gated systems wait for the caller: let a worker run it.
		p.mu.Lock()
		p.ready = append(p.ready, s)
		p.mu.Unlock()
		p.hireFor(1)
		return true
	case run:
		p.exec(s)
	}
	p.finish(s)
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
// when s was the last.
func (p *plan) finish(s *planSystem) {
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
	p.mu.Unlock()
	p.hireFor(ready - 1)
	if p.left.Add(-1) == 0 || gated > 0 || ready > 1 {
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
// either list, or the run's end. It polls for spinFor, then blocks until
// a finishing system signals.
func (p *plan) await() {
	if !spin(p.callerHasWork) {
		<-p.signal
	}
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
			c.value, c.err = c.eval(p.world, nil)
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

// eval evaluates the condition, applying SkipIf's negation. The views of
// a condition of system s see s's tracking window (what changed since s
// last ran); those of a workload's condition (s nil) see the window of
// views outside workloads.
func (c *planCond) eval(w *World, s *planSystem) (bool, error) {
	var v bool
	if c.plain != nil {
		v = c.plain()
	} else {
		c.frame.ctx = borrowCtx{w: w, by: c.name}
		if s != nil {
			c.frame.ctx.inWorkload, c.frame.ctx.last = true, s.lastRun
			if !s.ran {
				c.frame.ctx.last = w.tick.Load() - ancient
			}
		}
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

// exec runs the system once, recording its error or panic.
func (s *planSystem) exec() {
	defer func() {
		if r := recover(); r != nil {
			s.panicked = &SystemPanic{Workload: s.path, System: s.name, Value: r, Stack: debug.Stack()}
		}
	}()
	w := s.p.world
	now := w.nextTick()
	last := s.lastRun
	if !s.ran {
		last = now - ancient // the first run sees everything
	}
	s.frame.ctx = borrowCtx{w: w, by: s.name, inWorkload: true, last: last, now: now}
	if s.tctx == nil {
		s.err = s.shape.call(s.fn, s.frame)
	} else {
		s.execTraced()
	}
	s.lastRun, s.ran = now, true
}

func (s *planSystem) execTraced() {
	pprof.Do(s.tctx, pprof.Labels("workload", s.path, "system", s.name), func(c context.Context) {
		start := time.Now()
		trace.WithRegion(c, s.name, func() {
			s.err = s.shape.call(s.fn, s.frame)
		})
		d := time.Since(start)
		s.stats.Workload, s.stats.System = s.path, s.name
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
