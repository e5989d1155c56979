package ecs_test

// Tests of custom views (system.go): structs of views given to a system or
// to World.Borrow, their OnBorrow and OnRelease hooks, and the shapes the
// analysis accepts or refuses.
//
// Custom views whose fields have odd types: recursive types, types of the
// standard library, functions, interfaces, and views behind pointers,
// slices, maps and channels. The analysis of a custom view must end on
// every type: each is borrowed (its views borrowed, its other fields left
// alone) or refused with an error naming the field, through World.Run,
// World.Borrow and World.AddWorkload alike.

import (
	"container/list"
	"container/ring"
	"context"
	"fmt"
	"go/ast"
	"math/big"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"text/template"
	"time"

	"github.com/slipway-ecs/slipway/ecs"
)

type (
	cvPos struct{ X int }
	cvVel struct{ X int }
)

// Recursive types that hold no view.
type (
	cvSelf struct {
		N    int
		Next *cvSelf
	}
	cvMutA struct{ B *cvMutB }
	cvMutB struct {
		A  *cvMutA
		As []cvMutA
		M  map[string]cvMutB
	}
	cvSlice      []cvSlice
	cvMap        map[string]cvMap
	cvChan       chan cvChan
	cvPtr        *cvPtr
	cvFunc       func(cvFunc) cvFunc
	cvArr        [2]*cvArr
	cvIface      interface{ Next() cvIface }
	cvGen[T any] struct {
		V    T
		Next *cvGen[T]
	}
)

// Recursive types that hold views: a custom view that points to itself,
// and two that point to each other.
type (
	cvNode struct {
		P    ecs.View[cvPos]
		Next *cvNode
	}
	cvViewA struct {
		P ecs.View[cvPos]
		B *cvViewB
	}
	cvViewB struct{ A *cvViewA }
	// cvHookOnly is a custom view with a hook and no view.
	cvHookOnly struct{ N int }
)

func (*cvHookOnly) OnBorrow() error { return nil }

// Custom views that work: P (and V in cvInner) are borrowed, the other
// fields are left alone.
type (
	cvList struct {
		P   ecs.View[cvPos]
		Log *list.List
	}
	cvListValue struct {
		P   ecs.View[cvPos]
		Log list.List
		E   list.Element
	}
	cvStd struct {
		P   ecs.View[cvPos]
		R   *ring.Ring
		Mu  *sync.Mutex
		RW  *sync.RWMutex
		SM  *sync.Map
		WG  *sync.WaitGroup
		T   time.Time
		D   time.Duration
		L   *time.Location
		Tk  *time.Ticker
		SB  strings.Builder
		Re  *regexp.Regexp
		Big *big.Int
		Tpl *template.Template
		AST *ast.File
		Ctx context.Context
	}
	cvRecursive struct {
		P     ecs.View[cvPos]
		Self  *cvSelf
		SelfV cvSelf
		A     *cvMutA
		B     cvMutB
		S     cvSlice
		M     cvMap
		C     cvChan
		Ptr   cvPtr
		F     cvFunc
		Arr   cvArr
		ArrP  [3]*cvSelf
		I     cvIface
		G     cvGen[cvSelf]
		GP    *cvGen[cvGen[int]]
		K     map[*cvSelf]cvSlice
		log   *list.List
	}
	cvFuncsAndIfaces struct {
		P     ecs.View[cvPos]
		Any   any
		Err   error
		Str   fmt.Stringer
		Make  func() ecs.View[cvPos]
		Take  func(ecs.View[cvPos])
		Calls chan func(ecs.ViewMut[cvPos])
		Keys  map[ecs.EntityID]func() ecs.View[cvPos]
	}
	cvInner struct {
		V    ecs.View[cvVel]
		Log  *list.List
		Self *cvSelf
	}
	cvNested struct {
		P     ecs.View[cvPos]
		In    cvInner
		Ins   [2]cvInner
		Other cvMutB
	}
	cvEmbeds struct {
		ecs.View[cvPos]
		*list.Element
		cvSelf
	}
)

// cvRecursive's log is an unexported field: the analysis leaves it alone
// like the others (and the tests never set it).
var _ = cvRecursive{}.log

// Custom views that are refused: each has a view behind a pointer, a
// slice, a map or a channel.
type (
	cvPtrView   struct{ PP *ecs.View[cvPos] }
	cvPtrBundle struct {
		P ecs.View[cvPos]
		N *cvNode
	}
	cvSliceNodes struct {
		P    ecs.View[cvPos]
		Kids []cvNode
	}
	cvMapNodes struct {
		P ecs.View[cvPos]
		M map[string]*cvNode
	}
	cvChanNodes struct {
		P ecs.View[cvPos]
		C chan cvNode
	}
	cvArrPtrs  struct{ A [2]*ecs.View[cvPos] }
	cvPtrHook  struct{ H *cvHookOnly }
	cvDeepPtr  struct{ In struct{ Ptr *cvNode } }
	cvSliceMut struct {
		P  ecs.View[cvPos]
		Ms [][]ecs.ViewMut[cvVel]
	}
)

// cvCase is a custom view type, and how its analysis ends: nil wantErr
// for a view that works, or what the error must mention.
type cvCase struct {
	typ     reflect.Type
	wantErr []string
}

func cvOK(typ reflect.Type) cvCase { return cvCase{typ: typ} }

func cvRefused(typ reflect.Type, subs ...string) cvCase { return cvCase{typ: typ, wantErr: subs} }

// TestCustomViewFieldTypes runs a system, borrows, and adds a workload of
// each custom view type: each works or is refused with an error naming
// the field, and none crashes the analysis (a recursive type once made it
// recurse until the stack overflowed, which no recover can catch).
func TestCustomViewFieldTypes(t *testing.T) {
	cases := []cvCase{
		cvOK(reflect.TypeFor[cvList]()),
		cvOK(reflect.TypeFor[cvListValue]()),
		cvOK(reflect.TypeFor[cvStd]()),
		cvOK(reflect.TypeFor[cvRecursive]()),
		cvOK(reflect.TypeFor[cvFuncsAndIfaces]()),
		cvOK(reflect.TypeFor[cvNested]()),
		cvOK(reflect.TypeFor[cvEmbeds]()),
		cvOK(reflect.TypeFor[cvHookOnly]()),
		cvRefused(reflect.TypeFor[cvNode](), "field Next (*ecs_test.cvNode)", "pointer to views", "by value"),
		cvRefused(reflect.TypeFor[cvViewA](), "field B (*ecs_test.cvViewB)", "pointer to views"),
		cvRefused(reflect.TypeFor[cvPtrView](), "field PP (*ecs.View[", "ecs_test.cvPos])", "is a pointer", "by value"),
		cvRefused(reflect.TypeFor[cvPtrBundle](), "field N (*ecs_test.cvNode)", "pointer to views"),
		cvRefused(reflect.TypeFor[cvSliceNodes](), "field Kids ([]ecs_test.cvNode)", "slice that holds views"),
		cvRefused(reflect.TypeFor[cvMapNodes](), "field M (map[string]*ecs_test.cvNode)", "map that holds views"),
		cvRefused(reflect.TypeFor[cvChanNodes](), "field C (chan ecs_test.cvNode)", "chan that holds views"),
		cvRefused(reflect.TypeFor[cvArrPtrs](), "field A ([2]*ecs.View[", "ecs_test.cvPos])", "pointer"),
		cvRefused(reflect.TypeFor[cvPtrHook](), "field H (*ecs_test.cvHookOnly)", "pointer to views"),
		cvRefused(reflect.TypeFor[cvDeepPtr](), "field In (", "field Ptr (*ecs_test.cvNode)", "pointer to views"),
		cvRefused(reflect.TypeFor[cvSliceMut](), "field Ms ([][]ecs.ViewMut[", "ecs_test.cvVel])", "slice that holds views"),
		// Parameters that are no view at all, recursive or not.
		cvRefused(reflect.TypeFor[*list.List](), "parameter 1 (*list.List)", "is not a view"),
		cvRefused(reflect.TypeFor[list.List](), "parameter 1 (list.List)", "no view field"),
		cvRefused(reflect.TypeFor[cvSlice](), "parameter 1 (ecs_test.cvSlice)", "is not a view"),
		cvRefused(reflect.TypeFor[cvPtr](), "parameter 1 (ecs_test.cvPtr)", "is not a view"),
		cvRefused(reflect.TypeFor[cvFunc](), "parameter 1 (ecs_test.cvFunc)", "is not a view"),
		cvRefused(reflect.TypeFor[cvIface](), "parameter 1 (ecs_test.cvIface)", "is not a view"),
		cvRefused(reflect.TypeFor[*cvNode](), "parameter 1 (*ecs_test.cvNode)", "pointer to views"),
		cvRefused(reflect.TypeFor[[]cvNode](), "parameter 1 ([]ecs_test.cvNode)", "slice that holds views"),
	}
	for _, tc := range cases {
		t.Run(tc.typ.String(), func(t *testing.T) {
			w := ecs.NewWorld()
			_, err := ecs.AddEntity2(w, cvPos{1}, cvVel{2})
			must(t, err)
			ran := false
			sys := reflect.MakeFunc(reflect.FuncOf([]reflect.Type{tc.typ}, nil, false), func(args []reflect.Value) []reflect.Value {
				ran = true
				checkCustomView(t, tc.typ.String(), args[0])
				return nil
			}).Interface()

			err = w.Run(sys)
			if tc.wantErr == nil {
				must(t, err)
				isTrue(t, ran, "World.Run did not run the system")
			} else {
				errIs(t, err, ecs.ErrInvalidSystem)
				errHas(t, err, tc.wantErr...)
				isTrue(t, !ran, "World.Run ran a refused system")
			}
			nothingHeld(t, w)

			v := reflect.New(tc.typ)
			release, err := w.Borrow(v.Interface())
			if tc.wantErr == nil {
				must(t, err)
				checkCustomView(t, "World.Borrow: "+tc.typ.String(), v.Elem())
				release()
			} else {
				// The parameter is the pointer to the type; the rest is the same.
				want := []string{"World.Borrow", "points to a type that"}
				for _, sub := range tc.wantErr {
					if !strings.HasPrefix(sub, "parameter 1 (") {
						want = append(want, sub)
					}
				}
				errHas(t, err, want...)
			}
			nothingHeld(t, w)

			ran = false
			err = w.AddWorkload("w", ecs.System(sys).Named("sys"))
			if tc.wantErr == nil {
				must(t, err)
				must(t, w.RunWorkload("w"))
				isTrue(t, ran, "the workload did not run the system")
			} else {
				errIs(t, err, ecs.ErrInvalidWorkload)
				errIs(t, err, ecs.ErrInvalidSystem)
				errHas(t, err, tc.wantErr...)
			}
			nothingHeld(t, w)
		})
	}
}

// checkCustomView checks a borrowed custom view: its views of cvPos and
// cvVel see the one entity, and every other field is left alone (zero).
func checkCustomView(t *testing.T, what string, v reflect.Value) {
	t.Helper()
	switch v.Type() {
	case reflect.TypeFor[ecs.View[cvPos]]():
		equal(t, what+": View[cvPos].Len", v.Interface().(ecs.View[cvPos]).Len(), 1)
		return
	case reflect.TypeFor[ecs.View[cvVel]]():
		equal(t, what+": View[cvVel].Len", v.Interface().(ecs.View[cvVel]).Len(), 1)
		return
	}
	switch {
	case v.Kind() == reflect.Struct && strings.HasPrefix(v.Type().Name(), "cv"):
		for i := range v.NumField() {
			checkCustomView(t, what+"."+v.Type().Field(i).Name, v.Field(i))
		}
	case v.Kind() == reflect.Array:
		for i := range v.Len() {
			checkCustomView(t, fmt.Sprintf("%s[%d]", what, i), v.Index(i))
		}
	default:
		isTrue(t, v.IsZero(), "%s: a field that is not a view was set: %v", what, v)
	}
}

// Borrows are never left held by a panic in a hook.
func TestHookPanicsReleaseEveryBorrow(t *testing.T) {
	borrowSys := func(u ecs.UniqueViewMut[leakTick], e ecs.EntitiesViewMut, h panicOnBorrow) {
		t.Error("the system ran although OnBorrow panicked")
	}
	releaseSys := func(u ecs.UniqueViewMut[leakTick], q ecs.ViewMut[leakQ], h panicOnRelease, e ecs.EntitiesView) {}
	for _, tc := range []struct {
		name string
		run  func(w *ecs.World)
		want string
	}{
		{"Run, OnBorrow", func(w *ecs.World) { _ = w.Run(borrowSys) }, "OnBorrow failed"},
		{"Run, OnRelease", func(w *ecs.World) { _ = w.Run(releaseSys) }, "OnRelease failed"},
		{"Borrow, OnBorrow", func(w *ecs.World) {
			var u ecs.UniqueViewMut[leakTick]
			var h panicOnBorrow
			_, _ = w.Borrow(&u, &h)
		}, "OnBorrow failed"},
		{"Borrow, OnRelease", func(w *ecs.World) {
			var q ecs.ViewMut[leakQ]
			var h panicOnRelease
			release, err := w.Borrow(&q, &h)
			if err != nil {
				t.Fatal(err)
			}
			release()
		}, "OnRelease failed"},
		{"RunWorkload, OnBorrow", func(w *ecs.World) {
			if err := w.AddWorkload("w", borrowSys); err != nil {
				t.Fatal(err)
			}
			_ = w.RunWorkload("w")
		}, "OnBorrow failed"},
		{"RunWorkload, OnRelease", func(w *ecs.World) {
			if err := w.AddWorkload("w", releaseSys); err != nil {
				t.Fatal(err)
			}
			_ = w.RunWorkload("w")
		}, "OnRelease failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := leakWorld(t)
			r := mustPanic(t, func() { tc.run(w) })
			if !strings.Contains(panicText(r), tc.want) {
				t.Errorf("panic %v, want one mentioning %q", r, tc.want)
			}
			nothingHeld(t, w)
			if _, err := ecs.AddEntity1(w, leakQ{3}); err != nil {
				t.Errorf("AddEntity after the panic: %v", err)
			}
		})
	}
}

// TestOnReleasePanicReleasesTheRestFirst checks that a panicking OnRelease
// still lets the hooks of the other custom views run and every view go.
func TestOnReleasePanicReleasesTheRestFirst(t *testing.T) {
	w := leakWorld(t)
	onReleaseCalls = 0
	sys := func(a panicOnRelease, q ecs.ViewMut[leakQ], b panicOnRelease) {}
	mustPanic(t, func() { _ = w.Run(sys) })
	if onReleaseCalls != 2 {
		t.Errorf("%d OnRelease calls, want 2: a panicking hook must not skip the others", onReleaseCalls)
	}
	nothingHeld(t, w)
}

// Custom views of unusual shapes: each is borrowed in full, or refused
// when the system is analysed with an error naming the field.

type embedsPtr struct {
	*ecs.View[leakQ]
}

type embedsBeside struct {
	ecs.View[leakQ]
	R ecs.ViewMut[leakR]
}

type arrayOfViews struct {
	Vs [2]ecs.View[leakQ]
	R  ecs.View[leakR]
}

type sliceOfViews struct {
	Vs []ecs.View[leakQ]
}

type arrayOfMuts struct {
	Vs [2]ecs.ViewMut[leakQ]
}

func TestCustomViewShapes(t *testing.T) {
	w := leakWorld(t)
	for _, tc := range []struct {
		name    string
		sys     any
		wantErr []string // the error's text must contain each; nil: the system runs
	}{
		{"embedded *View", func(v embedsPtr) { t.Error("ran") }, []string{"field View", "pointer"}},
		{"embedded View beside a field", func(v embedsBeside) {
			if v.Len() != 1 || v.R.Len() != 1 {
				t.Errorf("lengths %d and %d, want 1 and 1", v.Len(), v.R.Len())
			}
			if q, ok := v.Get(ecs.EntityID(0)); !ok || q.V != 1 {
				t.Errorf("embedded View.Get: %v %v", q, ok)
			}
		}, nil},
		{"array of views", func(v arrayOfViews) {
			for i, e := range v.Vs {
				if e.Len() != 1 {
					t.Errorf("Vs[%d].Len() = %d, want 1", i, e.Len())
				}
			}
			if v.R.Len() != 1 {
				t.Error("R not borrowed")
			}
		}, nil},
		{"slice of views", func(v sliceOfViews) { t.Error("ran") }, []string{"field Vs", "slice"}},
		{"array of conflicting views", func(v arrayOfMuts) { t.Error("ran") }, []string{"ViewMut"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := w.Run(tc.sys)
			switch {
			case tc.wantErr == nil && err != nil:
				t.Fatalf("Run: %v", err)
			case tc.wantErr != nil && err == nil:
				t.Fatalf("Run succeeded, want an error mentioning %q", tc.wantErr)
			}
			for _, s := range tc.wantErr {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
			nothingHeld(t, w)
		})
	}
}

// TestCustomViewSystemDoesNotAllocate: running a system that takes a
// custom view made of views only allocates nothing (its frame is reused).
func TestCustomViewSystemDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop frames on purpose")
	}
	w := ecs.NewWorld()
	_, err := ecs.AddEntity2(w, wPos{1, 2}, wVel{3, 4})
	noErr(t, err)
	type bundle struct {
		Pos ecs.ViewMut[wPos]
		Vel ecs.View[wVel]
	}
	runs := 0
	sys := func(b bundle, e ecs.EntitiesView) {
		for p, v := range ecs.Join2(b.Pos, b.Vel).All() {
			p.X += v.X
		}
		runs += e.Len()
	}
	noErr(t, w.Run(sys))
	if n := testing.AllocsPerRun(100, func() { _ = w.Run(sys) }); n != 0 {
		t.Fatalf("%v allocations per run of a system with a custom view", n)
	}
	p, err := ecs.Get[wPos](w, 0)
	noErr(t, err)
	if runs != 102 || p.X != 1+3*102 {
		t.Fatalf("after 102 runs: %d runs counted, Pos.X = %v; want 102 and %v", runs, p.X, 1+3*102)
	}
}

// panicOnBorrow is a custom view whose OnBorrow panics.
type panicOnBorrow struct {
	Q ecs.ViewMut[leakQ]
}

func (*panicOnBorrow) OnBorrow() error { panic("OnBorrow failed") }

// panicOnRelease is a custom view whose OnRelease panics; released counts
// the calls.
type panicOnRelease struct {
	R ecs.View[leakR]
}

var onReleaseCalls int

func (*panicOnRelease) OnRelease() { onReleaseCalls++; panic("OnRelease failed") }
