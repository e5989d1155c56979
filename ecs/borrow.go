package ecs

import (
	"sync/atomic"
)

// Access kinds name how something is borrowed, for error messages and plan
// reports.
type accessKind uint8

const (
	accView accessKind = iota
	accViewMut
	accUniqueView
	accUniqueViewMut
	accEntitiesView
	accEntitiesViewMut
	accAllStoragesViewMut
	accWorldRead  // a World-level read: shared borrows
	accWorldWrite // a World-level change: all storages, exclusively
)

func (k accessKind) exclusive() bool {
	switch k {
	case accViewMut, accUniqueViewMut, accEntitiesViewMut, accAllStoragesViewMut, accWorldWrite:
		return true
	}
	return false
}

// borrower describes who holds or wants a borrow. Borrowers are created once
// (per system parameter, or per API function) and shared, so that borrowing
// allocates nothing.
type borrower struct {
	kind accessKind
	view string // the view type as the user wrote it: "ViewMut[main.Pos]"
	by   string // the system or function: "main.collision", "ecs.AddEntity"
}

// borrowState is the borrow flag of one storage, unique, the entities
// storage, or "all storages": many shared borrows or one exclusive.
//
// n > 0 counts shared borrows, n == -1 marks an exclusive one, n == 0 is free.
// excl names the most recent exclusive holder and shared the most recent
// shared one: enough for an error message, and free of allocation.
//
// Taking and giving back a borrow costs one atomic read-modify-write each
// (a World-level call does both, so they are on its per-entity path). The
// holder's name is written only when it changes and is not cleared on
// release: a conflict is reported while n < 0, when excl names the holder,
// except in the instant between a new holder's compare-and-swap and its
// write of excl, when it may still name the previous exclusive holder.
type borrowState struct {
	n      atomic.Int32
	excl   atomic.Pointer[borrower]
	shared atomic.Pointer[borrower]
}

// acquire takes a borrow for b, or returns a *BorrowError naming what holds
// it. resource names what is borrowed ("main.Pos", "unique main.Player").
func (s *borrowState) acquire(b *borrower, excl bool, resource string) error {
	if excl {
		if s.n.CompareAndSwap(0, -1) {
			if s.excl.Load() != b {
				s.excl.Store(b)
			}
			return nil
		}
	} else if n := s.n.Load(); n >= 0 && s.n.CompareAndSwap(n, n+1) {
		if s.shared.Load() != b {
			s.shared.Store(b)
		}
		return nil
	}
	return s.acquireSlow(b, excl, resource)
}

// acquireSlow is acquire after its first attempt failed: shared borrows
// retry while other shared borrows come and go.
func (s *borrowState) acquireSlow(b *borrower, excl bool, resource string) error {
	if excl {
		return s.conflict(b, resource)
	}
	for {
		n := s.n.Load()
		if n < 0 {
			return s.conflict(b, resource)
		}
		if s.n.CompareAndSwap(n, n+1) {
			if s.shared.Load() != b {
				s.shared.Store(b)
			}
			return nil
		}
	}
}

func (s *borrowState) release(excl bool) {
	if excl {
		s.n.Store(0)
		return
	}
	s.n.Add(-1)
}

func (s *borrowState) conflict(b *borrower, resource string) error {
	e := &BorrowError{Resource: resource, Access: b.view, By: b.by}
	var held *borrower
	if s.n.Load() < 0 {
		held = s.excl.Load()
	} else {
		held = s.shared.Load()
	}
	if held != nil {
		e.HeldAccess, e.HeldBy = held.view, held.by
	} else {
		e.HeldAccess, e.HeldBy = "a borrow", "another caller"
	}
	return e
}
