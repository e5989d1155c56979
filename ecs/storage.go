package ecs

import (
	"reflect"
)

// storage is the type-free face of a component storage: what world-wide
// operations (delete an entity everywhere, strip, report) need without
// knowing the component type.
type storage interface {
	typeName() string
	typeFree() *sparseIndex
	borrow() *borrowState
	length() int
	ids() []EntityID
	has(EntityID) bool
	deleteID(EntityID) bool
	pagesRef() *[]*sparsePage
	identRef() *identity
	deleteFound(id EntityID, e *uint64)
	deleteIDs(ids []EntityID, freed *[]uint32) int
	sweepable(n int) bool
	bulkable() bool
	zeroIDs(ids []EntityID) int
	closeGaps(k int)
	clear()
	memory() StorageMemory
	shrink()
}

// storageFor returns the storage of component type T, creating it on first
// use. It never blocks on a borrow: creating a storage does not touch any
// existing one.
func storageFor[T any](w *World) *sparseSet[T] {
	k := keyFor[T]()
	if s, ok := w.comps.get(k); ok {
		return s.(*sparseSet[T])
	}
	return addStorage[T](w, k)
}

// addStorage creates the storage of T, tracking what T declares. It runs
// once per type and world.
//
//go:noinline
func addStorage[T any](w *World, k typeKey) *sparseSet[T] {
	return w.comps.add(k, func() storage {
		s := newSparseSet[T]()
		if k := declaredTracking[T](); k != 0 {
			s.enableTracking(k, &w.clock)
		}
		return s
	}).(*sparseSet[T])
}

// uniqueSlot is the type-free face of a unique's storage.
type uniqueSlot interface {
	typeName() string
	borrow() *borrowState
}

// unique stores one unique value. present is false until the unique is added
// and after it is removed.
type unique[T any] struct {
	v        T
	present  bool
	name     string // "main.Player"
	resource string // "unique main.Player", for borrow errors
	lock     borrowState
}

func (u *unique[T]) typeName() string     { return u.resource }
func (u *unique[T]) borrow() *borrowState { return &u.lock }

func uniqueFor[T any](w *World) *unique[T] {
	return w.uniques.getOrAdd(keyFor[T](), newUnique[T]).(*unique[T])
}

func newUnique[T any]() uniqueSlot {
	name := typeName(reflect.TypeFor[T]())
	return &unique[T]{name: name, resource: "unique " + name}
}
