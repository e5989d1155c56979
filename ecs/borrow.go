package ecs

import (
	"sync"
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
// allocates nothing. A borrower is never changed once made: a borrow state
// keeps pointers to its holders (excl, shared), whose fields a conflict on
// another goroutine reads, also after the holder has released and borrows
// again; a view whose next borrow differs (another system, another kind)
// takes a new borrower.
type borrower struct {
	kind accessKind
	view string // the view type, "ViewMut", or what borrows: "World-level change"
	typ  string // the type view is of, "main.Pos", or "" (see access)
	by   string // the system or function: "main.collision", "ecs.AddEntity"
	// under marks a view that gives back no shared borrow of all
	// storages of its own: one borrowed inside an AllStoragesViewMut
	// (its Borrow or Run), which holds all storages exclusively, or in
	// a frame, which holds the shared borrow for all its views
	// (borrowCtx.shareAll).
	under bool
}

// access returns the view type as the user wrote it: "ViewMut[main.Pos]".
// It is built only for an error message: a borrower keeps the parts, so
// that borrowing a view in another world allocates nothing.
func (b *borrower) access() string {
	if b.typ == "" {
		return b.view
	}
	return b.view + "[" + b.typ + "]"
}

// borrowState is the borrow flag of one storage, unique, the entities
// storage, or "all storages": many shared borrows or one exclusive.
//
// n > 0 counts shared borrows, n == -1 marks an exclusive one, n == 0 is free.
// excl names the most recent exclusive holder (the current one while n < 0);
// the current shared holders are listed in slots, and beyond those in
// shared under mu, so that a conflict names a borrower that really holds
// the storage.
//
// Taking and giving back an exclusive borrow costs one atomic
// read-modify-write each (a World-level change does both, so they are on its
// per-entity path). A shared borrow also takes a free slot, with one more
// (and its release gives the slot back, with one more): systems take one
// per view per run, and a storage rarely has more than a few readers at
// once. Past sharedSlots readers the list under mu takes the rest. Peeks
// (peek) are shared borrows that skip the list, for reads that may be
// made once per entity.
type borrowState struct {
	n    atomic.Int32
	excl atomic.Pointer[borrower]

	// slots and shared hold one entry per shared borrow held: a borrower
	// may appear more than once.
	slots  [sharedSlots]atomic.Pointer[borrower]
	mu     sync.Mutex
	shared []*borrower
}

// sharedSlots is how many shared holders a borrow flag lists without a
// lock.
const sharedSlots = 4

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
		s.addShared(b)
		return nil
	}
	return s.acquireSlow(b, excl, resource)
}

// releaseExclusive gives back an exclusive borrow: release(b, true),
// small enough to inline.
func (s *borrowState) releaseExclusive() { s.n.Store(0) }

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
			s.addShared(b)
			return nil
		}
	}
}

// release gives back the borrow b took.
func (s *borrowState) release(b *borrower, excl bool) {
	if excl {
		s.n.Store(0)
		return
	}
	for i := range s.slots {
		if x := &s.slots[i]; x.Load() == b && x.CompareAndSwap(b, nil) {
			s.n.Add(-1)
			return
		}
	}
	s.mu.Lock()
	for i := len(s.shared) - 1; i >= 0; i-- {
		if s.shared[i] == b {
			last := len(s.shared) - 1
			s.shared[i] = s.shared[last]
			s.shared[last] = nil
			s.shared = s.shared[:last]
			break
		}
	}
	s.mu.Unlock()
	s.n.Add(-1)
}

// downgrade turns the exclusive borrow b holds into a shared one held by
// b, with no moment at which s is free: whatever the exclusive borrow saw
// stays true until b releases the shared one. Only the exclusive holder
// may call it. While n is -1 no one else changes n or takes a slot, so b
// lists itself first and then lets other readers in.
func (s *borrowState) downgrade(b *borrower) {
	s.addShared(b)
	s.n.Store(1)
}

// peek takes a shared borrow that is counted but not listed among the
// holders, and reports whether it could (false if the borrow is held
// exclusively). It is for a read that lasts one call and may be made once
// per entity (World.IsAlive): listing it would cost a lock and a search.
// A conflict while only peeks hold s names no holder (see conflict).
// endPeek gives the borrow back.
func (s *borrowState) peek() bool {
	for {
		n := s.n.Load()
		if n < 0 {
			return false
		}
		if s.n.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// endPeek gives back a borrow taken by peek.
func (s *borrowState) endPeek() { s.n.Add(-1) }

func (s *borrowState) addShared(b *borrower) {
	for i := range s.slots {
		if x := &s.slots[i]; x.Load() == nil && x.CompareAndSwap(nil, b) {
			return
		}
	}
	s.mu.Lock()
	s.shared = append(s.shared, b)
	s.mu.Unlock()
}

func (s *borrowState) conflict(b *borrower, resource string) error {
	e := &BorrowError{Resource: resource, Access: b.access(), By: b.by}
	var held *borrower
	if s.n.Load() < 0 {
		held = s.excl.Load()
	} else {
		// The lowest slot taken holds the longest-held of the holders
		// that took a slot, as a rule (a slot freed meanwhile may be
		// taken again by a newer one).
		for i := range s.slots {
			if held = s.slots[i].Load(); held != nil {
				break
			}
		}
		if held == nil {
			s.mu.Lock()
			if len(s.shared) > 0 {
				held = s.shared[0]
			}
			s.mu.Unlock()
		}
	}
	if held != nil {
		e.HeldAccess, e.HeldBy = held.access(), held.by
	} else {
		e.HeldAccess, e.HeldBy = "a borrow", "another caller"
	}
	return e
}
