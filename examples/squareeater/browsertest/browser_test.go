// Package browsertest plays the WebAssembly build of Square Eater in Debian's
// headless Chromium: it starts the real server command (cmd/serve) on a
// free port, loads the page, checks the first frame comes within 10 s,
// clicks to start, moves the mouse over the canvas and checks a screenshot
// shows the blue player and green friends; then that the player follows
// the mouse (in the state the page publishes and on screen), and that
// holding Backspace rewinds the game: the player goes back to where it was
// a second or two earlier, though the mouse has not moved, and the HUD
// shows the rewind; released, the game plays on.
//
// It needs /usr/bin/chromium (apt-get install chromium). Without it the test
// is skipped, except in CI (CI set), where it fails. Set
// SQUAREEATER_SHOTS to a directory to keep the screenshots.
package browsertest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/slipway-ecs/slipway/examples/squareeater/game"
	"github.com/slipway-ecs/slipway/examples/squareeater/internal/pixels"
	"github.com/slipway-ecs/slipway/examples/squareeater/render/scene"
)

const chromium = "/usr/bin/chromium"

// firstFrameBudget is how soon after the page starts loading the game must
// show its first frame.
const firstFrameBudget = 10 * time.Second

func TestBrowserPlays(t *testing.T) {
	if _, err := os.Stat(chromium); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is missing in CI: install Debian's chromium package (%v)", chromium, err)
		}
		t.Skipf("skipping the browser test: %s not found; install it with `apt-get install chromium`", chromium)
	}
	url := startServer(t)
	ctx, shots := startChromium(t, 800, 600)

	// Start Chromium first, so that its start-up is not counted.
	if err := chromedp.Run(ctx, chromedp.EmulateViewport(800, 600)); err != nil {
		t.Fatalf("starting %s: %v", chromium, err)
	}
	start := time.Now()
	if err := chromedp.Run(ctx,
		chromedp.Navigate(url),
		chromedp.Poll(`window.squareEater !== undefined && window.squareEater.frames > 0`, nil,
			chromedp.WithPollingTimeout(time.Minute), chromedp.WithPollingInterval(20*time.Millisecond)),
	); err != nil {
		t.Fatalf("loading %s and waiting for the first frame: %v", url, err)
	}
	seen := time.Since(start)
	var firstMs float64
	if err := chromedp.Run(ctx, chromedp.Evaluate(`window.squareEater.firstFrameMs`, &firstMs)); err != nil {
		t.Fatal(err)
	}
	var instantiatedMs float64
	if err := chromedp.Run(ctx, chromedp.Evaluate(`window.squareEaterLoad.instantiatedMs`, &instantiatedMs)); err != nil {
		t.Fatal(err)
	}
	first := time.Duration(firstMs * float64(time.Millisecond))
	t.Logf("first frame %.0f ms after the page started loading (WebAssembly fetched and compiled at %.0f ms; seen by the test %.0f ms after navigating)",
		firstMs, instantiatedMs, float64(seen)/float64(time.Millisecond))
	if first > firstFrameBudget {
		t.Errorf("first frame after %v, want within %v of page load", first, firstFrameBudget)
	}
	if scn := evalString(t, ctx, `window.squareEater.scene`); scn != "start" {
		t.Errorf("scene %q on load, want start", scn)
	}
	startShot := screenshot(t, ctx, filepath.Join(shots, "browser-start.png"))
	if n := pixels.Count(startShot, scene.PlayerBlue, 30); n < 50 {
		t.Errorf("start screen: %d blue pixels, want the legend's blue square", n)
	}

	// Click to start, then move the mouse about the canvas. The button is
	// held down a while, as a hand would: Ebitengine reads the mouse once
	// per tick, and a press released before the next tick is not seen.
	for try := 1; ; try++ {
		err := chromedp.Run(ctx,
			chromedp.MouseEvent(input.MouseMoved, 400, 300),
			chromedp.MouseEvent(input.MousePressed, 400, 300, chromedp.ButtonLeft, chromedp.ClickCount(1)),
			chromedp.Sleep(150*time.Millisecond),
			chromedp.MouseEvent(input.MouseReleased, 400, 300, chromedp.ButtonLeft, chromedp.ClickCount(1)),
			chromedp.Poll(`window.squareEater.scene === "floor"`, nil, chromedp.WithPollingTimeout(5*time.Second)),
		)
		if err == nil {
			break
		}
		if try == 3 {
			t.Fatalf("clicking to start, %d times: %v (scene %q)", try, err, evalString(t, ctx, `window.squareEater.scene`))
		}
		t.Logf("click %d did not start the game (%v); clicking again", try, err)
	}
	framesAtStart := evalInt(t, ctx, `window.squareEater.frames`)
	logicAtStart := evalInt(t, ctx, `window.squareEater.logicFrames`)
	clicked := time.Now()
	var moves []chromedp.Action
	for i := range 10 {
		moves = append(moves, chromedp.MouseEvent(input.MouseMoved, float64(300+20*i), float64(350-10*i)), chromedp.Sleep(30*time.Millisecond))
	}
	if err := chromedp.Run(ctx, moves...); err != nil {
		t.Fatalf("moving the mouse: %v", err)
	}

	// Within a few tries a screenshot shows both the player and a friend:
	// green, gray or red (the game keeps its speed in software GL, so by
	// the first screenshot, a second or so after the click, the friends
	// may well have outgrown the player), counted in the arena only.
	var blue, green int
	shown := false
	for try := 1; try <= 20 && !shown; try++ {
		if scn := evalString(t, ctx, `window.squareEater.scene`); scn != "floor" {
			t.Fatalf("scene %q while playing (try %d, %d frames drawn in %v since the click), want floor",
				scn, try, evalInt(t, ctx, `window.squareEater.frames`)-framesAtStart, time.Since(clicked).Round(time.Millisecond))
		}
		img := screenshot(t, ctx, filepath.Join(shots, "browser-floor.png"))
		blue = pixels.Count(img, scene.PlayerBlue, 30)
		green = 0
		for _, c := range []color.RGBA{scene.FriendGreen, scene.FriendBig, scene.FriendMax} {
			green += pixels.CountIn(img, arena, c, 30)
		}
		if blue >= 100 && green >= 16 {
			if n := pixels.CountIn(img, image.Rect(0, 0, 800, 28), scene.Ink, 60); n < 100 {
				t.Errorf("HUD: %d dark pixels, want its text", n)
			}
			frames := evalInt(t, ctx, `window.squareEater.frames`)
			t.Logf("try %d: %d blue (player) and %d friends' pixels; %d frames drawn since the click; screenshot %s",
				try, blue, green, frames-framesAtStart, filepath.Join(shots, "browser-floor.png"))
			if frames <= framesAtStart {
				t.Errorf("no frame drawn while playing (%d, then %d)", framesAtStart, frames)
			}
			// The game keeps its speed however slowly it is drawn (down
			// to about 7 frames a second): 60 logic frames a second, less
			// the time the page takes to show a frame.
			logic := evalInt(t, ctx, `window.squareEater.logicFrames`) - logicAtStart
			secs := time.Since(clicked).Seconds()
			t.Logf("%d logic frames in %.2fs since the click: %.0f a second, drawn at %.0f frames a second",
				logic, secs, float64(logic)/secs, float64(evalInt(t, ctx, `window.squareEater.frames`)-framesAtStart)/secs)
			if rate := float64(logic) / secs; rate < 40 && frames-framesAtStart > int(7*secs) {
				t.Errorf("the game ran %.0f logic frames a second, drawn at %.0f a second: slow motion", rate, float64(frames-framesAtStart)/secs)
			}
			shown = true
			break
		}
		t.Logf("try %d: %d blue and %d friends' pixels, %v after the click", try, blue, green, time.Since(clicked).Round(time.Millisecond))
		chromedp.Run(ctx, chromedp.MouseEvent(input.MouseMoved, float64(300+10*try), 320), chromedp.Sleep(150*time.Millisecond))
	}
	if !shown {
		t.Fatalf("no screenshot showed the blue player and a friend: last had %d blue and %d friends' pixels", blue, green)
	}

	followAndRewind(t, ctx, shots)
	inspectorOverlay(t, ctx, shots)
	saveAndResume(t, ctx)
}

// startChromium starts headless Chromium with a window of width × height
// and returns its context, which reports the page's console and
// exceptions in the test's log, and the directory for screenshots. The
// browser stops when the test ends, or after 3 minutes.
func startChromium(t *testing.T, width, height int) (context.Context, string) {
	t.Helper()
	// The profile is not a t.TempDir: Chromium's helper processes (the
	// crash handler among them) can still write to it for a moment after
	// the browser has exited, which made TempDir's cleanup fail the test.
	// removeProfile retries instead, and only logs what it cannot remove.
	profile, err := os.MkdirTemp("", "squareeater-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { removeProfile(t, profile) })
	shots := os.Getenv("SQUAREEATER_SHOTS")
	if shots == "" {
		shots = t.TempDir()
	}

	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.NoFirstRun,
		chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(width, height),
	)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancelTimeout)

	// Report the page's console and exceptions: the first thing to read
	// when the page does not work.
	chromedp.ListenTarget(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			var args []string
			for _, a := range ev.Args {
				args = append(args, string(a.Value))
			}
			t.Logf("console.%s: %s", ev.Type, strings.Join(args, " "))
		case *runtime.EventExceptionThrown:
			t.Logf("exception: %s", ev.ExceptionDetails.Error())
		}
	})
	return ctx, shots
}

// f1 presses and releases F1, the key of the inspector overlay.
func f1(ctx context.Context) error {
	key := func(t input.KeyType) chromedp.Action {
		return input.DispatchKeyEvent(t).WithKey("F1").WithCode("F1").
			WithWindowsVirtualKeyCode(112).WithNativeVirtualKeyCode(112)
	}
	return chromedp.Run(ctx, key(input.KeyDown), chromedp.Sleep(100*time.Millisecond), key(input.KeyUp))
}

// inspectorPanel is the colour the overlay's panel shows over the white
// arena: scene.InspectorPanel, premultiplied, over white.
var inspectorPanel = color.RGBA{
	R: scene.InspectorPanel.R + 255 - scene.InspectorPanel.A,
	G: scene.InspectorPanel.G + 255 - scene.InspectorPanel.A,
	B: scene.InspectorPanel.B + 255 - scene.InspectorPanel.A,
	A: 255,
}

// inspectorOverlay checks that F1 shows the overlay of the systems'
// timings over the arena, and that F1 again hides it.
func inspectorOverlay(t *testing.T, ctx context.Context, shots string) {
	t.Helper()
	panel := image.Rect(480, int(game.ArenaTop)+10, 790, int(game.ArenaTop)+200)
	count := func(name string) int {
		return pixels.CountIn(screenshot(t, ctx, filepath.Join(shots, name)), panel, inspectorPanel, 30)
	}
	if err := f1(ctx); err != nil {
		t.Fatalf("pressing F1: %v", err)
	}
	n := 0
	for try := 0; try < 20 && n < 20000; try++ {
		time.Sleep(100 * time.Millisecond)
		n = count("browser-inspector.png")
	}
	if n < 20000 {
		t.Fatalf("F1 pressed: %d pixels of the overlay's panel, want it shown (screenshot %s)", n, filepath.Join(shots, "browser-inspector.png"))
	}
	t.Logf("F1 pressed: %d pixels of the overlay's panel (screenshot %s)", n, filepath.Join(shots, "browser-inspector.png"))
	if err := f1(ctx); err != nil {
		t.Fatalf("pressing F1 again: %v", err)
	}
	for try := 0; try < 20 && n > 500; try++ {
		time.Sleep(100 * time.Millisecond)
		n = count("browser-inspector-hidden.png")
	}
	if n > 500 {
		t.Fatalf("F1 pressed again: %d pixels of the overlay's panel, want it hidden", n)
	}
}

// saveAndResume checks the browser build's saves: the run is kept in
// localStorage while it plays; after a reload the start screen offers it,
// and R resumes it (its logic frames go on from the save's, where a new
// run would start from 0).
func saveAndResume(t *testing.T, ctx context.Context) {
	const stored = `localStorage.getItem("slipway-squareeater/run")`
	if err := chromedp.Run(ctx, chromedp.Poll(stored+` !== null`, nil,
		chromedp.WithPollingTimeout(10*time.Second), chromedp.WithPollingInterval(100*time.Millisecond))); err != nil {
		t.Fatalf("no run saved in localStorage within 10 s of play (scene %q): %v", evalString(t, ctx, `window.squareEater.scene`), err)
	}
	before := readSample(t, ctx)
	if err := chromedp.Run(ctx,
		chromedp.Reload(),
		chromedp.Poll(`window.squareEater !== undefined && window.squareEater.frames > 0`, nil,
			chromedp.WithPollingTimeout(time.Minute), chromedp.WithPollingInterval(20*time.Millisecond)),
	); err != nil {
		t.Fatalf("reloading the page: %v", err)
	}
	if scn := evalString(t, ctx, `window.squareEater.scene`); scn != "start" || evalString(t, ctx, `String(window.squareEater.resumeOffered)`) != "true" {
		t.Fatalf("after a reload: scene %q, resumeOffered %s; want the start screen offering the saved run",
			scn, evalString(t, ctx, `String(window.squareEater.resumeOffered)`))
	}
	key := func(typ input.KeyType) chromedp.Action {
		return input.DispatchKeyEvent(typ).WithKey("r").WithCode("KeyR").WithText("r").
			WithWindowsVirtualKeyCode(82).WithNativeVirtualKeyCode(82)
	}
	if err := chromedp.Run(ctx, key(input.KeyDown), chromedp.Sleep(50*time.Millisecond), key(input.KeyUp)); err != nil {
		t.Fatal(err)
	}
	var after sample
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if after = readSample(t, ctx); after.Scene != "start" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("R on the start screen did not resume the saved run within 10 s")
		}
	}
	t.Logf("a save seen in localStorage at logic frame %d (it is renewed every 2 s until the reload); reloaded, R resumed it: first frame seen %d (%s)", before.Frames, after.Frames, after.Scene)
	if after.Frames < before.Frames/2 || after.Frames < 100 {
		t.Errorf("after R: logic frame %d, want the saved run's (about %d), not a new run's", after.Frames, before.Frames)
	}
}

// sample is what the page publishes of the last frame drawn (see markFrame
// in package render), read in one evaluation: the fields belong to one
// frame.
type sample struct {
	Frames    int     `json:"logicFrames"`
	Scene     string  `json:"scene"`
	X         float64 `json:"playerX"`
	Y         float64 `json:"playerY"`
	Size      float64 `json:"playerSize"`
	Rewinding bool    `json:"rewinding"`
	History   int     `json:"historyFrames"`
	at        time.Time
}

// centre returns the centre of the player's square.
func (s sample) centre() (x, y float64) { return s.X + s.Size/2, s.Y + s.Size/2 }

// on reports whether the player's square is centred on (x, y), where the
// game puts it when the mouse is there (away from the arena's edges), give
// or take half of what eating or a hit changes its size by in the frame
// (the square is placed before it grows or shrinks, from its top-left
// corner): 2.5 at most.
func (s sample) on(x, y float64) bool {
	cx, cy := s.centre()
	return s.Scene == "floor" && math.Abs(cx-x) <= 2.5 && math.Abs(cy-y) <= 2.5
}

func (s sample) String() string {
	cx, cy := s.centre()
	return fmt.Sprintf("logic frame %d (%s): player centred on (%.2f, %.2f), size %.2f; rewinding %v, %d frames of history",
		s.Frames, s.Scene, cx, cy, s.Size, s.Rewinding, s.History)
}

func readSample(t *testing.T, ctx context.Context) sample {
	t.Helper()
	var s sample
	const expr = `(({logicFrames, scene, playerX, playerY, playerSize, rewinding, historyFrames}) =>
		({logicFrames, scene, playerX, playerY, playerSize, rewinding, historyFrames}))(window.squareEater)`
	if err := chromedp.Run(ctx, chromedp.Evaluate(expr, &s)); err != nil {
		t.Fatalf("reading window.squareEater: %v", err)
	}
	s.at = time.Now()
	return s
}

// sampleFor reads samples every 15 ms for d, or until stop returns true
// for one (stop may be nil).
func sampleFor(t *testing.T, ctx context.Context, d time.Duration, stop func(sample) bool) []sample {
	t.Helper()
	var out []sample
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(15 * time.Millisecond) {
		s := readSample(t, ctx)
		out = append(out, s)
		if stop != nil && stop(s) {
			break
		}
	}
	return out
}

// arena is the part of the screen the game is played in, below the HUD.
var arena = image.Rect(0, int(game.ArenaTop), 800, 600)

// follow moves the mouse to (x, y), well inside the arena, and checks that
// the player follows it: within a second the page says the player's square
// is centred there, and a screenshot shows the player's blue (or, powered
// up, violet) square there. It returns the samples read.
func follow(t *testing.T, ctx context.Context, shots string, x, y float64) []sample {
	t.Helper()
	if err := chromedp.Run(ctx, chromedp.MouseEvent(input.MouseMoved, x, y)); err != nil {
		t.Fatalf("moving the mouse to (%v, %v): %v", x, y, err)
	}
	samples := sampleFor(t, ctx, 2*time.Second, func(s sample) bool { return s.on(x, y) })
	if last := samples[len(samples)-1]; !last.on(x, y) {
		t.Fatalf("mouse moved to (%v, %v): 2 s later, %v, want the player centred on the mouse", x, y, last)
	}
	// The player blinks while invincible: a few screenshots may be needed.
	path := filepath.Join(shots, fmt.Sprintf("browser-follow-%.0f-%.0f.png", x, y))
	var cx, cy float64
	var n int
	for try := 1; try <= 10; try++ {
		img := screenshot(t, ctx, path)
		for _, c := range []color.RGBA{scene.PlayerBlue, scene.PowerViolet} {
			if cx, cy, n = pixels.CentreIn(img, arena, c, 30); n >= 16 {
				break
			}
		}
		if n >= 16 && math.Abs(cx-x) <= 3 && math.Abs(cy-y) <= 3 {
			t.Logf("mouse at (%v, %v): the player's %d pixels are centred on (%.1f, %.1f) (screenshot %s)", x, y, n, cx, cy, path)
			return samples
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("mouse at (%v, %v): the player's pixels are centred on (%.1f, %.1f) (%d pixels) on the last of 10 screenshots, want the mouse; %v",
		x, y, cx, cy, n, readSample(t, ctx))
	return nil
}

// backspace is a key event of the rewind key.
func backspace(t input.KeyType) chromedp.Action {
	return input.DispatchKeyEvent(t).WithKey("Backspace").WithCode("Backspace").
		WithWindowsVirtualKeyCode(8).WithNativeVirtualKeyCode(8)
}

// followAndRewind checks that the player follows the mouse, then rewinds:
// the player rests at A = (200, 200) for 1.5 s, then at B = (600, 420) for
// 1 s; with Backspace held, the logic frames go back, and those of the
// stay at A show the player at A again (the mouse is still at B); the HUD
// shows the rewind. Released, the game plays on from there: the player
// goes back to the mouse, at B.
func followAndRewind(t *testing.T, ctx context.Context, shots string) {
	const ax, ay, bx, by = 200, 200, 600, 420
	follow(t, ctx, shots, ax, ay)
	atA := sampleFor(t, ctx, 1500*time.Millisecond, nil)
	follow(t, ctx, shots, bx, by)
	sampleFor(t, ctx, time.Second, nil)

	// The frames the page showed the player at A: from first to last.
	first, last := -1, -1
	for _, s := range atA {
		if !s.on(ax, ay) || s.Rewinding {
			t.Fatalf("the mouse at (%v, %v): %v", ax, ay, s)
		}
		if first < 0 {
			first = s.Frames
		}
		last = s.Frames
	}
	if last-first < 30 {
		t.Fatalf("the player stayed at (%v, %v) for logic frames %d to %d only", ax, ay, first, last)
	}

	before := readSample(t, ctx)
	if err := chromedp.Run(ctx, backspace(input.KeyDown)); err != nil {
		t.Fatalf("pressing Backspace: %v", err)
	}
	pressed := true
	defer func() {
		if pressed {
			chromedp.Run(ctx, backspace(input.KeyUp))
		}
	}()
	// While it rewinds, the HUD's strip shows the rewind indicator.
	rewinding := sampleFor(t, ctx, 3*time.Second, func(s sample) bool { return s.Rewinding })
	if s := rewinding[len(rewinding)-1]; !s.Rewinding {
		t.Fatalf("Backspace held 3 s: %v, want the game rewinding", s)
	}
	shot := screenshot(t, ctx, filepath.Join(shots, "browser-rewind.png"))
	hud := image.Rect(0, 0, 800, int(game.ArenaTop))
	if n := pixels.CountIn(shot, hud, scene.RewindPanel, 12); n < 2000 {
		t.Errorf("rewinding: %d pixels of the rewind panel in the HUD, want it shown", n)
	}
	// Back until frames before the stay at A, or to the oldest frame kept.
	back := sampleFor(t, ctx, 10*time.Second, func(s sample) bool { return s.Frames < first || s.History == 0 })
	if err := chromedp.Run(ctx, backspace(input.KeyUp)); err != nil {
		t.Fatalf("releasing Backspace: %v", err)
	}
	pressed = false
	back = append(rewinding, back...)

	// The game may play a few frames between the reading of before and
	// the key press reaching it: the rewind starts from there.
	inA, low := 0, math.MaxInt
	for i, s := range back {
		if !s.Rewinding {
			continue
		}
		if s.Frames > low {
			t.Errorf("rewinding went forward: %v after logic frame %d", s, low)
		}
		low = min(low, s.Frames)
		if s.Frames >= first && s.Frames <= last {
			inA++
			if !s.on(ax, ay) {
				t.Errorf("rewound to logic frame %d, when the player was at (%v, %v): %v (sample %d)", s.Frames, ax, ay, s, i)
			}
		}
	}
	t.Logf("Backspace held at logic frame %d: rewound to %d in %d samples, %d of them in frames %d-%d, when the player was at (%v, %v); last %v",
		before.Frames, low, len(back), inA, first, last, ax, ay, back[len(back)-1])
	if low > (first+last)/2 {
		t.Errorf("rewound only to logic frame %d, want back to the stay at (%v, %v) in frames %d-%d", low, ax, ay, first, last)
	}
	if inA < 3 {
		t.Errorf("only %d samples while rewinding through frames %d-%d, want a few to check", inA, first, last)
	}

	// Released: the game plays on from the frame restored, and the player
	// follows the mouse again. The game may have stepped back a few frames
	// more than the samples saw before the release reached it, so the frame
	// it plays on from is not known: the test waits for the first frame
	// played, then for a few more.
	resumed := sampleFor(t, ctx, 2*time.Second, func(s sample) bool { return !s.Rewinding })
	from := resumed[len(resumed)-1]
	if from.Rewinding || from.Frames > low+30 {
		t.Fatalf("Backspace released after rewinding to logic frame %d: %v; want the game playing on from about there", low, from)
	}
	after := sampleFor(t, ctx, 2*time.Second, func(s sample) bool { return s.Frames >= from.Frames+10 && s.on(bx, by) })
	if s := after[len(after)-1]; s.Rewinding || !s.on(bx, by) || s.Frames < from.Frames+10 {
		t.Errorf("Backspace released: the game played on from logic frame %d; 2 s later, %v; want it still playing, with the player at the mouse (%v, %v)", from.Frames, s, bx, by)
	}
	shot = screenshot(t, ctx, filepath.Join(shots, "browser-after-rewind.png"))
	if n := pixels.CountIn(shot, hud, scene.RewindPanel, 12); n > 100 {
		t.Errorf("after the rewind: %d pixels of the rewind panel in the HUD, want it gone", n)
	}
}

// startServer builds and runs cmd/serve on a free port of 127.0.0.1 and
// returns the URL it prints. The server stops when the test ends.
func startServer(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "serve")
	build := exec.Command("go", "build", "-o", bin, "./cmd/serve")
	build.Dir = ".." // the game's module
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/serve: %v\n%s", err, out)
	}
	srv := exec.Command(bin, "-addr", "127.0.0.1:0", "-out", filepath.Join(dir, "site"))
	srv.Dir = ".."
	stdout, err := srv.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	srv.Stderr = &logs
	started := time.Now()
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- srv.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			srv.Process.Kill()
			<-done
		}
	})
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if i := strings.Index(sc.Text(), "http://"); i >= 0 {
				urls <- sc.Text()[i:]
				break
			}
		}
		io.Copy(io.Discard, stdout)
		close(urls)
	}()
	select {
	case url, ok := <-urls:
		if !ok {
			t.Fatalf("the server exited without printing its URL:\n%s", logs.String())
		}
		if !strings.HasPrefix(url, "http://127.0.0.1:") {
			t.Errorf("server URL %q, want one on 127.0.0.1", url)
		}
		t.Logf("server ready at %s after %.1fs (WebAssembly build included)", url, time.Since(started).Seconds())
		return url
	case <-time.After(5 * time.Minute):
		t.Fatalf("the server printed no URL within 5 minutes:\n%s", logs.String())
	}
	return ""
}

func screenshot(t *testing.T, ctx context.Context, path string) image.Image {
	t.Helper()
	var buf []byte
	if err := chromedp.Run(ctx, chromedp.CaptureScreenshot(&buf)); err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		t.Fatalf("decoding the screenshot: %v", err)
	}
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	return img
}

func evalString(t *testing.T, ctx context.Context, expr string) string {
	t.Helper()
	var s string
	if err := chromedp.Run(ctx, chromedp.Evaluate(expr, &s)); err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return s
}

func evalInt(t *testing.T, ctx context.Context, expr string) int {
	t.Helper()
	var f float64
	if err := chromedp.Run(ctx, chromedp.Evaluate(expr, &f)); err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return int(f)
}

// removeProfile removes Chromium's profile directory, retrying for a few
// seconds while processes that outlive the browser finish writing to it.
func removeProfile(t *testing.T, dir string) {
	var err error
	for deadline := time.Now().Add(5 * time.Second); ; {
		if err = os.RemoveAll(dir); err == nil {
			return
		}
		if time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("leaving Chromium's profile %s behind: %v", dir, err)
}
