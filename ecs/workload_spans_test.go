package ecs_test

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

type spA struct{ V int }
type spB struct{ V int }
type spC struct{ V int }

func spReadA(ecs.View[spA])     {}
func spReadB(ecs.View[spB])     {}
func spReadC(ecs.View[spC])     {}
func spWriteA(ecs.ViewMut[spA]) {}

// spLog records the order systems ran in.
type spLog struct {
	mu   sync.Mutex
	list []string
}

func (l *spLog) sys(name string, fn any) *ecs.SystemSpec {
	var wrapped any
	switch fn.(type) {
	case func(ecs.View[spA]):
		wrapped = func(ecs.View[spA]) { l.add(name) }
	case func(ecs.View[spB]):
		wrapped = func(ecs.View[spB]) { l.add(name) }
	case func(ecs.View[spC]):
		wrapped = func(ecs.View[spC]) { l.add(name) }
	case func(ecs.ViewMut[spA]):
		wrapped = func(ecs.ViewMut[spA]) { l.add(name) }
	}
	return ecs.System(wrapped).Named(name)
}

func (l *spLog) add(name string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.list = append(l.list, name)
}

func (l *spLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.list
	l.list = nil
	return out
}

func planOf(t *testing.T, w *ecs.World, name string) *ecs.Plan {
	t.Helper()
	p, err := w.WorkloadPlan(name)
	noErr(t, err)
	return p
}

// A barrier puts every system declared before it before every system
// declared after it, though none of their views conflict.
func TestBarrierSeparatesIndependentSystems(t *testing.T) {
	w := ecs.NewWorld()
	var log spLog
	noErr(t, w.AddWorkload("frame", log.sys("a", spReadA), log.sys("b", spReadB), ecs.Barrier(), log.sys("c", spReadC), log.sys("d", spReadA)))
	p := planOf(t, w, "frame")
	if want := [][]int{{0, 1}, {2, 3}}; !slices.EqualFunc(p.Batches, want, slices.Equal) {
		t.Fatalf("batches %v, want %v\n%s", p.Batches, want, p)
	}
	if got := p.Systems[2].Reason; got != `barrier: in workload "frame"` {
		t.Fatalf("reason %q", got)
	}
	if len(p.Barriers) != 1 || !slices.Equal(p.Barriers[0].Before, []int{0, 1}) || !slices.Equal(p.Barriers[0].After, []int{2, 3}) || p.Barriers[0].Workload != "frame" {
		t.Fatalf("barriers %+v", p.Barriers)
	}
	if !strings.Contains(p.String(), `barrier in "frame": {#0, #1} before {#2, #3}`) {
		t.Fatalf("String does not show the barrier:\n%s", p)
	}
	for range 20 {
		noErr(t, w.RunWorkload("frame"))
		got := log.take()
		if len(got) != 4 || slices.Index(got, "c") < 2 || slices.Index(got, "d") < 2 {
			t.Fatalf("ran %v: c and d must start after a and b", got)
		}
	}
}

// A barrier orders the items of its own workload only; two barriers in a
// row, or one at either end, are allowed.
func TestBarrierScopeAndEdges(t *testing.T) {
	w := ecs.NewWorld()
	var log spLog
	noErr(t, w.AddWorkload("outer",
		log.sys("x", spReadC),
		ecs.Workload("in", ecs.Barrier(), log.sys("a", spReadA), ecs.Barrier(), ecs.Barrier(), log.sys("b", spReadB), ecs.Barrier())))
	p := planOf(t, w, "outer")
	if p.Systems[0].Batch != 0 || p.Systems[1].Batch != 0 || p.Systems[2].Batch != 1 {
		t.Fatalf("plan:\n%s", p)
	}
	if len(p.Barriers) != 4 || p.Barriers[0].Workload != "outer/in" || len(p.Barriers[0].Before) != 0 {
		t.Fatalf("barriers %+v", p.Barriers)
	}
	noErr(t, w.RunWorkload("outer"))
	if got := log.take(); slices.Index(got, "b") < slices.Index(got, "a") {
		t.Fatalf("ran %v", got)
	}
}

// A constraint that goes back across a barrier is a cycle, and the cycle
// names the barrier.
func TestBarrierCycle(t *testing.T) {
	w := ecs.NewWorld()
	err := w.AddWorkload("frame", ecs.System(spReadA), ecs.Barrier(), ecs.System(spReadB).Before("ecs_test.spReadA"))
	if !errors.Is(err, ecs.ErrCyclicOrdering) || !strings.Contains(err.Error(), `a Barrier in workload "frame" separates them`) {
		t.Fatalf("got %v", err)
	}
	if len(w.Workloads()) != 0 {
		t.Fatal("a refused workload was added")
	}
}

// A sequential workload runs its systems one at a time in declared order;
// conditions and labels still work, and a constraint against the order
// is a cycle.
func TestSequentialWorkload(t *testing.T) {
	w := ecs.NewWorld()
	var log spLog
	skipB := true
	noErr(t, w.AddWorkload("frame",
		log.sys("x", spReadC),
		ecs.Workload("steps", log.sys("a", spReadA), log.sys("b", spReadB).SkipIf(func() bool { return skipB }), log.sys("c", spReadC).Label("last"), log.sys("d", spReadA)).Sequential(),
		log.sys("after", spReadB).After("last")))
	p := planOf(t, w, "frame")
	for i, want := range []int{0, 0, 1, 2, 3, 3} {
		if p.Systems[i].Batch != want {
			t.Fatalf("system %d in batch %d, want %d\n%s", i, p.Systems[i].Batch, want, p)
		}
	}
	if !slices.Equal(p.Sequential, []string{"frame/steps"}) || p.Systems[2].Reason != `sequential: workload "frame/steps"` {
		t.Fatalf("plan:\n%s", p)
	}
	noErr(t, w.RunWorkload("frame"))
	got := slices.DeleteFunc(log.take(), func(s string) bool { return s == "x" })
	if want := []string{"a", "c", "after", "d"}; !slices.Equal(got[:2], want[:2]) || !slices.Contains(got, "after") || got[len(got)-1] != "d" && got[len(got)-1] != "after" {
		t.Fatalf("ran %v", got)
	}
	skipB = false
	noErr(t, w.RunWorkload("frame"))
	got = slices.DeleteFunc(log.take(), func(s string) bool { return s == "x" || s == "after" })
	if want := []string{"a", "b", "c", "d"}; !slices.Equal(got, want) {
		t.Fatalf("ran %v, want %v", got, want)
	}
	err := w.AddWorkload("bad", ecs.Workload("steps", ecs.System(spReadA), ecs.System(spReadB).Before("ecs_test.spReadA")).Sequential())
	if !errors.Is(err, ecs.ErrCyclicOrdering) || !strings.Contains(err.Error(), `workload "bad/steps" is Sequential`) {
		t.Fatalf("got %v", err)
	}
}

// RenameWorkload moves the workload, its default status and its names in
// reports; bad calls change nothing.
func TestRenameWorkload(t *testing.T) {
	w := ecs.NewWorld()
	runs := 0
	noErr(t, w.AddWorkload("a", ecs.System(func(ecs.View[spA]) { runs++ }).Named("sys"), ecs.Workload("inner", spReadB)))
	noErr(t, w.AddWorkload("other", spReadC))
	w.SetTracing(true)
	noErr(t, w.RunWorkload("a"))
	for _, c := range []struct {
		old, new string
		is       error
		text     string
	}{
		{"nope", "b", ecs.ErrUnknownWorkload, `ecs: cannot rename workload: no workload named "nope": unknown workload`},
		{"a", "other", ecs.ErrInvalidWorkload, `ecs: workload other: cannot rename workload "a": a workload with this name already exists`},
		{"a", "", ecs.ErrInvalidWorkload, `ecs: workload "": cannot rename workload "a": a workload needs a name`},
	} {
		err := w.RenameWorkload(c.old, c.new)
		if !errors.Is(err, c.is) || err.Error() != c.text {
			t.Errorf("RenameWorkload(%q, %q) = %v, want %q", c.old, c.new, err, c.text)
		}
		if got := w.Workloads(); !slices.Equal(got, []string{"a", "other"}) {
			t.Fatalf("workloads %v after a refused rename", got)
		}
	}
	noErr(t, w.RenameWorkload("a", "a"))
	noErr(t, w.RenameWorkload("a", "b/c"))
	if got := w.Workloads(); !slices.Equal(got, []string{"b/c", "other"}) {
		t.Fatalf("workloads %v", got)
	}
	if err := w.RunWorkload("a"); !errors.Is(err, ecs.ErrUnknownWorkload) {
		t.Fatalf("run of the old name: %v", err)
	}
	noErr(t, w.RunDefaultWorkload())
	if runs != 2 {
		t.Fatalf("runs %d, want 2: the default workload follows the rename", runs)
	}
	p := planOf(t, w, "b/c")
	if p.Workload != "b/c" || p.Systems[1].Workload != "b%2Fc/inner" {
		t.Fatalf("plan:\n%s", p)
	}
	var names []string
	for _, s := range w.SystemStats() {
		names = append(names, s.Workload+" "+s.System)
		if s.System == "sys" && s.Runs != 2 {
			t.Fatalf("stats %+v: the statistics move with the workload", s)
		}
	}
	if want := []string{"b%2Fc sys", "b%2Fc/inner ecs_test.spReadB", "other ecs_test.spReadC"}; !slices.Equal(names, want) {
		t.Fatalf("stats %v, want %v", names, want)
	}
}

// Build checks a workload without a world, with the errors AddWorkload
// gives; the built workload can be added to several worlds.
func TestBuildWorkload(t *testing.T) {
	bad := []struct {
		name  string
		items []any
	}{
		{"w", nil},
		{"", []any{spReadA}},
		{"w", []any{ecs.System(spReadA).After("nope")}},
		{"w", []any{func(ecs.View[spA], ecs.ViewMut[spA]) {}}},
		{"w", []any{3}},
		{"w", []any{ecs.System(spReadA).RequireBefore("ecs_test.spReadB"), spReadB}},
	}
	for _, c := range bad {
		_, err := ecs.Workload(c.name, c.items...).Build()
		var be *ecs.WorkloadBuildError
		if !errors.As(err, &be) {
			t.Fatalf("Build: %v, want a *WorkloadBuildError", err)
		}
		w := ecs.NewWorld()
		if got := w.AddWorkload(c.name, c.items...); got == nil || got.Error() != err.Error() {
			t.Fatalf("Build: %v; AddWorkload: %v", err, got)
		}
	}
	var log spLog
	built, err := ecs.Workload("frame", log.sys("a", spReadA), log.sys("b", spReadB)).Sequential().Label("frame_label").Build()
	noErr(t, err)
	if built.Name() != "frame" || len(built.Plan().Batches) != 2 {
		t.Fatalf("plan:\n%s", built.Plan())
	}
	w1, w2 := ecs.NewWorld(), ecs.NewWorld()
	noErr(t, ecs.AddGroup2[spA, spB](w2))
	noErr(t, w1.AddBuiltWorkload(built))
	noErr(t, w2.AddBuiltWorkload(built))
	if err := w1.AddBuiltWorkload(built); !errors.Is(err, ecs.ErrInvalidWorkload) {
		t.Fatalf("second add: %v", err)
	}
	if err := w1.AddBuiltWorkload(nil); !errors.Is(err, ecs.ErrInvalidWorkload) {
		t.Fatalf("nil: %v", err)
	}
	noErr(t, w1.RunDefaultWorkload())
	noErr(t, w2.RunDefaultWorkload())
	if got := log.take(); !slices.Equal(got, []string{"a", "b", "a", "b"}) {
		t.Fatalf("ran %v", got)
	}
}

// RequireBefore and RequireAfter check the order the plan has; they do
// not order anything, and a failed check names both.
func TestRequireBeforeAfter(t *testing.T) {
	for _, c := range []struct {
		name  string
		items []any
		err   string
	}{
		{"conflict orders it", []any{spWriteA, ecs.System(spReadA).RequireBefore("ecs_test.spWriteA")}, ""},
		{"After orders it", []any{spReadB, ecs.System(spReadA).After("ecs_test.spReadB").RequireBefore("ecs_test.spReadB")}, ""},
		{"barrier orders it", []any{spReadB, ecs.Barrier(), ecs.System(spReadA).RequireBefore("ecs_test.spReadB")}, ""},
		{"through another system", []any{spReadB, ecs.System(spWriteA).After("ecs_test.spReadB"), ecs.System(spReadA).RequireBefore("ecs_test.spReadB")}, ""},
		{"after", []any{ecs.System(spWriteA).RequireAfter("reader"), ecs.System(spReadA).Label("reader")}, ""},
		{"parallel", []any{spReadB, ecs.System(spReadA).RequireBefore("ecs_test.spReadB")},
			`ecs: workload w: system ecs_test.spReadA: RequireBefore("ecs_test.spReadB"): no system labelled "ecs_test.spReadB" runs before it: ecs_test.spReadB is not ordered before it (order it with After("ecs_test.spReadB"), or a Barrier)`},
		{"wrong side", []any{ecs.System(spReadA).RequireBefore("ecs_test.spWriteA"), spWriteA},
			`ecs: workload w: system ecs_test.spReadA: RequireBefore("ecs_test.spWriteA"): no system labelled "ecs_test.spWriteA" runs before it: ecs_test.spWriteA is not ordered before it (order it with After("ecs_test.spWriteA"), or a Barrier)`},
		{"after missing", []any{spReadB, ecs.System(spReadA).RequireAfter("ecs_test.spReadB")},
			`ecs: workload w: system ecs_test.spReadA: RequireAfter("ecs_test.spReadB"): no system labelled "ecs_test.spReadB" runs after it: ecs_test.spReadB is not ordered after it (order it with Before("ecs_test.spReadB"), or a Barrier)`},
		{"unknown label", []any{ecs.System(spReadA).RequireBefore("nope")},
			`ecs: workload w: system ecs_test.spReadA: RequireBefore("nope"): no other system has the label "nope"`},
		{"itself only", []any{ecs.System(spReadA).Label("me").RequireAfter("me")},
			`ecs: workload w: system ecs_test.spReadA: RequireAfter("me"): no other system has the label "me"`},
		{"empty", []any{ecs.System(spReadA).RequireAfter("")},
			`ecs: workload w: system ecs_test.spReadA: RequireAfter(""): the label is empty; a label must be a non-empty name`},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := ecs.NewWorld()
			err := w.AddWorkload("w", c.items...)
			if c.err == "" {
				noErr(t, err)
				noErr(t, w.RunWorkload("w"))
				return
			}
			if err == nil || err.Error() != c.err || !errors.Is(err, ecs.ErrInvalidWorkload) {
				t.Fatalf("got  %v\nwant %s", err, c.err)
			}
			if len(w.Workloads()) != 0 {
				t.Fatal("a refused workload was added")
			}
		})
	}
}
