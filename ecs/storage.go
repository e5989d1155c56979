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
	vacateRun(r idRun) int
	bulkable() bool
	zeroIDs(ids []EntityID) int
	closeGaps(k int)
	clear()
	clearTracking(kinds Tracking, ts uint64, all bool)
	memory() StorageMemory
	shrink()
	orTable() *orMarks // an Or term's table: its marks; nil for a storage of the world
	accessKey() resKey
	// Snapshots (snapshot_storage.go).
	snapshotTo(prev storageSnap) storageSnap
	restoreEmpty(tick uint64)
}

// uniqueSlot is the type-free face of a unique's storage.
type uniqueSlot interface {
	typeName() string
	borrow() *borrowState
	// Snapshots (snapshot_storage.go).
	key() typeKey
	snapshotTo(prev uniqueSnap) uniqueSnap
	restoreAbsent()
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

func newUnique[T any]() uniqueSlot {
	name := typeName(reflect.TypeFor[T]())
	return &unique[T]{name: name, resource: "unique " + name}
}
