//go:build js

package savefile

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io/fs"
	"syscall/js"

	"github.com/slipway-ecs/slipway/examples/squareeater/game"
)

// LocalStorage keeps the run in the page's localStorage under Key: the
// binary save, in base64 (localStorage holds strings). It is the browser's
// [Storage]: a page has no file, and no quit it can rely on to save in
// (see the README), so the browser build stores the run every few seconds.
type LocalStorage struct{ Key string }

// storage returns globalThis.localStorage, or an error when the page
// has none or may not use it (some browsers' private modes).
func storage() (v js.Value, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("localStorage: %v", p)
		}
	}()
	v = js.Global().Get("localStorage")
	if v.IsUndefined() || v.IsNull() {
		return v, fmt.Errorf("no localStorage")
	}
	return v, nil
}

// call calls localStorage's method with args, turning a JavaScript
// exception (a full quota, a denied access) into an error.
func call(method string, args ...any) (v js.Value, err error) {
	s, err := storage()
	if err != nil {
		return v, err
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("localStorage.%s: %v", method, p)
		}
	}()
	return s.Call(method, args...), nil
}

// Load resumes the run kept under Key; with none it returns an error
// wrapping fs.ErrNotExist.
func (l LocalStorage) Load() (*game.Game, error) {
	v, err := call("getItem", l.Key)
	if err != nil {
		return nil, err
	}
	if v.IsNull() || v.IsUndefined() {
		return nil, fmt.Errorf("localStorage %q: %w", l.Key, fs.ErrNotExist)
	}
	b, err := base64.StdEncoding.DecodeString(v.String())
	if err != nil {
		return nil, fmt.Errorf("localStorage %q: %w: %w", l.Key, game.ErrBadSave, err)
	}
	g, err := game.Resume(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("localStorage %q: %w", l.Key, err)
	}
	return g, nil
}

// Store keeps g's run under Key, or removes it when no run is in
// progress.
func (l LocalStorage) Store(g *game.Game) error {
	if !g.InRun() {
		return l.Remove()
	}
	var b bytes.Buffer
	if err := g.Save(&b); err != nil {
		return err
	}
	_, err := call("setItem", l.Key, base64.StdEncoding.EncodeToString(b.Bytes()))
	return err
}

// Remove removes the run kept under Key, if any.
func (l LocalStorage) Remove() error {
	_, err := call("removeItem", l.Key)
	return err
}
