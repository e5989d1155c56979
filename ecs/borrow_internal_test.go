package ecs

import (
	"errors"
	"testing"
)

// TestBorrowState follows one borrow flag through sequences of borrows
// and releases: shared borrows add up, an exclusive one excludes all
// others, a refused borrow changes nothing, and a conflict names the
// longest-held current holder, or "another caller" for a peek.
func TestBorrowState(t *testing.T) {
	sys := &borrower{kind: accViewMut, view: "ViewMut", typ: "main.Pos", by: "main.sys"}
	r1 := &borrower{kind: accView, view: "View", typ: "main.Pos", by: "main.r1"}
	r2 := &borrower{kind: accView, view: "View", typ: "main.Pos", by: "main.r2"}
	type step struct {
		op   string // "S" shared, "X" exclusive, "s"/"x" release, "p" peek, "e" end peek
		b    *borrower
		held string // for a refused S/X: the holder named, "access by"; "" if it succeeds
	}
	for _, c := range []struct {
		name  string
		steps []step
	}{
		{"shared borrows add up", []step{{"S", r1, ""}, {"S", r2, ""}, {"s", r1, ""}, {"s", r2, ""}, {"X", sys, ""}}},
		{"an exclusive borrow refuses a shared one", []step{{"X", sys, ""}, {"S", r1, "ViewMut[main.Pos] by main.sys"}, {"x", sys, ""}, {"S", r1, ""}}},
		{"an exclusive borrow refuses another", []step{{"X", sys, ""}, {"X", sys, "ViewMut[main.Pos] by main.sys"}, {"x", sys, ""}, {"X", sys, ""}}},
		{"a shared borrow refuses an exclusive one", []step{{"S", r1, ""}, {"S", r2, ""}, {"X", sys, "View[main.Pos] by main.r1"}, {"s", r1, ""}, {"X", sys, "View[main.Pos] by main.r2"}, {"s", r2, ""}, {"X", sys, ""}}},
		{"a peek is counted but not named", []step{{"p", nil, ""}, {"X", sys, "a borrow by another caller"}, {"e", nil, ""}, {"X", sys, ""}}},
		{"a peek beside a shared borrow", []step{{"S", r1, ""}, {"p", nil, ""}, {"s", r1, ""}, {"X", sys, "a borrow by another caller"}, {"e", nil, ""}, {"X", sys, ""}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var s borrowState
			for i, st := range c.steps {
				var err error
				switch st.op {
				case "S", "X":
					err = s.acquire(st.b, st.op == "X", "main.Pos")
				case "s", "x":
					s.release(st.b, st.op == "x")
				case "p":
					if !s.peek() {
						t.Fatalf("step %d: peek refused", i)
					}
				case "e":
					s.endPeek()
				}
				if st.held == "" {
					if err != nil {
						t.Fatalf("step %d (%s by %s): %v", i, st.op, st.b.by, err)
					}
					continue
				}
				var be *BorrowError
				if !errors.As(err, &be) || !errors.Is(err, ErrBorrowConflict) {
					t.Fatalf("step %d (%s by %s): %v, want a *BorrowError", i, st.op, st.b.by, err)
				}
				if got := be.HeldAccess + " by " + be.HeldBy; got != st.held {
					t.Errorf("step %d: the conflict names %q, want %q", i, got, st.held)
				}
				if be.Resource != "main.Pos" || be.Access != st.b.access() || be.By != st.b.by {
					t.Errorf("step %d: the conflict is %q, %q, %q; want main.Pos, %q, %q", i, be.Resource, be.Access, be.By, st.b.access(), st.b.by)
				}
			}
		})
	}
}

// TestBorrowStatePeekUnderExclusive: a peek is refused while the flag is
// held exclusively, and takes nothing then.
func TestBorrowStatePeekUnderExclusive(t *testing.T) {
	var s borrowState
	b := &borrower{kind: accViewMut, view: "ViewMut", typ: "main.Pos", by: "main.sys"}
	if err := s.acquire(b, true, "main.Pos"); err != nil {
		t.Fatal(err)
	}
	if s.peek() {
		t.Fatal("peek succeeded beside an exclusive borrow")
	}
	s.release(b, true)
	if err := s.acquire(b, true, "main.Pos"); err != nil {
		t.Fatalf("the refused peek left something held: %v", err)
	}
}

// TestBorrowerAccess: how a borrower names its view in messages.
func TestBorrowerAccess(t *testing.T) {
	for _, c := range []struct {
		b    borrower
		want string
	}{
		{borrower{view: "ViewMut", typ: "main.Pos"}, "ViewMut[main.Pos]"},
		{borrower{view: "UniqueView", typ: "main.Clock"}, "UniqueView[main.Clock]"},
		{borrower{view: "EntitiesViewMut"}, "EntitiesViewMut"},
		{borrower{view: "World-level change"}, "World-level change"},
	} {
		if got := c.b.access(); got != c.want {
			t.Errorf("access() = %q, want %q", got, c.want)
		}
	}
}

// TestBorrowStateManyReaders: past the lock-free slots, shared holders go
// to the list; releases in any order find them, a conflict names a holder
// still held, and the flag ends free.
func TestBorrowStateManyReaders(t *testing.T) {
	sys := &borrower{kind: accViewMut, view: "ViewMut", typ: "main.Pos", by: "main.sys"}
	var rs []*borrower
	for i := range 2*sharedSlots + 1 {
		rs = append(rs, &borrower{kind: accView, view: "View", typ: "main.Pos", by: "main.r" + string(rune('a'+i))})
	}
	for _, order := range []string{"forward", "backward", "odd first"} {
		t.Run(order, func(t *testing.T) {
			var s borrowState
			for _, r := range rs {
				if err := s.acquire(r, false, "main.Pos"); err != nil {
					t.Fatal(err)
				}
			}
			idx := make([]int, 0, len(rs))
			switch order {
			case "forward":
				for i := range rs {
					idx = append(idx, i)
				}
			case "backward":
				for i := range rs {
					idx = append(idx, len(rs)-1-i)
				}
			default:
				for i := 1; i < len(rs); i += 2 {
					idx = append(idx, i)
				}
				for i := 0; i < len(rs); i += 2 {
					idx = append(idx, i)
				}
			}
			held := map[*borrower]bool{}
			for _, r := range rs {
				held[r] = true
			}
			for _, i := range idx {
				var be *BorrowError
				if err := s.acquire(sys, true, "main.Pos"); !errors.As(err, &be) {
					t.Fatalf("exclusive borrow beside %d readers: %v, want a *BorrowError", len(held), err)
				}
				named := false
				for r := range held {
					named = named || be.HeldBy == r.by
				}
				if !named {
					t.Errorf("the conflict names %q, which holds nothing", be.HeldBy)
				}
				s.release(rs[i], false)
				delete(held, rs[i])
			}
			if n := s.n.Load(); n != 0 || len(s.shared) != 0 {
				t.Fatalf("after every release: n = %d, %d listed", n, len(s.shared))
			}
			for i := range s.slots {
				if s.slots[i].Load() != nil {
					t.Fatalf("slot %d still holds a reader", i)
				}
			}
			if err := s.acquire(sys, true, "main.Pos"); err != nil {
				t.Fatal(err)
			}
		})
	}
}
