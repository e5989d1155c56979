package ecs

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The chaos test builds random workloads of random systems and custom
// views, and makes them fail at random points: an error, a panic or
// runtime.Goexit, in a system, in a custom view's OnBorrow or OnRelease,
// or in a run condition, on a worker or on the caller (OnCaller). After
// every run it checks that no borrow leaked (every storage, unique and the
// entities storage can be borrowed exclusively at once), that the pool has
// no worker left busy, and that the world holds what the systems that ran
// say they did.

type chA struct{ V int }
type chB struct{ V int }
type chC struct{ V int }
type chU struct{ N int }

// chFault is what a fault point does.
type chFault uint8

const (
	chNone chFault = iota
	chError
	chPanic
	chGoexit
)

// errChaos is the error a faulting system, hook or condition returns.
var errChaos = errors.New("chaos")

// chWhere names the fault points of a system.
type chWhere uint8

const (
	chInSystem chWhere = iota
	chInOnBorrow
	chInOnRelease
	chInCond
)

// chSpec is one random system: what it does, where it faults and how.
type chSpec struct {
	kind     int // which system (see chSystem)
	where    chWhere
	fault    chFault
	onCaller bool
	skip     bool // its condition returns false
}

// chLog records the effects of the systems that ran, in the order they
// were applied; the model replays it. Systems of a run may run at once.
type chLog struct {
	mu      sync.Mutex
	incA    int        // every A incremented, so many times
	incU    int        // the unique incremented, so many times
	created []EntityID // entities created with C{1}
	deleted []EntityID // entities whose B was deleted
}

func (l *chLog) add(fn func(l *chLog)) {
	l.mu.Lock()
	fn(l)
	l.mu.Unlock()
}

// fire carries out fault f, returning the error to return, if any.
func (f chFault) fire() error {
	switch f {
	case chError:
		return errChaos
	case chPanic:
		panic(errChaos)
	case chGoexit:
		runtime.Goexit()
	}
	return nil
}

// chHooked is a custom view with hooks that fault as chHooks says: the
// frame makes the custom view, so the test sets its faults for the run.
type chHooked struct {
	A ViewMut[chA]
	B View[chB]
}

// chHooks holds the faults of chHooked's OnBorrow and OnRelease for the
// run under way.
var chHooks atomic.Pointer[[2]chFault]

func (h *chHooked) OnBorrow() error { return chHooks.Load()[0].fire() }

func (h *chHooked) OnRelease() {
	if err := chHooks.Load()[1].fire(); err != nil {
		panic(err) // OnRelease has no error to return
	}
}

// chSystem returns the system of spec, which logs its effect in l.
func chSystem(spec chSpec, l *chLog) *SystemSpec {
	inSys := chNone
	if spec.where == chInSystem {
		inSys = spec.fault
	}
	var sys any
	switch spec.kind % 5 {
	case 0: // writes every A
		sys = func(a ViewMut[chA]) error {
			if err := inSys.fire(); err != nil {
				return err
			}
			for p := range a.All() {
				p.V++
			}
			l.add(func(l *chLog) { l.incA++ })
			return nil
		}
	case 1: // reads B, writes the unique
		sys = func(b View[chB], u UniqueViewMut[chU]) error {
			if err := inSys.fire(); err != nil {
				return err
			}
			n := 0
			for range b.All() {
				n++
			}
			u.Get().N++
			l.add(func(l *chLog) { l.incU++ })
			return nil
		}
	case 2: // creates an entity with C
		sys = func(e EntitiesViewMut, c ViewMut[chC]) error {
			if err := inSys.fire(); err != nil {
				return err
			}
			id := e.AddEntity()
			if err := c.AddComponentUnchecked(id, chC{1}); err != nil {
				return err
			}
			l.add(func(l *chLog) { l.created = append(l.created, id) })
			return nil
		}
	case 3: // a custom view with hooks: writes every A
		sys = func(h chHooked) error {
			if err := inSys.fire(); err != nil {
				return err
			}
			for p := range h.A.All() {
				p.V++
			}
			l.add(func(l *chLog) { l.incA++ })
			return nil
		}
	case 4: // deletes the first B, through the world
		sys = func(all AllStoragesViewMut) error {
			if err := inSys.fire(); err != nil {
				return err
			}
			bs := storageFor[chB](all.held())
			if len(bs.dense) == 0 {
				return nil
			}
			id := bs.dense[0]
			if ok, err := DeleteComponent[chB](all, id); err != nil || !ok {
				return fmt.Errorf("DeleteComponent: %v, %v", ok, err)
			}
			l.add(func(l *chLog) { l.deleted = append(l.deleted, id) })
			return nil
		}
	}
	s := System(sys)
	if spec.onCaller {
		s = s.OnCaller()
	}
	if spec.where == chInCond || spec.skip {
		fault := chNone
		if spec.where == chInCond {
			fault = spec.fault
		}
		skip := spec.skip
		s = s.RunIf(func(u UniqueView[chU]) bool {
			if err := fault.fire(); err != nil {
				panic(err) // a run condition has no error to return
			}
			return !skip
		})
	}
	return s
}

// chWorld is the world of the chaos test and its model.
type chWorld struct {
	w    *World
	pool *Pool
	a    map[EntityID]int // entities with A, their values
	b    map[EntityID]int
	c    map[EntityID]int
	u    int
}

func newChWorld(t *testing.T) *chWorld {
	t.Helper()
	cw := &chWorld{w: NewWorld(), a: map[EntityID]int{}, b: map[EntityID]int{}, c: map[EntityID]int{}}
	cw.pool = NewPool(2)
	cw.w.SetPool(cw.pool)
	t.Cleanup(cw.pool.Close)
	if err := AddUnique(cw.w, chU{}); err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		id, err := AddEntity2(cw.w, chA{i}, chB{i})
		if err != nil {
			t.Fatal(err)
		}
		cw.a[id], cw.b[id] = i, i
	}
	return cw
}

// apply replays the log into the model.
func (cw *chWorld) apply(l *chLog) {
	for id := range cw.a {
		cw.a[id] += l.incA
	}
	cw.u += l.incU
	for _, id := range l.created {
		cw.c[id] = 1
	}
	for _, id := range l.deleted {
		delete(cw.b, id)
	}
}

// check compares the world with the model, and checks that nothing is
// borrowed and that the pool's workers are all idle.
func (cw *chWorld) check(t *testing.T, step int) {
	t.Helper()
	var all AllStoragesViewMut
	release, err := cw.w.Borrow(&all)
	if err != nil {
		t.Fatalf("step %d: a borrow leaked: %v", step, err)
	}
	release()
	chEqual[chA](t, step, "A", cw.w, cw.a)
	chEqual[chB](t, step, "B", cw.w, cw.b)
	chEqual[chC](t, step, "C", cw.w, cw.c)
	u, err := GetUnique[chU](cw.w)
	if err != nil || u.N != cw.u {
		t.Fatalf("step %d: unique %v (%v), model %d", step, u, err, cw.u)
	}
	// Workers finish their share before the run returns; they may still
	// be on their way back to the pool's idle list.
	deadline := time.Now().Add(5 * time.Second)
	for {
		cw.pool.mu.Lock()
		busy := cw.pool.live - len(cw.pool.parked)
		queued := len(cw.pool.queue) - cw.pool.head
		cw.pool.mu.Unlock()
		if busy == 0 && queued == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("step %d: %d workers still busy, %d jobs queued after the run", step, busy, queued)
		}
		time.Sleep(time.Millisecond)
	}
}

// chEqual compares the components of type T (a struct{V int}) in w with
// the model.
func chEqual[T ~struct{ V int }](t *testing.T, step int, name string, w *World, model map[EntityID]int) {
	t.Helper()
	got := map[EntityID]int{}
	s := storageFor[T](w)
	for i, id := range s.dense {
		got[id] = struct{ V int }(s.data[i]).V
	}
	if len(got) != len(model) {
		t.Fatalf("step %d: %d %s components, model %d\nworld %v\nmodel %v", step, len(got), name, len(model), got, model)
	}
	for id, v := range model {
		if g, ok := got[id]; !ok || g != v {
			t.Fatalf("step %d: %s of %v = %v (%v), model %v", step, name, id, g, ok, v)
		}
	}
}

// runChaos runs the steps that ops describes.
func runChaos(t *testing.T, ops []byte) {
	cw := newChWorld(t)
	next := func() byte {
		if len(ops) == 0 {
			return 0
		}
		b := ops[0]
		ops = ops[1:]
		return b
	}
	for step := 0; len(ops) > 0 && step < 64; step++ {
		n := 1 + int(next()%5)
		var specs []chSpec
		for range n {
			b, c := next(), next()
			spec := chSpec{kind: int(b % 5), onCaller: b&8 != 0, skip: b&16 != 0}
			if c%3 == 0 { // a third of the systems fault somewhere
				spec.where = chWhere(c / 3 % 4)
				spec.fault = chFault(1 + c/12%3)
			}
			if spec.kind != 3 && (spec.where == chInOnBorrow || spec.where == chInOnRelease) {
				spec.where = chInSystem // only the custom view has hooks
			}
			specs = append(specs, spec)
		}
		l := &chLog{}
		var items []any
		for _, spec := range specs {
			items = append(items, chSystem(spec, l))
		}
		name := fmt.Sprint("w", step)
		if err := cw.w.AddWorkload(name, items...); err != nil {
			t.Fatalf("step %d: AddWorkload: %v", step, err)
		}
		hooks := specsHooks(specs)
		chHooks.Store(&hooks)
		// On its own goroutine: runtime.Goexit on the caller ends it.
		done := make(chan any, 1)
		go func() {
			ended := true
			defer func() {
				if r := recover(); r != nil {
					done <- r
				} else if ended {
					done <- "goexit"
				}
			}()
			err := cw.w.RunWorkload(name)
			ended = false
			done <- err
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			buf := make([]byte, 1<<20)
			t.Fatalf("step %d: RunWorkload did not finish; goroutines:\n%s", step, buf[:runtime.Stack(buf, true)])
		}
		cw.apply(l)
		cw.check(t, step)
		if err := cw.w.RemoveWorkload(name); err != nil {
			t.Fatalf("step %d: RemoveWorkload: %v", step, err)
		}
	}
}

// specsHooks returns the hook faults of specs' custom-view systems (the
// last one's, which all of them then have).
func specsHooks(specs []chSpec) [2]chFault {
	var f [2]chFault
	for _, s := range specs {
		if s.kind == 3 {
			switch s.where {
			case chInOnBorrow:
				f[0] = s.fault
			case chInOnRelease:
				f[1] = s.fault
			}
		}
	}
	return f
}

func FuzzBorrowChaos(f *testing.F) {
	f.Add([]byte{3, 3, 0, 11, 3, 2, 6, 19, 9, 4, 12})
	f.Add([]byte("chaos in hooks, systems and conditions, on workers and on the caller"))
	f.Fuzz(func(t *testing.T, ops []byte) {
		runChaos(t, ops)
	})
}

// TestBorrowChaos runs random chaos programs from a new seed each time
// (logged on failure); run it with -count, or FuzzBorrowChaos, for longer.
func TestBorrowChaos(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("js/wasm runs one goroutine at a time")
	}
	rounds := 40
	if testing.Short() {
		rounds = 5
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	for r := range rounds {
		ops := make([]byte, 64+rng.IntN(256))
		for i := range ops {
			ops[i] = byte(rng.UintN(256))
		}
		t.Run(fmt.Sprint(r), func(t *testing.T) {
			defer func() {
				if t.Failed() {
					t.Logf("ops: %v", ops)
				}
			}()
			runChaos(t, ops)
		})
	}
}
