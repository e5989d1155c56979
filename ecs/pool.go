package ecs

import (
	"context"
	"errors"
	"runtime"
	"runtime/pprof"
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
