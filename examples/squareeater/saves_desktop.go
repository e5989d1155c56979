//go:build !js

package main

import (
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/slipway-ecs/slipway/examples/squareeater/internal/savefile"
	"github.com/slipway-ecs/slipway/examples/squareeater/render"
)

// useSaves makes r save its run on quit and offer the saved one (or,
// with resume, resume it at once), in the file at path, or $SQUAREEATER_SAVE, or savefile.DefaultPath (not for
// the bot, which must not overwrite the player's run). Closing the window
// and SIGINT/SIGTERM quit through r's Update, which saves. A save that
// cannot be resumed is logged, and the game starts fresh.
func useSaves(r *render.Game, path string, bot, resume bool) {
	if path == "" {
		path = os.Getenv(savefile.EnvPath)
	}
	if path == "" {
		if bot {
			return
		}
		var err error
		if path, err = savefile.DefaultPath(); err != nil {
			log.Printf("squareeater: not saving the run: %v", err)
			return
		}
	}
	if err := r.UseSaves(savefile.File{Path: path}); err != nil {
		log.Printf("squareeater: cannot resume the saved run, starting afresh: %v", err)
	}
	if resume {
		if ok, err := r.ResumeSaved(); err != nil {
			log.Fatal(err)
		} else if !ok {
			log.Printf("squareeater: -resume: no saved run in %s, starting afresh", path)
		}
	}
	ebiten.SetWindowClosingHandled(true)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		r.RequestQuit()
		signal.Stop(sig) // a second signal kills at once
	}()
}
