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
