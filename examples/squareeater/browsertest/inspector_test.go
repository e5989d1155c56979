package browsertest

import (
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/slipway-ecs/slipway/examples/squareeater/game"
	"github.com/slipway-ecs/slipway/examples/squareeater/internal/pixels"
	"github.com/slipway-ecs/slipway/inspect"
)

// TestInspectorPage opens in headless Chromium the inspector's page of the
// game's workloads after the bot has played with tracing on, and checks
// what the browser drew: a box per system of the frame's plan, a bar per
// system of its last run, the boxes' colours on screen, and the SVGs laid
// out at their size.
func TestInspectorPage(t *testing.T) {
	if _, err := os.Stat(chromium); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is missing in CI: install Debian's chromium package (%v)", chromium, err)
		}
		t.Skipf("skipping the browser test: %s not found; install it with `apt-get install chromium`", chromium)
	}
	g := game.New(1)
	g.World().SetTracing(true)
	g.PlayBot(1200)
	if g.Scene() != game.SceneFloor {
		t.Fatalf("scene %v after the bot's 1200 frames, want a floor", g.Scene())
	}
	plan, err := g.World().WorkloadPlan(game.MainLoop)
	if err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(t.TempDir(), "inspector.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := inspect.WriteHTML(f, g.World()); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	ctx, shots := startChromium(t, 1300, 900)
	if err := chromedp.Run(ctx, chromedp.EmulateViewport(1300, 900), chromedp.Navigate("file://"+page)); err != nil {
		t.Fatalf("opening %s: %v", page, err)
	}
	count := func(sel string) int {
		return evalInt(t, ctx, fmt.Sprintf(`document.querySelectorAll(%q).length`, sel))
	}
	if n := count("#w0 svg.plan g.system"); n != len(plan.Systems) {
		t.Errorf("%d boxes in the frame's plan, want %d", n, len(plan.Systems))
	}
	if n := count("#w0 svg.timeline g.bar"); n != len(plan.Systems) {
		t.Errorf("%d bars in the frame's timeline, want %d (every system runs every frame)", n, len(plan.Systems))
	}
	// Laid out: each SVG as wide as it says, the first box where it says.
	if w := evalInt(t, ctx, `Math.round(document.querySelector("#w0 svg.timeline").getBoundingClientRect().width)`); w != 956 {
		t.Errorf("the timeline is %d px wide on the page, want 956", w)
	}
	if w := evalInt(t, ctx, `Math.round(document.querySelector("#w0 svg.plan g.system rect").getBoundingClientRect().width)`); w != 180 {
		t.Errorf("a box of the plan is %d px wide on the page, want 180", w)
	}
	shot := screenshot(t, ctx, filepath.Join(shots, "inspector-page.png"))
	// The first batch's boxes and bars are light blue, the second's amber.
	for _, c := range []color.RGBA{{0x8e, 0xca, 0xe6, 255}, {0xff, 0xb7, 0x03, 255}} {
		if n := pixels.CountIn(shot, image.Rect(0, 0, 1300, 900), c, 6); n < 2000 {
			t.Errorf("%d pixels of %v in the screenshot, want the boxes and bars of a batch", n, c)
		}
	}
	t.Logf("screenshot %s", filepath.Join(shots, "inspector-page.png"))
}
