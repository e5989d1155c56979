package ecs_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

type hookPos struct{ X, Y int }
type hookVel struct{ DX int }

// hookRec records every hook call it is given, as text.
type hookRec struct{ calls []string }

func (l *hookRec) add(format string, args ...any) {
	l.calls = append(l.calls, fmt.Sprintf(format, args...))
}

func (l *hookRec) take() []string {
	c := l.calls
	l.calls = nil
	return c
}

// logHooks sets hooks on hookPos that log to l.
func logHooks(t *testing.T, w *ecs.World, l *hookRec) {
	t.Helper()
	err := ecs.SetHooks(w, ecs.ComponentHooks[hookPos]{
		OnInsert:  func(id ecs.EntityID, c *hookPos) { l.add("insert %d %v", id.Index(), *c) },
		OnReplace: func(id ecs.EntityID, old hookPos, c *hookPos) { l.add("replace %d %v->%v", id.Index(), old, *c) },
		OnRemove:  func(id ecs.EntityID, c hookPos) { l.add("remove %d %v", id.Index(), c) },
		OnDelete:  func(id ecs.EntityID, c hookPos) { l.add("delete %d %v", id.Index(), c) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.SetEntityHooks(ecs.EntityHooks{
		OnCreate: func(id ecs.EntityID) { l.add("create %d", id.Index()) },
		OnDelete: func(id ecs.EntityID) { l.add("kill %d", id.Index()) },
	}); err != nil {
		t.Fatal(err)
	}
}

// ok returns v, panicking if err is not nil.
func ok[V any](v V, err error) V {
	if err != nil {
		panic(err)
	}
	return v
}

// ok2 is ok for calls returning two values.
func ok2[V, U any](v V, _ U, err error) V {
	if err != nil {
		panic(err)
	}
	return v
}

// TestHooksWorldLevel checks what each World-level change tells the hooks,
// in order.
func TestHooksWorldLevel(t *testing.T) {
	tests := []struct {
		name string
		run  func(w *ecs.World, ids []ecs.EntityID)
		want []string
	}{
		{"AddComponent new", func(w *ecs.World, ids []ecs.EntityID) {
			ok(0, ecs.AddComponent1(w, ids[2], hookPos{5, 5}))
		}, []string{"insert 2 {5 5}"}},
		{"AddComponent replaces", func(w *ecs.World, ids []ecs.EntityID) {
			ok(0, ecs.AddComponent1(w, ids[0], hookPos{7, 7}))
		}, []string{"replace 0 {0 0}->{7 7}"}},
		{"Remove", func(w *ecs.World, ids []ecs.EntityID) {
			ok2(ecs.Remove[hookPos](w, ids[1]))
		}, []string{"remove 1 {1 1}"}},
		{"DeleteComponent", func(w *ecs.World, ids []ecs.EntityID) {
			ok(ecs.DeleteComponent[hookPos](w, ids[1]))
		}, []string{"delete 1 {1 1}"}},
		{"DeleteEntity", func(w *ecs.World, ids []ecs.EntityID) {
			ok(0, w.DeleteEntity(ids[0]))
		}, []string{"kill 0", "delete 0 {0 0}"}},
		{"Strip", func(w *ecs.World, ids []ecs.EntityID) {
			ok(0, w.Strip(ids[1]))
		}, []string{"delete 1 {1 1}"}},
		{"DeleteEntities", func(w *ecs.World, ids []ecs.EntityID) {
			ok(0, ecs.DeleteEntities(w, ids[0], ids[2]))
		}, []string{"kill 0", "kill 2", "delete 0 {0 0}"}},
		{"DeleteAny", func(w *ecs.World, ids []ecs.EntityID) {
			ok(ecs.DeleteAny[hookPos](w))
		}, []string{"kill 1", "kill 0", "delete 1 {1 1}", "delete 0 {0 0}"}},
		{"AddEntity", func(w *ecs.World, ids []ecs.EntityID) {
			ok(ecs.AddEntity2(w, hookPos{9, 9}, hookVel{}))
		}, []string{"create 3", "insert 3 {9 9}"}},
		{"BulkNewEntity fills before OnInsert", func(w *ecs.World, ids []ecs.EntityID) {
			ok(ecs.BulkNewEntity1(w, nil, 2, func(i int, id ecs.EntityID, c *hookPos) { *c = hookPos{10 + i, 0} }))
		}, []string{"create 3", "create 4", "insert 3 {10 0}", "insert 4 {11 0}"}},
		{"BulkFillComponent", func(w *ecs.World, ids []ecs.EntityID) {
			ok(0, ecs.BulkFillComponent1(w, ids, func(i int, id ecs.EntityID, c *hookPos) { *c = hookPos{20 + i, 0} }))
		}, []string{"replace 0 {0 0}->{20 0}", "replace 1 {1 1}->{21 0}", "insert 2 {22 0}"}},
		{"SpawnAt", func(w *ecs.World, ids []ecs.EntityID) {
			ok(0, w.SpawnAt(ecs.NewEntityID(5, 0)))
		}, []string{"create 5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := ecs.NewWorld()
			ids := []ecs.EntityID{
				ok(ecs.AddEntity1(w, hookPos{0, 0})),
				ok(ecs.AddEntity1(w, hookPos{1, 1})),
				ok(w.AddEntity()),
			}
			var l hookRec
			logHooks(t, w, &l)
			tt.run(w, ids)
			if got := l.take(); !slices.Equal(got, tt.want) {
				t.Errorf("hooks told\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

// TestHooksInSystem checks that changes through views tell the hooks at
// once, each after its own change.
func TestHooksInSystem(t *testing.T) {
	w := ecs.NewWorld()
	a := ok(ecs.AddEntity1(w, hookPos{1, 1}))
	b := ok(ecs.AddEntity1(w, hookPos{2, 2}))
	var l hookRec
	logHooks(t, w, &l)
	err := w.Run(func(ents ecs.EntitiesViewMut, pos ecs.ViewMut[hookPos]) {
		c := ents.AddEntity()
		l.add("-")
		if err := pos.AddComponent(ents, c, hookPos{3, 3}); err != nil {
			t.Error(err)
		}
		l.add("-")
		pos.Remove(a)
		l.add("-")
		pos.Delete(b)
		l.add("-")
		ents.DeleteUnchecked(c)
		l.add("-")
	})
	if err != nil {
		t.Fatal(err)
	}
	// c's component goes at the purge, with the next World-level change.
	ok(w.AddEntity())
	want := []string{"create 2", "-", "insert 2 {3 3}", "-", "remove 0 {1 1}", "-", "delete 1 {2 2}", "-", "kill 2", "-", "delete 2 {3 3}", "create 2"}
	if got := l.take(); !slices.Equal(got, want) {
		t.Errorf("hooks told\n%q\nwant\n%q", got, want)
	}
}

// TestHooksViewBulk covers Retain, Drain and Clear through a ViewMut.
func TestHooksViewBulk(t *testing.T) {
	tests := []struct {
		name string
		run  func(v ecs.ViewMut[hookPos])
		want []string
	}{
		{"Retain", func(v ecs.ViewMut[hookPos]) {
			ok(v.Retain(func(id ecs.EntityID, c *hookPos) bool { return c.X != 1 }))
		}, []string{"delete 1 {1 0}"}},
		{"Drain", func(v ecs.ViewMut[hookPos]) { v.Drain() },
			[]string{"remove 0 {0 0}", "remove 1 {1 0}", "remove 2 {2 0}"}},
		{"Clear", func(v ecs.ViewMut[hookPos]) { v.Clear() },
			[]string{"delete 0 {0 0}", "delete 1 {1 0}", "delete 2 {2 0}"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := ecs.NewWorld()
			for i := range 3 {
				ok(ecs.AddEntity1(w, hookPos{i, 0}))
			}
			var l hookRec
			logHooks(t, w, &l)
			if err := w.Run(tt.run); err != nil {
				t.Fatal(err)
			}
			if got := l.take(); !slices.Equal(got, tt.want) {
				t.Errorf("hooks told\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

// TestHookBreach checks that a hook that adds or removes components of
// its own type panics with a *HookError, and that World calls from a hook
// fail with a *BorrowError.
func TestHookBreach(t *testing.T) {
	w := ecs.NewWorld()
	a := ok(ecs.AddEntity1(w, hookPos{1, 1}))
	var captured ecs.ViewMut[hookPos]
	ok(0, ecs.SetHooks(w, ecs.ComponentHooks[hookPos]{
		OnInsert: func(id ecs.EntityID, c *hookPos) { captured.Delete(a) },
	}))
	var got any
	err := w.Run(func(ents ecs.EntitiesViewMut, pos ecs.ViewMut[hookPos]) {
		captured = pos
		defer func() { got = recover() }()
		pos.AddEntity(ents, hookPos{2, 2})
	})
	if err != nil {
		t.Fatal(err)
	}
	var he *ecs.HookError
	if e, ok := got.(error); !ok || !errors.As(e, &he) || !errors.Is(e, ecs.ErrHookChange) || he.Hook != "OnInsert" {
		t.Fatalf("panic value %v, want a *HookError of OnInsert", got)
	}
	t.Log(he)

	var callErr error
	ok(0, ecs.SetHooks(w, ecs.ComponentHooks[hookPos]{
		OnDelete: func(id ecs.EntityID, c hookPos) { _, callErr = w.AddEntity() },
	}))
	ok(0, w.DeleteEntity(ok(ecs.AddEntity1(w, hookPos{3, 3}))))
	var be *ecs.BorrowError
	if !errors.As(callErr, &be) {
		t.Fatalf("World.AddEntity from a hook: %v, want a *BorrowError", callErr)
	}

	ok(0, w.SetEntityHooks(ecs.EntityHooks{
		OnCreate: func(id ecs.EntityID) { captured2.DeleteUnchecked(id) },
	}))
	got = nil
	err = w.Run(func(ents ecs.EntitiesViewMut) {
		captured2 = ents
		defer func() { got = recover() }()
		ents.AddEntity()
	})
	if err != nil {
		t.Fatal(err)
	}
	if e, ok := got.(error); !ok || !errors.As(e, &he) || he.Type != "entities" {
		t.Fatalf("panic value %v, want a *HookError of the entities", got)
	}
}

var captured2 ecs.EntitiesViewMut

// TestHookPanicReleases checks that a hook's panic reaches the caller and
// leaves no borrow held, and the storages whole.
func TestHookPanicReleases(t *testing.T) {
	w := ecs.NewWorld()
	ok(0, ecs.SetHooks(w, ecs.ComponentHooks[hookPos]{
		OnInsert: func(id ecs.EntityID, c *hookPos) {
			if c.X == 13 {
				panic("unlucky")
			}
		},
	}))
	func() {
		defer func() {
			if r := recover(); r != "unlucky" {
				t.Fatalf("recovered %v", r)
			}
		}()
		ok(ecs.BulkAddEntity1(w, []hookPos{{1, 0}, {13, 0}, {2, 0}}))
	}()
	if n := w.EntityCount(); n != 3 {
		t.Fatalf("%d entities after the panic, want 3: the change is done when hooks run", n)
	}
	// The world is free again, and a later change runs its hooks.
	if _, err := ecs.AddEntity1(w, hookPos{4, 0}); err != nil {
		t.Fatal(err)
	}
	// Through a system too: the panic goes through Run, which gives the
	// views back.
	func() {
		defer func() {
			if r := recover(); r != "unlucky" {
				t.Fatalf("recovered %v", r)
			}
		}()
		ok(0, w.Run(func(ents ecs.EntitiesViewMut, pos ecs.ViewMut[hookPos]) {
			pos.AddEntity(ents, hookPos{13, 0})
		}))
	}()
	if _, err := w.AddEntity(); err != nil {
		t.Fatal(err)
	}
}

// TestHooksWithTrackingAndGroups: hooks on a type that tracks, and on a
// packed group member, see what an untracked type would.
func TestHooksWithTrackingAndGroups(t *testing.T) {
	w := ecs.NewWorld()
	ok(0, ecs.TrackComponent[hookVel](w, ecs.TrackAll))
	if err := ecs.AddGroup2[hookPos, hookVel](w); err != nil {
		t.Fatal(err)
	}
	var l hookRec
	ok(0, ecs.SetHooks(w, ecs.ComponentHooks[hookVel]{
		OnInsert: func(id ecs.EntityID, c *hookVel) { l.add("insert %d %d", id.Index(), c.DX) },
		OnDelete: func(id ecs.EntityID, c hookVel) { l.add("delete %d %d", id.Index(), c.DX) },
	}))
	a := ok(ecs.AddEntity2(w, hookPos{}, hookVel{1}))
	b := ok(ecs.AddEntity2(w, hookPos{}, hookVel{2}))
	ok(0, w.DeleteEntity(a))
	err := w.Run(func(v ecs.ViewMut[hookVel]) {
		v.Delete(b)
		for id, c := range ok(v.Deleted()) {
			l.add("tracked %d %d", id.Index(), c.DX)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"insert 0 1", "insert 1 2", "delete 0 1", "delete 1 2", "tracked 0 1", "tracked 1 2"}
	if got := l.take(); !slices.Equal(got, want) {
		t.Errorf("hooks told\n%q\nwant\n%q", got, want)
	}
	// Zero hooks remove them.
	ok(0, ecs.SetHooks(w, ecs.ComponentHooks[hookVel]{}))
	ok(ecs.AddEntity2(w, hookPos{}, hookVel{3}))
	if got := l.take(); len(got) != 0 {
		t.Errorf("hooks removed, but told %q", got)
	}
}

func TestSetHooksErrors(t *testing.T) {
	if err := ecs.SetHooks[hookPos](nil, ecs.ComponentHooks[hookPos]{}); !errors.Is(err, ecs.ErrNilWorld) {
		t.Errorf("SetHooks(nil): %v", err)
	}
	w := ecs.NewWorld()
	release, err := w.Borrow(new(ecs.View[hookPos]))
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	var be *ecs.BorrowError
	if err := ecs.SetHooks(w, ecs.ComponentHooks[hookPos]{OnInsert: func(ecs.EntityID, *hookPos) {}}); !errors.As(err, &be) {
		t.Errorf("SetHooks while borrowed: %v", err)
	}
	if err := w.SetEntityHooks(ecs.EntityHooks{}); !errors.As(err, &be) {
		t.Errorf("SetEntityHooks while borrowed: %v", err)
	}
}
