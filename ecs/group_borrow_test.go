package ecs_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/slipway-ecs/slipway/ecs"
)

// Types of the group tests of borrowing: GA, GB and GC form a group, GD
// is outside it.
type (
	GA struct{ V int }
	GB struct{ V int }
	GC struct{ V int }
	GD struct{ V int }
	// GT tracks insertions.
	GT struct{ V int }
)

func (GT) Tracking() ecs.Tracking { return ecs.TrackInsertion }

// groupWorld returns a world with Group[GA, GB, GC] and n entities with
// GA only.
func groupWorld(t *testing.T, n int) (*ecs.World, []ecs.EntityID) {
	t.Helper()
	w := ecs.NewWorld()
	noErr(t, ecs.AddGroup3[GA, GB, GC](w))
	as := make([]GA, n)
	for i := range as {
		as[i] = GA{i}
	}
	ids, err := ecs.BulkAddEntity1(w, as)
	noErr(t, err)
	return w, ids
}

// A ViewMut of one group member moves the other members' components when
// it adds or removes, so it borrows them too: a view of another member
// held elsewhere conflicts with it, in either order, and World-level
// reads of the other members wait for it. Views of members conflict with
// nothing while no ViewMut of a member is held.
func TestGroupMemberViewMutBorrowsTheOtherMembers(t *testing.T) {
	const moves = " (which moves ecs_test.GA: Group[ecs_test.GA, ecs_test.GB, ecs_test.GC])"
	cases := []struct {
		name     string
		first    func() any // borrowed first, and kept
		second   func() any
		resource string // "" if the second borrow succeeds
		access   string
		held     string
	}{
		{"View of a member, then ViewMut of another", view[GA], viewMut[GB], "ecs_test.GA", "ViewMut[ecs_test.GB]" + moves, "View[ecs_test.GA]"},
		{"ViewMut of a member, then View of another", viewMut[GB], view[GA], "ecs_test.GA", "View[ecs_test.GA]", "ViewMut[ecs_test.GB]" + moves},
		{"ViewMut of a member, then ViewMut of another", viewMut[GB], viewMut[GA], "ecs_test.GB", "ViewMut[ecs_test.GA] (which moves ecs_test.GB: Group[ecs_test.GA, ecs_test.GB, ecs_test.GC])", "ViewMut[ecs_test.GB]"},
		{"ViewMut of a member, then View of the third", viewMut[GA], view[GC], "ecs_test.GC", "View[ecs_test.GC]", "ViewMut[ecs_test.GA] (which moves ecs_test.GC: Group[ecs_test.GA, ecs_test.GB, ecs_test.GC])"},
		{"View and ViewMut of members in one frame, then View of the first", viewAndMut, view[GA], "ecs_test.GA", "View[ecs_test.GA]", "ViewMut[ecs_test.GB]" + moves},
		{"Views of two members", view[GA], view[GB], "", "", ""},
		{"ViewMut of a member, then View outside the group", viewMut[GB], view[GD], "", "", ""},
		{"ViewMut outside the group, then View of a member", viewMut[GD], view[GA], "", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, _ := groupWorld(t, 3)
			release, err := w.Borrow(c.first())
			noErr(t, err)
			defer release()
			release2, err := w.Borrow(c.second())
			if c.resource == "" {
				noErr(t, err)
				release2()
				return
			}
			var be *ecs.BorrowError
			if !errors.As(err, &be) {
				t.Fatalf("second borrow: got %v, want a *BorrowError", err)
			}
			if be.Resource != c.resource || be.Access != c.access || be.HeldAccess != c.held {
				t.Fatalf("got resource %q, access %q, held %q; want %q, %q, %q\n(%v)", be.Resource, be.Access, be.HeldAccess, c.resource, c.access, c.held, err)
			}
		})
	}
}

func view[T any]() any    { return new(ecs.View[T]) }
func viewMut[T any]() any { return new(ecs.ViewMut[T]) }

// readWrite is a custom view reading one member and writing another.
type readWrite struct {
	A ecs.View[GA]
	B ecs.ViewMut[GB]
}

func viewAndMut() any { return new(readWrite) }

// A frame holding a ViewMut of a member may read another member through
// several views: it borrows that member once, for all of them.
func TestGroupFrameReadsAMemberTwice(t *testing.T) {
	w, ids := groupWorld(t, 3)
	var a1, a2 ecs.View[GA]
	var b ecs.ViewMut[GB]
	release, err := w.Borrow(&a1, &a2, &b)
	noErr(t, err)
	if p, ok := a2.Get(ids[2]); !ok || p.V != 2 {
		t.Fatalf("GA of %v = %v, %v", ids[2], p, ok)
	}
	release()

	sys := func(rw readWrite, a ecs.View[GA]) {}
	noErr(t, w.Run(sys))
	noErr(t, w.AddWorkload("reads", sys))
	noErr(t, w.RunWorkload("reads"))
	// Everything was given back.
	r, err := w.Borrow(viewMut[GA](), viewMut[GB](), viewMut[GC]())
	noErr(t, err)
	r()
}

// A failed borrow of a group member's ViewMut leaves nothing borrowed, and
// releasing a successful one frees every member.
func TestGroupBorrowsAreGivenBack(t *testing.T) {
	w, ids := groupWorld(t, 3)
	var c ecs.View[GC]
	releaseC, err := w.Borrow(&c)
	noErr(t, err)
	var b ecs.ViewMut[GB]
	if _, err := w.Borrow(&b); !errors.Is(err, ecs.ErrBorrowConflict) {
		t.Fatalf("ViewMut[GB] while View[GC] is held: got %v, want a borrow conflict", err)
	}
	// GA was taken before GC failed: it must be free again.
	var a ecs.View[GA]
	releaseA, err := w.Borrow(&a)
	if err == nil {
		releaseA()
	}
	noErr(t, err)
	releaseC()

	release, err := w.Borrow(&b)
	noErr(t, err)
	if _, err := ecs.Get[GA](w, ids[0]); !errors.Is(err, ecs.ErrBorrowConflict) {
		t.Fatalf("World-level Get of GA while ViewMut[GB] is held: got %v, want a borrow conflict", err)
	}
	release()
	got, err := ecs.Get[GA](w, ids[0])
	noErr(t, err)
	if got.V != 0 {
		t.Fatalf("Get[GA] = %v, want {0}", got)
	}
	for _, v := range []func() any{viewMut[GA], viewMut[GB], viewMut[GC]} {
		r, err := w.Borrow(v())
		noErr(t, err)
		r()
	}
}

// One frame (a system, or one World.Borrow) may hold views of several
// members, whatever their kinds: its View of a member beside its ViewMut
// of another is then exclusive, so no other reader sees the moves, and the
// frame itself cannot move the components its View reads: adding or
// removing the other member's components is refused, changing nothing
// (see also TestGroupRefusesMovesUnderAView).
func TestGroupFrameHoldsSeveralMembers(t *testing.T) {
	w, ids := groupWorld(t, 4)
	var a ecs.View[GA]
	var b ecs.ViewMut[GB]
	var c ecs.ViewMut[GC]
	var e ecs.EntitiesView
	release, err := w.Borrow(&a, &b, &c, &e)
	noErr(t, err)
	for _, id := range ids {
		if p, ok := a.Get(id); !ok || p.V != int(id.Index()) {
			t.Fatalf("GA of %v = %v, %v", id, p, ok)
		}
	}
	if err := b.AddComponent(e, ids[1], GB{1}); !strings.Contains(fmt.Sprint(err), "View[ecs_test.GA]") {
		t.Errorf("error %v, want it to name the View it would move components under", err)
	}
	if b.Contains(ids[1]) || b.Len() != 0 {
		t.Errorf("the refused addition changed the storage: Contains %v, Len %d", b.Contains(ids[1]), b.Len())
	}
	if _, err := w.Borrow(view[GA]()); !errors.Is(err, ecs.ErrBorrowConflict) {
		t.Fatalf("View[GA] elsewhere beside a frame with View[GA] and ViewMut[GB]: got %v, want a borrow conflict", err)
	}
	release()
	if n, _, err := ecs.GroupLen[GA](w); err != nil || n != 0 {
		t.Fatalf("GroupLen = %d, want 0", n)
	}
	// With a ViewMut of the member read, the same additions move it.
	var am ecs.ViewMut[GA]
	release, err = w.Borrow(&am, &b, &c, &e)
	noErr(t, err)
	for _, id := range ids[1:] {
		noErr(t, b.AddComponent(e, id, GB{1}))
		noErr(t, c.AddComponent(e, id, GC{2}))
	}
	for _, id := range ids {
		if p, ok := am.Get(id); !ok || p.V != int(id.Index()) {
			t.Fatalf("GA of %v = %v, %v after the group moved it", id, p, ok)
		}
	}
	release()
	if n, _, err := ecs.GroupLen[GA](w); err != nil || n != 3 {
		t.Fatalf("GroupLen = %d, want 3", n)
	}
	// Two writers of members borrow the third member once.
	r2, err := w.Borrow(viewMut[GA](), viewMut[GB]())
	noErr(t, err)
	if _, err := w.Borrow(view[GC]()); !errors.Is(err, ecs.ErrBorrowConflict) {
		t.Fatalf("View[GC] beside ViewMut[GA] and ViewMut[GB]: got %v, want a borrow conflict", err)
	}
	r2()
	// Two readers of members, with no writer, share.
	r1, err := w.Borrow(view[GA]())
	noErr(t, err)
	r3, err := w.Borrow(view[GA](), view[GB]())
	noErr(t, err)
	r3()
	r1()

	// A system with both kinds runs and changes values; a removal there
	// panics, and the system's views are released.
	noErr(t, w.Run(func(a ecs.View[GA], b ecs.ViewMut[GB]) {
		for id, pb := range b.WithID() {
			pa, _ := a.Get(id)
			pb.V = pa.V
		}
	}))
	mustPanic(t, func() {
		_ = w.Run(func(a ecs.View[GA], b ecs.ViewMut[GB]) { b.Remove(ids[1]) })
	})
	if n, _, err := ecs.GroupLen[GA](w); err != nil || n != 3 {
		t.Fatalf("GroupLen = %d after the refused removal, want 3", n)
	}
	nothingHeld(t, w)
}

// Workload plans know that a ViewMut of a member writes the others: a
// reader of another member runs in the next batch, also when the group
// was added after the workload, and the workload runs with no borrow
// error (and, under -race, no data race).
func TestGroupWorkloadOrdersMembersViews(t *testing.T) {
	for _, late := range []bool{false, true} {
		name := "group first"
		if late {
			name = "group added after the workload"
		}
		t.Run(name, func(t *testing.T) {
			w := ecs.NewWorld()
			if !late {
				noErr(t, ecs.AddGroup2[GA, GB](w))
			}
			as := make([]GA, 500)
			for i := range as {
				as[i] = GA{i}
			}
			ids, err := ecs.BulkAddEntity1(w, as)
			noErr(t, err)
			adder := func(e ecs.EntitiesView, b ecs.ViewMut[GB]) error {
				for _, id := range ids {
					if err := b.AddComponent(e, id, GB{1}); err != nil {
						return err
					}
				}
				for _, id := range ids {
					b.Remove(id)
				}
				return nil
			}
			var sum int
			reader := func(a ecs.View[GA]) {
				sum = 0
				for p := range a.All() {
					sum += p.V
				}
			}
			outside := func(d ecs.ViewMut[GD]) {}
			noErr(t, w.AddWorkload("frame", adder, reader, outside))
			if late {
				p, err := w.WorkloadPlan("frame")
				noErr(t, err)
				if len(p.Batches) != 1 {
					t.Fatalf("before the group, the plan has %d batches, want 1:\n%s", len(p.Batches), p)
				}
				noErr(t, ecs.AddGroup2[GA, GB](w))
			}
			p, err := w.WorkloadPlan("frame")
			noErr(t, err)
			if len(p.Batches) != 2 || p.Systems[1].Batch != 1 || p.Systems[2].Batch != 0 {
				t.Fatalf("the reader of GA should follow the ViewMut[GB] system, the third run beside it:\n%s", p)
			}
			if want := "conflict: View[ecs_test.GA] vs ViewMut[ecs_test.GB] (which moves ecs_test.GA: Group[ecs_test.GA, ecs_test.GB]) on ecs_test.GA"; p.Systems[1].Reason != want {
				t.Fatalf("reason %q, want %q", p.Systems[1].Reason, want)
			}
			for range 20 {
				noErr(t, w.RunWorkload("frame"))
			}
			if want := 500 * 499 / 2; sum != want {
				t.Fatalf("reader summed %d, want %d", sum, want)
			}
			if !strings.Contains(p.String(), "ViewMut[ecs_test.GB]") {
				t.Fatalf("plan does not name the writer:\n%s", p)
			}
		})
	}
}

// A plan built again because a group was added keeps what each system
// knew of its previous runs: a system iterating insertions since its last
// run does not see the old ones again.
func TestGroupReplanKeepsTracking(t *testing.T) {
	w := ecs.NewWorld()
	var seen []int
	sys := func(v ecs.View[GT]) error {
		ins, err := v.Inserted()
		if err != nil {
			return err
		}
		seen = append(seen, ins.Count())
		return nil
	}
	noErr(t, w.AddWorkload("track", sys))
	_, err := ecs.BulkAddEntity1(w, make([]GT, 5))
	noErr(t, err)
	noErr(t, w.RunWorkload("track"))
	noErr(t, ecs.AddGroup2[GA, GB](w))
	noErr(t, w.RunWorkload("track"))
	_, err = ecs.BulkAddEntity1(w, make([]GT, 2))
	noErr(t, err)
	noErr(t, w.RunWorkload("track"))
	if want := []int{5, 0, 2}; !slices.Equal(seen, want) {
		t.Fatalf("insertions seen per run = %v, want %v", seen, want)
	}
}

// Two runs racing to use a workload planned again for a new group, one
// on the plan it replaced: the borrows keep them apart, so a system that
// writes never runs beside itself; the run that loses gets a BorrowError.
func TestGroupReplanRunsOnce(t *testing.T) {
	for range 50 {
		w := ecs.NewWorld()
		var active, most atomic.Int32
		sys := func(ecs.ViewMut[GD]) {
			n := active.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			time.Sleep(time.Millisecond)
			active.Add(-1)
		}
		noErr(t, w.AddWorkload("w", sys))
		noErr(t, ecs.AddGroup2[GA, GB](w))
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make([]error, 2)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				errs[i] = w.RunWorkload("w")
			}()
		}
		close(start)
		wg.Wait()
		if most.Load() > 1 {
			t.Fatalf("the workload ran twice at once (%v, %v)", errs[0], errs[1])
		}
		for _, err := range errs {
			if err != nil && !errors.Is(err, ecs.ErrBorrowConflict) {
				t.Fatalf("run: %v, want nil or ErrBorrowConflict", err)
			}
		}
	}
}

// A workload planned again for a new group is the workload as it was
// added: changes made afterwards to the specs and the slice it was built
// from do not reach it.
func TestGroupReplanKeepsTheWorkloadAsAdded(t *testing.T) {
	w := ecs.NewWorld()
	runs := 0
	spec := ecs.System(func(ecs.View[GD]) { runs++ })
	items := []any{spec}
	noErr(t, w.AddWorkload("w", items...))
	spec.RunIf(func() bool { return false })
	items[0] = func(ecs.ViewMut[GD]) { t.Error("a system put in the slice after AddWorkload ran") }
	noErr(t, ecs.AddGroup2[GA, GB](w))
	noErr(t, w.RunWorkload("w"))
	if runs != 1 {
		t.Fatalf("the system ran %d times, want 1", runs)
	}
}
