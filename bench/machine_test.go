package bench

// A probe of the machine rather than a workload: what writing to many
// arrays at once costs. Creating an entity with ten components one at a
// time appends to 31 arrays in step (each storage's components, dense ids
// and sparse page, and the entity list); plain Go appends to one, and the
// bulk calls fill one storage's arrays at a time. How much the number of
// arrays costs depends on the processor (its store buffer and how many
// streams its prefetchers follow), so Create10Comp's one-at-a-time figures
// differ between machines more than the others do.

import (
	"fmt"
	"testing"
)

// BenchmarkMachineWriteStreams writes 2^20 records of 16 bytes (one
// component) to each of k arrays, the arrays written in step: record i of
// every array, then record i+1. It reports ns per record and per 64-byte
// cache line. The arrays are written once before the timing, so no page is
// faulted in while timed. Its name has two parts, not the suite's three, so
// bench/cmd/report leaves it off the page.
func BenchmarkMachineWriteStreams(b *testing.B) {
	const n = 1 << 20
	for _, k := range []int{1, 2, 4, 8, 16, 24, 32} {
		b.Run(fmt.Sprintf("streams=%d", k), func(b *testing.B) {
			arrays := make([][]pair, k)
			for j := range arrays {
				arrays[j] = make([]pair, n)
			}
			writeStreams(arrays, 0)
			for b.Loop() {
				writeStreams(arrays, 1)
			}
			perRecord := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / n / float64(k)
			b.ReportMetric(perRecord, "ns/record")
			b.ReportMetric(perRecord*64/16, "ns/line")
		})
	}
}

//go:noinline
func writeStreams(arrays [][]pair, y float64) {
	n := len(arrays[0])
	for i := range n {
		for _, a := range arrays {
			a[i] = pair{float64(i), y}
		}
	}
}
