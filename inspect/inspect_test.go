package inspect_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/inspect"
)

var update = flag.Bool("update", false, "rewrite the golden files")

type (
	pos    struct{ X, Y float64 }
	vel    struct{ X, Y float64 }
	player struct{ Size float64 }
	friend struct{ Size float64 }
	eaten  struct{}
)

func movePlayer(ecs.UniqueViewMut[player])                                {}
func moveFriends(ecs.UniqueView[player], ecs.ViewMut[pos], ecs.View[vel]) {}
func grow(ecs.ViewMut[friend])                                            {}
func collide(ecs.UniqueViewMut[player], ecs.View[friend], ecs.ViewMut[eaten]) {
}
func cleanUp(ecs.AllStoragesViewMut)                       {}
func render(ecs.UniqueView[player], ecs.View[pos])         {}
func count(ecs.View[friend], ecs.UniqueView[player]) error { return nil }

// gameWorld is a world with a workload shaped like a small game's frame,
// a nested workload, a label constraint and a system bound to the caller.
func gameWorld(t testing.TB) *ecs.World {
	t.Helper()
	w := ecs.NewWorld()
	noErr(t, ecs.AddUnique(w, player{Size: 1}))
	for i := range 100 {
		_, err := ecs.AddEntity3(w, pos{X: float64(i)}, vel{X: 1}, friend{Size: 1})
		noErr(t, err)
	}
	noErr(t, w.AddWorkload("main_loop",
		movePlayer, moveFriends, grow,
		ecs.Workload("eat", collide, cleanUp),
		ecs.System(count).Label("stats").After("eat"),
		ecs.System(render).OnCaller(),
	))
	noErr(t, w.AddWorkload("setup", ecs.System(func(ecs.UniqueViewMut[player]) {}).Named("reset")))
	return w
}

func noErr(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// fixedReport is gameWorld's report with made-up timings, so that the page
// is the same at every run.
func fixedReport(t *testing.T) *inspect.Report {
	t.Helper()
	r, err := inspect.Collect(gameWorld(t))
	noErr(t, err)
	r.Title = "A small game"
	wl := &r.Workloads[0]
	if wl.Plan.Workload != "main_loop" {
		t.Fatalf("first workload %q, want main_loop (name order)", wl.Plan.Workload)
	}
	us := time.Microsecond
	// start, duration and worker of each system, in a run that ran them
	// all but "stats" (run 7; "stats" last ran in run 6).
	timing := [][3]time.Duration{{0, 12 * us, 0}, {1 * us, 40 * us, 1}, {13 * us, 9 * us, 0}, {41 * us, 15 * us, 1}, {57 * us, 30 * us, 0}, {88 * us, 5 * us, 0}, {93 * us, 20 * us, 0}}
	for i := range wl.Stats {
		s := &wl.Stats[i]
		tm := timing[i]
		s.Runs, s.LastRun, s.LastStart, s.Last, s.LastWorker = 10, 7, tm[0], tm[1], int(tm[2])
		s.Total = 10 * tm[1]
	}
	wl.Stats[5].LastRun = 6
	return r
}

func TestGoldenPage(t *testing.T) {
	var b bytes.Buffer
	noErr(t, fixedReport(t).WriteHTML(&b))
	golden(t, "page.html", b.Bytes())
}

// golden compares got with the file name of testdata, which -update
// rewrites. On a difference, got is written beside the test's other
// temporary files, to be compared or opened in a browser.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		noErr(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	noErr(t, err)
	if !bytes.Equal(got, want) {
		dst := filepath.Join(t.TempDir(), name)
		noErr(t, os.WriteFile(dst, got, 0o644))
		t.Fatalf("%s differs from %s (written to %s; go test -run %s -update to accept)", name, path, dst, t.Name())
	}
}

// svgs returns the <svg> elements of page.
func svgs(t *testing.T, page string) []string {
	t.Helper()
	var out []string
	for rest := page; ; {
		i := strings.Index(rest, "<svg")
		if i < 0 {
			return out
		}
		j := strings.Index(rest[i:], "</svg>")
		if j < 0 {
			t.Fatalf("unclosed <svg> at %q", rest[i:min(len(rest), i+80)])
		}
		out = append(out, rest[i:i+j+len("</svg>")])
		rest = rest[i+j:]
	}
}

// wellFormed checks that an SVG element parses as XML.
func wellFormed(t *testing.T, svg string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(svg))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("SVG not well formed: %v\n%s", err, svg)
		}
	}
}

func TestPageOfRealRuns(t *testing.T) {
	w := gameWorld(t)
	w.SetPool(ecs.NewPool(1))
	w.SetTracing(true)
	for range 5 {
		noErr(t, w.RunWorkload("main_loop"))
	}
	var b strings.Builder
	noErr(t, inspect.WriteHTML(&b, w, "main_loop"))
	page := b.String()
	p, err := w.WorkloadPlan("main_loop")
	noErr(t, err)
	for _, s := range p.Systems {
		if !strings.Contains(page, s.Name) {
			t.Errorf("the page does not name system %q", s.Name)
		}
	}
	for _, svg := range svgs(t, page) {
		wellFormed(t, svg)
	}
	if n, want := strings.Count(page, `class="system"`), len(p.Systems); n != want {
		t.Errorf("%d system boxes, want %d", n, want)
	}
	if n, want := strings.Count(page, `class="bar"`), len(p.Systems); n != want {
		t.Errorf("%d bars in the timeline, want %d (every system ran)", n, want)
	}
	waits := 0
	for _, s := range p.Systems {
		if s.After >= 0 {
			waits++
		}
	}
	if n := strings.Count(page, `class="wait"`); n != waits || waits == 0 {
		t.Errorf("%d arrows, want %d", n, waits)
	}
	if strings.Contains(page, "setup") {
		t.Error("the page shows the workload setup, which was not asked for")
	}
}

func TestPageWithoutTracing(t *testing.T) {
	w := gameWorld(t)
	noErr(t, w.RunWorkload("main_loop"))
	var b strings.Builder
	noErr(t, inspect.WriteHTML(&b, w))
	page := b.String()
	if strings.Count(page, "No traced run yet") != 2 || strings.Contains(page, `class="bar"`) {
		t.Error("with tracing off, the page should say there is no traced run, for each workload, and draw no bar")
	}
}

func TestPageEscapes(t *testing.T) {
	w := ecs.NewWorld()
	name := `<script>alert("x")</script> & 'y'`
	noErr(t, w.AddWorkload(`<b>"wl"</b>`, ecs.System(func(ecs.ViewMut[pos]) {}).Named(name), ecs.System(func(ecs.View[pos]) {}).Named("b")))
	w.SetTracing(true)
	noErr(t, w.RunWorkload(`<b>"wl"</b>`))
	var b strings.Builder
	noErr(t, inspect.WriteHTML(&b, w))
	page := b.String()
	if strings.Contains(page, "<script>") || strings.Contains(page, "<b>") {
		t.Fatal("a name reached the page unescaped")
	}
	if !strings.Contains(page, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &#39;y&#39;") {
		t.Fatal("the page does not show the escaped name")
	}
	for _, svg := range svgs(t, page) {
		wellFormed(t, svg)
	}
}

type failWriter struct{}

var errWrite = errors.New("disk full")

func (failWriter) Write([]byte) (int, error) { return 0, errWrite }

func TestBadReports(t *testing.T) {
	good := func() *inspect.Report {
		r, err := inspect.Collect(gameWorld(t), "main_loop")
		noErr(t, err)
		return r
	}
	tests := []struct {
		name   string
		break_ func(r *inspect.Report)
		want   string
	}{
		{"no plan", func(r *inspect.Report) { r.Workloads[0].Plan = nil }, "workload 0 has no plan"},
		{"stats short", func(r *inspect.Report) { r.Workloads[0].Stats = r.Workloads[0].Stats[1:] }, `"main_loop" has 7 systems and 6 statistics`},
		{"after itself", func(r *inspect.Report) { r.Workloads[0].Plan.Systems[2].After = 2 }, "system 2 waits for system 2"},
		{"after out of range", func(r *inspect.Report) { r.Workloads[0].Plan.Systems[2].After = 99 }, "system 2 waits for system 99"},
		{"index out of place", func(r *inspect.Report) { r.Workloads[0].Plan.Systems[4].Index = 9 }, "system 4 has index 9"},
		{"negative batch", func(r *inspect.Report) { r.Workloads[0].Plan.Systems[1].Batch = -1 }, "system 1 in batch -1"},
		{"negative time", func(r *inspect.Report) { r.Workloads[0].Stats[3].LastStart = -1 }, "negative statistics for system 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := good()
			tt.break_(r)
			var b strings.Builder
			err := r.WriteHTML(&b)
			if !errors.Is(err, inspect.ErrReport) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want ErrReport saying %q", err, tt.want)
			}
			if b.Len() != 0 {
				t.Fatalf("%d bytes written for a bad report, want none", b.Len())
			}
		})
	}
	if _, err := inspect.Collect(gameWorld(t), "nope"); !errors.Is(err, ecs.ErrUnknownWorkload) {
		t.Errorf("unknown workload: %v, want ErrUnknownWorkload", err)
	}
	if _, err := inspect.Collect(nil); err == nil || !strings.Contains(err.Error(), "nil *ecs.World") {
		t.Errorf("nil world: %v", err)
	}
	if err := good().WriteHTML(failWriter{}); !errors.Is(err, errWrite) {
		t.Errorf("failing writer: %v, want its error", err)
	}
}

func TestEmptyReport(t *testing.T) {
	var b strings.Builder
	noErr(t, (&inspect.Report{}).WriteHTML(&b))
	if !strings.Contains(b.String(), "No workloads.") || !strings.Contains(b.String(), "<title>Slipway workloads</title>") {
		t.Fatalf("empty report:\n%s", b.String())
	}
}

func TestTimelineSVG(t *testing.T) {
	r := fixedReport(t)
	var b bytes.Buffer
	noErr(t, r.WriteTimelineSVG(&b, "main_loop"))
	svg := b.String()
	wellFormed(t, svg)
	if !strings.HasPrefix(svg, "<svg") || !strings.HasSuffix(svg, "</svg>\n") || !strings.Contains(svg, "<style>") {
		t.Fatalf("not a standalone SVG:\n%s", svg)
	}
	if n := strings.Count(svg, `class="bar"`); n != 6 {
		t.Errorf("%d bars, want 6 (one system skipped in the last run)", n)
	}
	golden(t, "timeline.svg", b.Bytes())

	var sink strings.Builder
	if err := r.WriteTimelineSVG(&sink, "nope"); !errors.Is(err, inspect.ErrReport) || !strings.Contains(err.Error(), `no workload "nope"`) {
		t.Errorf("unknown workload: %v", err)
	}
	if err := r.WriteTimelineSVG(&sink, "setup"); !errors.Is(err, inspect.ErrReport) || !strings.Contains(err.Error(), "no traced run") {
		t.Errorf("workload never traced: %v", err)
	}
	if sink.Len() != 0 {
		t.Errorf("%d bytes written on error", sink.Len())
	}
	if err := r.WriteTimelineSVG(failWriter{}, "main_loop"); !errors.Is(err, errWrite) {
		t.Errorf("failing writer: %v, want its error", err)
	}
}
