package ecs

// Running a plan: in sequence, or on the world's Pool, each system once
// those it follows have finished; run conditions, tracking windows,
// tracing and the systems' statistics. The plan itself is scheduler.go's,
// the workers pool.go's.

import (
	"context"
	"fmt"
	"runtime/debug"
	"runtime/pprof"
	"runtime/trace"
	"time"
)

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
// running at the time is listed with the runs of its systems that have
// ended.
func (w *World) SystemStats() []SystemStats {
	w.mustWorld("SystemStats")
	var out []SystemStats
	for _, name := range w.Workloads() {
		w.workMu.Lock()
		p := w.workloads[name]
		w.workMu.Unlock()
		if p == nil {
			continue
		}
		for _, s := range p.systems {
			out = append(out, s.stats.get())
		}
	}
	return out
}

// WorkloadStats returns the timing statistics of the systems of the
// workload name, collected while tracing was on, indexed as the systems
// of its [Plan] are (nested workloads flattened in declared order). With
// its plan, it is what a timeline of the workload's last run needs: see
// [SystemStats] LastRun, LastStart and LastWorker.
func (w *World) WorkloadStats(name string) ([]SystemStats, error) {
	if w == nil {
		return nil, errNilWorld
	}
	w.workMu.Lock()
	p, ok := w.workloads[name]
	w.workMu.Unlock()
	if !ok {
		return nil, unknownWorkload(name)
	}
	out := make([]SystemStats, len(p.systems))
	for i, s := range p.systems {
		out[i] = s.stats.get()
	}
	return out, nil
}

// run runs the plan once. The caller holds p.running, or p is a guest
// that no other run has (World.takePlan).
func (p *plan) run(w *World) (err error) {
	p.world = w
	finished := false
	defer func() {
		if !finished { // a system panicked
			p.dropCommands()
		}
	}()
	for _, c := range p.wconds {
		c.done = false
	}
	defer p.closeWindows() // also if a system panics
	var tctx context.Context
	p.timeline.run = 0
	if w.tracing.Load() {
		var task *trace.Task
		tctx, task = trace.NewTask(context.Background(), "workload "+p.name)
		defer task.End()
		p.timeline.run, p.timeline.start = w.tracedRuns.Add(1), time.Now()
	}
	pool := w.Pool()
	n := pool.Workers()
	if n <= 0 || p.oneAtATime() {
		err = p.runSequential(tctx)
	} else {
		p.crew.pool = pool
		err = p.runParallel(tctx, n)
	}
	finished = true
	// The commands not applied yet, those of the systems that ran and
	// did not fail (the others' are abandoned).
	if aerr := p.applyUpTo(len(p.systems)); err == nil {
		err = aerr
	}
	// The events of the run (a sync point: observers.go), unless it
	// failed; they then wait for the next sync point.
	if err == nil {
		w.initPending()
		err = w.runObservers()
	}
	return err
}

// oneAtATime reports whether the plan's systems can only run one after
// the other, in seq's order (every batch holds one system): the caller
// then runs them itself, without waking workers, as it would on a pool
// with none.
func (p *plan) oneAtATime() bool {
	for _, b := range p.batches {
		if len(b) > 1 {
			return false
		}
	}
	return true
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
		s.tctx, s.worker = tctx, 0
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
		if !p.runGated() && !p.runReady(0) {
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
	worker := p.timeline.join()
	defer p.timeline.leave(worker)
	for p.runReady(worker) {
	}
}

// runReady runs the first system of the ready list, and reports whether
// there was one. worker numbers the goroutine calling it in the run (see
// timeline): 0 is the caller's (see finish).
func (p *plan) runReady(worker int) bool {
	s, _ := p.pop(&p.ready, &p.head)
	if s == nil {
		return false
	}
	returned := false
	defer func() { p.finish(s, worker == 0, !returned) }() // also if s ends the goroutine (runtime.Goexit)
	if !p.stopped.Load() {
		s.worker = worker
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
		s.worker = 0
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
	last, ran := s.win.start()
	if !ran {
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
	last, ran := c.win.start()
	if !ran {
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
			if last, ran := p.systems[si].win.start(); ran && newer(last, end) {
				end = last
			}
		}
		for _, ci := range l.conds {
			p.wconds[ci].win.advance(end)
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
		s.settleCommands()
	}()
	w := s.p.world
	if s.applies {
		// Applying commands is timed as a system is, so that a timeline
		// of the run shows what it costs.
		var start time.Time
		if s.tctx != nil {
			start = time.Now()
		}
		s.err = s.p.applyUpTo(s.idx)
		if s.err == nil {
			w.initPending()
			s.err = w.runObservers()
		}
		if s.tctx != nil {
			s.timed(start)
		}
		returned = true
		return
	}
	last, ran := s.win.start()
	if !ran {
		last = w.firstWindow() // the first run sees everything
	}
	s.frame.ctx = borrowCtx{w: w, by: s.name, inWorkload: true, last: last, cmds: &s.frame.cmds}
	if s.tctx == nil {
		s.err = s.shape.call(s.fn, s.frame)
	} else {
		s.execTraced()
	}
	s.win.advance(s.frame.ctx.end)
	returned = true
}

func (s *planSystem) execTraced() {
	pprof.Do(s.tctx, pprof.Labels("workload", s.path, "system", s.name), func(c context.Context) {
		start := time.Now()
		trace.WithRegion(c, s.name, func() {
			s.err = s.shape.call(s.fn, s.frame)
		})
		s.timed(start)
	})
}

// timed records in s's statistics a run of s that began at start and
// has just ended, on the goroutine s.worker of the run.
func (s *planSystem) timed(start time.Time) {
	s.stats.add(&s.p.timeline, start, time.Since(start), s.worker)
}

// settleCommands turns the commands of a system that failed into the
// deletion of the entities it reserved (cmdBuffer.abandon), applied with
// the others.
func (s *planSystem) settleCommands() {
	if s.err != nil || s.panicked != nil {
		s.frame.cmds.abandon()
	}
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
