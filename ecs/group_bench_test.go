//go:build unix

package ecs_test

// Benchmarks of packed owning groups (issue 5), beside the same work without
// a group and a plain-Go loop, in the same run:
//
//	go test ./ecs -run '^$' -bench 'Group' -benchmem -count 6
//
// The helpers (cbStart, cbData, cbJoinWorld...) are bench_test.go's.

import (
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// BenchmarkGroupJoin2 is BenchmarkJoin2's workload (N entities with Pos
// and Vel, 10N with Pos only; add Vel to Pos where both exist) with a
// group owning Pos and Vel: the join runs over aligned slices.
func BenchmarkGroupJoin2(b *testing.B) {
	n := cbMillion
	b.Run(cbName("plain", n), func(b *testing.B) {
		ps, vs := cbData(n)
		clk := cbStart(b)
		for b.Loop() {
			cbJoinPlain(ps, vs)
		}
		clk.report(n)
	})
	for _, impl := range []struct {
		name    string
		grouped bool
		fn      func(ecs.ViewMut[cbPos], ecs.View[cbVel])
	}{
		{"slipway", false, cbJoinAll},
		{"slipway-group-all", true, cbJoinAll},
		{"slipway-group", true, gbJoinPacked},
	} {
		b.Run(cbName(impl.name, n), func(b *testing.B) {
			w := cbJoinWorld(b, n, "interleaved")
			if impl.grouped {
				cbCheck(b, ecs.AddGroup2[cbPos, cbVel](w))
			}
			var pos ecs.ViewMut[cbPos]
			var vel ecs.View[cbVel]
			cbBorrow(b, w, &pos, &vel)
			clk := cbStart(b)
			for b.Loop() {
				impl.fn(pos, vel)
			}
			clk.report(n)
		})
	}
}

//go:noinline
func gbJoinPacked(pos ecs.ViewMut[cbPos], vel ecs.View[cbVel]) {
	_, ps, vs, ok := ecs.Join2(pos, vel).Packed()
	if !ok {
		panic("not a packed group")
	}
	vs = vs[:len(ps)]
	for i := range ps {
		ps[i].X += vs[i].X
		ps[i].Y += vs[i].Y
	}
}

// BenchmarkGroupAddRemove adds Vel to N entities having Pos, then removes
// it from all, with and without a group owning Pos and Vel (each add
// joins the group, each removal leaves it: a swap per member).
func BenchmarkGroupAddRemove(b *testing.B) {
	n := cbMillion
	for _, grouped := range []bool{false, true} {
		name := "slipway"
		if grouped {
			name = "slipway-group"
		}
		b.Run(cbName(name, n), func(b *testing.B) {
			w, ids := cbWorld(b, n, false)
			if grouped {
				cbCheck(b, ecs.AddGroup2[cbPos, cbVel](w))
			}
			var ents ecs.EntitiesView
			var vel ecs.ViewMut[cbVel]
			cbBorrow(b, w, &ents, &vel)
			cbCheck(b, cbAddRemoveViews(ents, vel, ids))
			clk := cbStart(b)
			for b.Loop() {
				cbCheck(b, cbAddRemoveViews(ents, vel, ids))
			}
			clk.report(n)
		})
	}
}
