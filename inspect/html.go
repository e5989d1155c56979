package inspect

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/slipway-ecs/slipway/ecs"
)

// The page's drawing sizes, in CSS pixels.
const (
	margin   = 16
	boxW     = 180 // a system's box in the plan graph
	boxH     = 34
	colGap   = 50 // between two batches' columns
	rowGap   = 12 // between two boxes of a column
	laneW    = 80 // the Gantt chart's column of goroutine names
	plotW    = 860
	laneH    = 26
	axisH    = 24
	charW    = 6.6 // the width of a character of the 11 px font, about
	nameRune = 25  // the longest name a box shows whole, in runes
)

// batchFills colour the systems of batch b with batchFills[b%8], in the
// graph and in the timeline alike.
var batchFills = [...]string{"#8ecae6", "#ffb703", "#90be6d", "#f4a261", "#cdb4db", "#f28482", "#84a59d", "#ffd6a5"}

const (
	conflictStroke = "#b3261e" // an arrow for a conflict
	orderStroke    = "#1d5fa8" // an arrow for an ordering constraint
)

const style = `body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1b1b1b;background:#fff}
h1{font-size:22px;margin:0 0 12px}h2{font-size:18px;margin:28px 0 4px;border-top:1px solid #ccc;padding-top:16px}
h3{font-size:15px;margin:18px 0 6px}p{margin:4px 0}.note{color:#555}
.scroll{overflow-x:auto}svg{display:block}svg text{font:11px system-ui,sans-serif}
table{border-collapse:collapse;margin-top:6px}th,td{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f3f3f3}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
code{font:12px ui-monospace,monospace;background:#f3f3f3;padding:0 3px;border-radius:3px;margin:1px 4px 1px 0;display:inline-block;word-break:break-all}
td.acc{max-width:380px}td.why{max-width:340px;font-size:13px}
code.w{background:#fde2df;color:#8a1c14}.sw{display:inline-block;width:10px;height:10px;border:1px solid #555;margin-right:4px}
.key span{margin-right:14px}`

// WriteHTML writes r as a self-contained HTML page (see the package
// documentation). It fails with [ErrReport] if r's statistics do not match
// its plans, and with the error of out if a write fails.
func (r *Report) WriteHTML(out io.Writer) error {
	if err := r.check(); err != nil {
		return err
	}
	title := r.Title
	if title == "" {
		title = "Slipway workloads"
	}
	b := bufio.NewWriter(out)
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	p("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n<style>\n%s\n</style>\n</head>\n<body>\n", esc(title), style)
	p("<h1>%s</h1>\n", esc(title))
	if len(r.Workloads) == 0 {
		p("<p class=\"note\">No workloads.</p>\n")
	}
	p("<p class=\"key\"><span><svg width=\"30\" height=\"10\" style=\"display:inline\"><line x1=\"0\" y1=\"5\" x2=\"30\" y2=\"5\" stroke=\"%s\" stroke-width=\"2\"/></svg> waits: a conflict</span>", conflictStroke)
	p("<span><svg width=\"30\" height=\"10\" style=\"display:inline\"><line x1=\"0\" y1=\"5\" x2=\"30\" y2=\"5\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"5 3\"/></svg> waits: an ordering constraint</span>", orderStroke)
	p("<span><code class=\"w\">ViewMut[…]</code>writes</span><span><code>View[…]</code>reads</span><span>dashed box: runs on the caller (OnCaller)</span></p>\n")
	for i, wl := range r.Workloads {
		writeWorkload(p, i, wl)
	}
	p("</body>\n</html>\n")
	return b.Flush()
}

// printer writes formatted text to the page.
type printer func(format string, args ...any)

func writeWorkload(p printer, wi int, wl Workload) {
	pl := wl.Plan
	p("<section id=\"w%d\">\n<h2>Workload %s</h2>\n", wi, esc(strconv.Quote(pl.Workload)))
	p("<p>%s in %s.", count(len(pl.Systems), "system"), count(len(pl.Batches), "batch"))
	if len(pl.Sequential) > 0 {
		p(" Sequential: %s.", esc(quoteAll(pl.Sequential)))
	}
	for _, br := range pl.Barriers {
		p(" Barrier in %s: systems %s before %s.", esc(strconv.Quote(br.Workload)), indexList(br.Before), indexList(br.After))
	}
	p("</p>\n")
	p("<h3>Plan</h3>\n<p class=\"note\">A column per batch. A system starts once the systems it follows have ended; the arrow comes from the one that keeps it out of an earlier batch.</p>\n")
	writeGraph(p, wi, pl)
	p("<h3>Last traced run</h3>\n")
	writeTimeline(p, wl)
	p("<h3>Systems</h3>\n")
	writeTable(p, wl)
	p("</section>\n")
}

// place is where a system's box is in the plan graph.
type place struct{ x, y int }

func writeGraph(p printer, wi int, pl *ecs.Plan) {
	places := make([]place, len(pl.Systems))
	rows := make(map[int]int) // boxes so far in each batch
	nbatch := len(pl.Batches)
	maxRows := 0
	for _, s := range pl.Systems {
		r := rows[s.Batch]
		rows[s.Batch] = r + 1
		maxRows = max(maxRows, r+1)
		nbatch = max(nbatch, s.Batch+1)
		places[s.Index] = place{margin + s.Batch*(boxW+colGap), margin + r*(boxH+rowGap)}
	}
	width := 2*margin + max(nbatch, 1)*(boxW+colGap) - colGap
	height := 2*margin + max(maxRows, 1)*(boxH+rowGap) - rowGap
	p("<div class=\"scroll\"><svg class=\"plan\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n", width, height, width, height)
	p("<defs><marker id=\"w%dc\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0L10,5L0,10z\" fill=\"%s\"/></marker>", wi, conflictStroke)
	p("<marker id=\"w%do\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0L10,5L0,10z\" fill=\"%s\"/></marker></defs>\n", wi, orderStroke)
	for b := range nbatch {
		p("<text x=\"%d\" y=\"%d\" fill=\"#555\">batch %d</text>\n", margin+b*(boxW+colGap), margin-4, b)
	}
	// Arrows first, under the boxes.
	for _, s := range pl.Systems {
		if s.After < 0 {
			continue
		}
		from, to := places[s.After], places[s.Index]
		x1, y1 := from.x+boxW, from.y+boxH/2
		x2, y2 := to.x, to.y+boxH/2
		if from.x >= to.x { // not from an earlier column: round the box
			x1 = from.x + boxW/2
			y1 = from.y + boxH
			x2 = to.x + boxW/2
			y2 = to.y
		}
		kind, stroke, dash := "c", conflictStroke, ""
		if !strings.HasPrefix(s.Reason, "conflict") {
			kind, stroke, dash = "o", orderStroke, ` stroke-dasharray="5 3"`
		}
		mid := (x1 + x2) / 2
		p("<path class=\"wait\" d=\"M%d,%d C%d,%d %d,%d %d,%d\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\"%s marker-end=\"url(#w%d%s)\"><title>#%d %s waits for #%d %s: %s</title></path>\n",
			x1, y1, mid, y1, mid, y2, x2, y2, stroke, dash, wi, kind,
			s.Index, esc(s.Name), s.After, esc(pl.Systems[s.After].Name), esc(s.Reason))
	}
	for _, s := range pl.Systems {
		at := places[s.Index]
		dash := ""
		if s.OnCaller {
			dash = ` stroke-dasharray="4 3"`
		}
		p("<g class=\"system\"><title>%s</title>", esc(systemTitle(s)))
		p("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"5\" fill=\"%s\" stroke=\"#333\"%s/>", at.x, at.y, boxW, boxH, fill(s.Batch), dash)
		p("<text x=\"%d\" y=\"%d\">#%d %s</text>", at.x+7, at.y+14, s.Index, esc(shorten(s.Name, nameRune)))
		p("<text x=\"%d\" y=\"%d\" fill=\"#333\">%s</text></g>\n", at.x+7, at.y+27, esc(shorten(accessSummary(s.Accesses), nameRune+4)))
	}
	p("</svg></div>\n")
}

// lastRun returns the systems of wl's last traced run, by index, and its
// number; none if it never ran while tracing was on.
func lastRun(wl Workload) (idx []int, run uint64) {
	for _, s := range wl.Stats {
		if s.Runs > 0 {
			run = max(run, s.LastRun)
		}
	}
	for i, s := range wl.Stats {
		if s.Runs > 0 && s.LastRun == run {
			idx = append(idx, i)
		}
	}
	return idx, run
}

func writeTimeline(p printer, wl Workload) {
	idx, run := lastRun(wl)
	if len(idx) == 0 {
		p("<p class=\"note\">No traced run yet: turn tracing on (World.SetTracing) and run the workload to see where and when its systems ran.</p>\n")
		return
	}
	span, workers := extent(wl, idx)
	skipped := len(wl.Plan.Systems) - len(idx)
	p("<p>Run %d took %s on %s.", run, dur(span), count(workers, "goroutine"))
	if skipped > 0 {
		p(" %s did not run in it (run conditions, or none of its runs traced).", count(skipped, "system"))
	}
	p("</p>\n<div class=\"scroll\">")
	timelineSVG(p, wl, idx, false)
	p("</div>\n")
}

// extent returns how long the run of the systems idx of wl took, from its
// start to the end of the last, and on how many goroutines.
func extent(wl Workload, idx []int) (span time.Duration, workers int) {
	for _, i := range idx {
		s := wl.Stats[i]
		span = max(span, s.LastStart+s.Last)
		workers = max(workers, s.LastWorker+1)
	}
	return span, workers
}

// timelineSVG draws the systems idx of wl, those of its last traced run,
// as a Gantt chart: an <svg> element, which carries its own style and
// background if standalone (a picture of its own, rather than part of the
// page).
func timelineSVG(p printer, wl Workload, idx []int, standalone bool) {
	span, workers := extent(wl, idx)
	scale := float64(plotW) / float64(max(span, 1))
	width := laneW + plotW + margin
	height := workers*laneH + axisH + 4
	p("<svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n", width, height, width, height)
	if standalone {
		p("<style>text{font:11px system-ui,sans-serif}</style><rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n")
	}
	for wk := range workers {
		y := wk * laneH
		name := "caller"
		if wk > 0 {
			name = "worker " + strconv.Itoa(wk)
		}
		p("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>", laneW, y, plotW, laneH, [2]string{"#f7f7f7", "#eeeeee"}[wk%2])
		p("<text x=\"4\" y=\"%d\">%s</text>\n", y+laneH/2+4, name)
	}
	step := niceStep(span / 6)
	for t := time.Duration(0); t <= span; t += step {
		x := laneW + int(float64(t)*scale+0.5)
		p("<line x1=\"%d\" y1=\"0\" x2=\"%d\" y2=\"%d\" stroke=\"#ccc\"/><text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%s</text>\n",
			x, x, workers*laneH+4, x, workers*laneH+18, tick(t))
	}
	for _, i := range idx {
		s, ps := wl.Stats[i], wl.Plan.Systems[i]
		x := float64(laneW) + float64(s.LastStart)*scale
		w := max(float64(s.Last)*scale, 1)
		y := s.LastWorker*laneH + 3
		p("<g class=\"bar\"><title>#%d %s: from %s, %s, on %s</title>", i, esc(ps.Name), dur(s.LastStart), dur(s.Last), workerName(s.LastWorker))
		p("<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" stroke=\"#333\" stroke-width=\"0.5\"/>", x, y, w, laneH-6, fill(ps.Batch))
		if label := fit("#"+strconv.Itoa(i)+" "+ps.Name, w-6); label != "" {
			p("<text x=\"%.1f\" y=\"%d\">%s</text>", x+3, y+laneH/2+1, esc(label))
		}
		p("</g>\n")
	}
	p("</svg>\n")
}

func writeTable(p printer, wl Workload) {
	pl := wl.Plan
	p("<table class=\"systems\">\n<tr><th>#</th><th>system</th><th>batch</th><th>accesses</th><th>waits for</th><th>runs</th><th>mean</th><th>last</th></tr>\n")
	for _, s := range pl.Systems {
		p("<tr><td class=\"num\">%d</td><td>%s", s.Index, esc(s.Name))
		if s.Workload != "" && s.Workload != pl.Workload {
			p("<br><span class=\"note\">in %s</span>", esc(strconv.Quote(s.Workload)))
		}
		if len(s.Labels) > 0 {
			p("<br><span class=\"note\">labels %s</span>", esc(quoteAll(s.Labels)))
		}
		if s.OnCaller {
			p("<br><span class=\"note\">on the caller</span>")
		}
		p("</td><td><span class=\"sw\" style=\"background:%s\"></span>%d</td><td class=\"acc\">", fill(s.Batch), s.Batch)
		for _, a := range s.Accesses {
			if writes(a) {
				p("<code class=\"w\">%s</code>", esc(a))
			} else {
				p("<code>%s</code>", esc(a))
			}
		}
		p("</td><td class=\"why\">")
		if s.After >= 0 {
			p("#%d %s: %s", s.After, esc(pl.Systems[s.After].Name), esc(s.Reason))
		}
		p("</td>")
		if wl.Stats != nil && wl.Stats[s.Index].Runs > 0 {
			st := wl.Stats[s.Index]
			p("<td class=\"num\">%d</td><td class=\"num\">%s</td><td class=\"num\">%s</td>", st.Runs, dur(st.Mean()), dur(st.Last))
		} else {
			p("<td class=\"num\">0</td><td></td><td></td>")
		}
		p("</tr>\n")
	}
	p("</table>\n")
}

// systemTitle is the hover text of a system's box: its name, where it is,
// and its accesses.
func systemTitle(s ecs.PlanSystem) string {
	t := fmt.Sprintf("#%d %s", s.Index, s.Name)
	if s.Workload != "" {
		t += " in " + strconv.Quote(s.Workload)
	}
	if s.OnCaller {
		t += ", on the caller"
	}
	if len(s.Accesses) > 0 {
		t += "\n" + strings.Join(s.Accesses, ", ")
	}
	if s.Reason != "" {
		t += "\nafter #" + strconv.Itoa(s.After) + ": " + s.Reason
	}
	return t
}

// accessSummary shortens accesses for a box: "ViewMut[main.Pos]" becomes
// "Pos", written ones marked with "*".
func accessSummary(accesses []string) string {
	parts := make([]string, 0, len(accesses))
	for _, a := range accesses {
		short := a
		if i := strings.IndexByte(a, '['); i >= 0 && strings.HasSuffix(a, "]") {
			short = a[i+1 : len(a)-1]
			if j := strings.LastIndexByte(short, '.'); j >= 0 && !strings.ContainsAny(short, "[,") {
				short = short[j+1:]
			}
		} else {
			short = strings.TrimSuffix(strings.TrimSuffix(a, "Mut"), "View")
		}
		if writes(a) {
			short += "*"
		}
		parts = append(parts, short)
	}
	return strings.Join(parts, " ")
}

// writes reports whether an access is exclusive: its view's name, before
// any type arguments, ends in "Mut" (ViewMut, UniqueViewMut,
// AllStoragesViewMut...).
func writes(access string) bool {
	head, _, _ := strings.Cut(access, "[")
	return strings.HasSuffix(head, "Mut")
}

func fill(batch int) string { return batchFills[batch%len(batchFills)] }

func workerName(w int) string {
	if w == 0 {
		return "the caller"
	}
	return "worker " + strconv.Itoa(w)
}

// shorten returns s cut to n runes, with an ellipsis if it was longer.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// fit returns s shortened to fit in width pixels, or "" if not even two
// characters would.
func fit(s string, width float64) string {
	n := int(width / charW)
	if n < 3 {
		return ""
	}
	return shorten(s, n)
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if strings.HasSuffix(what, "ch") {
		return strconv.Itoa(n) + " " + what + "es"
	}
	return strconv.Itoa(n) + " " + what + "s"
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

func indexList(idx []int) string {
	s := make([]string, len(idx))
	for i, x := range idx {
		s[i] = "#" + strconv.Itoa(x)
	}
	return strings.Join(s, " ")
}

// dur prints d with three significant digits or so: "870 ns", "12.3 µs",
// "1.50 ms", "2.00 s".
func dur(d time.Duration) string {
	units := []struct {
		size time.Duration
		name string
	}{{time.Second, "s"}, {time.Millisecond, "ms"}, {time.Microsecond, "µs"}}
	for _, u := range units {
		if d >= u.size {
			v := float64(d) / float64(u.size)
			prec := 2
			if v >= 100 {
				prec = 0
			} else if v >= 10 {
				prec = 1
			}
			return strconv.FormatFloat(v, 'f', prec, 64) + " " + u.name
		}
	}
	return strconv.FormatInt(int64(d), 10) + " ns"
}

// tick prints a round duration for the timeline's axis: "20 µs", not
// "20.0 µs".
func tick(d time.Duration) string {
	num, unit, _ := strings.Cut(dur(d), " ")
	if strings.Contains(num, ".") {
		num = strings.TrimRight(strings.TrimRight(num, "0"), ".")
	}
	return num + " " + unit
}

// niceStep returns the smallest of 1, 2 and 5 times a power of ten
// nanoseconds that is at least d (1 ns at least).
func niceStep(d time.Duration) time.Duration {
	for p := time.Duration(1); ; p *= 10 {
		for _, m := range []time.Duration{1, 2, 5} {
			if m*p >= d {
				return m * p
			}
		}
		if p > time.Hour {
			return p
		}
	}
}

func esc(s string) string { return html.EscapeString(s) }

// WriteTimelineSVG writes the timeline of the last traced run of r's
// workload name as a standalone SVG picture: the Gantt chart of the page,
// for a document or a bug report. It fails with [ErrReport] if r has no
// workload name or none of its runs was traced, and with the error of out
// if a write fails.
func (r *Report) WriteTimelineSVG(out io.Writer, name string) error {
	if err := r.check(); err != nil {
		return err
	}
	for _, wl := range r.Workloads {
		if wl.Plan.Workload != name {
			continue
		}
		idx, _ := lastRun(wl)
		if len(idx) == 0 {
			return fmt.Errorf("%w: workload %q has no traced run (World.SetTracing)", ErrReport, name)
		}
		b := bufio.NewWriter(out)
		timelineSVG(func(format string, args ...any) { fmt.Fprintf(b, format, args...) }, wl, idx, true)
		return b.Flush()
	}
	return fmt.Errorf("%w: no workload %q in the report", ErrReport, name)
}
