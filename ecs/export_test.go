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
