// Package inspect draws a world's workloads as a self-contained HTML page:
// for each workload, its plan as a graph of batches, with an arrow to each
// system from the system it waits for and the reason (a conflict between
// two views, or an ordering constraint); a timeline of its last traced run,
// a bar per system on the goroutine that ran it (a Gantt chart); and a table
// of its systems, their accesses and their timings.
//
// The page needs no script, no style sheet and no network: one file to
// open in a browser, attach to a bug report or keep beside a profile.
//
// Timings exist only for runs made while tracing is on
// ([ecs.World.SetTracing]):
//
//	w.SetTracing(true)
//	for range 60 {
//		if err := w.RunWorkload("main_loop"); err != nil { ... }
//	}
//	f, err := os.Create("workloads.html")
//	...
//	err = inspect.WriteHTML(f, w)
//
// [Collect] and [Report.WriteHTML] split the two halves: a report can be
// collected while the game runs and written later, or built by hand.
package inspect

import (
	"errors"
	"fmt"
	"io"

	"github.com/slipway-ecs/slipway/ecs"
)

// Report is what a page shows: the workloads of a world, each with its plan
// and its systems' statistics.
type Report struct {
	// Title heads the page; empty, it is "Slipway workloads".
	Title     string
	Workloads []Workload
}

// Workload is one workload of a [Report].
type Workload struct {
	// Plan is the workload's plan ([ecs.World.WorkloadPlan]).
	Plan *ecs.Plan
	// Stats are its systems' statistics ([ecs.World.WorkloadStats]),
	// indexed as Plan.Systems; nil or zero when tracing was off.
	Stats []ecs.SystemStats
}

// ErrReport is the error of a [Report] that cannot be drawn (a workload
// without a plan, statistics that do not match the plan).
var ErrReport = errors.New("inspect: invalid report")

// Collect reports the workloads named, or all the world's workloads (in
// name order) if none are named. It fails on a name the world does not
// know, with the error of [ecs.World.WorkloadPlan].
func Collect(w *ecs.World, names ...string) (*Report, error) {
	if w == nil {
		return nil, errors.New("inspect: Collect of a nil *ecs.World")
	}
	if len(names) == 0 {
		names = w.Workloads()
	}
	r := &Report{}
	for _, name := range names {
		p, err := w.WorkloadPlan(name)
		if err != nil {
			return nil, err
		}
		st, err := w.WorkloadStats(name)
		if err != nil {
			return nil, err
		}
		if len(st) != len(p.Systems) { // the workload was replaced meanwhile
			st = nil
		}
		r.Workloads = append(r.Workloads, Workload{Plan: p, Stats: st})
	}
	return r, nil
}

// WriteHTML collects the workloads named (all if none are) and writes
// their page to out.
func WriteHTML(out io.Writer, w *ecs.World, names ...string) error {
	r, err := Collect(w, names...)
	if err != nil {
		return err
	}
	return r.WriteHTML(out)
}

// check reports the first thing that keeps r from being drawn.
func (r *Report) check() error {
	for i, wl := range r.Workloads {
		if wl.Plan == nil {
			return fmt.Errorf("%w: workload %d has no plan", ErrReport, i)
		}
		n := len(wl.Plan.Systems)
		if wl.Stats != nil && len(wl.Stats) != n {
			return fmt.Errorf("%w: workload %q has %d systems and %d statistics", ErrReport, wl.Plan.Workload, n, len(wl.Stats))
		}
		for j, s := range wl.Plan.Systems {
			if s.Index != j {
				return fmt.Errorf("%w: workload %q: system %d has index %d", ErrReport, wl.Plan.Workload, j, s.Index)
			}
			if s.After < -1 || s.After >= n || s.After == j {
				return fmt.Errorf("%w: workload %q: system %d waits for system %d", ErrReport, wl.Plan.Workload, j, s.After)
			}
			if s.Batch < 0 {
				return fmt.Errorf("%w: workload %q: system %d in batch %d", ErrReport, wl.Plan.Workload, j, s.Batch)
			}
		}
		for j, s := range wl.Stats {
			if s.Runs < 0 || s.Last < 0 || s.Total < 0 || s.LastStart < 0 || s.LastWorker < 0 {
				return fmt.Errorf("%w: workload %q: negative statistics for system %d: %+v", ErrReport, wl.Plan.Workload, j, s)
			}
		}
	}
	return nil
}
