package ecs_test

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// The components and unique of the concurrency tests, apart from the
// book's so that tracking and groups declared here change no other test.
type (
	cPos    struct{ X, Y float32 }
	cVel    struct{ X, Y float32 }
	cTag    struct{}
	cGroupA struct{ V int }
	cGroupB struct{ V int }
	cClock  struct{ N int }
)

// worldCall is one call of a World method or World-level function, as
// the concurrency test makes it: it returns the call's error, or nil.
// ok lists the errors the call may return besides a *BorrowError, when
// other goroutines change the world under it (a dead id, a workload
// running elsewhere...).
type worldCall struct {
	name string
	call func(w *ecs.World, id ecs.EntityID) error
	ok   []error
}

// worldCalls is every exported method of World and every function of the
// package that takes a Storages, each called through a *World.
func worldCalls(pool *ecs.Pool) []worldCall {
	dead := []error{ecs.ErrDeadEntity}
	deadOrMissing := []error{ecs.ErrDeadEntity, ecs.ErrMissingComponent}
	running := []error{ecs.ErrWorkloadRunning}
	churn := func(e ecs.EntitiesViewMut, pos ecs.ViewMut[cPos]) {
		id := e.AddEntity()
		_ = pos.AddComponent(e, id, cPos{1, 1})
		pos.Delete(id)
		e.DeleteUnchecked(id)
	}
	return []worldCall{
		// World methods.
		{"World.AddEntity", func(w *ecs.World, _ ecs.EntityID) error {
			id, err := w.AddEntity()
			if err == nil {
				err = w.DeleteEntity(id)
			}
			return err
		}, nil},
		{"World.IsAlive", func(w *ecs.World, id ecs.EntityID) error { w.IsAlive(id); return nil }, nil},
		{"World.EntityCount", func(w *ecs.World, _ ecs.EntityID) error {
			if n := w.EntityCount(); n < 0 {
				return fmt.Errorf("EntityCount %d", n)
			}
			return nil
		}, nil},
		{"World.DeleteEntity", func(w *ecs.World, id ecs.EntityID) error { return w.DeleteEntity(id) }, dead},
		{"World.Strip", func(w *ecs.World, id ecs.EntityID) error { return w.Strip(id) }, dead},
		{"World.DeleteEntities", func(w *ecs.World, id ecs.EntityID) error { return w.DeleteEntities(id) }, dead},
		{"World.MemoryUsage", func(w *ecs.World, _ ecs.EntityID) error { _, err := w.MemoryUsage(); return err }, nil},
		{"World.ShrinkToFit", func(w *ecs.World, _ ecs.EntityID) error { return w.ShrinkToFit() }, nil},
		{"World.WorkloadPlan", func(w *ecs.World, _ ecs.EntityID) error { _, err := w.WorkloadPlan("churn"); return err }, nil},
		{"World.Pool", func(w *ecs.World, _ ecs.EntityID) error { w.Pool(); return nil }, nil},
		{"World.SetPool", func(w *ecs.World, _ ecs.EntityID) error { w.SetPool(pool); return nil }, nil},
		{"World.SetTracing", func(w *ecs.World, _ ecs.EntityID) error { w.SetTracing(true); return nil }, nil},
		{"World.SystemStats", func(w *ecs.World, _ ecs.EntityID) error { w.SystemStats(); return nil }, nil},
		{"World.Run", func(w *ecs.World, _ ecs.EntityID) error { return w.Run(churn) }, nil},
		{"World.Borrow", func(w *ecs.World, _ ecs.EntityID) error {
			var pos ecs.View[cPos]
			var e ecs.EntitiesView
			release, err := w.Borrow(&pos, &e)
			if err == nil {
				for id := range pos.WithID() {
					e.IsAlive(id)
				}
				release()
			}
			return err
		}, nil},
		{"World.TrackingTimestamp", func(w *ecs.World, _ ecs.EntityID) error { w.TrackingTimestamp(); return nil }, nil},
		{"World.AddWorkload", func(w *ecs.World, _ ecs.EntityID) error {
			err := w.AddWorkload("extra", churn)
			if err == nil {
				err = w.RemoveWorkload("extra")
			}
			if errors.Is(err, ecs.ErrUnknownWorkload) || errors.As(err, new(*ecs.WorkloadBuildError)) {
				err = nil // the other caller added or removed it first
			}
			return err
		}, running},
		{"World.ReplaceWorkload", func(w *ecs.World, _ ecs.EntityID) error { return w.ReplaceWorkload("churn", churn) }, running},
		{"World.RemoveWorkload", func(w *ecs.World, _ ecs.EntityID) error {
			if err := w.RemoveWorkload("gone"); !errors.Is(err, ecs.ErrUnknownWorkload) {
				return fmt.Errorf("RemoveWorkload of an unknown workload: %v", err)
			}
			return nil
		}, nil},
		{"World.Workloads", func(w *ecs.World, _ ecs.EntityID) error { w.Workloads(); return nil }, nil},
		{"World.SetDefaultWorkload", func(w *ecs.World, _ ecs.EntityID) error { return w.SetDefaultWorkload("churn") }, nil},
		{"World.RunDefaultWorkload", func(w *ecs.World, _ ecs.EntityID) error { return w.RunDefaultWorkload() }, running},
		{"World.RunWorkload", func(w *ecs.World, _ ecs.EntityID) error { return w.RunWorkload("churn") }, running},
		{"World.SetAutoAlign", func(w *ecs.World, _ ecs.EntityID) error { w.SetAutoAlign(true); return nil }, nil},

		// Functions taking a Storages.
		{"SortAs", func(w *ecs.World, _ ecs.EntityID) error { _, err := ecs.SortAs[cVel, cPos](w); return err }, nil},
		{"DeleteEntities", func(w *ecs.World, id ecs.EntityID) error { return ecs.DeleteEntities(w, id) }, dead},
		{"BulkDeleteComponent", func(w *ecs.World, id ecs.EntityID) error { _, err := ecs.BulkDeleteComponent[cVel](w, id); return err }, dead},
		{"GroupLen", func(w *ecs.World, _ ecs.EntityID) error { _, _, err := ecs.GroupLen[cGroupA](w); return err }, nil},
		{"AddGroup2", func(w *ecs.World, _ ecs.EntityID) error { return ecs.AddGroup2[cGroupA, cGroupB](w) }, []error{ecs.ErrGroup}},
		{"TrackComponent", func(w *ecs.World, _ ecs.EntityID) error { return ecs.TrackComponent[cVel](w, ecs.TrackModification) }, nil},
		{"TrackingOf", func(w *ecs.World, _ ecs.EntityID) error { ecs.TrackingOf[cVel](w); return nil }, nil},
		{"AddUnique", func(w *ecs.World, _ ecs.EntityID) error { return ecs.AddUnique(w, cClock{}) }, nil},
		{"GetUnique", func(w *ecs.World, _ ecs.EntityID) error { _, err := ecs.GetUnique[cClock](w); return err }, []error{ecs.ErrMissingUnique}},
		{"UpdateUnique", func(w *ecs.World, _ ecs.EntityID) error {
			return ecs.UpdateUnique(w, func(c *cClock) { c.N++ })
		}, []error{ecs.ErrMissingUnique}},
		{"RemoveUnique", func(w *ecs.World, _ ecs.EntityID) error { _, err := ecs.RemoveUnique[cClock](w); return err }, []error{ecs.ErrMissingUnique}},
		{"DeleteEntity", func(w *ecs.World, id ecs.EntityID) error { return ecs.DeleteEntity(w, id) }, dead},
		{"Strip", func(w *ecs.World, id ecs.EntityID) error { return ecs.Strip(w, id) }, dead},
		{"DeleteAny", func(w *ecs.World, _ ecs.EntityID) error { _, err := ecs.DeleteAny[cTag](w); return err }, nil},
		{"Remove", func(w *ecs.World, id ecs.EntityID) error { _, _, err := ecs.Remove[cVel](w, id); return err }, dead},
		{"DeleteComponent", func(w *ecs.World, id ecs.EntityID) error { _, err := ecs.DeleteComponent[cVel](w, id); return err }, dead},
		{"Get", func(w *ecs.World, id ecs.EntityID) error { _, err := ecs.Get[cPos](w, id); return err }, deadOrMissing},
		{"Get2", func(w *ecs.World, id ecs.EntityID) error { _, _, err := ecs.Get2[cPos, cVel](w, id); return err }, deadOrMissing},
		{"Contains", func(w *ecs.World, id ecs.EntityID) error { _, err := ecs.Contains[cPos](w, id); return err }, nil},
		{"AddEntity1", func(w *ecs.World, _ ecs.EntityID) error { _, err := ecs.AddEntity1(w, cTag{}); return err }, nil},
		{"AddEntity2", func(w *ecs.World, _ ecs.EntityID) error {
			_, err := ecs.AddEntity2(w, cGroupA{1}, cGroupB{2})
			return err
		}, nil},
		{"AddComponent1", func(w *ecs.World, id ecs.EntityID) error { return ecs.AddComponent1(w, id, cVel{1, 1}) }, dead},
		{"AddComponent2", func(w *ecs.World, id ecs.EntityID) error {
			return ecs.AddComponent2(w, id, cGroupA{3}, cGroupB{4})
		}, dead},
		{"BulkAddEntity1", func(w *ecs.World, _ ecs.EntityID) error {
			_, err := ecs.BulkAddEntity1(w, []cTag{{}, {}})
			return err
		}, nil},
		{"BulkAppendEntity1", func(w *ecs.World, _ ecs.EntityID) error {
			_, err := ecs.BulkAppendEntity1(w, make([]ecs.EntityID, 0, 2), []cTag{{}, {}})
			return err
		}, nil},
		{"BulkAddComponent1", func(w *ecs.World, id ecs.EntityID) error {
			return ecs.BulkAddComponent1(w, []ecs.EntityID{id}, []cVel{{2, 2}})
		}, dead},
		{"Each1", func(w *ecs.World, _ ecs.EntityID) error {
			return ecs.Each1(w, func(_ ecs.EntityID, p *cPos) { p.X++ })
		}, nil},
		{"Each2", func(w *ecs.World, _ ecs.EntityID) error {
			return ecs.Each2(w, func(_ ecs.EntityID, p *cPos, v *cVel) { p.X += v.X })
		}, nil},
	}
}

// callAllowed makes c's call and returns what went wrong, if anything:
// an error other than a *BorrowError or one of c.ok, or a panic with
// anything but a *BorrowError (which the methods without an error result
// panic with when what they read is borrowed exclusively elsewhere).
func callAllowed(c worldCall, w *ecs.World, id ecs.EntityID) (bad error) {
	defer func() {
		if r := recover(); r != nil {
			if err, ok := r.(error); ok && errors.As(err, new(*ecs.BorrowError)) {
				bad = nil
				return
			}
			bad = fmt.Errorf("%s panicked: %v", c.name, r)
		}
	}()
	err := c.call(w, id)
	if err == nil || errors.Is(err, ecs.ErrBorrowConflict) {
		return nil
	}
	for _, ok := range c.ok {
		if errors.Is(err, ok) {
			return nil
		}
	}
	return fmt.Errorf("%s: %v", c.name, err)
}

// TestWorldMethodsDoNotRace calls every World method and World-level
// function while other goroutines create and delete entities (through
// the World, in a system holding EntitiesViewMut, and in a workload),
// and two callers go through all the calls in opposite orders. Under
// -race it fails on any access to the world that borrows nothing; in
// every build, each call must succeed or report the conflict (a
// *BorrowError, returned or, for the methods without an error result,
// panicked with) or an error its documentation allows, and nothing may
// stay borrowed at the end.
func TestWorldMethodsDoNotRace(t *testing.T) {
	const rounds = 50
	pool := ecs.NewPool(2)
	t.Cleanup(pool.Close)
	w := ecs.NewWorld()
	must(t, ecs.AddUnique(w, cClock{}))
	churn := func(e ecs.EntitiesViewMut, pos ecs.ViewMut[cPos]) {
		for range 4 {
			id := e.AddEntity()
			if err := pos.AddComponent(e, id, cPos{1, 2}); err != nil {
				panic(err) // id was just created
			}
			if id.Index()%2 == 0 {
				pos.Delete(id)
				e.DeleteUnchecked(id)
			}
		}
	}
	must(t, w.AddWorkload("churn", churn))
	var live []ecs.EntityID
	for i := range 64 {
		id, err := ecs.AddEntity3(w, cPos{float32(i), 0}, cVel{1, 1}, cTag{})
		must(t, err)
		live = append(live, id)
	}

	calls := worldCalls(pool)
	stop := make(chan struct{})
	var churners, callers sync.WaitGroup
	var mu sync.Mutex
	var failures []error
	fail := func(err error) {
		mu.Lock()
		failures = append(failures, err)
		mu.Unlock()
	}
	// stopped also yields: where goroutines take turns on one thread
	// (js/wasm), a churner that never blocked would keep the callers
	// from running.
	stopped := func() bool {
		runtime.Gosched()
		select {
		case <-stop:
			return true
		default:
			return false
		}
	}
	// Creations and deletions through the World.
	churners.Add(1)
	go func() {
		defer churners.Done()
		var prev ecs.EntityID = ecs.NullID
		for !stopped() {
			id, err := ecs.AddEntity2(w, cPos{}, cVel{})
			if err != nil && !errors.Is(err, ecs.ErrBorrowConflict) {
				fail(fmt.Errorf("churn AddEntity2: %v", err))
			}
			if err := w.DeleteEntity(prev); err != nil && !errors.Is(err, ecs.ErrBorrowConflict) && !errors.Is(err, ecs.ErrDeadEntity) {
				fail(fmt.Errorf("churn DeleteEntity: %v", err))
			}
			prev = id
			// A change TrackingOf reads.
			if err := ecs.TrackComponent[cVel](w, ecs.TrackInsertion); err != nil && !errors.Is(err, ecs.ErrBorrowConflict) {
				fail(fmt.Errorf("churn TrackComponent: %v", err))
			}
		}
	}()
	// ... in a system that holds EntitiesViewMut, and in a workload.
	churners.Add(1)
	go func() {
		defer churners.Done()
		for !stopped() {
			if err := w.Run(churn); err != nil && !errors.Is(err, ecs.ErrBorrowConflict) {
				fail(fmt.Errorf("churn Run: %v", err))
			}
			if err := w.RunWorkload("churn"); err != nil && !errors.Is(err, ecs.ErrBorrowConflict) &&
				!errors.Is(err, ecs.ErrWorkloadRunning) && !errors.Is(err, ecs.ErrUnknownWorkload) {
				fail(fmt.Errorf("churn RunWorkload: %v", err))
			}
		}
	}()
	for dir := range 2 {
		callers.Add(1)
		go func() {
			defer callers.Done()
			for r := range rounds {
				for k := range calls {
					if dir == 1 {
						k = len(calls) - 1 - k
					}
					if err := callAllowed(calls[k], w, live[(r*len(calls)+k)%len(live)]); err != nil {
						fail(err)
					}
				}
			}
		}()
	}
	callers.Wait()
	close(stop)
	churners.Wait()
	for _, err := range failures {
		t.Error(err)
	}

	// Nothing is left borrowed, and the count agrees with the entities.
	if !nothingHeld(t, w) {
		return
	}
	var n int
	must(t, w.Run(func(e ecs.EntitiesView) { n = e.Len() }))
	equal(t, "EntityCount", w.EntityCount(), n)
}

// World-level reads check that ids are alive: they borrow the entities
// storage too, so they wait for a system creating or deleting entities
// instead of racing with it.
func TestWorldReadsBorrowTheEntities(t *testing.T) {
	w := leakWorld(t)
	var e ecs.EntitiesViewMut
	release, err := w.Borrow(&e)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ecs.Get[leakQ](w, 0); !errors.Is(err, ecs.ErrBorrowConflict) {
		t.Errorf("Get beside EntitiesViewMut: %v, want a borrow conflict", err)
	}
	if _, _, err := ecs.Get2[leakQ, leakR](w, 0); !errors.Is(err, ecs.ErrBorrowConflict) {
		t.Errorf("Get2 beside EntitiesViewMut: %v, want a borrow conflict", err)
	}
	release()
	if q, err := ecs.Get[leakQ](w, 0); err != nil || q.V != 1 {
		t.Errorf("Get after the release: %v, %v", q, err)
	}
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

type (
	wtPos struct{ X int }
	wtVel struct{ X int }
)

// TestWorldEntityCalls: the World-level calls on one entity, for a live
// entity with and without the component, a deleted one and NullID. A dead
// id gets an error wrapping ErrDeadEntity (an *EntityError), a missing
// component an error wrapping ErrMissingComponent (Get) or ok false, and
// nothing changes then; Contains only says false for a dead id.
func TestWorldEntityCalls(t *testing.T) {
	w := ecs.NewWorld()
	withPos, err := ecs.AddEntity2(w, wtPos{1}, wtVel{2})
	must(t, err)
	bare, err := w.AddEntity()
	must(t, err)
	dead, err := ecs.AddEntity1(w, wtPos{3})
	must(t, err)
	must(t, w.DeleteEntity(dead))
	equal(t, "EntityCount", w.EntityCount(), 2)

	for _, c := range []struct {
		name    string
		id      ecs.EntityID
		alive   bool
		has     bool
		wantErr error // of Get, Remove, DeleteComponent, Strip, DeleteEntity
	}{
		{"live with the component", withPos, true, true, nil},
		{"live without it", bare, true, false, nil},
		{"deleted", dead, false, false, ecs.ErrDeadEntity},
		{"NullID", ecs.NullID, false, false, ecs.ErrDeadEntity},
	} {
		t.Run(c.name, func(t *testing.T) {
			equal(t, "IsAlive", w.IsAlive(c.id), c.alive)
			ok, err := ecs.Contains[wtPos](w, c.id) // false for a dead id, no error
			must(t, err)
			equal(t, "Contains", ok, c.has)
			p, err := ecs.Get[wtPos](w, c.id)
			switch {
			case c.wantErr != nil:
				errIs(t, err, c.wantErr)
				errAs[*ecs.EntityError](t, err)
			case !c.has:
				errIs(t, err, ecs.ErrMissingComponent)
			default:
				must(t, err)
				equal(t, "Get", p, wtPos{1})
			}
			if c.wantErr != nil {
				_, _, err := ecs.Remove[wtPos](w, c.id)
				errIs(t, err, c.wantErr)
				_, err = ecs.DeleteComponent[wtPos](w, c.id)
				errIs(t, err, c.wantErr)
				errIs(t, w.Strip(c.id), c.wantErr)
				errIs(t, w.DeleteEntity(c.id), c.wantErr)
				equal(t, "EntityCount after refused calls", w.EntityCount(), 2)
			}
		})
	}

	// Remove, DeleteComponent and Strip on the live entities.
	v, ok, err := ecs.Remove[wtPos](w, withPos)
	must(t, err)
	equal(t, "Remove", v, wtPos{1})
	isTrue(t, ok, "Remove found no wtPos")
	_, ok, err = ecs.Remove[wtPos](w, withPos)
	must(t, err)
	isTrue(t, !ok, "Remove found wtPos twice")
	ok, err = ecs.DeleteComponent[wtPos](w, bare)
	must(t, err)
	isTrue(t, !ok, "DeleteComponent found a wtPos on an entity without one")
	must(t, w.Strip(withPos))
	ok, err = ecs.Contains[wtVel](w, withPos)
	must(t, err)
	isTrue(t, !ok, "Strip left a wtVel")
	isTrue(t, w.IsAlive(withPos), "Strip deleted the entity")
	must(t, w.DeleteEntity(withPos))
	equal(t, "EntityCount", w.EntityCount(), 1)
	errIs(t, w.DeleteEntity(withPos), ecs.ErrDeadEntity)
}
