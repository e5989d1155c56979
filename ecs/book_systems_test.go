package ecs_test

// The "Systems" chapter: a function whose parameters are views is a
// system; closures work too. Plus what the guide shows of systems along the
// way: returning an error (the Square Eater's GameOver), and custom views
// (bundles of views, and views with their own borrow and release steps).

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// bookCreateInts is the guide's create_ints.
func bookCreateInts(entities ecs.EntitiesViewMut, vmVel ecs.ViewMut[Vel]) {
	for i := range 3 {
		vmVel.AddEntity(entities, Vel{float32(i), 0})
	}
}

// bookDeleteInts is the guide's delete_ints.
func bookDeleteInts(vmVel ecs.ViewMut[Vel]) { vmVel.Clear() }

// TestBookSystemFunction follows the snippet: define a system, run it.
func TestBookSystemFunction(t *testing.T) {
	w := ecs.NewWorld()
	must(t, w.Run(bookCreateInts))
	equal(t, "EntityCount", w.EntityCount(), 3)
	must(t, w.Run(bookCreateInts)) // a system can run again and again
	must(t, w.Run(func(v ecs.View[Vel]) { equal(t, "Vel Len", v.Len(), 6) }))
	must(t, w.Run(bookDeleteInts))
	must(t, w.Run(func(v ecs.View[Vel]) { equal(t, "Vel Len after delete_ints", v.Len(), 0) }))
	// A system may have no parameter at all.
	ran := false
	must(t, w.Run(func() { ran = true }))
	isTrue(t, ran, "parameterless system did not run")
}

// TestBookSystemClosures: "it also works with closures". A closure's
// captured variables are the system's local state (Dynec's "local").
func TestBookSystemClosures(t *testing.T) {
	w := ecs.NewWorld()
	_, err := ecs.BulkAddEntity1(w, []Pos{{1, 0}, {2, 0}})
	must(t, err)
	runs := 0
	total := float32(0)
	sum := func(v ecs.View[Pos]) {
		runs++
		for p := range v.All() {
			total += p.X
		}
	}
	for range 3 {
		must(t, w.Run(sum))
	}
	equal(t, "runs", runs, 3)
	equal(t, "total", total, float32(9))

	// Closures of the same type with different captures are different
	// systems: each sees its own state.
	mk := func(k float32) func(ecs.ViewMut[Pos]) {
		return func(v ecs.ViewMut[Pos]) {
			for p := range v.All() {
				p.Y += k
			}
		}
	}
	must(t, w.Run(mk(1)))
	must(t, w.Run(mk(10)))
	must(t, w.Run(func(v ecs.View[Pos]) {
		for p := range v.All() {
			equal(t, "Y after both closures", p.Y, float32(11))
		}
	}))
}

// bookCounter has a method used as a system (a method value).
type bookCounter struct{ seen int }

func (c *bookCounter) count(v ecs.View[Pos]) error {
	c.seen += v.Len()
	if c.seen > 2 {
		return errors.New("too many")
	}
	return nil
}

// TestBookSystemMethodValue: a bound method is a system; its name in
// errors is the method's.
func TestBookSystemMethodValue(t *testing.T) {
	w := ecs.NewWorld()
	_, err := ecs.BulkAddEntity1(w, []Pos{{}, {}})
	must(t, err)
	c := &bookCounter{}
	must(t, w.Run(c.count))
	err = w.Run(c.count)
	sf := errAs[*ecs.SystemFailure](t, err)
	hasAll(t, sf.System, "bookCounter", "count")
	isTrue(t, !strings.HasSuffix(sf.System, "-fm"), "system name %q keeps the compiler's -fm suffix", sf.System)
	equal(t, "seen", c.seen, 4)
}

// GameOver is the Square Eater's error.
type bookGameOver int

const (
	bookDefeat bookGameOver = iota
	bookVictory
)

func (g bookGameOver) Error() string { return [...]string{"Defeat", "Victory"}[g] }

const bookInitSize = 5

type bookToDelete struct{}

// bookCollision is the guide's collision from "Reign" with its Result
// return: the player eats smaller friends (flagging them ToDelete) and is
// hurt by fully grown ones, losing when it gets too small.
func bookCollision(entities ecs.EntitiesView, player ecs.UniqueViewMut[bookPlayer], vFriend ecs.View[bookFriend], vmToDelete ecs.ViewMut[bookToDelete]) error {
	p := player.Get()
	for eid, f := range vFriend.WithID() {
		switch {
		case f.Size == 25 && collide(f.bookSquare, p.bookSquare):
			p.Size -= bookInitSize / 2.
			if p.Size < bookInitSize {
				return bookDefeat
			}
		case p.Size >= f.Size && collide(p.bookSquare, f.bookSquare):
			p.Size = min(p.Size+bookInitSize/2., 25-0.01)
			if err := vmToDelete.AddComponent(entities, eid, bookToDelete{}); err != nil {
				return err
			}
		}
	}
	return nil
}

func collide(a, b bookSquare) bool {
	return a.X+a.Size >= b.X && a.X <= b.X+b.Size && a.Y+a.Size >= b.Y && a.Y <= b.Y+b.Size
}

// bookCleanUp is the guide's clean_up.
func bookCleanUp(all ecs.AllStoragesViewMut) error {
	_, err := ecs.DeleteAny[bookToDelete](all)
	return err
}

// bookCheckGameOver is the guide's check_game_over.
func bookCheckGameOver(player ecs.UniqueView[bookPlayer], vFriends ecs.View[bookFriend]) error {
	switch {
	case player.Get().Size < bookInitSize:
		return bookDefeat
	case vFriends.IsEmpty():
		return bookVictory
	}
	return nil
}

// TestBookSystemErrors: a system's error comes back from Run wrapped in a
// *SystemFailure naming the system; errors.Is and errors.As reach it.
func TestBookSystemErrors(t *testing.T) {
	w := ecs.NewWorld()
	must(t, ecs.AddUnique(w, bookPlayer{bookSquare{10, 10, 15}}))
	small, err := ecs.AddEntity1(w, bookFriend{bookSquare{12, 12, 5}})
	must(t, err)
	far, err := ecs.AddEntity1(w, bookFriend{bookSquare{100, 100, 5}})
	must(t, err)

	// The player eats the small friend; clean_up deletes it.
	must(t, w.Run(bookCollision))
	must(t, w.Run(bookCleanUp))
	isTrue(t, !w.IsAlive(small), "eaten friend still alive")
	isTrue(t, w.IsAlive(far), "far friend deleted")
	p, err := ecs.GetUnique[bookPlayer](w)
	must(t, err)
	equal(t, "player grew", p.Size, float32(17.5))
	must(t, w.Run(bookCheckGameOver))

	// A grown friend on top of the player: each hit costs 2.5 until defeat.
	_, err = ecs.AddEntity1(w, bookFriend{bookSquare{10, 10, 25}})
	must(t, err)
	var runErr error
	hits := 0
	for ; hits < 10; hits++ {
		if runErr = w.Run(bookCollision); runErr != nil {
			break
		}
	}
	equal(t, "hits survived (17.5 down to 5 by 2.5)", hits, 5)
	errIs(t, runErr, bookDefeat)
	sf := errAs[*ecs.SystemFailure](t, runErr)
	equal(t, "failing system", sf.System, "ecs_test.bookCollision")
	equal(t, "unwrapped", sf.Unwrap(), error(bookDefeat))
	var g bookGameOver
	isTrue(t, errors.As(runErr, &g) && g == bookDefeat, "errors.As gave %v", g)
	hasAll(t, runErr.Error(), "bookCollision", "Defeat")
	errIs(t, w.Run(bookCheckGameOver), bookDefeat)

	// Victory when no friend is left.
	must(t, ecs.AddUnique(w, bookPlayer{bookSquare{0, 0, 15}}))
	_, err = ecs.DeleteAny[bookFriend](w)
	must(t, err)
	err = w.Run(bookCheckGameOver)
	errIs(t, err, bookVictory)
	isTrue(t, !errors.Is(err, bookDefeat), "victory is also defeat")

	// A wrapped error keeps its chain.
	base := errors.New("disk full")
	err = w.Run(func(ecs.View[Pos]) error { return fmt.Errorf("saving: %w", base) })
	errIs(t, err, base)
}

// TestBookSystemPanics: a panic in a system reaches the caller of Run, and
// the system's views are released on the way.
func TestBookSystemPanics(t *testing.T) {
	w := ecs.NewWorld()
	must(t, ecs.AddUnique(w, Camera{}))
	panicsWith(t, func() {
		_ = w.Run(func(ecs.ViewMut[Pos], ecs.EntitiesViewMut, ecs.UniqueViewMut[Camera]) { panic("boom") })
	}, "boom")
	assertNothingBorrowed(t, w)
}

// assertNothingBorrowed borrows, exclusively, everything the tests of this
// file use: it fails if a borrow was left behind.
func assertNothingBorrowed(t *testing.T, w *ecs.World) {
	t.Helper()
	if !nothingHeld(t, w) {
		return
	}
	var p ecs.ViewMut[Pos]
	var v ecs.ViewMut[Vel]
	var e ecs.EntitiesViewMut
	release, err := w.Borrow(&p, &v, &e)
	if err != nil {
		t.Errorf("something is still borrowed: %v", err)
		return
	}
	release()
	if _, err := ecs.GetUnique[Camera](w); errors.Is(err, ecs.ErrBorrowConflict) {
		t.Errorf("the Camera unique is still borrowed: %v", err)
	}
}

// TestBookSystemNested: a system may run another system, if their views do
// not conflict; if they do, the error names both.
func TestBookSystemNested(t *testing.T) {
	w := ecs.NewWorld()
	_, err := ecs.AddEntity2(w, Pos{1, 1}, Vel{2, 2})
	must(t, err)
	inner := func(v ecs.View[Pos]) {}
	innerMut := func(v ecs.ViewMut[Pos]) { t.Error("conflicting inner system ran") }
	must(t, w.Run(func(v ecs.View[Pos], vm ecs.ViewMut[Vel]) {
		must(t, w.Run(inner))
		err := w.Run(innerMut)
		be := errAs[*ecs.BorrowError](t, err)
		hasAll(t, be.By, "TestBookSystemNested")
		hasAll(t, be.HeldBy, "TestBookSystemNested")
		equal(t, "asked", be.Access, "ViewMut[ecs_test.Pos]")
		equal(t, "held", be.HeldAccess, "View[ecs_test.Pos]")
		equal(t, "resource", be.Resource, "ecs_test.Pos")
	}))
	assertNothingBorrowed(t, w)
}

// Custom views.

type bookParent struct{ Of ecs.EntityID }
type bookChild struct{ Of ecs.EntityID }

// bookHierarchy is the guide's view bundle: a struct of views, borrowed
// field by field.
type bookHierarchy struct {
	Entities ecs.EntitiesViewMut
	Parents  ecs.ViewMut[bookParent]
	Children ecs.ViewMut[bookChild]
}

// attach makes child a child of parent.
func (h bookHierarchy) attach(parent, child ecs.EntityID) error {
	if err := h.Parents.AddComponent(h.Entities, child, bookParent{parent}); err != nil {
		return err
	}
	return h.Children.AddComponent(h.Entities, parent, bookChild{child})
}

// bookScene nests a bundle in a bundle, with unexported fields and a field
// that is not a view (left alone).
type bookScene struct {
	tree   bookHierarchy
	camera ecs.UniqueView[Camera]
	note   string
}

// TestBookCustomViewBundle: a bundle is borrowed like its fields, as a
// system parameter or through World.Borrow, and conflicts like them.
func TestBookCustomViewBundle(t *testing.T) {
	w := ecs.NewWorld()
	must(t, ecs.AddUnique(w, Camera{Zoom: 3}))
	var root, leaf ecs.EntityID
	must(t, w.Run(func(h bookHierarchy) error {
		root = h.Entities.AddEntity()
		leaf = h.Entities.AddEntity()
		return h.attach(root, leaf)
	}))
	p, err := ecs.Get[bookParent](w, leaf)
	must(t, err)
	equal(t, "leaf's parent", p.Of, root)
	c, err := ecs.Get[bookChild](w, root)
	must(t, err)
	equal(t, "root's child", c.Of, leaf)

	must(t, w.Run(func(s bookScene) {
		equal(t, "camera through a nested bundle", s.camera.Get().Zoom, float32(3))
		equal(t, "parents through a nested bundle", s.tree.Parents.Len(), 1)
		equal(t, "non-view field", s.note, "")
	}))

	var s bookScene
	release, err := w.Borrow(&s)
	must(t, err)
	equal(t, "children through a borrowed bundle", s.tree.Children.Len(), 1)
	// The bundle holds ViewMut[bookParent]: a system reading it conflicts.
	err = w.Run(func(ecs.View[bookParent]) {})
	be := errAs[*ecs.BorrowError](t, err)
	equal(t, "held", be.HeldAccess, "ViewMut[ecs_test.bookParent]")
	release()
	must(t, w.Run(func(ecs.View[bookParent]) {}))

	// Two bundles that overlap in one system: a conflict, and nothing left
	// borrowed.
	err = w.Run(func(a bookHierarchy, b bookScene) { t.Error("overlapping bundles ran") })
	errIs(t, err, ecs.ErrBorrowConflict)
	var h bookHierarchy
	release, err = w.Borrow(&h)
	must(t, err)
	release()
}

// bookHooked is a custom view with both hooks; it records what happens in
// hookLog and fails with hookErr. (A custom view starts from its zero value
// when a system borrows it, so what the hooks share with the test goes
// through package variables.)
type bookHooked struct {
	Pos ecs.View[Pos]
	n   int
}

var (
	hookLog []string
	hookErr error
)

func (h *bookHooked) OnBorrow() error {
	hookLog = append(hookLog, fmt.Sprintf("borrow(%d)", h.Pos.Len())) // fields are usable already
	h.n = h.Pos.Len()
	return hookErr
}

func (h *bookHooked) OnRelease() {
	hookLog = append(hookLog, fmt.Sprintf("release(%d)", h.Pos.Len())) // still usable
}

// bookRandom is a wild view: no view field, only an OnBorrow step.
type bookRandom struct{ N uint64 }

var bookRandomSeed uint64

func (r *bookRandom) OnBorrow() error {
	bookRandomSeed = bookRandomSeed*6364136223846793005 + 1442695040888963407
	r.N = bookRandomSeed
	return nil
}

// TestBookCustomViewHooks: OnBorrow runs after the fields are borrowed and
// before the system, OnRelease after the system and before the fields are
// released — also when the system panics; an OnBorrow error stops the
// system and releases everything already borrowed.
func TestBookCustomViewHooks(t *testing.T) {
	w := ecs.NewWorld()
	_, err := ecs.BulkAddEntity1(w, []Pos{{}, {}})
	must(t, err)
	hookLog, hookErr = nil, nil
	must(t, w.Run(func(h bookHooked) {
		hookLog = append(hookLog, fmt.Sprintf("system(%d)", h.n))
	}))
	deepEqual(t, "order", hookLog, []string{"borrow(2)", "system(2)", "release(2)"})
	assertNothingBorrowed(t, w)

	// OnBorrow fails: the system does not run, the error comes back
	// wrapped, and every view is released (the parameter before the custom
	// view too).
	hookLog, hookErr = nil, errors.New("no GPU")
	err = w.Run(func(_ ecs.ViewMut[Vel], h bookHooked) { hookLog = append(hookLog, "system") })
	errIs(t, err, hookErr)
	errAs[*ecs.SystemFailure](t, err)
	hasAll(t, err.Error(), "OnBorrow", "no GPU", "bookHooked")
	deepEqual(t, "order when OnBorrow fails", hookLog, []string{"borrow(2)"})
	assertNothingBorrowed(t, w)

	// The system panics: OnRelease still runs, and nothing stays borrowed.
	hookLog, hookErr = nil, nil
	panicsWith(t, func() {
		_ = w.Run(func(h bookHooked, _ ecs.ViewMut[Vel]) { panic("crash") })
	}, "crash")
	deepEqual(t, "order when the system panics", hookLog, []string{"borrow(2)", "release(2)"})
	assertNothingBorrowed(t, w)

	// Nested in a bundle, the hooks run the same way.
	hookLog = nil
	must(t, w.Run(func(b struct {
		V ecs.View[Vel]
		H bookHooked
	}) {
		hookLog = append(hookLog, "system")
	}))
	deepEqual(t, "order when nested", hookLog, []string{"borrow(2)", "system", "release(2)"})

	// Through World.Borrow: hooks run at Borrow and at release.
	hookLog = nil
	var h bookHooked
	release, err := w.Borrow(&h)
	must(t, err)
	deepEqual(t, "after Borrow", hookLog, []string{"borrow(2)"})
	release()
	deepEqual(t, "after release", hookLog, []string{"borrow(2)", "release(2)"})
	assertNothingBorrowed(t, w)

	// A wild view: no view field at all.
	var got []uint64
	for range 2 {
		must(t, w.Run(func(r bookRandom) { got = append(got, r.N) }))
	}
	isTrue(t, got[0] != got[1] && got[0] != 0, "wild view values %v", got)
}

// TestBookCustomViewAccess: a custom view's access is its fields' access,
// so it conflicts exactly where they would.
func TestBookCustomViewAccess(t *testing.T) {
	w := ecs.NewWorld()
	var held ecs.View[bookChild]
	release, err := w.Borrow(&held)
	must(t, err)
	defer release()
	err = w.Run(func(h bookHierarchy) { t.Error("ran") })
	be := errAs[*ecs.BorrowError](t, err)
	equal(t, "asked", be.Access, "ViewMut[ecs_test.bookChild]")
	equal(t, "held", be.HeldAccess, "View[ecs_test.bookChild]")
	// Fields borrowed before the failing one were released: the
	// entities storage and the parents can be borrowed exclusively.
	var e ecs.EntitiesViewMut
	var p ecs.ViewMut[bookParent]
	r2, err := w.Borrow(&e, &p)
	must(t, err)
	r2()
}

// The guide's "Barriers, sequential workloads and requirements": a
// barrier holds back the systems after it, a sequential workload chains
// its systems, and a requirement the plan does not meet is refused.
func TestBookWorkloadBarriersAndRequirements(t *testing.T) {
	w := ecs.NewWorld()
	noErr(t, w.AddWorkload("frame",
		spReadA, spReadB,
		ecs.Barrier(),
		ecs.System(spWriteA).RequireBefore("ecs_test.spReadB"),
		ecs.Workload("render", spReadC, spReadC).Sequential()))
	p := planOf(t, w, "frame")
	batches := []int{}
	for _, s := range p.Systems {
		batches = append(batches, s.Batch)
	}
	if want := []int{0, 0, 1, 1, 2}; !slices.Equal(batches, want) {
		t.Fatalf("batches %v, want %v\n%s", batches, want, p)
	}
	noErr(t, w.RunWorkload("frame"))
	err := w.AddWorkload("broken", spWriteA, ecs.System(spReadA).RequireAfter("ecs_test.spWriteA"))
	var be *ecs.WorkloadBuildError
	if !errors.As(err, &be) || be.System != "ecs_test.spReadA" || !strings.Contains(be.Reason, "ecs_test.spWriteA is not ordered after it") {
		t.Fatalf("got %v", err)
	}
}

// The guide's "Building, adding and renaming workloads".
func TestBookWorkloadBuildAndRename(t *testing.T) {
	built, err := ecs.Workload("physics", spWriteA, ecs.System(spReadA).RequireBefore("ecs_test.spWriteA")).Build()
	noErr(t, err)
	w := ecs.NewWorld()
	noErr(t, w.AddBuiltWorkload(built))
	noErr(t, w.RenameWorkload("physics", "step"))
	if err := w.RenameWorkload("physics", "step"); !errors.Is(err, ecs.ErrUnknownWorkload) {
		t.Fatalf("second rename: %v", err)
	}
	if got := w.Workloads(); !slices.Equal(got, []string{"step"}) {
		t.Fatalf("workloads %v", got)
	}
	noErr(t, w.RunDefaultWorkload())
}

// TestBookSystemReturnValue follows "Systems that return a value": the
// value comes back; the error form wraps the system's error with its name
// beside the value; a conflicting borrow gives the zero value and no call.
func TestBookSystemReturnValue(t *testing.T) {
	w := ecs.NewWorld()
	_, _ = ecs.AddEntity1(w, Pos{1, 0})
	_, _ = ecs.AddEntity1(w, Pos{2, 0})
	total := func(pos ecs.View[Pos]) float32 {
		sum := float32(0)
		for p := range pos.All() {
			sum += p.X
		}
		return sum
	}
	sum, err := ecs.RunValue1(w, total)
	must(t, err)
	equal(t, "sum", sum, 3)
	errNothing := errors.New("nothing moves")
	n, err := ecs.RunValueErr2(w, func(pos ecs.View[Pos], vel ecs.View[Vel]) (int, error) {
		return pos.Len(), errNothing
	})
	errIs(t, err, errNothing)
	errHas(t, err, "TestBookSystemReturnValue")
	equal(t, "n", n, 2)

	var held ecs.ViewMut[Pos]
	release, err := w.Borrow(&held)
	must(t, err)
	called := false
	sum, err = ecs.RunValue1(w, func(pos ecs.View[Pos]) float32 { called = true; return 1 })
	hasAll(t, errAs[*ecs.BorrowError](t, err).Error(), "View[ecs_test.Pos]", "ViewMut[ecs_test.Pos]")
	isTrue(t, !called && sum == 0, "called %v, sum %v after a conflict", called, sum)
	release()

	// Refused systems: a nil function, conflicting views.
	var nilFn func(ecs.View[Pos]) int
	_, err = ecs.RunValue1(w, nilFn)
	errIs(t, err, ecs.ErrInvalidSystem)
	_, err = ecs.RunValue2(w, func(ecs.View[Pos], ecs.ViewMut[Pos]) int { called = true; return 0 })
	errIs(t, err, ecs.ErrInvalidSystem)
	errIs(t, err, ecs.ErrBorrowConflict)
	_, err = ecs.RunValue1(w, func(*ecs.View[Pos]) int { return 0 })
	errHas(t, err, "parameter 1", "pointer")
	_, err = ecs.RunValue1(nil, total)
	errIs(t, err, ecs.ErrNilWorld)
	var nw *ecs.World
	_, err = ecs.RunValue1(nw, total)
	errIs(t, err, ecs.ErrNilWorld)
	isTrue(t, !called, "a refused system was called")

	// A panic goes on to the caller, and nothing stays borrowed.
	r := recovered(func() { _, _ = ecs.RunValue1(w, func(ecs.ViewMut[Pos]) int { panic("in RunValue") }) })
	equal(t, "recovered", r, any("in RunValue"))
	nothingHeld(t, w)
}

// TestBookSystemAllStorages follows "Inside an AllStoragesViewMut":
// borrow, conflict, run, iterate and delete, RunValue under it.
func TestBookSystemAllStorages(t *testing.T) {
	w := ecs.NewWorld()
	for i := range 3 {
		_, _ = ecs.AddEntity2(w, Pos{float32(i), 0}, Vel{1, 0})
	}
	var xs []float32
	alive := 0
	must(t, w.Run(func(all ecs.AllStoragesViewMut) error {
		var pos ecs.ViewMut[Pos]
		var vel ecs.View[Vel]
		release, err := all.Borrow(&pos, &vel)
		if err != nil {
			return err
		}
		for p, v := range ecs.Join2(pos, vel).All() {
			p.X += v.X
		}
		_, err = all.Borrow(new(ecs.View[Pos]))
		errIs(t, err, ecs.ErrBorrowConflict)
		release()
		must(t, all.Run(func(pos ecs.View[Pos]) {
			for p := range pos.All() {
				xs = append(xs, p.X)
			}
		}))
		for id := range all.Entities() {
			if id.Index() == 1 {
				must(t, all.DeleteEntity(id))
			}
		}
		alive, err = ecs.RunValue1(all, func(e ecs.EntitiesView) int { return e.Len() })
		return err
	}))
	deepEqual(t, "xs", xs, []float32{1, 2, 3})
	equal(t, "alive", alive, 2)
	equal(t, "EntityCount", w.EntityCount(), 2)
	nothingHeld(t, w)
}
