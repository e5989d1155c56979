package ecs_test

import (
	"math"
	"runtime"
	"sync/atomic"
	"testing"

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
