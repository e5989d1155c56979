package ecs_test

import (
	"cmp"
	"errors"
	"fmt"
	"iter"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// Small assertion helpers shared by the tests of this package. They report
// at the caller's line (t.Helper) and stop the test only where going on
// would make no sense (must, errAs).

// equal fails the test when got != want. what says what was compared.
func equal[T comparable](t testing.TB, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s: got %v, want %v", what, got, want)
	}
}

// deepEqual fails the test when got and want differ by reflect.DeepEqual.
func deepEqual(t testing.TB, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got  %#v\n want %#v", what, got, want)
	}
}

// isTrue fails the test with the formatted message when cond is false.
func isTrue(t testing.TB, cond bool, format string, args ...any) {
	t.Helper()
	if !cond {
		t.Errorf(format, args...)
	}
}

// must stops the test if err is not nil.
func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}

// errIs fails the test unless errors.Is(err, target).
func errIs(t testing.TB, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Errorf("got error %v, want one wrapping %v", err, target)
	}
}

// errAs returns err as an E, stopping the test if it is not one.
func errAs[E error](t testing.TB, err error) E {
	t.Helper()
	var e E
	if !errors.As(err, &e) {
		t.Fatalf("got error %v (%T), want a %T", err, err, e)
	}
	return e
}

// hasAll fails the test unless s contains every one of subs.
func hasAll(t testing.TB, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Errorf("%q does not contain %q", s, sub)
		}
	}
}

// errHas fails the test unless err is not nil and its message contains every
// one of subs.
func errHas(t testing.TB, err error, subs ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("got no error, want one mentioning %q", subs)
		return
	}
	hasAll(t, err.Error(), subs...)
}

// panicsWith runs fn and fails the test unless it panics with a value whose
// text contains every one of subs. It returns that text.
func panicsWith(t testing.TB, fn func(), subs ...string) (msg string) {
	t.Helper()
	panicked := false
	func() {
		defer func() {
			if r := recover(); r != nil {
				panicked = true
				msg = fmt.Sprint(r)
			}
		}()
		fn()
	}()
	if !panicked {
		t.Errorf("did not panic; want a panic mentioning %q", subs)
		return ""
	}
	hasAll(t, msg, subs...)
	return msg
}

// sorted returns a sorted copy of s, for comparing results whose order is
// unspecified.
func sorted[S ~[]E, E cmp.Ordered](s S) S {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}

// sameSet fails the test unless got and want hold the same elements, in any
// order.
func sameSet[S ~[]E, E cmp.Ordered](t testing.TB, what string, got, want S) {
	t.Helper()
	g, w := sorted(got), sorted(want)
	if !slices.Equal(g, w) {
		t.Errorf("%s: got %v, want %v (in any order)", what, g, w)
	}
}

// TestHelpersCatchFailures checks that the helpers fail when they should:
// a helper that never fails would make every test above it meaningless.
func TestHelpersCatchFailures(t *testing.T) {
	cases := []struct {
		name string
		fn   func(tb testing.TB)
	}{
		{"equal", func(tb testing.TB) { equal(tb, "x", 1, 2) }},
		{"deepEqual", func(tb testing.TB) { deepEqual(tb, "x", []int{1}, []int{2}) }},
		{"isTrue", func(tb testing.TB) { isTrue(tb, false, "no") }},
		{"errIs", func(tb testing.TB) { errIs(tb, errors.New("a"), errors.ErrUnsupported) }},
		{"errIs nil", func(tb testing.TB) { errIs(tb, nil, errors.ErrUnsupported) }},
		{"hasAll", func(tb testing.TB) { hasAll(tb, "abc", "b", "d") }},
		{"errHas nil", func(tb testing.TB) { errHas(tb, nil, "x") }},
		{"panicsWith no panic", func(tb testing.TB) { panicsWith(tb, func() {}) }},
		{"panicsWith wrong text", func(tb testing.TB) { panicsWith(tb, func() { panic("boom") }, "bang") }},
		{"sameSet", func(tb testing.TB) { sameSet(tb, "x", []int{1, 2}, []int{2, 2}) }},
	}
	for _, c := range cases {
		r := &recorder{TB: t}
		c.fn(r)
		isTrue(t, r.failed, "%s: did not report a failure", c.name)
	}
	fatal := []struct {
		name string
		fn   func(tb testing.TB)
	}{
		{"must", func(tb testing.TB) { must(tb, errors.New("x")) }},
		{"errAs", func(tb testing.TB) { errAs[*fmtErr](tb, errors.New("x")) }},
	}
	for _, c := range fatal {
		r := &recorder{TB: t}
		done := make(chan struct{})
		go func() { // Fatal ends the goroutine with runtime.Goexit
			defer close(done)
			c.fn(r)
		}()
		<-done
		isTrue(t, r.failed && r.stopped, "%s: did not stop the test", c.name)
	}
	// And they stay quiet when all is well.
	r := &recorder{TB: t}
	equal(r, "x", 1, 1)
	sameSet(r, "x", []string{"b", "a"}, []string{"a", "b"})
	must(r, nil)
	errIs(r, fmt.Errorf("w: %w", errors.ErrUnsupported), errors.ErrUnsupported)
	equal(t, "panic text", panicsWith(r, func() { panic("boom bang") }, "bang"), "boom bang")
	isTrue(t, !r.failed, "helpers failed on good input")
}

type fmtErr struct{}

func (*fmtErr) Error() string { return "fmtErr" }

// recorder is a testing.TB that records failures instead of reporting them.
type recorder struct {
	testing.TB
	failed, stopped bool
}

func (r *recorder) Helper()                   {}
func (r *recorder) Errorf(string, ...any)     { r.failed = true }
func (r *recorder) Error(...any)              { r.failed = true }
func (r *recorder) Fatalf(f string, a ...any) { r.failed, r.stopped = true, true; runtime.Goexit() }
func (r *recorder) Fatal(...any)              { r.failed, r.stopped = true, true; runtime.Goexit() }

// The components and unique of the borrow, hook and Goexit tests
// (borrow_test.go, system_custom_view_test.go, pool_test.go, par_test.go,
// world_test.go), built into a world by leakWorld.
type leakQ struct{ V int }

type leakR struct{ V int }

type leakTick struct{ N int }

// nothingHeld reports whether every storage, unique and the entities
// storage of w can be borrowed exclusively at once (an AllStoragesViewMut
// conflicts with every other borrow), failing the test if not.
func nothingHeld(t *testing.T, w *ecs.World) bool {
	t.Helper()
	var all ecs.AllStoragesViewMut
	release, err := w.Borrow(&all)
	if err != nil {
		t.Errorf("something is still borrowed: %v", err)
		return false
	}
	release()
	return true
}

// mustPanic runs fn and returns the value it panicked with, failing the
// test if it did not panic.
func mustPanic(t *testing.T, fn func()) (r any) {
	t.Helper()
	defer func() { r = recover() }()
	fn()
	t.Fatal("no panic")
	return nil
}

func leakWorld(t *testing.T) *ecs.World {
	t.Helper()
	w := ecs.NewWorld()
	if _, err := ecs.AddEntity2(w, leakQ{1}, leakR{2}); err != nil {
		t.Fatal(err)
	}
	if err := ecs.AddUnique(w, leakTick{}); err != nil {
		t.Fatal(err)
	}
	return w
}

// panicText is the text of a recovered panic value.
func panicText(r any) string {
	switch v := r.(type) {
	case error:
		return v.Error()
	case string:
		return v
	}
	return ""
}

// newTestPool gives w a pool of two workers for the test's length, so
// that systems can run side by side however many cores the machine has.
func newTestPool(t *testing.T, w *ecs.World) {
	t.Helper()
	p := ecs.NewPool(2)
	w.SetPool(p)
	t.Cleanup(p.Close)
}

// mustPanicReleased calls each use and fails t for each that does not
// panic with an error wrapping ErrReleased.
func mustPanicReleased(t *testing.T, uses map[string]func()) {
	t.Helper()
	for name, use := range uses {
		if r := recovered(use); !errors.Is(asError(r), ecs.ErrReleased) {
			t.Errorf("%s after release: recovered %v, want a panic wrapping ErrReleased", name, r)
		}
	}
}

func rangeOver[K, V any](seq iter.Seq2[K, V]) func() {
	return func() {
		for range seq {
		}
	}
}

func rangeOver1[V any](seq iter.Seq[V]) func() {
	return func() {
		for range seq {
		}
	}
}

type (
	naPos    struct{ X int }
	naVel    struct{ X int }
	naPlayer struct{ HP int }
)

// naWorld returns a world with two entities and a unique.
func naWorld(t *testing.T) *ecs.World {
	t.Helper()
	w := ecs.NewWorld()
	_, err := ecs.AddEntity2(w, naPos{1}, naVel{1})
	must(t, err)
	_, err = ecs.AddEntity1(w, naPos{2})
	must(t, err)
	must(t, ecs.AddUnique(w, naPlayer{10}))
	return w
}

// naState describes w for comparing it before and after a refused call:
// the live entities, the components of both types with their entities,
// and the unique. It also checks that nothing stays borrowed: it borrows
// everything exclusively.
func naState(t *testing.T, w *ecs.World) string {
	t.Helper()
	var b strings.Builder
	must(t, w.Run(func(all ecs.AllStoragesViewMut) {
		must(t, ecs.Each1(all, func(id ecs.EntityID, p *naPos) { fmt.Fprintf(&b, "%v:%v ", id, *p) }))
		must(t, ecs.Each1(all, func(id ecs.EntityID, v *naVel) { fmt.Fprintf(&b, "%v:%v ", id, *v) }))
		p, err := ecs.GetUnique[naPlayer](all)
		fmt.Fprintf(&b, "unique %v %v", p, err)
	}))
	fmt.Fprintf(&b, " entities %d", w.EntityCount())
	return b.String()
}
