package ecs_test

// Tests of Or join terms: every way of iterating a join with an Or term
// visits the entities that match its other terms and have any of the
// Or's components, handing out which ones they have; a join of Or terms
// only visits the union of their storages, each entity once. With Not,
// WithID, Changed, Optional, at arity 2 to 4 and at any position; marks;
// ParEach writes; bad inputs; and a model over random worlds.

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// orSig is the presence signature of the components an Or term hands
// out, one letter per member present ("AB", "A-", "-B"), checking that
// each belongs to entity v.
func orSig(t testing.TB, way string, v uint32, ps ...*uint32) string {
	var b strings.Builder
	for k, p := range ps {
		if p == nil {
			b.WriteByte('-')
			continue
		}
		if *p != v {
			t.Errorf("%s: entity %d handed member %d of entity %d", way, v, k, *p)
		}
		b.WriteByte(byte('A' + k))
	}
	return b.String()
}

// vp returns a pointer to a copy of x's V, or nil.
func vp[X hasV](x *X) *uint32 {
	if x == nil {
		return nil
	}
	v := vOf(x)
	return &v
}

// sig2 is orSig of an Either2.
func sig2[X, Y hasV](t testing.TB, way string, v uint32, e *ecs.Either2[X, Y]) string {
	if e == nil {
		return "nil"
	}
	if e.Count() == 0 {
		t.Errorf("%s: entity %d handed an empty Either2", way, v)
	}
	return orSig(t, way, v, vp(e.A), vp(e.B))
}

// visits records, per way, the signature of each entity index visited,
// failing on a second visit.
type visits struct {
	t    testing.TB
	mu   sync.Mutex
	ways map[string]map[uint32]string
}

func newVisits(t testing.TB) *visits { return &visits{t: t, ways: map[string]map[uint32]string{}} }

func (s *visits) add(way string, id ecs.EntityID, v uint32, sig string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id != ecs.NullID && id.Index() != v {
		s.t.Errorf("%s: visited %v with the components of entity %d", way, id, v)
	}
	m := s.ways[way]
	if m == nil {
		m = map[uint32]string{}
		s.ways[way] = m
	}
	if _, ok := m[v]; ok {
		s.t.Errorf("%s: visited entity %d twice", way, v)
	}
	m[v] = sig
}

func (s *visits) check(label string, want map[uint32]string, ways ...string) {
	s.t.Helper()
	for _, way := range ways {
		if got := s.ways[way]; !maps.Equal(got, want) && (len(got) > 0 || len(want) > 0) {
			s.t.Errorf("%s, %s: visited %d entities, want %d:\n got  %v\n want %v", label, way, len(got), len(want), got, want)
		}
	}
}

// orWays2 goes through it every way; key returns the entity index and
// signature of a visit. Get tries entity indices 0..n-1.
func orWays2[X, Y any](t testing.TB, n uint32, it ecs.Iter2[X, Y], key func(way string, x *X, y *Y) (uint32, string)) (*visits, []string) {
	s := newVisits(t)
	ways := []string{"All", "WithID", "Each", "EachWithID", "Runs", "Next", "Get", "ParEach(1)", "ParEach(7)", "ParEach(big)", "Count"}
	for x, y := range it.All() {
		v, sig := key("All", x, y)
		s.add("All", ecs.NullID, v, sig)
	}
	for id, r := range it.WithID() {
		v, sig := key("WithID", r.A, r.B)
		s.add("WithID", id, v, sig)
	}
	it.Each(func(x *X, y *Y) { v, sig := key("Each", x, y); s.add("Each", ecs.NullID, v, sig) })
	it.EachWithID(func(id ecs.EntityID, x *X, y *Y) { v, sig := key("EachWithID", x, y); s.add("EachWithID", id, v, sig) })
	for r := range it.Runs() {
		if len(r.IDs) != 1 {
			t.Errorf("Runs: a run of %d entities in a join with an Or term", len(r.IDs))
		}
		for i, id := range r.IDs {
			var x *X
			var y *Y
			if i < len(r.A) {
				x = &r.A[i]
			}
			if i < len(r.B) {
				y = &r.B[i]
			}
			v, sig := key("Runs", x, y)
			s.add("Runs", id, v, sig)
		}
	}
	for g, name := range map[int]string{1: "ParEach(1)", 7: "ParEach(7)", 1 << 20: "ParEach(big)"} {
		it.ParEachMin(g, func(x *X, y *Y) { v, sig := key(name, x, y); s.add(name, ecs.NullID, v, sig) })
	}
	cur := it
	for cur.Next() {
		x, y := cur.Values()
		v, sig := key("Next", x, y)
		s.add("Next", cur.ID(), v, sig)
	}
	for i := range n {
		if x, y, ok := it.Get(ecs.EntityID(i)); ok {
			v, sig := key("Get", x, y)
			s.add("Get", ecs.EntityID(i), v, sig)
		}
	}
	if _, _, _, ok := it.Packed(); ok {
		t.Error("Packed answered ok for a join with an Or term")
	}
	// Count agrees: record it as a way whose entities are 0..Count-1.
	for i := range it.Count() {
		s.add("Count", ecs.NullID, uint32(i), "")
	}
	return s, ways
}

// countWant is want as the Count way records it.
func countWant(want map[uint32]string) map[uint32]string {
	m := map[uint32]string{}
	for i := range len(want) {
		m[uint32(i)] = ""
	}
	return m
}

// orPresence says which of A, B, C (jt3), D (jt4), N (the Not filter's)
// entity i has; every entity has an F.
type orPresence [5]bool

// orRandomWorld builds n entities of random presences (index i at entity
// index i); reversed adds the Bs in reverse order.
func orRandomWorld(t *testing.T, seed uint64, n uint32, reversed bool) (*ecs.World, []orPresence) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 53))
	w := ecs.NewWorld()
	w.SetAutoAlign(false)
	has := make([]orPresence, n)
	for i := range n {
		id, err := ecs.AddEntity1(w, jtF{i})
		must(t, err)
		if id.Index() != i {
			t.Fatalf("entity %v, want index %d", id, i)
		}
		h := orPresence{r.IntN(2) == 0, r.IntN(3) == 0, r.IntN(3) != 0, r.IntN(4) == 0, r.IntN(5) == 0}
		has[i] = h
		if h[0] {
			must(t, ecs.AddComponent1(w, id, jtA{i}))
		}
		if h[1] && !reversed {
			must(t, ecs.AddComponent1(w, id, jtB{i}))
		}
		if h[2] {
			must(t, ecs.AddComponent1(w, id, jt3{i}))
		}
		if h[3] {
			must(t, ecs.AddComponent1(w, id, jt4{i}))
		}
		if h[4] {
			must(t, ecs.AddComponent1(w, id, jtN{i}))
		}
	}
	if reversed {
		for i := n; i > 0; i-- {
			if has[i-1][1] {
				must(t, ecs.AddComponent1(w, ecs.EntityID(i-1), jtB{i - 1}))
			}
		}
	}
	return w, has
}

// wantOr returns the model of a join over the entities of has: with
// need, the entities must have that member (0..3); members, the Or's;
// not, exclude those with an N; optional, the Or is Optional.
func wantOr(has []orPresence, need int, members []int, not, optional bool) map[uint32]string {
	want := map[uint32]string{}
	for i, h := range has {
		if need >= 0 && !h[need] || not && h[4] {
			continue
		}
		sig, any := "", false
		for k, m := range members {
			if h[m] {
				sig += string(rune('A' + k))
				any = true
			} else {
				sig += "-"
			}
		}
		switch {
		case any:
		case optional:
			sig = "nil"
		default:
			continue
		}
		want[uint32(i)] = sig
	}
	return want
}

// TestJoinOrPatterns checks every way of iterating joins of 2 terms with
// an Or2 term, first or last, alone (a union), with Not, with Optional
// beside it and under it, over random worlds in two layouts.
func TestJoinOrPatterns(t *testing.T) {
	const n = 300
	for _, seed := range []uint64{1, 2, 3} {
		for _, reversed := range []bool{false, true} {
			t.Run(fmt.Sprintf("seed=%d/reversed=%v", seed, reversed), func(t *testing.T) {
				w, has := orRandomWorld(t, seed, n, reversed)
				var f ecs.View[jtF]
				var a ecs.View[jtA]
				var b ecs.ViewMut[jtB]
				var c ecs.View[jt3]
				var not ecs.View[jtN]
				release, err := w.Borrow(&f, &a, &b, &c, &not)
				must(t, err)
				defer release()
				for _, withNot := range []bool{false, true} {
					label := fmt.Sprintf("Not=%v", withNot)
					orKey := func(way string, x *jt3, e *ecs.Either2[jtA, jtB]) (uint32, string) {
						v := vOf(x)
						return v, sig2(t, way, v, e)
					}
					// Or last: Join2(c, Or2(a, b)).
					it := ecs.Join2(c, ecs.Or2(a, b))
					if withNot {
						it = it.Not(not)
					}
					want := wantOr(has, 2, []int{0, 1}, withNot, false)
					s, ways := orWays2(t, n, it, orKey)
					s.check(label+", Join2(c, Or2(a, b))", want, ways[:len(ways)-1]...)
					s.check(label+", Join2(c, Or2(a, b))", countWant(want), "Count")

					// Or first: Join2(Or2(a, b), c).
					itf := ecs.Join2(ecs.Or2(a, b), c)
					if withNot {
						itf = itf.Not(not)
					}
					s, ways = orWays2(t, n, itf, func(way string, e *ecs.Either2[jtA, jtB], x *jt3) (uint32, string) {
						return orKey(way, x, e)
					})
					s.check(label+", Join2(Or2(a, b), c)", want, ways[:len(ways)-1]...)
					s.check(label+", Join2(Or2(a, b), c)", countWant(want), "Count")

					// Optional(Or2(a, b)) beside a required term.
					ito := ecs.Join2(c, ecs.Optional(ecs.Or2(a, b)))
					if withNot {
						ito = ito.Not(not)
					}
					want = wantOr(has, 2, []int{0, 1}, withNot, true)
					s, ways = orWays2(t, n, ito, orKey)
					s.check(label+", Join2(c, Optional(Or2(a, b)))", want, ways[:len(ways)-1]...)

					// Or only, with an Optional beside it: the union of A and B.
					itu := ecs.Join2(ecs.Or2(a, b), ecs.Optional(c))
					if withNot {
						itu = itu.Not(not)
					}
					want = wantOr(has, -1, []int{0, 1}, withNot, false)
					s, ways = orWays2(t, n, itu, func(way string, e *ecs.Either2[jtA, jtB], x *jt3) (uint32, string) {
						var v uint32
						switch {
						case e.A != nil:
							v = vOf(e.A)
						case e.B != nil:
							v = vOf(e.B)
						}
						if (x != nil) != has[v][2] || x != nil && vOf(x) != v {
							t.Errorf("%s: entity %d handed the optional C %v", way, v, x)
						}
						return v, sig2(t, way, v, e)
					})
					s.check(label+", Join2(Or2(a, b), Optional(c))", want, ways[:len(ways)-1]...)
					s.check(label+", Join2(Or2(a, b), Optional(c))", countWant(want), "Count")

					// Join1 of an Or: the union, with WithID.
					it1 := ecs.Join1(ecs.Or2(b, a))
					if withNot {
						it1 = it1.Not(not)
					}
					want = wantOr(has, -1, []int{1, 0}, withNot, false)
					s = newVisits(t)
					for id, e := range it1.WithID() {
						s.add("Join1 WithID", id, id.Index(), sig2(t, "Join1", id.Index(), e))
					}
					cur := it1
					for cur.Next() {
						s.add("Join1 Next", cur.ID(), cur.ID().Index(), sig2(t, "Join1 Next", cur.ID().Index(), cur.Values()))
					}
					s.check(label+", Join1(Or2(b, a))", want, "Join1 WithID", "Join1 Next")
					equal(t, label+", Join1(Or2(b, a)).Count", it1.Count(), len(want))
				}
			})
		}
	}
}

// TestJoinOrArity checks Or2, Or3 and Or4 at the first, middle and last
// position of joins of 3 and 4 terms, against the model.
func TestJoinOrArity(t *testing.T) {
	const n = 250
	w, has := orRandomWorld(t, 7, n, true)
	var f ecs.View[jtF]
	var a ecs.View[jtA]
	var b ecs.ViewMut[jtB]
	var c ecs.View[jt3]
	var d ecs.View[jt4]
	var not ecs.View[jtN]
	release, err := w.Borrow(&f, &a, &b, &c, &d, &not)
	must(t, err)
	defer release()
	wantF := func(members []int) map[uint32]string { return wantOr(has, -1, members, false, false) }
	check := func(label string, want map[uint32]string, got map[uint32]string) {
		t.Helper()
		if !maps.Equal(got, want) {
			t.Errorf("%s: visited %d entities, want %d:\n got  %v\n want %v", label, len(got), len(want), got, want)
		}
	}
	sig3 := func(way string, v uint32, e *ecs.Either3[jtA, jtB, jt4]) string {
		if e.Count() == 0 {
			t.Errorf("%s: an empty Either3", way)
		}
		return orSig(t, way, v, vp(e.A), vp(e.B), vp(e.C))
	}
	sig4 := func(way string, v uint32, e *ecs.Either4[jtA, jtB, jt3, jt4]) string {
		if e.Count() == 0 {
			t.Errorf("%s: an empty Either4", way)
		}
		return orSig(t, way, v, vp(e.A), vp(e.B), vp(e.C), vp(e.D))
	}
	o3 := ecs.Or3(a, b, d)
	o4 := ecs.Or4(a, b, c, d)

	// Or3 first, middle, last of a Join3 with F (every entity) and Not.
	for pos := range 3 {
		got, cur := map[uint32]string{}, map[uint32]string{}
		switch pos {
		case 0:
			it := ecs.Join3(o3, f, f).Not(not)
			for r := range it.All() {
				got[vOf(r.B)] = sig3("All", vOf(r.B), r.A)
			}
			for it.Next() {
				e, x, _ := it.Values()
				cur[vOf(x)] = sig3("Next", vOf(x), e)
			}
		case 1:
			it := ecs.Join3(f, o3, f).Not(not)
			it.Each(func(x *jtF, e *ecs.Either3[jtA, jtB, jt4], _ *jtF) { got[vOf(x)] = sig3("Each", vOf(x), e) })
			for it.Next() {
				x, e, _ := it.Values()
				cur[vOf(x)] = sig3("Next", vOf(x), e)
			}
		case 2:
			it := ecs.Join3(f, f, o3).Not(not)
			var mu sync.Mutex
			it.ParEachMin(5, func(x, _ *jtF, e *ecs.Either3[jtA, jtB, jt4]) {
				mu.Lock()
				defer mu.Unlock()
				got[vOf(x)] = sig3("ParEach", vOf(x), e)
			})
			for it.Next() {
				x, _, e := it.Values()
				cur[vOf(x)] = sig3("Next", vOf(x), e)
			}
		}
		want := wantOr(has, -1, []int{0, 1, 3}, true, false)
		check(fmt.Sprintf("Or3 at %d", pos), want, got)
		check(fmt.Sprintf("Or3 at %d, Next", pos), want, cur)
	}
	// Or4 first, middle, last of a Join4 with F twice and C required.
	want := wantF([]int{0, 1, 2, 3})
	for k, v := range want {
		if !has[k][2] {
			delete(want, k)
		} else if v[2] != 'C' {
			t.Fatalf("model: entity %d has C but signature %q", k, v)
		}
	}
	for pos := range 4 {
		got := map[uint32]string{}
		switch pos {
		case 0:
			for id, r := range ecs.Join4(o4, f, c, f).WithID() {
				got[id.Index()] = sig4("WithID", vOf(r.B), r.A)
			}
		case 1:
			for r := range ecs.Join4(f, o4, f, c).All() {
				got[vOf(r.A)] = sig4("All", vOf(r.A), r.B)
			}
		case 2:
			ecs.Join4(c, f, o4, f).EachWithID(func(id ecs.EntityID, x *jt3, _ *jtF, e *ecs.Either4[jtA, jtB, jt3, jt4], _ *jtF) {
				got[id.Index()] = sig4("EachWithID", vOf(x), e)
			})
		case 3:
			it := ecs.Join4(f, c, f, o4)
			for i := range uint32(n) {
				if x, _, _, e, ok := it.Get(ecs.EntityID(i)); ok {
					got[i] = sig4("Get", vOf(x), e)
				}
			}
		}
		check(fmt.Sprintf("Or4 at %d", pos), want, got)
	}
	// Two Or terms in one join: Join2(Or2(a, b), Or2(c, d)).
	got := map[uint32]string{}
	for e1, e2 := range ecs.Join2(ecs.Or2(a, b), ecs.Or2(c, d)).All() {
		var v uint32
		for _, p := range []*uint32{vp(e1.A), vp(e1.B)} {
			if p != nil {
				v = *p
			}
		}
		got[v] = sig2(t, "two Ors", v, e1) + sig2(t, "two Ors", v, e2)
	}
	want = map[uint32]string{}
	ab, cd := wantF([]int{0, 1}), wantF([]int{2, 3})
	for k, v := range ab {
		if v2, ok := cd[k]; ok {
			want[k] = v + v2
		}
	}
	check("Join2(Or2(a, b), Or2(c, d))", want, got)
	// An Or of an Or.
	got = map[uint32]string{}
	for id, e := range ecs.Join1(ecs.Or2(ecs.Or2(a, b), d)).WithID() {
		v := id.Index()
		s := "-"
		if e.A != nil {
			s = sig2(t, "nested", v, e.A)
		}
		got[v] = s + orSig(t, "nested", v, vp(e.B))
	}
	want = map[uint32]string{}
	for k, v := range wantF([]int{0, 1, 3}) {
		inner := v[:2]
		if inner == "--" {
			inner = "-"
		}
		want[k] = inner + strings.ReplaceAll(v[2:], "C", "A")
	}
	check("Join1(Or2(Or2(a, b), d))", want, got)
}

// TestJoinOrChangedAndMarks checks an Or of a Changed view (present only
// where changed in its window) and that a ViewMut under Or marks modified
// only the components the join hands out, in every way.
func TestJoinOrChangedAndMarks(t *testing.T) {
	w := ecs.NewWorld()
	for i := range uint32(60) {
		id, err := ecs.AddEntity1(w, jtF{i})
		must(t, err)
		if i%3 == 0 {
			must(t, ecs.AddComponent1(w, id, jtA{i}))
		}
		if i%2 == 0 {
			must(t, ecs.AddComponent1(w, id, jtM{i}))
		}
		if i%5 != 0 {
			must(t, ecs.AddComponent1(w, id, jt3{i}))
		}
	}
	var f ecs.View[jtF]
	var a ecs.View[jtA]
	var c ecs.View[jt3]
	var m ecs.ViewMut[jtM]
	release, err := w.Borrow(&f, &a, &c, &m)
	must(t, err)
	defer release()
	modifiedSet := func() map[uint32]bool { return takeModified(t, m) }
	m.ClearAllInsertedAndModified()
	for i := uint32(0); i < 60; i += 4 {
		m.Get(ecs.EntityID(i))
	}
	mod, err := m.Modified()
	must(t, err)
	// Or2(a, modified): A where present, M only where modified.
	want := map[uint32]string{}
	for i := range uint32(60) {
		sig := ""
		if i%3 == 0 {
			sig += "A"
		} else {
			sig += "-"
		}
		if i%4 == 0 {
			sig += "B"
		} else {
			sig += "-"
		}
		if sig != "--" {
			want[i] = sig
		}
	}
	s, ways := orWays2(t, 60, ecs.Join2(f, ecs.Or2(a, mod)), func(way string, x *jtF, e *ecs.Either2[jtA, jtM]) (uint32, string) {
		return vOf(x), sig2(t, way, vOf(x), e)
	})
	s.check("Join2(f, Or2(a, modified))", want, ways[:len(ways)-1]...)
	s.check("Join2(f, Or2(a, modified))", countWant(want), "Count")
	got := map[uint32]string{}
	for id, e := range ecs.Join1(ecs.Or2(a, mod)).WithID() {
		got[id.Index()] = sig2(t, "Join1", id.Index(), e)
	}
	if !maps.Equal(got, want) {
		t.Errorf("Join1(Or2(a, modified)): %v, want %v", got, want)
	}
	m.ClearAllModified()

	// Join2(c, Or2(a, m)): marks the Ms of the entities with a C.
	present := map[uint32]bool{}
	for i := uint32(0); i < 60; i += 2 {
		if i%5 != 0 {
			present[i] = true
		}
	}
	j := func() ecs.Iter2[jt3, ecs.Either2[jtA, jtM]] { return ecs.Join2(c, ecs.Or2(a, m)) }
	marking := map[string]func(){
		"Each":    func() { j().Each(func(*jt3, *ecs.Either2[jtA, jtM]) {}) },
		"All":     func() { rangeOver(j().All())() },
		"WithID":  func() { rangeOver(j().WithID())() },
		"ParEach": func() { j().ParEachMin(3, func(*jt3, *ecs.Either2[jtA, jtM]) {}) },
		"Runs":    func() { rangeOver1(j().Runs())() },
		"Next": func() {
			for it := j(); it.Next(); {
			}
		},
		"Get": func() {
			it := j()
			for i := range uint32(60) {
				it.Get(ecs.EntityID(i))
			}
		},
	}
	for way, run := range marking {
		run()
		if got := modifiedSet(); !maps.Equal(got, present) {
			t.Errorf("%s of Join2(c, Or2(a, m)) marked %v, want %v", way, got, present)
		}
	}
	// Stopping early marks only what was handed out.
	for range j().All() {
		break
	}
	if got := modifiedSet(); len(got) > 1 {
		t.Errorf("a range stopped at the first entity marked %v", got)
	}
	// A count hands nothing out and marks nothing.
	j().Count()
	if got := modifiedSet(); len(got) != 0 {
		t.Errorf("Count marked %v", got)
	}
	// A nested Or marks through.
	for range ecs.Join2(c, ecs.Or2(ecs.Or2(a, m), f)).All() {
	}
	if got := modifiedSet(); !maps.Equal(got, present) {
		t.Errorf("a nested Or marked %v, want %v", got, present)
	}
}

// TestJoinOrParEachWrites checks that ParEach writes through every member
// of an Or term (run under -race), and that the writes stick.
func TestJoinOrParEachWrites(t *testing.T) {
	const n = 5000
	w, has := orRandomWorld(t, 11, n, true)
	must(t, w.Run(func(f ecs.View[jtF], a ecs.ViewMut[jtA], b ecs.ViewMut[jtB]) {
		ecs.Join2(f, ecs.Or2(a, b)).ParEachMin(64, func(x *jtF, e *ecs.Either2[jtA, jtB]) {
			if e.A != nil {
				e.A.V += 1_000_000
			}
			if e.B != nil {
				e.B.V += 2_000_000
			}
		})
		ecs.Join1(ecs.Or2(a, b)).ParEachMin(64, func(e *ecs.Either2[jtA, jtB]) {
			if e.A != nil {
				e.A.V += 10_000_000
			}
			if e.B != nil {
				e.B.V += 20_000_000
			}
		})
	}))
	for i := range uint32(n) {
		if has[i][0] {
			v, err := ecs.Get[jtA](w, ecs.EntityID(i))
			must(t, err)
			equal(t, fmt.Sprintf("A of %d", i), v.V, i+11_000_000)
		}
		if has[i][1] {
			v, err := ecs.Get[jtB](w, ecs.EntityID(i))
			must(t, err)
			equal(t, fmt.Sprintf("B of %d", i), v.V, i+22_000_000)
		}
	}
}

// TestJoinOrRangesAtOnce ranges over one join with an Or term from
// several goroutines at once, as any join allows (run under -race): each
// iteration builds a table of its own, and all see the same entities.
func TestJoinOrRangesAtOnce(t *testing.T) {
	const n = 3000
	w, _ := orRandomWorld(t, 5, n, false)
	must(t, w.Run(func(f ecs.View[jtF], a ecs.View[jtA], b ecs.View[jtB]) {
		j := ecs.Join2(f, ecs.Or2(a, b))
		seq := j.WithID()
		want := 0
		for range seq {
			want++
		}
		var wg sync.WaitGroup
		counts := make([]int, 4)
		for g := range counts {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 5 {
					c := 0
					for id, r := range seq {
						e := r.B
						if e.Count() == 0 || (e.A != nil) != a.Contains(id) {
							t.Errorf("entity %v: %d present, A %v", id, e.Count(), e.A != nil)
							return
						}
						c++
					}
					counts[g] = c
				}
			}()
		}
		wg.Wait()
		for g, c := range counts {
			if c != want {
				t.Errorf("goroutine %d saw %d entities, want %d", g, c, want)
			}
		}
	}))
}

// TestJoinOrBadInput checks that an Or of views of one storage, of an
// Optional term, of a zero view, and a join with an Or whose view was
// released, panic with errors wrapping ErrBadOr or ErrReleased that name
// what was wrong.
func TestJoinOrBadInput(t *testing.T) {
	w, _ := orRandomWorld(t, 1, 10, false)
	var a ecs.View[jtA]
	var a2 ecs.View[jtA]
	var b ecs.ViewMut[jtB]
	release, err := w.Borrow(&a, &b)
	must(t, err)
	release2, err := w.Borrow(&a2)
	must(t, err)
	defer release2()
	for name, tc := range map[string]struct {
		mk   func()
		want error
		says string
	}{
		"same view":                 {func() { ecs.Join1(ecs.Or2(a, a)) }, ecs.ErrBadOr, "same storage"},
		"same storage, two views":   {func() { ecs.Join1(ecs.Or3(b, a, a2)) }, ecs.ErrBadOr, "terms 2 and 3"},
		"Optional term":             {func() { ecs.Or2(a, ecs.Optional(b)) }, ecs.ErrBadOr, "term 2 is Optional"},
		"Optional term of Or4":      {func() { ecs.Or4(ecs.Optional(a), b, a2, a) }, ecs.ErrBadOr, "term 1 is Optional"},
		"zero view":                 {func() { ecs.Join1(ecs.Or2(a, ecs.View[jtB]{})) }, ecs.ErrReleased, "term 2"},
		"zero view, beside a view":  {func() { ecs.Join2(a, ecs.Or2(ecs.ViewMut[jt3]{}, b)) }, ecs.ErrReleased, "term 1"},
		"a join of Optional Ors":    {func() { ecs.Join1(ecs.Optional(ecs.Or2(a, b))) }, ecs.ErrOnlyOptional, "Optional"},
		"nested, same storage deep": {func() { ecs.Join1(ecs.Or2(ecs.Or2(a, a2), b)) }, ecs.ErrBadOr, "same storage"},
	} {
		r := recovered(tc.mk)
		err := asError(r)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: recovered %v, want a panic wrapping %v", name, r, tc.want)
			continue
		}
		if !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: the error %q does not say %q", name, err, tc.says)
		}
	}
	j := ecs.Join2(a, ecs.Or2(b, a2))
	j1 := ecs.Join1(ecs.Or2(b, a2))
	o := ecs.Or2(a, b)
	release()
	mustPanicReleased(t, map[string]func(){
		"All":                   rangeOver(j.All()),
		"WithID":                rangeOver(j.WithID()),
		"Each":                  func() { j.Each(func(*jtA, *ecs.Either2[jtB, jtA]) {}) },
		"Count":                 func() { j.Count() },
		"Runs":                  rangeOver1(j.Runs()),
		"ParEach":               func() { j.ParEach(func(*jtA, *ecs.Either2[jtB, jtA]) {}) },
		"Packed":                func() { j.Packed() },
		"Get":                   func() { j.Get(0) },
		"Next":                  func() { j.Next() },
		"Join1/Next":            func() { j1.Next() },
		"Join1/All":             rangeOver1(j1.All()),
		"an Or made before":     func() { ecs.Join1(o) },
		"an Or of a released b": func() { ecs.Join1(ecs.Or2(a2, b)) },
	})
}

// TestJoinOrModel compares joins with Or terms against a map model over
// random worlds that entities were added to, deleted from, and had
// components added and removed, in random orders.
func TestJoinOrModel(t *testing.T) {
	for seed := range uint64(12) {
		r := rand.New(rand.NewPCG(seed, 99))
		w := ecs.NewWorld()
		if seed%2 == 0 {
			w.SetAutoAlign(false)
		}
		model := map[ecs.EntityID]*[5]bool{}
		var ids []ecs.EntityID
		steps := 200 + r.IntN(600)
		for range steps {
			switch op := r.IntN(10); {
			case op < 4 || len(ids) == 0:
				id, err := ecs.AddEntity1(w, jtF{})
				must(t, err)
				ids = append(ids, id)
				model[id] = &[5]bool{}
				for k := range 5 {
					if r.IntN(2) == 0 {
						orAdd(t, w, id, k)
						model[id][k] = true
					}
				}
			case op < 5:
				i := r.IntN(len(ids))
				id := ids[i]
				must(t, w.DeleteEntity(id))
				delete(model, id)
				ids = slices.Delete(ids, i, i+1)
			default:
				id := ids[r.IntN(len(ids))]
				k := r.IntN(5)
				if model[id][k] {
					orRemove(t, w, id, k)
				} else {
					orAdd(t, w, id, k)
				}
				model[id][k] = !model[id][k]
			}
		}
		var f ecs.View[jtF]
		var a ecs.View[jtA]
		var b ecs.ViewMut[jtB]
		var c ecs.View[jt3]
		var d ecs.ViewMut[jt4]
		var not ecs.View[jtN]
		release, err := w.Borrow(&f, &a, &b, &c, &d, &not)
		must(t, err)
		sig := func(h *[5]bool, ks ...int) (string, bool) {
			s, any := "", false
			for i, k := range ks {
				if h[k] {
					s += string(rune('A' + i))
					any = true
				} else {
					s += "-"
				}
			}
			return s, any
		}
		mkSig := func(id ecs.EntityID, ps ...bool) string {
			s := ""
			for i, p := range ps {
				if p {
					s += string(rune('A' + i))
				} else {
					s += "-"
				}
			}
			return s
		}
		// Join2(c, Or3(a, b, d)).Not(not), and the union Join1(Or2(d, b)).
		want, wantU := map[ecs.EntityID]string{}, map[ecs.EntityID]string{}
		for id, h := range model {
			if s, ok := sig(h, 0, 1, 3); ok && h[2] && !h[4] {
				want[id] = s
			}
			if s, ok := sig(h, 3, 1); ok {
				wantU[id] = s
			}
		}
		got, gotU := map[ecs.EntityID]string{}, map[ecs.EntityID]string{}
		for id, r := range ecs.Join2(c, ecs.Or3(a, b, d)).Not(not).WithID() {
			if _, dup := got[id]; dup {
				t.Errorf("seed %d: visited %v twice", seed, id)
			}
			got[id] = mkSig(id, r.B.A != nil, r.B.B != nil, r.B.C != nil)
		}
		for id, e := range ecs.Join1(ecs.Or2(d, b)).WithID() {
			if _, dup := gotU[id]; dup {
				t.Errorf("seed %d: the union visited %v twice", seed, id)
			}
			gotU[id] = mkSig(id, e.A != nil, e.B != nil)
		}
		if !maps.Equal(got, want) {
			t.Errorf("seed %d: Join2(c, Or3(a, b, d)).Not(n): %d entities, want %d:\n got  %v\n want %v", seed, len(got), len(want), got, want)
		}
		if !maps.Equal(gotU, wantU) {
			t.Errorf("seed %d: Join1(Or2(d, b)): %d entities, want %d", seed, len(gotU), len(wantU))
		}
		release()
	}
}

// orAdd gives id the component k of the model (A, B, C, D, N).
func orAdd(t *testing.T, w *ecs.World, id ecs.EntityID, k int) {
	t.Helper()
	v := id.Index()
	switch k {
	case 0:
		must(t, ecs.AddComponent1(w, id, jtA{v}))
	case 1:
		must(t, ecs.AddComponent1(w, id, jtB{v}))
	case 2:
		must(t, ecs.AddComponent1(w, id, jt3{v}))
	case 3:
		must(t, ecs.AddComponent1(w, id, jt4{v}))
	case 4:
		must(t, ecs.AddComponent1(w, id, jtN{v}))
	}
}

// orRemove removes id's component k of the model.
func orRemove(t *testing.T, w *ecs.World, id ecs.EntityID, k int) {
	t.Helper()
	var err error
	switch k {
	case 0:
		_, _, err = ecs.Remove[jtA](w, id)
	case 1:
		_, _, err = ecs.Remove[jtB](w, id)
	case 2:
		_, _, err = ecs.Remove[jt3](w, id)
	case 3:
		_, _, err = ecs.Remove[jt4](w, id)
	case 4:
		_, _, err = ecs.Remove[jtN](w, id)
	}
	must(t, err)
}

// ExampleOr2 visits the entities that have a Vel or an Acc, or both, and
// tells which.
func ExampleOr2() {
	type Vel struct{ X float64 }
	type Acc struct{ X float64 }
	type Tag struct{}
	w := ecs.NewWorld()
	_, _ = ecs.AddEntity1(w, Vel{1})
	_, _ = ecs.AddEntity1(w, Acc{2})
	_, _ = ecs.AddEntity2(w, Vel{3}, Acc{4})
	_, _ = ecs.AddEntity1(w, Tag{}) // neither: not visited
	_ = w.Run(func(vel ecs.View[Vel], acc ecs.View[Acc]) {
		var lines []string
		for e := range ecs.Join1(ecs.Or2(vel, acc)).All() {
			switch {
			case e.A != nil && e.B != nil:
				lines = append(lines, fmt.Sprint("both: ", e.A.X, " ", e.B.X))
			case e.A != nil:
				lines = append(lines, fmt.Sprint("vel: ", e.A.X))
			default:
				lines = append(lines, fmt.Sprint("acc: ", e.B.X))
			}
		}
		slices.Sort(lines)
		fmt.Println(strings.Join(lines, "\n"))
	})
	// Output:
	// acc: 2
	// both: 3 4
	// vel: 1
}
