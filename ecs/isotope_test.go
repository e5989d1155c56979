package ecs_test

// Isotope components (isotope.go; the guide's docs/isotopes.md): several
// components of one type per entity, each keyed by a discriminant.

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// Element is the book's discriminant: what a bullet is made of.
type Element int

const (
	Fire Element = iota
	Water
	Earth
)

func (e Element) String() string { return [...]string{"Fire", "Water", "Earth"}[e] }

// Amount is the isotope component: how much of an element a bullet holds.
type Amount struct{ Mass float64 }

// Bullet is an ordinary component beside the isotopes.
type Bullet struct{ Speed float64 }

// hot and wet are discriminant sets for partial views.
type hot struct{}

func (hot) Discriminants() []Element { return []Element{Fire} }

type wet struct{}

func (wet) Discriminants() []Element { return []Element{Water, Water} } // a repeat counts once

type hotAndWet struct{}

func (hotAndWet) Discriminants() []Element { return []Element{Fire, Water} }

// TestIsotopeBullets is the book's scenario: bullets hold amounts of
// elements; a system scales every element, another reads the fire only,
// and the damage joins one element's storage with an ordinary view.
func TestIsotopeBullets(t *testing.T) {
	w := ecs.NewWorld()
	a, _ := ecs.AddEntity1(w, Bullet{Speed: 2})
	b, _ := ecs.AddEntity1(w, Bullet{Speed: 3})
	must(t, ecs.AddIsotope(w, a, Fire, Amount{1}))
	must(t, ecs.AddIsotope(w, a, Water, Amount{2}))
	must(t, ecs.AddIsotope(w, b, Fire, Amount{4}))
	must(t, ecs.AddIsotope(w, b, Earth, Amount{8}))

	// Full write: every element doubles.
	must(t, w.Run(func(v ecs.IsoViewMut[Element, Amount]) {
		if got := v.Discriminants(); !slices.Equal(got, []Element{Fire, Water, Earth}) {
			t.Errorf("Discriminants = %v", got)
		}
		for _, d := range v.Discriminants() {
			for m := range v.Of(d).All() {
				m.Mass *= 2
			}
		}
	}))
	// Partial read joined with an ordinary view.
	var damage []string
	must(t, w.Run(func(bullets ecs.View[Bullet], fire ecs.IsoSubView[Element, Amount, hot]) {
		ecs.Join2(bullets, fire.Of(Fire)).EachWithID(func(id ecs.EntityID, bl *Bullet, am *Amount) {
			damage = append(damage, fmt.Sprintf("%v:%g", id, bl.Speed*am.Mass))
		})
	}))
	if want := []string{fmt.Sprintf("%v:4", a), fmt.Sprintf("%v:24", b)}; !slices.Equal(damage, want) {
		t.Errorf("damage = %v, want %v", damage, want)
	}
	// An entity's isotopes, in discriminant order.
	must(t, w.Run(func(v ecs.IsoView[Element, Amount]) {
		var got []string
		for d, m := range v.Isotopes(a) {
			got = append(got, fmt.Sprintf("%v=%g", d, m.Mass))
		}
		if want := []string{"Fire=2", "Water=4"}; !slices.Equal(got, want) {
			t.Errorf("Isotopes(a) = %v, want %v", got, want)
		}
		if m, ok := v.Get(b, Earth); !ok || m.Mass != 16 {
			t.Errorf("Get(b, Earth) = %v, %v", m, ok)
		}
		if _, ok := v.Get(a, Element(7)); ok {
			t.Error("Get of a discriminant no entity has found one")
		}
	}))
	// Removing one isotope keeps the others; deleting the entity drops all.
	if old, ok, err := ecs.RemoveIsotope[Element, Amount](w, a, Water); err != nil || !ok || old.Mass != 4 {
		t.Errorf("RemoveIsotope = %v, %v, %v", old, ok, err)
	}
	if _, ok, err := ecs.RemoveIsotope[Element, Amount](w, a, Water); err != nil || ok {
		t.Errorf("RemoveIsotope again = %v, %v", ok, err)
	}
	must(t, w.DeleteEntity(b))
	must(t, w.Run(func(v ecs.IsoView[Element, Amount]) {
		for _, d := range v.Discriminants() {
			if ids := v.Of(d).IDs(); slices.Contains(ids, b) {
				t.Errorf("deleted entity still in %v", d)
			}
		}
		if n := v.Of(Fire).Len() + v.Of(Water).Len() + v.Of(Earth).Len(); n != 1 {
			t.Errorf("%d isotopes left, want 1", n)
		}
	}))
}

// TestIsotopeFullWriteCreatesLazily: a full write creates a
// discriminant's storage when asked for it, and a full read borrowed
// later sees it.
func TestIsotopeFullWriteCreatesLazily(t *testing.T) {
	w := ecs.NewWorld()
	id, _ := w.AddEntity()
	must(t, w.Run(func(e ecs.EntitiesView, v ecs.IsoViewMut[string, Amount]) {
		if len(v.Discriminants()) != 0 {
			t.Error("a new world has discriminants")
		}
		must(t, v.Of("salt").AddComponent(e, id, Amount{3}))
		must(t, v.Of("iron").AddComponent(e, id, Amount{5}))
		if got := v.Discriminants(); !slices.Equal(got, []string{"salt", "iron"}) {
			t.Errorf("Discriminants = %v", got)
		}
	}))
	must(t, w.Run(func(v ecs.IsoView[string, Amount]) {
		if m, ok := v.Get(id, "iron"); !ok || m.Mass != 5 {
			t.Errorf("Get = %v, %v", m, ok)
		}
	}))
	// Another discriminant type keys another family.
	must(t, w.Run(func(v ecs.IsoView[Element, Amount], o ecs.View[Amount]) {
		if len(v.Discriminants()) != 0 || o.Len() != 0 {
			t.Error("families or the ordinary storage share storages")
		}
	}))
}

// TestIsotopeOutsideTheSet: a partial view asked for a discriminant it
// does not cover panics with an *IsotopeError naming the type and the
// discriminant, and leaves nothing borrowed.
func TestIsotopeOutsideTheSet(t *testing.T) {
	w := ecs.NewWorld()
	id, _ := w.AddEntity()
	cases := []struct {
		name string
		sys  any
	}{
		{"IsoSubView.Of", func(v ecs.IsoSubView[Element, Amount, hot]) { v.Of(Water) }},
		{"IsoSubView.Get", func(v ecs.IsoSubView[Element, Amount, hot]) { v.Get(id, Earth) }},
		{"IsoSubViewMut.Of", func(v ecs.IsoSubViewMut[Element, Amount, wet]) { v.Of(Fire) }},
		{"IsoSubViewMut.Get", func(v ecs.IsoSubViewMut[Element, Amount, wet]) { v.Get(id, Earth) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got any
			func() {
				defer func() { got = recover() }()
				_ = w.Run(c.sys)
			}()
			var ie *ecs.IsotopeError
			err, _ := got.(error)
			if !errors.As(err, &ie) || !errors.Is(err, ecs.ErrIsotope) {
				t.Fatalf("panic %v, want an *IsotopeError", got)
			}
			if ie.Type != "ecs_test.Amount" || ie.Discriminant == "" || !strings.Contains(err.Error(), "outside the view's discriminants") {
				t.Errorf("error %q (%+v)", err, ie)
			}
			must(t, w.Run(func(ecs.IsoViewMut[Element, Amount]) {})) // nothing left borrowed
		})
	}
}

// TestIsotopeRefusedSets: a discriminant set that names nothing, panics,
// or holds an incomparable value is refused when the system is analysed.
type emptySet struct{}

func (emptySet) Discriminants() []any { return nil }

type panicSet struct{}

func (panicSet) Discriminants() []any { panic("no set") }

type nanSet struct{}

func (nanSet) Discriminants() []float64 { return []float64{1, math.NaN()} }

type sliceSet struct{}

func (sliceSet) Discriminants() []any { return []any{[]int{1}} }

func TestIsotopeRefusedSets(t *testing.T) {
	w := ecs.NewWorld()
	cases := []struct {
		sys  any
		want string
	}{
		{func(ecs.IsoSubView[any, Amount, emptySet]) {}, "lists no discriminant"},
		{func(ecs.IsoSubViewMut[any, Amount, panicSet]) {}, "panicked on the zero value: no set"},
		{func(ecs.IsoSubView[any, Amount, sliceSet]) {}, "is of a type that is not comparable"},
		{func(ecs.IsoSubView[float64, Amount, nanSet]) {}, "NaN is not equal to itself"},
		{func(ecs.IsoView[Element, ecs.Terminating]) {}, "ecs.Terminating"},
	}
	for _, c := range cases {
		err := w.Run(c.sys)
		if !errors.Is(err, ecs.ErrInvalidSystem) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Run = %v, want an invalid system naming %q", err, c.want)
		}
	}
	// A discriminant of an incomparable dynamic type is refused by the
	// full views and the World-level calls.
	id, _ := w.AddEntity()
	if err := ecs.AddIsotope[any](w, id, []int{1}, Amount{}); !errors.Is(err, ecs.ErrIsotope) || !strings.Contains(err.Error(), "[1] ([]int)") {
		t.Errorf("AddIsotope = %v", err)
	}
	if _, _, err := ecs.RemoveIsotope[any, Amount](w, id, map[int]int{}); !errors.Is(err, ecs.ErrIsotope) {
		t.Errorf("RemoveIsotope = %v", err)
	}
	for _, d := range []any{math.NaN(), struct{ F float64 }{math.NaN()}} {
		if err := ecs.AddIsotope(w, id, d, Amount{}); !errors.Is(err, ecs.ErrIsotope) || !strings.Contains(err.Error(), "NaN") {
			t.Errorf("AddIsotope(%v) = %v", d, err)
		}
	}
	func() {
		defer func() {
			if err, _ := recover().(error); !errors.Is(err, ecs.ErrIsotope) {
				t.Errorf("Of panicked with %v", err)
			}
		}()
		_ = w.Run(func(v ecs.IsoView[any, Amount]) { v.Of(func() {}) })
	}()
	if err := ecs.AddIsotope(w, ecs.NullID, Fire, Amount{}); !errors.Is(err, ecs.ErrDeadEntity) {
		t.Errorf("AddIsotope to a dead entity = %v", err)
	}
	var nilWorld *ecs.World
	if err := ecs.AddIsotope(nilWorld, id, Fire, Amount{}); !errors.Is(err, ecs.ErrNilWorld) {
		t.Errorf("AddIsotope on a nil world = %v", err)
	}
}

// TestIsotopeAccessRules is the book's table: full write conflicts with
// every access to the type, full read with writes, partial accesses to
// disjoint sets do not conflict, checked both by the borrows of views
// held at once and by the workload plan.
func TestIsotopeAccessRules(t *testing.T) {
	type kind struct {
		name   string
		borrow func(w *ecs.World) (func(), error)
		system any
	}
	kinds := []kind{
		{"full read", func(w *ecs.World) (func(), error) { var v ecs.IsoView[Element, Amount]; return w.Borrow(&v) }, func(ecs.IsoView[Element, Amount]) {}},
		{"full write", func(w *ecs.World) (func(), error) { var v ecs.IsoViewMut[Element, Amount]; return w.Borrow(&v) }, func(ecs.IsoViewMut[Element, Amount]) {}},
		{"read hot", func(w *ecs.World) (func(), error) { var v ecs.IsoSubView[Element, Amount, hot]; return w.Borrow(&v) }, func(ecs.IsoSubView[Element, Amount, hot]) {}},
		{"write hot", func(w *ecs.World) (func(), error) { var v ecs.IsoSubViewMut[Element, Amount, hot]; return w.Borrow(&v) }, func(ecs.IsoSubViewMut[Element, Amount, hot]) {}},
		{"read wet", func(w *ecs.World) (func(), error) { var v ecs.IsoSubView[Element, Amount, wet]; return w.Borrow(&v) }, func(ecs.IsoSubView[Element, Amount, wet]) {}},
		{"write wet", func(w *ecs.World) (func(), error) { var v ecs.IsoSubViewMut[Element, Amount, wet]; return w.Borrow(&v) }, func(ecs.IsoSubViewMut[Element, Amount, wet]) {}},
		{"write hot and wet", func(w *ecs.World) (func(), error) {
			var v ecs.IsoSubViewMut[Element, Amount, hotAndWet]
			return w.Borrow(&v)
		}, func(ecs.IsoSubViewMut[Element, Amount, hotAndWet]) {}},
		{"ordinary write", func(w *ecs.World) (func(), error) { var v ecs.ViewMut[Amount]; return w.Borrow(&v) }, func(ecs.ViewMut[Amount]) {}},
	}
	conflicts := func(a, b string) bool {
		set := map[string][]string{"read hot": {"Fire"}, "write hot": {"Fire"}, "read wet": {"Water"}, "write wet": {"Water"}, "write hot and wet": {"Fire", "Water"}, "full read": {"*"}, "full write": {"*"}}
		if a == "ordinary write" || b == "ordinary write" {
			return a == b // T's own storage is another storage
		}
		writes := func(k string) bool { return strings.HasPrefix(k, "write") || k == "full write" }
		if !writes(a) && !writes(b) {
			return false
		}
		for _, x := range set[a] {
			for _, y := range set[b] {
				if x == "*" || y == "*" || x == y {
					return true
				}
			}
		}
		return false
	}
	for _, x := range kinds {
		for _, y := range kinds {
			t.Run(x.name+"+"+y.name, func(t *testing.T) {
				want := conflicts(x.name, y.name)
				w := ecs.NewWorld()
				release, err := x.borrow(w)
				must(t, err)
				err = w.Run(y.system)
				release()
				if got := errors.Is(err, ecs.ErrBorrowConflict); got != want {
					t.Errorf("held %s, ran %s: err %v, want conflict %v", x.name, y.name, err, want)
				}
				must(t, w.AddWorkload("wl", x.system, y.system))
				p, err := w.WorkloadPlan("wl")
				must(t, err)
				if got := len(p.Batches) == 2; got != want {
					t.Errorf("plan %v: two batches %v, want %v", p, got, want)
				}
				must(t, w.RunWorkload("wl"))
			})
		}
	}
}

// TestIsotopePlanNamesDiscriminants: the plan lists a partial view once
// and says which discriminant two systems meet on.
func TestIsotopePlanNamesDiscriminants(t *testing.T) {
	w := ecs.NewWorld()
	must(t, w.AddWorkload("wl",
		func(ecs.IsoSubViewMut[Element, Amount, hotAndWet]) {},
		func(ecs.IsoSubView[Element, Amount, wet]) {}))
	p, err := w.WorkloadPlan("wl")
	must(t, err)
	if got := p.Systems[0].Accesses; !slices.Equal(got, []string{"IsoSubViewMut[ecs_test.Element, ecs_test.Amount, ecs_test.hotAndWet]"}) {
		t.Errorf("Accesses = %q", got)
	}
	if r := p.Systems[1].Reason; !strings.Contains(r, "ecs_test.Amount#Water") {
		t.Errorf("Reason = %q, want the discriminant named", r)
	}
}

// TestIsotopeParallelPartialWriters: systems writing disjoint sets run
// at once (checked by the race detector and the borrows), and the full
// reader after them sees both.
func TestIsotopeParallelPartialWriters(t *testing.T) {
	w := ecs.NewWorld()
	ids := make([]ecs.EntityID, 100)
	for i := range ids {
		ids[i], _ = w.AddEntity()
		must(t, ecs.AddIsotope(w, ids[i], Fire, Amount{1}))
		must(t, ecs.AddIsotope(w, ids[i], Water, Amount{1}))
	}
	var total float64
	must(t, w.AddWorkload("wl",
		func(v ecs.IsoSubViewMut[Element, Amount, hot]) {
			for m := range v.Of(Fire).All() {
				m.Mass += 1
			}
		},
		func(v ecs.IsoSubViewMut[Element, Amount, wet]) {
			for m := range v.Of(Water).All() {
				m.Mass += 10
			}
		},
		func(v ecs.IsoView[Element, Amount]) {
			total = 0
			for _, d := range v.Discriminants() {
				for m := range v.Of(d).All() {
					total += m.Mass
				}
			}
		}))
	must(t, w.RunWorkload("wl"))
	if total != 100*2+100*11 {
		t.Errorf("total = %g", total)
	}
}

// TestIsotopeOfConcurrently: one system's goroutines may ask a full view
// for discriminants, those created meanwhile included.
func TestIsotopeOfConcurrently(t *testing.T) {
	w := ecs.NewWorld()
	id, _ := w.AddEntity()
	must(t, w.Run(func(e ecs.EntitiesView, v ecs.IsoViewMut[int, Amount]) {
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for d := range 20 {
					_ = v.Of(d % (g + 2)).Len()
					_, _ = v.Get(id, d)
				}
			}()
		}
		wg.Wait()
		if n := len(v.Discriminants()); n != 5 {
			t.Errorf("%d discriminants, want 5", n)
		}
	}))
}

// TestIsotopeViewsAfterRelease: an isotope view, and the views it gave,
// panic with ErrReleased after the system returns.
func TestIsotopeViewsAfterRelease(t *testing.T) {
	w := ecs.NewWorld()
	var keep ecs.IsoView[Element, Amount]
	var of ecs.View[Amount]
	must(t, w.Run(func(v ecs.IsoView[Element, Amount]) { keep, of = v, v.Of(Fire) }))
	for name, f := range map[string]func(){
		"Of":            func() { keep.Of(Fire) },
		"Discriminants": func() { keep.Discriminants() },
		"Get":           func() { keep.Get(ecs.NullID, Fire) },
		"Isotopes":      func() { keep.Isotopes(ecs.NullID) },
		"the View":      func() { of.Len() },
	} {
		func() {
			defer func() {
				if err, _ := recover().(error); !errors.Is(err, ecs.ErrReleased) {
					t.Errorf("%s after release: panic %v", name, err)
				}
			}()
			f()
		}()
	}
}

// TestIsotopeMemoryReport: the memory report has a row per discriminant.
func TestIsotopeMemoryReport(t *testing.T) {
	w := ecs.NewWorld()
	id, _ := w.AddEntity()
	must(t, ecs.AddIsotope(w, id, Fire, Amount{1}))
	must(t, ecs.AddIsotope(w, id, Earth, Amount{1}))
	r, err := w.MemoryUsage()
	must(t, err)
	var rows []string
	for _, s := range r.Storages {
		rows = append(rows, fmt.Sprintf("%s:%d", s.Type, s.Components))
	}
	if want := []string{"ecs_test.Amount#Earth:1", "ecs_test.Amount#Fire:1"}; !slices.Equal(rows, want) {
		t.Errorf("rows = %v, want %v", rows, want)
	}
}

// TestIsotopeSnapshot: a snapshot restores the isotopes, into the same
// world and into another.
func TestIsotopeSnapshot(t *testing.T) {
	w := ecs.NewWorld()
	id, _ := w.AddEntity()
	must(t, ecs.AddIsotope(w, id, Fire, Amount{1}))
	var s ecs.Snapshot
	must(t, w.SnapshotTo(&s))
	must(t, ecs.AddIsotope(w, id, Fire, Amount{2}))
	must(t, ecs.AddIsotope(w, id, Water, Amount{3}))
	must(t, w.Restore(&s))
	w2 := ecs.NewWorld()
	must(t, w2.Restore(&s))
	for _, x := range []*ecs.World{w, w2} {
		must(t, x.Run(func(v ecs.IsoView[Element, Amount]) {
			var got []string
			for d, m := range v.Isotopes(id) {
				got = append(got, fmt.Sprintf("%v=%g", d, m.Mass))
			}
			if !slices.Equal(got, []string{"Fire=1"}) {
				t.Errorf("restored isotopes %v", got)
			}
		}))
	}
}

// isoPair is a custom view holding isotope views, one an array.
type isoPair struct {
	Hot  ecs.IsoSubViewMut[Element, Amount, hot]
	Wets [2]ecs.IsoSubView[Element, Amount, wet]
}

// TestIsotopePanicAndCustomViews: a system panicking mid-loop leaves no
// isotope borrow held; isotope views work inside custom views.
func TestIsotopePanicAndCustomViews(t *testing.T) {
	w := ecs.NewWorld()
	id, _ := w.AddEntity()
	must(t, ecs.AddIsotope(w, id, Fire, Amount{1}))
	must(t, ecs.AddIsotope(w, id, Water, Amount{2}))
	func() {
		defer func() { _ = recover() }()
		_ = w.Run(func(v ecs.IsoViewMut[Element, Amount]) {
			for range v.Of(Fire).All() {
				panic("mid-loop")
			}
		})
	}()
	must(t, w.Run(func(p isoPair) {
		if m, ok := p.Hot.Get(id, Fire); !ok || m.Mass != 1 {
			t.Errorf("Hot.Get = %v, %v", m, ok)
		}
		p.Hot.Of(Fire).MustGet(id).Mass = 5
		if m, ok := p.Wets[1].Get(id, Water); !ok || m.Mass != 2 {
			t.Errorf("Wets[1].Get = %v, %v", m, ok)
		}
	}))
	if err := w.Run(func(isoPair, ecs.IsoView[Element, Amount]) {}); !errors.Is(err, ecs.ErrBorrowConflict) {
		t.Errorf("a custom view's partial write beside a full read: %v", err)
	}
	release, err := w.Borrow(new(ecs.IsoView[Element, Amount]))
	must(t, err)
	if err := ecs.AddIsotope(w, id, Earth, Amount{}); !errors.Is(err, ecs.ErrBorrowConflict) {
		t.Errorf("AddIsotope while a view is held: %v", err)
	}
	release()
	must(t, ecs.AddIsotope(w, id, Earth, Amount{}))
}

// TestIsotopeConcurrentWorldCalls: goroutines run isotope systems and
// World-level isotope calls on one world at once. Each call succeeds or
// is refused with a BorrowError; the race detector checks the rest, and
// the counts add up.
func TestIsotopeConcurrentWorldCalls(t *testing.T) {
	w := ecs.NewWorld()
	id, _ := w.AddEntity()
	must(t, ecs.AddIsotope(w, id, Fire, Amount{}))
	must(t, ecs.AddIsotope(w, id, Water, Amount{}))
	var fire, water, fails [3]int
	var wg sync.WaitGroup
	for g := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				var err error
				switch (g + i) % 4 {
				case 0:
					err = w.Run(func(v ecs.IsoSubViewMut[Element, Amount, hot]) { v.Of(Fire).MustGet(id).Mass++ })
					if err == nil {
						fire[g]++
					}
				case 1:
					err = w.Run(func(v ecs.IsoSubViewMut[Element, Amount, wet]) { v.Of(Water).MustGet(id).Mass++ })
					if err == nil {
						water[g]++
					}
				case 2:
					err = w.Run(func(v ecs.IsoView[Element, Amount]) { _ = v.Of(Earth).Len() })
				case 3:
					err = ecs.AddIsotope(w, id, Element(2), Amount{})
				}
				if err != nil {
					if !errors.Is(err, ecs.ErrBorrowConflict) {
						t.Errorf("unexpected error %v", err)
						return
					}
					fails[g]++
				}
			}
		}()
	}
	wg.Wait()
	must(t, w.Run(func(v ecs.IsoView[Element, Amount]) {
		f, _ := v.Get(id, Fire)
		wa, _ := v.Get(id, Water)
		if int(f.Mass) != fire[0]+fire[1]+fire[2] || int(wa.Mass) != water[0]+water[1]+water[2] {
			t.Errorf("fire %g water %g, want %v %v", f.Mass, wa.Mass, fire, water)
		}
	}))
	t.Logf("refused: %v", fails)
}
