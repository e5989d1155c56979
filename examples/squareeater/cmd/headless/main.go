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
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/slipway-ecs/slipway/examples/squareeater/game"
)

func main() {
	seed := flag.Uint64("seed", 1, "random seed")
	frames := flag.Int("frames", 20000, "logic frames to play")
	inv := flag.Int("invincible-frames", game.InvincibleFrames, fmt.Sprintf("frames of invincibility after a hit (%d is the Shipyard guide's)", game.GuideInvincibleFrames))
	flag.Parse()
	if *frames <= 0 || *inv <= 0 {
		fmt.Fprintln(os.Stderr, "headless: -frames and -invincible-frames must be positive")
		os.Exit(2)
	}
	fmt.Println(game.RunHeadlessWithOptions(*seed, *frames, game.Options{InvincibleFrames: *inv}).String())
}
