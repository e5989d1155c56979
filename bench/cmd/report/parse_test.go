package main

import (
	"strconv"
	"strings"
	"testing"
)

func equal[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s: got %v, want %v", what, got, want)
	}
}

const sampleOutput = `# report command: go run ./bench/cmd/report -count 2
# test command: go test ./bench -run '^$' -bench . -benchmem -count 2 -timeout 0
# load before: 3.50
goos: linux
goarch: amd64
pkg: github.com/slipway-ecs/slipway/bench
cpu: AMD EPYC
BenchmarkQuery2Comp/plain/n=1000-2     	  100	  1500 ns/op	  1.2 cpu-ns/entity	  1.5 ns/entity	  0 B/op	  0 allocs/op
BenchmarkQuery2Comp/slipway/n=1000-2   	  100	  3000 ns/op	  2.5 cpu-ns/entity	  3.0 ns/entity	  0 B/op	  0 allocs/op
--- BENCH: BenchmarkQuery2Comp/slipway/n=1000-2
    workloads_test.go:12: a log line: with a colon
BenchmarkQuery2Comp/plain/n=1000-2     	  100	  1700 ns/op	  1.4 cpu-ns/entity	  1.7 ns/entity	  0 B/op	  0 allocs/op
BenchmarkQuery2Comp/slipway/n=1000-2   	  100	  5000 ns/op	  4.5 cpu-ns/entity	  5.0 ns/entity	  8 B/op	  1 allocs/op
BenchmarkNewWorld/slipway/n=1          	 5000	   250 ns/op	  240 cpu-ns/entity	  250 ns/entity	208 B/op	  1 allocs/op
BenchmarkTwoParts/slipway-2            	  100	     5 ns/op
BenchmarkBroken/slipway/n=1000-2       	--- FAIL: BenchmarkBroken/slipway/n=1000-2
BenchmarkOdd/slipway/n=abc-2           	  100	     5 ns/op
PASS
ok  	github.com/slipway-ecs/slipway/bench	12.3s
`

func TestParseReadsResultsAndHeader(t *testing.T) {
	o, err := parse(strings.NewReader(sampleOutput))
	check(t, err)
	equal(t, "samples", len(o.samples), 5)
	s := o.samples[1]
	equal(t, "workload", s.workload, "Query2Comp")
	equal(t, "impl", s.impl, "slipway")
	equal(t, "n", s.n, 1000)
	equal(t, "ns/entity", s.metrics["ns/entity"], 3.0)
	equal(t, "cpu-ns/entity", s.metrics["cpu-ns/entity"], 2.5)
	equal(t, "ns/op", s.metrics["ns/op"], 3000.0)
	nw := o.samples[4]
	equal(t, "n without a procs suffix", nw.n, 1)
	equal(t, "B/op", nw.metrics["B/op"], 208.0)
	equal(t, "cpu", o.meta["cpu"], "AMD EPYC")
	equal(t, "goos", o.meta["goos"], "linux")
	equal(t, "test command", o.meta["test command"], "go test ./bench -run '^$' -bench . -benchmem -count 2 -timeout 0")
	equal(t, "load before", o.meta["load before"], "3.50")
	if _, ok := o.meta["a log line"]; ok {
		t.Error("a test log line was read as run details")
	}
}

func TestAggregateTakesMediansAndSorts(t *testing.T) {
	o, err := parse(strings.NewReader(sampleOutput + `
BenchmarkQuery2Comp/slipway/n=1000-2   	  100	  3000 ns/op	  2.5 cpu-ns/entity	  3.5 ns/entity	  0 B/op	  0 allocs/op
BenchmarkAaaUnknown/slipway/n=5-2      	  100	     5 ns/op	  5 ns/entity
BenchmarkQuery2Comp/zeta/n=1000-2      	  100	     5 ns/op	  5 ns/entity
BenchmarkQuery2Comp/plain/n=10-2       	  100	     5 ns/op	  5 ns/entity
`))
	check(t, err)
	rs := aggregate(o.samples)
	var names []string
	for _, r := range rs {
		names = append(names, r.workload+"/"+r.impl+"/"+strconv.Itoa(r.n))
	}
	equal(t, "order", strings.Join(names, " "),
		"Query2Comp/plain/10 Query2Comp/plain/1000 Query2Comp/slipway/1000 Query2Comp/zeta/1000 NewWorld/slipway/1 AaaUnknown/slipway/5")
	ix := indexOf(rs)
	plain, _ := ix.get("Query2Comp", "plain", 1000)
	equal(t, "runs", plain.runs, 2)
	equal(t, "median of two", plain.metrics["ns/entity"], 1.6)
	sw, _ := ix.get("Query2Comp", "slipway", 1000)
	equal(t, "runs", sw.runs, 3)
	equal(t, "median of three", sw.metrics["ns/entity"], 3.5)
	equal(t, "median allocs", sw.metrics["allocs/op"], 0.0)
	ratio, ok := ix.ratioToPlain(sw, "ns/entity")
	equal(t, "ratio found", ok, true)
	equal(t, "ratio", ratio, 3.5/1.6)
	if _, ok := ix.ratioToPlain(plain, "ns/entity"); ok {
		t.Error("plain has a ratio to itself")
	}
	nw, _ := ix.get("NewWorld", "slipway", 1)
	if v, ok := nw.value("ns/entity"); !ok || v != 250 {
		t.Errorf("NewWorld value: %v %v", v, ok)
	}
	two := result{metrics: map[string]float64{"ns/op": 7}}
	if v, ok := two.value("ns/entity"); !ok || v != 7 {
		t.Errorf("fallback to ns/op: %v %v", v, ok)
	}
}

func TestMedian(t *testing.T) {
	equal(t, "one", median([]float64{4}), 4.0)
	equal(t, "odd", median([]float64{9, 1, 5}), 5.0)
	equal(t, "even", median([]float64{9, 1, 5, 3}), 4.0)
}

func check(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
