package ecs_test

import (
	"fmt"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// BenchmarkIsotopeJoin runs a system joining Pos with Amount, over n
// entities holding both: ordinary gives the Amount as an ordinary
// component (View[Amount]); isotope gives it as the isotope Fire, read
// through IsoView.Of(Fire). The isotope storage is an ordinary storage,
// so the two should run at the same speed; the isotope run pays the
// family's borrow once per run. Reported in ns per entity.
func BenchmarkIsotopeJoin(b *testing.B) {
	for _, n := range []int{16_000, 1_000_000} {
		pos := make([]Pos, n)
		amounts := make([]Amount, n)
		for i := range amounts {
			amounts[i].Mass = float64(i % 7)
		}
		plain := ecs.NewWorld()
		if _, err := ecs.BulkAddEntity2(plain, pos, amounts); err != nil {
			b.Fatal(err)
		}
		iso := ecs.NewWorld()
		ids, err := ecs.BulkAddEntity1(iso, pos)
		if err != nil {
			b.Fatal(err)
		}
		if err := iso.Run(func(e ecs.EntitiesView, v ecs.IsoViewMut[Element, Amount]) error {
			fire := v.Of(Fire)
			for i, id := range ids {
				if err := fire.AddComponent(e, id, amounts[i]); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			b.Fatal(err)
		}
		step := func(p *Pos, a *Amount) { p.X += float32(a.Mass) }
		plainSys := func(p ecs.ViewMut[Pos], a ecs.View[Amount]) { ecs.Join2(p, a).Each(step) }
		isoSys := func(p ecs.ViewMut[Pos], a ecs.IsoView[Element, Amount]) { ecs.Join2(p, a.Of(Fire)).Each(step) }
		for _, c := range []struct {
			name string
			w    *ecs.World
			sys  any
		}{{"ordinary", plain, plainSys}, {"isotope", iso, isoSys}} {
			b.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := c.w.Run(c.sys); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
			})
		}
	}
}
