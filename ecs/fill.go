package ecs

import "strconv"

// In-place bulk creation: BulkNewEntity1 … BulkNewEntity8 and
// BulkFillComponent1 … BulkFillComponent8 (world_gen.go) give many
// entities zero components in one pass per storage (zeroMany,
// sparse_set_fill.go), then call the caller's fill function once per
// entity with pointers to them, so that nothing is copied from slices.
//
// While fill runs, the call holds the world as any World-level change
// does, and the pointers it hands out must stay valid:
//
//   - Through a *World, every storage is borrowed exclusively for the
//     whole call: whatever fill calls on the world fails with a
//     *BorrowError (or panics with it, for the calls with no error to
//     return), and changes nothing.
//   - Through an AllStoragesViewMut, fill may call through it, and the
//     call walks the storages it fills as an Each does (each.go): the
//     changes that would add or remove their components are refused
//     with ErrIterating, and the entities fill deletes keep their
//     components in place until the call returns. The bulk calls fill
//     makes there copy their ids into the world's scratch memory
//     (ownIDs), which the fill loop may be reading: the loop takes that
//     memory for itself while fill runs (takeScratch).
//   - The components are reached by position when every storage took
//     them in one span at its end (zeroed.span), and otherwise looked up
//     by id, from a copy of the ids that fill cannot reach.
//
// If fill panics, the panic goes on to the caller once the borrows are
// given back. What was done stays done: every entity has its components,
// those fill did not reach with zero values; the world is as consistent
// as after any other call.

// negativeCount returns the error of op (a BulkNewEntity call) asked for
// n entities, n < 0.
func negativeCount(op string, n int) error {
	return &argError{op: op, what: "n is negative (" + strconv.Itoa(n) + "); it is the number of entities to create", kind: ErrNegativeCount}
}

// takeScratch takes the world's id scratch memory (bulkScratch.ids) out
// of reach of the bulk calls a fill function makes through an
// AllStoragesViewMut, and returns it for giveScratch to give back.
func (w *World) takeScratch() []EntityID {
	s := w.scratch.ids
	w.scratch.ids = nil
	return s
}

// giveScratch gives back the memory takeScratch took, unless the calls
// made meanwhile left the world a larger one.
func (w *World) giveScratch(s []EntityID) {
	if cap(s) > cap(w.scratch.ids) {
		w.scratch.ids = s[:0]
	}
}
