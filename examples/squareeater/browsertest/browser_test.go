// Package browsertest plays the WebAssembly build of Square Eater in Debian's
// headless Chromium: it starts the real server command (cmd/serve) on a
// free port, loads the page, checks the first frame comes within 10 s,
// clicks to start, moves the mouse over the canvas and checks a screenshot
// shows the blue player and green friends.
//
// It needs /usr/bin/chromium (apt-get install chromium). Without it the test
// is skipped, except in CI (CI set), where it fails. Set
// SQUAREEATER_SHOTS to a directory to keep the screenshots.
package browsertest

import (
	"bufio"
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"io"
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
		chromedp.WindowSize(800, 600),
	)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	defer cancelTimeout()

	// Report the page's console and exceptions: the first thing to read
	// when the game does not start.
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
	arena := image.Rect(0, int(game.ArenaTop), 800, 600)
	var blue, green int
	for try := 1; try <= 20; try++ {
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
			return
		}
		t.Logf("try %d: %d blue and %d friends' pixels, %v after the click", try, blue, green, time.Since(clicked).Round(time.Millisecond))
		chromedp.Run(ctx, chromedp.MouseEvent(input.MouseMoved, float64(300+10*try), 320), chromedp.Sleep(150*time.Millisecond))
	}
	t.Errorf("no screenshot showed the blue player and a friend: last had %d blue and %d friends' pixels", blue, green)
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
