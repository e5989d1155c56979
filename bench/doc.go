// Package bench holds Slipway's benchmark suite: the workloads the Go ECS
// community compares on, each measured for Slipway and for hand-written Go
// over plain slices doing the same work in the same run, plus a Go port of
// the Rust community's cross-ECS suite (SimpleInsert, SimpleIter, FragIter,
// HeavyCompute, Schedule, AddRemoveComponent).
//
// The package has no code outside its tests. Run the suite with
//
//	go test ./bench -run '^$' -bench . -benchmem
//
// or let bench/cmd/report run it and write docs/benchmarks.md with a chart
// per workload. See bench/README.md for what each workload measures.
package bench
