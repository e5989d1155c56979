package ecs

import (
	"encoding/json"
	"fmt"
	"strings"
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
type Plan struct {
	Workload string       `json:"workload"`
	Systems  []PlanSystem `json:"systems"`
	Batches  [][]string   `json:"batches"`

	batches [][]int // indices in Systems
}

// PlanSystem is one system of a [Plan].
type PlanSystem struct {
	Name     string   `json:"name"`
	Workload string   `json:"workload"` // the workloads containing it: "main_loop/filter_vel"
	Batch    int      `json:"batch"`
	Accesses []string `json:"accesses"` // "View[main.Pos]", "UniqueViewMut[main.Player]"...
	Labels   []string `json:"labels,omitempty"`
	OnCaller bool     `json:"on_caller,omitempty"`
	// After is the system that keeps it out of an earlier batch, and Reason
	// why: a conflict ("conflict: ViewMut[main.Friend] vs ViewMut[main.Friend]
	// on main.Friend") or an ordering constraint. Both are
	// empty in the first batch.
	After  string `json:"after,omitempty"`
	Reason string `json:"reason,omitempty"`

	after int // index of After in Plan.Systems, or -1
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
		ps := PlanSystem{Name: s.name, Workload: s.path, Batch: s.batch, OnCaller: s.onCaller, Reason: s.reason, after: -1}
		for _, a := range s.access {
			ps.Accesses = append(ps.Accesses, a.View)
		}
		// labels the user gave: not the system's own name nor the workload path
		for _, l := range dedup(s.labels) {
			if l != s.name && !strings.Contains("/"+s.path+"/", "/"+l+"/") {
				ps.Labels = append(ps.Labels, l)
			}
		}
		if s.batch > 0 {
			for _, e := range s.preds {
				if e.reason == s.reason && p.systems[e.from].batch == s.batch-1 {
					ps.After, ps.after = p.systems[e.from].name, e.from
					break
				}
			}
		}
		r.Systems = append(r.Systems, ps)
	}
	for _, b := range p.batches {
		var names []string
		for _, i := range b {
			names = append(names, p.systems[i].name)
		}
		r.Batches = append(r.Batches, names)
		r.batches = append(r.batches, b)
	}
	return r
}

// String prints the plan as text: one block per batch, each system with
// its accesses and the reason it waits for the previous batch.
func (p *Plan) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "workload %s: %d systems in %d batches\n", p.Workload, len(p.Systems), len(p.Batches))
	for bi := range p.Batches {
		fmt.Fprintf(&b, "batch %d:\n", bi)
		for _, s := range p.Systems {
			if s.Batch != bi {
				continue
			}
			fmt.Fprintf(&b, "  %s", s.Name)
			if s.Workload != p.Workload {
				fmt.Fprintf(&b, " (in %s)", s.Workload)
			}
			if s.OnCaller {
				b.WriteString(" [on caller]")
			}
			fmt.Fprintf(&b, " {%s}\n", strings.Join(s.Accesses, ", "))
			if s.Reason != "" {
				fmt.Fprintf(&b, "      after %s: %s\n", s.After, s.Reason)
			}
		}
	}
	return b.String()
}

// JSON returns the plan as indented JSON.
func (p *Plan) JSON() ([]byte, error) { return json.MarshalIndent(p, "", "  ") }

// DOT renders the plan as a Graphviz digraph: one cluster per batch, and an
// edge from each system to the system that kept it out of an earlier batch,
// labelled with the reason.
func (p *Plan) DOT() string {
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %q {\n  rankdir=LR;\n  node [shape=box];\n", p.Workload)
	for bi, idx := range p.batches {
		fmt.Fprintf(&b, "  subgraph cluster_%d {\n    label=%q;\n", bi, fmt.Sprintf("batch %d", bi))
		for _, i := range idx {
			fmt.Fprintf(&b, "    s%d [label=%q];\n", i, p.Systems[i].Name)
		}
		b.WriteString("  }\n")
	}
	for i, s := range p.Systems {
		if s.after >= 0 {
			fmt.Fprintf(&b, "  s%d -> s%d [label=%q];\n", s.after, i, s.Reason)
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// Mermaid renders the plan as a Mermaid flowchart, for Markdown pages that
// draw Mermaid diagrams.
func (p *Plan) Mermaid() string {
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	for bi, idx := range p.batches {
		fmt.Fprintf(&b, "  subgraph batch%d[\"batch %d\"]\n", bi, bi)
		for _, i := range idx {
			fmt.Fprintf(&b, "    s%d[\"%s\"]\n", i, mermaidEscape(p.Systems[i].Name))
		}
		b.WriteString("  end\n")
	}
	for i, s := range p.Systems {
		if s.after >= 0 {
			fmt.Fprintf(&b, "  s%d -->|\"%s\"| s%d\n", s.after, mermaidEscape(s.Reason), i)
		}
	}
	return b.String()
}

func mermaidEscape(s string) string {
	return strings.NewReplacer(`"`, "#quot;", "[", "#91;", "]", "#93;", "|", "#124;").Replace(s)
}
