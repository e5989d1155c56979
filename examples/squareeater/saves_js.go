//go:build js

package main

import (
	"log"

	"github.com/slipway-ecs/slipway/examples/squareeater/game"
	"github.com/slipway-ecs/slipway/examples/squareeater/internal/savefile"
	"github.com/slipway-ecs/slipway/examples/squareeater/render"
)

// localStorageKey is where the browser build keeps the run.
const localStorageKey = "slipway-squareeater/run"

// useSaves keeps the run in the page's localStorage: a page gets no quit
// it can rely on (beforeunload and pagehide may not run, or not long
// enough), so the run is saved every two seconds of play instead, and
// offered on the next visit's start screen. Flags do not reach the page:
// path, bot and resume are ignored.
func useSaves(r *render.Game, _ string, _, _ bool) {
	if err := r.UseSaves(savefile.LocalStorage{Key: localStorageKey}); err != nil {
		log.Printf("squareeater: cannot resume the saved run, starting afresh: %v", err)
	}
	r.SaveEvery(2 * game.FramesPerSecond)
}
