//go:build js

package render

import (
	"syscall/js"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/examples/squareeater/game"
	"github.com/slipway-ecs/slipway/examples/squareeater/render/scene"
)

// markFrame publishes progress to the page, for tests and curious players:
//
//	globalThis.squareEater = {frames, logicFrames, scene, firstFrameMs,
//	    playerX, playerY, playerSize, rewinding, historyFrames, resumeOffered}
//
// where frames counts the frames drawn, logicFrames the game's logic
// frames ([game.State].Frames: more than Ebitengine's ticks when it catches
// up, see Game.Update; fewer after a rewind, which takes frames back),
// firstFrameMs is performance.now() at the first frame (milliseconds since
// the page started loading), playerX and playerY the top-left corner of the
// player's square in the game's logical pixels and playerSize its size,
// rewinding whether the last logic frame rewound (Backspace held),
// historyFrames how many frames back the game can still go ([game.History]),
// and resumeOffered whether the start screen offers a saved run
// ([scene.SavedRun]).
// All are set together, once per frame drawn.
func markFrame(frames int, g *game.Game) {
	glob := js.Global()
	o := glob.Get("squareEater")
	if o.IsUndefined() {
		o = glob.Get("Object").New()
		glob.Set("squareEater", o)
	}
	if frames == 1 {
		o.Set("firstFrameMs", glob.Get("performance").Call("now"))
	}
	st, p, h := g.State(), g.Player(), g.History()
	o.Set("frames", frames)
	o.Set("logicFrames", st.Frames)
	o.Set("scene", st.Scene.String())
	o.Set("playerX", p.X)
	o.Set("playerY", p.Y)
	o.Set("playerSize", p.Size)
	o.Set("rewinding", h.Rewinding)
	o.Set("historyFrames", h.Frames)
	saved, err := ecs.GetUnique[scene.SavedRun](g.World())
	o.Set("resumeOffered", err == nil && saved.Offered)
}
