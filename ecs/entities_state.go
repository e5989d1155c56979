package ecs

import (
	"errors"
	"strconv"
)

// The entities storage's state, read and written whole: the small API a
// save-file loader (the snapshot package) needs to recreate a world whose
// ids, generations and free list are those of the world it saved, so that
// ids stored inside components stay valid and the next ids created are the
// same as they would have been in the original world.

// ErrEntitiesState is wrapped by the errors of [World.SetEntitiesState]:
// the world already had entities, or the state given is not one a world
// can be in. Such a call changes nothing.
var ErrEntitiesState = errors.New("invalid entities state")

// SlotAlive is the bit of an [EntitiesState] slot that says the slot holds
// a live entity; the bits below it are the slot's generation.
const SlotAlive = aliveBit

// MaxGeneration is the highest generation an entity can have. A slot whose
// entity of this generation is deleted is retired: its index is never
// reused, and it is not on the free list.
const MaxGeneration = maxGeneration

// EntitiesState is the state of a world's entities storage, for loaders
// and tools. Slot i describes index i:
//   - a live slot holds the generation of its entity, with [SlotAlive] set;
//   - a dead slot holds the generation the next entity at its index will
//     get, below or equal to [MaxGeneration]; at MaxGeneration the index
//     is retired.
//
// Free lists the dead, unretired indices, each once, in the order the
// world hands them out again from its end: the next entity created takes
// Free[len(Free)-1].
type EntitiesState struct {
	Slots []uint32
	Free  []uint32
}

// ID returns the id slot i stands for (its index and the generation it
// holds) and whether that entity is alive. It panics if i is out of range.
func (s *EntitiesState) ID(i int) (EntityID, bool) {
	v := s.Slots[i]
	return newEntityID(uint32(i), v&^aliveBit), v&aliveBit != 0
}

// IsAlive reports whether s holds id alive: whether slot id.Index() holds
// a live entity of id's generation.
func (s *EntitiesState) IsAlive(id EntityID) bool {
	i := id.Index()
	return uint(i) < uint(len(s.Slots)) && aliveAs(s.Slots[i], id.Generation())
}

// EntitiesState copies w's entities storage into dst, reusing dst's
// slices. It borrows all storages and the entities storage shared for the
// call, and returns their [*BorrowError] if they are held exclusively, or
// an error wrapping [ErrNilWorld] if w is nil; dst is unchanged then.
//
// Entities deleted with [EntitiesViewMut.DeleteUnchecked] are dead in the
// state, though their components may not have been purged yet: a saver
// keeps only the components of live entities.
func (w *World) EntitiesState(dst *EntitiesState) error {
	if w == nil {
		return errNilWorld
	}
	if dst == nil {
		return &argError{op: "World.EntitiesState", what: "dst is nil", kind: ErrEntitiesState}
	}
	if _, _, err := beginReads(w, nil); err != nil {
		return err
	}
	defer endReads(w, true, nil)
	// Ids reserved by Commands.AddEntity and not flushed yet are not
	// entities: the slots and the free list hold what is settled.
	dst.Slots = append(dst.Slots[:0], w.ents.slots...)
	dst.Free = append(dst.Free[:0], w.ents.free...)
	return nil
}

// SetEntitiesState makes w's entities storage the state s describes (see
// [EntitiesState]): its live entities become alive under their ids, and
// the next entities created get the ids the free list says, in its order.
// It copies s's slices; s is the caller's afterwards.
//
// w must never have had an entity: a world fresh from [NewWorld] (with
// workloads, hooks and uniques if need be). Then its storages are empty,
// and components added afterwards ([BulkAddComponent1] …) recreate the
// saved world. It calls no entity hook and no initializer: the entities
// are restored, not created.
//
// It returns an error wrapping [ErrEntitiesState], and changes nothing, if
// w had an entity, or if s is inconsistent: a free index out of range,
// alive, retired or listed twice, or a dead unretired slot missing from
// the free list. The error
// names the index. It returns a [*BorrowError] if all storages are
// borrowed elsewhere, and an error wrapping [ErrNilWorld] if w is nil.
func (w *World) SetEntitiesState(s EntitiesState) (err error) {
	const op = "World.SetEntitiesState"
	w, locked, err := beginWrite(w)
	if err != nil {
		return err
	}
	defer endWrite(w, locked)
	e := &w.ents
	if len(e.slots) != 0 || e.reserved.Load() != 0 {
		return &argError{op: op, what: "the world has had entities; load into a world fresh from ecs.NewWorld", kind: ErrEntitiesState}
	}
	if err := checkEntitiesState(s); err != nil {
		return &argError{op: op, what: err.Error(), kind: ErrEntitiesState}
	}
	live := 0
	for _, v := range s.Slots {
		if v&aliveBit != 0 {
			live++
		}
	}
	e.slots = append(make([]uint32, 0, len(s.Slots)), s.Slots...)
	e.free = append(make([]uint32, 0, len(s.Free)), s.Free...)
	e.live = live
	return nil
}

// checkEntitiesState returns what makes s a state no world can be in, or
// nil.
func checkEntitiesState(s EntitiesState) error {
	if uint64(len(s.Slots)) > maxIndex+1 {
		return errors.New(strconv.Itoa(len(s.Slots)) + " slots, more than 4294967295")
	}
	// Every value is a slot: below SlotAlive, a generation no higher
	// than MaxGeneration.
	dead := 0
	for _, v := range s.Slots {
		if v < maxGeneration {
			dead++
		}
	}
	// seen marks the free indices met so far, one bit per slot.
	seen := make([]uint64, (len(s.Slots)+63)/64)
	for k, i := range s.Free {
		at := "free list entry " + strconv.Itoa(k) + ": index " + strconv.FormatUint(uint64(i), 10)
		switch {
		case uint64(i) >= uint64(len(s.Slots)):
			return errors.New(at + " is out of range (" + strconv.Itoa(len(s.Slots)) + " slots)")
		case s.Slots[i]&aliveBit != 0:
			return errors.New(at + " holds a live entity")
		case s.Slots[i] == maxGeneration:
			return errors.New(at + " is retired (generation 2147483647)")
		case seen[i/64]&(1<<(i%64)) != 0:
			return errors.New(at + " is listed twice")
		}
		seen[i/64] |= 1 << (i % 64)
	}
	if len(s.Free) != dead {
		for i, v := range s.Slots {
			if v&aliveBit == 0 && v < maxGeneration && seen[i/64]&(1<<(i%64)) == 0 {
				return errors.New("slot " + strconv.Itoa(i) + " is dead and unretired but not on the free list")
			}
		}
	}
	return nil
}
