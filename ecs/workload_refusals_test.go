package ecs_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// Tests of what AddWorkload refuses: systems and run conditions that
// conflict with themselves, and empty labels; and of the plan listing a
// run condition's accesses once.

type rfPos struct{ X float64 }
type rfVel struct{ X float64 }
type rfTick struct{ N int }

// rfMove is a custom view that writes rfPos.
type rfMove struct {
	Pos ecs.ViewMut[rfPos]
	Vel ecs.View[rfVel]
}

// rfTorn is a custom view whose own fields conflict.
type rfTorn struct {
	Read  ecs.View[rfPos]
	Write ecs.ViewMut[rfPos]
}

// rfOuter nests rfMove one level down.
type rfOuter struct {
	Tick  ecs.UniqueView[rfTick]
	Inner rfMove
}

// rfPair holds two rfMove in an array: both write rfPos.
type rfPair struct {
	Pair [2]rfMove
}

// rfHookOnly is a custom view with a hook and no view field: it borrows
// nothing, so it conflicts with nothing, not even an AllStoragesViewMut.
type rfHookOnly struct{}

func (*rfHookOnly) OnBorrow() error { return nil }

// rfWorld returns a world where every view of the tests can be borrowed.
func rfWorld(t *testing.T) *ecs.World {
	t.Helper()
	w := ecs.NewWorld()
	must(t, ecs.AddUnique(w, rfTick{}))
	return w
}

func TestSelfConflictingSystemRefused(t *testing.T) {
	cases := []struct {
		name   string
		sys    any
		param  int      // SystemError.Param
		others []string // what else the message must say
	}{
		{"View and ViewMut", func(ecs.View[rfPos], ecs.ViewMut[rfPos]) {}, 1,
			[]string{"parameter 1 (View[ecs_test.rfPos]) conflicts with parameter 2 (ViewMut[ecs_test.rfPos]) on ecs_test.rfPos"}},
		{"ViewMut and View", func(ecs.ViewMut[rfPos], ecs.View[rfPos]) {}, 1,
			[]string{"parameter 1 (ViewMut[ecs_test.rfPos]) conflicts with parameter 2 (View[ecs_test.rfPos])"}},
		{"ViewMut twice", func(ecs.ViewMut[rfPos], ecs.ViewMut[rfPos]) {}, 1,
			[]string{"parameter 1 (ViewMut[ecs_test.rfPos]) conflicts with parameter 2 (ViewMut[ecs_test.rfPos])"}},
		{"later parameters", func(ecs.View[rfVel], ecs.ViewMut[rfPos], ecs.View[rfVel], ecs.View[rfPos]) {}, 2,
			[]string{"parameter 2 (ViewMut[ecs_test.rfPos]) conflicts with parameter 4 (View[ecs_test.rfPos])"}},
		{"AllStoragesViewMut and EntitiesView", func(ecs.AllStoragesViewMut, ecs.EntitiesView) {}, 1,
			[]string{"parameter 1 (AllStoragesViewMut) conflicts with parameter 2 (EntitiesView) on all storages"}},
		{"EntitiesView and AllStoragesViewMut", func(ecs.EntitiesView, ecs.AllStoragesViewMut) {}, 1,
			[]string{"parameter 1 (EntitiesView) conflicts with parameter 2 (AllStoragesViewMut) on all storages"}},
		{"AllStoragesViewMut and View", func(ecs.AllStoragesViewMut, ecs.View[rfPos]) {}, 1,
			[]string{"parameter 1 (AllStoragesViewMut) conflicts with parameter 2 (View[ecs_test.rfPos])"}},
		{"AllStoragesViewMut and UniqueView", func(ecs.UniqueView[rfTick], ecs.AllStoragesViewMut) {}, 1,
			[]string{"parameter 1 (UniqueView[ecs_test.rfTick]) conflicts with parameter 2 (AllStoragesViewMut)"}},
		{"AllStoragesViewMut twice", func(ecs.AllStoragesViewMut, ecs.AllStoragesViewMut) {}, 1,
			[]string{"parameter 1 (AllStoragesViewMut) conflicts with parameter 2 (AllStoragesViewMut)"}},
		{"EntitiesView and EntitiesViewMut", func(ecs.EntitiesView, ecs.EntitiesViewMut) {}, 1,
			[]string{"parameter 1 (EntitiesView) conflicts with parameter 2 (EntitiesViewMut) on entities"}},
		{"UniqueView and UniqueViewMut", func(ecs.UniqueView[rfTick], ecs.UniqueViewMut[rfTick]) {}, 1,
			[]string{"parameter 1 (UniqueView[ecs_test.rfTick]) conflicts with parameter 2 (UniqueViewMut[ecs_test.rfTick]) on unique ecs_test.rfTick"}},
		{"UniqueViewMut twice", func(ecs.UniqueViewMut[rfTick], ecs.UniqueViewMut[rfTick]) {}, 1,
			[]string{"parameter 1 (UniqueViewMut[ecs_test.rfTick]) conflicts with parameter 2 (UniqueViewMut[ecs_test.rfTick])"}},
		{"custom view and a parameter", func(rfMove, ecs.View[rfPos]) {}, 1,
			[]string{"parameter 1 (ecs_test.rfMove) field Pos (ViewMut[ecs_test.rfPos]) conflicts with parameter 2 (View[ecs_test.rfPos])"}},
		{"parameter and custom view", func(ecs.View[rfVel], ecs.View[rfPos], rfMove) {}, 2,
			[]string{"parameter 2 (View[ecs_test.rfPos]) conflicts with parameter 3 (ecs_test.rfMove) field Pos (ViewMut[ecs_test.rfPos])"}},
		{"two custom views", func(rfMove, rfMove) {}, 1,
			[]string{"parameter 1 (ecs_test.rfMove) field Pos (ViewMut[ecs_test.rfPos]) conflicts with parameter 2 (ecs_test.rfMove) field Pos (ViewMut[ecs_test.rfPos])"}},
		{"nested custom view", func(ecs.View[rfPos], rfOuter) {}, 1,
			[]string{"parameter 1 (View[ecs_test.rfPos]) conflicts with parameter 2 (ecs_test.rfOuter) field Inner.Pos (ViewMut[ecs_test.rfPos])"}},
		{"fields of one custom view", func(ecs.View[rfVel], rfTorn) {}, 2,
			[]string{"parameter 2 (ecs_test.rfTorn) has two views that conflict: field Read (View[ecs_test.rfPos]) and field Write (ViewMut[ecs_test.rfPos]), on ecs_test.rfPos"}},
		{"elements of an array", func([2]ecs.ViewMut[rfPos]) {}, 1,
			[]string{"parameter 1 ([2]ecs.ViewMut[", "has two views that conflict: element [0] (ViewMut[ecs_test.rfPos]) and element [1] (ViewMut[ecs_test.rfPos]), on ecs_test.rfPos"}},
		{"array in a custom view", func(rfPair, ecs.View[rfVel]) {}, 1,
			[]string{"parameter 1 (ecs_test.rfPair) has two views that conflict: field Pair[0].Pos (ViewMut[ecs_test.rfPos]) and field Pair[1].Pos (ViewMut[ecs_test.rfPos])"}},
		{"custom view and an array", func(ecs.View[rfVel], rfOuter, [3]ecs.View[rfPos]) {}, 2,
			[]string{"parameter 2 (ecs_test.rfOuter) field Inner.Pos (ViewMut[ecs_test.rfPos]) conflicts with parameter 3 ([3]ecs.View[", "element [0] (View[ecs_test.rfPos]) on ecs_test.rfPos"}},
		{"typed system", ecs.Func2(func(ecs.ViewMut[rfPos], ecs.ViewMut[rfPos]) {}), 1,
			[]string{"parameter 1 (ViewMut[ecs_test.rfPos]) conflicts with parameter 2 (ViewMut[ecs_test.rfPos])"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := rfWorld(t)
			// Run refuses it with the words AddWorkload uses.
			runErr := w.Run(c.sys)
			errIs(t, runErr, ecs.ErrInvalidSystem)
			errHas(t, runErr, c.others...)
			assertNothingBorrowed(t, w)

			spec := ecs.System(c.sys).Named("torn")
			for k, items := range [][]any{
				{c.sys},
				{func() {}, spec},
				{ecs.Workload("inner", func() {}, ecs.Workload("deeper", spec))},
			} {
				err := w.AddWorkload("w", items...)
				errIs(t, err, ecs.ErrInvalidWorkload)
				errIs(t, err, ecs.ErrInvalidSystem)
				se := errAs[*ecs.SystemError](t, err)
				equal(t, "SystemError.Param", se.Param, c.param)
				errHas(t, err, c.others...)
				errHas(t, err, "every run would fail to borrow")
				if k > 0 {
					errHas(t, err, "system torn")
				} else {
					equal(t, "AddWorkload's message", err.Error(), "ecs: workload w: "+strings.TrimPrefix(runErr.Error(), "ecs: "))
				}
				// The workload's message names the system once.
				if n := strings.Count(err.Error(), "system "); n != 1 {
					t.Errorf("the message says \"system \" %d times: %v", n, err)
				}
				equal(t, "workloads after a refusal", strings.Join(w.Workloads(), ","), "")
			}

			// ReplaceWorkload refuses it too, and keeps the old workload.
			ran := 0
			must(t, w.AddWorkload("keep", func() { ran++ }))
			errIs(t, w.ReplaceWorkload("keep", c.sys), ecs.ErrInvalidSystem)
			must(t, w.RunWorkload("keep"))
			equal(t, "old workload runs", ran, 1)
		})
	}
}

func TestSelfConflictingConditionRefused(t *testing.T) {
	torn := func(ecs.UniqueView[rfTick], ecs.UniqueViewMut[rfTick]) bool { return true }
	tornView := func(ecs.View[rfPos], rfMove) bool { return true }
	const uniq = "parameter 1 (UniqueView[ecs_test.rfTick]) conflicts with parameter 2 (UniqueViewMut[ecs_test.rfTick])"
	cases := []struct {
		name string
		item any
		want []string
	}{
		{"RunIf", ecs.System(func() {}).Named("sys").RunIf(torn), []string{"system sys: bad run condition", uniq}},
		{"SkipIf", ecs.System(func() {}).Named("sys").SkipIf(tornView),
			[]string{"system sys: bad run condition", "parameter 1 (View[ecs_test.rfPos]) conflicts with parameter 2 (ecs_test.rfMove) field Pos (ViewMut[ecs_test.rfPos])"}},
		{"second condition", ecs.System(func() {}).Named("sys").RunIf(func() bool { return true }).RunIf(torn), []string{"system sys: bad run condition", uniq}},
		{"workload RunIf", ecs.Workload("inner", func() {}).RunIf(torn), []string{"workload w/inner: bad run condition", uniq}},
		{"workload SkipIf", ecs.Workload("inner", func() {}).SkipIf(torn), []string{"workload w/inner: bad run condition", uniq}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := rfWorld(t)
			err := w.AddWorkload("w", c.item)
			errIs(t, err, ecs.ErrInvalidWorkload)
			errIs(t, err, ecs.ErrInvalidSystem)
			errHas(t, err, c.want...)
			equal(t, "workloads after a refusal", strings.Join(w.Workloads(), ","), "")
		})
	}
}

func TestNonConflictingParametersAccepted(t *testing.T) {
	type rfGA struct{ X int }
	type rfGB struct{ X int }
	cases := []struct {
		name  string
		item  any
		group bool // add Group[rfGA, rfGB] first, and only build the workload
	}{
		{"View twice", func(ecs.View[rfPos], ecs.View[rfPos]) {}, false},
		{"View and ViewMut of other types", func(ecs.View[rfPos], ecs.ViewMut[rfVel]) {}, false},
		{"EntitiesView twice", func(ecs.EntitiesView, ecs.EntitiesView) {}, false},
		{"UniqueView twice", func(ecs.UniqueView[rfTick], ecs.UniqueView[rfTick]) {}, false},
		{"ViewMut beside a UniqueViewMut of the same type", func(ecs.ViewMut[rfTick], ecs.UniqueViewMut[rfTick]) {}, false},
		{"EntitiesViewMut beside component views", func(ecs.EntitiesViewMut, ecs.ViewMut[rfPos], ecs.View[rfVel]) {}, false},
		{"AllStoragesViewMut alone", func(ecs.AllStoragesViewMut) {}, false},
		{"AllStoragesViewMut and a view that borrows nothing", func(ecs.AllStoragesViewMut, rfHookOnly) {}, false},
		{"custom view beside a reader of another type", func(rfMove, ecs.View[rfVel]) {}, false},
		{"array of Views", func([3]ecs.View[rfPos], ecs.View[rfPos]) {}, false},
		{"condition reads what its system writes", ecs.System(func(ecs.UniqueViewMut[rfTick]) {}).RunIf(func(ecs.UniqueView[rfTick]) bool { return true }), false},
		{"conditions write the same unique", ecs.System(func() {}).
			RunIf(func(ecs.UniqueViewMut[rfTick]) bool { return true }).
			SkipIf(func(ecs.UniqueViewMut[rfTick]) bool { return false }), false},
		{"workload condition and system condition", ecs.Workload("inner",
			ecs.System(func(ecs.ViewMut[rfPos]) {}).RunIf(func(ecs.ViewMut[rfPos]) bool { return true }),
		).RunIf(func(ecs.ViewMut[rfPos]) bool { return true }), false},
		// A ViewMut of one group member borrows the others for the
		// frame: a View of another member beside it is allowed.
		{"View and ViewMut of two group members", func(ecs.View[rfGA], ecs.ViewMut[rfGB]) {}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := rfWorld(t)
			if c.group {
				// How such a frame borrows at run time is another
				// matter (see groupBorrows): here it must not be refused.
				must(t, ecs.AddGroup2[rfGA, rfGB](w))
				must(t, w.AddWorkload("w", c.item))
				return
			}
			must(t, w.AddWorkload("w", c.item))
			must(t, w.RunWorkload("w"))
			switch c.item.(type) {
			case *ecs.SystemSpec, *ecs.WorkloadSpec:
			default:
				must(t, w.Run(c.item)) // a plain function runs alone as well
			}
		})
	}
}

// TestEmptyLabelRefused: empty labels, and an empty system name.
func TestEmptyLabelRefused(t *testing.T) {
	sys := func() {}
	cases := []struct {
		name string
		item any
		want string
	}{
		{"system Label", ecs.System(sys).Named("s").Label(""), `system s: Label(""): the label is empty`},
		{"system Label among others", ecs.System(sys).Named("s").Label("a", ""), `system s: Label("a", ""): label 2 is empty`},
		{"system Before", ecs.System(sys).Named("s").Before(""), `system s: Before(""): the label is empty`},
		{"system After", ecs.System(sys).Named("s").After(""), `system s: After(""): the label is empty`},
		{"first problem kept", ecs.System(sys).Named("s").After("").Before(""), `system s: After(""): the label is empty`},
		{"named afterwards", ecs.System(sys).Before("").Named("late"), `system late: Before(""): the label is empty`},
		{"workload Label", ecs.Workload("inner", sys).Label(""), `workload w/inner: Label(""): the label is empty`},
		{"workload Before", ecs.Workload("inner", sys).Before(""), `workload w/inner: Before(""): the label is empty`},
		{"workload After", ecs.Workload("inner", sys).After(""), `workload w/inner: After(""): the label is empty`},
		{"deeper workload", ecs.Workload("inner", ecs.Workload("deeper", sys).Label("x", "")),
			`workload w/inner/deeper: Label("x", ""): label 2 is empty`},
		{"system in a workload", ecs.Workload("inner", ecs.System(sys).Named("s").After("")),
			`workload w/inner: system s: After(""): the label is empty`},
		{"empty name", ecs.System(sys).Named(""), `Named(""): the name is empty`},
		{"empty name after a name", ecs.System(sys).Named("s").Named(""), `system s: Named(""): the name is empty`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := ecs.NewWorld()
			err := w.AddWorkload("w", ecs.System(sys).Named("first"), c.item)
			errIs(t, err, ecs.ErrInvalidWorkload)
			if errors.Is(err, ecs.ErrCyclicOrdering) {
				t.Errorf("an empty label is reported as a cycle: %v", err)
			}
			errHas(t, err, c.want)
			equal(t, "workloads after a refusal", strings.Join(w.Workloads(), ","), "")
		})
	}
	// Labels with a name still work, and Label() with none is harmless.
	w := ecs.NewWorld()
	var order []string
	must(t, w.AddWorkload("w",
		ecs.System(func() { order = append(order, "b") }).Named("b").Label().After("a-label"),
		ecs.System(func() { order = append(order, "a") }).Named("a").Label("a-label"),
	))
	must(t, w.RunWorkload("w"))
	equal(t, "order", strings.Join(order, ","), "a,b")
}

func TestPlanListsConditionAccessOnce(t *testing.T) {
	w := rfWorld(t)
	tick := func(ecs.UniqueView[rfTick]) bool { return true }
	must(t, w.AddWorkload("w",
		ecs.Workload("inner",
			ecs.System(func(ecs.UniqueView[rfTick], ecs.View[rfPos]) {}).Named("fail").RunIf(tick).SkipIf(func(ecs.View[rfPos], ecs.UniqueView[rfTick]) bool { return false }),
			ecs.System(func(ecs.ViewMut[rfPos]) {}).Named("write").RunIf(func(ecs.View[rfPos]) bool { return true }),
		).RunIf(tick),
	))
	p, err := w.WorkloadPlan("w")
	must(t, err)
	const want = `workload "w": 2 systems in 2 batches
batch 0:
  #0 "fail" in "w/inner" {UniqueView[ecs_test.rfTick], View[ecs_test.rfPos]}
batch 1:
  #1 "write" in "w/inner" {ViewMut[ecs_test.rfPos], View[ecs_test.rfPos], UniqueView[ecs_test.rfTick]}
      after #0 "fail": conflict: ViewMut[ecs_test.rfPos] vs View[ecs_test.rfPos] on ecs_test.rfPos
`
	if got := p.String(); got != want {
		t.Errorf("plan:\n--- got\n%s--- want\n%s", got, want)
	}
	must(t, w.RunWorkload("w"))
}

// TestSystemFailureMessages: a run's failure names the system once; the
// package's own errors keep "ecs: " in front, the system's own words stay
// as they are.
func TestSystemFailureMessages(t *testing.T) {
	w := rfWorld(t)
	boom := ecs.System(func() error { return errors.New("boom") }).Named("boomer")
	must(t, w.AddWorkload("w", boom))
	err := w.RunWorkload("w")
	equal(t, "workload run", err.Error(), "ecs: workload w: system boomer: boom")

	torn := func(ecs.ViewMut[rfPos], ecs.ViewMut[rfPos]) {}
	err = w.Run(torn)
	errIs(t, err, ecs.ErrBorrowConflict)
	msg := err.Error()
	isTrue(t, strings.HasPrefix(msg, "ecs: system ") && strings.Count(msg, "ecs: ") == 1,
		"a failed borrow reads %q", msg)
	err = w.Run(func() error { return errors.New("boom") })
	isTrue(t, strings.HasPrefix(err.Error(), "system ") && strings.HasSuffix(err.Error(), ": boom"),
		"a system's own error reads %q", err.Error())
}
