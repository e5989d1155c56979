package ecs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Plan describes how a workload runs: its systems, the batches they form,
// and for each system the reason it is not in an earlier batch. A system's
// batch is one more than that of the latest system it follows (an earlier
// one it conflicts with, or one a constraint puts before it), so the
// systems of a batch may run in parallel. A run does not wait for a whole
// batch to end, though: each system starts as soon as the systems it
// follows have finished. Get it with
// [World.WorkloadPlan]; print it, or export it as JSON, Graphviz DOT or
// Mermaid.
//
// Names need not be unique (the same function may be in a workload
// twice, or at two levels of nesting), so every part of a plan, and
// every export, refers to a system by its index in Systems. Each export
// quotes or escapes names by the rules of its format, so a name with
// quotes, a newline or the format's own punctuation reads as it is.
type Plan struct {
	Workload string       `json:"workload"`
	Systems  []PlanSystem `json:"systems"`
	// Batches lists the systems of each batch, as indices in Systems.
	Batches [][]int `json:"batches"`
	// Barriers lists the workload's [Barrier] items, in declared order.
	Barriers []PlanBarrier `json:"barriers,omitempty"`
	// Sequential lists the paths of the workloads made
	// [WorkloadSpec.Sequential], outermost first.
	Sequential []string `json:"sequential,omitempty"`
}

// PlanBarrier is a [Barrier] of a [Plan]: the systems of its workload
// declared before it finish before those declared after it start.
type PlanBarrier struct {
	Workload string `json:"workload"` // the path of the workload whose items hold it
	Before   []int  `json:"before"`   // indices in Plan.Systems
	After    []int  `json:"after"`    // indices in Plan.Systems
}

// PlanSystem is one system of a [Plan].
type PlanSystem struct {
	// Index is the system's index in Plan.Systems: its place in the
	// declared order, nested workloads flattened in place.
	Index int    `json:"index"`
	Name  string `json:"name"`
	// Workload is the path of the workloads containing it, outermost
	// first, separated by "/": "main_loop/filter_vel". In a name, "%" is
	// written "%25" and "/" is written "%2F", so that the path reads one
	// way only: "phys%2Fics" is the workload "phys/ics", and "phys/ics" is
	// a workload "ics" inside a workload "phys". Errors and
	// [SystemStats] write paths the same way.
	Workload string   `json:"workload"`
	Batch    int      `json:"batch"`
	Accesses []string `json:"accesses"` // "View[main.Pos]", "UniqueViewMut[main.Player]"...
	Labels   []string `json:"labels,omitempty"`
	OnCaller bool     `json:"on_caller,omitempty"`
	// After is the index in Plan.Systems of the system that keeps it out
	// of an earlier batch, or -1 in the first batch, and Reason says why:
	// a conflict ("conflict: ViewMut[main.Friend] vs ViewMut[main.Friend]
	// on main.Friend") or an ordering constraint (ordered: "main.render"
	// runs after "update").
	After  int    `json:"after"`
	Reason string `json:"reason,omitempty"`
}

// WorkloadPlan returns the plan of the workload name.
func (w *World) WorkloadPlan(name string) (*Plan, error) {
	if w == nil {
		return nil, errNilWorld
	}
	p, ok := w.currentPlan(name)
	if !ok {
		return nil, unknownWorkload(name)
	}
	return p.report(), nil
}

func (p *plan) report() *Plan {
	r := &Plan{Workload: p.name}
	for _, s := range p.systems {
		ps := PlanSystem{Index: s.idx, Name: s.name, Workload: s.path, Batch: s.batch, OnCaller: s.onCaller, Reason: s.reason, After: -1}
		for i, a := range s.access {
			// A partial isotope view has an access per discriminant:
			// list the view once.
			if i > 0 && a.Kind == IsotopeStorage && s.access[i-1].View == a.View {
				continue
			}
			ps.Accesses = append(ps.Accesses, a.View)
		}
		// labels the user gave: not the system's own name nor its workloads'
		for _, l := range dedup(s.labels) {
			if l != s.name && !slices.Contains(s.workloads, l) {
				ps.Labels = append(ps.Labels, l)
			}
		}
		if s.batch > 0 {
			for _, e := range s.preds {
				if e.reason == s.reason && p.systems[e.from].batch == s.batch-1 {
					ps.After = e.from
					break
				}
			}
		}
		r.Systems = append(r.Systems, ps)
	}
	for _, b := range p.batches {
		r.Batches = append(r.Batches, slices.Clone(b))
	}
	// p.spans holds a barrier once its list ends, inner lists first:
	// sorted by seq, they are in declared order.
	spans := slices.Clone(p.spans)
	slices.SortStableFunc(spans, func(a, b span) int { return a.nth - b.nth })
	for _, sp := range spans {
		if sp.seq {
			r.Sequential = append(r.Sequential, sp.path)
			continue
		}
		r.Barriers = append(r.Barriers, PlanBarrier{Workload: sp.path, Before: indices(sp.from, sp.mid), After: indices(sp.mid, sp.hi)})
	}
	return r
}

// indices returns lo, lo+1, ..., hi-1 (an empty, non-nil list if none).
func indices(lo, hi int) []int {
	out := make([]int, 0, hi-lo)
	for i := lo; i < hi; i++ {
		out = append(out, i)
	}
	return out
}

// String prints the plan as text: one block per batch, each system with
// its index, its name, its workload path if it is in a nested workload,
// its accesses, and the system it waits for (by index and name) with the
// reason. Names and paths are quoted as Go strings ([strconv.Quote]):
//
//	workload "main_loop": 3 systems in 2 batches
//	batch 0:
//	  #0 "main.increment" {ViewMut[main.Vel]}
//	  #1 "main.flag" in "main_loop/filter" {View[main.Pos]}
//	batch 1:
//	  #2 "main.clear" in "main_loop/filter" {AllStoragesViewMut}
//	      after #1 "main.flag": conflict: AllStoragesViewMut vs View[main.Pos] on all storages
func (p *Plan) String() string {
	var b strings.Builder
	top := pathName(p.Workload)
	fmt.Fprintf(&b, "workload %q: %s in %s\n", p.Workload, plural(len(p.Systems), "system"), plural(len(p.Batches), "batch"))
	for bi, batch := range p.Batches {
		fmt.Fprintf(&b, "batch %d:\n", bi)
		for _, i := range batch {
			s := &p.Systems[i]
			fmt.Fprintf(&b, "  #%d %q", i, s.Name)
			if s.Workload != top {
				fmt.Fprintf(&b, " in %q", s.Workload)
			}
			if s.OnCaller {
				b.WriteString(" [on caller]")
			}
			fmt.Fprintf(&b, " {%s}\n", strings.Join(s.Accesses, ", "))
			if s.After >= 0 {
				fmt.Fprintf(&b, "      after #%d %q: %s\n", s.After, p.Systems[s.After].Name, s.Reason)
			}
		}
	}
	for _, br := range p.Barriers {
		fmt.Fprintf(&b, "barrier in %q: %s before %s\n", br.Workload, indexList(br.Before), indexList(br.After))
	}
	for _, path := range p.Sequential {
		fmt.Fprintf(&b, "sequential: %q\n", path)
	}
	return b.String()
}

// indexList prints system indices: "{#0, #1}", or "{}".
func indexList(idx []int) string {
	parts := make([]string, len(idx))
	for i, x := range idx {
		parts[i] = fmt.Sprintf("#%d", x)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// JSON returns the plan as indented JSON: the fields of [Plan] and
// [PlanSystem], with the names of their json tags. Systems refer to each
// other by index ("after", and the lists of "batches"). Strings are
// escaped by encoding/json, which leaves '<', '>' and '&' as they are.
func (p *Plan) JSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(p); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// DOT renders the plan as a Graphviz digraph: one cluster per batch, a
// node s<index> per system, labelled with its index and name (and its
// workload path if it is in a nested workload, on a second line), and an
// edge to each system from the system that kept it out of an earlier
// batch, labelled with the reason. Strings are quoted for DOT: a
// backslash is doubled, a quote and a newline are written \" and \n (a
// line break), and "&" is written "&amp;". Other control characters are
// shown as their symbols from Unicode's Control Pictures ("\t" as "␉"),
// and other characters that print nothing as character references
// ("&#8232;").
func (p *Plan) DOT() string {
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %s {\n  rankdir=LR;\n  node [shape=box];\n", dotQuote(p.Workload))
	top := pathName(p.Workload)
	for bi, batch := range p.Batches {
		fmt.Fprintf(&b, "  subgraph cluster_%d {\n    label=\"batch %d\";\n", bi, bi)
		for _, i := range batch {
			s := &p.Systems[i]
			label := fmt.Sprintf("#%d ", i) + dotEscape(s.Name)
			if s.Workload != top {
				label += `\n` + dotEscape("in "+s.Workload)
			}
			fmt.Fprintf(&b, "    s%d [label=\"%s\"];\n", i, label)
		}
		b.WriteString("  }\n")
	}
	for i, s := range p.Systems {
		if s.After >= 0 {
			fmt.Fprintf(&b, "  s%d -> s%d [label=%s];\n", s.After, i, dotQuote(s.Reason))
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// Mermaid renders the plan as a Mermaid flowchart, for Markdown pages that
// draw Mermaid diagrams: a subgraph per batch, a node s<index> per system,
// labelled as in [Plan.DOT], and the same edges. Labels are quoted, with
// the characters that Mermaid or HTML would read ('"', '#', '&', '<',
// '>', '`', '[', ']', '|' and ':') written as Mermaid's numeric entity
// codes ("#34;" for '"'), a newline as <br>, and other characters that
// print nothing as in [Plan.DOT] (with entity codes).
func (p *Plan) Mermaid() string {
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	top := pathName(p.Workload)
	for bi, batch := range p.Batches {
		fmt.Fprintf(&b, "  subgraph batch%d[\"batch %d\"]\n", bi, bi)
		for _, i := range batch {
			s := &p.Systems[i]
			label := fmt.Sprintf("#%d ", i) + mermaidEscape(s.Name) // "#0 " is no entity code
			if s.Workload != top {
				label += "<br>" + mermaidEscape("in "+s.Workload)
			}
			fmt.Fprintf(&b, "    s%d[\"%s\"]\n", i, label)
		}
		b.WriteString("  end\n")
	}
	for i, s := range p.Systems {
		if s.After >= 0 {
			fmt.Fprintf(&b, "  s%d -->|\"%s\"| s%d\n", s.After, mermaidEscape(s.Reason), i)
		}
	}
	return b.String()
}

// dotQuote returns s as a DOT quoted string (see dotEscape).
func dotQuote(s string) string { return `"` + dotEscape(s) + `"` }

// dotEscape writes s for the inside of a DOT quoted string that Graphviz
// shows as s: in a quoted string DOT reads \" as a quote, and in a label
// Graphviz reads a backslash as the start of an escape (\n, \l, \N...)
// and "&" as the start of a character reference. A newline is written
// \n, a line break; other characters that print nothing as in
// invisible.
func dotEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '"':
			b.WriteString(`\"`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '&':
			b.WriteString("&amp;")
		default:
			invisible(&b, r, "&#%d;")
		}
	}
	return b.String()
}

// invisible writes r to b, unless r prints nothing: a control character
// (below ' ', and DEL) is then written as its symbol from Unicode's
// Control Pictures ("␀", "␉", "␡"), which every label can show where
// the character itself is invalid (in XML) or invisible; another
// character that prints nothing (U+2028, U+00A0...) is written as the
// reference ref formats with its code point.
func invisible(b *strings.Builder, r rune, ref string) {
	switch {
	case r < ' ':
		b.WriteRune(0x2400 + r)
	case r == 0x7f:
		b.WriteRune(0x2421)
	case r == ' ' || unicode.IsPrint(r):
		b.WriteRune(r)
	default:
		fmt.Fprintf(b, ref, r)
	}
}

// mermaidEscape writes s for the inside of a quoted Mermaid label that
// shows as s. Inside quotes Mermaid ends the label at '"' and starts a
// Markdown string at '`'; before parsing, it reads "#...;" as an entity
// code (and, on a line with "style" or "classDef", a "#" after a ':' as
// a colour); and the label is HTML, where '&', '<' and '>' are markup.
// Each of those characters, and the brackets and the bar that delimit
// labels elsewhere, are written as numeric entity codes ("#34;"), which
// Mermaid turns into the character; a newline is a line break, <br>;
// other characters that print nothing as in invisible.
func mermaidEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteString("<br>")
		case strings.ContainsRune("\"#&<>`[]|:", r):
			fmt.Fprintf(&b, "#%d;", r)
		default:
			invisible(&b, r, "#%d;")
		}
	}
	return b.String()
}

// plural returns n and the noun, in the plural unless n is 1 ("1 batch",
// "2 batches").
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "ch") {
		return strconv.Itoa(n) + " " + noun + "es"
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
