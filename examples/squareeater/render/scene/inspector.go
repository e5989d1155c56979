package scene

import (
	"fmt"
	"image/color"
	"strings"
	"time"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/examples/squareeater/game"
)

// Inspector is a unique: the F1 overlay, which shows over the arena how
// long each system of the game's frame ([game.MainLoop]) and of the render
// workload takes, and how many friends, pellets and entities there are.
// [ShowInspector] shows and hides it; while it is shown, the world's
// tracing is on (that is where the timings come from) and [DrawFrame]
// renews its rows twice a second, so that they can be read.
type Inspector struct {
	Shown bool
	Rows  []InspectorRow
	// untimed says that a row has no timing yet: the rows are renewed at
	// the next frame rather than inspectorEvery frames later.
	untimed bool
}

// InspectorRow is a line of the overlay: a system with its mean and last
// durations, or a workload's name alone.
type InspectorRow struct {
	Name, Mean, Last string
}

// inspectorEvery is how often, in frames drawn, DrawFrame renews the rows.
const inspectorEvery = 30

// The overlay's panel: on the right of the arena, a line per row.
const (
	inspectorX    = 470
	inspectorLine = 15
	inspectorText = 12
)

// Colours of the overlay.
var (
	InspectorPanel = color.RGBA{20, 24, 36, 230} // premultiplied: dark blue at 90 %
	InspectorText  = color.RGBA{230, 235, 245, 255}
)

// ShowInspector shows or hides the F1 overlay of w, a world [AddTo]
// prepared, and turns w's tracing on or off with it.
func ShowInspector(w *ecs.World, on bool) error {
	w.SetTracing(on)
	return ecs.AddUnique(w, Inspector{Shown: on})
}

// renewInspector renews the overlay's rows of w if it is shown and its
// rows are due (every inspectorEvery frames, or none yet). It runs outside
// any workload, as World.WorkloadStats must.
func renewInspector(w *ecs.World, frame int) error {
	ins, err := ecs.GetUnique[Inspector](w)
	if err != nil || !ins.Shown || len(ins.Rows) > 0 && !ins.untimed && frame%inspectorEvery != 0 {
		return err
	}
	ins.Rows, ins.untimed = ins.Rows[:0], false
	for _, name := range []string{game.MainLoop, Workload} {
		stats, err := w.WorkloadStats(name)
		if err != nil {
			return err
		}
		ins.Rows = append(ins.Rows, InspectorRow{Name: name})
		for _, s := range stats {
			ins.Rows = append(ins.Rows, InspectorRow{Name: shortName(s.System), Mean: micros(s.Mean(), s.Runs), Last: micros(s.Last, s.Runs)})
			ins.untimed = ins.untimed || s.Runs == 0
		}
	}
	return ecs.AddUnique(w, ins)
}

// shortName drops the package path of a system's name:
// ".../render/scene.drawHUD" becomes "scene.drawHUD".
func shortName(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// micros prints d in microseconds, or "-" for a system never timed.
func micros(d time.Duration, runs int) string {
	if runs == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f µs", float64(d)/float64(time.Microsecond))
}

// drawInspector paints the F1 overlay: the entity counts, then a row per
// system.
func drawInspector(c ecs.UniqueViewMut[Canvas], in ecs.UniqueView[Inspector], ents ecs.EntitiesView, friends ecs.View[game.Friend], pellets ecs.View[game.PowerPellet]) {
	ins := in.Get()
	if !ins.Shown {
		return
	}
	p := c.Get().P
	n := len(ins.Rows) + 3
	p.Rect(inspectorX, game.ArenaTop, game.Width-inspectorX, float64(n)*inspectorLine+12, InspectorPanel)
	x, y := float64(inspectorX+8), game.ArenaTop+6
	p.Text(fmt.Sprintf("F1 inspector: %d entities", ents.Len()), x, y, inspectorText, InspectorText, AlignLeft)
	y += inspectorLine
	p.Text(fmt.Sprintf("friends %d, pellets %d", friends.Len(), pellets.Len()), x, y, inspectorText, InspectorText, AlignLeft)
	y += inspectorLine
	row(p, x, y, InspectorRow{Name: "system", Mean: "mean", Last: "last"})
	for _, r := range ins.Rows {
		y += inspectorLine
		if r.Mean == "" {
			r.Name += ":"
		} else {
			r.Name = "  " + r.Name
		}
		row(p, x, y, r)
	}
}

// row paints a row of the overlay in three columns.
func row(p Painter, x, y float64, r InspectorRow) {
	p.Text(r.Name, x, y, inspectorText, InspectorText, AlignLeft)
	p.Text(r.Mean, x+245, y, inspectorText, InspectorText, AlignRight)
	p.Text(r.Last, x+314, y, inspectorText, InspectorText, AlignRight)
}
