package main

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// sample is one benchmark line of `go test -bench` output:
// Benchmark<Workload>/<impl>/n=<N>[-procs] <iterations> <value unit>...
type sample struct {
	workload, impl string
	n              int
	metrics        map[string]float64 // by unit: ns/op, ns/entity, allocs/op...
}

// output is what parse reads from a benchmark run.
type output struct {
	samples []sample
	// meta holds the header lines of go test (goos, goarch, pkg, cpu) and
	// the lines "# key: value" the report command writes above the output
	// it saves.
	meta map[string]string
}

var (
	lastPart = regexp.MustCompile(`^n=(\d+)(?:-\d+)?$`)
	metaLine = regexp.MustCompile(`^(?:# )?([a-z][a-z ]*[a-z]): (.+)$`)
)

// parse reads the output of `go test -bench`. Lines that are not benchmark
// results or header lines (PASS, ok, logs, test output) are skipped, and so
// are benchmark lines whose name does not have the suite's three parts.
func parse(r io.Reader) (*output, error) {
	out := &output{meta: map[string]string{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "Benchmark") {
			if s, ok := parseSample(line); ok {
				out.samples = append(out.samples, s)
			}
			continue
		}
		if m := metaLine.FindStringSubmatch(line); m != nil {
			if strings.HasPrefix(line, "# ") || slices.Contains([]string{"goos", "goarch", "pkg", "cpu"}, m[1]) {
				out.meta[m[1]] = m[2]
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading benchmark output: %w", err)
	}
	return out, nil
}

// parseSample parses one benchmark result line.
func parseSample(line string) (sample, bool) {
	f := strings.Fields(line)
	if len(f) < 4 || len(f)%2 != 0 {
		return sample{}, false
	}
	parts := strings.Split(strings.TrimPrefix(f[0], "Benchmark"), "/")
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" {
		return sample{}, false
	}
	m := lastPart.FindStringSubmatch(parts[2])
	if m == nil {
		return sample{}, false
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return sample{}, false
	}
	if _, err := strconv.Atoi(f[1]); err != nil { // the iteration count
		return sample{}, false
	}
	s := sample{workload: parts[0], impl: parts[1], n: n, metrics: map[string]float64{}}
	for i := 2; i < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return sample{}, false
		}
		s.metrics[f[i+1]] = v
	}
	return s, true
}

// result is the median of the samples of one benchmark.
type result struct {
	workload, impl string
	n              int
	runs           int                // how many samples
	metrics        map[string]float64 // the median of each unit
}

// aggregate groups samples by benchmark and takes the median of every
// metric. Results come sorted by workload (in the order of workloadOrder,
// then by name), impl (implOrder, then name) and n.
func aggregate(samples []sample) []result {
	type key struct {
		workload, impl string
		n              int
	}
	groups := map[key][]sample{}
	var keys []key
	for _, s := range samples {
		k := key{s.workload, s.impl, s.n}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], s)
	}
	var rs []result
	for _, k := range keys {
		g := groups[k]
		r := result{workload: k.workload, impl: k.impl, n: k.n, runs: len(g), metrics: map[string]float64{}}
		values := map[string][]float64{}
		for _, s := range g {
			for unit, v := range s.metrics {
				values[unit] = append(values[unit], v)
			}
		}
		for unit, vs := range values {
			r.metrics[unit] = median(vs)
		}
		rs = append(rs, r)
	}
	slices.SortFunc(rs, func(a, b result) int {
		if c := compareByOrder(workloadOrder, a.workload, b.workload); c != 0 {
			return c
		}
		if c := compareByOrder(implOrder, a.impl, b.impl); c != 0 {
			return c
		}
		return a.n - b.n
	})
	return rs
}

// median returns the middle value of vs (the mean of the two middle ones
// for an even count). It sorts vs.
func median(vs []float64) float64 {
	slices.Sort(vs)
	m := len(vs) / 2
	if len(vs)%2 == 1 {
		return vs[m]
	}
	return (vs[m-1] + vs[m]) / 2
}

// compareByOrder orders a and b by their position in order; names not in
// order come after, alphabetically.
func compareByOrder(order []string, a, b string) int {
	ia, ib := slices.Index(order, a), slices.Index(order, b)
	if ia < 0 {
		ia = len(order)
	}
	if ib < 0 {
		ib = len(order)
	}
	if ia != ib {
		return ia - ib
	}
	return strings.Compare(a, b)
}

// value returns a metric of a result, preferring ns/entity and falling back
// to ns/op for benchmarks that report per operation.
func (r result) value(unit string) (float64, bool) {
	v, ok := r.metrics[unit]
	if !ok && unit == "ns/entity" {
		v, ok = r.metrics["ns/op"]
	}
	return v, ok
}
