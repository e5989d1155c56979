package main

import (
	"fmt"
	"strings"
)

// The page opens with a summary a user can read in one screen: what each
// common need costs with the form of Slipway that answers it, taken from
// the run (glances), then Slipway beside Ark, the leading Go ECS, as
// measured outside this repository (arkTable).

// glance is a row of the summary: a need, the call that answers it, and
// the benchmark that shows its cost here.
type glance struct {
	need, use      string
	workload, impl string // measured at summaryN
}

// summaryN is the N the summary's figures are taken at: a world of a
// million entities, where the data no longer fits in the caches.
const summaryN = 1_000_000

var glances = []glance{
	{"Visit every entity with two components, each frame", "`ecs.Join2(pos, vel)`: `Runs()` for loops over aligned slices, `All()` for one entity at a time", "Query2Comp", "slipway"},
	{"The same, in a world that churned", "the same join; re-alignment at sync points keeps it linear", "Query2CompChurned", "slipway"},
	{"The one join the game waits on", "a packed group, `ecs.AddGroup2[Position, Velocity]`: the join is two slices", "Query2CompChurned", "slipway-group"},
	{"Add and remove a component, one entity at a time", "`ViewMut.AddComponent`, `ViewMut.Remove`", "AddRemove", "slipway"},
	{"… with a group over that component", "the same calls; each moves the entity across the group's boundary", "AddRemove", "slipway-group"},
	{"Create entities one at a time", "`ecs.AddEntity2`, or `ViewMut.AddEntity` in a system", "Create2Comp", "slipway"},
	{"Create many entities at once, from slices", "`ecs.BulkAddEntity2`", "Create2Comp", "slipway-bulk"},
	{"Create many entities at once, in place", "`ecs.BulkNewEntity2`: zero values, or a fill function", "Create2Comp", "slipway-fill"},
	{"Delete entities one at a time", "`World.DeleteEntity`", "Delete2Comp", "slipway"},
	{"Delete many entities at once", "`World.DeleteEntities`", "Delete2Comp", "slipway-bulk"},
	{"Delete every entity that has a component", "`ecs.DeleteAny[T]`: whole storages go at once", "Delete10Comp", "slipway-any"},
	{"Look entities up by id, in random order", "`View.Get`", "Random", "slipway"},
	{"Look many entities up by id", "one `View.Lookup` over all the ids", "Random", "slipway-bulk"},
}

// overheads are the rows of the per-run cost table: what running one
// system costs, whatever the world's size (RunOverhead, N = 1).
var overheads = [][2]string{
	{"`reflect.Value.Call(fn)` alone, nothing borrowed: what a plain function's call costs", "reflect-call"},
	{"`World.Run(fn)`, a plain function (called through reflection)", "slipway"},
	{"`World.Run(ecs.Func2(fn))`, a typed system (called directly)", "slipway-typed"},
	{"`World.RunWorkload`, a workload of one plain function", "slipway-workload"},
	{"`World.RunWorkload`, a workload of one typed system", "slipway-workload-typed"},
}

// writeSummary writes the page's opening summary from the run's results.
func writeSummary(b *strings.Builder, ix index) {
	b.WriteString("## At a glance\n\n")
	b.WriteString("Slipway keeps each component type in a sparse set: a dense array of components with their ids, and a paged index from an entity to its place. Adding and removing components touches only their own storages, so it is many times cheaper than moving an entity between archetype tables; joins walk the smaller storage and look the others up, and re-alignment at sync points turns the joins the program runs into loops over aligned slices. Bulk calls and packed groups trade generality for plain-slice speed where a program needs it.\n\n")
	fmt.Fprintf(b, "What each need costs with the call that answers it, on the machine below, at N = %s: CPU ns per entity (the median of the run's passes), and the same for hand-written Go over plain slices doing the same work (`plain`) as a ratio.\n\n", groupThousands(summaryN))
	b.WriteString("| you need | use | CPU ns/entity | × plain |\n| --- | --- | ---: | ---: |\n")
	for _, g := range glances {
		var v, ratio float64
		vok, rok := false, false
		if r, ok := ix.get(g.workload, g.impl, summaryN); ok {
			v, vok = r.value("cpu-ns/entity")
			ratio, rok = ix.ratioToPlain(r, "cpu-ns/entity")
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", g.need, g.use, cell(v, vok, formatNs), cell(ratio, rok, formatRatio))
	}
	b.WriteString("\n")
	b.WriteString("In small worlds, the fixed cost of running a system counts for more than the loop. One run of an empty system over two views, in a world of one entity:\n\n")
	b.WriteString("| run | CPU ns per run |\n| --- | ---: |\n")
	for _, o := range overheads {
		v, ok := cpuOf(ix, "RunOverhead", o[1], 1)
		fmt.Fprintf(b, "| %s | %s |\n", o[0], cell(v, ok, formatNs))
	}
	b.WriteString("\n")
	writeParallel(b, ix)
	b.WriteString("So, in short:\n\n")
	b.WriteString("- Write systems over views and joins, and put the hot ones in a workload; make a system typed (`ecs.Func2` …) when it runs over a few entities many times a frame.\n")
	b.WriteString("- Reach for a packed group only for the join the frame waits on, and only when the entities rarely gain or lose its components.\n")
	b.WriteString("- Create and delete in bulk when a level loads or a wave spawns; `DeleteAny` clears a whole kind of entity at once.\n")
	b.WriteString("- Use `ParEach` for work per entity of a microsecond or more; below that, one goroutine is faster ([Parallelism](parallelism.md) shows the break-even).\n")
	b.WriteString("- [Performance tips](performance-tips.md) says more about each choice.\n\n")
	writeArk(b, ix)
}

// cpuOf returns the CPU ns per entity of impl on workload at n, if the
// run measured it.
func cpuOf(ix index, workload, impl string, n int) (float64, bool) {
	r, ok := ix.get(workload, impl, n)
	if !ok {
		return 0, false
	}
	return r.value("cpu-ns/entity")
}

// writeParallel writes the sentence on HeavyCompute's parallel speed-up,
// if the run measured it.
func writeParallel(b *strings.Builder, ix index) {
	n := 0
	for _, m := range []int{summaryN, 256_000, 16_000, 1_000} {
		if _, ok := ix.get("HeavyCompute", "slipway-par", m); ok {
			n = m
			break
		}
	}
	seq, ok1 := ix.get("HeavyCompute", "slipway", n)
	par, ok2 := ix.get("HeavyCompute", "slipway-par", n)
	if !ok1 || !ok2 || par.metrics["ns/entity"] <= 0 {
		return
	}
	fmt.Fprintf(b, "Heavy work per entity (HeavyCompute: each entity's 4×4 matrix inverted 100 times, N = %s) ran %s faster with a join's `ParEachMin(16, fn)` than on one goroutine, in wall time, on this machine's 2 cores.\n\n",
		groupThousands(int64(n)), formatRatio(seq.metrics["ns/entity"]/par.metrics["ns/entity"]))
}

// arkRow is a row of the side-by-side with Ark: CPU ns per entity at
// 16k / 1M (or one figure), and Slipway's ratios to Ark.
type arkRow struct {
	workload, ark, arkBatch, slipway, best, defaultRatio, bestRatio string
}

// arkRows are the figures measured outside this repository on 2026-11-28
// (issue 57 gives them with their provenance).
var arkRows = []arkRow{
	{"Query2Comp", "1.70 / 1.94", "0.75 / 0.98", "1.42 / 1.92", "0.74 / 1.05 (group)", "0.84 / 0.99", "0.98 / 1.05"},
	{"Query2Comp after churn", "1.80 / 2.18", "0.82 / 0.97", "1.68 / 1.97", "0.87 / 0.89 (group)", "0.93 / 0.91", "1.09 / 0.94"},
	{"Query256Arch", "1.90 / 1.96", "0.77 / 0.94", "0.87 / 0.98", "0.78 / 0.92", "0.46 / 0.50", "1.00 / 0.99"},
	{"Frame (1% churn + query)", "24.2 / 85.0", "20.7 / 91.1", "20.9 / 71.0", "19.1 / 57.6", "0.84 / 0.93", "0.78 / 0.71"},
	{"Random", "4.50 / 57.6", "", "3.46 / 16.0", "", "0.77 / 0.28", ""},
	{"Create2Comp", "32.5 / 33.5", "7.61 / 7.97", "14.1 / 14.4", "3.59 / 6.93 (bulk)", "0.43 / 0.45", "0.45 / 0.91"},
	{"Create10Comp", "62.3 / 60.5", "7.44 / 7.52", "58.3 / 63.3", "13.9 / 24.4 (bulk)", "0.92 / 1.05", "1.80 / 3.25"},
	{"AddRemove", "92.3 / 86.4", "6.57 / 9.38", "14.8 / 15.1", "3.23 / 3.92 (bulk)", "0.16 / 0.18", "0.50 / 0.39"},
	{"Delete2Comp", "20.0 / 20.7", "4.25 / 5.00", "9.17 / 9.29", "3.28 / 4.69 (bulk)", "0.43 / 0.45", "0.77 / 0.94"},
	{"Delete10Comp", "65.7 / 86.1", "5.59 / 10.8", "15.7 / 20.7", "10.1 / 11.0 (DeleteAny)", "0.24 / 0.24", "1.85 / 0.99"},
	{"New world", "48 µs", "", "0.27 µs", "", "0.01", ""},
}

// writeArk writes the side-by-side with Ark v0.8.1, and what this run
// measured of the in-place creation that table predates.
func writeArk(b *strings.Builder, ix index) {
	b.WriteString("### Beside Ark\n\n")
	b.WriteString("[Ark](https://github.com/mlange-42/ark) v0.8.1 is the leading Go ECS, built on archetypes. These figures were measured outside this repository on 2026-11-28, with Slipway at commit 721d5d8 and Ark in one test binary, on the Go ECS community's workloads (Go 1.26.8, a 2-core machine, the median of 3 interleaved passes), in CPU ns per entity at N = 16,000 / 1,000,000. A ratio is Slipway ÷ Ark within each pass: below 1, Slipway is faster. \"Ark batch/tables\" is Ark's batch calls and table queries; \"best form\" is Slipway's fastest way to do the same work.\n\n")
	b.WriteString("| workload | Ark | Ark batch/tables | Slipway | Slipway's best form | default ratio | best ratio |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, r := range arkRows {
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s |\n", r.workload, r.ark, r.arkBatch, r.slipway, r.best, r.defaultRatio, r.bestRatio)
	}
	b.WriteString("\nWith the default API on both sides, Slipway leads or is level on every workload. Ark's batch calls lead on creating entities with many components: they fill zero values in place, where Slipway's bulk form in that measurement copied them from slices. `ecs.BulkNewEntity1` … `BulkNewEntity8` create them in place; the tables below measure that as `slipway-fill`")
	small, ok1 := cpuOf(ix, "Create10Comp", "slipway-fill", 16_000)
	big, ok2 := cpuOf(ix, "Create10Comp", "slipway-fill", summaryN)
	if ok1 && ok2 {
		fmt.Fprintf(b, ": %s / %s CPU ns per entity for Create10Comp at N = 16,000 / 1,000,000 in this page's run (another run than the one above, so compare with care)", formatNs(small), formatNs(big))
	}
	b.WriteString(".\n\n")
	b.WriteString("The rest of this page is this repository's own suite, run on the machine described next: Slipway beside plain Go, every figure regenerated from the raw results committed with it.\n\n")
}
