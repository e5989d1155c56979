// Package desktoptest starts the native (Linux desktop) build of Square
// Eater in a real X window under Xvfb, with the built-in bot playing, and
// checks a screenshot of the display (ImageMagick's `import -window root`)
// shows the game: the white board, the blue player and green friends.
// Then it quits the game with SIGTERM, as a terminal's Ctrl-C would, and
// checks the run was saved where -save said and resumes; a second session
// with -resume plays it on, and a third, where the bot starts a new run
// instead, removes the save. (The start screen's R key is not pressed here:
// Xvfb has no tool to type it without xdotool; -resume takes the same path
// in render.Game, and internal/savefile tests the offer's logic.)
//
// It needs xvfb-run (package xvfb), import (imagemagick), Mesa's software
// OpenGL (libgl1-mesa-dri) and Ebitengine's build packages. Without xvfb-run
// or import the test is skipped, except in CI (CI set), where it fails.
// Set SQUAREEATER_SHOTS to a directory to keep the screenshot.
package desktoptest

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/slipway-ecs/slipway/examples/squareeater/game"
	"github.com/slipway-ecs/slipway/examples/squareeater/internal/pixels"
	"github.com/slipway-ecs/slipway/examples/squareeater/render/scene"
)

// childEnv, when set, holds the game binary: the test runs inside xvfb-run
// and plays it.
const childEnv = "SQUAREEATER_DESKTOP_GAME"

func TestDesktopUnderXvfb(t *testing.T) {
	if bin := os.Getenv(childEnv); bin != "" {
		playUnderX(t, bin)
		return
	}
	for _, tool := range []string{"xvfb-run", "import"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is missing in CI: install xvfb and imagemagick (%v)", tool, err)
			}
			t.Skipf("skipping the desktop test: %s not found; install it with `apt-get install xvfb imagemagick`", tool)
		}
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "squareeater")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = ".." // the game's module
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build (native): %v\n%s", err, out)
	}
	shots := os.Getenv("SQUAREEATER_SHOTS")
	if shots == "" {
		shots = dir
	}

	// Run this same test again inside a fresh X server.
	child := exec.Command("xvfb-run", "-a", "-s", "-screen 0 1024x768x24 -br",
		os.Args[0], "-test.run=^TestDesktopUnderXvfb$", "-test.v", "-test.timeout=5m")
	child.Env = append(os.Environ(), childEnv+"="+bin, "SQUAREEATER_SHOTS="+shots)
	out, err := child.CombinedOutput()
	t.Logf("under xvfb-run:\n%s", out)
	if err != nil {
		t.Fatalf("the test under xvfb-run failed: %v", err)
	}
	// Check the screenshot the child kept, once more, from here.
	img, err := pixels.Load(filepath.Join(shots, "desktop.png"))
	if err != nil {
		t.Fatalf("the screenshot taken under Xvfb: %v", err)
	}
	if n := pixels.Count(img, scene.PlayerBlue, 30); n < 100 {
		t.Errorf("desktop screenshot: %d blue pixels, want the player", n)
	}
}

// playUnderX runs the game with its bot in the X server of $DISPLAY and
// takes screenshots until one shows it playing, then quits it with
// SIGTERM, which saves the run; a second session started with -resume
// plays that run on (its seed, its frames) and saves it again on quit.
func playUnderX(t *testing.T, bin string) {
	if os.Getenv("DISPLAY") == "" {
		t.Fatal("no DISPLAY: run under xvfb-run")
	}
	savePath := filepath.Join(t.TempDir(), "run.save")
	first := session(t, bin, "desktop.png", savePath, nil, "-bot", "-seed", "7", "-save", savePath)
	second := session(t, bin, "resumed.png", savePath, nil, "-bot", "-resume", "-save", savePath)
	if second.Seed() != 7 || second.State().Frames <= first.State().Frames {
		t.Errorf("second session (-resume): seed %d, frame %d; want the first's run (seed 7) played on from frame %d",
			second.Seed(), second.State().Frames, first.State().Frames)
	}
	// Third session: the bot starts a new run instead of resuming (it
	// presses Space on the start screen), which removes the save; quitting
	// saves the new run.
	noSave := func() {
		if _, err := os.Stat(savePath); err == nil {
			t.Error("third session: a new run started, and the save of the old one is still there")
		}
	}
	third := session(t, bin, "new-run.png", savePath, noSave, "-bot", "-seed", "9", "-save", savePath)
	if third.Seed() != 9 {
		t.Errorf("third session: the save holds seed %d, want the new run's 9", third.Seed())
	}
}

// session runs the game with args, takes screenshots until one shows it
// playing, keeps that one as shot, calls check if not nil, and quits the
// game with SIGTERM (quitSaves). It returns the run saved in savePath.
func session(t *testing.T, bin, shot, savePath string, check func(), args ...string) *game.Game {
	t.Helper()
	run := exec.Command(bin, args...)
	var logs bytes.Buffer
	run.Stdout, run.Stderr = &logs, &logs
	started := time.Now()
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- run.Wait() }()
	defer func() {
		run.Process.Kill()
		<-exited
	}()

	path := filepath.Join(os.Getenv("SQUAREEATER_SHOTS"), shot)
	var white, blue, green int
	for deadline := time.Now().Add(90 * time.Second); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("the game exited (%v) before showing a frame:\n%s", err, logs.String())
		default:
		}
		raw, err := exec.Command("import", "-window", "root", "png:-").Output()
		if err != nil {
			t.Fatalf("import -window root: %v", err)
		}
		img, err := png.Decode(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("decoding the screenshot: %v", err)
		}
		white = pixels.Count(img, scene.Background, 0)
		blue = pixels.Count(img, scene.PlayerBlue, 30)
		green = pixels.Count(img, scene.FriendGreen, 30)
		if blue >= 100 && green >= 16 && white >= 200*200 {
			if err := os.WriteFile(path, raw, 0o644); err != nil {
				t.Fatal(err)
			}
			b := img.Bounds()
			t.Logf("%v: after %.1fs the %dx%d display shows %d white, %d blue (player) and %d green (friends) pixels; saved %s",
				args, time.Since(started).Seconds(), b.Dx(), b.Dy(), white, blue, green, path)
			checkWindow(t, img)
			if check != nil {
				check()
			}
			return quitSaves(t, run.Process, exited, savePath, &logs)
		}
	}
	t.Fatalf("no screenshot showed the game within 90 s: last had %d white, %d blue, %d green pixels; game output:\n%s", white, blue, green, logs.String())
	return nil
}

// checkWindow checks the white pixels form one 800×600 window (the game's
// logical size at scale 1) under a HUD with text in it.
func checkWindow(t *testing.T, img image.Image) {
	b := img.Bounds()
	minX, minY, maxX, maxY := b.Max.X, b.Max.Y, b.Min.X, b.Min.Y
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r == 0xffff && g == 0xffff && bl == 0xffff {
				minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
			}
		}
	}
	if w, h := maxX-minX+1, maxY-minY+1; w != 800 || h > 600 || h < 560 {
		t.Errorf("white area %dx%d at (%d,%d), want the 800x600 window (its top under the HUD)", w, h, minX, minY)
	}
	hud := image.Rect(minX, maxY-599, maxX+1, minY)
	if n := pixels.CountIn(img, hud, scene.Ink, 60); n < 100 {
		t.Errorf("HUD %v: %d dark pixels, want its text", hud, n)
	}
}

// quitSaves sends SIGTERM to the game, which must save its run to
// savePath and exit cleanly; the save must resume a run in progress.
// The game's exit status goes back into exited for the caller's cleanup.
func quitSaves(t *testing.T, p *os.Process, exited chan error, savePath string, logs *bytes.Buffer) *game.Game {
	t.Helper()
	if err := p.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var err error
	select {
	case err = <-exited:
		exited <- err
	case <-time.After(20 * time.Second):
		t.Fatalf("the game did not quit within 20 s of SIGTERM:\n%s", logs.String())
	}
	if err != nil {
		t.Fatalf("the game quit with %v on SIGTERM, want a clean exit:\n%s", err, logs.String())
	}
	f, err := os.Open(savePath)
	if err != nil {
		t.Fatalf("no save after quitting: %v\n%s", err, logs.String())
	}
	defer f.Close()
	g, err := game.Resume(f)
	if err != nil {
		t.Fatalf("the save written on quit does not resume: %v", err)
	}
	t.Logf("quit with SIGTERM: saved %s, which resumes on %v, floor %d, frame %d", savePath, g.Scene(), g.State().Floor, g.State().Frames)
	if !g.InRun() || g.State().Frames == 0 {
		t.Errorf("the save resumes on %v at frame %d, want the run the bot was playing", g.Scene(), g.State().Frames)
	}
	return g
}
