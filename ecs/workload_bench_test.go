package ecs_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

type bC0 struct{ V float64 }
type bC1 struct{ V float64 }
type bC2 struct{ V float64 }
type bC3 struct{ V float64 }
type bC4 struct{ V float64 }

// trivialSystems returns 20 systems that do nothing but borrow a view:
// either all independent (one batch), or all writing the same storage (a
// chain of 20 batches). Typed, they are made with Func1, which calls them
// without reflect; otherwise they are plain functions, which the world
// calls through reflect.Value.Call.
func trivialSystems(chained, typed bool) []any {
	independent := []any{
		func(ecs.View[bC0]) {}, func(ecs.View[bC1]) {}, func(ecs.View[bC2]) {}, func(ecs.View[bC3]) {}, func(ecs.View[bC4]) {},
	}
	if typed {
		independent = []any{
			ecs.Func1(func(ecs.View[bC0]) {}), ecs.Func1(func(ecs.View[bC1]) {}), ecs.Func1(func(ecs.View[bC2]) {}),
			ecs.Func1(func(ecs.View[bC3]) {}), ecs.Func1(func(ecs.View[bC4]) {}),
		}
	}
	var out []any
	for i := range 20 {
		var fn any = func(ecs.ViewMut[bC0]) {}
		if typed {
			fn = ecs.Func1(func(ecs.ViewMut[bC0]) {})
		}
		if !chained {
			fn = independent[i%5]
		}
		out = append(out, ecs.System(fn).Named(fmt.Sprint("s", i)))
	}
	return out
}

// BenchmarkWorkloadDispatch measures the scheduler's cost per system: a
// workload of 20 systems that do nothing, plain functions or, with the
// suffix -typed, made with Func1.
func BenchmarkWorkloadDispatch(b *testing.B) {
	for _, typed := range []bool{false, true} {
		for _, c := range []struct {
			chained bool
			procs   int
		}{{false, 1}, {false, 2}, {true, 1}, {true, 2}} {
			chained := c.chained
			name := "independent"
			if chained {
				name = "chained"
			}
			if typed {
				name += "-typed"
			}
			b.Run(fmt.Sprintf("%s/procs=%d", name, c.procs), func(b *testing.B) {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(c.procs))
				w := ecs.NewWorld()
				noErr(b, w.AddWorkload("w", trivialSystems(chained, typed)...))
				noErr(b, w.RunWorkload("w"))
				b.ReportAllocs()
				for b.Loop() {
					if err := w.RunWorkload("w"); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/20, "ns/system")
			})
		}
	}
}

// bBundle is a custom view made of views only: a system taking it is
// called through reflect.Value.Call, or without reflect made with Func1.
type bBundle struct {
	A ecs.ViewMut[bC0]
	B ecs.View[bC1]
}

// bBundleN is bBundle with a field that is not a view, which the run
// fills too.
type bBundleN struct {
	A ecs.ViewMut[bC0]
	B ecs.View[bC1]
	N int
}

// BenchmarkRunSystem measures World.Run of a system that does nothing
// with its two views: taken as two parameters, as one custom view made of
// views, and as a custom view with another field, each called through
// reflect.Value.Call, and the first two also as typed systems (Func2,
// Func1), called directly. In the group case, the ViewMut's type is in a
// group with a third type, which the run also borrows.
func BenchmarkRunSystem(b *testing.B) {
	for _, c := range []struct {
		name  string
		sys   any
		group bool
	}{
		{"views", func(ecs.ViewMut[bC0], ecs.View[bC1]) {}, false},
		{"views-group", func(ecs.ViewMut[bC0], ecs.View[bC1]) {}, true},
		{"views-typed", ecs.Func2(func(ecs.ViewMut[bC0], ecs.View[bC1]) {}), false},
		{"custom-view", func(bBundle) {}, false},
		{"custom-view-typed", ecs.Func1(func(bBundle) {}), false},
		{"custom-view-reflect", func(bBundleN) {}, false},
		{"custom-view-reflect-error", func(bBundleN) error { return nil }, false},
	} {
		b.Run(c.name, func(b *testing.B) {
			w := ecs.NewWorld()
			if c.group {
				noErr(b, ecs.AddGroup2[bC0, bC2](w))
			}
			noErr(b, w.Run(c.sys))
			b.ReportAllocs()
			for b.Loop() {
				if err := w.Run(c.sys); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// spin is CPU-bound work that the compiler cannot remove.
func spin(n int, seed float64) float64 {
	x := seed
	for i := 0; i < n; i++ {
		x = x*1.0000001 + 0.5/(x+1)
	}
	return x
}

var spinSink [2]float64

// BenchmarkWorkloadParallel runs two independent CPU-bound systems as one
// workload, and the same two systems one after the other; it reports the
// workload's speedup. Run it with -cpu 1,2: with GOMAXPROCS=1 the workload
// must cost no more than calling the systems directly.
func BenchmarkWorkloadParallel(b *testing.B) {
	const work = 2_000_000
	left := func(ecs.ViewMut[bC0]) { spinSink[0] = spin(work, 1) }
	right := func(ecs.ViewMut[bC1]) { spinSink[1] = spin(work, 2) }

	w := ecs.NewWorld()
	noErr(b, w.AddWorkload("w", ecs.System(left).Named("left"), ecs.System(right).Named("right")))

	for _, procs := range []int{1, 2} {
		var seq float64
		b.Run(fmt.Sprintf("procs=%d/direct", procs), func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			for b.Loop() {
				noErr(b, w.Run(left))
				noErr(b, w.Run(right))
			}
			seq = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
		})
		b.Run(fmt.Sprintf("procs=%d/workload", procs), func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			for b.Loop() {
				noErr(b, w.RunWorkload("w"))
			}
			if seq > 0 {
				b.ReportMetric(seq/(float64(b.Elapsed().Nanoseconds())/float64(b.N)), "speedup")
			}
		})
	}
}
