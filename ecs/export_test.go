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
