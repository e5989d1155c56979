package ecs

import (
	"errors"
	"testing"
)

// RunWorkload finds a workload's plan and locks it in one step: while a
// run holds it, a group added meanwhile does not get the workload planned
// again under it; a run meanwhile runs a guest copy of the plan it finds
// running, and the next run is on the new plan.
func TestTakePlanLocksTheCurrentPlan(t *testing.T) {
	w := NewWorld()
	runs := 0
	check(t, w.AddWorkload("w", func(View[gA]) { runs++ }))
	p, err := w.takePlan("w")
	check(t, err)
	check(t, AddGroup2[gA, gB](w))
	check(t, w.RunWorkload("w")) // a guest of p
	if w.workloads["w"] != p || p.guests != 0 || len(p.spare) != 1 || p.spare[0].origin != p {
		t.Fatalf("after a guest run: plan replaced %v, guests %d, spares %d", w.workloads["w"] != p, p.guests, len(p.spare))
	}
	w.givePlan(p)
	check(t, w.RunWorkload("w"))
	if runs != 2 || w.workloads["w"] == p {
		t.Fatalf("runs %d, plan replaced %v; want 2, true", runs, w.workloads["w"] != p)
	}
}

// A workload has at most maxRuns runs under way; the run that would be
// one more is refused, and the count goes back down as runs end.
func TestTakePlanLimitsRuns(t *testing.T) {
	w := NewWorld()
	check(t, w.AddWorkload("w", func(View[gA]) {}))
	var taken []*plan
	for range maxRuns {
		p, err := w.takePlan("w")
		check(t, err)
		taken = append(taken, p)
	}
	if _, err := w.takePlan("w"); !errors.Is(err, ErrWorkloadRunning) {
		t.Fatalf("run %d: got %v, want ErrWorkloadRunning", maxRuns+1, err)
	}
	if err := w.RenameWorkload("w", "v"); !errors.Is(err, ErrWorkloadRunning) {
		t.Fatalf("rename while guests run: got %v, want ErrWorkloadRunning", err)
	}
	for _, p := range taken[1:] {
		w.givePlan(p)
	}
	if err := w.RemoveWorkload("w"); !errors.Is(err, ErrWorkloadRunning) {
		t.Fatalf("remove while the first run is under way: got %v, want ErrWorkloadRunning", err)
	}
	w.givePlan(taken[0])
	check(t, w.RunWorkload("w"))
	check(t, w.RemoveWorkload("w"))
}

// A window moves forward only: concurrent runs of a system end in any
// order, and the one that ended with the latest timestamp sets it. 0 is
// "never ran"; timestamps compare across wrap-around.
func TestWindowAdvance(t *testing.T) {
	for _, tc := range []struct {
		name string
		ends []uint64
		want uint64
	}{
		{"never ran", nil, 0},
		{"one run", []uint64{5}, 5},
		{"in order", []uint64{5, 9}, 9},
		{"a run that ended later with an older stamp", []uint64{9, 5}, 9},
		{"an end of 0 changes nothing", []uint64{7, 0}, 7},
		{"across wrap-around", []uint64{^uint64(0) - 1, 3}, 3},
		{"older across wrap-around", []uint64{3, ^uint64(0) - 1}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w window
			for _, e := range tc.ends {
				w.advance(e)
			}
			got, ran := w.start()
			if got != tc.want || ran != (tc.want != 0) {
				t.Fatalf("start = %d, %v; want %d, %v", got, ran, tc.want, tc.want != 0)
			}
		})
	}
}
