package ecs_test

import (
	"errors"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

type cmdPos struct{ X int }
type cmdTag struct{}
type cmdScore struct{ N int }

// TestCommandsRun: commands recorded in World.Run apply when the system
// returns, in recording order, with reserved ids.
func TestCommandsRun(t *testing.T) {
	w := ecs.NewWorld()
	a := ok(ecs.AddEntity2(w, cmdPos{1}, cmdTag{}))
	b := ok(ecs.AddEntity1(w, cmdPos{2}))
	var made ecs.EntityID
	err := w.Run(func(c ecs.Commands, pos ecs.View[cmdPos]) {
		made = c.AddEntity()
		p := ecs.CommandsFor[cmdPos](c)
		p.Add(made, cmdPos{3})
		p.Add(made, cmdPos{4}) // later wins
		p.Delete(b)
		ecs.CommandsFor[cmdTag](c).Remove(a)
		c.DeleteEntity(a)
		ecs.CommandsFor[cmdScore](c).AddUnique(cmdScore{7})
		if n := c.Len(); n != 7 {
			t.Errorf("Len %d, want 7", n)
		}
		// Nothing has changed yet.
		if pos.Len() != 2 {
			t.Errorf("%d positions while recording, want 2", pos.Len())
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if w.IsAlive(a) || !w.IsAlive(b) || !w.IsAlive(made) {
		t.Fatalf("alive: a %v b %v made %v", w.IsAlive(a), w.IsAlive(b), w.IsAlive(made))
	}
	if p, err := ecs.Get[cmdPos](w, made); err != nil || p.X != 4 {
		t.Errorf("made has %v, %v; want {4}", p, err)
	}
	if has, _ := ecs.Contains[cmdPos](w, b); has {
		t.Error("b kept its cmdPos")
	}
	if s, err := ecs.GetUnique[cmdScore](w); err != nil || s.N != 7 {
		t.Errorf("unique %v, %v", s, err)
	}
	// The reserved id is the one the world would have given next.
	w2 := ecs.NewWorld()
	ok(ecs.AddEntity2(w2, cmdPos{1}, cmdTag{}))
	ok(ecs.AddEntity1(w2, cmdPos{2}))
	if next := ok(w2.AddEntity()); next != made {
		t.Errorf("reserved %v, the world would give %v", made, next)
	}
}

// TestCommandsReserveFreeList: reserved ids reuse freed indices, as
// creations do, and stay distinct across parallel systems.
func TestCommandsReserveFreeList(t *testing.T) {
	w := ecs.NewWorld()
	var ids []ecs.EntityID
	for range 4 {
		ids = append(ids, ok(w.AddEntity()))
	}
	ok(0, ecs.DeleteEntities(w, ids[1], ids[3]))
	var got []ecs.EntityID
	ok(0, w.Run(func(c ecs.Commands) {
		for range 3 {
			got = append(got, c.AddEntity())
		}
	}))
	want := []ecs.EntityID{ecs.NewEntityID(3, 1), ecs.NewEntityID(1, 1), ecs.NewEntityID(4, 0)}
	if !slices.Equal(got, want) {
		t.Errorf("reserved %v, want %v", got, want)
	}
	for _, id := range got {
		if !w.IsAlive(id) {
			t.Errorf("%v not alive after the run", id)
		}
	}
}

// TestCommandsDeadEntity: a command that fails comes back naming the
// system and the command; the others apply.
func TestCommandsDeadEntity(t *testing.T) {
	w := ecs.NewWorld()
	a := ok(w.AddEntity())
	b := ok(w.AddEntity())
	ok(0, w.DeleteEntity(a))
	err := w.Run(func(c ecs.Commands) {
		p := ecs.CommandsFor[cmdPos](c)
		p.Add(b, cmdPos{1})
		p.Add(a, cmdPos{2}) // dead
		p.Add(a, cmdPos{3}) // dead
		c.DeleteEntity(a)   // dead: nothing to do
		p.Delete(a)         // dead: nothing to do
		p.Add(b, cmdPos{4})
	})
	var ce *ecs.CommandError
	if !errors.As(err, &ce) || !errors.Is(err, ecs.ErrDeadEntity) {
		t.Fatalf("Run: %v, want a *CommandError wrapping ErrDeadEntity", err)
	}
	if ce.Index != 1 || ce.ID != a || ce.More != 1 || ce.Op != "AddComponent[ecs_test.cmdPos]" {
		t.Errorf("CommandError %+v", *ce)
	}
	t.Log(err)
	if p, _ := ecs.Get[cmdPos](w, b); p.X != 4 {
		t.Errorf("b has %v, want {4}: the commands after the failure apply", p)
	}
}

// TestCommandsFailedSystem: the commands of a system that returns an
// error or panics are dropped, and the entities it reserved deleted.
func TestCommandsFailedSystem(t *testing.T) {
	w := ecs.NewWorld()
	var made ecs.EntityID
	boom := errors.New("boom")
	err := w.Run(func(c ecs.Commands) error {
		made = c.AddEntity()
		ecs.CommandsFor[cmdPos](c).Add(made, cmdPos{1})
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Run: %v", err)
	}
	if w.IsAlive(made) || w.EntityCount() != 0 {
		t.Errorf("reserved entity alive after a failed system (%d entities)", w.EntityCount())
	}
	func() {
		defer func() { recover() }()
		_ = w.Run(func(c ecs.Commands) {
			made = c.AddEntity()
			panic("no")
		})
	}()
	if w.IsAlive(made) || w.EntityCount() != 0 {
		t.Errorf("reserved entity alive after a panic (%d entities)", w.EntityCount())
	}
	// The world is free and the buffer empty: a later run applies only
	// its own commands.
	ok(0, w.Run(func(c ecs.Commands) { c.AddEntity() }))
	if w.EntityCount() != 1 {
		t.Errorf("%d entities, want 1", w.EntityCount())
	}
}

// TestCommandsWorkload checks the ordering guarantees: in a workload,
// commands apply at ApplyCommands items and at the end of the run, in
// declared order, each system's in recording order.
func TestCommandsWorkload(t *testing.T) {
	w := ecs.NewWorld()
	var log []string
	first := func(c ecs.Commands) {
		id := c.AddEntity()
		ecs.CommandsFor[cmdPos](c).Add(id, cmdPos{1})
	}
	second := func(c ecs.Commands) {
		id := c.AddEntity()
		ecs.CommandsFor[cmdPos](c).Add(id, cmdPos{2})
	}
	see := func(pos ecs.View[cmdPos]) {
		var xs []int
		for p := range pos.All() {
			xs = append(xs, p.X)
		}
		log = append(log, fmtInts(xs))
	}
	ok(0, w.AddWorkload("w", first, second, see, ecs.ApplyCommands(), see))
	ok(0, w.RunWorkload("w"))
	ok(0, w.RunWorkload("w"))
	want := []string{"[]", "[1 2]", "[1 2]", "[1 1 2 2]"}
	if !slices.Equal(log, want) {
		t.Errorf("seen %q, want %q", log, want)
	}
	plan := ok(w.WorkloadPlan("w")).String()
	if !contains(plan, "ApplyCommands") {
		t.Errorf("the plan does not list ApplyCommands:\n%s", plan)
	}
}

// TestCommandsWorkloadErrors: a failing command at an ApplyCommands item
// fails the run naming both; at the end of the run, the *CommandError
// itself comes back.
func TestCommandsWorkloadErrors(t *testing.T) {
	w := ecs.NewWorld()
	dead := ok(w.AddEntity())
	ok(0, w.DeleteEntity(dead))
	rec := func(c ecs.Commands) { ecs.CommandsFor[cmdPos](c).Add(dead, cmdPos{1}) }
	ok(0, w.AddWorkload("mid", rec, ecs.ApplyCommands(), func() {}))
	err := w.RunWorkload("mid")
	var we *ecs.WorkloadError
	var ce *ecs.CommandError
	if !errors.As(err, &we) || we.System != "ApplyCommands" || !errors.As(err, &ce) || ce.Workload != "mid" {
		t.Fatalf("mid: %v", err)
	}
	ok(0, w.AddWorkload("end", rec))
	err = w.RunWorkload("end")
	if !errors.As(err, &ce) || ce.Workload != "end" || !errors.Is(err, ecs.ErrDeadEntity) {
		t.Fatalf("end: %v", err)
	}
	t.Log(err)
}

// TestCommandsParallelRecording runs systems that record at the same
// time (under -race): each reserves ids, which must all differ and all
// come alive with their components.
func TestCommandsParallelRecording(t *testing.T) {
	w := ecs.NewWorld()
	const per = 500
	var started atomic.Int32
	mk := func(k int) func(c ecs.Commands) {
		return func(c ecs.Commands) {
			started.Add(1)
			p := ecs.CommandsFor[cmdPos](c)
			for i := range per {
				id := c.AddEntity()
				p.Add(id, cmdPos{k*per + i})
			}
		}
	}
	ok(0, w.AddWorkload("par", mk(0), mk(1), mk(2), mk(3)))
	for range 3 {
		ok(0, w.RunWorkload("par"))
	}
	if n := w.EntityCount(); n != 3*4*per {
		t.Fatalf("%d entities, want %d", n, 3*4*per)
	}
	seen := map[int]int{}
	ok(0, w.Run(func(pos ecs.View[cmdPos]) {
		for p := range pos.All() {
			seen[p.X]++
		}
	}))
	for x := range 4 * per {
		if seen[x] != 3 {
			t.Fatalf("value %d seen %d times, want 3", x, seen[x])
		}
	}
	plan := ok(w.WorkloadPlan("par"))
	if len(plan.Batches) != 1 {
		t.Errorf("systems recording commands do not share a batch:\n%s", plan)
	}
}

// TestCommandsReleased: a Commands or TypedCommands kept past its system
// panics with ErrReleased.
func TestCommandsReleased(t *testing.T) {
	w := ecs.NewWorld()
	var kept ecs.Commands
	var keptT ecs.TypedCommands[cmdPos]
	ok(0, w.Run(func(c ecs.Commands) { kept, keptT = c, ecs.CommandsFor[cmdPos](c) }))
	for name, f := range map[string]func(){
		"AddEntity": func() { kept.AddEntity() },
		"Add":       func() { keptT.Add(ecs.NullID, cmdPos{}) },
	} {
		func() {
			defer func() {
				e, _ := recover().(error)
				if !errors.Is(e, ecs.ErrReleased) {
					t.Errorf("%s after release: panic %v, want ErrReleased", name, e)
				}
			}()
			f()
		}()
	}
	// Commands cannot be borrowed where nothing would apply them.
	var c ecs.Commands
	if _, err := w.Borrow(&c); !errors.Is(err, ecs.ErrInvalidView) {
		t.Errorf("World.Borrow(&Commands): %v, want ErrInvalidView", err)
	}
}

func fmtInts(xs []int) string {
	slices.Sort(xs)
	s := "["
	for i, x := range xs {
		if i > 0 {
			s += " "
		}
		s += string(rune('0' + x))
	}
	return s + "]"
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// TestCommandsApplyRefused: commands whose apply cannot borrow the world
// (a view held elsewhere) are dropped with a *BorrowError, and the
// entities they reserved are deleted as soon as they become live.
func TestCommandsApplyRefused(t *testing.T) {
	type hp struct{ V int }
	w := ecs.NewWorld()
	keep := ok(ecs.AddEntity1(w, hp{1}))
	release, err := w.Borrow(new(ecs.View[hp]))
	if err != nil {
		t.Fatal(err)
	}
	var made ecs.EntityID
	err = w.Run(func(c ecs.Commands) {
		made = c.AddEntity()
		ecs.CommandsFor[hp](c).Add(made, hp{2})
	})
	if !errors.Is(err, ecs.ErrBorrowConflict) {
		t.Fatalf("Run: %v, want a borrow conflict", err)
	}
	release()
	if _, err := w.AddEntity(); err != nil { // a change: the reserved id comes alive, and goes
		t.Fatal(err)
	}
	if w.IsAlive(made) || !w.IsAlive(keep) || w.EntityCount() != 2 {
		t.Fatalf("reserved %v alive: %v; %d entities, want 2", made, w.IsAlive(made), w.EntityCount())
	}
	if n, _ := ecs.Contains[hp](w, made); n {
		t.Fatal("the dropped command applied")
	}
}

// TestCommandsIndexAfterDeletions: deletions recorded one after the other
// still count one command each, in Len and in a failure's Index.
func TestCommandsIndexAfterDeletions(t *testing.T) {
	w := ecs.NewWorld()
	ids := ok(ecs.BulkAddEntity1(w, make([]cmdPos, 4)))
	dead := ids[3]
	ok(0, w.DeleteEntity(dead))
	err := w.Run(func(c ecs.Commands) {
		c.DeleteEntity(ids[0])
		c.DeleteEntity(ids[1])
		c.DeleteEntity(dead) // dead: a no-op
		ecs.CommandsFor[cmdPos](c).Add(dead, cmdPos{1})
		c.DeleteEntity(ids[2])
		if c.Len() != 5 {
			t.Errorf("Len %d, want 5", c.Len())
		}
	})
	var ce *ecs.CommandError
	if !errors.As(err, &ce) || ce.Index != 3 || ce.ID != dead || ce.More != 0 {
		t.Fatalf("Run: %v, want the command at index 3 failing", err)
	}
	if w.EntityCount() != 0 {
		t.Fatalf("%d entities left, want 0", w.EntityCount())
	}
}
