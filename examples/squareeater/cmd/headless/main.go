// Command headless lets the built-in bot play Square Eater without any
// graphics and prints a one-line summary: floors reached, friends eaten,
// shop choices, result, frames, and the mean and worst update time per
// frame. Unlike `go run . -headless`, it does not link Ebitengine, so it runs
// on machines with no display at all:
//
//	go run ./cmd/headless -seed 1 -frames 20000
//
// -invincible-frames 5 plays with the Shipyard guide's invincibility after
// a hit instead of the game's default (game.InvincibleFrames).
//
// -inspect frame.html plays with tracing on, then writes the page of the
// game's workloads (package inspect): the frame's plan, and a timeline of
// its last run.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/slipway-ecs/slipway/examples/squareeater/game"
	"github.com/slipway-ecs/slipway/inspect"
)

func main() {
	seed := flag.Uint64("seed", 1, "random seed")
	frames := flag.Int("frames", 20000, "logic frames to play")
	inv := flag.Int("invincible-frames", game.InvincibleFrames, fmt.Sprintf("frames of invincibility after a hit (%d is the Shipyard guide's)", game.GuideInvincibleFrames))
	page := flag.String("inspect", "", "write the page of the game's workloads to this HTML file (plays with tracing on)")
	flag.Parse()
	if *frames <= 0 || *inv <= 0 {
		fmt.Fprintln(os.Stderr, "headless: -frames and -invincible-frames must be positive")
		os.Exit(2)
	}
	g := game.NewWithOptions(*seed, game.Options{InvincibleFrames: *inv})
	if *page != "" {
		g.World().SetTracing(true)
	}
	fmt.Println(g.PlayBot(*frames).String())
	if *page != "" {
		if err := writePage(*page, g); err != nil {
			fmt.Fprintln(os.Stderr, "headless:", err)
			os.Exit(1)
		}
	}
}

// writePage writes the inspector's page of g's workloads to path.
func writePage(path string, g *game.Game) error {
	r, err := inspect.Collect(g.World())
	if err != nil {
		return err
	}
	st := g.State()
	r.Title = fmt.Sprintf("Square Eater, seed %d: logic frame %d, floor %d", g.Seed(), st.Frames, st.Floor)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := r.WriteHTML(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
