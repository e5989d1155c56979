package ecs_test

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/slipway-ecs/slipway/ecs"
)

func TestParEachVisitsEveryEntityOnce(t *testing.T) {
	for _, n := range []int{0, 1, 100, ecs.ParallelMin*2 - 1, ecs.ParallelMin * 2, 50_000} {
		w := ecs.NewWorld()
		pos := make([]wPos, n)
		vel := make([]wVel, n)
		for i := range n {
			pos[i], vel[i] = wPos{X: float64(i)}, wVel{X: 1}
		}
		_, err := ecs.BulkAddEntity2(w, pos, vel)
		noErr(t, err)
		_, err = ecs.BulkAddEntity1(w, make([]wPos, n/3)) // entities the join must skip
		noErr(t, err)
		var calls atomic.Int64
		noErr(t, w.Run(func(p ecs.ViewMut[wPos], v ecs.View[wVel]) {
			p.ParEach(func(x *wPos) { x.Y++ })
			ecs.Join2(p, v).ParEach(func(x *wPos, y *wVel) {
				x.X += y.X
				calls.Add(1)
			})
		}))
		if calls.Load() != int64(n) {
			t.Fatalf("n=%d: join visited %d", n, calls.Load())
		}
		noErr(t, w.Run(func(p ecs.View[wPos], v ecs.View[wVel]) {
			for id, r := range ecs.Join2(p, v).WithID() {
				if r.A.Y != 1 || r.A.X != float64(id.Index())+1 {
					t.Fatalf("n=%d: %v has %+v", n, id, *r.A)
				}
			}
		}))
	}
}

func TestParEachPanicReachesCaller(t *testing.T) {
	w := ecs.NewWorld()
	_, err := ecs.BulkAddEntity1(w, make([]wPos, 100_000))
	noErr(t, err)
	defer func() {
		if r := recover(); r != "bad entity" {
			t.Fatalf("recovered %v", r)
		}
	}()
	_ = w.Run(func(p ecs.ViewMut[wPos]) {
		p.ParEach(func(x *wPos) {
			if x.X == 0 {
				panic("bad entity")
			}
		})
	})
	t.Fatal("no panic")
}

type matrix4 [16]float64

// invert4 inverts m by Gauss-Jordan elimination (the HeavyCompute kernel).
func invert4(m matrix4) matrix4 {
	var a [4][8]float64
	for r := range 4 {
		for c := range 4 {
			a[r][c] = m[r*4+c]
		}
		a[r][4+r] = 1
	}
	for c := range 4 {
		p := c
		for r := c + 1; r < 4; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		a[c], a[p] = a[p], a[c]
		d := a[c][c]
		for k := range 8 {
			a[c][k] /= d
		}
		for r := range 4 {
			if r != c {
				f := a[r][c]
				for k := range 8 {
					a[r][k] -= f * a[c][k]
				}
			}
		}
	}
	var out matrix4
	for r := range 4 {
		for c := range 4 {
			out[r*4+c] = a[r][4+c]
		}
	}
	return out
}

// BenchmarkParEachHeavy inverts a 4x4 matrix 100 times for each of 1,000
// entities (the HeavyCompute workload) and reports the speedup of
// ParEachMin over Each measured in the same run.
func BenchmarkParEachHeavy(b *testing.B) {
	const n = 1_000
	w := ecs.NewWorld()
	ms := make([]matrix4, n)
	for i := range ms {
		ms[i] = matrix4{4, 7, 2, 3, 0, 5, 1, 9, 3, 1, 8, 2, 6, 2, 4, 5}
		ms[i][0] += float64(i % 7)
	}
	_, err := ecs.BulkAddEntity1(w, ms)
	noErr(b, err)
	work := func(m *matrix4) {
		for range 100 {
			*m = invert4(*m)
		}
	}
	var seq float64
	b.Run("each", func(b *testing.B) {
		noErr(b, w.Run(func(v ecs.ViewMut[matrix4]) {
			for b.Loop() {
				ecs.Join1(v).Each(work)
			}
		}))
		seq = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	})
	b.Run("par", func(b *testing.B) {
		noErr(b, w.Run(func(v ecs.ViewMut[matrix4]) {
			for b.Loop() {
				ecs.Join1(v).ParEachMin(16, work)
			}
		}))
		b.ReportMetric(seq/(float64(b.Elapsed().Nanoseconds())/float64(b.N)), "speedup")
		b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "procs")
	})
}

// BenchmarkParEachMove measures the cheapest useful loop, a move (two
// additions per entity), sequential and parallel at several sizes, to
// find where ParEach starts to pay: "range" ranges over Join2.All,
// "each" is Join2.Each, "par" is
// ParEach (grain ParallelMin, so the caller works alone below
// 2×ParallelMin entities) and "min1024" is ParEachMin(1024). It reports
// ns/entity. The guide's parallelism chapter quotes it.
func BenchmarkParEachMove(b *testing.B) {
	move := func(p *wPos, v *wVel) {
		p.X += v.X
		p.Y += v.Y
	}
	forms := []struct {
		name string
		run  func(ecs.Iter2[wPos, wVel])
	}{
		{"range", func(j ecs.Iter2[wPos, wVel]) {
			for p, v := range j.All() {
				p.X += v.X
				p.Y += v.Y
			}
		}},
		{"each", func(j ecs.Iter2[wPos, wVel]) { j.Each(move) }},
		{"par", func(j ecs.Iter2[wPos, wVel]) { j.ParEach(move) }},
		{"min1024", func(j ecs.Iter2[wPos, wVel]) { j.ParEachMin(1024, move) }},
	}
	for _, n := range []int{5_000, 20_000, 100_000, 300_000, 1_000_000} {
		w := ecs.NewWorld()
		vel := make([]wVel, n)
		for i := range vel {
			vel[i] = wVel{X: 1, Y: 1}
		}
		_, err := ecs.BulkAddEntity2(w, make([]wPos, n), vel)
		noErr(b, err)
		for _, f := range forms {
			b.Run(fmt.Sprintf("n=%d/%s", n, f.name), func(b *testing.B) {
				noErr(b, w.Run(func(p ecs.ViewMut[wPos], v ecs.View[wVel]) {
					j := ecs.Join2(p, v)
					for b.Loop() {
						f.run(j)
					}
				}))
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
			})
		}
	}
}

// chunkMeeting lets the chunks of a parallel pass prove that they run at
// once: the first call of arrive waits for a second call, which only
// another chunk, running at the same time on another goroutine, can
// make. A pass that ran its chunks one after the other would wait in
// vain: arrive gives up after 10 s (a limit for failure only: in a
// passing run the second chunk comes at once) and records the miss.
type chunkMeeting struct {
	arrived atomic.Int32
	met     chan struct{}
	missed  atomic.Bool
}

func newChunkMeeting() *chunkMeeting { return &chunkMeeting{met: make(chan struct{})} }

func (r *chunkMeeting) arrive() {
	select {
	case <-r.met:
		return // met already: the rest of the pass goes on at full speed
	default:
	}
	if r.arrived.Add(1) == 2 {
		close(r.met)
	}
	select {
	case <-r.met:
	case <-time.After(10 * time.Second):
		r.missed.Store(true)
	}
}

// check fails the test unless two chunks met.
func (r *chunkMeeting) check(t *testing.T, what string) {
	t.Helper()
	if r.missed.Load() || r.arrived.Load() < 2 {
		t.Errorf("%s: its chunks did not run at once (the first waited 10 s for another, %d arrived)", what, r.arrived.Load())
	}
}

// TestParEachRunsChunksAtOnce: every parallel iteration runs its chunks
// on several goroutines at once, on a world given a pool of two workers:
// each of its first two chunks waits for the other at a chunkMeeting, so a
// pass that ran them one at a time on the caller fails. The bulk calls'
// parallel paths are covered by TestParallelForRunsChunksAtOnce (their
// per-chunk work runs no code of the caller's: a test cannot stop it
// mid-chunk from outside).
func TestParEachRunsChunksAtOnce(t *testing.T) {
	n := 2 * ecs.ParallelMin // two chunks at the default grain
	cases := []struct {
		name string
		run  func(r *chunkMeeting) any // a system
	}{
		{"View.ParEach", func(r *chunkMeeting) any {
			return func(p ecs.View[wPos]) { p.ParEach(func(*wPos) { r.arrive() }) }
		}},
		{"ViewMut.ParEach", func(r *chunkMeeting) any {
			return func(p ecs.ViewMut[wPos]) { p.ParEach(func(x *wPos) { r.arrive(); x.Y++ }) }
		}},
		{"View.ParEachMin", func(r *chunkMeeting) any {
			return func(p ecs.View[wPos]) { p.ParEachMin(16, func(*wPos) { r.arrive() }) }
		}},
		{"ViewMut.ParEachMin", func(r *chunkMeeting) any {
			return func(p ecs.ViewMut[wPos]) { p.ParEachMin(16, func(x *wPos) { r.arrive(); x.Y++ }) }
		}},
		{"Join2.ParEach", func(r *chunkMeeting) any {
			return func(p ecs.ViewMut[wPos], v ecs.View[wVel]) {
				ecs.Join2(p, v).ParEach(func(x *wPos, y *wVel) { r.arrive(); x.X += y.X })
			}
		}},
		{"Join2.ParEachMin", func(r *chunkMeeting) any {
			return func(p ecs.ViewMut[wPos], v ecs.View[wVel]) {
				ecs.Join2(p, v).ParEachMin(16, func(x *wPos, y *wVel) { r.arrive(); x.X += y.X })
			}
		}},
	}
	pool := ecs.NewPool(2)
	defer pool.Close()
	w := ecs.NewWorld()
	w.SetPool(pool)
	_, err := ecs.BulkAddEntity2(w, make([]wPos, n), make([]wVel, n))
	noErr(t, err)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newChunkMeeting()
			noErr(t, w.Run(c.run(r)))
			r.check(t, c.name)
		})
	}
}

func TestParEachNilAndGoexit(t *testing.T) {
	w := ecs.NewWorld()
	qs := make([]leakQ, 3*ecs.ParallelMin)
	for i := range qs {
		qs[i].V = i
	}
	if _, err := ecs.BulkAddEntity1(w, qs); err != nil {
		t.Fatal(err)
	}
	var v ecs.ViewMut[leakQ]
	release, err := w.Borrow(&v)
	if err != nil {
		t.Fatal(err)
	}
	r := mustPanic(t, func() { v.ParEach(nil) })
	if got := panicText(r); got != "ecs: ViewMut.ParEach: fn is nil" {
		t.Errorf("ParEach(nil) panicked with %q", got)
	}
	r = mustPanic(t, func() { ecs.Join1(v).ParEach(nil) })
	if got := panicText(r); got != "ecs: Iter1.ParEach: fn is nil" {
		t.Errorf("Join1.ParEach(nil) panicked with %q", got)
	}
	release()

	if runtime.GOOS == "js" {
		return
	}
	newTestPool(t, w)
	// The function ends the goroutine of whoever gets the last component:
	// a worker (then ParEach panics with ErrGoexit on the caller) or the
	// caller (then its goroutine ends after the workers are done).
	var rv ecs.View[leakQ]
	release, err = w.Borrow(&rv)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	outcome := make(chan string, 1)
	go func() {
		ended := true
		defer func() {
			if r := recover(); r != nil {
				if err, ok := r.(error); ok && errors.Is(err, ecs.ErrGoexit) {
					outcome <- "panic"
					return
				}
				outcome <- "other panic"
				return
			}
			if ended {
				outcome <- "goexit"
			}
		}()
		rv.ParEachMin(64, func(q *leakQ) {
			if q.V == len(qs)-1 {
				runtime.Goexit()
			}
		})
		ended = false
		outcome <- "returned"
	}()
	select {
	case o := <-outcome:
		if o != "panic" && o != "goexit" {
			t.Errorf("ParEach with runtime.Goexit in fn: %s", o)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ParEach hung after runtime.Goexit in fn")
	}
	n := 0
	rv.ParEach(func(*leakQ) {}) // the pool still works
	for range rv.All() {
		n++
	}
	if n != len(qs) {
		t.Errorf("%d components, want %d", n, len(qs))
	}
}
