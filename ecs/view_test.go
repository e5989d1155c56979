package ecs_test

import (
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

func TestDeleteFromSeveralViews(t *testing.T) {
	w := ecs.NewWorld()
	both, _ := ecs.AddEntity2(w, wPos{1, 1}, wVel{2, 2})
	onlyPos, _ := ecs.AddEntity1(w, wPos{3, 3})
	noErr(t, w.Run(func(p ecs.ViewMut[wPos], v ecs.ViewMut[wVel]) {
		if n := ecs.DeleteFrom(both, p, v); n != 2 {
			t.Errorf("deleted %d from both, want 2", n)
		}
		if n := ecs.DeleteFrom(onlyPos, p, v); n != 1 {
			t.Errorf("deleted %d from onlyPos, want 1", n)
		}
		if n := ecs.DeleteFrom(both, p, v); n != 0 {
			t.Errorf("deleted %d again, want 0", n)
		}
		if p.Len() != 0 || v.Len() != 0 {
			t.Errorf("left %d Pos, %d Vel", p.Len(), v.Len())
		}
	}))
	if !w.IsAlive(both) || !w.IsAlive(onlyPos) {
		t.Fatal("deleting components must not delete entities")
	}
}
