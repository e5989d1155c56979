package scene

import (
	"strconv"
	"strings"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/examples/squareeater/game"
)

// TestInspectorOverlay shows the F1 overlay on a floor: the entity counts
// and a row per system of both workloads, timed; then hides it.
func TestInspectorOverlay(t *testing.T) {
	g := newGame(t, 7)
	w := g.World()
	update(t, g, game.Input{Key: ' '}, 1)
	if rec := draw(t, g, 100, 500); len(rec.panels()) != 0 {
		t.Fatal("the overlay is shown before F1")
	}
	if err := ShowInspector(w, true); err != nil {
		t.Fatal(err)
	}
	update(t, g, game.Input{MouseX: 100, MouseY: 500}, 40)
	draw(t, g, 100, 500) // the render workload's systems get timed
	// untimed then renews the rows at the next frame, not 30 frames later.
	rec := draw(t, g, 100, 500)
	if len(rec.panels()) != 1 {
		t.Fatalf("%d overlay panels, want 1", len(rec.panels()))
	}
	var ents ecs.EntitiesView
	var friends ecs.View[game.Friend]
	var pellets ecs.View[game.PowerPellet]
	release, err := w.Borrow(&ents, &friends, &pellets)
	if err != nil {
		t.Fatal(err)
	}
	counts := []string{
		"F1 inspector: " + strconv.Itoa(ents.Len()) + " entities",
		"friends " + strconv.Itoa(friends.Len()) + ", pellets " + strconv.Itoa(pellets.Len()),
	}
	release()
	for _, want := range counts {
		if _, ok := rec.text(want); !ok {
			t.Errorf("no %q in the overlay:\n%s", want, rec.texts())
		}
	}
	for _, name := range []string{game.MainLoop, Workload} {
		plan, err := w.WorkloadPlan(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := rec.text(name + ":"); !ok {
			t.Errorf("no heading for workload %s", name)
		}
		for _, s := range plan.Systems {
			o, ok := rec.text(shortName(s.Name))
			if !ok {
				t.Errorf("no row for %s", s.Name)
				continue
			}
			mean, last, ok := rec.columns(o)
			if !ok || !strings.HasSuffix(mean, " µs") || !strings.HasSuffix(last, " µs") {
				t.Errorf("row of %s: mean %q, last %q, want timings in µs", s.Name, mean, last)
			}
		}
	}

	if err := ShowInspector(w, false); err != nil {
		t.Fatal(err)
	}
	before, err := w.WorkloadStats(game.MainLoop)
	if err != nil {
		t.Fatal(err)
	}
	update(t, g, game.Input{MouseX: 100, MouseY: 500}, 5)
	if rec := draw(t, g, 100, 500); len(rec.panels()) != 0 {
		t.Fatal("the overlay is still shown after it was hidden")
	}
	after, _ := w.WorkloadStats(game.MainLoop)
	if after[0].Runs != before[0].Runs {
		t.Errorf("hidden, the overlay still traces: %d runs, then %d", before[0].Runs, after[0].Runs)
	}
}

// panels returns the overlay's panels painted.
func (r *recorder) panels() []op {
	var out []op
	for _, o := range r.ops {
		if o.kind == "rect" && o.c == InspectorPanel {
			out = append(out, o)
		}
	}
	return out
}

// columns returns the texts painted on the line of o, right of it: a
// row's mean and last.
func (r *recorder) columns(o op) (mean, last string, ok bool) {
	var right []string
	for _, t := range r.ops {
		if t.kind == "text" && t.y == o.y && t.align == AlignRight {
			right = append(right, t.text)
		}
	}
	if len(right) != 2 {
		return "", "", false
	}
	return right[0], right[1], true
}
