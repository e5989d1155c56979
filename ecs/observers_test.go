package ecs_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

type obsHit struct{ Damage int }
type obsHealth struct{ HP int }
type obsDead struct{}
type obsLoop struct{ N int }

// TestObserveTrigger: a user event reaches its observers in registration
// order, with their views borrowed; Trigger returns once they ran.
func TestObserveTrigger(t *testing.T) {
	w := ecs.NewWorld()
	id := ok(ecs.AddEntity1(w, obsHealth{HP: 10}))
	var log []string
	first := func(ev ecs.Event[obsHit], hp ecs.ViewMut[obsHealth]) {
		hp.MustGet(id).HP -= ev.Get().Damage
		log = append(log, fmt.Sprint("first ", ev.Get().Damage))
	}
	second := func(ev ecs.Event[obsHit], hp ecs.View[obsHealth]) {
		log = append(log, fmt.Sprint("second ", hp.MustGet(id).HP))
	}
	if err := ecs.Observe[obsHit](w, first); err != nil {
		t.Fatal(err)
	}
	if err := ecs.Observe[obsHit](w, second); err != nil {
		t.Fatal(err)
	}
	if err := ecs.Trigger(w, obsHit{Damage: 3}); err != nil {
		t.Fatal(err)
	}
	if err := ecs.Trigger(w, obsHit{Damage: 4}); err != nil {
		t.Fatal(err)
	}
	want := []string{"first 3", "second 7", "first 4", "second 3"}
	if !slices.Equal(log, want) {
		t.Fatalf("calls %q, want %q", log, want)
	}
	// An event nobody observes is dropped.
	if err := ecs.Trigger(w, obsLoop{}); err != nil {
		t.Fatal(err)
	}
}

// TestObserveLifecycleWorld: lifecycle events raised by World-level calls
// are handled before the call returns, in the order of the changes.
func TestObserveLifecycleWorld(t *testing.T) {
	w := ecs.NewWorld()
	var log []string
	must(t, ecs.Observe[ecs.Inserted[obsHealth]](w, func(ev ecs.Event[ecs.Inserted[obsHealth]], hp ecs.View[obsHealth]) {
		log = append(log, fmt.Sprint("inserted ", ev.Get().ID.Index(), " ", hp.MustGet(ev.Get().ID).HP))
	}))
	must(t, ecs.Observe[ecs.Replaced[obsHealth]](w, func(ev ecs.Event[ecs.Replaced[obsHealth]]) {
		log = append(log, fmt.Sprint("replaced ", ev.Get().Old.HP))
	}))
	must(t, ecs.Observe[ecs.Removed[obsHealth]](w, func(ev ecs.Event[ecs.Removed[obsHealth]]) {
		log = append(log, fmt.Sprint("removed ", ev.Get().Value.HP))
	}))
	must(t, ecs.Observe[ecs.Deleted[obsHealth]](w, func(ev ecs.Event[ecs.Deleted[obsHealth]]) {
		log = append(log, fmt.Sprint("deleted ", ev.Get().Value.HP))
	}))
	must(t, ecs.Observe[ecs.EntityCreated](w, func(ev ecs.Event[ecs.EntityCreated]) {
		log = append(log, fmt.Sprint("created ", ev.Get().ID.Index()))
	}))
	must(t, ecs.Observe[ecs.EntityDeleted](w, func(ev ecs.Event[ecs.EntityDeleted]) {
		log = append(log, fmt.Sprint("killed ", ev.Get().ID.Index()))
	}))
	steps := []struct {
		name string
		do   func() error
		want []string
	}{
		{"AddEntity1", func() error { _, err := ecs.AddEntity1(w, obsHealth{HP: 5}); return err }, []string{"created 0", "inserted 0 5"}},
		{"AddComponent1", func() error { return ecs.AddComponent1(w, ecs.NewEntityID(0, 0), obsHealth{HP: 6}) }, []string{"replaced 5"}},
		{"Remove", func() error { _, _, err := ecs.Remove[obsHealth](w, ecs.NewEntityID(0, 0)); return err }, []string{"removed 6"}},
		{"BulkAddEntity1", func() error { _, err := ecs.BulkAddEntity1(w, []obsHealth{{1}, {2}}); return err }, []string{"created 1", "created 2", "inserted 1 1", "inserted 2 2"}},
		{"DeleteEntity", func() error { return w.DeleteEntity(ecs.NewEntityID(1, 0)) }, []string{"killed 1", "deleted 1"}},
		{"DeleteAny", func() error { _, err := ecs.DeleteAny[obsHealth](w); return err }, []string{"killed 2", "deleted 2"}},
	}
	for _, s := range steps {
		log = nil
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if !slices.Equal(log, s.want) {
			t.Errorf("%s: calls %q, want %q", s.name, log, s.want)
		}
	}
}

// TestObserveInSystem: events raised inside a system are handled after it
// returns (its views released), before World.Run returns.
func TestObserveInSystem(t *testing.T) {
	w := ecs.NewWorld()
	id := ok(w.AddEntity())
	var log []string
	must(t, ecs.Observe[ecs.Inserted[obsDead]](w, func(ev ecs.Event[ecs.Inserted[obsDead]], ents ecs.EntitiesView, hp ecs.ViewMut[obsHealth]) {
		log = append(log, "observer")
		_ = hp.AddComponent(ents, ev.Get().ID, obsHealth{HP: -1})
	}))
	err := w.Run(func(ents ecs.EntitiesView, dead ecs.ViewMut[obsDead]) {
		_ = dead.AddComponent(ents, id, obsDead{})
		log = append(log, "system")
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"system", "observer"}; !slices.Equal(log, want) {
		t.Fatalf("calls %q, want %q", log, want)
	}
	if hp, err := ecs.Get[obsHealth](w, id); err != nil || hp.HP != -1 {
		t.Fatalf("health %v, %v; want -1", hp, err)
	}
}

// TestObserveWorkload: in a workload, events wait for the ApplyCommands
// item after the system that raised them, or the end of the run; emitted
// events follow the commands recorded before them.
func TestObserveWorkload(t *testing.T) {
	w := ecs.NewWorld()
	var log []string
	must(t, ecs.Observe[obsHit](w, func(ev ecs.Event[obsHit], ents ecs.EntitiesView, hp ecs.View[obsHealth]) {
		log = append(log, fmt.Sprintf("hit %d, %d with health", ev.Get().Damage, hp.Len()))
	}))
	spawn := func(c ecs.Commands) {
		id := c.AddEntity()
		ecs.CommandsFor[obsHealth](c).Add(id, obsHealth{HP: 1})
		ecs.Emit(c, obsHit{Damage: 1})
		log = append(log, "spawn")
	}
	between := func(hp ecs.View[obsHealth]) { log = append(log, fmt.Sprint("between ", hp.Len())) }
	// hit borrows health mutably so that it runs after between, not
	// beside it in the same parallel batch.
	hit := func(c ecs.Commands, _ ecs.ViewMut[obsHealth]) {
		ecs.Emit(c, obsHit{Damage: 2})
		log = append(log, "hit")
	}
	must(t, w.AddWorkload("wl", spawn, ecs.ApplyCommands(), between, hit))
	must(t, w.RunWorkload("wl"))
	want := []string{"spawn", "hit 1, 1 with health", "between 1", "hit", "hit 2, 1 with health"}
	if !slices.Equal(log, want) {
		t.Fatalf("calls %q\nwant %q", log, want)
	}
}

// TestObserveChain: an observer's changes raise events of their own,
// handled after the events already waiting.
func TestObserveChain(t *testing.T) {
	w := ecs.NewWorld()
	id := ok(ecs.AddEntity1(w, obsHealth{HP: 2}))
	var log []string
	must(t, ecs.Observe[obsHit](w, func(ev ecs.Event[obsHit], ents ecs.EntitiesView, hp ecs.ViewMut[obsHealth], dead ecs.ViewMut[obsDead]) {
		h := hp.MustGet(id)
		h.HP -= ev.Get().Damage
		log = append(log, fmt.Sprint("hit ", h.HP))
		if h.HP <= 0 {
			_ = dead.AddComponent(ents, id, obsDead{})
		}
	}))
	must(t, ecs.Observe[ecs.Inserted[obsDead]](w, func(ev ecs.Event[ecs.Inserted[obsDead]], c ecs.Commands) {
		log = append(log, "dead")
		c.DeleteEntity(ev.Get().ID)
	}))
	must(t, ecs.Observe[ecs.EntityDeleted](w, func(ev ecs.Event[ecs.EntityDeleted]) {
		log = append(log, "gone")
	}))
	must(t, w.Run(func(c ecs.Commands) {
		ecs.Emit(c, obsHit{Damage: 1})
		ecs.Emit(c, obsHit{Damage: 1})
	}))
	want := []string{"hit 1", "hit 0", "dead", "gone"}
	if !slices.Equal(log, want) {
		t.Fatalf("calls %q, want %q", log, want)
	}
	if w.IsAlive(id) {
		t.Fatal("entity alive")
	}
}

// TestObserveDepth: an observer that raises its own event stops at the
// depth limit with an error, and the world stays usable.
func TestObserveDepth(t *testing.T) {
	w := ecs.NewWorld()
	n := 0
	must(t, ecs.Observe[obsLoop](w, func(ev ecs.Event[obsLoop], c ecs.Commands) {
		n++
		ecs.Emit(c, obsLoop{N: ev.Get().N + 1})
	}))
	err := ecs.Trigger(w, obsLoop{})
	var oe *ecs.ObserverError
	if !errors.Is(err, ecs.ErrObserverDepth) || !errors.As(err, &oe) {
		t.Fatalf("err %v, want ErrObserverDepth", err)
	}
	if n != ecs.MaxObserverDepth+1 || oe.Depth != ecs.MaxObserverDepth+1 || !strings.Contains(err.Error(), "obsLoop") {
		t.Fatalf("%d runs, error %v", n, err)
	}
	// Nothing stays queued or held.
	n = 0
	must(t, w.Run(func(ecs.AllStoragesViewMut) {}))
	if n != 0 {
		t.Fatalf("%d runs after the error", n)
	}
}

// TestObserveErrors: an observer's error and panic reach the caller with
// the observer's and the event's names, and leave nothing borrowed.
func TestObserveErrors(t *testing.T) {
	boom := errors.New("boom")
	w := ecs.NewWorld()
	must(t, ecs.Observe[obsHit](w, func(hp ecs.ViewMut[obsHealth]) error { return boom }))
	err := ecs.Trigger(w, obsHit{})
	var oe *ecs.ObserverError
	if !errors.Is(err, boom) || !errors.As(err, &oe) || oe.Event != "ecs_test.obsHit" || !strings.Contains(oe.Observer, "TestObserveErrors") {
		t.Fatalf("err %v (%+v)", err, oe)
	}
	// Raised by a World-level call: the call returns it.
	must(t, ecs.Observe[ecs.Inserted[obsDead]](w, func(ecs.Event[ecs.Inserted[obsDead]]) error { return boom }))
	id := ok(w.AddEntity())
	if err := ecs.AddComponent1(w, id, obsDead{}); !errors.Is(err, boom) {
		t.Fatalf("AddComponent1: %v, want boom", err)
	}
	if has, _ := ecs.Contains[obsDead](w, id); !has {
		t.Fatal("the change was undone")
	}
	// A panic.
	w2 := ecs.NewWorld()
	must(t, ecs.Observe[obsHit](w2, func(hp ecs.ViewMut[obsHealth]) { panic("bad") }))
	func() {
		defer func() {
			p, ok := recover().(*ecs.ObserverPanic)
			if !ok || p.Value != "bad" || p.Event != "ecs_test.obsHit" {
				t.Fatalf("recovered %v", p)
			}
		}()
		_ = ecs.Trigger(w2, obsHit{})
	}()
	must(t, w2.Run(func(ecs.AllStoragesViewMut) {}))
	// The Event view outside an observer of its type.
	if err := w.Run(func(ecs.Event[obsHit]) {}); !errors.Is(err, ecs.ErrInvalidView) {
		t.Fatalf("Event outside an observer: %v", err)
	}
}

// TestObserveRefusals: bad registrations change nothing.
func TestObserveRefusals(t *testing.T) {
	w := ecs.NewWorld()
	if err := ecs.Observe[obsHit](nil, func() {}); !errors.Is(err, ecs.ErrNilWorld) {
		t.Errorf("nil world: %v", err)
	}
	if err := ecs.Observe[obsHit](w, 3); !errors.Is(err, ecs.ErrInvalidSystem) {
		t.Errorf("not a system: %v", err)
	}
	if err := ecs.Observe[obsHit](w, func(int) {}); !errors.Is(err, ecs.ErrInvalidSystem) {
		t.Errorf("bad parameter: %v", err)
	}
	release, err := w.Borrow(new(ecs.View[obsHealth]))
	must(t, err)
	if err := ecs.Observe[obsHit](w, func() {}); !errors.Is(err, ecs.ErrBorrowConflict) {
		t.Errorf("borrowed world: %v", err)
	}
	release()
	n := 0
	must(t, ecs.Observe[obsHit](w, func() { n++ }))
	must(t, ecs.Trigger(w, obsHit{}))
	if n != 1 {
		t.Fatalf("%d runs, want 1 (the refused registrations ran?)", n)
	}
	if err := ecs.Trigger[obsHit](nil, obsHit{}); !errors.Is(err, ecs.ErrNilWorld) {
		t.Errorf("Trigger on nil: %v", err)
	}
}

// TestObserveParallel: systems running in parallel raise events at the
// same time (run it with -race); every event is handled once.
func TestObserveParallel(t *testing.T) {
	type a struct{ V int }
	type b struct{ V int }
	w := ecs.NewWorld()
	ids := ok(ecs.BulkAddEntity1(w, make([]obsHealth, 200)))
	var na, nb, ne int
	must(t, ecs.Observe[ecs.Inserted[a]](w, func(ecs.Event[ecs.Inserted[a]]) { na++ }))
	must(t, ecs.Observe[ecs.Inserted[b]](w, func(ecs.Event[ecs.Inserted[b]]) { nb++ }))
	must(t, ecs.Observe[obsHit](w, func(ecs.Event[obsHit]) { ne++ }))
	addA := func(ents ecs.EntitiesView, v ecs.ViewMut[a], c ecs.Commands) {
		for _, id := range ids {
			_ = v.AddComponent(ents, id, a{})
			ecs.Emit(c, obsHit{})
		}
	}
	addB := func(ents ecs.EntitiesView, v ecs.ViewMut[b], c ecs.Commands) {
		for _, id := range ids {
			_ = v.AddComponent(ents, id, b{})
			ecs.Emit(c, obsHit{})
		}
	}
	must(t, w.AddWorkload("par", addA, addB))
	must(t, w.RunWorkload("par"))
	if na != len(ids) || nb != len(ids) || ne != 2*len(ids) {
		t.Fatalf("handled %d, %d, %d events; want %d, %d, %d", na, nb, ne, len(ids), len(ids), 2*len(ids))
	}
}

// TestObserveWrongEvent: an observer whose Event view is of another type
// is refused at registration, naming the parameter.
func TestObserveWrongEvent(t *testing.T) {
	w := ecs.NewWorld()
	err := ecs.Observe[obsHit](w, func(hp ecs.View[obsHealth], ev ecs.Event[obsLoop]) {})
	var se *ecs.SystemError
	if !errors.As(err, &se) || se.Param != 2 || !errors.Is(err, ecs.ErrInvalidSystem) || !strings.Contains(err.Error(), "obsLoop") {
		t.Fatalf("err %v", err)
	}
	n := 0
	must(t, ecs.Observe[obsHit](w, ecs.Func2(func(ev ecs.Event[obsHit], hp ecs.View[obsHealth]) { n += ev.Get().Damage })))
	must(t, ecs.Trigger(w, obsHit{Damage: 2}))
	if n != 2 {
		t.Fatalf("typed observer saw %d, want 2", n)
	}
}

// TestObserveConcurrent: goroutines trigger events and make World-level
// changes on one world at once (run it with -race). Every event is
// handled exactly once, by whichever goroutine drains the queue; an
// observer that meets a borrow held by another goroutine fails cleanly,
// and its event waits for the next sync point.
func TestObserveConcurrent(t *testing.T) {
	w := ecs.NewWorld()
	var hits, inserted atomicCount
	must(t, ecs.Observe[obsHit](w, func(ev ecs.Event[obsHit], hp ecs.View[obsHealth]) { hits.add(1) }))
	must(t, ecs.Observe[ecs.Inserted[obsHealth]](w, func(ecs.Event[ecs.Inserted[obsHealth]]) { inserted.add(1) }))
	const per = 200
	done := make(chan int, 4)
	for g := range 4 {
		go func() {
			ok := 0
			for i := range per {
				var err error
				if g%2 == 0 {
					err = ecs.Trigger(w, obsHit{Damage: i})
				} else {
					_, err = ecs.AddEntity1(w, obsHealth{HP: i})
				}
				if err == nil {
					ok++
				} else if !errors.Is(err, ecs.ErrBorrowConflict) {
					t.Error(err)
				}
			}
			done <- ok
		}()
	}
	for range 4 {
		<-done
	}
	for ecs.Trigger(w, obsLoop{}) != nil { // the last sync points, until one drains all
	}
	if inserted.get() != w.EntityCount() {
		t.Fatalf("%d Inserted events handled, %d entities", inserted.get(), w.EntityCount())
	}
	if hits.get() != 2*per {
		t.Fatalf("%d hits handled, %d triggered", hits.get(), 2*per)
	}
}

type atomicCount struct{ n atomic.Int64 }

func (c *atomicCount) add(d int64) { c.n.Add(d) }
func (c *atomicCount) get() int    { return int(c.n.Load()) }

// TestObserveErrorKeepsQueue: the events after a failed observer wait
// for the next sync point; so do the failed event's later observers.
func TestObserveErrorKeepsQueue(t *testing.T) {
	boom := errors.New("boom")
	w := ecs.NewWorld()
	var log []string
	must(t, ecs.Observe[obsHit](w, func(ev ecs.Event[obsHit]) error {
		log = append(log, fmt.Sprint("first ", ev.Get().Damage))
		if ev.Get().Damage == 1 {
			return boom
		}
		return nil
	}))
	must(t, ecs.Observe[obsHit](w, func(ev ecs.Event[obsHit]) {
		log = append(log, fmt.Sprint("second ", ev.Get().Damage))
	}))
	err := w.Run(func(c ecs.Commands) {
		ecs.Emit(c, obsHit{Damage: 1})
		ecs.Emit(c, obsHit{Damage: 2})
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Run: %v, want boom", err)
	}
	if want := []string{"first 1"}; !slices.Equal(log, want) {
		t.Fatalf("before the next sync point: %q, want %q", log, want)
	}
	must(t, ecs.Trigger(w, obsLoop{}))
	want := []string{"first 1", "second 1", "first 2", "second 2"}
	if !slices.Equal(log, want) {
		t.Fatalf("calls %q, want %q", log, want)
	}
}
