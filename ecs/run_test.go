package ecs_test

import (
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slipway-ecs/slipway/ecs"
)

func TestGatedSystemsRunBesideOthers(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("js/wasm runs one goroutine at a time")
	}
	for _, tc := range []struct {
		name string
		gate func(s *ecs.SystemSpec) *ecs.SystemSpec
	}{
		{"OnCaller", (*ecs.SystemSpec).OnCaller},
		{"RunIf", func(s *ecs.SystemSpec) *ecs.SystemSpec { return s.RunIf(func() bool { return true }) }},
		{"SkipIf", func(s *ecs.SystemSpec) *ecs.SystemSpec { return s.SkipIf(func() bool { return false }) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := leakWorld(t)
			newTestPool(t, w)
			a, b := rendezvous(t)
			sysA := func(q ecs.ViewMut[leakQ]) { a() }
			sysB := func(r ecs.ViewMut[leakR]) { b() }
			for _, order := range [][]any{
				{tc.gate(ecs.System(sysA)), sysB},
				{sysB, tc.gate(ecs.System(sysA))},
			} {
				name := "w" + strings.Repeat("'", len(w.Workloads()))
				if err := w.AddWorkload(name, order...); err != nil {
					t.Fatal(err)
				}
				a, b = rendezvous(t)
				if err := w.RunWorkload(name); err != nil {
					t.Fatal(err)
				}
			}
			nothingHeld(t, w)
		})
	}
}

func TestGoexitOnAWorkerEndsTheRun(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("js/wasm runs one goroutine at a time")
	}
	w := leakWorld(t)
	newTestPool(t, w)
	started := make(chan struct{})
	exits := true
	exiting := func(q ecs.ViewMut[leakQ]) {
		if exits {
			close(started)
			runtime.Goexit()
		}
	}
	// The caller runs the gated system first, and waits in it until the
	// other has started on a worker.
	waiting := func(r ecs.ViewMut[leakR]) {
		select {
		case <-started:
		case <-time.After(5 * time.Second):
			t.Error("the other system did not start on a worker")
		}
	}
	if err := w.AddWorkload("w", exiting, ecs.System(waiting).OnCaller()); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- w.RunWorkload("w") }()
	select {
	case err := <-done:
		if !errors.Is(err, ecs.ErrGoexit) {
			t.Errorf("RunWorkload: %v, want an error wrapping ErrGoexit", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("RunWorkload did not return after runtime.Goexit on a worker")
	}
	nothingHeld(t, w)
	exits = false
	for range 3 { // the pool replaced its worker; the workload runs again
		if err := w.RunWorkload("w"); err != nil && !strings.Contains(err.Error(), "did not start") {
			t.Fatalf("the next run: %v", err)
		}
	}
}

func TestGoexitOnTheCallerWaitsForTheWorkers(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("js/wasm runs one goroutine at a time")
	}
	w := leakWorld(t)
	newTestPool(t, w)
	var mu sync.Mutex
	inside := 0 // systems running now
	enter := func() {
		mu.Lock()
		inside++
		mu.Unlock()
	}
	leave := func() {
		mu.Lock()
		inside--
		mu.Unlock()
	}
	started := make(chan struct{}, 1)
	exits := true
	slow := func(r ecs.ViewMut[leakR]) {
		enter()
		defer leave()
		select {
		case started <- struct{}{}:
		default:
		}
		time.Sleep(20 * time.Millisecond)
	}
	exiting := func(q ecs.ViewMut[leakQ]) {
		if exits {
			<-started // the other one is running on a worker
			runtime.Goexit()
		}
	}
	if err := w.AddWorkload("w", slow, ecs.System(exiting).OnCaller()); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = w.RunWorkload("w")
		t.Error("RunWorkload returned on a goroutine that called runtime.Goexit")
	}()
	<-done
	mu.Lock()
	n := inside
	mu.Unlock()
	if n != 0 {
		t.Errorf("%d systems still running after the caller's goroutine ended", n)
	}
	nothingHeld(t, w)
	exits = false
	if err := w.RunWorkload("w"); err != nil {
		t.Fatalf("the next run: %v", err)
	}
}
