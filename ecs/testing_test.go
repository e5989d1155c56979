package ecs_test

import (
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
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
