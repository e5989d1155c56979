package bench

import (
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

func simpleIterAll(vel ecs.View[Vel3], pos ecs.ViewMut[Pos3]) {
	for v, p := range ecs.Join2(vel, pos).All() {
		p.V.X += v.V.X
		p.V.Y += v.V.Y
		p.V.Z += v.V.Z
	}
}

func BenchmarkTmpSimpleIterAll(b *testing.B) {
	runImplsAt(b, []int{simpleN},
		impl{"slipway-all", func(b *testing.B, n int) {
			w := newBodyWorld(b, simpleBody(), n)
			measure(b, n, func() { check(b, w.Run(simpleIterAll)) })
		}},
	)
}
