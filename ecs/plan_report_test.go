package ecs_test

// The plan's exports cannot be misread: systems are referred to by index,
// workload paths escape "/" in names, and names are quoted or escaped by
// each format's rules. The golden files are in testdata/plans; run
// go test ./ecs -run TestGoldenPlan -update to rewrite them.

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// oddName holds every character an export format might read: quotes, a
// backslash, newlines, HTML markup and an entity, DOT's and Mermaid's
// punctuation, a tab and other control characters, and non-ASCII text.
const oddName = "say \"hi\"\n<b>&amp;</b> #quot; [x] | {y} \\N 50% a/b :style:#35; `md` \t\r\x00 \u2028 é"

func pMove(ecs.ViewMut[wPos])     {}
func pRead(ecs.View[wPos])        {}
func pClock(ecs.View[wClock])     {}
func pAll(ecs.AllStoragesViewMut) {}
func pLate(ecs.View[wClock])      {}

// oddPlanWorld returns a world with the workload "main": the same
// function (pMove) at the top and in two nested workloads, "phys/ics"
// (one workload whose name has a slash) and "ics" inside "phys", a
// system named oddName, on the caller, with an ordering constraint (whose
// reason names it), a workload named "100%", and an ordering constraint
// on a label with quotes.
func oddPlanWorld(t *testing.T) *ecs.World {
	t.Helper()
	w := ecs.NewWorld()
	must(t, w.AddWorkload("main",
		pMove,
		ecs.Workload("phys/ics", pMove, pRead),
		ecs.Workload("phys", ecs.Workload("ics", pMove)),
		ecs.System(pClock).Named(oddName).Label(`the "odd" one`).OnCaller().Before("late"),
		ecs.Workload("100%", ecs.System(pLate).After(`the "odd" one`)),
		ecs.System(pLate).Label("late"),
		pAll,
	))
	return w
}

// TestGoldenPlanOddNames: every export of a plan with the same function at
// several levels, a workload named "phys/ics" beside "ics" in "phys", and
// a system with an odd name, against its golden files.
func TestGoldenPlanOddNames(t *testing.T) {
	checkGolden(t, "odd_names", oddPlanWorld(t), "main")
}

// TestPlanRefersBySystemIndex: the JSON export refers to systems by index
// (batches and after), reads back as the same Plan, and tells apart the
// same function at different levels; paths are unambiguous.
func TestPlanRefersBySystemIndex(t *testing.T) {
	w := oddPlanWorld(t)
	p, err := w.WorkloadPlan("main")
	must(t, err)
	js, err := p.JSON()
	must(t, err)
	var back ecs.Plan
	must(t, json.Unmarshal(js, &back))
	deepEqual(t, "the plan read back from its JSON", &back, p)

	type where struct{ name, path string }
	var got []where
	seen := map[int]bool{}
	for i, s := range p.Systems {
		equal(t, "index", s.Index, i)
		got = append(got, where{s.Name, s.Workload})
		if s.After >= 0 {
			isTrue(t, s.After < len(p.Systems) && p.Systems[s.After].Batch == s.Batch-1,
				"system %d: after %d is not in the batch before", i, s.After)
		} else {
			equal(t, "batch of a system after none", s.Batch, 0)
		}
	}
	for b, batch := range p.Batches {
		for _, i := range batch {
			isTrue(t, !seen[i], "system %d in two batches", i)
			seen[i] = true
			equal(t, "batch of the system listed", p.Systems[i].Batch, b)
		}
	}
	equal(t, "systems in batches", len(seen), len(p.Systems))
	deepEqual(t, "names and paths", got, []where{
		{"ecs_test.pMove", "main"},
		{"ecs_test.pMove", "main/phys%2Fics"},
		{"ecs_test.pRead", "main/phys%2Fics"},
		{"ecs_test.pMove", "main/phys/ics"},
		{oddName, "main"},
		{"ecs_test.pLate", "main/100%25"},
		{"ecs_test.pLate", "main"},
		{"ecs_test.pAll", "main"},
	})
	deepEqual(t, "labels of the odd system", p.Systems[4].Labels, []string{`the "odd" one`})
	equal(t, "a workload name is no user label", len(p.Systems[1].Labels), 0)
	equal(t, "the constraint's reason", p.Systems[5].Reason, `ordered: "ecs_test.pLate" runs after "the \"odd\" one"`)
	equal(t, "the reason naming the odd system", p.Systems[6].Reason, "ordered: "+strconv.Quote(oddName)+` runs before "late"`)
}

// TestPlanTextReadsOneWay: the text export keeps one line per system and
// one per wait, whatever the names hold, and its quoted names read back.
func TestPlanTextReadsOneWay(t *testing.T) {
	p, err := oddPlanWorld(t).WorkloadPlan("main")
	must(t, err)
	lines := strings.Split(strings.TrimSuffix(p.String(), "\n"), "\n")
	systems, waits := 0, 0
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "workload "), strings.HasPrefix(l, "batch "):
		case strings.HasPrefix(l, "  #"):
			systems++
			var i int
			_, err := fmt.Sscanf(l, "  #%d ", &i)
			must(t, err)
			q := l[strings.IndexByte(l, '"'):]
			name, err := strconv.QuotedPrefix(q)
			must(t, err)
			s, err := strconv.Unquote(name)
			must(t, err)
			equal(t, "the name of the system on line "+strconv.Quote(l), s, p.Systems[i].Name)
		case strings.HasPrefix(l, "      after #"):
			waits++
		default:
			t.Errorf("line %q is no line of the text format", l)
		}
	}
	equal(t, "system lines", systems, len(p.Systems))
	hasAll(t, p.String(), `#4 "say \"hi\"\n<b>&amp;</b> #quot; [x] | {y} \\N 50% a/b :style:#35; `+"`md`"+` \t\r\x00 \u2028 é" [on caller]`)
}

// The printed plan's first line counts systems and batches in good
// English: "1 system", "1 batch", plurals otherwise.
func TestPlanHeadCounts(t *testing.T) {
	for _, tc := range []struct {
		name  string
		items []any
		want  string
	}{
		{"one system", []any{pMove}, `workload "w": 1 system in 1 batch`},
		{"two in one batch", []any{pRead, pClock}, `workload "w": 2 systems in 1 batch`},
		{"two in two batches", []any{pMove, pRead}, `workload "w": 2 systems in 2 batches`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := ecs.NewWorld()
			noErr(t, w.AddWorkload("w", tc.items...))
			p, err := w.WorkloadPlan("w")
			noErr(t, err)
			if head, _, _ := strings.Cut(p.String(), "\n"); head != tc.want {
				t.Fatalf("head %q, want %q", head, tc.want)
			}
		})
	}
}
