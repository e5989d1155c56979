package ecs

import (
	"errors"
	"strings"
	"testing"
)

type faPos struct{ X float64 }
type faVel struct{ X float64 }
type faCam struct{ Zoom float64 }

// faPair is a custom view of two component views.
type faPair struct {
	Pos ViewMut[faPos]
	Vel View[faVel]
}

// allShared returns how many shared borrows of all storages w holds, or
// -1 while one is exclusive.
func allShared(w *World) int32 { return w.allLock.n.Load() }

// TestFrameBorrowsAllStoragesOnce checks that a frame takes one shared
// borrow of all storages for all its views, in the name of the first view
// that needs it (an AllStoragesViewMut refused meanwhile names that view),
// and gives it back with the views, whatever the views are.
func TestFrameBorrowsAllStoragesOnce(t *testing.T) {
	newWorld := func(t *testing.T, grouped bool) *World {
		w := NewWorld()
		if _, err := AddEntity2(w, faPos{1}, faVel{2}); err != nil {
			t.Fatal(err)
		}
		if err := AddUnique(w, faCam{1}); err != nil {
			t.Fatal(err)
		}
		for _, d := range []string{"salt", "potash"} {
			if err := AddIsotope(w, 0, d, faVel{1}); err != nil {
				t.Fatal(err)
			}
		}
		if err := AddIsotope(w, 0, 7, faCam{1}); err != nil {
			t.Fatal(err)
		}
		if grouped {
			if err := AddGroup2[faPos, faVel](w); err != nil {
				t.Fatal(err)
			}
		}
		return w
	}
	for _, c := range []struct {
		name  string
		views func() []any
		first string // the view named by a refused AllStoragesViewMut
		all   int32  // shared borrows of all storages while held
	}{
		{"one view", func() []any { return []any{new(View[faPos])} }, "View[ecs.faPos]", 1},
		{"two views", func() []any { return []any{new(ViewMut[faPos]), new(View[faVel])} }, "ViewMut[ecs.faPos]", 1},
		{"every kind", func() []any {
			return []any{new(EntitiesView), new(UniqueView[faCam]), new(View[faVel]), new(ViewMut[faPos])}
		}, "EntitiesView", 1},
		{"a custom view", func() []any { return []any{new(faPair), new(UniqueViewMut[faCam])} }, "ViewMut[ecs.faPos]", 1},
		{"a lone isotope view", func() []any { return []any{new(IsoViewMut[string, faVel])} }, "IsoViewMut[string, ecs.faVel]", 1},
		{"a lone custom view", func() []any { return []any{new(faPair)} }, "ViewMut[ecs.faPos]", 1},
		{"isotope views", func() []any { return []any{new(IsoView[string, faVel]), new(IsoViewMut[int, faCam]), new(View[faPos])} }, "IsoView[string, ecs.faVel]", 1},
		{"an AllStoragesViewMut", func() []any { return []any{new(AllStoragesViewMut)} }, "", -1},
	} {
		for _, grouped := range []bool{false, true} {
			name := c.name
			if grouped {
				name += ", grouped"
			}
			t.Run(name, func(t *testing.T) {
				w := newWorld(t, grouped)
				release, err := w.Borrow(c.views()...)
				if err != nil {
					t.Fatal(err)
				}
				if got := allShared(w); got != c.all {
					t.Errorf("while borrowed: all storages borrow count %d, want %d", got, c.all)
				}
				if c.first != "" {
					var all AllStoragesViewMut
					_, err := w.Borrow(&all)
					var be *BorrowError
					if !errors.As(err, &be) || be.Resource != allName || be.HeldAccess != c.first || be.HeldBy != "World.Borrow" {
						t.Errorf("AllStoragesViewMut while borrowed: %v, want a BorrowError on all storages held by %s by World.Borrow", err, c.first)
					}
				}
				release()
				release() // a second call does nothing
				if got := allShared(w); got != 0 {
					t.Errorf("after release: all storages borrow count %d, want 0", got)
				}
			})
		}
	}
}

// TestFrameAllStoragesBorrowGivenBack checks that the frame's borrow of
// all storages is given back when a later view cannot be borrowed, when
// the system panics, and that views under an AllStoragesViewMut take none.
func TestFrameAllStoragesBorrowGivenBack(t *testing.T) {
	w := NewWorld()
	if _, err := AddEntity2(w, faPos{1}, faVel{2}); err != nil {
		t.Fatal(err)
	}

	t.Run("a later view refused", func(t *testing.T) {
		var held View[faVel]
		release, err := w.Borrow(&held)
		if err != nil {
			t.Fatal(err)
		}
		err = w.Run(func(p ViewMut[faPos], v ViewMut[faVel]) { t.Error("the system ran") })
		var be *BorrowError
		if !errors.As(err, &be) || be.Resource != "ecs.faVel" {
			t.Fatalf("Run: %v, want a BorrowError on ecs.faVel", err)
		}
		if got := allShared(w); got != 1 { // World.Borrow's own
			t.Errorf("after the refusal: all storages borrow count %d, want 1", got)
		}
		release()
		if got := allShared(w); got != 0 {
			t.Errorf("after release: all storages borrow count %d, want 0", got)
		}
	})

	t.Run("the system panics", func(t *testing.T) {
		func() {
			defer func() {
				if r := recover(); r != "boom" {
					t.Errorf("recovered %v, want boom", r)
				}
			}()
			_ = w.Run(Func2(func(p ViewMut[faPos], v View[faVel]) { panic("boom") }))
		}()
		if got := allShared(w); got != 0 {
			t.Errorf("after the panic: all storages borrow count %d, want 0", got)
		}
		if err := w.Run(func(all AllStoragesViewMut) {}); err != nil {
			t.Errorf("AllStoragesViewMut after the panic: %v", err)
		}
	})

	t.Run("under an AllStoragesViewMut", func(t *testing.T) {
		err := w.Run(func(all AllStoragesViewMut) error {
			return all.Run(func(p ViewMut[faPos], v View[faVel]) {
				if got := allShared(w); got != -1 {
					t.Errorf("inside: all storages borrow count %d, want -1 (the AllStoragesViewMut's)", got)
				}
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := allShared(w); got != 0 {
			t.Errorf("after: all storages borrow count %d, want 0", got)
		}
	})

	t.Run("a workload", func(t *testing.T) {
		seen := int32(-2)
		if err := w.AddWorkload("fa", func(p ViewMut[faPos], v View[faVel], e EntitiesView) { seen = allShared(w) }); err != nil {
			t.Fatal(err)
		}
		if err := w.RunWorkload("fa"); err != nil {
			t.Fatal(err)
		}
		if seen != 1 {
			t.Errorf("in the workload's system: all storages borrow count %d, want 1", seen)
		}
		if got := allShared(w); got != 0 {
			t.Errorf("after: all storages borrow count %d, want 0", got)
		}
	})
}

// TestFrameAllStoragesNamesFirstView checks the message of a World-level
// change refused while a system holds its views: it names the system's
// first view.
func TestFrameAllStoragesNamesFirstView(t *testing.T) {
	w := NewWorld()
	var msg string
	err := w.Run(func(v View[faVel], p ViewMut[faPos]) {
		var all AllStoragesViewMut
		_, err := w.Borrow(&all)
		if err != nil {
			msg = err.Error()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(msg, "View[ecs.faVel]") {
		t.Errorf("refusal %q does not name the system's first view View[ecs.faVel]", msg)
	}
}
