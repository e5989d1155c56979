package ecs_test

import (
	"strings"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// The exact texts of the messages a newcomer meets first: views of one
// system that conflict, a view used after its release, a cycle of
// Before/After constraints. Each names what is wrong and how to fix it.

type msgPos struct{ X float32 }
type msgTick struct{ N int }

func msgSwap(a, b ecs.ViewMut[msgPos])                                    {}
func msgReadWrite(a ecs.View[msgPos], b ecs.ViewMut[msgPos])              {}
func msgTwoUniques(a, b ecs.UniqueViewMut[msgTick])                       {}
func msgUniqueRW(a ecs.UniqueView[msgTick], b ecs.UniqueViewMut[msgTick]) {}
func msgEntities(a ecs.EntitiesView, b ecs.EntitiesViewMut)               {}
func msgAllAndView(a ecs.AllStoragesViewMut, b ecs.View[msgPos])          {}

// TestSelfConflictMessages: World.Run, World.AddWorkload and World.Borrow
// of views that conflict with each other give one message, with the fix;
// nothing is borrowed or added.
func TestSelfConflictMessages(t *testing.T) {
	const (
		fixOne = " (take one view of it: an exclusive view reads as well)"
		fixAll = " (AllStoragesViewMut reaches every storage itself: take no other view beside it)"
	)
	cases := []struct {
		name   string
		sys    any
		sysFn  string       // the system's name
		borrow func() []any // the same views, for World.Borrow
		detail string       // the message after "system NAME: "
	}{
		{"ViewMut twice", msgSwap, "ecs_test.msgSwap",
			func() []any { var a, b ecs.ViewMut[msgPos]; return []any{&a, &b} },
			"parameter 1 (ViewMut[ecs_test.msgPos]) conflicts with parameter 2 (ViewMut[ecs_test.msgPos]) on ecs_test.msgPos; the views are borrowed together, so every run would fail to borrow ecs_test.msgPos" + fixOne},
		{"View and ViewMut of one type", msgReadWrite, "ecs_test.msgReadWrite",
			func() []any { var a ecs.View[msgPos]; var b ecs.ViewMut[msgPos]; return []any{&a, &b} },
			"parameter 1 (View[ecs_test.msgPos]) conflicts with parameter 2 (ViewMut[ecs_test.msgPos]) on ecs_test.msgPos; the views are borrowed together, so every run would fail to borrow ecs_test.msgPos" + fixOne},
		{"UniqueViewMut twice", msgTwoUniques, "ecs_test.msgTwoUniques",
			func() []any { var a, b ecs.UniqueViewMut[msgTick]; return []any{&a, &b} },
			"parameter 1 (UniqueViewMut[ecs_test.msgTick]) conflicts with parameter 2 (UniqueViewMut[ecs_test.msgTick]) on unique ecs_test.msgTick; the views are borrowed together, so every run would fail to borrow unique ecs_test.msgTick" + fixOne},
		{"UniqueView and UniqueViewMut", msgUniqueRW, "ecs_test.msgUniqueRW",
			func() []any { var a ecs.UniqueView[msgTick]; var b ecs.UniqueViewMut[msgTick]; return []any{&a, &b} },
			"parameter 1 (UniqueView[ecs_test.msgTick]) conflicts with parameter 2 (UniqueViewMut[ecs_test.msgTick]) on unique ecs_test.msgTick; the views are borrowed together, so every run would fail to borrow unique ecs_test.msgTick" + fixOne},
		{"EntitiesView and EntitiesViewMut", msgEntities, "ecs_test.msgEntities",
			func() []any { var a ecs.EntitiesView; var b ecs.EntitiesViewMut; return []any{&a, &b} },
			"parameter 1 (EntitiesView) conflicts with parameter 2 (EntitiesViewMut) on entities; the views are borrowed together, so every run would fail to borrow entities" + fixOne},
		{"AllStoragesViewMut and a View", msgAllAndView, "ecs_test.msgAllAndView",
			func() []any { var a ecs.AllStoragesViewMut; var b ecs.View[msgPos]; return []any{&a, &b} },
			"parameter 1 (AllStoragesViewMut) conflicts with parameter 2 (View[ecs_test.msgPos]) on all storages; the views are borrowed together, so every run would fail to borrow all storages" + fixAll},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := ecs.NewWorld()
			must(t, ecs.AddUnique(w, msgTick{}))
			name := c.sysFn

			err := w.Run(c.sys)
			equal(t, "Run's message", errText(err), "ecs: system "+name+": "+c.detail)
			errIs(t, err, ecs.ErrInvalidSystem)
			errIs(t, err, ecs.ErrBorrowConflict)

			err = w.AddWorkload("w", c.sys)
			equal(t, "AddWorkload's message", errText(err), "ecs: workload w: system "+name+": "+c.detail)
			errIs(t, err, ecs.ErrInvalidSystem)

			release, err := w.Borrow(c.borrow()...)
			isTrue(t, release == nil, "a refused Borrow returned a release function")
			want := "ecs: system World.Borrow: " + strings.Replace(c.detail, "every run", "every call", 1)
			equal(t, "Borrow's message", errText(err), want)
			errIs(t, err, ecs.ErrInvalidView)
			errIs(t, err, ecs.ErrBorrowConflict)

			equal(t, "workloads", len(w.Workloads()), 0)
			assertNothingBorrowed(t, w)
		})
	}
}

// TestReleasedViewMessages: every kind of view used after its release (or
// never borrowed) panics with an error wrapping ErrReleased that names the
// view and its type, and says "release" only where it gives the fix.
func TestReleasedViewMessages(t *testing.T) {
	const (
		after = " used after its system returned or its Borrow was released (or never borrowed): use a view only inside its system, or before calling the release function of World.Borrow"
	)
	w := ecs.NewWorld()
	id, err := ecs.AddEntity1(w, msgPos{})
	must(t, err)
	must(t, ecs.AddUnique(w, msgTick{}))

	var (
		v   ecs.View[msgPos]
		vm  ecs.ViewMut[msgPos]
		u   ecs.UniqueView[msgTick]
		um  ecs.UniqueViewMut[msgTick]
		e   ecs.EntitiesView
		em  ecs.EntitiesViewMut
		all ecs.AllStoragesViewMut
	)
	release, err := w.Borrow(&v, &u, &e)
	must(t, err)
	release()
	release, err = w.Borrow(&vm, &um, &em)
	must(t, err)
	moving := ecs.Join1(vm)
	release()
	release, err = w.Borrow(&all)
	must(t, err)
	release()
	var escaped ecs.ViewMut[msgPos]
	must(t, w.Run(func(p ecs.ViewMut[msgPos]) { escaped = p }))
	var never ecs.View[msgPos]
	var neverEnts ecs.EntitiesView
	var mid ecs.View[msgPos]
	release, err = w.Borrow(&mid)
	must(t, err)
	cursor := ecs.Join1(mid)
	if !cursor.Next() {
		t.Fatal("the cursor found no entity")
	}
	release()

	cases := []struct {
		name string
		use  func()
		view string // what the message names
	}{
		{"View.Get", func() { v.Get(id) }, "View[ecs_test.msgPos]"},
		{"View.Len", func() { v.Len() }, "View[ecs_test.msgPos]"},
		{"ViewMut.Get", func() { vm.Get(id) }, "ViewMut[ecs_test.msgPos]"},
		{"ViewMut escaped from its system", func() { escaped.Len() }, "ViewMut[ecs_test.msgPos]"},
		{"a join of a released ViewMut", func() { moving.Count() }, "ViewMut[ecs_test.msgPos]"},
		{"Join1 of a released View", func() { ecs.Join1(v) }, "View[ecs_test.msgPos]"},
		{"a cursor whose View was released mid-iteration", func() { cursor.Next() }, "View[ecs_test.msgPos]"},
		{"Join1 of a View never borrowed", func() { ecs.Join1(never) }, "a view of ecs_test.msgPos"},
		{"a View never borrowed", func() { never.Len() }, "View[ecs_test.msgPos]"},
		{"UniqueView.Get", func() { u.Get() }, "UniqueView[ecs_test.msgTick]"},
		{"UniqueViewMut.Get", func() { um.Get() }, "UniqueViewMut[ecs_test.msgTick]"},
		{"EntitiesView.IsAlive", func() { e.IsAlive(id) }, "EntitiesView"},
		{"EntitiesViewMut.AddEntity", func() { em.AddEntity() }, "EntitiesViewMut"},
		{"an EntitiesView never borrowed", func() { neverEnts.Len() }, "EntitiesView (or EntitiesViewMut)"},
		{"AllStoragesViewMut.AddEntity", func() { all.AddEntity() }, "AllStoragesViewMut"},
		{"AllStoragesViewMut.DeleteEntity", func() { _ = all.DeleteEntity(id) }, "AllStoragesViewMut"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := recovered(c.use)
			err, _ := r.(error)
			if err == nil {
				t.Fatalf("panicked with %v (%T), want an error", r, r)
			}
			equal(t, "message", err.Error(), "ecs: "+c.view+after)
			errIs(t, err, ecs.ErrReleased)
		})
	}
	equal(t, "EntityCount", w.EntityCount(), 1)
	assertNothingBorrowed(t, w)
}

func msgMove(ecs.View[msgPos])   {}
func msgBounce(ecs.View[msgPos]) {}
func msgDraw(ecs.View[msgPos])   {}

// TestCycleMessages: a cycle of Before/After constraints names, step by
// step, which system must run before which and the constraint that says
// so, labels quoted and told from systems.
func TestCycleMessages(t *testing.T) {
	const (
		move   = "ecs_test.msgMove"
		bounce = "ecs_test.msgBounce"
		draw   = "ecs_test.msgDraw"
	)
	cases := []struct {
		name  string
		items []any
		want  string // after "ecs: workload w: cyclic ordering: "
	}{
		{"through labels", []any{
			ecs.System(msgMove).Label("motion").Before("physics"),
			ecs.System(msgBounce).Label("physics").Before("motion"),
		}, `system ecs_test.msgMove must run before system ecs_test.msgBounce (ecs_test.msgMove has Before("physics"), and label "physics" includes ecs_test.msgBounce); ` +
			`system ecs_test.msgBounce must run before system ecs_test.msgMove (ecs_test.msgBounce has Before("motion"), and label "motion" includes ecs_test.msgMove)`},
		{"through systems' names", []any{
			ecs.System(msgMove).Before(bounce),
			ecs.System(msgBounce).Before(move),
		}, `system ecs_test.msgMove must run before system ecs_test.msgBounce (ecs_test.msgMove has Before("ecs_test.msgBounce")); ` +
			`system ecs_test.msgBounce must run before system ecs_test.msgMove (ecs_test.msgBounce has Before("ecs_test.msgMove"))`},
		{"Before naming the system's own name", []any{
			ecs.System(msgMove).Before(move),
		}, `system ecs_test.msgMove must run before itself (ecs_test.msgMove has Before("ecs_test.msgMove"))`},
		{"Before naming the other system, which is After the label", []any{
			ecs.System(msgMove).Label("physics"),
			ecs.System(msgBounce).Before(move).After("physics"),
		}, `system ecs_test.msgMove must run before system ecs_test.msgBounce (ecs_test.msgBounce has After("physics"), and label "physics" includes ecs_test.msgMove); ` +
			`system ecs_test.msgBounce must run before system ecs_test.msgMove (ecs_test.msgBounce has Before("ecs_test.msgMove"))`},
		{"After its own label", []any{
			ecs.System(msgMove).Label("physics").After("physics"),
		}, `system ecs_test.msgMove must run before itself (ecs_test.msgMove has After("physics"), and label "physics" includes ecs_test.msgMove)`},
		{"three steps", []any{
			ecs.System(msgMove).Before("collide"),
			ecs.System(msgBounce).Label("collide").Before(draw),
			ecs.System(msgDraw).After("ecs_test.msgBounce").Before(move),
		}, `system ecs_test.msgMove must run before system ecs_test.msgBounce (ecs_test.msgMove has Before("collide"), and label "collide" includes ecs_test.msgBounce); ` +
			`system ecs_test.msgBounce must run before system ecs_test.msgDraw (ecs_test.msgBounce has Before("ecs_test.msgDraw")); ` +
			`system ecs_test.msgDraw must run before system ecs_test.msgMove (ecs_test.msgDraw has Before("ecs_test.msgMove"))`},
		{"three steps through a workload's label", []any{
			ecs.Workload("physics", msgMove, msgBounce).Before("render"),
			ecs.Workload("render", ecs.System(msgDraw).Before("ecs_test.msgMove")),
		}, `system ecs_test.msgMove must run before system ecs_test.msgDraw (ecs_test.msgMove has Before("render"), and label "render" includes ecs_test.msgDraw); ` +
			`system ecs_test.msgDraw must run before system ecs_test.msgMove (ecs_test.msgDraw has Before("ecs_test.msgMove"))`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := ecs.NewWorld()
			err := w.AddWorkload("w", c.items...)
			equal(t, "message", errText(err), "ecs: workload w: cyclic ordering: "+c.want)
			errIs(t, err, ecs.ErrCyclicOrdering)
			equal(t, "workloads", len(w.Workloads()), 0)
		})
	}
}

// TestSystemStatsNamesSystemsNeverRun: a system whose run condition kept
// it from running is listed by SystemStats with its name and no runs.
func TestSystemStatsNamesSystemsNeverRun(t *testing.T) {
	cases := []struct {
		name    string
		tracing bool
		skip    bool
		runs    int
	}{
		{"skipped by its condition", true, true, 0},
		{"run with tracing off", false, false, 0},
		{"run with tracing on", true, false, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := ecs.NewWorld()
			w.SetTracing(c.tracing)
			must(t, w.AddWorkload("w",
				msgMove,
				ecs.Workload("inner", ecs.System(msgBounce).Named("skipped").RunIf(func() bool { return !c.skip }))))
			must(t, w.RunWorkload("w"))
			must(t, w.RunWorkload("w"))
			stats := w.SystemStats()
			if len(stats) != 2 {
				t.Fatalf("SystemStats lists %d systems, want 2: %+v", len(stats), stats)
			}
			equal(t, "first system", stats[0].System, "ecs_test.msgMove")
			equal(t, "first workload", stats[0].Workload, "w")
			equal(t, "second system", stats[1].System, "skipped")
			equal(t, "second workload", stats[1].Workload, "w/inner")
			equal(t, "second runs", stats[1].Runs, c.runs)
		})
	}
}

// errText returns err's message, or "<nil>".
func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}
