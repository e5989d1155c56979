package ecs

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"runtime/trace"
	"sync"
	"time"
)

// The worker pool runs workload systems. It is shared by all worlds: a
// fixed set of goroutines, started on first use and grown to GOMAXPROCS,
// that wait on one channel of tasks. Running a system sends a pointer on
// the channel; no goroutine is started per system or per run.
var workers struct {
	mu    sync.Mutex
	n     int
	tasks chan *planSystem
}

func ensureWorkers() {
	want := runtime.GOMAXPROCS(0)
	workers.mu.Lock()
	defer workers.mu.Unlock()
	if workers.tasks == nil {
		workers.tasks = make(chan *planSystem, 1024)
	}
	for ; workers.n < want; workers.n++ {
		go func() {
			for s := range workers.tasks {
				s.exec()
				s.p.wg.Done()
			}
		}()
	}
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
// declared order.
func (w *World) SystemStats() []SystemStats {
	var out []SystemStats
	for _, name := range w.Workloads() {
		w.workMu.Lock()
		p := w.workloads[name]
		w.workMu.Unlock()
		if p == nil || !p.running.TryLock() {
			continue
		}
		for _, s := range p.systems {
			out = append(out, s.stats)
		}
		p.running.Unlock()
	}
	return out
}

func (p *plan) run(w *World) error {
	if !p.running.TryLock() {
		return fmt.Errorf("ecs: workload %s: %w", p.name, ErrWorkloadRunning)
	}
	defer p.running.Unlock()
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
	ensureWorkers()
	for _, batch := range p.batches {
		if err := p.runBatch(batch, tctx); err != nil {
			return err
		}
	}
	return nil
}

// runSequential runs every system on the caller, in declared order
// (adjusted only where explicit constraints demand it).
func (p *plan) runSequential(tctx context.Context) error {
	for _, i := range p.seq {
		s := p.systems[i]
		ok, err := p.shouldRun(s)
		if err != nil {
			return &WorkloadError{Workload: s.path, System: s.name, Err: err}
		}
		if !ok {
			continue
		}
		s.run(tctx)
		if err := s.outcome(); err != nil {
			return err
		}
	}
	return nil
}

func (p *plan) runBatch(batch []int, tctx context.Context) error {
	// Conditions first, on the caller, while nothing runs.
	var local *planSystem // a system the caller will run itself
	for _, i := range batch {
		s := p.systems[i]
		ok, err := p.shouldRun(s)
		if err != nil {
			return &WorkloadError{Workload: s.path, System: s.name, Err: err}
		}
		s.err, s.panicked = nil, nil
		if !ok {
			s.err = errSkipped
			continue
		}
		s.tctx = tctx
		if s.onCaller {
			continue
		}
		if local == nil {
			local = s
			continue
		}
		p.wg.Add(1)
		workers.tasks <- s
	}
	// The caller runs its share: goroutine-bound systems, one more, then
	// helps with whatever is still queued.
	for _, i := range batch {
		if s := p.systems[i]; s.onCaller && s.err != errSkipped {
			s.exec()
		}
	}
	if local != nil {
		local.exec()
	}
	for {
		select {
		case s := <-workers.tasks:
			s.exec()
			s.p.wg.Done()
			continue
		default:
		}
		break
	}
	p.wg.Wait()
	// Panics first, then errors, in declared order.
	for _, i := range batch {
		if s := p.systems[i]; s.panicked != nil {
			panic(s.panicked)
		}
	}
	for _, i := range batch {
		s := p.systems[i]
		if s.err == errSkipped {
			s.err = nil
			continue
		}
		if err := s.outcome(); err != nil {
			return err
		}
	}
	return nil
}

var errSkipped = fmt.Errorf("skipped")

// shouldRun evaluates the run conditions of s and of its workloads.
func (p *plan) shouldRun(s *planSystem) (bool, error) {
	for _, wi := range s.wconds {
		c := p.wconds[wi]
		if !c.done {
			c.value, c.err = c.eval(p.world)
			c.done = true
		}
		if c.err != nil || !c.value {
			return false, c.err
		}
	}
	for _, c := range s.conds {
		v, err := c.eval(p.world)
		if err != nil || !v {
			return false, err
		}
	}
	return true, nil
}

// eval evaluates the condition, applying SkipIf's negation.
func (c *planCond) eval(w *World) (bool, error) {
	var v bool
	if c.plain != nil {
		v = c.plain()
	} else {
		ctx := borrowCtx{w: w, by: c.owner + " (run condition)"}
		switch err := c.shape.call(c.fn, c.frame, &ctx); err {
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

// run executes s on the current goroutine (for the sequential path).
func (s *planSystem) run(tctx context.Context) {
	s.err, s.panicked = nil, nil
	s.tctx = tctx
	s.exec()
}

// exec runs the system once, recording its error or panic.
func (s *planSystem) exec() {
	defer func() {
		if r := recover(); r != nil {
			s.panicked = &SystemPanic{Workload: s.path, System: s.name, Value: r, Stack: debug.Stack()}
		}
	}()
	w := s.p.world
	now := w.tick.Add(1)
	ctx := borrowCtx{w: w, by: s.name, last: s.lastRun, now: now}
	if s.tctx == nil {
		s.err = s.shape.call(s.fn, s.frame, &ctx)
	} else {
		s.execTraced(&ctx)
	}
	s.lastRun = now
}

func (s *planSystem) execTraced(ctx *borrowCtx) {
	pprof.Do(s.tctx, pprof.Labels("workload", s.path, "system", s.name), func(c context.Context) {
		start := time.Now()
		trace.WithRegion(c, s.name, func() {
			s.err = s.shape.call(s.fn, s.frame, ctx)
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
