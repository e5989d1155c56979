package ecs

import (
	"errors"
	"testing"
)

type cv1 struct{ N int }
type cv2 struct{ N int }
type cv3 struct{ N int }
type cv4 struct{ N int }
type cv5 struct{ N int }
type cv6 struct{ N int }
type cv7 struct{ N int }
type cv8 struct{ N int }
type cv9 struct{ N int }

// TestSystemCalls runs systems of every kind of return and several arities
// through World.Run (reflect.Value.Call), and checks that each gets its own
// views, in order, and its closure. Until Slipway called such systems
// through a function value of another type, the case of six ViewMuts and
// a View gave the View garbage on linux/s390x: CI runs this test there.
func TestSystemCalls(t *testing.T) {
	w := NewWorld()
	if _, err := AddEntity8(w, cv1{1}, cv2{2}, cv3{3}, cv4{4}, cv5{5}, cv6{6}, cv7{7}, cv8{8}); err != nil {
		t.Fatal(err)
	}
	if _, err := AddEntity1(w, cv9{9}); err != nil {
		t.Fatal(err)
	}
	sum := func(vs ...int) int {
		s := 0
		for _, v := range vs {
			s += v
		}
		return s
	}
	first := func(v View[cv1]) int { return v.Slice()[0].N }
	got := 0
	errBoom := errors.New("boom")
	type custom struct {
		A View[cv1]
		B ViewMut[cv2]
	}
	type nested struct {
		E     EntitiesView
		Inner custom
		c     ViewMut[cv3] // unexported fields are views too
	}
	type withData struct {
		A View[cv1]
		N int
	}
	type shared struct {
		A View[cv1]
		B View[cv2]
	}
	type padded struct {
		A View[cv1]
		_ struct{} // a trailing zero-size field pads the struct
	}
	hooked := 0
	for _, tc := range []struct {
		name    string
		sys     any
		want    int
		wantErr error
	}{
		{"no parameter", func() { got = 42 }, 42, nil},
		{"no parameter, error", func() error { got = 43; return errBoom }, 43, errBoom},
		{"one view", func(a View[cv1]) { got = first(a) }, 1, nil},
		{"three mixed views", func(e EntitiesView, a ViewMut[cv3], u View[cv2]) error {
			got = e.Len()*100 + a.Slice()[0].N*10 + u.Slice()[0].N
			return nil
		}, 232, nil},
		{"nine one-word views", func(a ViewMut[cv1], b ViewMut[cv2], c ViewMut[cv3], d ViewMut[cv4], e ViewMut[cv5], f ViewMut[cv6], g ViewMut[cv7], h ViewMut[cv8], i ViewMut[cv9]) error {
			got = sum(a.Slice()[0].N, b.Slice()[0].N*2, c.Slice()[0].N, d.Slice()[0].N, e.Slice()[0].N, f.Slice()[0].N, g.Slice()[0].N, h.Slice()[0].N*100, i.Slice()[0].N*1000)
			return errBoom
		}, 1 + 4 + 3 + 4 + 5 + 6 + 7 + 800 + 9000, errBoom},
		{"six ViewMuts and a View", func(a ViewMut[cv1], b ViewMut[cv2], c ViewMut[cv3], d ViewMut[cv4], e ViewMut[cv5], f ViewMut[cv6], g View[cv7]) {
			got = sum(a.Slice()[0].N, b.Slice()[0].N*2, f.Slice()[0].N*100, g.Slice()[0].N*1000, g.Len()*10000)
		}, 1 + 4 + 600 + 7000 + 10000, nil},
		{"three views, in nine words", func(a View[cv1], b View[cv2], c View[cv3]) {
			got = a.Slice()[0].N + b.Slice()[0].N*10 + c.Slice()[0].N*100
		}, 321, nil},
		{"ten one-word views", func(a ViewMut[cv1], b ViewMut[cv2], c ViewMut[cv3], d ViewMut[cv4], e ViewMut[cv5], f ViewMut[cv6], g ViewMut[cv7], h ViewMut[cv8], i ViewMut[cv9], e2 EntitiesView) {
			got = i.Slice()[0].N + e2.Len()*10
		}, 29, nil},
		{"three views and a ViewMut", func(a View[cv1], b View[cv2], c View[cv3], d ViewMut[cv4]) {
			got = a.Slice()[0].N + b.Slice()[0].N*10 + c.Slice()[0].N*100 + d.Slice()[0].N*1000
		}, 4321, nil},
		{"custom view", func(c custom) { got = c.A.Slice()[0].N*10 + c.B.Slice()[0].N }, 12, nil},
		{"nested custom view between views", func(a ViewMut[cv9], n nested, b ViewMut[cv4]) error {
			got = a.Slice()[0].N*10000 + n.E.Len()*1000 + n.Inner.A.Slice()[0].N*100 + n.Inner.B.Slice()[0].N*10 + n.c.Slice()[0].N + b.Slice()[0].N*100000
			return errBoom
		}, 400000 + 90000 + 2000 + 100 + 20 + 3, errBoom},
		{"custom views in nine words", func(c shared, e View[cv3]) error {
			got = c.A.Slice()[0].N + c.B.Slice()[0].N*10 + e.Slice()[0].N*100
			return errBoom
		}, 1 + 20 + 300, errBoom},
		{"custom view with hooks", func(h cvHooked) { got = h.A.Slice()[0].N + hooked }, 1 + 10, nil},
		{"custom views in ten words", func(c shared, e View[cv3], f ViewMut[cv4]) {
			got = c.A.Slice()[0].N + f.Slice()[0].N*10
		}, 41, nil},
		// A View that does not fit in the registers left is passed whole
		// on the stack, and the ViewMut after it in a register: not as
		// a list of words. Such a system is called through reflect.
		{"a view past the registers", func(a View[cv1], b View[cv2], c ViewMut[cv3], d View[cv4], e ViewMut[cv5]) {
			got = a.Slice()[0].N + d.Slice()[0].N*10 + e.Slice()[0].N*100
		}, 541, nil},
		{"custom view with other data", func(c withData) { got = c.A.Slice()[0].N + c.N }, 1, nil},
		{"padded custom view", func(c padded) { got = c.A.Slice()[0].N }, 1, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cvHookedCalls, hooked = &hooked, 0
			if _, err := analyseSystem(tc.sys, tc.name); err != nil {
				t.Fatal(err)
			}
			got = 0
			err := w.Run(tc.sys)
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil) != (err == nil) {
				t.Errorf("Run error = %v, want %v", err, tc.wantErr)
			}
			if got != tc.want {
				t.Errorf("the system computed %d, want %d", got, tc.want)
			}
		})
	}
}

// cvHooked is a custom view made of views only, with a hook, which runs
// (adding 10 to *cvHookedCalls).
type cvHooked struct{ A View[cv1] }

var cvHookedCalls *int

func (cvHooked) OnBorrow() error {
	*cvHookedCalls += 10
	return nil
}

// TestSystemCallConditions runs conditions returning true and false
// through a workload.
func TestSystemCallConditions(t *testing.T) {
	w := NewWorld()
	_, _ = AddEntity1(w, cv1{5})
	ran := 0
	limit := 5
	cond := func(a View[cv1]) bool { return a.Slice()[0].N < limit }
	if _, err := analyseCond(cond, "cond"); err != nil {
		t.Fatalf("condition: %v", err)
	}
	if err := w.AddWorkload("w", System(func() { ran++ }).RunIf(cond)); err != nil {
		t.Fatal(err)
	}
	for _, l := range []int{5, 6, 3, 10} {
		limit = l
		if err := w.RunWorkload("w"); err != nil {
			t.Fatal(err)
		}
	}
	if ran != 2 {
		t.Fatalf("the system ran %d times, want 2 (limits 6 and 10)", ran)
	}
}
