//go:build js

package main

import "github.com/slipway-ecs/slipway/examples/squareeater/render"

// useSaves does nothing in the browser: the page has no quit to save on
// that it can rely on, and no file (see the README's "Saving").
func useSaves(*render.Game, string, bool, bool) {}
