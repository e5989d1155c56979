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

type jbC struct{ X, Y float64 }

// BenchmarkJoinOr compares Join2(a, Or2(b, c)) with what it replaces,
// Join3(a, Optional(b), Optional(c)) skipping the entities with neither
// (compare with benchstat -col /form), over n entities that all have an
// A, half of them a B and a third a C; and the union Join1(Or2(b, c))
// with two loops, over b's entities and over c's that b lacks
// (shape=union). The Or term builds its table at each iteration: this
// is its price.
func BenchmarkJoinOr(b *testing.B) {
	for _, n := range []int{1000, 100_000} {
		w := ecs.NewWorld()
		for i := range n {
			id, err := ecs.AddEntity1(w, jbA{float64(i), 1})
			must(b, err)
			if i%2 == 0 {
				must(b, ecs.AddComponent1(w, id, jbB{1, float64(i)}))
			}
			if i%3 == 0 {
				must(b, ecs.AddComponent1(w, id, jbC{2, float64(i)}))
			}
		}
		var va ecs.ViewMut[jbA]
		var vb ecs.View[jbB]
		var vc ecs.View[jbC]
		release, err := w.Borrow(&va, &vb, &vc)
		must(b, err)
		b.Run(fmt.Sprintf("shape=join/n=%d/form=or", n), func(b *testing.B) {
			for b.Loop() {
				for p, e := range ecs.Join2(va, ecs.Or2(vb, vc)).All() {
					if e.A != nil {
						p.X += e.A.X
					}
					if e.B != nil {
						p.X += e.B.X
					}
				}
			}
		})
		b.Run(fmt.Sprintf("shape=join/n=%d/form=optional", n), func(b *testing.B) {
			for b.Loop() {
				for r := range ecs.Join3(va, ecs.Optional(vb), ecs.Optional(vc)).All() {
					if r.B == nil && r.C == nil {
						continue
					}
					if r.B != nil {
						r.A.X += r.B.X
					}
					if r.C != nil {
						r.A.X += r.C.X
					}
				}
			}
		})
		b.Run(fmt.Sprintf("shape=union/n=%d/form=or", n), func(b *testing.B) {
			var s float64
			for b.Loop() {
				for e := range ecs.Join1(ecs.Or2(vb, vc)).All() {
					if e.A != nil {
						s += e.A.Y
					}
					if e.B != nil {
						s += e.B.Y
					}
				}
			}
			_ = s
		})
		b.Run(fmt.Sprintf("shape=union/n=%d/form=loops", n), func(b *testing.B) {
			var s float64
			for b.Loop() {
				for id, x := range vb.WithID() {
					s += x.Y
					if c, ok := vc.Get(id); ok {
						s += c.Y
					}
				}
				for id, c := range vc.WithID() {
					if !vb.Contains(id) {
						s += c.Y
					}
				}
			}
			_ = s
		})
		release()
	}
}
