package ecs_test

// Nil and out-of-range arguments: a nil *World or Storages, a nil fn, a
// negative count. Each is refused with an error wrapping a sentinel and
// naming what is wrong, or, where the call returns no error, with a
// documented panic naming the call and the parameter; either way the
// world is unchanged.

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

type (
	naPos    struct{ X int }
	naVel    struct{ X int }
	naPlayer struct{ HP int }
)

// naWorld returns a world with two entities and a unique.
func naWorld(t *testing.T) *ecs.World {
	t.Helper()
	w := ecs.NewWorld()
	_, err := ecs.AddEntity2(w, naPos{1}, naVel{1})
	must(t, err)
	_, err = ecs.AddEntity1(w, naPos{2})
	must(t, err)
	must(t, ecs.AddUnique(w, naPlayer{10}))
	return w
}

// naState describes w for comparing it before and after a refused call:
// the live entities, the components of both types with their entities,
// and the unique. It also checks that nothing stays borrowed: it borrows
// everything exclusively.
func naState(t *testing.T, w *ecs.World) string {
	t.Helper()
	var b strings.Builder
	must(t, w.Run(func(all ecs.AllStoragesViewMut) {
		must(t, ecs.Each1(all, func(id ecs.EntityID, p *naPos) { fmt.Fprintf(&b, "%v:%v ", id, *p) }))
		must(t, ecs.Each1(all, func(id ecs.EntityID, v *naVel) { fmt.Fprintf(&b, "%v:%v ", id, *v) }))
		p, err := ecs.GetUnique[naPlayer](all)
		fmt.Fprintf(&b, "unique %v %v", p, err)
	}))
	fmt.Fprintf(&b, " entities %d", w.EntityCount())
	return b.String()
}

// TestNilWorld: every function of the World-level API taking a Storages
// and returning an error, and the World methods returning an error, given
// a nil *World or a nil Storages, return an error wrapping ErrNilWorld.
func TestNilWorld(t *testing.T) {
	var nw *ecs.World
	id := ecs.EntityID(0)
	calls := []struct {
		name string
		call func(s ecs.Storages) error
	}{
		{"AddEntity1", func(s ecs.Storages) error { _, err := ecs.AddEntity1(s, naPos{}); return err }},
		{"AddEntity2", func(s ecs.Storages) error { _, err := ecs.AddEntity2(s, naPos{}, naVel{}); return err }},
		{"AddComponent1", func(s ecs.Storages) error { return ecs.AddComponent1(s, id, naPos{}) }},
		{"BulkAddEntity1", func(s ecs.Storages) error { _, err := ecs.BulkAddEntity1(s, []naPos{{}}); return err }},
		{"BulkAppendEntity1", func(s ecs.Storages) error {
			_, err := ecs.BulkAppendEntity1(s, nil, []naPos{{}})
			return err
		}},
		{"BulkAddComponent1", func(s ecs.Storages) error { return ecs.BulkAddComponent1(s, []ecs.EntityID{id}, []naPos{{}}) }},
		{"DeleteEntity", func(s ecs.Storages) error { return ecs.DeleteEntity(s, id) }},
		{"DeleteEntities", func(s ecs.Storages) error { return ecs.DeleteEntities(s, id) }},
		{"Strip", func(s ecs.Storages) error { return ecs.Strip(s, id) }},
		{"DeleteAny", func(s ecs.Storages) error { _, err := ecs.DeleteAny[naPos](s); return err }},
		{"Remove", func(s ecs.Storages) error { _, _, err := ecs.Remove[naPos](s, id); return err }},
		{"DeleteComponent", func(s ecs.Storages) error { _, err := ecs.DeleteComponent[naPos](s, id); return err }},
		{"BulkDeleteComponent", func(s ecs.Storages) error { _, err := ecs.BulkDeleteComponent[naPos](s, id); return err }},
		{"Get", func(s ecs.Storages) error { _, err := ecs.Get[naPos](s, id); return err }},
		{"Get2", func(s ecs.Storages) error { _, _, err := ecs.Get2[naPos, naVel](s, id); return err }},
		{"Contains", func(s ecs.Storages) error { _, err := ecs.Contains[naPos](s, id); return err }},
		{"Each1", func(s ecs.Storages) error {
			return ecs.Each1(s, func(ecs.EntityID, *naPos) { t.Error("Each1 ran on a nil world") })
		}},
		{"AddUnique", func(s ecs.Storages) error { return ecs.AddUnique(s, naPlayer{}) }},
		{"GetUnique", func(s ecs.Storages) error { _, err := ecs.GetUnique[naPlayer](s); return err }},
		{"UpdateUnique", func(s ecs.Storages) error {
			return ecs.UpdateUnique(s, func(*naPlayer) { t.Error("UpdateUnique ran on a nil world") })
		}},
		{"UpdateUnique with a nil fn too", func(s ecs.Storages) error { return ecs.UpdateUnique[naPlayer](s, nil) }},
		{"RemoveUnique", func(s ecs.Storages) error { _, err := ecs.RemoveUnique[naPlayer](s); return err }},
		{"TrackComponent", func(s ecs.Storages) error { return ecs.TrackComponent[naPos](s, ecs.TrackAll) }},
		{"AddGroup2", func(s ecs.Storages) error { return ecs.AddGroup2[naPos, naVel](s) }},
	}
	worlds := []struct {
		name string
		s    ecs.Storages
		msg  string
	}{
		{"nil *World", nw, "ecs: the *World is nil"},
		{"nil Storages", nil, "ecs: the Storages is nil"},
	}
	for _, wc := range worlds {
		for _, c := range calls {
			t.Run(wc.name+"/"+c.name, func(t *testing.T) {
				err := c.call(wc.s)
				errIs(t, err, ecs.ErrNilWorld)
				errHas(t, err, wc.msg)
			})
		}
	}

	methods := []struct {
		name string
		call func() error
	}{
		{"World.AddEntity", func() error { _, err := nw.AddEntity(); return err }},
		{"World.DeleteEntity", func() error { return nw.DeleteEntity(id) }},
		{"World.DeleteEntities", func() error { return nw.DeleteEntities(id) }},
		{"World.Strip", func() error { return nw.Strip(id) }},
		{"World.MemoryUsage", func() error { _, err := nw.MemoryUsage(); return err }},
		{"World.ShrinkToFit", func() error { return nw.ShrinkToFit() }},
	}
	for _, c := range methods {
		t.Run(c.name, func(t *testing.T) {
			err := c.call()
			errIs(t, err, ecs.ErrNilWorld)
			errHas(t, err, "ecs: the *World is nil")
		})
	}
}

// TestNilWorldPanics: the World methods that return no error panic on a
// nil *World, naming the method.
func TestNilWorldPanics(t *testing.T) {
	var nw *ecs.World
	cases := []struct {
		name string
		call func()
	}{
		{"World.IsAlive", func() { nw.IsAlive(0) }},
		{"World.EntityCount", func() { nw.EntityCount() }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			panicsWith(t, c.call, "ecs: "+c.name+": the *World is nil")
		})
	}
}

// TestNilWorldMethods: the World's methods for systems, workloads, groups
// and the pool on a nil *World: those that return an error return one
// wrapping ErrNilWorld, the others panic naming themselves.
func TestNilWorldMethods(t *testing.T) {
	var nw *ecs.World
	cases := []struct {
		name string
		call func() error
	}{
		{"World.Run", func() error { return nw.Run(func(ecs.View[naPos]) {}) }},
		{"World.Borrow", func() error { var v ecs.View[naPos]; _, err := nw.Borrow(&v); return err }},
		{"World.AddWorkload", func() error { return nw.AddWorkload("w", func(ecs.View[naPos]) {}) }},
		{"World.ReplaceWorkload", func() error { return nw.ReplaceWorkload("w", func(ecs.View[naPos]) {}) }},
		{"World.RemoveWorkload", func() error { return nw.RemoveWorkload("w") }},
		{"World.SetDefaultWorkload", func() error { return nw.SetDefaultWorkload("w") }},
		{"World.RunDefaultWorkload", func() error { return nw.RunDefaultWorkload() }},
		{"World.RunWorkload", func() error { return nw.RunWorkload("w") }},
		{"World.WorkloadPlan", func() error { _, err := nw.WorkloadPlan("w"); return err }},
		{"GroupLen", func() error { _, _, err := ecs.GroupLen[naPos](nw); return err }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						err = fmt.Errorf("panicked: %v", r)
					}
				}()
				err = c.call()
			}()
			errIs(t, err, ecs.ErrNilWorld)
		})
	}
	for name, call := range map[string]func(){
		"Pool":              func() { nw.Pool() },
		"SetPool":           func() { nw.SetPool(nil) },
		"SetTracing":        func() { nw.SetTracing(true) },
		"SystemStats":       func() { nw.SystemStats() },
		"TrackingTimestamp": func() { nw.TrackingTimestamp() },
		"Workloads":         func() { nw.Workloads() },
	} {
		t.Run(name, func(t *testing.T) {
			panicsWith(t, call, "ecs: World."+name+": the *World is nil")
		})
	}
}

// TestNilFunc: a nil fn is refused with an error wrapping ErrNilFunc that
// names the call and fn, before anything is borrowed; the world is
// unchanged.
func TestNilFunc(t *testing.T) {
	cases := []struct {
		name string
		call func(w *ecs.World) error
		msg  string
	}{
		{"UpdateUnique", func(w *ecs.World) error { return ecs.UpdateUnique[naPlayer](w, nil) }, "ecs: UpdateUnique[ecs_test.naPlayer]: fn is nil"},
		{"UpdateUnique of a missing unique", func(w *ecs.World) error { return ecs.UpdateUnique[naPos](w, nil) }, "ecs: UpdateUnique[ecs_test.naPos]: fn is nil"},
		{"Each1", func(w *ecs.World) error { return ecs.Each1[naPos](w, nil) }, "ecs: Each1: fn is nil"},
		{"Each2", func(w *ecs.World) error { return ecs.Each2[naPos, naVel](w, nil) }, "ecs: Each2: fn is nil"},
		{"Each3", func(w *ecs.World) error { return ecs.Each3[naPos, naVel, c3](w, nil) }, "ecs: Each3: fn is nil"},
		{"Each4", func(w *ecs.World) error { return ecs.Each4[naPos, naVel, c3, c4](w, nil) }, "ecs: Each4: fn is nil"},
		{"Each5", func(w *ecs.World) error { return ecs.Each5[naPos, naVel, c3, c4, c5](w, nil) }, "ecs: Each5: fn is nil"},
		{"Each6", func(w *ecs.World) error { return ecs.Each6[naPos, naVel, c3, c4, c5, c6](w, nil) }, "ecs: Each6: fn is nil"},
		{"Each7", func(w *ecs.World) error { return ecs.Each7[naPos, naVel, c3, c4, c5, c6, c7](w, nil) }, "ecs: Each7: fn is nil"},
		{"Each8", func(w *ecs.World) error { return ecs.Each8[naPos, naVel, c3, c4, c5, c6, c7, c8](w, nil) }, "ecs: Each8: fn is nil"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := naWorld(t)
			before := naState(t, w)
			err := c.call(w)
			errIs(t, err, ecs.ErrNilFunc)
			errHas(t, err, c.msg)
			equal(t, "world after the refused call", naState(t, w), before)
		})
	}
	t.Run("refused before the purge of DeleteUnchecked leftovers", func(t *testing.T) {
		w := naWorld(t)
		must(t, w.Run(func(e ecs.EntitiesViewMut) { e.DeleteUnchecked(0) }))
		err := ecs.Each1[naPos](w, nil)
		errIs(t, err, ecs.ErrNilFunc)
		must(t, w.Run(func(p ecs.View[naPos]) {
			equal(t, "Pos left until the purge", p.Len(), 2)
		}))
	})
}

// TestBulkAddEntityNegative: EntitiesViewMut.BulkAddEntity panics on a
// negative count, naming itself and n, before creating anything; the
// system's views are released.
func TestBulkAddEntityNegative(t *testing.T) {
	for _, n := range []int{-1, math.MinInt} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			w := naWorld(t)
			before := naState(t, w)
			dst := []ecs.EntityID{7}
			panicsWith(t, func() {
				_ = w.Run(func(e ecs.EntitiesViewMut) { dst = e.BulkAddEntity(dst, n) })
			}, "ecs: EntitiesViewMut.BulkAddEntity: n is negative", fmt.Sprint(n))
			equal(t, "dst", fmt.Sprint(dst), "[EntityID(7.0)]")
			equal(t, "world after the panic", naState(t, w), before)
		})
	}
	// Zero creates nothing, and is no error.
	w := naWorld(t)
	must(t, w.Run(func(e ecs.EntitiesViewMut) {
		equal(t, "BulkAddEntity(nil, 0)", len(e.BulkAddEntity(nil, 0)), 0)
	}))
	equal(t, "entities", w.EntityCount(), 2)
}
