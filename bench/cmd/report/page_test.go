package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// suiteOutput is a small run: Query2Comp and Random at every N, Create2Comp
// at 1M, NewWorld, HeavyCompute.
const suiteOutput = `# count: 1
# test command: go test ./bench -bench . -count 1
# cpu model: Test CPU 3000
# commit: abc1234
BenchmarkQuery2Comp/plain/n=1000-2       10  1 ns/op  1.0 cpu-ns/entity  1.0 ns/entity  0 B/op  0 allocs/op
BenchmarkQuery2Comp/slipway/n=1000-2     10  1 ns/op  2.0 cpu-ns/entity  3.0 ns/entity  0 B/op  0 allocs/op
BenchmarkQuery2Comp/plain/n=1000000-2    10  1 ns/op  1.0 cpu-ns/entity  1.5 ns/entity  0 B/op  0 allocs/op
BenchmarkQuery2Comp/slipway/n=1000000-2  10  1 ns/op  1.9 cpu-ns/entity  2.1 ns/entity  0 B/op  2 allocs/op
BenchmarkQuery2Comp/sparse/n=1000000-2   10  1 ns/op  2.3 cpu-ns/entity  2.4 ns/entity  0 B/op  0 allocs/op
BenchmarkAddRemove/slipway-group/n=1000000-2  10  1 ns/op  40 cpu-ns/entity  41 ns/entity  0 B/op  0 allocs/op
BenchmarkAddRemove/sparse-group/n=1000000-2   10  1 ns/op  33 cpu-ns/entity  34 ns/entity  0 B/op  0 allocs/op
BenchmarkAddRemove/sparse/n=1000000-2         10  1 ns/op  19 cpu-ns/entity  20 ns/entity  0 B/op  0 allocs/op
BenchmarkRandom/plain/n=1000-2           10  1 ns/op  1.0 cpu-ns/entity  1.0 ns/entity  0 B/op  0 allocs/op
BenchmarkRandom/slipway/n=1000-2         10  1 ns/op  1.4 cpu-ns/entity  1.6 ns/entity  0 B/op  0 allocs/op
BenchmarkRandom/sparse/n=1000-2          10  1 ns/op  1.1 cpu-ns/entity  1.2 ns/entity  0 B/op  0 allocs/op
BenchmarkCreate2Comp/slipway-bulk/n=1000000-2  10  1 ns/op  7.0 cpu-ns/entity  9.0 ns/entity  8388608 B/op  40 allocs/op
BenchmarkNewWorld/slipway/n=1-2          10  1 ns/op  200 cpu-ns/entity  2500 ns/entity  208 B/op  1 allocs/op
BenchmarkHeavyCompute/slipway/n=1000-2      10  1 ns/op  4000 cpu-ns/entity  4000 ns/entity  0 B/op  0 allocs/op
BenchmarkHeavyCompute/slipway-par/n=1000-2  10  1 ns/op  4400 cpu-ns/entity  2000 ns/entity  0 B/op  1 allocs/op
BenchmarkSharedJoins/slipway/n=1000000-2           10  1 ns/op  6.0 cpu-ns/entity  6.0 ns/entity  0 B/op  0 allocs/op
BenchmarkSharedJoins/slipway-noalign/n=1000000-2   10  1 ns/op  10 cpu-ns/entity  4.0 ns/entity  0 B/op  0 allocs/op
BenchmarkSharedJoins/slipway-noextras/n=1000000-2  10  1 ns/op  5.5 cpu-ns/entity  5.5 ns/entity  0 B/op  0 allocs/op
`

func suiteResults(t *testing.T) []result {
	t.Helper()
	o, err := parse(strings.NewReader(suiteOutput))
	check(t, err)
	return aggregate(o.samples)
}

func TestTargetsHoldOrNot(t *testing.T) {
	rows := map[string]targetRow{}
	for _, r := range evalTargets(indexOf(suiteResults(t))) {
		rows[r.text] = r
	}
	for text, want := range map[string][4]string{
		"Query2Comp ≤ 2.0 ns":                                 {"2.10 ns", "**no**", "1.90 ns", "yes"},
		"Random within 1.5× of plain, N = 1,000":              {"1.60× plain", "**no**", "1.40× plain", "yes"},
		"Create2Comp bulk ≤ 8 ns":                             {"9.00 ns", "**no**", "7.00 ns", "yes"},
		"NewWorld ≤ 3 µs":                                     {"2,500 ns", "yes", "200 ns", "yes"},
		"Random within 1.5× of plain, N = 1,000,000":          {notMeasured, "—", notMeasured, "—"},
		"Query2Comp group ≤ 1.2 ns":                           {notMeasured + ": no packed groups yet", "—", notMeasured, "—"},
		"HeavyCompute parallel ≥ 1.7× faster than sequential": {"2.00×", "yes", "2.20 cores busy (CPU time / wall time)", "—"},
		// Ratios to another impl than plain name it.
		"SharedJoins within 1.2× of re-alignment off":         {"1.50× slipway-noalign", "**no**", "0.60× slipway-noalign", "yes"},
		"SharedJoins within 1.2× of the frame without extras": {"1.09× slipway-noextras", "yes", "1.09× slipway-noextras", "yes"},
	} {
		r, ok := rows[text]
		if !ok {
			t.Errorf("no target row %q", text)
			continue
		}
		equal(t, text, [4]string{r.wall, r.wallHolds, r.cpu, r.cpuHolds}, want)
	}
	// The reference's figure stands beside the targets on the path it
	// mirrors, and nowhere else.
	for text, want := range map[string]string{
		"Query2Comp ≤ 2.0 ns":                                     "2.40 ns",
		"Random within 1.5× of plain, N = 1,000":                  "1.20× plain",
		"Create2Comp bulk ≤ 8 ns":                                 "—",
		"Query2Comp group ≤ 1.2 ns":                               "—",
		"AddRemove ≤ 20 ns":                                       "20.0 ns",
		"AddRemove with a group owning Position+Velocity ≤ 30 ns": "34.0 ns",
	} {
		equal(t, text+": sparse reference", rows[text].ref, want)
	}
	// Plain Query2Comp took 1.5 ns at 1M against the 1.59: the
	// limits in ns scale by 1.5/1.59; ratios and speedups do not scale.
	for text, want := range map[string][2]string{
		"Query2Comp ≤ 2.0 ns":                                 {"1.89 ns", "**no**"},
		"Create2Comp bulk ≤ 8 ns":                             {"7.55 ns", "**no**"},
		"NewWorld ≤ 3 µs":                                     {"2,830 ns", "yes"},
		"Query2Comp group ≤ 1.2 ns":                           {"1.13 ns", "—"},
		"Random within 1.5× of plain, N = 1,000":              {"—", "—"},
		"HeavyCompute parallel ≥ 1.7× faster than sequential": {"—", "—"},
	} {
		equal(t, text+": scaled limit", [2]string{rows[text].scaled, rows[text].scaledHolds}, want)
	}
	allocs := evalAllocs(indexOf(suiteResults(t)))
	equal(t, "allocation target", allocs.wall, "most: 40 allocs/op (Create2Comp/slipway-bulk)")
	equal(t, "allocation target holds", allocs.wallHolds, "**no**")
}

// renderPage parses a suite's output and returns the page made of it.
func renderPage(t *testing.T, output string) string {
	t.Helper()
	var b bytes.Buffer
	o, err := parse(strings.NewReader(output))
	check(t, err)
	check(t, writePage(&b, aggregate(o.samples), infoFrom(o.meta)))
	return b.String()
}

// pageHas reports every one of wants that page lacks.
func pageHas(t *testing.T, page string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

func TestWritePage(t *testing.T) {
	page := renderPage(t, suiteOutput)
	pageHas(t, page,
		"# Benchmarks",
		"| CPU | Test CPU 3000 |",
		"| Commit | abc1234 |",
		"```\ngo test ./bench -bench . -count 1\n```",
		"median of 1 runs",
		"### Query2Comp",
		"![Query2Comp: ns per entity by implementation](benchmarks/Query2Comp.svg)",
		"| 1,000,000 | `slipway` | 2.10 | 1.40× | 1.90 | 1.90× | 2 | 0 B |",
		"| 1,000 | `plain` | 1.00 | — | 1.00 | — | 0 | 0 B |",
		"| 1,000,000 | `slipway-bulk` | 9.00 | — | 7.00 | — | 40 | 8.0 MiB |",
		"`slipway-par` runs 2.00× faster than `slipway` (wall time, N = 1,000); it kept 2.20 cores busy on average (CPU time / wall time).",
		"| Query2Comp ≤ 2.0 ns | 2.10 ns | **no** | 1.90 ns | yes | 1.89 ns | **no** | 2.40 ns |",
		"here it took 1.50 ns, a factor of 0.94.",
	)
	// Workloads come in page order, whatever the order of the output.
	if strings.Index(page, "### NewWorld") > strings.Index(page, "### HeavyCompute") {
		t.Error("NewWorld comes after HeavyCompute")
	}
	if strings.Contains(page, "interleaved") {
		t.Error("the page calls the runs of go test -count interleaved")
	}
}

// TestWritePageInterleaved: a run of runSuite's passes says its runs are
// interleaved, and shows the commands that made them.
func TestWritePageInterleaved(t *testing.T) {
	page := renderPage(t, strings.Replace(suiteOutput,
		"# test command: go test ./bench -bench . -count 1",
		"# test command: go test -c -o bench.test ./bench && cd bench && for pass in $(seq 5); do ../bench.test -test.run '^$' -test.bench . -test.count 1; done", 1))
	pageHas(t, page,
		"The runs are interleaved",
		"```\ngo test -c -o bench.test ./bench && cd bench && for pass in $(seq 5); do ../bench.test -test.run '^$' -test.bench . -test.count 1; done\n```",
	)
}

func TestWriteReportWritesPageAndCharts(t *testing.T) {
	dir := t.TempDir()
	rs := suiteResults(t)
	check(t, writeReport(dir, rs, infoFrom(nil)))
	for _, name := range []string{"benchmarks.md", "benchmarks/Query2Comp.svg", "benchmarks/Random.svg", "benchmarks/Create2Comp.svg", "benchmarks/NewWorld.svg", "benchmarks/HeavyCompute.svg"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		check(t, err)
		if strings.HasSuffix(name, ".svg") {
			wellFormed(t, b)
		}
	}
	// Two sizes make a line chart, one a bar chart.
	if _, ok := chartFor("Query2Comp", rs).(lineChart); !ok {
		t.Error("Query2Comp: want a line chart")
	}
	if _, ok := chartFor("HeavyCompute", rs).(barChart); !ok {
		t.Error("HeavyCompute: want a bar chart")
	}
}

func TestFormatting(t *testing.T) {
	for v, want := range map[float64]string{0.456: "0.46", 12.34: "12.3", 123.4: "123", 25600: "25,600", 1234567: "1,234,567"} {
		equal(t, "formatNs", formatNs(v), want)
	}
	equal(t, "bytes", formatBytes(8388608), "8.0 MiB")
	equal(t, "bytes", formatBytes(2048), "2.0 KiB")
	equal(t, "bytes", formatBytes(40), "40 B")
	equal(t, "shell", shellJoin([]string{"go", "test", "-run", "^$", "-bench", "a|b"}), `go test -run '^$' -bench 'a|b'`)
}

func TestNoScaledLimitsWithoutPlainQuery2Comp(t *testing.T) {
	o, err := parse(strings.NewReader("BenchmarkQuery2Comp/slipway/n=1000000-2  10  1 ns/op  1.9 cpu-ns/entity  2.1 ns/entity\n"))
	check(t, err)
	ix := indexOf(aggregate(o.samples))
	if _, ok := machineFactor(ix); ok {
		t.Error("machineFactor: want no factor without plain Query2Comp at 1M")
	}
	for _, r := range evalTargets(ix) {
		if r.scaled != "—" || r.scaledHolds != "—" {
			t.Errorf("%s: scaled %q, %q; want none", r.text, r.scaled, r.scaledHolds)
		}
	}
	var b bytes.Buffer
	check(t, writePage(&b, aggregate(o.samples), infoFrom(nil)))
	if strings.Contains(b.String(), "a factor of") {
		t.Error("the page states a machine factor it cannot know")
	}
}

func TestSpeedupSentenceSaysSlowerBelowOne(t *testing.T) {
	o, err := parse(strings.NewReader(`BenchmarkHeavyCompute/slipway/n=1000-2      10  1 ns/op  4000 cpu-ns/entity  4000 ns/entity
BenchmarkHeavyCompute/slipway-par/n=1000-2  10  1 ns/op  4000 cpu-ns/entity  8000 ns/entity
`))
	check(t, err)
	var b bytes.Buffer
	check(t, writePage(&b, aggregate(o.samples), infoFrom(nil)))
	want := "`slipway-par` runs 2.00× slower than `slipway` (wall time, N = 1,000); it kept 0.50 cores busy on average (CPU time / wall time)."
	if !strings.Contains(b.String(), want) {
		t.Errorf("the page lacks %q", want)
	}
}

// churnOutput has Query2Comp fresh and churned, FrameChurn, and
// RandomChurned without its fresh counterpart.
const churnOutput = `BenchmarkQuery2CompChurned/slipway/n=1000-2  10  1 ns/op  6.0 cpu-ns/entity  8.0 ns/entity  0 B/op  0 allocs/op
BenchmarkQuery2CompChurned/plain/n=1000-2    10  1 ns/op  1.0 cpu-ns/entity  1.0 ns/entity  0 B/op  0 allocs/op
BenchmarkQuery2CompChurned/slipway/n=16000-2 10  1 ns/op  9.0 cpu-ns/entity  9.0 ns/entity  0 B/op  0 allocs/op
BenchmarkFrameChurn/slipway/n=1000-2         10  1 ns/op  40 cpu-ns/entity  50 ns/entity  0 B/op  0 allocs/op
BenchmarkFrameChurn/slipway/n=16000-2        10  1 ns/op  60 cpu-ns/entity  60 ns/entity  0 B/op  0 allocs/op
BenchmarkQuery2Comp/slipway/n=1000-2         10  1 ns/op  2.0 cpu-ns/entity  2.0 ns/entity  0 B/op  0 allocs/op
BenchmarkQuery2Comp/plain/n=1000-2           10  1 ns/op  1.0 cpu-ns/entity  1.0 ns/entity  0 B/op  0 allocs/op
BenchmarkQuery2Comp/slipway/n=16000-2        10  1 ns/op  3.0 cpu-ns/entity  3.0 ns/entity  0 B/op  0 allocs/op
BenchmarkRandomChurned/slipway/n=1000-2      10  1 ns/op  3.0 cpu-ns/entity  3.0 ns/entity  0 B/op  0 allocs/op
BenchmarkRandom/slipway-bulk/n=1000-2        10  1 ns/op  3.0 cpu-ns/entity  3.0 ns/entity  0 B/op  0 allocs/op
`

// A churned workload comes right after its fresh counterpart, with a
// table comparing the two and the fresh figures dotted in its chart.
func TestWritePageChurned(t *testing.T) {
	page := renderPage(t, churnOutput)
	order := []string{"### Query2Comp\n", "### Query2CompChurned\n", "### FrameChurn\n", "### RandomChurned\n"}
	for i := 1; i < len(order); i++ {
		if a, b := strings.Index(page, order[i-1]), strings.Index(page, order[i]); a < 0 || b < a {
			t.Errorf("%q does not come after %q", order[i], order[i-1])
		}
	}
	pageHas(t, page,
		"Fresh (Query2Comp) and churned (Query2CompChurned) side by side, ns per entity:",
		"| N | impl | fresh | churned | × fresh | fresh CPU | churned CPU | × fresh |",
		"| 1,000 | `slipway` | 2.00 | 8.00 | 4.00× | 2.00 | 6.00 | 3.00× |",
		"| 1,000 | `plain` | 1.00 | 1.00 | 1.00× | 1.00 | 1.00 | 1.00× |",
		"| 16,000 | `slipway` | 3.00 | 9.00 | 3.00× | 3.00 | 9.00 | 3.00× |",
		"Fresh (Query2Comp) and churned (FrameChurn) side by side, ns per entity:",
		"| 16,000 | `slipway` | 3.00 | 60.0 | 20.00× | 3.00 | 60.0 | 20.00× |",
	)
	// No fresh figure for the same impl: no table.
	if strings.Contains(page, "churned (RandomChurned)") {
		t.Error("RandomChurned has a comparison table without a fresh Random of the same impl")
	}
	// Query2Comp itself is fresh: no comparison under it.
	q := page[strings.Index(page, "### Query2Comp\n"):strings.Index(page, "### Query2CompChurned\n")]
	if strings.Contains(q, "side by side") {
		t.Error("the fresh workload has a comparison table")
	}

	o, err := parse(strings.NewReader(churnOutput))
	check(t, err)
	rs := aggregate(o.samples)
	c, ok := chartFor("Query2CompChurned", rs).(lineChart)
	if !ok {
		t.Fatal("Query2CompChurned: want a line chart")
	}
	var dotted []string
	for _, s := range c.series {
		if s.dotted {
			dotted = append(dotted, s.name)
			equal(t, s.name+" color", s.color, implColors[strings.Fields(s.name)[0]])
		}
	}
	equal(t, "dotted series", strings.Join(dotted, ", "), "plain (Query2Comp, fresh, wall), slipway (Query2Comp, fresh, wall)")
	var b bytes.Buffer
	check(t, c.writeSVG(&b))
	wellFormed(t, b.Bytes())
	pageHas(t, b.String(), `stroke-dasharray="1.5 3"`, "dotted: fresh, wall", "Query2CompChurned (dotted: Query2Comp, fresh): ns per entity")
	// A fresh workload's chart has nothing dotted.
	if c := chartFor("Query2Comp", rs).(lineChart); slices.ContainsFunc(c.series, func(s series) bool { return s.dotted }) {
		t.Error("Query2Comp's chart has dotted series")
	}
}
