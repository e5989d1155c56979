package ecs

import (
	"sync"
	"sync/atomic"
)

// ParallelMin is the default grain of parallel iteration: ParEach hands out
// chunks of at least this many entities, and runs on the caller alone when
// there are fewer than two chunks' worth, since splitting cheap work costs
// more than it saves. For expensive work per entity, choose a smaller grain
// with ParEachMin.
const ParallelMin = 4096

// parJob splits the range [0, n) into chunks that the caller and the woken
// workers claim with an atomic counter.
type parJob struct {
	n, chunk int
	next     atomic.Int64
	body     func(start, end int)
	crew     crew
	panicked atomic.Pointer[parPanic]
}

type parPanic struct{ value any }

var parJobs = sync.Pool{New: func() any { return new(parJob) }}

func (j *parJob) help() {
	defer j.crew.done() // also if body ends the goroutine (runtime.Goexit)
	j.claimAll()
}

func (j *parJob) claimAll() {
	returned := false
	defer func() {
		if r := recover(); r != nil {
			j.panicked.CompareAndSwap(nil, &parPanic{value: r})
			j.next.Store(int64(j.n)) // stop handing out chunks
		} else if !returned {
			// body called runtime.Goexit: this goroutine ends; the
			// caller panics with ErrGoexit once the others are done.
			j.panicked.CompareAndSwap(nil, &parPanic{value: ErrGoexit})
			j.next.Store(int64(j.n))
		}
	}()
	for {
		start := int(j.next.Add(int64(j.chunk))) - j.chunk
		if start >= j.n {
			returned = true
			return
		}
		j.body(start, min(start+j.chunk, j.n))
	}
}

// parallelFor calls body on chunks of [0, n) in parallel on the shared
// pool (see Pool) and the calling goroutine, and returns when all are
// done. A panic in body is re-raised on the caller once every chunk in
// flight has finished.
func parallelFor(n, grain int, body func(start, end int)) {
	sharedPool().parallelFor(n, grain, body)
}

// parallelFor is parallelFor on pool p.
func (p *Pool) parallelFor(n, grain int, body func(start, end int)) {
	grain = max(grain, 1)
	nworkers := p.Workers()
	if n < 2*grain || nworkers <= 0 {
		body(0, n)
		return
	}
	procs := nworkers + 1 // the caller works too
	chunk := max(grain, n/(procs*8))
	chunks := (n + chunk - 1) / chunk
	j := parJobs.Get().(*parJob)
	j.n, j.chunk, j.body = n, chunk, body
	j.next.Store(0)
	j.panicked.Store(nil)
	j.crew.pool = p
	helpers := max(0, min(chunks-1, nworkers))
	j.crew.hire(j, helpers)
	waited := false
	defer func() {
		if !waited {
			// body ended this goroutine (runtime.Goexit): the helpers
			// still use it and its data, so wait for them first.
			j.crew.wait(j)
		}
	}()
	j.claimAll()
	j.crew.wait(j)
	waited = true
	pp := j.panicked.Load()
	j.body, j.crew.pool = nil, nil
	parJobs.Put(j)
	if pp != nil {
		panic(pp.value)
	}
}

// ParEach calls fn with every component, splitting the storage across the
// world's worker pool (see [World.Pool]; the guide's par_iter: inner
// parallelism). fn runs on several
// goroutines at once, each with different components; it must not touch
// shared state without synchronisation. Storages smaller than
// 2×[ParallelMin] are iterated on the caller. Worth it only when fn does
// real work per entity. Panics if fn is nil.
func (v ViewMut[T]) ParEach(fn func(*T)) { v.ParEachMin(ParallelMin, fn) }

// ParEachMin is [ViewMut.ParEach] with chunks of at least grain components
// (and no parallelism below 2×grain): use a small grain when fn is
// expensive.
func (v ViewMut[T]) ParEachMin(grain int, fn func(*T)) {
	if fn == nil {
		panic(errNilFunc("ViewMut.ParEach"))
	}
	s := v.store()
	if s.track != nil {
		s.track.markAll() // every component is handed out for writing
	}
	data := s.data
	v.c.w.Pool().parallelFor(len(data), grain, func(start, end int) {
		for i := start; i < end; i++ {
			fn(&data[i])
		}
	})
}

// ParEach calls fn with every component, in parallel: see [ViewMut.ParEach].
// The pointers are for reading. Panics if fn is nil.
func (v View[T]) ParEach(fn func(*T)) { v.ParEachMin(ParallelMin, fn) }

// ParEachMin is [View.ParEach] with chunks of at least grain components.
func (v View[T]) ParEachMin(grain int, fn func(*T)) {
	if fn == nil {
		panic(errNilFunc("View.ParEach"))
	}
	data := v.store().data
	v.c.w.Pool().parallelFor(len(data), grain, func(start, end int) {
		for i := start; i < end; i++ {
			fn(&data[i])
		}
	})
}
