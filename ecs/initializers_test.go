package ecs_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// The book's example: a bullet's damage follows from its velocity, and its
// label from its damage.
type iniVelocity struct{ V int }
type iniDamage struct{ D int }
type iniLabel struct{ S string }

func iniWorld(t *testing.T) *ecs.World {
	t.Helper()
	w := ecs.NewWorld()
	// Declared label first: the order of declaration does not matter.
	must(t, ecs.SetInitializer1(w, func(d iniDamage) iniLabel { return iniLabel{S: fmt.Sprint("dmg ", d.D)} }))
	must(t, ecs.SetInitializer1(w, func(v iniVelocity) iniDamage { return iniDamage{D: v.V * 2} }))
	return w
}

// iniRow is what an entity has of the three types.
func iniRow(t *testing.T, w *ecs.World, id ecs.EntityID) string {
	t.Helper()
	var parts []string
	if v, err := ecs.Get[iniVelocity](w, id); err == nil {
		parts = append(parts, fmt.Sprint("v", v.V))
	}
	if d, err := ecs.Get[iniDamage](w, id); err == nil {
		parts = append(parts, fmt.Sprint("d", d.D))
	}
	if l, err := ecs.Get[iniLabel](w, id); err == nil {
		parts = append(parts, l.S)
	}
	return strings.Join(parts, " ")
}

// TestInitializerPaths: every way of creating entities runs the
// initializers, after the creator's components are in place, and before
// the entity is seen outside the call (or the system, or the commands'
// apply) that created it.
func TestInitializerPaths(t *testing.T) {
	cases := []struct {
		name   string
		create func(t *testing.T, w *ecs.World) ecs.EntityID
	}{
		{"AddEntity1", func(t *testing.T, w *ecs.World) ecs.EntityID { return ok(ecs.AddEntity1(w, iniVelocity{V: 3})) }},
		{"BulkAddEntity1", func(t *testing.T, w *ecs.World) ecs.EntityID {
			return ok(ecs.BulkAddEntity1(w, []iniVelocity{{V: 1}, {V: 3}}))[1]
		}},
		{"BulkNewEntity1", func(t *testing.T, w *ecs.World) ecs.EntityID {
			ids := ok(ecs.BulkNewEntity1(w, nil, 2, func(i int, _ ecs.EntityID, v *iniVelocity) { v.V = 3 }))
			return ids[0]
		}},
		{"AddEntity then AddComponent1", func(t *testing.T, w *ecs.World) ecs.EntityID {
			// The entity is created empty: the initializers run then,
			// and have nothing to read.
			id := ok(w.AddEntity())
			must(t, ecs.AddComponent1(w, id, iniVelocity{V: 3}))
			return id
		}},
		{"views in World.Run", func(t *testing.T, w *ecs.World) ecs.EntityID {
			var id ecs.EntityID
			must(t, w.Run(func(ents ecs.EntitiesViewMut, vel ecs.ViewMut[iniVelocity], dmg ecs.View[iniDamage]) {
				id = ents.AddEntity()
				must(t, vel.AddComponent(ents, id, iniVelocity{V: 3}))
				if dmg.Contains(id) {
					t.Error("initialized inside the creating system")
				}
			}))
			return id
		}},
		{"ViewMut.AddEntity", func(t *testing.T, w *ecs.World) ecs.EntityID {
			var id ecs.EntityID
			must(t, w.Run(func(ents ecs.EntitiesViewMut, vel ecs.ViewMut[iniVelocity]) {
				id = vel.AddEntity(ents, iniVelocity{V: 3})
			}))
			return id
		}},
		{"Commands", func(t *testing.T, w *ecs.World) ecs.EntityID {
			var id ecs.EntityID
			must(t, w.Run(func(c ecs.Commands) {
				id = c.AddEntity()
				ecs.CommandsFor[iniVelocity](c).Add(id, iniVelocity{V: 3})
			}))
			return id
		}},
		{"AllStoragesViewMut", func(t *testing.T, w *ecs.World) ecs.EntityID {
			var id ecs.EntityID
			must(t, w.Run(func(all ecs.AllStoragesViewMut) error {
				var err error
				id, err = ecs.AddEntity1(all, iniVelocity{V: 3})
				return err
			}))
			return id
		}},
	}
	for _, c := range cases {
		w := iniWorld(t)
		id := c.create(t, w)
		want := "v3 d6 dmg 6"
		if c.name == "AddEntity then AddComponent1" {
			want = "v3"
		}
		if got := iniRow(t, w, id); got != want {
			t.Errorf("%s: entity has %q, want %q", c.name, got, want)
		}
	}
}

// TestInitializerWorkload: entities created through views in a workload
// are initialized at the next ApplyCommands item, before the systems
// after it.
func TestInitializerWorkload(t *testing.T) {
	w := iniWorld(t)
	var id ecs.EntityID
	var seen string
	must(t, w.AddWorkload("spawn",
		func(ents ecs.EntitiesViewMut, vel ecs.ViewMut[iniVelocity]) {
			id = vel.AddEntity(ents, iniVelocity{V: 5})
		},
		ecs.ApplyCommands(),
		func(dmg ecs.View[iniDamage], lbl ecs.View[iniLabel]) {
			if d, ok := dmg.Get(id); ok {
				seen = fmt.Sprint(d.D, " ", lbl.MustGet(id).S)
			}
		},
	))
	must(t, w.RunWorkload("spawn"))
	if seen != "10 dmg 10" {
		t.Fatalf("the system after ApplyCommands saw %q, want %q", seen, "10 dmg 10")
	}
}

// TestInitializerGiven: components the creator gives are kept, and feed
// the initializers that read them.
func TestInitializerGiven(t *testing.T) {
	w := iniWorld(t)
	a := ok(ecs.AddEntity2(w, iniVelocity{V: 1}, iniDamage{D: 100}))
	b := ok(ecs.AddEntity1(w, iniDamage{D: 7}))
	c := ok(ecs.AddEntity1(w, iniLabel{S: "mine"}))
	for id, want := range map[ecs.EntityID]string{a: "v1 d100 dmg 100", b: "d7 dmg 7", c: "mine"} {
		if got := iniRow(t, w, id); got != want {
			t.Errorf("%v: %q, want %q", id, got, want)
		}
	}
}

// TestInitializerCycle: an initializer that would depend on itself is
// refused, naming the cycle, and leaves the initializers as they were.
func TestInitializerCycle(t *testing.T) {
	w := iniWorld(t)
	err := ecs.SetInitializer1(w, func(l iniLabel) iniVelocity { return iniVelocity{V: len(l.S)} })
	if !errors.Is(err, ecs.ErrInitializerCycle) {
		t.Fatalf("cycle: %v", err)
	}
	for _, name := range []string{"iniVelocity needs ecs_test.iniLabel needs ecs_test.iniDamage needs ecs_test.iniVelocity", "SetInitializer1"} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not say %q", err, name)
		}
	}
	err = ecs.SetInitializer2(w, func(d iniDamage, v iniVelocity) iniDamage { return d })
	if !errors.Is(err, ecs.ErrInitializerCycle) {
		t.Fatalf("self: %v", err)
	}
	id := ok(ecs.AddEntity1(w, iniLabel{S: "abc"}))
	if got := iniRow(t, w, id); got != "abc" {
		t.Fatalf("after refusals: %q, want only the label", got)
	}
	if got := iniRow(t, w, ok(ecs.AddEntity1(w, iniVelocity{V: 2}))); got != "v2 d4 dmg 4" {
		t.Fatalf("after refusals the initializers changed: %q", got)
	}
}

// TestInitializerReplace: declaring C's initializer again replaces it.
func TestInitializerReplace(t *testing.T) {
	w := iniWorld(t)
	must(t, ecs.SetInitializer1(w, func(v iniVelocity) iniDamage { return iniDamage{D: v.V * 10} }))
	must(t, ecs.SetDefault(w, func() iniVelocity { return iniVelocity{V: 1} }))
	if got := iniRow(t, w, ok(w.AddEntity())); got != "v1 d10 dmg 10" {
		t.Fatalf("empty entity: %q, want the defaults and what follows from them", got)
	}
	if got := iniRow(t, w, ok(ecs.AddEntity1(w, iniVelocity{V: 2}))); got != "v2 d20 dmg 20" {
		t.Fatalf("given velocity: %q", got)
	}
}

// TestInitializerEvents: initialized components are insertions: hooks,
// observers and tracking see them, after the creator's.
func TestInitializerEvents(t *testing.T) {
	w := iniWorld(t)
	must(t, ecs.TrackComponent[iniDamage](w, ecs.TrackInsertion))
	var log []string
	must(t, ecs.Observe[ecs.Inserted[iniDamage]](w, func(ev ecs.Event[ecs.Inserted[iniDamage]], d ecs.View[iniDamage]) {
		log = append(log, fmt.Sprint("damage ", d.MustGet(ev.Get().ID).D))
	}))
	must(t, ecs.Observe[ecs.EntityCreated](w, func(ev ecs.Event[ecs.EntityCreated]) { log = append(log, "created") }))
	ok(ecs.AddEntity1(w, iniVelocity{V: 4}))
	if want := []string{"created", "damage 8"}; !slices.Equal(log, want) {
		t.Fatalf("events %q, want %q", log, want)
	}
	must(t, w.Run(func(d ecs.View[iniDamage]) {
		ins, err := d.Inserted()
		must(t, err)
		if ins.Count() != 1 {
			t.Errorf("inserted %d, want 1", ins.Count())
		}
	}))
}

// TestInitializerDeadBeforeSync: an entity created and deleted before the
// sync point gets nothing (no component is left under its dead id).
func TestInitializerDeadBeforeSync(t *testing.T) {
	w := iniWorld(t)
	must(t, w.Run(func(ents ecs.EntitiesViewMut, vel ecs.ViewMut[iniVelocity]) {
		id := vel.AddEntity(ents, iniVelocity{V: 1})
		vel.Delete(id)
		ents.DeleteUnchecked(id)
	}))
	must(t, w.Run(func(d ecs.View[iniDamage]) {
		if d.Len() != 0 {
			t.Errorf("%d damages left under a dead id", d.Len())
		}
	}))
}

// TestInitializerRefusals: bad input gets clear errors.
func TestInitializerRefusals(t *testing.T) {
	w := ecs.NewWorld()
	if err := ecs.SetInitializer1[iniDamage, iniVelocity](w, nil); !errors.Is(err, ecs.ErrNilFunc) || !strings.Contains(err.Error(), "iniDamage") {
		t.Errorf("nil fn: %v", err)
	}
	if err := ecs.SetDefault(nil, func() iniDamage { return iniDamage{} }); !errors.Is(err, ecs.ErrNilWorld) {
		t.Errorf("nil world: %v", err)
	}
	must(t, w.Run(func(v ecs.View[iniDamage]) {
		if err := ecs.SetDefault(w, func() iniDamage { return iniDamage{} }); !errors.Is(err, ecs.ErrBorrowConflict) {
			t.Errorf("inside a system: %v", err)
		}
	}))
}

func ExampleSetInitializer1() {
	type Velocity struct{ V float64 }
	type Damage struct{ D float64 }
	w := ecs.NewWorld()
	_ = ecs.SetInitializer1(w, func(v Velocity) Damage { return Damage{D: v.V * 0.5} })

	slow, _ := ecs.AddEntity1(w, Velocity{V: 10})
	custom, _ := ecs.AddEntity2(w, Velocity{V: 10}, Damage{D: 99})
	d1, _ := ecs.Get[Damage](w, slow)
	d2, _ := ecs.Get[Damage](w, custom)
	fmt.Println(d1.D, d2.D)
	// Output: 5 99
}

// TestInitializerPanic: an initializer that panics leaves no borrow held;
// the world goes on, the entity with what was made before.
func TestInitializerPanic(t *testing.T) {
	w := iniWorld(t)
	must(t, ecs.SetInitializer1(w, func(v iniVelocity) iniDamage {
		if v.V < 0 {
			panic("negative velocity")
		}
		return iniDamage{D: v.V}
	}))
	func() {
		defer func() {
			if r := recover(); r != "negative velocity" {
				t.Fatalf("recovered %v", r)
			}
		}()
		_, _ = ecs.AddEntity1(w, iniVelocity{V: -1})
		t.Fatal("no panic")
	}()
	if got := iniRow(t, w, ok(ecs.AddEntity1(w, iniVelocity{V: 3}))); got != "v3 d3 dmg 3" {
		t.Fatalf("after the panic: %q", got)
	}
	must(t, w.Run(func(all ecs.AllStoragesViewMut) {}))
}
