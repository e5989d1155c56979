package bench

import (
	"reflect"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// RunOverhead: the fixed cost of running a system, which decides small
// worlds. The world holds one entity with Position and Velocity; the
// system borrows a ViewMut[Position] and a View[Velocity] and does
// nothing else. slipway runs it with World.Run (called through
// reflect.Value.Call), slipway-typed as an ecs.Func2 (called directly),
// slipway-workload as the one system of a workload run with RunWorkload,
// slipway-workload-typed the same with the system made by ecs.Func2.
// reflect-call calls the function with reflect.Value.Call and borrows
// nothing: what a plain function's run costs before any view, since
// Slipway calls such systems that way (DESIGN.md §5).
// ns/entity is per run (N = 1).

func emptyMove(ecs.ViewMut[Position], ecs.View[Velocity]) {}

func BenchmarkRunOverhead(b *testing.B) {
	world := func(b *testing.B) *ecs.World {
		w := ecs.NewWorld()
		_, err := ecs.AddEntity2(w, Position{}, Velocity{})
		check(b, err)
		return w
	}
	typed := ecs.Func2(emptyMove)
	runImplsAt(b, []int{1},
		impl{"reflect-call", func(b *testing.B, n int) {
			fn := reflect.ValueOf(emptyMove)
			args := []reflect.Value{reflect.ValueOf(ecs.ViewMut[Position]{}), reflect.ValueOf(ecs.View[Velocity]{})}
			measure(b, n, func() { fn.Call(args) })
		}},
		impl{"slipway", func(b *testing.B, n int) {
			w := world(b)
			measure(b, n, func() { check(b, w.Run(emptyMove)) })
		}},
		impl{"slipway-typed", func(b *testing.B, n int) {
			w := world(b)
			measure(b, n, func() { check(b, w.Run(typed)) })
		}},
		impl{"slipway-workload", func(b *testing.B, n int) {
			w := world(b)
			check(b, w.AddWorkload("frame", emptyMove))
			measure(b, n, func() { check(b, w.RunWorkload("frame")) })
		}},
		impl{"slipway-workload-typed", func(b *testing.B, n int) {
			w := world(b)
			check(b, w.AddWorkload("frame", typed))
			measure(b, n, func() { check(b, w.RunWorkload("frame")) })
		}},
	)
}

// TestRunOverheadRunsTheSystem checks that each form of RunOverhead runs
// the system once per call.
func TestRunOverheadRunsTheSystem(t *testing.T) {
	w := ecs.NewWorld()
	_, err := ecs.AddEntity2(w, Position{}, Velocity{1, 0})
	check(t, err)
	runs := 0
	sys := func(pos ecs.ViewMut[Position], vel ecs.View[Velocity]) {
		runs++
		for p, v := range ecs.Join2(pos, vel).All() {
			p.X += v.X
		}
	}
	check(t, w.Run(sys))
	check(t, w.Run(ecs.Func2(sys)))
	check(t, w.AddWorkload("frame", sys))
	check(t, w.RunWorkload("frame"))
	check(t, w.AddWorkload("typed", ecs.Func2(sys)))
	check(t, w.RunWorkload("typed"))
	equal(t, "runs", runs, 4)
	p, err := ecs.Get[Position](w, ecs.EntityID(0))
	check(t, err)
	equal(t, "Position.X", p.X, 4.0)
}
