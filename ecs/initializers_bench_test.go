package ecs_test

import (
	"fmt"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// BenchmarkInitializers creates n entities with a velocity and a position
// in bulk, their damage either given (computed by the caller into a
// slice) or made by an initializer from the velocity: the cost of
// initializers on bulk creation. Each iteration starts from a new world.
func BenchmarkInitializers(b *testing.B) {
	type pos struct{ X, Y float64 }
	for _, n := range []int{16_000, 1_000_000} {
		vel := make([]iniVelocity, n)
		ps := make([]pos, n)
		dmg := make([]iniDamage, n)
		for i := range vel {
			vel[i] = iniVelocity{V: i}
		}
		damage := func(v iniVelocity) iniDamage { return iniDamage{D: v.V * 2} }
		b.Run(fmt.Sprintf("given/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				w := ecs.NewWorld()
				for i, v := range vel {
					dmg[i] = damage(v)
				}
				if _, err := ecs.BulkAddEntity3(w, vel, ps, dmg); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
		})
		b.Run(fmt.Sprintf("initialized/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				w := ecs.NewWorld()
				if err := ecs.SetInitializer1(w, damage); err != nil {
					b.Fatal(err)
				}
				if _, err := ecs.BulkAddEntity2(w, vel, ps); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
		})
	}
}
