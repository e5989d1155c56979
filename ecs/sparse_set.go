package ecs

import "reflect"

const (
	pageShift = 10
	pageSize  = 1 << pageShift // sparse entries per page
	pageMask  = pageSize - 1
)

// sparsePage maps entity indices to dense positions. An entry is
// generation<<32 | (position+1); zero means "no component".
type sparsePage [pageSize]uint64

func sparseEntry(id EntityID, pos int) uint64 {
	return uint64(id.Generation())<<32 | uint64(pos+1)
}

// insertOutcome tells what an insertion did.
type insertOutcome uint8

const (
	inserted insertOutcome = iota // the entity had no component of this type
	replaced                      // the entity's component was overwritten
	refused                       // the id is older than the entity owning its slot here
)

// sparseSet is the storage of one component type.
//
// Invariants:
//   - len(dense) == len(data); data[i] is the component of entity dense[i].
//   - for every i, the sparse entry of dense[i].Index() is
//     sparseEntry(dense[i], i); every other sparse entry is zero.
//   - pages are allocated on first use and never freed while the storage
//     lives, so a sparse index far from the others costs one page, not an
//     array as long as the index.
//   - removal swap-removes: the last element moves into the hole, and its
//     sparse entry is updated in the same step.
//
// A sparseSet is only touched under its borrow state (see borrow.go).
type sparseSet[T any] struct {
	pages []*sparsePage
	dense []EntityID
	data  []T

	typ  reflect.Type
	name string
	lock borrowState
}

func newSparseSet[T any]() *sparseSet[T] {
	t := reflect.TypeFor[T]()
	return &sparseSet[T]{typ: t, name: typeName(t)}
}

// pos returns the dense position of id's component, or -1.
func (s *sparseSet[T]) pos(id EntityID) int {
	p := id.Index() >> pageShift
	if int(p) >= len(s.pages) {
		return -1
	}
	page := s.pages[p]
	if page == nil {
		return -1
	}
	e := page[id.Index()&pageMask]
	if e == 0 || uint32(e>>32) != id.Generation() {
		return -1
	}
	return int(uint32(e)) - 1
}

// get returns a pointer to id's component, or nil.
func (s *sparseSet[T]) get(id EntityID) *T {
	if i := s.pos(id); i >= 0 {
		return &s.data[i]
	}
	return nil
}

// Contains reports whether id has a component in this storage.
func (s *sparseSet[T]) has(id EntityID) bool { return s.pos(id) >= 0 }

// entryFor returns a pointer to id's sparse entry, allocating its page.
func (s *sparseSet[T]) entryFor(id EntityID) *uint64 {
	p := int(id.Index() >> pageShift)
	if p >= len(s.pages) {
		s.pages = append(s.pages, make([]*sparsePage, p+1-len(s.pages))...)
	}
	page := s.pages[p]
	if page == nil {
		page = new(sparsePage)
		s.pages[p] = page
	}
	return &page[id.Index()&pageMask]
}

// insert gives id the component v.
func (s *sparseSet[T]) insert(id EntityID, v T) insertOutcome {
	e := s.entryFor(id)
	if *e != 0 {
		gen := uint32(*e >> 32)
		i := int(uint32(*e)) - 1
		switch {
		case gen == id.Generation():
			s.data[i] = v
			return replaced
		case gen > id.Generation():
			return refused
		default: // a dead entity's leftover: the slot now belongs to id
			s.dense[i] = id
			s.data[i] = v
			*e = sparseEntry(id, i)
			return inserted
		}
	}
	*e = sparseEntry(id, len(s.dense))
	s.dense = append(s.dense, id)
	s.data = append(s.data, v)
	return inserted
}

// remove takes id's component out and returns it.
func (s *sparseSet[T]) remove(id EntityID) (T, bool) {
	i := s.pos(id)
	if i < 0 {
		var zero T
		return zero, false
	}
	v := s.data[i]
	s.swapRemove(i)
	return v, true
}

// swapRemove deletes the element at dense position i, moving the last element
// into its place.
func (s *sparseSet[T]) swapRemove(i int) {
	last := len(s.dense) - 1
	removed := s.dense[i]
	if i != last {
		moved := s.dense[last]
		s.dense[i] = moved
		s.data[i] = s.data[last]
		s.pages[moved.Index()>>pageShift][moved.Index()&pageMask] = sparseEntry(moved, i)
	}
	s.pages[removed.Index()>>pageShift][removed.Index()&pageMask] = 0
	var zero T
	s.data[last] = zero // let the garbage collector have what it referenced
	s.dense = s.dense[:last]
	s.data = s.data[:last]
}

// deleteID removes id's component and reports whether there was one.
func (s *sparseSet[T]) deleteID(id EntityID) bool {
	i := s.pos(id)
	if i < 0 {
		return false
	}
	s.swapRemove(i)
	return true
}

// clear removes every component.
func (s *sparseSet[T]) clear() {
	for _, id := range s.dense {
		s.pages[id.Index()>>pageShift][id.Index()&pageMask] = 0
	}
	clear(s.data)
	s.dense = s.dense[:0]
	s.data = s.data[:0]
}

// The methods below make *sparseSet[T] a storage (storage.go).

func (s *sparseSet[T]) typeName() string     { return s.name }
func (s *sparseSet[T]) borrow() *borrowState { return &s.lock }
func (s *sparseSet[T]) length() int          { return len(s.dense) }
func (s *sparseSet[T]) ids() []EntityID      { return s.dense }

// bulkInsert gives ids[i] the component vals[i], growing the storage once.
func (s *sparseSet[T]) bulkInsert(ids []EntityID, vals []T) {
	s.dense = grow(s.dense, len(ids))
	s.data = grow(s.data, len(ids))
	for i, id := range ids {
		s.insert(id, vals[i])
	}
}
