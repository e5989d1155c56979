package ecs_test

import (
	"fmt"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// BenchmarkRequire creates n bodies in bulk, their masses either given in
// the same call or added by a requirement (Require[reqBody, reqMass]): the
// cost of the requirement's observer, one entity at a time. Each iteration
// starts from a new world.
func BenchmarkRequire(b *testing.B) {
	for _, n := range []int{16_000, 1_000_000} {
		bodies := make([]reqBody, n)
		masses := make([]reqMass, n)
		b.Run(fmt.Sprintf("given/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				w := ecs.NewWorld()
				if _, err := ecs.BulkAddEntity2(w, bodies, masses); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
		})
		b.Run(fmt.Sprintf("required/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				w := ecs.NewWorld()
				if err := ecs.Require[reqBody, reqMass](w, nil); err != nil {
					b.Fatal(err)
				}
				if _, err := ecs.BulkAddEntity1(w, bodies); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
		})
	}
}
