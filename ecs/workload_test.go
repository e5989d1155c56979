package ecs_test

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/slipway-ecs/slipway/ecs"
)

var updateGolden = flag.Bool("update", false, "rewrite golden files")

type wPos struct{ X, Y float64 }
type wVel struct{ X, Y float64 }
type wClock struct{ Ticks int }
type wLog struct{ Lines []string }

// The systems of the conflict matrix: one per kind of access.
func sViewPos(ecs.View[wPos])                             {}
func sViewPos2(ecs.View[wPos])                            {}
func sViewMutPos(ecs.ViewMut[wPos])                       {}
func sViewMutPos2(ecs.ViewMut[wPos])                      {}
func sViewVel(ecs.View[wVel])                             {}
func sViewMutVel(ecs.ViewMut[wVel])                       {}
func sUnique(ecs.UniqueView[wClock])                      {}
func sUniqueMut(ecs.UniqueViewMut[wClock])                {}
func sEntities(ecs.EntitiesView)                          {}
func sEntitiesMut(ecs.EntitiesViewMut)                    {}
func sAll(ecs.AllStoragesViewMut)                         {}
func sNothing()                                           {}
func sPosAndClock(ecs.View[wPos], ecs.UniqueView[wClock]) {}

func TestConflictMatrix(t *testing.T) {
	// parallel reports whether the two systems land in the same batch.
	cases := []struct {
		a, b     any
		parallel bool
	}{
		{sViewPos, sViewPos2, true},
		{sViewPos, sViewMutPos, false},
		{sViewMutPos, sViewPos, false},
		{sViewMutPos, sViewMutPos2, false},
		{sViewPos, sViewMutVel, true},
		{sViewMutPos, sViewMutVel, true},
		{sUnique, sUnique, true},
		{sUnique, sUniqueMut, false},
		{sUniqueMut, sUniqueMut, false},
		{sUniqueMut, sViewMutPos, true},
		{sEntities, sEntities, true},
		{sEntities, sEntitiesMut, false},
		{sEntitiesMut, sViewMutPos, true},
		{sAll, sNothing, false},
		{sNothing, sAll, false},
		{sAll, sViewPos, false},
		{sViewPos, sAll, false},
		{sAll, sEntities, false},
		{sAll, sUnique, false},
		{sNothing, sNothing, true},
		{sPosAndClock, sUniqueMut, false},
		{sPosAndClock, sViewMutVel, true},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%s|%s", funcName(c.a), funcName(c.b))
		t.Run(name, func(t *testing.T) {
			w := ecs.NewWorld()
			noErr(t, w.AddWorkload("w", c.a, c.b))
			p, err := w.WorkloadPlan("w")
			noErr(t, err)
			got := len(p.Batches) == 1
			if got != c.parallel {
				t.Fatalf("parallel = %v, want %v; plan:\n%s", got, c.parallel, p)
			}
			if !c.parallel && (p.Systems[0].Batch != 0 || p.Systems[1].Batch != 1) {
				t.Fatalf("declared order not kept:\n%s", p)
			}
			if !c.parallel && !strings.HasPrefix(p.Systems[1].Reason, "conflict: ") {
				t.Fatalf("reason %q does not name the conflict", p.Systems[1].Reason)
			}
		})
	}
}

func funcName(fn any) string {
	s := fmt.Sprintf("%p", fn)
	for _, n := range []struct {
		f    any
		name string
	}{{sViewPos, "View"}, {sViewPos2, "View"}, {sViewMutPos, "ViewMut"}, {sViewMutPos2, "ViewMut"}, {sViewVel, "ViewVel"}, {sViewMutVel, "ViewMutVel"}, {sUnique, "Unique"}, {sUniqueMut, "UniqueMut"}, {sEntities, "Entities"}, {sEntitiesMut, "EntitiesMut"}, {sAll, "All"}, {sNothing, "Nothing"}, {sPosAndClock, "PosAndClock"}} {
		if fmt.Sprintf("%p", n.f) == s {
			return n.name
		}
	}
	return s
}

// TestDeclaredOrderKept runs chains of conflicting systems mixed with
// independent ones and checks each conflicting pair ran in declared order.
func TestDeclaredOrderKept(t *testing.T) {
	for _, procs := range []int{1, 2, 4} {
		t.Run(fmt.Sprint("procs=", procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			w := ecs.NewWorld()
			noErr(t, ecs.AddUnique(w, wLog{}))
			var mu sync.Mutex
			var order []string
			rec := func(s string) { mu.Lock(); order = append(order, s); mu.Unlock() }
			items := []any{
				ecs.System(func(ecs.ViewMut[wPos]) { rec("a") }).Named("a"),
				ecs.System(func(ecs.View[wVel]) { rec("b") }).Named("b"),
				ecs.System(func(ecs.View[wPos]) { rec("c") }).Named("c"),
				ecs.System(func(ecs.ViewMut[wVel]) { rec("d") }).Named("d"),
				ecs.System(func(ecs.ViewMut[wPos], ecs.ViewMut[wVel]) { rec("e") }).Named("e"),
				ecs.System(func(ecs.UniqueView[wLog]) { rec("f") }).Named("f"),
			}
			noErr(t, w.AddWorkload("w", items...))
			for range 50 {
				order = order[:0]
				noErr(t, w.RunWorkload("w"))
				pos := map[string]int{}
				for i, s := range order {
					pos[s] = i
				}
				for _, pair := range [][2]string{{"a", "c"}, {"b", "d"}, {"c", "e"}, {"d", "e"}, {"a", "e"}} {
					if pos[pair[0]] > pos[pair[1]] {
						t.Fatalf("%s ran before %s: %v", pair[1], pair[0], order)
					}
				}
				if len(order) != 6 {
					t.Fatalf("ran %v", order)
				}
				if procs == 1 && strings.Join(order, "") != "abcdef" {
					t.Fatalf("GOMAXPROCS=1 must run in declared order, ran %v", order)
				}
			}
		})
	}
}

// TestParallelOverlap proves two non-conflicting systems run at the same
// time: each waits for the other at a rendezvous, which only succeeds if
// both are running together.
func TestParallelOverlap(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs GOMAXPROCS >= 2")
	}
	w := ecs.NewWorld()
	met := addMeeting(t, w, "w")
	noErr(t, w.RunWorkload("w"))
	if met.Load() != 2 {
		t.Fatalf("met %d", met.Load())
	}
}

// TestHelpersFoundAfterPauses runs a workload whose two systems can only
// finish together, after pauses around the time workers poll for before
// they block: whether the workers are polling, blocked, or just going from
// one to the other, a worker must take the second system while the caller
// runs the first.
func TestHelpersFoundAfterPauses(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs GOMAXPROCS >= 2")
	}
	w := ecs.NewWorld()
	met := addMeeting(t, w, "w")
	runs := 0
	for _, pause := range []time.Duration{0, 20, 50, 80, 90, 95, 100, 105, 110, 120, 150, 200, 1000} {
		for range 10 {
			time.Sleep(pause * time.Microsecond)
			noErr(t, w.RunWorkload("w"))
			runs++
		}
	}
	if met.Load() != int32(2*runs) {
		t.Fatalf("met %d times in %d runs", met.Load(), runs)
	}
}

// TestSystemStartsWhenItsPredecessorsFinish: c follows b (both write wVel)
// and nothing else; a (over wPos) is in the first batch with b, c in the
// second. c must not wait for a to finish, as it would if the batches ran
// one after the other: a waits for c here, and the run fails after 10 s if
// c waits for a.
func TestSystemStartsWhenItsPredecessorsFinish(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs GOMAXPROCS >= 2")
	}
	w := ecs.NewWorld()
	cRan := make(chan struct{})
	var order []string
	var mu sync.Mutex
	note := func(s string) { mu.Lock(); order = append(order, s); mu.Unlock() }
	noErr(t, w.AddWorkload("w",
		ecs.System(func(ecs.ViewMut[wPos]) error {
			select {
			case <-cRan:
				note("a")
				return nil
			case <-time.After(10 * time.Second):
				return errors.New("c never ran: it waited for a, which it does not follow")
			}
		}).Named("a"),
		ecs.System(func(ecs.ViewMut[wVel]) { note("b") }).Named("b"),
		ecs.System(func(ecs.ViewMut[wVel]) { note("c"); close(cRan) }).Named("c"),
	))
	noErr(t, w.RunWorkload("w"))
	if want := []string{"b", "c", "a"}; !slices.Equal(order, want) {
		t.Fatalf("order %v, want %v", order, want)
	}
	plan, err := w.WorkloadPlan("w")
	noErr(t, err)
	for _, s := range plan.Systems {
		if want := map[string]int{"a": 0, "b": 0, "c": 1}[s.Name]; s.Batch != want {
			t.Fatalf("%s in batch %d, want %d: the plan printed changed", s.Name, s.Batch, want)
		}
	}
}

// TestSkippedAndFailedConditions: the systems following a skipped system
// run; after a condition fails (its view cannot be borrowed: no such
// unique), the system is reported and nothing that follows it starts.
func TestSkippedAndFailedConditions(t *testing.T) {
	w := ecs.NewWorld()
	var mu sync.Mutex
	ran := map[string]bool{}
	mark := func(s string) { mu.Lock(); ran[s] = true; mu.Unlock() }
	noErr(t, w.AddWorkload("w",
		ecs.System(func(ecs.ViewMut[wPos]) { mark("skipped") }).Named("skipped").SkipIf(func() bool { return true }),
		ecs.System(func(ecs.ViewMut[wPos]) { mark("after_skipped") }).Named("after_skipped"),
		ecs.System(func(ecs.ViewMut[wVel]) { mark("failing") }).Named("failing").RunIf(func(ecs.UniqueView[wClock]) bool { return true }),
		ecs.System(func(ecs.ViewMut[wVel]) { mark("after_failing") }).Named("after_failing"),
	))
	err := w.RunWorkload("w")
	var we *ecs.WorkloadError
	if !errors.As(err, &we) || we.System != "failing" || !errors.Is(err, ecs.ErrMissingUnique) {
		t.Fatalf("err = %v, want the failing condition's, naming the system", err)
	}
	if ran["skipped"] || ran["failing"] || ran["after_failing"] {
		t.Fatalf("ran %v", ran)
	}
	// after_skipped runs unless the failure stopped the run first; alone,
	// the skipped system's follower runs.
	noErr(t, ecs.AddUnique(w, wClock{}))
	clear(ran)
	noErr(t, w.RunWorkload("w"))
	if !ran["after_skipped"] || ran["skipped"] || !ran["failing"] || !ran["after_failing"] {
		t.Fatalf("ran %v", ran)
	}
}

// TestConditionPanicWaitsForRunningSystems: a run condition panics while
// other systems run; RunWorkload re-raises it as the system's panic only
// once they have finished, and the workload runs again cleanly.
func TestConditionPanicWaitsForRunningSystems(t *testing.T) {
	w := ecs.NewWorld()
	var running, finished atomic.Int32
	started := make(chan struct{}, 2)
	panics := true
	slow := func() {
		running.Add(1)
		select {
		case started <- struct{}{}:
		default:
		}
		time.Sleep(20 * time.Millisecond)
		finished.Add(1)
	}
	noErr(t, w.AddWorkload("w",
		ecs.System(func(ecs.ViewMut[wPos]) { slow() }).Named("a1"),
		ecs.System(func(ecs.ViewMut[wVel]) { slow() }).Named("a2"),
		ecs.System(func() {}).Named("b").RunIf(func() bool {
			if panics {
				if runtime.GOMAXPROCS(0) > 1 {
					<-started
				}
				panic("condition failed")
			}
			return true
		}),
	))
	func() {
		defer func() {
			var sp *ecs.SystemPanic
			r := recover()
			if err, ok := r.(error); !ok || !errors.As(err, &sp) || sp.System != "b" || sp.Value != "condition failed" {
				t.Fatalf("recovered %v, want the condition's panic as system b's", r)
			}
			if running.Load() != finished.Load() {
				t.Fatalf("RunWorkload returned with %d of %d systems still running", running.Load()-finished.Load(), running.Load())
			}
		}()
		_ = w.RunWorkload("w")
	}()
	panics = false
	for range 3 {
		noErr(t, w.RunWorkload("w"))
	}
}

// TestManySystems runs a workload of 3,000 systems that conflict with
// nothing, more than the worker queue holds, many times.
func TestManySystems(t *testing.T) {
	w := ecs.NewWorld()
	var n atomic.Int64
	items := make([]any, 3000)
	for i := range items {
		items[i] = ecs.System(func() { n.Add(1) }).Named(fmt.Sprint("s", i))
	}
	noErr(t, w.AddWorkload("w", items...))
	for range 20 {
		noErr(t, w.RunWorkload("w"))
	}
	if n.Load() != 20*3000 {
		t.Fatalf("%d system runs, want %d", n.Load(), 20*3000)
	}
}

// addMeeting adds workload name to w: two systems that each wait (10 s at
// most) for the other to start, so the run fails unless they overlap. It
// returns the count of systems that met the other.
func addMeeting(t *testing.T, w *ecs.World, name string) *atomic.Int32 {
	t.Helper()
	var met atomic.Int32
	var arrived atomic.Int32
	var mu sync.Mutex
	var done chan struct{}
	meet := func() error {
		mu.Lock()
		if arrived.Add(1) == 1 {
			done = make(chan struct{})
		} else {
			close(done)
			arrived.Store(0)
		}
		ch := done
		mu.Unlock()
		select {
		case <-ch:
			met.Add(1)
			return nil
		case <-time.After(10 * time.Second):
			return errors.New("the other system never arrived: systems did not overlap")
		}
	}
	noErr(t, w.AddWorkload(name,
		ecs.System(func(ecs.ViewMut[wPos]) error { return meet() }).Named("left"),
		ecs.System(func(ecs.ViewMut[wVel]) error { return meet() }).Named("right"),
	))
	return &met
}

type gameOver int

const (
	defeat gameOver = iota
	victory
)

func (g gameOver) Error() string { return [...]string{"Defeat", "Victory"}[g] }

func TestErrorStopsWorkloadAndUnwraps(t *testing.T) {
	w := ecs.NewWorld()
	ran := map[string]bool{}
	var mu sync.Mutex
	mark := func(s string) { mu.Lock(); ran[s] = true; mu.Unlock() }
	noErr(t, w.AddWorkload("main_loop",
		ecs.System(func(ecs.ViewMut[wPos]) { mark("first") }).Named("first"),
		ecs.System(func(ecs.View[wPos]) error { mark("check"); return victory }).Named("check_game_over"),
		ecs.System(func(ecs.ViewMut[wPos]) { mark("after") }).Named("after"),
	))
	err := w.RunWorkload("main_loop")
	var g gameOver
	if !errors.As(err, &g) || g != victory {
		t.Fatalf("errors.As did not reach the system's error: %v", err)
	}
	if !errors.Is(err, victory) {
		t.Fatalf("errors.Is failed: %v", err)
	}
	var we *ecs.WorkloadError
	if !errors.As(err, &we) || we.System != "check_game_over" || we.Workload != "main_loop" {
		t.Fatalf("WorkloadError = %+v", we)
	}
	if !ran["first"] || !ran["check"] || ran["after"] {
		t.Fatalf("ran %v; the system after the failing batch must not run", ran)
	}
	// Nothing stays borrowed: the world is usable.
	_, err = ecs.AddEntity1(w, wPos{})
	noErr(t, err)
}

func TestBorrowErrorInWorkloadNamesSystem(t *testing.T) {
	w := ecs.NewWorld()
	noErr(t, w.AddWorkload("w", ecs.System(func(ecs.UniqueView[wClock]) {}).Named("needs_clock")))
	err := w.RunWorkload("w")
	if !errors.Is(err, ecs.ErrMissingUnique) || !strings.Contains(err.Error(), "needs_clock") {
		t.Fatalf("err = %v", err)
	}
}

func TestPanicCarriedToCaller(t *testing.T) {
	for _, procs := range []int{1, 2} {
		t.Run(fmt.Sprint("procs=", procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			w := ecs.NewWorld()
			noErr(t, w.AddWorkload("w",
				ecs.System(func(ecs.ViewMut[wVel]) {}).Named("fine"),
				ecs.System(func(v ecs.ViewMut[wPos]) { panic("boom") }).Named("exploder"),
			))
			for range 3 { // the world and the workload stay usable
				func() {
					defer func() {
						r := recover()
						sp, ok := r.(*ecs.SystemPanic)
						if !ok {
							t.Fatalf("recovered %T %v", r, r)
						}
						if sp.System != "exploder" || sp.Value != "boom" || !strings.Contains(string(sp.Stack), "workload_test.go") {
							t.Fatalf("panic = %s / %v", sp.System, sp.Value)
						}
					}()
					_ = w.RunWorkload("w")
				}()
				_, err := ecs.AddEntity2(w, wPos{}, wVel{})
				noErr(t, err)
			}
		})
	}
}

func updateClock(c ecs.UniqueViewMut[wClock]) { c.Get().Ticks++ }
func readClock(c ecs.UniqueView[wClock])      {}

func TestCycleErrors(t *testing.T) {
	cases := []struct {
		name  string
		items []any
		want  string
	}{
		{"self", []any{ecs.System(updateClock).Label("ClockUpdated").After("ClockUpdated")},
			`cyclic ordering: system ecs_test.updateClock must run before itself (ecs_test.updateClock has After("ClockUpdated"), and label "ClockUpdated" includes ecs_test.updateClock)`},
		{"two", []any{
			ecs.System(updateClock).Label("U").Before("R"),
			ecs.System(readClock).Label("R").Before("U"),
		}, `cyclic ordering: system ecs_test.updateClock must run before system ecs_test.readClock (ecs_test.updateClock has Before("R"), and label "R" includes ecs_test.readClock); system ecs_test.readClock must run before system ecs_test.updateClock (ecs_test.readClock has Before("U"), and label "U" includes ecs_test.updateClock)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := ecs.NewWorld()
			err := w.AddWorkload("w", c.items...)
			if !errors.Is(err, ecs.ErrCyclicOrdering) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v\nwant it to contain %q", err, c.want)
			}
			if len(w.Workloads()) != 0 {
				t.Fatal("a failed build must not add the workload")
			}
		})
	}
}

func TestExplicitOrderOverridesDeclaredOrder(t *testing.T) {
	for _, procs := range []int{1, 2} {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		w := ecs.NewWorld()
		var order []string
		noErr(t, ecs.AddUnique(w, wClock{}))
		noErr(t, w.AddWorkload("w",
			ecs.System(func(ecs.UniqueView[wClock]) { order = append(order, "read") }).Named("read").After("update"),
			ecs.System(func(ecs.UniqueViewMut[wClock]) { order = append(order, "update") }).Named("update"),
		))
		noErr(t, w.RunWorkload("w"))
		if strings.Join(order, ",") != "update,read" {
			t.Fatalf("procs=%d: order %v", procs, order)
		}
	}
}

func TestBadWorkloads(t *testing.T) {
	w := ecs.NewWorld()
	noErr(t, w.AddWorkload("taken", sNothing))
	cases := []struct {
		name  string
		wl    string
		items []any
		want  string
	}{
		{"empty", "e", nil, "has no system"},
		{"no name", "", []any{sNothing}, "needs a name"},
		{"duplicate", "taken", []any{sNothing}, "already exists"},
		{"not a view", "x", []any{func(int) {}}, "parameter 1 (int) is not a view"},
		{"not a function", "x", []any{42}, "item 1 (int) is not a system"},
		{"nil item", "x", []any{nil}, "item 1 is nil"},
		{"unknown label", "x", []any{ecs.System(sNothing).After("nowhere")}, `After("nowhere"): no system has the label "nowhere"`},
		{"nil condition", "x", []any{ecs.System(sNothing).RunIf(nil)}, "run condition is nil"},
		{"nil plain condition", "x", []any{ecs.System(sNothing).RunIf((func() bool)(nil))}, "run condition is nil"},
		{"bad condition", "x", []any{ecs.System(sNothing).RunIf(func() int { return 1 })}, "must return bool"},
		{"empty nested", "x", []any{ecs.Workload("inner")}, "x/inner: the workload has no system"},
		{"bool system", "x", []any{func() bool { return true }}, "returns bool"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := w.AddWorkload(c.wl, c.items...)
			if !errors.Is(err, ecs.ErrInvalidWorkload) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to contain %q", err, c.want)
			}
			if got := strings.Join(w.Workloads(), ","); got != "taken" {
				t.Fatalf("workloads changed: %s", got)
			}
		})
	}
	if err := w.RunWorkload("nope"); !errors.Is(err, ecs.ErrUnknownWorkload) || !strings.Contains(err.Error(), `"nope"`) {
		t.Fatalf("unknown workload: %v", err)
	}
	if err := w.SetDefaultWorkload("nope"); !errors.Is(err, ecs.ErrUnknownWorkload) {
		t.Fatalf("SetDefaultWorkload: %v", err)
	}
}

func TestManageWorkloads(t *testing.T) {
	w := ecs.NewWorld()
	if err := w.RunDefaultWorkload(); !errors.Is(err, ecs.ErrUnknownWorkload) {
		t.Fatalf("no default: %v", err)
	}
	n := 0
	noErr(t, w.AddWorkload("one", func() { n += 1 }))
	noErr(t, w.AddWorkload("ten", func() { n += 10 }))
	noErr(t, w.RunDefaultWorkload()) // the first added
	noErr(t, w.SetDefaultWorkload("ten"))
	noErr(t, w.RunDefaultWorkload())
	noErr(t, w.ReplaceWorkload("ten", func() { n += 100 }))
	noErr(t, w.RunWorkload("ten"))
	if n != 111 {
		t.Fatalf("n = %d", n)
	}
	if got := strings.Join(w.Workloads(), ","); got != "one,ten" {
		t.Fatalf("Workloads = %s", got)
	}
	noErr(t, w.RemoveWorkload("ten"))
	if err := w.RunDefaultWorkload(); !errors.Is(err, ecs.ErrUnknownWorkload) {
		t.Fatalf("default removed: %v", err)
	}
	if err := w.RemoveWorkload("ten"); !errors.Is(err, ecs.ErrUnknownWorkload) {
		t.Fatalf("remove twice: %v", err)
	}
}

func TestRunConditions(t *testing.T) {
	w := ecs.NewWorld()
	noErr(t, ecs.AddUnique(w, wClock{}))
	var mu sync.Mutex
	var ran []string
	note := func(s string) { mu.Lock(); ran = append(ran, s); mu.Unlock() }
	paused := false
	even := func(c ecs.UniqueView[wClock]) bool { return c.Get().Ticks%2 == 0 }
	noErr(t, w.AddWorkload("w",
		ecs.System(updateClock),
		ecs.System(func() { note("odd") }).Named("odd").SkipIf(even),
		ecs.Workload("physics",
			ecs.System(func(ecs.ViewMut[wPos]) { note("physics") }).Named("physics"),
		).SkipIf(func() bool { return paused }),
	))
	// odd and physics do not conflict: their order within a run is free.
	var runs []string
	run := func() {
		ran = ran[:0]
		noErr(t, w.RunWorkload("w"))
		slices.Sort(ran)
		runs = append(runs, strings.Join(ran, ","))
	}
	for range 4 {
		run()
	}
	paused = true
	run()
	want := "odd,physics;physics;odd,physics;physics;odd"
	if got := strings.Join(runs, ";"); got != want {
		t.Fatalf("ran %s, want %s", got, want)
	}
}

func TestOnCallerRunsOnCallingGoroutine(t *testing.T) {
	w := ecs.NewWorld()
	caller := goid()
	var where []uint64
	var mu sync.Mutex
	rec := func() { mu.Lock(); where = append(where, goid()); mu.Unlock() }
	items := []any{}
	for i := range 6 {
		items = append(items, ecs.System(func() { rec() }).Named(fmt.Sprint("draw", i)).OnCaller())
	}
	noErr(t, w.AddWorkload("w", items...))
	for range 20 {
		noErr(t, w.RunWorkload("w"))
	}
	for _, g := range where {
		if g != caller {
			t.Fatalf("an OnCaller system ran on goroutine %d, caller is %d", g, caller)
		}
	}
}

func goid() uint64 {
	var buf [64]byte
	n := runtime.Stack(buf[:], false)
	var id uint64
	fmt.Sscanf(strings.TrimPrefix(string(buf[:n]), "goroutine "), "%d", &id)
	return id
}

func TestTrackingTimestampsPerSystem(t *testing.T) {
	w := ecs.NewWorld()
	noErr(t, w.AddWorkload("w", sNothing, sViewPos))
	noErr(t, w.RunWorkload("w"))
	noErr(t, w.RunWorkload("w"))
	// Not observable yet without tracking views; the run must simply work
	// repeatedly and keep its plan.
	p, err := w.WorkloadPlan("w")
	noErr(t, err)
	if len(p.Systems) != 2 {
		t.Fatal(p)
	}
}

func TestTracingStats(t *testing.T) {
	w := ecs.NewWorld()
	noErr(t, w.AddWorkload("w", ecs.System(func() { time.Sleep(time.Millisecond) }).Named("sleepy"), sViewPos))
	noErr(t, w.RunWorkload("w"))
	if st := w.SystemStats(); st[0].Runs != 0 {
		t.Fatalf("stats collected with tracing off: %+v", st)
	}
	w.SetTracing(true)
	for range 3 {
		noErr(t, w.RunWorkload("w"))
	}
	st := w.SystemStats()
	if st[0].System != "sleepy" || st[0].Runs != 3 || st[0].Mean() < time.Millisecond || st[0].Last < time.Millisecond {
		t.Fatalf("stats %+v", st[0])
	}
}

// The guide's workload chapters.

type dead struct{}

func increment(vm ecs.ViewMut[wVel]) {
	for v := range vm.All() {
		v.X++
	}
}

func flagDeletedVel(v ecs.View[wVel], deads ecs.ViewMut[dead]) {
	for id, vel := range v.WithID() {
		if vel.X > 100 {
			_ = deads.AddComponentUnchecked(id, dead{})
		}
	}
}

func clearDeletedVel(all ecs.AllStoragesViewMut) error {
	_, err := ecs.DeleteAny[dead](all)
	return err
}

func TestGuideWorkloadNesting(t *testing.T) {
	w := ecs.NewWorld()
	slow, _ := ecs.AddEntity1(w, wVel{X: 0})
	fast, _ := ecs.AddEntity1(w, wVel{X: 100})
	noErr(t, w.AddWorkload("main_loop", increment, ecs.Workload("filter_vel", flagDeletedVel, clearDeletedVel)))
	noErr(t, w.RunWorkload("main_loop"))
	if !w.IsAlive(slow) || w.IsAlive(fast) {
		t.Fatalf("slow alive %v, fast alive %v", w.IsAlive(slow), w.IsAlive(fast))
	}
	checkGolden(t, "guide_nesting", w, "main_loop")
}

// The square-eater main loop's shape, as a golden plan.
type sePlayer struct{ Size float64 }
type seFriend struct{ Size float64 }
type sePellet struct{}
type seToDelete struct{}

func movePlayer(ecs.UniqueViewMut[sePlayer])                                  {}
func moveFriends(ecs.UniqueView[sePlayer], ecs.ViewMut[seFriend])             {}
func grow(ecs.ViewMut[seFriend])                                              {}
func counters(ecs.UniqueViewMut[sePlayer])                                    {}
func spawn(ecs.EntitiesViewMut, ecs.ViewMut[seFriend], ecs.ViewMut[sePellet]) {}
func collision(ecs.EntitiesView, ecs.UniqueViewMut[sePlayer], ecs.View[seFriend], ecs.View[sePellet], ecs.ViewMut[seToDelete]) {
}
func cleanUp(ecs.AllStoragesViewMut)                                          {}
func checkGameOver(ecs.UniqueView[sePlayer], ecs.View[seFriend]) error        { return nil }
func render(ecs.UniqueView[sePlayer], ecs.View[seFriend], ecs.View[sePellet]) {}

func TestGoldenSquareEaterPlan(t *testing.T) {
	w := ecs.NewWorld()
	noErr(t, w.AddWorkload("main_loop", movePlayer, moveFriends, grow, counters, spawn, collision, cleanUp, checkGameOver, ecs.System(render).OnCaller()))
	checkGolden(t, "square_eater", w, "main_loop")
}

func checkGolden(t *testing.T, name string, w *ecs.World, wl string) {
	t.Helper()
	p, err := w.WorkloadPlan(wl)
	noErr(t, err)
	js, err := p.JSON()
	noErr(t, err)
	for ext, got := range map[string]string{".txt": p.String(), ".json": string(js) + "\n", ".dot": p.DOT(), ".mmd": p.Mermaid()} {
		path := filepath.Join("testdata", "plans", name+ext)
		if *updateGolden {
			noErr(t, os.MkdirAll(filepath.Dir(path), 0o755))
			noErr(t, os.WriteFile(path, []byte(got), 0o644))
			continue
		}
		want, err := os.ReadFile(path)
		noErr(t, err)
		if string(want) != got {
			t.Errorf("%s differs from the golden file (run go test -run %s -update to accept):\n--- got\n%s\n--- want\n%s", path, t.Name(), got, want)
		}
	}
}

func noErr(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestNestedRunWorkloadNoDeadlock runs, from systems running on workers, a
// second workload: the inner caller must make progress even when every
// worker is busy waiting.
func TestNestedRunWorkloadNoDeadlock(t *testing.T) {
	w := ecs.NewWorld()
	noErr(t, w.AddWorkload("inner",
		ecs.System(func(ecs.ViewMut[wClock]) {}).Named("i1"),
		ecs.System(func(ecs.ViewMut[wLog]) {}).Named("i2"),
		ecs.System(func(ecs.ViewMut[dead]) {}).Named("i3"),
	))
	var items []any
	for i := range 4 {
		items = append(items, ecs.System(func() error {
			// Runs inner while the other outer systems also try to: the runs
			// go on together until their borrows conflict; a run whose
			// borrow fails stops with a BorrowError.
			if err := w.RunWorkload("inner"); err != nil && !errors.Is(err, ecs.ErrBorrowConflict) {
				return err
			}
			return nil
		}).Named(fmt.Sprint("outer", i)))
	}
	noErr(t, w.AddWorkload("outer", items...))
	done := make(chan error)
	go func() {
		for range 200 {
			if err := w.RunWorkload("outer"); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		noErr(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("deadlock: nested workloads did not finish")
	}
}

// TestParallelStress runs many systems touching shared and separate
// storages many times; -race checks that no two conflicting systems ever
// overlap, and the sums check that every system ran every time.
func TestParallelStress(t *testing.T) {
	w := ecs.NewWorld()
	for i := range 100 {
		_, err := ecs.AddEntity2(w, wPos{X: float64(i)}, wVel{X: 1})
		noErr(t, err)
	}
	noErr(t, ecs.AddUnique(w, wClock{}))
	var items []any
	for i := range 12 {
		switch i % 4 {
		case 0:
			items = append(items, func(p ecs.ViewMut[wPos], v ecs.View[wVel]) {
				for a, b := range ecs.Join2(p, v).All() {
					a.X += b.X
				}
			})
		case 1:
			items = append(items, func(v ecs.View[wPos], c ecs.UniqueViewMut[wClock]) { c.Get().Ticks += v.Len() })
		case 2:
			items = append(items, func(v ecs.ViewMut[wVel]) {
				for x := range v.All() {
					x.Y++
				}
			})
		case 3:
			items = append(items, func(c ecs.UniqueView[wClock], v ecs.View[wVel]) { _ = c.Get().Ticks + v.Len() })
		}
	}
	noErr(t, w.AddWorkload("stress", items...))
	const runs = 200
	for range runs {
		noErr(t, w.RunWorkload("stress"))
	}
	clock, err := ecs.GetUnique[wClock](w)
	noErr(t, err)
	if clock.Ticks != runs*3*100 {
		t.Fatalf("ticks = %d", clock.Ticks)
	}
	v, err := ecs.Get[wVel](w, 0)
	noErr(t, err)
	if v.Y != runs*3 {
		t.Fatalf("vel.Y = %v", v.Y)
	}
}

// TestTracingTimeline checks SystemStats' timeline of a traced run: two
// systems that run at once on two goroutines, a third after them, and a
// fourth that a run condition skips on the second run.
func TestTracingTimeline(t *testing.T) {
	w := ecs.NewWorld()
	w.SetPool(ecs.NewPool(1)) // the caller and one worker
	var started atomic.Int32
	// meet returns once both systems have started, or after a second (on
	// one goroutine, they cannot meet: the test then fails on overlap).
	meet := func() {
		started.Add(1)
		for end := time.Now().Add(time.Second); started.Load() < 2 && time.Now().Before(end); {
			runtime.Gosched()
		}
		time.Sleep(time.Millisecond)
	}
	skip := false
	noErr(t, w.AddWorkload("w",
		ecs.System(func(ecs.ViewMut[wPos]) { meet() }).Named("a"),
		ecs.System(func(ecs.ViewMut[wVel]) { meet() }).Named("b"),
		ecs.System(func(ecs.View[wPos], ecs.View[wVel]) { time.Sleep(time.Millisecond) }).Named("c"),
		ecs.System(func(ecs.View[wPos]) {}).Named("d").SkipIf(func() bool { return skip }),
	))
	w.SetTracing(true)
	noErr(t, w.RunWorkload("w"))
	first := w.SystemStats()
	started.Store(0)
	skip = true
	noErr(t, w.RunWorkload("w"))
	st := w.SystemStats()
	a, b, c, d := st[0], st[1], st[2], st[3]
	if a.LastRun == 0 || a.LastRun != b.LastRun || b.LastRun != c.LastRun || a.LastRun != first[0].LastRun+1 {
		t.Fatalf("LastRun: a %d, b %d, c %d, first run %d; want a, b and c in the second run", a.LastRun, b.LastRun, c.LastRun, first[0].LastRun)
	}
	if d.LastRun != first[3].LastRun || d.Runs != 1 {
		t.Fatalf("d, skipped in the second run: %+v, want LastRun %d and 1 run", d, first[3].LastRun)
	}
	if a.LastWorker+b.LastWorker != 1 || a.LastWorker*b.LastWorker != 0 {
		t.Fatalf("a on worker %d, b on %d: want 0 and 1", a.LastWorker, b.LastWorker)
	}
	end := func(s ecs.SystemStats) time.Duration { return s.LastStart + s.Last }
	if a.LastStart < 0 || b.LastStart < 0 || a.LastStart >= end(b) || b.LastStart >= end(a) {
		t.Fatalf("a ran %v+%v, b %v+%v: want them at once", a.LastStart, a.Last, b.LastStart, b.Last)
	}
	if c.LastStart < max(end(a), end(b)) || c.Last < time.Millisecond {
		t.Fatalf("c ran %v+%v, a and b ended at %v and %v: want c after them", c.LastStart, c.Last, end(a), end(b))
	}
	// Off, nothing more is recorded; on again, runs go on being counted.
	w.SetTracing(false)
	noErr(t, w.RunWorkload("w"))
	if got := w.SystemStats()[0]; got != a {
		t.Fatalf("tracing off: %+v, was %+v", got, a)
	}
	w.SetTracing(true)
	skip = false
	started.Store(0)
	noErr(t, w.RunWorkload("w"))
	if got := w.SystemStats()[3]; got.LastRun != a.LastRun+1 || got.LastWorker != 0 {
		t.Fatalf("d after tracing on again: %+v, want run %d on the caller", got, a.LastRun+1)
	}
}

func TestWorkloadStats(t *testing.T) {
	w := ecs.NewWorld()
	noErr(t, w.AddWorkload("b", ecs.System(func() {}).Named("b1")))
	noErr(t, w.AddWorkload("a", ecs.System(func() {}).Named("a1"), ecs.Workload("in", ecs.System(func() {}).Named("a2"))))
	w.SetTracing(true)
	noErr(t, w.RunWorkload("a"))
	st, err := w.WorkloadStats("a")
	noErr(t, err)
	p, err := w.WorkloadPlan("a")
	noErr(t, err)
	if len(st) != len(p.Systems) {
		t.Fatalf("%d stats for %d systems", len(st), len(p.Systems))
	}
	for i, s := range st {
		if s.System != p.Systems[i].Name || s.Workload != p.Systems[i].Workload || s.Runs != 1 {
			t.Fatalf("stats %d: %+v, want system %q in %q, run once", i, s, p.Systems[i].Name, p.Systems[i].Workload)
		}
	}
	if _, err := w.WorkloadStats("nope"); !errors.Is(err, ecs.ErrUnknownWorkload) {
		t.Fatalf("unknown workload: %v, want ErrUnknownWorkload", err)
	}
}

// TestTracingTimesApplyCommands checks that an ApplyCommands item is timed
// as a system is while tracing is on, so that a timeline shows it.
func TestTracingTimesApplyCommands(t *testing.T) {
	w := ecs.NewWorld()
	noErr(t, w.AddWorkload("w",
		ecs.System(func(c ecs.Commands) {
			for range 100 {
				c.AddEntity()
			}
		}).Named("spawn"),
		ecs.ApplyCommands(),
		ecs.System(func(ecs.View[wPos]) {}).Named("read"),
	))
	w.SetTracing(true)
	noErr(t, w.RunWorkload("w"))
	st, err := w.WorkloadStats("w")
	noErr(t, err)
	apply := st[1]
	if apply.Runs != 1 || apply.LastRun != st[0].LastRun || apply.LastStart < st[0].LastStart+st[0].Last || st[2].LastStart < apply.LastStart+apply.Last {
		t.Fatalf("stats %+v: want the ApplyCommands item timed between the two systems", st)
	}
	if w.EntityCount() != 100 {
		t.Fatalf("%d entities, want 100", w.EntityCount())
	}
}
