package ecs_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// TestBulkAddEntityNegative: EntitiesViewMut.BulkAddEntity panics on a
// negative count, naming itself and n, before creating anything; the
// system's views are released.
func TestBulkAddEntityNegative(t *testing.T) {
	for _, n := range []int{-1, math.MinInt} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			w := naWorld(t)
			before := naState(t, w)
			dst := []ecs.EntityID{7}
			panicsWith(t, func() {
				_ = w.Run(func(e ecs.EntitiesViewMut) { dst = e.BulkAddEntity(dst, n) })
			}, "ecs: EntitiesViewMut.BulkAddEntity: n is negative", fmt.Sprint(n))
			equal(t, "dst", fmt.Sprint(dst), "[EntityID(7.0)]")
			equal(t, "world after the panic", naState(t, w), before)
		})
	}
	// Zero creates nothing, and is no error.
	w := naWorld(t)
	must(t, w.Run(func(e ecs.EntitiesViewMut) {
		equal(t, "BulkAddEntity(nil, 0)", len(e.BulkAddEntity(nil, 0)), 0)
	}))
	equal(t, "entities", w.EntityCount(), 2)
}
