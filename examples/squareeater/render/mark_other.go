//go:build !js

package render

import "github.com/slipway-ecs/slipway/examples/squareeater/game"

// markFrame does nothing outside the browser.
func markFrame(int, *game.Game) {}
