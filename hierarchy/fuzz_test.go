package hierarchy_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/hierarchy"
)

// model is the hierarchy as the simplest code can say it: a child-to-parent
// map and ordered child lists. The fuzz test runs the same operations on a
// hierarchy.ViewMut and on a model, and compares them after every step.
type model struct {
	parent   map[ecs.EntityID]ecs.EntityID
	children map[ecs.EntityID][]ecs.EntityID
	alive    map[ecs.EntityID]bool
}

func newModel() *model {
	return &model{
		parent:   map[ecs.EntityID]ecs.EntityID{},
		children: map[ecs.EntityID][]ecs.EntityID{},
		alive:    map[ecs.EntityID]bool{},
	}
}

// isAncestor reports whether a is b or one of b's ancestors.
func (m *model) isAncestorOrSelf(a, b ecs.EntityID) bool {
	for {
		if a == b {
			return true
		}
		p, ok := m.parent[b]
		if !ok {
			return false
		}
		b = p
	}
}

func (m *model) detach(id ecs.EntityID) {
	p, ok := m.parent[id]
	if !ok {
		return
	}
	delete(m.parent, id)
	m.children[p] = slices.DeleteFunc(m.children[p], func(e ecs.EntityID) bool { return e == id })
	if len(m.children[p]) == 0 {
		delete(m.children, p)
	}
}

func (m *model) attach(id, parent ecs.EntityID) {
	m.detach(id)
	m.parent[id] = parent
	m.children[parent] = append(m.children[parent], id)
}

func (m *model) remove(id ecs.EntityID) {
	m.detach(id)
	for _, k := range m.children[id] {
		delete(m.parent, k)
	}
	delete(m.children, id)
}

// subtree returns id and its descendants.
func (m *model) subtree(id ecs.EntityID) []ecs.EntityID {
	out := []ecs.EntityID{id}
	for _, k := range m.children[id] {
		out = append(out, m.subtree(k)...)
	}
	return out
}

func (m *model) removeAll(id ecs.EntityID) []ecs.EntityID {
	m.detach(id)
	sub := m.subtree(id)
	for _, d := range sub {
		delete(m.parent, d)
		delete(m.children, d)
	}
	return sub
}

func (m *model) deleteOne(id ecs.EntityID) {
	kids := m.children[id]
	delete(m.children, id)
	if p, ok := m.parent[id]; ok {
		delete(m.parent, id)
		list := m.children[p]
		i := slices.Index(list, id)
		list = slices.Replace(list, i, i+1, kids...)
		if len(list) == 0 {
			delete(m.children, p)
		} else {
			m.children[p] = list
		}
		for _, k := range kids {
			m.parent[k] = p
		}
	} else {
		for _, k := range kids {
			delete(m.parent, k)
		}
	}
	m.alive[id] = false
}

// descendants is the model's depth-first order.
func (m *model) descendants(id ecs.EntityID) []ecs.EntityID {
	return m.subtree(id)[1:]
}

func (m *model) breadthFirst(id ecs.EntityID) []ecs.EntityID {
	var out []ecs.EntityID
	level := []ecs.EntityID{id}
	for len(level) > 0 {
		var next []ecs.EntityID
		for _, e := range level {
			next = append(next, m.children[e]...)
		}
		out = append(out, next...)
		level = next
	}
	return out
}

func (m *model) ancestors(id ecs.EntityID) []ecs.EntityID {
	var out []ecs.EntityID
	for {
		p, ok := m.parent[id]
		if !ok {
			return out
		}
		out = append(out, p)
		id = p
	}
}

// sortKey is the key SortChildren sorts by in the fuzz test: few distinct
// values, so that ties test that the sort is stable.
func sortKey(id ecs.EntityID, salt byte) uint32 {
	return (id.Index()*uint32(salt|1) + uint32(salt>>4)) % 5
}

// maxEntities bounds the entities a sequence makes, so that every input
// runs fast (verify walks from every entity, after every step).
const maxEntities = 32

// fuzzer runs one sequence of operations.
type fuzzer struct {
	t       testing.TB
	w       *ecs.World
	release func()
	h       hierarchy.ViewMut
	m       *model
	ents    []ecs.EntityID // every entity made, dead ones too, in order
	log     []string
}

func newFuzzer(t testing.TB) *fuzzer {
	w := ecs.NewWorld()
	if err := hierarchy.Install(w); err != nil {
		t.Fatal(err)
	}
	f := &fuzzer{t: t, w: w, m: newModel()}
	f.borrow()
	t.Cleanup(func() { f.release() })
	for range 6 {
		f.add(f.h.Entities.AddEntity())
	}
	return f
}

// borrow borrows f.h from the world.
func (f *fuzzer) borrow() {
	release, err := f.w.Borrow(&f.h)
	if err != nil {
		f.t.Fatal(err)
	}
	f.release = release
}

// outside runs do, a World-level call, with f.h released.
func (f *fuzzer) outside(do func() error) error {
	f.release()
	err := do()
	f.borrow()
	return err
}

// deleteModel is the model of an entity deleted (or stripped) outside
// hierarchy's methods, which Install mends as ViewMut.Delete would.
func (m *model) deleteOutside(id ecs.EntityID, keep bool) {
	m.deleteOne(id)
	m.alive[id] = keep
}

func (f *fuzzer) add(id ecs.EntityID) {
	f.ents = append(f.ents, id)
	f.m.alive[id] = true
}

// expect checks the outcome of an operation: an error exactly when the model
// says one is due, and then of the kind wanted.
func (f *fuzzer) expect(err error, want error) {
	f.t.Helper()
	switch {
	case want == nil && err != nil:
		f.fail("unexpected error: %v", err)
	case want != nil && !errors.Is(err, want):
		f.fail("error %v, want one wrapping %v", err, want)
	case want != nil:
		var he *hierarchy.Error
		if !errors.As(err, &he) {
			f.fail("error %v is not a *hierarchy.Error", err)
		}
	}
}

// expectWorld is expect for a World-level call, whose errors are ecs's.
func (f *fuzzer) expectWorld(err error, want error) {
	f.t.Helper()
	if (err == nil) != (want == nil) || (want != nil && !errors.Is(err, want)) {
		f.fail("error %v, want %v", err, want)
	}
}

func (f *fuzzer) fail(format string, args ...any) {
	f.t.Helper()
	f.t.Fatalf("after %q: %s", f.log, fmt.Sprintf(format, args...))
}

// step runs operation op on the entities chosen by a and b.
func (f *fuzzer) step(op, a, b byte) {
	f.t.Helper()
	x := f.ents[int(a)%len(f.ents)]
	y := f.ents[int(b)%len(f.ents)]
	h, m := f.h, f.m
	dead := func(ids ...ecs.EntityID) error {
		for _, id := range ids {
			if !m.alive[id] {
				return ecs.ErrDeadEntity
			}
		}
		return nil
	}
	switch op % 13 {
	case 0, 1: // attach, twice as often as the rest
		f.log = append(f.log, fmt.Sprintf("Attach(%v, %v)", x, y))
		want := dead(x, y)
		if want == nil && m.isAncestorOrSelf(x, y) {
			want = hierarchy.ErrCycle
		}
		f.expect(h.Attach(x, y), want)
		if want == nil {
			m.attach(x, y)
		}
	case 2:
		if len(f.ents) >= maxEntities {
			return
		}
		f.log = append(f.log, fmt.Sprintf("AttachNew(%v)", y))
		id, err := h.AttachNew(y)
		f.expect(err, dead(y))
		if err == nil {
			f.add(id)
			m.attach(id, y)
		}
	case 3:
		f.log = append(f.log, fmt.Sprintf("Detach(%v)", x))
		want := dead(x)
		f.expect(h.Detach(x), want)
		if want == nil {
			m.detach(x)
		}
	case 4:
		f.log = append(f.log, fmt.Sprintf("Remove(%v)", x))
		want := dead(x)
		f.expect(h.Remove(x), want)
		if want == nil {
			m.remove(x)
		}
	case 5:
		f.log = append(f.log, fmt.Sprintf("RemoveAll(%v)", x))
		want := dead(x)
		f.expect(h.RemoveAll(x), want)
		if want == nil {
			m.removeAll(x)
		}
	case 6:
		f.log = append(f.log, fmt.Sprintf("SortChildren(%v, %d)", x, b))
		less := func(p, q ecs.EntityID) bool { return sortKey(p, b) < sortKey(q, b) }
		want := dead(x)
		f.expect(h.SortChildren(x, less), want)
		if want == nil {
			slices.SortStableFunc(m.children[x], func(p, q ecs.EntityID) int {
				return int(sortKey(p, b)) - int(sortKey(q, b))
			})
		}
	case 7:
		f.log = append(f.log, fmt.Sprintf("Delete(%v)", x))
		want := dead(x)
		f.expect(h.Delete(x), want)
		if want == nil {
			m.deleteOne(x)
		}
	case 8:
		f.log = append(f.log, fmt.Sprintf("DeleteSubtree(%v)", x))
		want := dead(x)
		n, err := h.DeleteSubtree(x)
		f.expect(err, want)
		if want == nil {
			sub := m.removeAll(x)
			for _, d := range sub {
				m.alive[d] = false
			}
			if n != len(sub) {
				f.fail("DeleteSubtree deleted %d entities, want %d", n, len(sub))
			}
		}
	case 9:
		if len(f.ents) >= maxEntities {
			return
		}
		f.log = append(f.log, "AddEntity")
		f.add(h.Entities.AddEntity())
	case 10, 11: // the World-level deletions, which Install mends
		name, call, keep := "DeleteEntity", f.w.DeleteEntity, false
		if op%13 == 11 {
			name, call, keep = "Strip", f.w.Strip, true
		}
		f.log = append(f.log, fmt.Sprintf("World.%s(%v)", name, x))
		want := dead(x)
		f.expectWorld(f.outside(func() error { return call(x) }), want)
		if want == nil {
			m.deleteOutside(x, keep)
		}
	case 12:
		f.log = append(f.log, fmt.Sprintf("World.DeleteEntities(%v, %v)", x, y))
		want := dead(x, y)
		f.expectWorld(f.outside(func() error { return f.w.DeleteEntities(x, y) }), want)
		for _, id := range []ecs.EntityID{x, y} {
			if want == nil && m.alive[id] {
				m.deleteOutside(id, false)
			}
		}
	}
	if len(f.ents) >= maxEntities {
		// Keep the world small: forget the dead entities.
		f.ents = slices.DeleteFunc(f.ents, func(e ecs.EntityID) bool { return !m.alive[e] })
	}
	f.verify()
}

// verify checks the invariants and compares the hierarchy with the model.
func (f *fuzzer) verify() {
	f.t.Helper()
	h, m := f.h, f.m
	if err := h.Check(); err != nil {
		f.fail("Check: %v", err)
	}
	if got, want := h.ParentView.Len(), len(m.children); got != want {
		f.fail("%d Parent components, want %d", got, want)
	}
	if got, want := h.ChildView.Len(), len(m.parent); got != want {
		f.fail("%d Child components, want %d", got, want)
	}
	live := 0
	for _, e := range f.ents {
		if h.Entities.IsAlive(e) != m.alive[e] {
			f.fail("IsAlive(%v) = %v, want %v", e, !m.alive[e], m.alive[e])
		}
		if !m.alive[e] {
			for _, err := range h.ChildrenErr(e) {
				if !errors.Is(err, ecs.ErrDeadEntity) {
					f.fail("ChildrenErr(dead %v) ended with %v", e, err)
				}
			}
			continue
		}
		live++
		// The chain of children, read directly: circular, counted right.
		kids := m.children[e]
		p, ok := h.ParentView.Get(e)
		if ok != (len(kids) > 0) {
			f.fail("%v has a Parent component: %v, want %v", e, ok, len(kids) > 0)
		}
		if ok {
			if p.NumChildren != len(kids) || p.FirstChild != kids[0] {
				f.fail("%v's Parent = %+v, want %d children from %v", e, *p, len(kids), kids[0])
			}
			for i, k := range kids {
				c, ok := h.ChildView.Get(k)
				if !ok {
					f.fail("child %v of %v has no Child component", k, e)
				}
				want := hierarchy.Child{Parent: e, Prev: kids[(i+len(kids)-1)%len(kids)], Next: kids[(i+1)%len(kids)]}
				if *c != want {
					f.fail("%v's Child = %+v, want %+v", k, *c, want)
				}
			}
		}
		if mp, ok := m.parent[e]; ok {
			if got, ok := h.Parent(e); !ok || got != mp {
				f.fail("Parent(%v) = %v, %v, want %v", e, got, ok, mp)
			}
		} else if h.ChildView.Contains(e) {
			f.fail("%v has a Child component and no parent in the model", e)
		}
		// No entity is its own ancestor.
		anc := m.ancestors(e)
		if slices.Contains(anc, e) {
			f.fail("model: %v is its own ancestor", e)
		}
		// The walks agree with the model.
		f.walk("Children", e, h.ChildrenErr(e), kids)
		f.walk("Ancestors", e, h.AncestorsErr(e), anc)
		f.walk("Descendants", e, h.DescendantsErr(e), m.descendants(e))
		f.walk("DescendantsBreadthFirst", e, h.DescendantsBreadthFirstErr(e), m.breadthFirst(e))
		if d, err := h.Depth(e); err != nil || d != len(anc) {
			f.fail("Depth(%v) = %d, %v, want %d", e, d, err, len(anc))
		}
	}
	if h.Entities.Len() != live {
		f.fail("%d live entities, want %d", h.Entities.Len(), live)
	}
}

func (f *fuzzer) walk(name string, e ecs.EntityID, seq func(func(ecs.EntityID, error) bool), want []ecs.EntityID) {
	f.t.Helper()
	var got []ecs.EntityID
	for id, err := range seq {
		if err != nil {
			f.fail("%s(%v): %v", name, e, err)
		}
		got = append(got, id)
	}
	if !slices.Equal(got, want) {
		f.fail("%s(%v) = %v, want %v", name, e, got, want)
	}
}

// run interprets data as operations, three bytes each.
func runOps(t testing.TB, data []byte) {
	f := newFuzzer(t)
	for i := 0; i+2 < len(data); i += 3 {
		f.step(data[i], data[i+1], data[i+2])
	}
}

// FuzzHierarchy runs random attach, detach, remove, remove_all, sort and
// delete sequences against the model, checking the invariants after every
// step.
func FuzzHierarchy(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 1, 0, 0, 2, 1, 0, 3, 2, 0, 0, 3}) // a chain, then a cycle refused
	f.Add([]byte{2, 0, 0, 2, 0, 0, 2, 0, 0, 2, 0, 0, 6, 0, 3, 7, 0, 0, 8, 1, 0})
	f.Add([]byte{0, 1, 0, 0, 2, 0, 0, 3, 1, 0, 4, 3, 7, 1, 0, 4, 0, 0, 5, 3, 0})
	f.Add([]byte{0, 1, 0, 0, 2, 0, 0, 3, 0, 10, 0, 0, 0, 4, 3, 11, 4, 0, 12, 1, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 3*200 {
			data = data[:3*200]
		}
		runOps(t, data)
	})
}

// TestModel runs random sequences against the model, so that a plain go test
// covers what the fuzz test does.
func TestModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 43))
	runs := 300
	if testing.Short() {
		runs = 30
	}
	for range runs {
		data := make([]byte, 3*(1+rng.IntN(120)))
		for i := range data {
			data[i] = byte(rng.UintN(256))
		}
		// Small entity choices make deep trees and many refusals.
		for i := 1; i < len(data); i += 3 {
			data[i] %= 12
			data[i+1] %= 12
		}
		runOps(t, data)
	}
}
