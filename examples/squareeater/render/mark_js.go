//go:build js

package render

import (
	"syscall/js"

	"github.com/slipway-ecs/slipway/examples/squareeater/game"
)

// markFrame publishes progress to the page, for tests and curious players:
// globalThis.squareEater = {frames, logicFrames, scene, firstFrameMs}, where
// frames counts the frames drawn, logicFrames the game's logic frames (more
// than Ebitengine's ticks when it catches up, see Game.Update) and
// firstFrameMs is performance.now() at the first frame (milliseconds since
// the page started loading).
func markFrame(frames, logicFrames int, scene game.Scene) {
	g := js.Global()
	o := g.Get("squareEater")
	if o.IsUndefined() {
		o = g.Get("Object").New()
		g.Set("squareEater", o)
	}
	if frames == 1 {
		o.Set("firstFrameMs", g.Get("performance").Call("now"))
	}
	o.Set("frames", frames)
	o.Set("logicFrames", logicFrames)
	o.Set("scene", scene.String())
}
