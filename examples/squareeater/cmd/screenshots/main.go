// Command screenshots lets the built-in bot play Square Eater in a real
// Ebitengine window and saves what the renderer draws at four moments:
// the start screen, a floor in full swing, the shop (once an upgrade is
// maxed) and the game-over screen. It needs a display; without one, run it
// under Xvfb:
//
//	cd examples/squareeater
//	xvfb-run -a -s "-screen 0 1024x768x24" go run ./cmd/screenshots -out ../../docs/screenshots
//
// The game runs as fast as it can draw (one logic frame per drawn frame),
// and waits on the shop and game-over screens until they are captured.
package main

import (
	"errors"
	"flag"
	"fmt"
	"image/color"
	"image/png"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/examples/squareeater/game"
	"github.com/slipway-ecs/slipway/examples/squareeater/render"
	"github.com/slipway-ecs/slipway/examples/squareeater/render/scene"
)

// The screenshots, in the order they are taken.
const (
	shotStart = iota
	shotFloor
	shotShop
	shotGameOver
	numShots
)

var shotNames = [numShots]string{"start.png", "floor.png", "shop.png", "gameover.png"}

// shooter wraps the game: it decides when each screenshot is due, holds
// the bot on the shop and game-over screens until they are taken, and ends
// the game when all four are saved.
type shooter struct {
	*render.Game
	out       string
	bot       game.Bot
	taken     [numShots]bool
	held      [numShots]int // frames drawn while the screenshot was due
	minFloor  int
	maxFrames int
	err       error
}

func (s *shooter) done() bool {
	for _, t := range s.taken {
		if !t {
			return false
		}
	}
	return true
}

// due returns the screenshot the current frame should be, or -1.
func (s *shooter) due() int {
	g := s.Logic()
	st := g.State()
	switch {
	case st.Scene == game.SceneStart && !s.taken[shotStart]:
		return shotStart
	case st.Scene == game.SceneFloor && !s.taken[shotFloor] && st.Floor >= s.minFloor && s.lively(g):
		return shotFloor
	case st.Scene == game.SceneShop && !s.taken[shotShop] && anyMaxed(g.Shop()):
		return shotShop
	case st.Scene == game.SceneGameOver && !s.taken[shotGameOver]:
		return shotGameOver
	}
	return -1
}

// anyMaxed reports whether the shop has a maxed upgrade, shown greyed.
func anyMaxed(shop game.Shop) bool {
	for u := range game.NumUpgrades {
		if shop.Maxed(u) {
			return true
		}
	}
	return false
}

// lively reports whether the floor makes a good picture: at least four
// friends, some green and some gray, and a red one or a power pellet.
func (s *shooter) lively(g *game.Game) bool {
	var friends ecs.View[game.Friend]
	var pellets ecs.View[game.PowerPellet]
	release, err := g.World().Borrow(&friends, &pellets)
	if err != nil {
		s.err = err
		return false
	}
	defer release()
	p := g.Player()
	colours := map[color.RGBA]int{}
	for _, f := range friends.Slice() {
		colours[scene.FriendColor(f, p)]++
	}
	return friends.Len() >= 4 && colours[scene.FriendGreen] > 0 && colours[scene.FriendBig] > 0 &&
		(colours[scene.FriendMax] > 0 || !pellets.IsEmpty()) && !p.PoweredUp()
}

// input is the bot's input, except on a screen waiting for its
// screenshot, where the mouse rests on the shop's second choice and nothing
// is pressed.
//
// On the floor chosen for the floor screenshot the bot rests too, the
// mouse still, so that friends live long enough to grow gray and red; and
// once the shop is captured it rests for good, so that the run soon ends
// in defeat.
func (s *shooter) input(g *game.Game) game.Input {
	if shot := s.due(); shot == shotStart || shot == shotShop || shot == shotGameOver {
		r := g.ShopOptions()[1].Rect
		return game.Input{MouseX: r.X + r.W*0.7, MouseY: r.Y + r.H/2}
	}
	st := g.State()
	resting := st.Floor >= s.minFloor && !s.taken[shotFloor] || s.taken[shotShop]
	if st.Scene == game.SceneFloor && resting {
		x, y := g.Player().Center()
		return game.Input{MouseX: x, MouseY: y}
	}
	return s.bot.Input(g)
}

func (s *shooter) Update() error {
	switch {
	case s.err != nil:
		return s.err
	case s.done():
		return ebiten.Termination
	case s.Logic().State().Frames > s.maxFrames:
		return fmt.Errorf("screenshots: %d frames played and still missing some (taken: %v)", s.maxFrames, s.taken)
	}
	return s.Game.Update()
}

func (s *shooter) Draw(screen *ebiten.Image) {
	s.Game.Draw(screen)
	shot := s.due()
	if shot < 0 {
		return
	}
	// Screens wait a few frames, so that the mouse has moved over the shop.
	if s.held[shot]++; shot != shotFloor && s.held[shot] < 3 {
		return
	}
	path := filepath.Join(s.out, shotNames[shot])
	if err := save(path, screen); err != nil {
		s.err = err
		return
	}
	s.taken[shot] = true
	st := s.Logic().State()
	log.Printf("%s: scene %v, floor %d, frame %d", path, st.Scene, st.Floor, st.Frames)
}

func save(path string, screen *ebiten.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, render.Snapshot(screen)); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func main() {
	out := flag.String("out", "screenshots", "directory to write the PNG files to")
	seed := flag.Uint64("seed", 1, "random seed of the game the bot plays")
	minFloor := flag.Int("floor", 2, "lowest floor for the floor and shop screenshots")
	maxFrames := flag.Int("max-frames", 200000, "give up after this many logic frames")
	flag.Parse()
	log.SetFlags(0)

	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	r, err := render.New(game.New(*seed))
	if err != nil {
		log.Fatal(err)
	}
	s := &shooter{Game: r, out: *out, minFloor: *minFloor, maxFrames: *maxFrames}
	r.Input = s.input

	ebiten.SetWindowSize(int(game.Width), int(game.Height))
	ebiten.SetWindowTitle("Square Eater (screenshots)")
	ebiten.SetVsyncEnabled(false)
	ebiten.SetTPS(ebiten.SyncWithFPS) // one logic frame per drawn frame
	start := time.Now()
	if err := ebiten.RunGame(s); err != nil && !errors.Is(err, ebiten.Termination) {
		log.Fatal(err)
	}
	log.Printf("%d screenshots in %s, %.1fs", numShots, *out, time.Since(start).Seconds())
}
