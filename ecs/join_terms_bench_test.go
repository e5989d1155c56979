package ecs_test

import (
	"fmt"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

type (
	jbA struct{ X, Y float64 }
	jbB struct{ X, Y float64 }
)

// BenchmarkJoinOptional compares Join2(a, Optional(b)) with Join2(a, b)
// over n entities that all have both (compare with benchstat -col /form):
// what an Optional term costs where it is always present. Layout
// "aligned" adds both components of each entity together (the join goes
// as one run); "reversed" adds the B in reverse order, so that every B is
// looked up (list batches); the world does not re-align it.
func BenchmarkJoinOptional(b *testing.B) {
	for _, n := range []int{1000, 100_000} {
		for _, layout := range []string{"aligned", "reversed"} {
			w := ecs.NewWorld()
			w.SetAutoAlign(false) // keep "reversed" reversed
			as, bs := make([]jbA, n), make([]jbB, n)
			for i := range n {
				as[i], bs[i] = jbA{float64(i), 1}, jbB{1, float64(i)}
			}
			switch layout {
			case "aligned":
				_, err := ecs.BulkAddEntity2(w, as, bs)
				must(b, err)
			case "reversed":
				ids, err := ecs.BulkAddEntity1(w, as)
				must(b, err)
				for i := n - 1; i >= 0; i-- {
					must(b, ecs.AddComponent1(w, ids[i], bs[i]))
				}
			}
			var va ecs.ViewMut[jbA]
			var vb ecs.View[jbB]
			release, err := w.Borrow(&va, &vb)
			must(b, err)
			for _, way := range []string{"each", "all"} {
				name := fmt.Sprintf("way=%s/layout=%s/n=%d", way, layout, n)
				b.Run(name+"/form=plain", func(b *testing.B) {
					it := ecs.Join2(va, vb)
					for b.Loop() {
						if way == "each" {
							it.Each(func(p *jbA, v *jbB) { p.X += v.X })
						} else {
							for p, v := range it.All() {
								p.X += v.X
							}
						}
					}
				})
				b.Run(name+"/form=optional", func(b *testing.B) {
					it := ecs.Join2(va, ecs.Optional(vb))
					for b.Loop() {
						if way == "each" {
							it.Each(func(p *jbA, v *jbB) {
								if v != nil {
									p.X += v.X
								}
							})
						} else {
							for p, v := range it.All() {
								if v != nil {
									p.X += v.X
								}
							}
						}
					}
				})
			}
			release()
		}
	}
}
