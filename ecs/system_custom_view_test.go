package ecs_test

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
