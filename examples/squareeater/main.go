// Command squareeater is the Square Eater game from the Shipyard guide,
// built on Slipway and Ebitengine, with floors and a shop.
//
//	go run .                                  play in a window
//	go run . -bot                             watch the built-in bot play
//	go run . -headless -seed 1 -frames 20000  let the bot play, print a summary
//	go run . -invincible-frames 5             the Shipyard guide's invincibility after a hit
//	go run . -save /tmp/run.save              keep the run in this file (default below)
//	go run . -no-save                         neither save nor offer a saved run
//	go run . -resume                          resume the saved run at once
//
// In the window, the player's square follows the mouse; a click or a key
// (Space, 1 to 5) starts a run and picks in the shop; holding Backspace
// rewinds the game, up to 5 seconds back.
//
// Quitting (closing the window, or SIGINT/SIGTERM) saves the run in
// progress, on a floor or in the shop, to the save file:
// $SQUAREEATER_SAVE if set, else slipway-squareeater/run.save in the user's
// configuration directory (~/.config on Linux); -save overrides both. The
// next start screen offers to resume it (R); starting a new run instead, or
// the end of the run, removes the file. A file that cannot be resumed is
// reported and the game starts fresh. With -bot, the run is saved only to
// a file named by -save or $SQUAREEATER_SAVE, never to the player's. The
// browser build keeps the run in the page's localStorage instead, saved
// every two seconds of play (see the README).
//
// On Linux, Ebitengine v2.8 opens the X display when the program starts,
// before main runs, so even -headless needs one: use xvfb-run where there
// is none.
package main

import (
	"flag"
	"fmt"
	"log"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/slipway-ecs/slipway/examples/squareeater/game"
	"github.com/slipway-ecs/slipway/examples/squareeater/internal/savefile"
	"github.com/slipway-ecs/slipway/examples/squareeater/render"
)

func main() {
	headless := flag.Bool("headless", false, "play with the built-in bot, without a window, and print a summary")
	seed := flag.Uint64("seed", 1, "random seed")
	frames := flag.Int("frames", 20000, "logic frames to play with -headless")
	bot := flag.Bool("bot", false, "let the built-in bot play in the window")
	savePath := flag.String("save", "", "save file (default $"+savefile.EnvPath+", else slipway-squareeater/run.save in the user's config directory)")
	resume := flag.Bool("resume", false, "resume the saved run at once, without the start screen's offer")
	noSave := flag.Bool("no-save", false, "do not save the run on quit, nor offer a saved one")
	inv := flag.Int("invincible-frames", game.InvincibleFrames, fmt.Sprintf("frames of invincibility after a hit (%d is the Shipyard guide's)", game.GuideInvincibleFrames))
	flag.Parse()
	if *inv <= 0 {
		log.Fatal("-invincible-frames must be positive")
	}
	opts := game.Options{InvincibleFrames: *inv}

	if *headless {
		fmt.Println(game.RunHeadlessWithOptions(*seed, *frames, opts).String())
		return
	}
	r, err := render.New(game.NewWithOptions(*seed, opts))
	if err != nil {
		log.Fatal(err)
	}
	if *bot {
		r.Input = (&game.Bot{}).Input
	}
	if !*noSave {
		useSaves(r, *savePath, *bot, *resume)
	}
	ebiten.SetWindowSize(int(game.Width), int(game.Height))
	ebiten.SetWindowTitle("Square Eater")
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	if err := ebiten.RunGame(r); err != nil {
		log.Fatal(err)
	}
}
