package ecs

import "fmt"

//go:generate go run ../internal/gen -dir .

// excluded reports whether any filter contains id.
func excluded(filters []Filter, id EntityID) bool {
	for _, f := range filters {
		if f.Contains(id) {
			return true
		}
	}
	return false
}

func lengthMismatch(op string, arg, got, want int) error {
	return &lengthError{op: op, arg: arg, got: got, want: want}
}

// idsLengthMismatch reports that the component slice c<arg> of a bulk
// operation on existing entities has got elements for want ids.
func idsLengthMismatch(op string, arg, got, want int) error {
	return &lengthError{op: op, arg: arg, got: got, want: want, ids: true}
}

type lengthError struct {
	op             string
	arg, got, want int
	ids            bool // want is the number of ids, arg numbers the component slices
}

func (e *lengthError) Error() string {
	if e.ids {
		return fmt.Sprintf("ecs: %s: c%d has %d elements, ids has %d", e.op, e.arg, e.got, e.want)
	}
	return fmt.Sprintf("ecs: %s: slice %d has %d elements, slice 1 has %d", e.op, e.arg, e.got, e.want)
}

func (e *lengthError) Unwrap() error { return ErrLengthMismatch }

// beginReads borrows all storages and each of sts shared, for a World-level
// read of several component types.
func beginReads(s Storages, sts []storage) (*World, bool, error) {
	w, held := s.world()
	if held {
		return w, false, nil
	}
	if err := w.allLock.acquire(worldRead, false, allName); err != nil {
		return nil, false, err
	}
	// The entities storage too, shared, as beginRead.
	if err := w.ents.lock.acquire(worldRead, false, "entities"); err != nil {
		w.allLock.release(worldRead, false)
		return nil, false, err
	}
	for i, st := range sts {
		if err := st.borrow().acquire(worldRead, false, st.typeName()); err != nil {
			for j := i - 1; j >= 0; j-- {
				sts[j].borrow().release(worldRead, false)
			}
			w.ents.lock.release(worldRead, false)
			w.allLock.release(worldRead, false)
			return nil, false, err
		}
	}
	return w, true, nil
}

func endReads(w *World, locked bool, sts []storage) {
	if !locked {
		return
	}
	for i := len(sts) - 1; i >= 0; i-- {
		sts[i].borrow().release(worldRead, false)
	}
	w.ents.lock.release(worldRead, false)
	w.allLock.release(worldRead, false)
}
