package ecs

import (
	"errors"
	"testing"
)

// RunWorkload finds a workload's plan and locks it in one step: while a
// run holds it, a group added meanwhile does not get the workload
// planned again and run beside it; the next run is on the new plan.
func TestTakePlanLocksTheCurrentPlan(t *testing.T) {
	w := NewWorld()
	runs := 0
	check(t, w.AddWorkload("w", func(View[gA]) { runs++ }))
	p, err := w.takePlan("w")
	check(t, err)
	check(t, AddGroup2[gA, gB](w))
	if err := w.RunWorkload("w"); !errors.Is(err, ErrWorkloadRunning) {
		t.Fatalf("RunWorkload while the plan is taken: got %v, want ErrWorkloadRunning", err)
	}
	p.running.Unlock()
	check(t, w.RunWorkload("w"))
	if runs != 1 || w.workloads["w"] == p {
		t.Fatalf("runs %d, plan replaced %v; want 1, true", runs, w.workloads["w"] != p)
	}
}
