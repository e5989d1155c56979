package docs

import (
	"bytes"
	"encoding/xml"
	"flag"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/inspect"
)

var updatePictures = flag.Bool("update-pictures", false, "redraw the guide's pictures from real runs")

// The workload of tracing.md's picture: four systems over 20,000 entities,
// two of which can run side by side.
type (
	tPos    struct{ X, Y float64 }
	tVel    struct{ X, Y float64 }
	tHealth struct{ HP, Regen float64 }
	tHeat   struct{ T float64 }
)

func move(pos ecs.ViewMut[tPos], vel ecs.View[tVel]) {
	for p, v := range ecs.Join2(pos, vel).All() {
		p.X += v.X
		p.Y += v.Y
	}
}

func regen(h ecs.ViewMut[tHealth]) {
	for h := range h.All() {
		h.HP = math.Min(100, h.HP+math.Sqrt(h.Regen))
	}
}

func cool(h ecs.ViewMut[tHeat]) {
	for h := range h.All() {
		h.T *= math.Exp(-0.01)
	}
}

func collide(pos ecs.View[tPos], h ecs.ViewMut[tHealth]) {
	for p, h := range ecs.Join2(pos, h).All() {
		if p.X > 1e6 {
			h.HP--
		}
	}
}

// tracingWorld runs the picture's workload 50 times with tracing on, on
// the caller and 2 workers, and returns its report.
func tracingWorld(t *testing.T) *inspect.Report {
	t.Helper()
	w := ecs.NewWorld()
	w.SetPool(ecs.NewPool(2))
	for i := range 20000 {
		if _, err := ecs.AddEntity4(w, tPos{X: float64(i)}, tVel{X: 1}, tHealth{HP: 50, Regen: 2}, tHeat{T: 300}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.AddWorkload("frame", move, regen, cool, collide); err != nil {
		t.Fatal(err)
	}
	w.SetTracing(true)
	for range 50 {
		if err := w.RunWorkload("frame"); err != nil {
			t.Fatal(err)
		}
	}
	r, err := inspect.Collect(w, "frame")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestTracingPicture checks pictures/tracing-timeline.svg, the timeline of
// tracing.md: a standalone SVG of the real workload above (the names of its
// systems on its bars). With -update-pictures it draws it again from a
// real run on this machine.
func TestTracingPicture(t *testing.T) {
	r := tracingWorld(t)
	var fresh bytes.Buffer
	if err := r.WriteTimelineSVG(&fresh, "frame"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("pictures", "tracing-timeline.svg")
	if *updatePictures {
		if err := os.WriteFile(path, fresh.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, svg := range map[string][]byte{"the committed picture": mustRead(t, path), "a fresh one": fresh.Bytes()} {
		d := xml.NewDecoder(bytes.NewReader(svg))
		for {
			_, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s is not well-formed SVG: %v", name, err)
			}
		}
		s := string(svg)
		if !strings.HasPrefix(s, "<svg") {
			t.Errorf("%s is not a standalone SVG", name)
		}
		for _, sys := range []string{"move", "regen", "cool", "collide"} {
			if !strings.Contains(s, "docs."+sys+":") {
				t.Errorf("%s has no bar for docs.%s", name, sys)
			}
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./docs -run TestTracingPicture -update-pictures draws it)", err)
	}
	return b
}
