package ecs_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// Required components: a rigid body needs a transform and a mass; a
// transform needs a global transform.
type reqBody struct{ Drag int }
type reqMass struct{ Kg int }
type reqTransform struct{ X int }
type reqGlobal struct{ X int }
type reqOther struct{}

func reqWorld(t *testing.T) *ecs.World {
	t.Helper()
	w := ecs.NewWorld()
	must(t, ecs.Require[reqBody](w, func() reqMass { return reqMass{Kg: 1} }))
	must(t, ecs.Require[reqBody, reqTransform](w, nil))
	must(t, ecs.Require[reqTransform, reqGlobal](w, nil))
	return w
}

// has reports which of the four types id has, as a string: "BMTG".
func reqHas(t *testing.T, w *ecs.World, id ecs.EntityID) string {
	t.Helper()
	var b strings.Builder
	for _, x := range []struct {
		c  string
		ok bool
	}{
		{"B", ok(ecs.Contains[reqBody](w, id))},
		{"M", ok(ecs.Contains[reqMass](w, id))},
		{"T", ok(ecs.Contains[reqTransform](w, id))},
		{"G", ok(ecs.Contains[reqGlobal](w, id))},
	} {
		if x.ok {
			b.WriteString(x.c)
		}
	}
	return b.String()
}

// TestRequireAddPaths: every way of giving an entity a body gives it the
// mass, the transform and (through the transform) the global transform,
// by the time the call, the system or the commands are done.
func TestRequireAddPaths(t *testing.T) {
	cases := []struct {
		name string
		add  func(t *testing.T, w *ecs.World) []ecs.EntityID
	}{
		{"AddEntity1", func(t *testing.T, w *ecs.World) []ecs.EntityID {
			return []ecs.EntityID{ok(ecs.AddEntity1(w, reqBody{}))}
		}},
		{"AddComponent1", func(t *testing.T, w *ecs.World) []ecs.EntityID {
			id := ok(ecs.AddEntity1(w, reqOther{}))
			must(t, ecs.AddComponent1(w, id, reqBody{}))
			return []ecs.EntityID{id}
		}},
		{"BulkAddEntity1", func(t *testing.T, w *ecs.World) []ecs.EntityID {
			return ok(ecs.BulkAddEntity1(w, make([]reqBody, 100)))
		}},
		{"BulkAddComponent1", func(t *testing.T, w *ecs.World) []ecs.EntityID {
			ids := ok(ecs.BulkAddEntity1(w, make([]reqOther, 50)))
			must(t, ecs.BulkAddComponent1(w, ids, make([]reqBody, 50)))
			return ids
		}},
		{"ViewMut.AddComponent in a system", func(t *testing.T, w *ecs.World) []ecs.EntityID {
			var id ecs.EntityID
			must(t, w.Run(func(e ecs.EntitiesViewMut, b ecs.ViewMut[reqBody], m ecs.View[reqMass]) error {
				id = e.AddEntity()
				if err := b.AddComponent(e, id, reqBody{}); err != nil {
					return err
				}
				if m.Contains(id) {
					return errors.New("the mass came inside the system, before the sync point")
				}
				return nil
			}))
			return []ecs.EntityID{id}
		}},
		{"Commands", func(t *testing.T, w *ecs.World) []ecs.EntityID {
			var id ecs.EntityID
			must(t, w.Run(func(c ecs.Commands) {
				id = c.AddEntity()
				ecs.CommandsFor[reqBody](c).Add(id, reqBody{})
			}))
			return []ecs.EntityID{id}
		}},
		{"AddTo2", func(t *testing.T, w *ecs.World) []ecs.EntityID {
			id := ok(ecs.AddEntity1(w, reqOther{}))
			must(t, w.Run(func(e ecs.EntitiesView, b ecs.ViewMut[reqBody], o ecs.ViewMut[reqOther]) error {
				return ecs.AddTo2(e, id, b, o, reqBody{}, reqOther{})
			}))
			return []ecs.EntityID{id}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := reqWorld(t)
			for _, id := range c.add(t, w) {
				if got := reqHas(t, w, id); got != "BMTG" {
					t.Fatalf("%v has %q, want BMTG", id, got)
				}
				if m := ok(ecs.Get[reqMass](w, id)); m.Kg != 1 {
					t.Fatalf("%v's mass %v, want newB's {1}", id, m)
				}
			}
		})
	}
}

// TestRequireKeepsGiven: a B given with the A, or there before, is kept.
func TestRequireKeepsGiven(t *testing.T) {
	w := reqWorld(t)
	a := ok(ecs.AddEntity2(w, reqBody{}, reqMass{Kg: 70}))
	b := ok(ecs.AddEntity1(w, reqMass{Kg: 80}))
	must(t, ecs.AddComponent1(w, b, reqBody{}))
	for id, want := range map[ecs.EntityID]int{a: 70, b: 80} {
		if m := ok(ecs.Get[reqMass](w, id)); m.Kg != want {
			t.Fatalf("%v's mass %v, want %d", id, m, want)
		}
	}
}

// TestRequireDefaults: with no newB, the B comes from B's default, then
// from B's initializer when the entity has its inputs, else it is B's zero
// value.
func TestRequireDefaults(t *testing.T) {
	w := ecs.NewWorld()
	must(t, ecs.Require[reqBody, reqMass](w, nil))
	zero := ok(ecs.AddEntity1(w, reqBody{}))
	must(t, ecs.SetInitializer1(w, func(b reqBody) reqMass { return reqMass{Kg: b.Drag * 10} }))
	fromInit := ok(ecs.AddEntity1(w, reqOther{}))
	must(t, ecs.AddComponent1(w, fromInit, reqBody{Drag: 3}))
	must(t, ecs.SetDefault(w, func() reqMass { return reqMass{Kg: 5} }))
	fromDefault := ok(ecs.AddEntity1(w, reqOther{}))
	ok(ecs.DeleteComponent[reqMass](w, fromDefault)) // the default gave it one at creation
	must(t, ecs.AddComponent1(w, fromDefault, reqBody{}))
	for id, want := range map[ecs.EntityID]int{zero: 0, fromInit: 30, fromDefault: 5} {
		if m := ok(ecs.Get[reqMass](w, id)); m.Kg != want {
			t.Fatalf("%v's mass %v, want %d", id, m, want)
		}
	}
}

// TestRequireExisting: entities with an A and no B get their B when the
// requirement is declared; declaring again replaces newB.
func TestRequireExisting(t *testing.T) {
	w := ecs.NewWorld()
	ids := ok(ecs.BulkAddEntity1(w, make([]reqBody, 10)))
	must(t, ecs.Require[reqBody](w, func() reqMass { return reqMass{Kg: 2} }))
	for _, id := range ids {
		if m := ok(ecs.Get[reqMass](w, id)); m.Kg != 2 {
			t.Fatalf("%v's mass %v, want {2}", id, m)
		}
	}
	must(t, ecs.Require[reqBody](w, func() reqMass { return reqMass{Kg: 3} }))
	id := ok(ecs.AddEntity1(w, reqBody{}))
	if m := ok(ecs.Get[reqMass](w, id)); m.Kg != 3 {
		t.Fatalf("after declaring again: mass %v, want {3}", m)
	}
}

// TestRequireRemoveRefused: removing a required component while its
// requirer stays is refused by every path, changing nothing; removing the
// requirer first, both in one RemoveFrom2, the entity, or Strip, works.
func TestRequireRemoveRefused(t *testing.T) {
	var re *ecs.RequiredError
	checkErr := func(t *testing.T, err error, op string) {
		t.Helper()
		if !errors.As(err, &re) || !errors.Is(err, ecs.ErrRequired) || re.Op != op || re.Type != "ecs_test.reqMass" || re.By != "ecs_test.reqBody" {
			t.Fatalf("error %v, want a RequiredError of %s removing reqMass required by reqBody", err, op)
		}
		if !strings.Contains(err.Error(), "remove the ecs_test.reqBody first") {
			t.Fatalf("error %q does not say what to do", err)
		}
	}
	refusals := []struct {
		name, op string
		do       func(w *ecs.World, id ecs.EntityID) error
	}{
		{"Remove", "Remove", func(w *ecs.World, id ecs.EntityID) error {
			_, _, err := ecs.Remove[reqMass](w, id)
			return err
		}},
		{"DeleteComponent", "DeleteComponent", func(w *ecs.World, id ecs.EntityID) error {
			_, err := ecs.DeleteComponent[reqMass](w, id)
			return err
		}},
		{"BulkDeleteComponent", "BulkDeleteComponent", func(w *ecs.World, id ecs.EntityID) error {
			_, err := ecs.BulkDeleteComponent[reqMass](w, id)
			return err
		}},
		{"Commands", "Remove", func(w *ecs.World, id ecs.EntityID) error {
			return w.Run(func(c ecs.Commands) { ecs.CommandsFor[reqMass](c).Remove(id) })
		}},
		{"ViewMut.Retain", "ViewMut[ecs_test.reqMass].Retain", func(w *ecs.World, id ecs.EntityID) error {
			return w.Run(func(m ecs.ViewMut[reqMass]) error {
				_, err := m.Retain(func(ecs.EntityID, *reqMass) bool { return false })
				return err
			})
		}},
	}
	for _, r := range refusals {
		t.Run(r.name, func(t *testing.T) {
			w := reqWorld(t)
			id := ok(ecs.AddEntity1(w, reqBody{}))
			checkErr(t, r.do(w, id), r.op)
			if got := reqHas(t, w, id); got != "BMTG" {
				t.Fatalf("after the refusal %v has %q, want BMTG", id, got)
			}
		})
	}
	panics := []struct {
		name, op string
		do       func(m ecs.ViewMut[reqMass], id ecs.EntityID)
	}{
		{"ViewMut.Remove", "ViewMut[ecs_test.reqMass].Remove", func(m ecs.ViewMut[reqMass], id ecs.EntityID) { m.Remove(id) }},
		{"ViewMut.Delete", "ViewMut[ecs_test.reqMass].Delete", func(m ecs.ViewMut[reqMass], id ecs.EntityID) { m.Delete(id) }},
		{"ViewMut.Clear", "ViewMut[ecs_test.reqMass].Clear", func(m ecs.ViewMut[reqMass], id ecs.EntityID) { m.Clear() }},
		{"ViewMut.Drain", "ViewMut[ecs_test.reqMass].Drain", func(m ecs.ViewMut[reqMass], id ecs.EntityID) { m.Drain() }},
	}
	for _, p := range panics {
		t.Run(p.name, func(t *testing.T) {
			w := reqWorld(t)
			free := ok(ecs.AddEntity1(w, reqMass{Kg: 9})) // no body: not required
			id := ok(ecs.AddEntity1(w, reqBody{}))
			r := recovered(func() {
				_ = w.Run(func(m ecs.ViewMut[reqMass]) { p.do(m, id) })
			})
			err, _ := r.(error)
			checkErr(t, err, p.op)
			if got := reqHas(t, w, id); got != "BMTG" || !ok(ecs.Contains[reqMass](w, free)) {
				t.Fatalf("after the refusal %v has %q, want BMTG, and the free mass is gone", id, got)
			}
			// The panic left nothing borrowed.
			must(t, ecs.AddComponent1(w, free, reqOther{}))
		})
	}
	t.Run("allowed", func(t *testing.T) {
		w := reqWorld(t)
		free := ok(ecs.AddEntity1(w, reqMass{}))
		a := ok(ecs.AddEntity1(w, reqBody{}))
		b := ok(ecs.AddEntity1(w, reqBody{}))
		c := ok(ecs.AddEntity1(w, reqBody{}))
		d := ok(ecs.AddEntity1(w, reqBody{}))
		must(t, w.Run(func(m ecs.ViewMut[reqMass]) {
			if _, removed := m.Remove(free); !removed {
				t.Error("the free mass was not removed")
			}
		}))
		// The requirer first, then the required.
		ok(ecs.DeleteComponent[reqBody](w, a))
		if !ok(ecs.DeleteComponent[reqMass](w, a)) {
			t.Fatal("mass not deleted once the body was gone")
		}
		// Both at once.
		must(t, w.Run(func(bv ecs.ViewMut[reqBody], m ecs.ViewMut[reqMass]) {
			if x, y := ecs.RemoveFrom2(b, m, bv); !x.OK || !y.OK {
				t.Errorf("RemoveFrom2 took %v %v", x.OK, y.OK)
			}
		}))
		must(t, w.DeleteEntity(c))
		must(t, w.Strip(d))
		for id, want := range map[ecs.EntityID]string{a: "TG", b: "TG", d: ""} {
			if got := reqHas(t, w, id); got != want {
				t.Errorf("%v has %q, want %q", id, got, want)
			}
		}
		if w.IsAlive(c) {
			t.Error("deleted entity alive")
		}
	})
}

// TestRequireBorrows: a ViewMut of a required type also reads the types
// that require it: a workload does not run it beside a writer of one, a
// frame fails to borrow while one is written, and the plan shows why.
func TestRequireBorrows(t *testing.T) {
	w := reqWorld(t)
	writeMass := func(m ecs.ViewMut[reqMass]) {}
	writeBody := func(b ecs.ViewMut[reqBody]) {}
	readBody := func(b ecs.View[reqBody]) {}
	must(t, w.AddWorkload("w", writeMass, readBody, writeBody))
	p := ok(w.WorkloadPlan("w"))
	for _, batch := range p.Batches {
		if slices.Contains(batch, 0) && slices.Contains(batch, 2) {
			t.Fatalf("ViewMut[reqMass] and ViewMut[reqBody] in one batch: %v", p.Batches)
		}
	}
	together := false
	for _, batch := range p.Batches {
		together = together || slices.Contains(batch, 0) && slices.Contains(batch, 1)
	}
	if !together {
		t.Fatalf("ViewMut[reqMass] and View[reqBody] not in one batch: %v", p.Batches)
	}
	must(t, w.RunWorkload("w"))

	var vb ecs.ViewMut[reqBody]
	release := ok(w.Borrow(&vb))
	var vm ecs.ViewMut[reqMass]
	_, err := w.Borrow(&vm)
	var be *ecs.BorrowError
	if !errors.As(err, &be) || !strings.Contains(err.Error(), "which checks ecs_test.reqBody: Require[ecs_test.reqBody, ecs_test.reqMass]") {
		t.Fatalf("borrowing ViewMut[reqMass] beside a ViewMut[reqBody]: %v, want a BorrowError naming the requirement", err)
	}
	release()
	// Reading the requirer in the same frame is fine, and takes its place.
	must(t, w.Run(func(b ecs.View[reqBody], m ecs.ViewMut[reqMass]) {}))
	must(t, w.Run(func(b ecs.ViewMut[reqBody], m ecs.ViewMut[reqMass]) {}))
}

// TestRequireRefusals: bad declarations are refused, naming the types.
func TestRequireRefusals(t *testing.T) {
	w := ecs.NewWorld()
	for _, c := range []struct {
		err  error
		want string
	}{
		{ecs.Require[reqBody, reqBody](w, nil), "Require[ecs_test.reqBody, ecs_test.reqBody]: a type cannot require itself"},
		{ecs.Require[ecs.Terminating, reqBody](w, nil), "cannot take part in a requirement"},
		{ecs.Require[reqBody, ecs.Terminating](w, nil), "cannot take part in a requirement"},
		{ecs.Require[reqBody, reqMass](nil, nil), "nil"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("error %v, want one containing %q", c.err, c.want)
		}
	}
	var v ecs.View[reqBody]
	release := ok(w.Borrow(&v))
	var be *ecs.BorrowError
	if err := ecs.Require[reqBody, reqMass](w, nil); !errors.As(err, &be) {
		t.Errorf("Require while borrowed: %v, want a BorrowError", err)
	}
	release()
	id := ok(ecs.AddEntity1(w, reqBody{}))
	if got := reqHas(t, w, id); got != "B" {
		t.Fatalf("refused requirements changed the world: %q", got)
	}
}

// TestRequirePanic: a newB that panics leaves nothing borrowed.
func TestRequirePanic(t *testing.T) {
	w := ecs.NewWorld()
	must(t, ecs.Require[reqBody](w, func() reqMass { panic("no mass") }))
	if r := recovered(func() { _, _ = ecs.AddEntity1(w, reqBody{}) }); !strings.Contains(fmt.Sprint(r), "observer Require[ecs_test.reqBody, ecs_test.reqMass] of event ecs.Inserted[") || !strings.Contains(fmt.Sprint(r), "panicked: no mass") {
		t.Fatalf("recovered %v, want the panic of newB, naming the requirement", r)
	}
	must(t, ecs.Require[reqBody](w, func() reqMass { return reqMass{Kg: 4} }))
	id := ok(ecs.AddEntity1(w, reqBody{}))
	if m := ok(ecs.Get[reqMass](w, id)); m.Kg != 4 {
		t.Fatalf("mass %v, want {4}", m)
	}
}

// TestRequireFinalizer: a required finalizer cannot come to a terminating
// entity: the requirer's addition reports the FinalizerError.
func TestRequireFinalizer(t *testing.T) {
	w := ecs.NewWorld()
	must(t, ecs.SetFinalizer[reqOther](w))
	must(t, ecs.SetFinalizer[reqMass](w))
	must(t, ecs.Require[reqBody, reqMass](w, nil))
	id := ok(ecs.AddEntity1(w, reqOther{}))
	must(t, w.DeleteEntity(id)) // terminating: it holds reqOther
	err := ecs.AddComponent1(w, id, reqBody{})
	if !errors.Is(err, ecs.ErrTerminating) {
		t.Fatalf("adding a body to a terminating entity: %v, want ErrTerminating", err)
	}
}

// ExampleRequire: a rigid body needs a mass; removing the mass first is
// refused.
func ExampleRequire() {
	type Body struct{}
	type Mass struct{ Kg float64 }
	w := ecs.NewWorld()
	if err := ecs.Require[Body](w, func() Mass { return Mass{Kg: 1} }); err != nil {
		panic(err)
	}
	id, _ := ecs.AddEntity1(w, Body{})
	m, _ := ecs.Get[Mass](w, id)
	fmt.Println("mass:", m.Kg)
	_, err := ecs.DeleteComponent[Mass](w, id)
	fmt.Println(errors.Is(err, ecs.ErrRequired))
	_, _ = ecs.DeleteComponent[Body](w, id)
	gone, _ := ecs.DeleteComponent[Mass](w, id)
	fmt.Println("deleted:", gone)
	// Output:
	// mass: 1
	// true
	// deleted: true
}

// TestRequireCycle: two types requiring each other come together and
// leave together: adding one brings the other; removing either alone is
// refused; RemoveFrom2 removes both.
func TestRequireCycle(t *testing.T) {
	w := ecs.NewWorld()
	must(t, ecs.Require[reqBody, reqMass](w, nil))
	must(t, ecs.Require[reqMass, reqBody](w, nil))
	a := ok(ecs.AddEntity1(w, reqBody{Drag: 1}))
	b := ok(ecs.AddEntity1(w, reqMass{Kg: 2}))
	for _, id := range []ecs.EntityID{a, b} {
		if got := reqHas(t, w, id); got != "BM" {
			t.Fatalf("%v has %q, want BM", id, got)
		}
	}
	if _, err := ecs.DeleteComponent[reqBody](w, a); !errors.Is(err, ecs.ErrRequired) {
		t.Fatalf("deleting the body: %v, want ErrRequired", err)
	}
	if _, err := ecs.DeleteComponent[reqMass](w, a); !errors.Is(err, ecs.ErrRequired) {
		t.Fatalf("deleting the mass: %v, want ErrRequired", err)
	}
	must(t, w.Run(func(bv ecs.ViewMut[reqBody], m ecs.ViewMut[reqMass]) {
		ecs.RemoveFrom2(a, bv, m)
	}))
	if got := reqHas(t, w, a); got != "" {
		t.Fatalf("after RemoveFrom2 %v has %q, want nothing", a, got)
	}
}
