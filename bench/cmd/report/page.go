package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// workloadOrder is the order of the workloads on the page.
var workloadOrder = []string{
	"Query2Comp", "Query2CompChurned", "FrameChurn", "SharedJoins", "SharedJoins3", "Query32Arch", "Query256Arch", "Query256ArchChurned", "Query256ArchMixed",
	"Random", "RandomChurned", "RandomMoved",
	"Create2Comp", "Create2CompAlloc", "Create10Comp",
	"AddRemove", "AddRemoveLarge", "Delete2Comp", "Delete10Comp", "NewWorld", "RunOverhead",
	"SimpleInsert", "SimpleIter", "FragIter", "HeavyCompute", "Schedule", "AddRemoveComponent",
}

// refImpl is the hand-written sparse-set reference (bench/sparse_test.go),
// and refGroupImpl the same with a packed group over Position and Velocity.
const (
	refImpl      = "sparse"
	refGroupImpl = "sparse-group"
)

// implOrder is the order of the implementations in tables and legends.
var implOrder = []string{"plain", "plain-grow", refImpl, refGroupImpl, "slipway", "slipway-group", "slipway-bulk", "slipway-fill", "slipway-par", "slipway-seq"}

var implColors = map[string]string{
	"plain":         "#6b6b6b",
	refImpl:         "#bcbd22",
	refGroupImpl:    "#17becf",
	"slipway":       "#1f77b4",
	"slipway-group": "#2ca02c",
	"slipway-bulk":  "#ff7f0e",
	"slipway-fill":  "#8c6d31",
	"plain-grow":    "#b0b0b0",
	"slipway-par":   "#d62728",
	"slipway-seq":   "#9467bd",
}

var spareColors = []string{"#8c564b", "#e377c2", "#17becf"}

// colorOf returns the color of impl: a fixed one for the known impls, a
// spare one (by position among the unknown ones) otherwise.
func colorOf(impl string, unknown []string) string {
	if c, ok := implColors[impl]; ok {
		return c
	}
	return spareColors[slices.Index(unknown, impl)%len(spareColors)]
}

// descriptions say what each workload measures.
var descriptions = map[string]string{
	"Query2Comp":          "N entities with Position and Velocity, then 10N with Position only; a round adds Velocity to Position for the N. Slipway runs a system ranging over `Join2(pos, vel).Runs()`, a loop over aligned slices per run (one run for the group in slipway-group, or for entities given both components together); plain loops over an array of N structs holding both components.",
	"Query2CompChurned":   "Query2Comp after the churn, untimed: a random fifth of the N movers lose Velocity and get it back, in another random order; a random tenth of the 10N others are deleted and as many created with Position (one entity at a time, fixed seed). Removal swaps a storage's last component into the hole and a component given back is appended, so the movers' Position and Velocity no longer line up and most runs of the join are short; a group keeps them packed. Plain is Query2Comp's: an array of structs has no storage order to lose.",
	"FrameChurn":          "A whole frame on Query2Comp's churned world: 1% of the 11N entities change, one entity at a time (a mover loses its Velocity and gets it back for every five others deleted and replaced: 0.22N calls, in three systems, deletions through `AllStoragesViewMut.DeleteEntity`), then the move system runs. ns/entity is the frame's time per entity the query visits (N); the world keeps mixing from frame to frame. The plain baseline makes the same changes to two tables of slices (movers and others: swap-remove, a free list of indices, a row moved between the tables when a Velocity is taken or given) and loops over the movers' table. The table below it compares the frame with Query2Comp's query alone on a fresh world.",
	"SharedJoins":         "Two systems join Position with different partners, as a new user writes them with the default join (range over `All()`), in one workload: move (Position and Velocity) and count (Position and a tag every fourth mover holds). N movers have Position and Velocity, then 15 entities have Position alone, so Velocity drives move and the tag drives count: both want Position in their driver's order. slipway-noalign is the same frame with `SetAutoAlign(false)`; slipway-noextras the frame without the 15 entities, where Position drives move. Plain loops over a slice of structs, then over the tagged movers' indices.",
	"SharedJoins3":        "SharedJoins with a third system over Position and a component every third mover holds.",
	"Query32Arch":         "As Query2Comp, but without the 10N and with each of the N also having a random subset of C1..C5 (32 combinations).",
	"Query256Arch":        "N entities with Position and Velocity, then 4N with Position and a random subset of C1..C8 (256 combinations): the Go ECS benchmarks' order of creation, on which the issue's figures for Ark were measured. The movers come first in the Position storage.",
	"Query256ArchChurned": "Query256Arch after the churn, untimed: a random fifth of the movers lose Position or Velocity (one of the two at random) and get it back, in another random order; a random tenth of the 4N others are deleted and as many created with the same components. Plain is Query256Arch's.",
	"Query256ArchMixed":   "The entities of Query256Arch created in a random interleaving, so the movers' positions are spread among 5N in the Position storage and the join's probes into it skip. Most movers come as runs of one entity there. It shows what a sparse set's join pays for the order its storages were filled in, and that a packed group does not pay it.",
	"Random":              "N entities with Position, their ids shuffled; a round sums Position.X looking each id up through a `View`: with `View.Get` for each id (slipway), or ranging over `View.Lookup(ids)` (slipway-bulk), which keeps the storage's layout in registers for the whole loop. Plain indexes a slice with the same shuffled indices. The entities were created in order with their Position in a new world, so the storage holds entity i at position i: a lookup of such an id reads the component at its index and skips the sparse page (the storage's identity prefix; RandomMoved shows a storage without it).",
	"RandomChurned":       "Random after the churn, untimed: a random fifth of the entities lose their Position and get it back, in another random order, and a random tenth are deleted and as many created with Position; a round looks up the N live entities in a shuffled order. The storage no longer follows the entities' indices for most of them, and the new entities have a new generation. Plain is Random's: a slice indexed with shuffled indices has nothing to churn.",
	"RandomMoved":         "Random after every Position was taken out and put back in another shuffled order, so the storage's order follows neither the entities' indices nor the ids' order, and every lookup reads the sparse page, then the component. It shows Random without the identity prefix.",
	"Create2Comp":         "Create N entities with Position and Velocity in a world where N such entities were created and deleted before (deleting them again is not timed). Slipway creates one at a time in a system (`EntitiesViewMut.AddEntity`, `ViewMut.AddComponentUnchecked`); bulk uses `BulkAppendEntity2`, reusing one id slice; fill creates them with zero components in place with `BulkNewEntity2` (nil fill), reusing one id slice; plain appends to a slice with room for N; plain-grow grows two slices with room for N by N zero values each (the baseline of fill).",
	"Create2CompAlloc":    "Create a fresh world and N entities with Position and Velocity in it, every round: growth and garbage collection included. Plain appends to a nil slice.",
	"Create10Comp":        "As Create2Comp with C1..C10. `BulkAppendEntityN` stops at 8 components: bulk creates the entities with C1..C8 in one call and adds C9 and C10 with `BulkAddComponent2`; fill does the same in place with zero components, `BulkNewEntity8` then `BulkFillComponent2` (nil fills); plain-grow grows ten slices by N zero values each.",
	"AddRemove":           "N entities with Position; a round adds Velocity to all, then removes it from all (after one warm-up round); ns/entity is per add+remove pair. Slipway uses the checked `ViewMut.AddComponent` and `ViewMut.Delete`. Bulk calls `BulkAddComponent1` with all the ids, then `BulkDeleteComponent[Velocity]`. Plain keeps the component in a slice indexed by entity with a presence flag.",
	"AddRemoveLarge":      "As AddRemove on entities that also have C1..C10.",
	"Delete2Comp":         "Delete N entities that have Position and Velocity (re-creating them between rounds is not timed). Slipway deletes one at a time in a system holding an `AllStoragesViewMut` (whose `DeleteEntity` strips the components of the entities it deleted together, one pass per storage, when the system ends). Bulk deletes the list of ids with one `World.DeleteEntities` call, slipway-any with one `DeleteAny` of a type they all have; the entities make up whole storages, which both clear at once. Plain clears the entity in a slice of structs, marks it dead and pushes it on a free list; plain-truncate keeps one slice per component type, bumps each entity's generation, pushes its index on a free list and truncates the slices: deleting whole storages without an ECS.",
	"Delete10Comp":        "As Delete2Comp with entities having C1..C10.",
	"NewWorld":            "Create an empty world; the figure is per world.",
	"RunOverhead":         "The fixed cost of running a system, which decides small worlds: a system that borrows `ViewMut[Position]` and `View[Velocity]` in a world of one entity and does nothing. slipway runs it with `World.Run` (called through reflect.Value.Call), slipway-typed as an `ecs.Func2` (called directly), slipway-workload as the one system of a workload run with `RunWorkload`, slipway-workload-typed the same with the system made by `ecs.Func2`. reflect-call calls the function with `reflect.Value.Call` and borrows nothing: the part of a plain function's run that no borrowing change can remove. The figure is per run.",
	"SimpleInsert":        "Rust ecs_bench_suite: create a world and 10,000 entities with a 4×4 matrix, a position, a rotation and a velocity (float32), every round.",
	"SimpleIter":          "Rust ecs_bench_suite: add velocity to position for 10,000 entities with the four components of SimpleInsert.",
	"FragIter":            "Rust ecs_bench_suite: 26 component types A..Z, 20 entities with each, all also having Data; a round doubles every Data (Slipway iterates `ViewMut.Slice`).",
	"HeavyCompute":        "Rust ecs_bench_suite: 1,000 entities; each round inverts every entity's 4×4 matrix 100 times and transforms its position. slipway runs sequentially (range over `Join2(...).All()`), slipway-par with `Join2(...).ParEachMin(16, fn)`. CPU time of slipway-par adds up both cores.",
	"Schedule":            "Rust ecs_bench_suite: 10,000 entities each of (A,B), (A,B,C), (A,B,C,D), (A,B,C,E); a workload of three systems swaps A/B, C/D and C/E. slipway runs it with `World.RunWorkload` (A/B beside the others), slipway-seq runs the three systems one after the other with `World.Run`; ns/entity is over the 40,000 entities.",
	"AddRemoveComponent":  "Rust ecs_bench_suite: 10,000 entities with A; a round adds B to all, then removes it from all.",
}

// freshOf maps a churned workload to the workload it churns: the page
// compares them side by side, and the churned workload's chart shows the
// fresh figures too. FrameChurn is compared with Query2Comp's query alone.
var freshOf = map[string]string{
	"Query2CompChurned":   "Query2Comp",
	"Query256ArchChurned": "Query256Arch",
	"RandomChurned":       "Random",
	"FrameChurn":          "Query2Comp",
}

// speedups are the comparisons stated under a workload's table: how many
// times faster impl fast is than impl slow (wall time).
var speedups = map[string][2]string{
	"HeavyCompute": {"slipway", "slipway-par"},
	"Schedule":     {"slipway-seq", "slipway"},
}

// formatNs formats a time in ns with three significant digits or so.
func formatNs(v float64) string {
	switch {
	case v >= 1000:
		return groupThousands(int64(math.Round(v)))
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
}

// groupThousands formats n with commas: 1,000,000.
func groupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func formatBytes(v float64) string {
	switch {
	case v >= 1<<20:
		return strconv.FormatFloat(v/(1<<20), 'f', 1, 64) + " MiB"
	case v >= 1<<10:
		return strconv.FormatFloat(v/(1<<10), 'f', 1, 64) + " KiB"
	default:
		return strconv.FormatFloat(v, 'f', 0, 64) + " B"
	}
}

func formatRatio(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) + "×" }

// index finds results by benchmark.
type index map[string]result

func key(workload, impl string, n int) string { return workload + "/" + impl + "/" + strconv.Itoa(n) }

func indexOf(rs []result) index {
	ix := index{}
	for _, r := range rs {
		ix[key(r.workload, r.impl, r.n)] = r
	}
	return ix
}

func (ix index) get(workload, impl string, n int) (result, bool) {
	r, ok := ix[key(workload, impl, n)]
	return r, ok
}

// ratioToPlain returns r's metric divided by plain's at the same N.
func (ix index) ratioToPlain(r result, unit string) (float64, bool) {
	return ix.ratioTo(r, "plain", unit)
}

// ratioTo returns r's figure in unit divided by impl's at the same
// workload and N.
func (ix index) ratioTo(r result, impl, unit string) (float64, bool) {
	p, ok := ix.get(r.workload, impl, r.n)
	if !ok || r.impl == impl {
		return 0, false
	}
	v, ok1 := r.value(unit)
	pv, ok2 := p.value(unit)
	if !ok1 || !ok2 || pv == 0 {
		return 0, false
	}
	return v / pv, true
}

// workloads returns the workloads of rs in page order.
func workloads(rs []result) []string {
	var ws []string
	for _, r := range rs {
		if !slices.Contains(ws, r.workload) {
			ws = append(ws, r.workload)
		}
	}
	return ws
}

// pageInfo is what the page says about the run besides the results.
type pageInfo struct {
	reportCommand string // how the page was made
	testCommand   string // the go test command that ran the suite
	cpu           string
	cores         string
	goVersion     string
	commit        string // the commit the suite was built from
	date          string
	duration      string
	loadBefore    string
	loadAfter     string
	counts        string // -count
	interleaved   bool   // one run of each benchmark per pass over the suite (runSuite), not -count runs in a row
	chartDir      string // where the charts are, relative to the page
	inFile        string // the raw results the page was made from (-in), relative to the module root; "" when it ran the suite
	memory        []memRow
	memoryN       int // the entities of the memory table
}

// writePage writes the Markdown report.
func writePage(w io.Writer, rs []result, info pageInfo) error {
	ix := indexOf(rs)
	var b strings.Builder
	b.WriteString("# Benchmarks\n\n")
	if info.inFile != "" {
		fmt.Fprintf(&b, "<!-- Generated by `go run ./bench/cmd/report -in %s` from the results `%s` measured. Do not edit; run either again. -->\n\n", info.inFile, info.reportCommand)
	} else {
		fmt.Fprintf(&b, "<!-- Generated by `%s`. Do not edit; run it again. -->\n\n", info.reportCommand)
	}
	b.WriteString("Slipway measured on the workloads the Go ECS community compares on, beside hand-written Go over plain slices doing the same work (`plain`, the speed of light) in the same run, and a Go port of the Rust community's cross-ECS suite. ")
	b.WriteString("See [bench/README.md](../bench/README.md) for how each workload is built and timed.\n\n")
	writeSummary(&b, ix)
	b.WriteString("## How to read the tables\n\n")
	b.WriteString("A workload named `…Churned` is its namesake on a set-up that went through churn first, untimed: components taken away and given back, entities deleted and replaced, one at a time, as between the frames of a game. It follows its fresh namesake on the page, with a table of the two side by side, and its chart shows the fresh wall times dotted. FrameChurn times whole frames of such changes followed by the query.\n\n")
	b.WriteString("Implementations: `plain` is hand-written Go; `sparse` is hand-written Go over the smallest paged sparse set that stores components as Slipway does (same pages, entries and dense arrays; no borrow checks, systems, errors, tracking or groups): what the data structure itself costs, so that `plain` to `sparse` is the data structure and `sparse` to `slipway` is Slipway's own overhead (Slipway's joins and lookups have tricks the reference lacks, so it can be faster); `sparse-group` is that reference with a packed group over Position and Velocity kept by hand as Slipway keeps its groups (the add/remove workloads); `slipway` is the one-at-a-time or iterating path a system would use; `slipway-bulk` uses the bulk calls, once per round for all N entities (from 65,536 ids, they share their work with the worker pool, so their wall time can be below their CPU time; they get the ids in the order the creating call returned them, runs of consecutive indices that they write a page of index entries at a time); in Random and RandomMoved, `slipway-bulk` is the bulk look-up instead: one range over `View.Lookup` with all N shuffled ids, on one goroutine; `slipway-par` and `slipway-seq` are the parallel and sequential runs of HeavyCompute and Schedule.\n\n")
	fmt.Fprintf(&b, "Every figure is the median of %s runs. ", info.counts)
	if info.interleaved {
		b.WriteString("The runs are interleaved: the report runs the whole suite once per pass, so a benchmark's runs are spread over the whole run, and a burst of load on the shared machine lands in one of them rather than in all. ")
	}
	fmt.Fprintf(&b, "**ns/entity** is wall time per round divided by the entities the round handles. **CPU ns/entity** is the CPU time the benchmark process used over the same rounds, per entity: on a shared machine it leaves out the time the process waited for a core, so it is the steadier figure here; for parallel work it adds up the cores.\n\n")

	b.WriteString("## Machine and run\n\n")
	b.WriteString("| | |\n| --- | --- |\n")
	fmt.Fprintf(&b, "| CPU | %s |\n| Cores | %s |\n| Go | %s |\n| Commit | %s |\n| Date | %s |\n| Suite run time | %s |\n| Load average (1 min) before / after | %s / %s |\n\n",
		info.cpu, info.cores, info.goVersion, info.commit, info.date, info.duration, info.loadBefore, info.loadAfter)
	b.WriteString("The machine is shared with other work and was busy during the run (see the load average: above 2 means processes were waiting for one of the 2 cores). Wall times are therefore inflated and noisy, more so for small N, where a round is short; compare implementations at the same N, run close together, rather than across runs, and read the CPU column for what the code itself costs. Parallel speedups (HeavyCompute, Schedule) need two free cores at once: the \"cores busy\" figure under those tables says whether the run had them.\n\n")
	b.WriteString("Command:\n\n```\n" + info.testCommand + "\n```\n\n")

	writeMemory(&b, info.memory, info.memoryN)
	b.WriteString("## Workloads\n\n")
	for _, wl := range workloads(rs) {
		fmt.Fprintf(&b, "### %s\n\n", wl)
		if d, ok := descriptions[wl]; ok {
			b.WriteString(d + "\n\n")
		}
		fmt.Fprintf(&b, "![%s: ns per entity by implementation](%s/%s.svg)\n\n", wl, info.chartDir, wl)
		b.WriteString("| N | impl | ns/entity | × plain | CPU ns/entity | × plain | allocs/op | B/op |\n| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
		rows := slices.DeleteFunc(slices.Clone(rs), func(r result) bool { return r.workload != wl })
		slices.SortStableFunc(rows, func(a, c result) int { return a.n - c.n })
		for _, r := range rows {
			cells := []string{groupThousands(int64(r.n)), "`" + r.impl + "`"}
			for _, unit := range []string{"ns/entity", "cpu-ns/entity"} {
				v, ok := r.value(unit)
				cells = append(cells, cell(v, ok, formatNs))
				ratio, ok := ix.ratioToPlain(r, unit)
				cells = append(cells, cell(ratio, ok, formatRatio))
			}
			a, ok := r.metrics["allocs/op"]
			cells = append(cells, cell(a, ok, func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }))
			by, ok := r.metrics["B/op"]
			cells = append(cells, cell(by, ok, formatBytes))
			b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
		}
		b.WriteString("\n")
		writeFreshChurned(&b, ix, wl, rows)
		if pair, ok := speedups[wl]; ok {
			for _, n := range sizesOf(rows) {
				slow, ok1 := ix.get(wl, pair[0], n)
				fast, ok2 := ix.get(wl, pair[1], n)
				if ok1 && ok2 && fast.metrics["ns/entity"] > 0 {
					speed, how := slow.metrics["ns/entity"]/fast.metrics["ns/entity"], "faster"
					if speed < 1 {
						speed, how = 1/speed, "slower"
					}
					fmt.Fprintf(&b, "`%s` runs %s %s than `%s` (wall time, N = %s)", pair[1], formatRatio(speed), how, pair[0], groupThousands(int64(n)))
					if cores, ok := coresBusy(fast); ok {
						fmt.Fprintf(&b, "; it kept %s cores busy on average (CPU time / wall time)", strconv.FormatFloat(cores, 'f', 2, 64))
					}
					b.WriteString(".\n\n")
				}
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeFreshChurned writes the table comparing the churned workload wl
// (its results rows) with its fresh counterpart, for every implementation
// and N measured in both. It writes nothing for other workloads.
func writeFreshChurned(b *strings.Builder, ix index, wl string, rows []result) {
	fresh, ok := freshOf[wl]
	if !ok {
		return
	}
	var lines []string
	for _, r := range rows {
		f, ok := ix.get(fresh, r.impl, r.n)
		if !ok {
			continue
		}
		cells := []string{groupThousands(int64(r.n)), "`" + r.impl + "`"}
		for _, unit := range []string{"ns/entity", "cpu-ns/entity"} {
			fv, ok1 := f.value(unit)
			cv, ok2 := r.value(unit)
			cells = append(cells, cell(fv, ok1, formatNs), cell(cv, ok2, formatNs), cell(cv/fv, ok1 && ok2 && fv > 0, formatRatio))
		}
		lines = append(lines, "| "+strings.Join(cells, " | ")+" |\n")
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(b, "Fresh (%s) and churned (%s) side by side, ns per entity:\n\n", fresh, wl)
	b.WriteString("| N | impl | fresh | churned | × fresh | fresh CPU | churned CPU | × fresh |\n| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, l := range lines {
		b.WriteString(l)
	}
	b.WriteString("\n")
}

// coresBusy returns how many cores r kept busy on average: its CPU time
// over its wall time. Below 2 for parallel work, the machine did not give
// the benchmark two cores at once.
func coresBusy(r result) (float64, bool) {
	wall, cpu := r.metrics["ns/entity"], r.metrics["cpu-ns/entity"]
	if wall <= 0 || cpu <= 0 {
		return 0, false
	}
	return cpu / wall, true
}

func cell(v float64, ok bool, format func(float64) string) string {
	if !ok {
		return "—"
	}
	return format(v)
}

// sizesOf returns the distinct N of rs, ascending.
func sizesOf(rs []result) []int {
	var ns []int
	for _, r := range rs {
		ns = append(ns, r.n)
	}
	slices.Sort(ns)
	return slices.Compact(ns)
}

// chartFor returns the chart of one workload: a log-log line chart of
// ns/entity (wall, solid; CPU, dashed) against N, one color per
// implementation, or a bar chart when the workload was measured at one N.
func chartFor(wl string, rs []result) interface{ writeSVG(io.Writer) error } {
	rows := slices.DeleteFunc(slices.Clone(rs), func(r result) bool { return r.workload != wl })
	var impls, unknown []string
	for _, r := range rows {
		if !slices.Contains(impls, r.impl) {
			impls = append(impls, r.impl)
			if _, ok := implColors[r.impl]; !ok {
				unknown = append(unknown, r.impl)
			}
		}
	}
	ns := sizesOf(rows)
	if len(ns) == 1 {
		c := barChart{title: wl + ": ns per entity, N = " + groupThousands(int64(ns[0])), xLabel: "ns per entity (solid: wall time, light: CPU time)"}
		for _, impl := range impls {
			for _, r := range rows {
				if r.impl != impl {
					continue
				}
				color := colorOf(impl, unknown)
				if v, ok := r.value("ns/entity"); ok {
					c.bars = append(c.bars, bar{label: impl + " (wall)", value: v, color: color})
				}
				if v, ok := r.value("cpu-ns/entity"); ok {
					c.bars = append(c.bars, bar{label: impl + " (CPU)", value: v, color: color, faded: true})
				}
			}
		}
		return c
	}
	c := lineChart{title: wl + ": ns per entity", xLabel: "N (entities, log scale)", yLabel: "ns per entity (log scale)"}
	for _, impl := range impls {
		color := colorOf(impl, unknown)
		wall := series{name: impl + " (wall)", color: color}
		cpu := series{name: impl + " (CPU)", color: color, dashed: true}
		for _, r := range rows {
			if r.impl != impl {
				continue
			}
			if v, ok := r.value("ns/entity"); ok {
				wall.points = append(wall.points, point{float64(r.n), v})
			}
			if v, ok := r.value("cpu-ns/entity"); ok {
				cpu.points = append(cpu.points, point{float64(r.n), v})
			}
		}
		c.series = append(c.series, wall, cpu)
		c.legend = append(c.legend, legendEntry{name: impl, color: color})
	}
	c.legend = append(c.legend,
		legendEntry{name: "solid: wall time", color: "#333333"},
		legendEntry{name: "dashed: CPU time", color: "#333333", dashed: true})
	// A churned workload shows its fresh counterpart's wall times too,
	// dotted, for the implementations measured in both.
	if fresh, ok := freshOf[wl]; ok {
		added := false
		for _, impl := range impls {
			s := series{name: impl + " (" + fresh + ", fresh, wall)", color: colorOf(impl, unknown), dotted: true}
			for _, r := range rs {
				if r.workload == fresh && r.impl == impl {
					if v, ok := r.value("ns/entity"); ok {
						s.points = append(s.points, point{float64(r.n), v})
					}
				}
			}
			if len(s.points) > 0 {
				c.series, added = append(c.series, s), true
			}
		}
		if added {
			c.title = wl + " (dotted: " + fresh + ", fresh): ns per entity"
			c.legend = append(c.legend, legendEntry{name: "dotted: fresh, wall", color: "#333333", dotted: true})
		}
	}
	return c
}
