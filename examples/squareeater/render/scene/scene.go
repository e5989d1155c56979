// Package scene draws Square Eater's frames from its world, independently of
// any graphics library: the render workload's systems read the world through
// views and paint through the [Painter] held by the [Canvas] unique.
// Package render plugs Ebitengine's screen in; tests record the calls.
package scene

import (
	"errors"
	"fmt"
	"image/color"
	"math"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/examples/squareeater/game"
)

// Workload is the name of the render workload added to the game's world.
const Workload = "render"

// AddTo adds the [Canvas], [SavedRun] and [Inspector] uniques and the
// render workload to w: five drawing systems (world, HUD, screens, rewind
// indicator, F1 overlay), each bound to the calling goroutine. They all write the canvas, so they run in the
// declared order.
func AddTo(w *ecs.World) error {
	if err := errors.Join(ecs.AddUnique(w, Canvas{}), ecs.AddUnique(w, SavedRun{}), ecs.AddUnique(w, Inspector{})); err != nil {
		return err
	}
	return w.AddWorkload(Workload,
		ecs.System(drawWorld).OnCaller(),
		ecs.System(drawHUD).OnCaller(),
		ecs.System(drawScreens).OnCaller(),
		ecs.System(drawRewind).OnCaller(),
		ecs.System(drawInspector).OnCaller(),
	)
}

// DrawFrame paints one frame of g's world on p: it fills the [Canvas]
// unique (painter, mouse position) and runs the render
// workload. The unique and the workload must have been added by [AddTo].
func DrawFrame(g *game.Game, p Painter, mouseX, mouseY float64) error {
	w := g.World()
	var cv ecs.UniqueViewMut[Canvas]
	release, err := w.Borrow(&cv)
	if err != nil {
		return err
	}
	c := cv.Get()
	c.P, c.MouseX, c.MouseY = p, mouseX, mouseY
	c.Frame++
	frame := c.Frame
	release()
	if err := renewInspector(w, frame); err != nil {
		return err
	}

	err = w.RunWorkload(Workload)

	// Do not keep the screen past the frame.
	release, berr := w.Borrow(&cv)
	if berr != nil {
		return errors.Join(err, berr)
	}
	cv.Get().P = nil
	release()
	return err
}

// Colours of the game, after the Shipyard guide's (macroquad's palette).
var (
	Background  = color.RGBA{255, 255, 255, 255}
	PlayerBlue  = color.RGBA{0, 121, 241, 255}
	PowerGold   = color.RGBA{253, 249, 0, 255}   // power pellets
	PowerViolet = color.RGBA{150, 60, 220, 255}  // the player powered up: unlike the guide's yellow, not a pellet's colour
	FriendGreen = color.RGBA{0, 228, 48, 255}    // a friend the player can eat
	FriendBig   = color.RGBA{130, 130, 130, 255} // a friend bigger than the player
	FriendMax   = color.RGBA{230, 41, 55, 255}   // a full-grown friend
	Ink         = color.RGBA{30, 30, 30, 255}
	Faint       = color.RGBA{150, 150, 150, 255}
	Panel       = color.RGBA{240, 240, 240, 255}
	HUDPanel    = color.RGBA{224, 224, 224, 255} // the HUD's strip, above the arena: nothing playable is under it
	Hover       = color.RGBA{255, 246, 200, 255}
	Veil        = color.RGBA{225, 225, 225, 225} // premultiplied: white at 88 %
	ICounterIn  = color.RGBA{255, 150, 160, 255} // invincibility bar
	RewindPanel = color.RGBA{40, 40, 60, 255}    // the rewind indicator's panel, dark under white text
	RewindTrack = color.RGBA{90, 90, 110, 255}   // its bar's track
	RewindBar   = color.RGBA{255, 140, 0, 255}   // its bar: the history left; orange, a colour nothing else uses
	White       = color.RGBA{255, 255, 255, 255} // the rewind indicator's text
)

// Align places a text relative to its x coordinate.
type Align int

// Text alignments.
const (
	AlignLeft Align = iota
	AlignCenter
	AlignRight
)

// Painter is what the drawing systems paint on: Ebitengine's screen in the
// game ([NewScreenPainter]), a recorder in tests. Coordinates are the
// game's logical pixels ([game.Width] × [game.Height]); a text's y is the
// top of its line.
type Painter interface {
	Fill(c color.RGBA)
	Rect(x, y, w, h float64, c color.RGBA)
	Text(s string, x, y, size float64, c color.RGBA, align Align)
}

// Canvas is the unique the drawing systems paint through. [DrawFrame] sets
// it before each run of the render workload: the painter wrapping this
// frame's screen, and the mouse position (for the shop's hover highlight).
type Canvas struct {
	P              Painter
	MouseX, MouseY float64
	Frame          int // frames drawn so far, for blinking
}

// FriendColor is the colour of friend f next to player p: red when
// full-grown (it hurts), gray when bigger than the player (it cannot be
// eaten yet), green otherwise.
func FriendColor(f game.Friend, p game.Player) color.RGBA {
	switch {
	case f.FullGrown():
		return FriendMax
	case f.Size > p.Size:
		return FriendBig
	default:
		return FriendGreen
	}
}

// PlayerColor is blue, or violet while the player is powered up (the
// guide's yellow made the player look like a pellet).
func PlayerColor(p game.Player) color.RGBA {
	if p.PoweredUp() {
		return PowerViolet
	}
	return PlayerBlue
}

// drawWorld paints the background, the pellets, the friends and the player.
func drawWorld(c ecs.UniqueViewMut[Canvas], player ecs.UniqueView[game.Player], friends ecs.View[game.Friend], pellets ecs.View[game.PowerPellet]) {
	cv := c.Get()
	p := cv.P
	p.Fill(Background)
	for _, pl := range pellets.Slice() {
		p.Rect(pl.X, pl.Y, pl.Size, pl.Size, PowerGold)
	}
	pr := player.Get()
	for _, f := range friends.Slice() {
		p.Rect(f.X, f.Y, f.Size, f.Size, FriendColor(f, pr))
	}
	// Invincibility frames: the player blinks every 4 frames.
	if pr.Invincible() && cv.Frame/4%2 == 1 {
		return
	}
	p.Rect(pr.X, pr.Y, pr.Size, pr.Size, PlayerColor(pr))
}

// HUD geometry. The HUD fills the strip above the arena, which the game
// keeps clear: the player, the friends and the pellets never go above
// game.ArenaTop.
const (
	hudH   = game.ArenaTop
	barW   = 80.0
	barH   = 8.0
	frameS = game.FramesPerSecond
)

// SizeText is how the HUD shows the player's size: with one decimal, two
// when one would round it (so 24.99 never shows as 25.0), and "(max)" once
// eating no longer makes the player grow, or instead the reserve kept
// beyond the cap ("+3.0") when there is one: "Size 24.99 +10.0" is no
// wider than "Size 24.99 (max)".
func SizeText(p game.Player) string {
	s := fmt.Sprintf("%.1f", p.Size)
	if math.Abs(math.Round(p.Size*10)/10-p.Size) > 1e-9 {
		s = fmt.Sprintf("%.2f", p.Size)
	}
	switch {
	case p.Reserve > 0:
		s += fmt.Sprintf(" +%.1f", p.Reserve)
	case p.Capped():
		s += " (max)"
	}
	return "Size " + s
}

// drawHUD paints the heads-up display over the strip above the arena on a
// floor: floor, lives, size, friends left (on screen and still to spawn),
// and the power-up and invincibility timers.
func drawHUD(c ecs.UniqueViewMut[Canvas], state ecs.UniqueView[game.State], player ecs.UniqueView[game.Player], friends ecs.View[game.Friend], spawner ecs.UniqueView[game.Spawner]) {
	st := state.Get()
	if st.Scene != game.SceneFloor {
		return
	}
	p := c.Get().P
	pr := player.Get()
	p.Rect(0, 0, game.Width, hudH, HUDPanel)
	// x positions leave room for the widest texts in Go Regular 16:
	// "Floor 20/20" (81 px), "Lives 3", "Size 24.99 (max)" (121 px),
	// "Friends 137" (85 px); a timer takes 72 + barW + about 40 px.
	p.Text(fmt.Sprintf("Floor %d/%d", st.Floor, game.FinalFloor), 8, 5, 16, Ink, AlignLeft)
	p.Text(fmt.Sprintf("Lives %d", st.Lives), 100, 5, 16, Ink, AlignLeft)
	p.Text(SizeText(pr), 160, 5, 16, Ink, AlignLeft)
	p.Text(fmt.Sprintf("Friends %d", friends.Len()+spawner.Get().Left), 292, 5, 16, Ink, AlignLeft)
	timer(p, 392, "Power-up", pr.PelletCounter, PowerViolet)
	timer(p, 600, "Invincible", pr.ICounter, ICounterIn)
}

// timer paints a label, a bar that shrinks with the counter and the time
// left in seconds.
func timer(p Painter, x float64, label string, frames int, c color.RGBA) {
	col := Faint
	if frames > 0 {
		col = Ink
	}
	p.Text(label, x, 6, 14, col, AlignLeft)
	bx := x + 72
	p.Rect(bx, 10, barW, barH, color.RGBA{220, 220, 220, 255})
	if frames > 0 {
		w := min(float64(frames)/frameS, 4) / 4 * barW // a full bar is 4 s or more
		p.Rect(bx, 10, max(w, 2), barH, c)
		p.Text(fmt.Sprintf("%.1fs", float64(frames)/frameS), bx+barW+4, 6, 14, Ink, AlignLeft)
	}
}

// drawScreens paints the start, shop and game-over screens over the world.
func drawScreens(c ecs.UniqueViewMut[Canvas], state ecs.UniqueView[game.State], shop ecs.UniqueView[game.Shop], bonuses ecs.UniqueView[game.FriendBonuses], saved ecs.UniqueView[SavedRun]) {
	cv := c.Get()
	st := state.Get()
	switch st.Scene {
	case game.SceneStart:
		drawStart(cv.P)
		if s := saved.Get(); s.Offered {
			cv.P.Text(ResumeLine(s.State), game.Width/2, 556, 20, Ink, AlignCenter)
		}
	case game.SceneShop:
		drawShop(cv, st, shop.Get(), bonuses.Get())
	case game.SceneGameOver:
		drawGameOver(cv.P, st)
	}
}

// legend is the start screen's explanation of the colours.
var legend = []struct {
	c    color.RGBA
	size float64
	text string
}{
	{PlayerBlue, 18, "You: follow the mouse"},
	{FriendGreen, 14, "A friend no bigger than you: eat it to grow"},
	{FriendBig, 22, "A friend bigger than you: it chases you, keep away"},
	{FriendMax, 25, "A full-grown friend: it shrinks you on contact"},
	{PowerGold, 10, "A power pellet: take it to power up"},
	{PowerViolet, 18, "You, powered up: friends flee, eat the red ones too"},
}

func drawStart(p Painter) {
	p.Text("Square Eater", game.Width/2, 70, 56, Ink, AlignCenter)
	p.Text(fmt.Sprintf("Eat every friend of a floor to climb to the next; clear floor %d to win.", game.FinalFloor), game.Width/2, 160, 18, Ink, AlignCenter)
	p.Text(fmt.Sprintf("After each floor the shop offers an upgrade. %d defeats end the run.", game.Lives), game.Width/2, 186, 18, Ink, AlignCenter)
	for i, l := range legend {
		y := 232 + float64(i)*38
		p.Rect(200-l.size/2, y+12-l.size/2, l.size, l.size, l.c)
		p.Text(l.text, 230, y+2, 18, Ink, AlignLeft)
	}
	p.Text("Click or press Space to start", game.Width/2, 480, 26, Ink, AlignCenter)
	p.Text(RewindHint, game.Width/2, 524, 16, Faint, AlignCenter)
}

// SavedRun is a unique: the run saved by an earlier session that the
// start screen offers to resume (the desktop build saves the run when the
// player quits). The renderer sets it; [AddTo] adds it, offering nothing.
type SavedRun struct {
	// Offered is set when there is a run to resume; State is its state.
	Offered bool
	State   game.State
}

// ResumeLine is the start screen's offer of the saved run st: the key
// that resumes it, its floor and what it ate.
func ResumeLine(st game.State) string {
	where := fmt.Sprintf("floor %d", st.Floor)
	if st.Scene == game.SceneShop {
		where = fmt.Sprintf("in the shop before floor %d", st.Floor)
	}
	return fmt.Sprintf("Press R to resume your saved run (%s, %d %s eaten)", where, st.Eaten, plural(st.Eaten, "friend", "friends"))
}

// RewindHint is the start screen's line about the rewind key.
var RewindHint = fmt.Sprintf("Hold Backspace to rewind the last %d seconds", game.RewindSeconds)

// Geometry of the rewind indicator: a panel at the right end of the HUD's
// strip, over the invincibility timer (the power-up timer, left of it,
// stays visible). It is drawn over every scene; on the shop's and the
// game-over screen it stays clear of their centred titles.
const (
	rewindX    = 590.0
	rewindBarX = rewindX + 84
	rewindBarW = 72.0
)

// drawRewind paints the rewind indicator while the game rewinds (the
// rewind key held): "REWIND", a bar of the history left (full at
// game.RewindSeconds) and the seconds left. At 0 the rewind has reached the
// oldest frame the game remembers.
func drawRewind(c ecs.UniqueViewMut[Canvas], history ecs.UniqueView[game.History]) {
	h := history.Get()
	if !h.Rewinding {
		return
	}
	p := c.Get().P
	p.Rect(rewindX, 0, game.Width-rewindX, hudH, RewindPanel)
	p.Text("REWIND", rewindX+8, 5, 16, White, AlignLeft)
	p.Rect(rewindBarX, 10, rewindBarW, barH, RewindTrack)
	if h.Frames > 0 {
		w := RewindBarWidth(h)
		p.Rect(rewindBarX, 10, max(w, 2), barH, RewindBar)
	}
	p.Text(fmt.Sprintf("%.1fs", h.Seconds()), rewindBarX+rewindBarW+6, 6, 14, White, AlignLeft)
}

// RewindBarWidth is the width of the rewind indicator's bar for h: full
// with game.RewindSeconds of history left, empty at the oldest frame.
func RewindBarWidth(h game.History) float64 {
	return float64(h.Frames) / game.RewindFrames * rewindBarW
}

// Greys of a maxed shop option.
var (
	maxedBg  = color.RGBA{228, 228, 228, 255}
	pipEmpty = color.RGBA{205, 205, 205, 255}
)

func drawShop(cv *Canvas, st game.State, shop game.Shop, b game.FriendBonuses) {
	p := cv.P
	p.Rect(0, 0, game.Width, game.Height, Veil)
	p.Text("Shop", game.Width/2, 18, 40, Ink, AlignCenter)
	var head string
	switch st.LastFloor {
	case game.Victory:
		head = fmt.Sprintf("Floor %d cleared! Next: floor %d.", st.Floor-1, st.Floor)
	case game.Defeat:
		head = fmt.Sprintf("Defeated: floor %d again, %d %s left.", st.Floor, st.Lives, plural(st.Lives, "life", "lives"))
	default:
		head = fmt.Sprintf("Next: floor %d.", st.Floor)
	}
	p.Text(head+" Pick one upgrade.", game.Width/2, 70, 20, Ink, AlignCenter)
	if line := BonusLine(st, b); line != "" {
		p.Text(line, game.Width/2, 98, 16, Ink, AlignCenter)
	}
	opts := shop.Options()
	var bottom float64
	for _, o := range opts {
		r := o.Rect
		bottom = max(bottom, r.Y+r.H)
		bg, ink := Panel, Ink
		switch {
		case o.Maxed:
			bg, ink = maxedBg, Faint
		case r.Contains(cv.MouseX, cv.MouseY):
			bg = Hover
		}
		p.Rect(r.X, r.Y, r.W, r.H, bg)
		p.Text(string(o.Key), r.X+22, r.Y+r.H/2-15, 26, ink, AlignCenter)
		p.Text(o.Name, r.X+46, r.Y+10, 20, ink, AlignLeft)
		p.Text(o.Effect, r.X+46, r.Y+38, 14, ink, AlignLeft)
		level := fmt.Sprintf("%d / %d", o.Level, o.Max)
		if o.Maxed {
			level = "maxed"
		}
		p.Text(level, r.X+r.W-12, r.Y+10, 20, ink, AlignRight)
		// One pip per level, filled up to the current one.
		const pipsW = 100.0
		pw := (pipsW - float64(o.Max-1)*2) / float64(o.Max)
		for k := range o.Max {
			pc := pipEmpty
			if k < o.Level {
				pc = ink
			}
			p.Rect(r.X+r.W-12-pipsW+float64(k)*(pw+2), r.Y+42, pw, 6, pc)
		}
	}
	hint := "Click a choice or press 1-5"
	if shop.AllMaxed() {
		hint = "Every upgrade is maxed: click or press Space to go on"
	}
	p.Text(hint, game.Width/2, bottom+12, 18, Ink, AlignCenter)
}

// BonusLine is the shop's line about the friends: the bonus they gain on
// the next floor, drawn when the floor was cleared, or after a defeat that
// the replayed floor brings none.
func BonusLine(st game.State, b game.FriendBonuses) string {
	switch {
	case b.HasNext:
		return fmt.Sprintf("On floor %d the friends gain: %s", st.Floor, b.Next)
	case st.LastFloor == game.Defeat:
		return fmt.Sprintf("Floor %d again: the friends gain no new bonus.", st.Floor)
	}
	return ""
}

// GameOverPrompt is what the game-over screen says a click or space does:
// start a new run at once.
const GameOverPrompt = "Click or press Space to start a new run"

func drawGameOver(p Painter, st game.State) {
	p.Rect(0, 0, game.Width, game.Height, Veil)
	title := "Game over"
	if st.Result == game.Won {
		title = "You won!"
	}
	p.Text(title, game.Width/2, 150, 56, Ink, AlignCenter)
	p.Text(fmt.Sprintf("Best floor %d, %d %s cleared, %d %s eaten.",
		st.BestFloor, st.Cleared, plural(st.Cleared, "floor", "floors"), st.Eaten, plural(st.Eaten, "friend", "friends")),
		game.Width/2, 250, 22, Ink, AlignCenter)
	p.Text(fmt.Sprintf("%d %s.", st.Defeats, plural(st.Defeats, "defeat", "defeats")), game.Width/2, 284, 22, Ink, AlignCenter)
	p.Text(GameOverPrompt, game.Width/2, 360, 26, Ink, AlignCenter)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
