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
