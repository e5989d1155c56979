package ecs_test

// Tests of Optional join terms: every way of iterating a join with an
// Optional term visits the entities that have its other components, with
// the optional component where present and nil elsewhere, whatever the
// storages' order, in a packed group or not, with Not and Changed.

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// Components of the Optional tests; V is the owning entity's index.
type (
	jtA struct{ V uint32 }
	jtB struct{ V uint32 }
	jtN struct{ V uint32 } // the Not filter's
	jtF struct{ V uint32 } // filler: every entity has one
	jtM struct{ V uint32 } // tracks modification
	jt3 struct{ V uint32 }
	jt4 struct{ V uint32 }
	jt5 struct{ V uint32 }
	jt6 struct{ V uint32 }
	jt7 struct{ V uint32 }
	jt8 struct{ V uint32 }
)

func (jtM) Tracking() ecs.Tracking { return ecs.TrackAll }

// optSeen records the visits of a join with an Optional term: per way,
// for each entity index visited, the optional component's V, or -1 for
// nil. It fails t when a visit is handed another entity's component, or
// visits an entity twice.
type optSeen struct {
	t    testing.TB
	mu   sync.Mutex
	ways map[string]map[uint32]int64
}

func newOptSeen(t testing.TB) *optSeen { return &optSeen{t: t, ways: map[string]map[uint32]int64{}} }

// visit records that way visited the entity whose required component
// holds v, with opt as the optional component, and id (NullID if the way
// gives none).
func optVisit[X hasV](s *optSeen, way string, id ecs.EntityID, v uint32, opt *X) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.ways[way]
	if m == nil {
		m = map[uint32]int64{}
		s.ways[way] = m
	}
	if id != ecs.NullID && id.Index() != v {
		s.t.Errorf("%s: visited %v with the component of entity %d", way, id, v)
	}
	if _, ok := m[v]; ok {
		s.t.Errorf("%s: visited entity %d twice", way, v)
	}
	m[v] = -1
	if opt != nil {
		if o := vOf(opt); o != v {
			s.t.Errorf("%s: entity %d handed the optional component of %d", way, v, o)
		}
		m[v] = int64(vOf(opt))
	}
}

// check fails t for each way whose visits differ from want.
func (s *optSeen) check(label string, want map[uint32]int64, ways ...string) {
	s.t.Helper()
	for _, way := range ways {
		if got := s.ways[way]; !maps.Equal(got, want) && (len(got) > 0 || len(want) > 0) {
			s.t.Errorf("%s, %s: visited %v, want %v", label, way, got, want)
		}
	}
}

// optWays2 iterates a join of a required X and an optional Y (optFirst:
// the optional term is the first view) every way, over entity indices
// 0..n-1 for Get, and returns what they saw and what Count answered.
func optWays2[X, Y hasV](t testing.TB, n uint32, mk func() (ecs.Iter2[X, Y], bool)) (*optSeen, int, []string) {
	s := newOptSeen(t)
	it, optFirst := mk()
	split := func(a *X, b *Y) (uint32, *Y) { return vOf(a), b }
	_ = optFirst
	ways := []string{"All", "WithID", "Each", "EachWithID", "Runs", "Next", "Get", "ParEach(1)", "ParEach(7)", "ParEach(big)"}
	for a, b := range it.All() {
		v, o := split(a, b)
		optVisit(s, "All", ecs.NullID, v, o)
	}
	for id, r := range it.WithID() {
		v, o := split(r.A, r.B)
		optVisit(s, "WithID", id, v, o)
	}
	it.Each(func(a *X, b *Y) { v, o := split(a, b); optVisit(s, "Each", ecs.NullID, v, o) })
	it.EachWithID(func(id ecs.EntityID, a *X, b *Y) { v, o := split(a, b); optVisit(s, "EachWithID", id, v, o) })
	for r := range it.Runs() {
		if len(r.A) != len(r.IDs) {
			t.Errorf("Runs: a run of %d ids has %d required components", len(r.IDs), len(r.A))
			continue
		}
		if len(r.B) != len(r.IDs) && (len(r.IDs) != 1 || len(r.B) != 0) {
			t.Errorf("Runs: a run of %d ids has %d optional components", len(r.IDs), len(r.B))
			continue
		}
		for i, id := range r.IDs {
			var o *Y
			if len(r.B) > 0 {
				o = &r.B[i]
			}
			optVisit(s, "Runs", id, vOf(&r.A[i]), o)
		}
	}
	for g, name := range map[int]string{1: "ParEach(1)", 7: "ParEach(7)", 1 << 20: "ParEach(big)"} {
		it.ParEachMin(g, func(a *X, b *Y) { v, o := split(a, b); optVisit(s, name, ecs.NullID, v, o) })
	}
	cur := it
	for cur.Next() {
		v, o := split(cur.Values())
		optVisit(s, "Next", cur.ID(), v, o)
	}
	for i := range n {
		if a, b, ok := it.Get(ecs.EntityID(i)); ok {
			v, o := split(a, b)
			optVisit(s, "Get", ecs.EntityID(i), v, o)
		}
	}
	if _, _, _, ok := it.Packed(); ok {
		t.Error("Packed answered ok for a join with an Optional term")
	}
	return s, it.Count(), ways
}

// optPattern says which components entity i has.
type optPattern struct {
	name string
	has  func(i uint32) (a, b, not bool)
}

var optPatterns = func() []optPattern {
	r := rand.New(rand.NewPCG(5, 3))
	random := make([][3]bool, 300)
	for i := range random {
		random[i] = [3]bool{r.IntN(4) != 0, r.IntN(2) == 0, r.IntN(5) == 0}
	}
	return []optPattern{
		{"all both", func(uint32) (bool, bool, bool) { return true, true, false }},
		{"no B", func(uint32) (bool, bool, bool) { return true, false, false }},
		{"B only", func(uint32) (bool, bool, bool) { return false, true, false }},
		{"alternating B", func(i uint32) (bool, bool, bool) { return true, i%2 == 0, false }},
		{"runs of B", func(i uint32) (bool, bool, bool) { return true, i%40 < 25, i%17 == 3 }},
		{"half A", func(i uint32) (bool, bool, bool) { return i%2 == 1, i%3 != 0, false }},
		{"random", func(i uint32) (bool, bool, bool) { x := random[i]; return x[0], x[1], x[2] }},
	}
}()

// optWorld builds n entities of pattern p (index i at entity index i) in
// the given layout: "together" adds each entity's components at once;
// "reversed" adds A in order and B in reverse order; "grouped" is
// together with a packed group of A and B; "grouped-late" makes the
// group before the entities exist.
func optWorld(t *testing.T, n uint32, p optPattern, layout string) *ecs.World {
	t.Helper()
	w := ecs.NewWorld()
	if layout == "grouped-late" {
		must(t, ecs.AddGroup2[jtA, jtB](w))
	}
	for i := range n {
		id, err := ecs.AddEntity1(w, jtF{i})
		must(t, err)
		if id.Index() != i {
			t.Fatalf("entity %v, want index %d", id, i)
		}
		a, b, not := p.has(i)
		if a {
			must(t, ecs.AddComponent1(w, id, jtA{i}))
		}
		if b && layout != "reversed" {
			must(t, ecs.AddComponent1(w, id, jtB{i}))
		}
		if not {
			must(t, ecs.AddComponent1(w, id, jtN{i}))
		}
	}
	if layout == "reversed" {
		for i := n; i > 0; i-- {
			if _, b, _ := p.has(i - 1); b {
				must(t, ecs.AddComponent1(w, ecs.EntityID(i-1), jtB{i - 1}))
			}
		}
	}
	if layout == "grouped" {
		must(t, ecs.AddGroup2[jtA, jtB](w))
	}
	return w
}

// TestJoinOptionalPatterns checks every way of iterating Join2(a,
// Optional(b)), Join2(Optional(b), a) and the same with Not, over every
// presence pattern and layout.
func TestJoinOptionalPatterns(t *testing.T) {
	const n = 300
	for _, p := range optPatterns {
		for _, layout := range []string{"together", "reversed", "grouped", "grouped-late"} {
			t.Run(p.name+"/"+layout, func(t *testing.T) {
				w := optWorld(t, n, p, layout)
				var a ecs.View[jtA]
				var b ecs.ViewMut[jtB]
				var not ecs.View[jtN]
				release, err := w.Borrow(&a, &b, &not)
				must(t, err)
				defer release()
				for _, withNot := range []bool{false, true} {
					want := map[uint32]int64{}
					for i := range uint32(n) {
						ha, hb, hn := p.has(i)
						if !ha || withNot && hn {
							continue
						}
						want[i] = -1
						if hb {
							want[i] = int64(i)
						}
					}
					label := fmt.Sprintf("Not=%v", withNot)
					s, count, ways := optWays2(t, n, func() (ecs.Iter2[jtA, jtB], bool) {
						it := ecs.Join2(a, ecs.Optional(b))
						if withNot {
							it = it.Not(not)
						}
						return it, false
					})
					s.check(label+", Join2(a, Optional(b))", want, ways...)
					if count != len(want) {
						t.Errorf("%s: Count = %d, want %d", label, count, len(want))
					}
					// The optional term first: the join is the same.
					it := ecs.Join2(ecs.Optional(b), a)
					if withNot {
						it = it.Not(not)
					}
					s2 := newOptSeen(t)
					it.EachWithID(func(id ecs.EntityID, o *jtB, x *jtA) { optVisit(s2, "first", id, vOf(x), o) })
					if c := it.Count(); c != len(want) {
						t.Errorf("%s: Join2(Optional(b), a).Count = %d, want %d", label, c, len(want))
					}
					for it.Next() {
						o, x := it.Values()
						optVisit(s2, "first Next", it.ID(), vOf(x), o)
					}
					s2.check(label+", Join2(Optional(b), a)", want, "first", "first Next")
				}
			})
		}
	}
}

// TestJoinOptionalOnlyRefused checks that a join of Optional terms only,
// at arity 1, 2 and 8, panics with ErrOnlyOptional when made.
func TestJoinOptionalOnlyRefused(t *testing.T) {
	w := ecs.NewWorld()
	_, err := ecs.AddEntity2(w, jtA{0}, jtB{0})
	must(t, err)
	var a ecs.View[jtA]
	var b ecs.ViewMut[jtB]
	release, err := w.Borrow(&a, &b)
	must(t, err)
	defer release()
	for name, mk := range map[string]func(){
		"Join1": func() { ecs.Join1(ecs.Optional(a)) },
		"Join2": func() { ecs.Join2(ecs.Optional(a), ecs.Optional(b)) },
		"Join8": func() {
			o := ecs.Optional(a)
			ecs.Join8(o, o, o, o, o, o, o, o)
		},
	} {
		r := recovered(mk)
		if !errors.Is(asError(r), ecs.ErrOnlyOptional) {
			t.Errorf("%s of Optional terms: recovered %v, want a panic wrapping ErrOnlyOptional", name, r)
		}
	}
	// The world is unchanged and a join with a required term still works.
	if got := ecs.Join2(a, ecs.Optional(b)).Count(); got != 1 {
		t.Errorf("after the refusals, Count = %d, want 1", got)
	}
}

// TestJoinOptionalArity1 checks that Optional of a View, ViewMut and
// Changed at arity 1 is an ordinary join when combined with a required
// term, and that Join1 of a plain view is unchanged.
func TestJoinOptionalArity1(t *testing.T) {
	w := optWorld(t, 50, optPatterns[3], "together")
	var a ecs.View[jtA]
	release, err := w.Borrow(&a)
	must(t, err)
	defer release()
	if got := ecs.Join1(a).Count(); got != 50 {
		t.Errorf("Join1(a).Count = %d, want 50", got)
	}
	if got := ecs.Join2(a, ecs.Optional(a)).Count(); got != 50 {
		t.Errorf("Join2(a, Optional(a)).Count = %d, want 50", got)
	}
	for x, y := range ecs.Join2(a, ecs.Optional(a)).All() {
		if x != y {
			t.Errorf("Join2(a, Optional(a)) handed %p and %p", x, y)
		}
	}
}

// TestJoinOptionalArity8 checks a join of 8 terms, 4 of them optional, at
// every position pattern, against a model.
func TestJoinOptionalArity8(t *testing.T) {
	const n = 200
	r := rand.New(rand.NewPCG(8, 8))
	has := make([][8]bool, n)
	w := ecs.NewWorld()
	for i := range uint32(n) {
		id, err := ecs.AddEntity1(w, jtF{i})
		must(t, err)
		for k := range 8 {
			has[i][k] = r.IntN(5) != 0
		}
		adds := []func() error{
			func() error { return ecs.AddComponent1(w, id, jtA{i}) },
			func() error { return ecs.AddComponent1(w, id, jtB{i}) },
			func() error { return ecs.AddComponent1(w, id, jt3{i}) },
			func() error { return ecs.AddComponent1(w, id, jt4{i}) },
			func() error { return ecs.AddComponent1(w, id, jt5{i}) },
			func() error { return ecs.AddComponent1(w, id, jt6{i}) },
			func() error { return ecs.AddComponent1(w, id, jt7{i}) },
			func() error { return ecs.AddComponent1(w, id, jt8{i}) },
		}
		for k, add := range adds {
			if has[i][k] {
				must(t, add())
			}
		}
	}
	must(t, ecs.AddGroup2[jtA, jtB](w))
	var v1 ecs.View[jtA]
	var v2 ecs.ViewMut[jtB]
	var v3 ecs.View[jt3]
	var v4 ecs.View[jt4]
	var v5 ecs.View[jt5]
	var v6 ecs.View[jt6]
	var v7 ecs.View[jt7]
	var v8 ecs.View[jt8]
	release, err := w.Borrow(&v1, &v2, &v3, &v4, &v5, &v6, &v7, &v8)
	must(t, err)
	defer release()
	type it8 = ecs.Iter8[jtA, jtB, jt3, jt4, jt5, jt6, jt7, jt8]
	o1, o2, o3, o4 := ecs.Optional(v1), ecs.Optional(v2), ecs.Optional(v3), ecs.Optional(v4)
	o5, o6, o7, o8 := ecs.Optional(v5), ecs.Optional(v6), ecs.Optional(v7), ecs.Optional(v8)
	cases := []struct {
		mask int // bit k: term k is optional
		mk   func() it8
	}{
		{0, func() it8 { return ecs.Join8(v1, v2, v3, v4, v5, v6, v7, v8) }},
		{0b00000010, func() it8 { return ecs.Join8(v1, o2, v3, v4, v5, v6, v7, v8) }},
		{0b10000001, func() it8 { return ecs.Join8(o1, v2, v3, v4, v5, v6, v7, o8) }},
		{0b10101010, func() it8 { return ecs.Join8(v1, o2, v3, o4, v5, o6, v7, o8) }},
		{0b11111110, func() it8 { return ecs.Join8(v1, o2, o3, o4, o5, o6, o7, o8) }},
		{0b01111111, func() it8 { return ecs.Join8(o1, o2, o3, o4, o5, o6, o7, v8) }},
		{0b11110011, func() it8 { return ecs.Join8(o1, o2, v3, v4, o5, o6, o7, o8) }},
	}
	for _, tc := range cases {
		mask := tc.mask
		t.Run(fmt.Sprintf("optional=%08b", mask), func(t *testing.T) {
			o := func(k int) bool { return mask&(1<<k) != 0 }
			it := tc.mk()
			want := map[uint32]string{}
			for i := range uint32(n) {
				s := ""
				ok := true
				for k := range 8 {
					ok = ok && (has[i][k] || o(k))
					s += fmt.Sprint(has[i][k])[:1]
				}
				if ok {
					want[i] = s
				}
			}
			record := func(got map[uint32]string, way string, r ecs.Row8[jtA, jtB, jt3, jt4, jt5, jt6, jt7, jt8]) {
				ps := []*struct{ V uint32 }{(*struct{ V uint32 })(r.A), (*struct{ V uint32 })(r.B), (*struct{ V uint32 })(r.C), (*struct{ V uint32 })(r.D),
					(*struct{ V uint32 })(r.E), (*struct{ V uint32 })(r.F), (*struct{ V uint32 })(r.G), (*struct{ V uint32 })(r.H)}
				s, v := "", uint32(0)
				for _, p := range ps {
					if p != nil {
						v = p.V
					}
				}
				for _, p := range ps {
					s += fmt.Sprint(p != nil)[:1]
					if p != nil && p.V != v {
						t.Errorf("%s: entity %d handed a component of %d", way, v, p.V)
					}
				}
				got[v] = s
			}
			all, each, cur, get, par := map[uint32]string{}, map[uint32]string{}, map[uint32]string{}, map[uint32]string{}, map[uint32]string{}
			for r := range it.All() {
				record(all, "All", r)
			}
			it.Each(func(a *jtA, b *jtB, c *jt3, d *jt4, e *jt5, f *jt6, g *jt7, h *jt8) {
				record(each, "Each", ecs.Row8[jtA, jtB, jt3, jt4, jt5, jt6, jt7, jt8]{a, b, c, d, e, f, g, h})
			})
			var mu sync.Mutex
			it.ParEachMin(5, func(a *jtA, b *jtB, c *jt3, d *jt4, e *jt5, f *jt6, g *jt7, h *jt8) {
				mu.Lock()
				defer mu.Unlock()
				record(par, "ParEach", ecs.Row8[jtA, jtB, jt3, jt4, jt5, jt6, jt7, jt8]{a, b, c, d, e, f, g, h})
			})
			c := it
			for c.Next() {
				a, b, c3, d, e, f, g, h := c.Values()
				record(cur, "Next", ecs.Row8[jtA, jtB, jt3, jt4, jt5, jt6, jt7, jt8]{a, b, c3, d, e, f, g, h})
			}
			for i := range uint32(n) {
				if a, b, c3, d, e, f, g, h, ok := it.Get(ecs.EntityID(i)); ok {
					record(get, "Get", ecs.Row8[jtA, jtB, jt3, jt4, jt5, jt6, jt7, jt8]{a, b, c3, d, e, f, g, h})
				}
			}
			for way, got := range map[string]map[uint32]string{"All": all, "Each": each, "ParEach": par, "Next": cur, "Get": get} {
				if !maps.Equal(got, want) {
					t.Errorf("%s: visited %d entities, want %d (%v, want %v)", way, len(got), len(want), got, want)
				}
			}
			if got := it.Count(); got != len(want) {
				t.Errorf("Count = %d, want %d", got, len(want))
			}
			runs := 0
			for r := range it.Runs() {
				runs += len(r.IDs)
			}
			if runs != len(want) {
				t.Errorf("Runs visited %d entities, want %d", runs, len(want))
			}
		})
	}
}

// TestJoinOptionalChangedAndMarks checks Optional of a Changed view (the
// component where it changed, nil elsewhere) and that a ViewMut under
// Optional marks modified only the components it hands out, in every way.
func TestJoinOptionalChangedAndMarks(t *testing.T) {
	w := ecs.NewWorld()
	for i := range uint32(40) {
		id, err := ecs.AddEntity1(w, jtA{i})
		must(t, err)
		if i%2 == 0 {
			must(t, ecs.AddComponent1(w, id, jtM{i}))
		}
	}
	var a ecs.View[jtA]
	var m ecs.ViewMut[jtM]
	release, err := w.Borrow(&a, &m)
	must(t, err)
	defer release()
	modifiedSet := func() map[uint32]bool { return takeModified(t, m) }
	m.ClearAllInsertedAndModified()
	for i := uint32(0); i < 40; i += 4 {
		m.Get(ecs.EntityID(i))
	}
	mod, err := m.Modified()
	must(t, err)
	s := newOptSeen(t)
	ecs.Join2(a, ecs.Optional(mod)).EachWithID(func(id ecs.EntityID, x *jtA, o *jtM) { optVisit(s, "Each", id, vOf(x), o) })
	for id, r := range ecs.Join2(a, ecs.Optional(mod)).WithID() {
		optVisit(s, "WithID", id, vOf(r.A), r.B)
	}
	want := map[uint32]int64{}
	for i := range uint32(40) {
		want[i] = -1
		if i%4 == 0 {
			want[i] = int64(i)
		}
	}
	s.check("Join2(a, Optional(modified))", want, "Each", "WithID")
	// With Not: the entities with an M are left out, changed or not.
	if got := ecs.Join2(a, ecs.Optional(mod)).Not(m).Count(); got != 20 {
		t.Errorf("Join2(a, Optional(modified)).Not(m).Count = %d, want 20", got)
	}
	m.ClearAllModified()

	present := map[uint32]bool{}
	for i := uint32(0); i < 40; i += 2 {
		present[i] = true
	}
	marking := map[string]func(){
		"Each":    func() { ecs.Join2(a, ecs.Optional(m)).Each(func(*jtA, *jtM) {}) },
		"All":     func() { rangeOver(ecs.Join2(a, ecs.Optional(m)).All())() },
		"ParEach": func() { ecs.Join2(a, ecs.Optional(m)).ParEachMin(3, func(*jtA, *jtM) {}) },
		"Runs":    func() { rangeOver1(ecs.Join2(a, ecs.Optional(m)).Runs())() },
		"Next": func() {
			for it := ecs.Join2(a, ecs.Optional(m)); it.Next(); {
			}
		},
		"Get": func() {
			for i := range uint32(40) {
				ecs.Join2(a, ecs.Optional(m)).Get(ecs.EntityID(i))
			}
		},
	}
	for way, run := range marking {
		run()
		if got := modifiedSet(); !maps.Equal(got, present) {
			t.Errorf("%s of Join2(a, Optional(m)) marked %v, want %v", way, got, present)
		}
	}
	// A count hands nothing out and marks nothing.
	ecs.Join2(a, ecs.Optional(m)).Count()
	if got := modifiedSet(); len(got) != 0 {
		t.Errorf("Count marked %v", got)
	}
}

// TestJoinOptionalAfterReleasePanics checks that a join with an Optional
// term panics with ErrReleased once its views are released, every way.
func TestJoinOptionalAfterReleasePanics(t *testing.T) {
	w := optWorld(t, 10, optPatterns[3], "together")
	var a ecs.View[jtA]
	var b ecs.ViewMut[jtB]
	release, err := w.Borrow(&a, &b)
	must(t, err)
	j := ecs.Join2(a, ecs.Optional(b))
	jf := ecs.Join2(ecs.Optional(b), a)
	release()
	mustPanicReleased(t, map[string]func(){
		"All":                         rangeOver(j.All()),
		"WithID":                      rangeOver(j.WithID()),
		"Each":                        func() { j.Each(func(*jtA, *jtB) {}) },
		"Count":                       func() { j.Count() },
		"Runs":                        rangeOver1(j.Runs()),
		"ParEach":                     func() { j.ParEach(func(*jtA, *jtB) {}) },
		"Packed":                      func() { j.Packed() },
		"Get":                         func() { j.Get(0) },
		"Next":                        func() { j.Next() },
		"first/Next":                  func() { jf.Next() },
		"Optional of a released view": func() { ecs.Join2(a, ecs.Optional(b)) },
	})
}

// takeModified returns the indices of the entities whose jtM m reports
// modified, and clears the modifications, so that the next call reports
// only what came after.
func takeModified(t *testing.T, m ecs.ViewMut[jtM]) map[uint32]bool {
	t.Helper()
	mod, err := m.Modified()
	must(t, err)
	got := map[uint32]bool{}
	for id := range mod.WithID() {
		got[id.Index()] = true
	}
	m.ClearAllModified()
	return got
}
