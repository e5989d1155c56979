package ecs

// SetBulkParallelMin sets the number of ids from which bulk operations
// work on several storages at once, so that tests reach the parallel paths
// with small worlds (or keep them off with a large n), and returns a
// function restoring the default. Tests that call it must not run in
// parallel with others.
func SetBulkParallelMin(n int) (restore func()) {
	old := bulkParallelMin
	bulkParallelMin = n
	return func() { bulkParallelMin = old }
}

// CheckLayouts returns an error naming the first storage of w whose
// identity prefix breaks its invariant (see sparseSet), or nil.
// The model tests call it after every step.
func CheckLayouts(w *World) error {
	for _, st := range w.comps.all() {
		if err := st.(interface{ layoutError() error }).layoutError(); err != nil {
			return err
		}
	}
	return nil
}

// SetAlignMinMisses makes joins over w ask for re-alignment from more
// than n misses (with more than one miss in 32 entities), so that tests
// reach re-alignment with small worlds. Call it before w is used.
func SetAlignMinMisses(w *World, n int) { w.align.minMisses = n }

// OrderOf returns the entities of T's storage in w, in storage order.
func OrderOf[T any](w *World) []EntityID {
	return append([]EntityID(nil), storageFor[T](w).dense...)
}
