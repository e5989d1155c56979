package scene

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/examples/squareeater/game"
)

// op is one call to a Painter.
type op struct {
	kind       string // "fill", "rect" or "text"
	x, y, w, h float64
	size       float64
	c          color.RGBA
	text       string
	align      Align
	goroutine  string
}

// recorder is a Painter that records its calls.
type recorder struct{ ops []op }

func goroutineID() string {
	var buf [64]byte
	n := runtime.Stack(buf[:], false)
	return string(bytes.Fields(buf[:n])[1])
}

func (r *recorder) Fill(c color.RGBA) {
	r.ops = append(r.ops, op{kind: "fill", c: c, goroutine: goroutineID()})
}

func (r *recorder) Rect(x, y, w, h float64, c color.RGBA) {
	r.ops = append(r.ops, op{kind: "rect", x: x, y: y, w: w, h: h, c: c, goroutine: goroutineID()})
}

func (r *recorder) Text(s string, x, y, size float64, c color.RGBA, align Align) {
	r.ops = append(r.ops, op{kind: "text", x: x, y: y, size: size, c: c, text: s, align: align, goroutine: goroutineID()})
}

// rects returns the rectangles painted exactly over sq.
func (r *recorder) rects(sq game.Square) []op {
	var out []op
	for _, o := range r.ops {
		if o.kind == "rect" && o.x == sq.X && o.y == sq.Y && o.w == sq.Size && o.h == sq.Size {
			out = append(out, o)
		}
	}
	return out
}

// text returns the first text op containing s.
func (r *recorder) text(s string) (op, bool) {
	for _, o := range r.ops {
		if o.kind == "text" && strings.Contains(o.text, s) {
			return o, true
		}
	}
	return op{}, false
}

func (r *recorder) texts() string {
	var b strings.Builder
	for _, o := range r.ops {
		if o.kind == "text" {
			b.WriteString(o.text + "\n")
		}
	}
	return b.String()
}

func newGame(t *testing.T, seed uint64) *game.Game {
	t.Helper()
	g := game.New(seed)
	if err := AddTo(g.World()); err != nil {
		t.Fatal(err)
	}
	return g
}

func update(t *testing.T, g *game.Game, in game.Input, frames int) {
	t.Helper()
	for range frames {
		if err := g.Update(in); err != nil {
			t.Fatal(err)
		}
	}
}

func draw(t *testing.T, g *game.Game, mx, my float64) *recorder {
	t.Helper()
	rec := &recorder{}
	if err := DrawFrame(g, rec, mx, my); err != nil {
		t.Fatal(err)
	}
	if len(rec.ops) == 0 || rec.ops[0].kind != "fill" || rec.ops[0].c != Background {
		t.Fatalf("frame does not start by filling the background white: %+v", rec.ops[:min(len(rec.ops), 1)])
	}
	return rec
}

func setUnique[T any](t *testing.T, g *game.Game, change func(*T)) {
	t.Helper()
	v, err := ecs.GetUnique[T](g.World())
	if err != nil {
		t.Fatal(err)
	}
	change(&v)
	if err := ecs.AddUnique(g.World(), v); err != nil {
		t.Fatal(err)
	}
}

func friends(t *testing.T, g *game.Game) []game.Friend {
	t.Helper()
	var v ecs.View[game.Friend]
	release, err := g.World().Borrow(&v)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	return append([]game.Friend(nil), v.Slice()...)
}

func TestFriendColor(t *testing.T) {
	player := game.Player{Square: game.Square{Size: 10}}
	for _, tc := range []struct {
		size float64
		want color.RGBA
	}{
		{5, FriendGreen},
		{10, FriendGreen}, // as big as the player: edible
		{10.5, FriendBig},
		{game.MaxSize - 0.01, FriendBig},
		{game.MaxSize, FriendMax},
	} {
		f := game.Friend{Square: game.Square{Size: tc.size}}
		if got := FriendColor(f, player); got != tc.want {
			t.Errorf("FriendColor(size %v, player 10) = %v, want %v", tc.size, got, tc.want)
		}
	}
	// A big player still sees a full-grown friend as red.
	big := game.Player{Square: game.Square{Size: game.MaxSize}}
	if got := FriendColor(game.Friend{Square: game.Square{Size: game.MaxSize}}, big); got != FriendMax {
		t.Errorf("full-grown friend next to a player of MaxSize: %v, want red", got)
	}
	if PlayerColor(player) != PlayerBlue {
		t.Error("player not blue")
	}
	if PlayerColor(game.Player{PelletCounter: 1}) != PowerViolet {
		t.Error("powered-up player not violet")
	}
	// The powered-up player has a colour of its own: a pellet's, or a
	// friend's, would make it look like one.
	for _, c := range []color.RGBA{PowerGold, PlayerBlue, FriendGreen, FriendBig, FriendMax} {
		if PowerViolet == c {
			t.Errorf("powered-up player's colour %v is also used for something else", c)
		}
	}
}

func TestStartScreen(t *testing.T) {
	g := newGame(t, 1)
	rec := draw(t, g, 0, 0)
	for _, s := range []string{"Square Eater", "Click or press Space to start", "You, powered up: friends flee, eat the red ones too", "Hold Backspace to rewind the last 5 seconds"} {
		if _, ok := rec.text(s); !ok {
			t.Errorf("start screen lacks %q; texts:\n%s", s, rec.texts())
		}
	}
	// The legend shows every colour of the game.
	for _, c := range []color.RGBA{PlayerBlue, FriendGreen, FriendBig, FriendMax, PowerGold, PowerViolet} {
		found := false
		for _, o := range rec.ops {
			found = found || o.kind == "rect" && o.c == c
		}
		if !found {
			t.Errorf("start screen legend lacks colour %v", c)
		}
	}
	if _, ok := rec.text("Floor"); ok {
		t.Error("start screen shows the HUD")
	}
}

// TestStartScreenOffersSavedRun: with a saved run on offer (SavedRun),
// the start screen says how to resume it and where it was; with none, it
// says nothing of it; once a run starts, the offer is gone.
func TestStartScreenOffersSavedRun(t *testing.T) {
	g := newGame(t, 1)
	if rec := draw(t, g, 0, 0); strings.Contains(rec.texts(), "resume") {
		t.Errorf("start screen offers a run with none saved; texts:\n%s", rec.texts())
	}
	for _, c := range []struct {
		st   game.State
		want string
	}{
		{game.State{Scene: game.SceneFloor, Floor: 3, Eaten: 12}, "Press R to resume your saved run (floor 3, 12 friends eaten)"},
		{game.State{Scene: game.SceneShop, Floor: 2, Eaten: 1}, "Press R to resume your saved run (in the shop before floor 2, 1 friend eaten)"},
	} {
		setUnique(t, g, func(s *SavedRun) { *s = SavedRun{Offered: true, State: c.st} })
		rec := draw(t, g, 0, 0)
		o, ok := rec.text(c.want)
		if !ok {
			t.Fatalf("start screen lacks %q; texts:\n%s", c.want, rec.texts())
		}
		if o.y+20 > game.Height {
			t.Errorf("the offer is drawn at y=%v, below the window", o.y)
		}
	}
	update(t, g, game.Input{Key: ' '}, 1)
	if rec := draw(t, g, 0, 0); strings.Contains(rec.texts(), "resume") {
		t.Errorf("a floor shows the offer; texts:\n%s", rec.texts())
	}
}

func TestFloorFrame(t *testing.T) {
	g := newGame(t, 7)
	update(t, g, game.Input{Key: ' '}, 1)
	update(t, g, game.Input{MouseX: 100, MouseY: 500}, 40)
	if g.Scene() != game.SceneFloor {
		t.Fatalf("scene %v after 40 frames, want floor", g.Scene())
	}
	rec := draw(t, g, 100, 500)
	p := g.Player()
	if got := rec.rects(p.Square); len(got) != 1 || got[0].c != PlayerBlue {
		t.Errorf("player square %+v painted as %+v, want once in blue", p.Square, got)
	}
	fs := friends(t, g)
	if len(fs) == 0 {
		t.Fatal("no friend on floor 1")
	}
	seen := map[color.RGBA]int{}
	for _, f := range fs {
		got := rec.rects(f.Square)
		want := FriendColor(f, p)
		if len(got) == 0 || got[0].c != want {
			t.Errorf("friend %+v painted as %+v, want %v", f.Square, got, want)
		}
		seen[want]++
	}
	if seen[FriendGreen] == 0 && seen[FriendBig] == 0 && seen[FriendMax] == 0 {
		t.Error("no friend colour used")
	}
	st := g.State()
	for _, s := range []string{
		fmt.Sprintf("Floor 1/%d", game.FinalFloor),
		"Lives 3",
		fmt.Sprintf("Size %.1f", p.Size),
		fmt.Sprintf("Friends %d", g.FriendsLeft()),
		"Power-up",
		"Invincible",
	} {
		if _, ok := rec.text(s); !ok {
			t.Errorf("HUD lacks %q (state %+v); texts:\n%s", s, st, rec.texts())
		}
	}
	// The player is drawn after the friends, so it stays visible.
	last := -1
	for i, o := range rec.ops {
		if o.kind == "rect" && o.c == PlayerBlue {
			last = i
		}
	}
	for i, o := range rec.ops {
		if o.kind == "rect" && (o.c == FriendGreen || o.c == FriendBig || o.c == FriendMax) && i > last {
			t.Fatalf("friend painted after the player (op %d > %d)", i, last)
		}
	}
}

func TestPowerUpAndInvincibility(t *testing.T) {
	g := newGame(t, 3)
	update(t, g, game.Input{Key: ' '}, 1)
	update(t, g, game.Input{MouseX: 400, MouseY: 300}, 2)
	setUnique(t, g, func(p *game.Player) { p.PelletCounter = 90; p.ICounter = 0 })
	rec := draw(t, g, 400, 300)
	p := g.Player()
	if got := rec.rects(p.Square); len(got) != 1 || got[0].c != PowerViolet {
		t.Errorf("powered-up player painted as %+v, want violet", got)
	}
	if _, ok := rec.text("1.5s"); !ok {
		t.Errorf("HUD does not show 1.5 s of power-up; texts:\n%s", rec.texts())
	}
	// Invincible: the player blinks, visible on some frames only.
	setUnique(t, g, func(p *game.Player) { p.PelletCounter = 0; p.ICounter = 30 })
	shown, hidden := 0, 0
	for range 8 {
		if len(draw(t, g, 400, 300).rects(p.Square)) > 0 {
			shown++
		} else {
			hidden++
		}
	}
	if shown == 0 || hidden == 0 {
		t.Errorf("invincible player: shown %d, hidden %d of 8 frames, want a blink", shown, hidden)
	}
	rec = draw(t, g, 400, 300)
	if _, ok := rec.text("0.5s"); !ok {
		t.Errorf("HUD does not show 0.5 s of invincibility; texts:\n%s", rec.texts())
	}
}

// lose makes the player lose the current floor on the next frame.
func lose(t *testing.T, g *game.Game) {
	t.Helper()
	setUnique(t, g, func(p *game.Player) { p.Size = game.InitSize / 2 })
	update(t, g, game.Input{MouseX: 400, MouseY: 300}, 1)
}

func TestShopScreen(t *testing.T) {
	g := newGame(t, 5)
	update(t, g, game.Input{Key: ' '}, 1)
	lose(t, g)
	if g.Scene() != game.SceneShop {
		t.Fatalf("scene %v after a defeat, want shop", g.Scene())
	}
	setUnique(t, g, func(s *game.Shop) { s.Levels[game.UpgradeStartSize] = 3; s.Levels[game.UpgradeDefense] = 2 })
	opts := g.ShopOptions()
	hover := opts[1].Rect
	rec := draw(t, g, hover.X+5, hover.Y+5)
	if _, ok := rec.text("Defeated: floor 1 again, 2 lives left"); !ok {
		t.Errorf("shop does not tell the defeat; texts:\n%s", rec.texts())
	}
	for _, o := range opts {
		name, ok := rec.text(o.Name)
		if !ok {
			t.Errorf("shop lacks %q", o.Name)
			continue
		}
		var bg *op
		for i := range rec.ops {
			r := rec.ops[i]
			if r.kind == "rect" && r.x == o.Rect.X && r.y == o.Rect.Y && r.w == o.Rect.W && r.h == o.Rect.H {
				bg = &rec.ops[i]
			}
		}
		if bg == nil {
			t.Errorf("option %q: no button over its rectangle %+v", o.Name, o.Rect)
			continue
		}
		if _, ok := rec.text(string(o.Key)); !ok {
			t.Errorf("option %q: key %q not shown", o.Name, o.Key)
		}
		switch {
		case o.Maxed:
			if name.c != Faint || bg.c != maxedBg {
				t.Errorf("maxed option %q: ink %v on %v, want greyed", o.Name, name.c, bg.c)
			}
		case o.Key == '2':
			if bg.c != Hover || name.c != Ink {
				t.Errorf("hovered option %q: ink %v on %v, want highlighted", o.Name, name.c, bg.c)
			}
		default:
			if bg.c != Panel || name.c != Ink {
				t.Errorf("option %q: ink %v on %v, want plain", o.Name, name.c, bg.c)
			}
		}
	}
	for _, s := range []string{"maxed", "2 / 5", "0 / 10"} {
		if _, ok := rec.text(s); !ok {
			t.Errorf("shop lacks level %q; texts:\n%s", s, rec.texts())
		}
	}
	// The option drawn under a point is the one a click there picks,
	// once the shop has been up for game.ClickGuard frames.
	update(t, g, game.Input{MouseX: hover.X + 5, MouseY: hover.Y + 5}, game.ClickGuard)
	update(t, g, game.Input{MouseX: hover.X + 5, MouseY: hover.Y + 5, Clicked: true}, 1)
	if g.Scene() != game.SceneFloor || g.Shop().Levels[game.UpgradePowerDuration] != 1 {
		t.Errorf("click on the hovered option: scene %v, shop %+v", g.Scene(), g.Shop())
	}
}

func TestGameOverScreen(t *testing.T) {
	g := newGame(t, 9)
	update(t, g, game.Input{Key: ' '}, 1)
	for range game.Lives {
		lose(t, g)
		if g.Scene() == game.SceneShop {
			update(t, g, game.Input{Key: '5'}, 1)
		}
	}
	if g.Scene() != game.SceneGameOver {
		t.Fatalf("scene %v after %d defeats, want game over", g.Scene(), game.Lives)
	}
	rec := draw(t, g, 0, 0)
	for _, s := range []string{"Game over", "Best floor 1", "3 defeats", GameOverPrompt} {
		if _, ok := rec.text(s); !ok {
			t.Errorf("game-over screen lacks %q; texts:\n%s", s, rec.texts())
		}
	}
	if _, ok := rec.text("Power-up"); ok {
		t.Error("game-over screen shows the HUD")
	}
	// The prompt says what one click does: a new run starts at once.
	if !strings.Contains(GameOverPrompt, "new run") {
		t.Errorf("prompt %q does not say a new run starts", GameOverPrompt)
	}
	update(t, g, game.Input{MouseX: 400, MouseY: 300}, game.ClickGuard)
	update(t, g, game.Input{Clicked: true, MouseX: 400, MouseY: 300}, 1)
	if st := g.State(); st.Scene != game.SceneFloor || st.Floor != 1 || st.Lives != game.Lives || st.Defeats != 0 {
		t.Fatalf("one click on game over: %+v, want a new run on floor 1", st)
	}
	rec = draw(t, g, 400, 300)
	if _, ok := rec.text("Floor 1/"); !ok {
		t.Errorf("after the click: no floor HUD; texts:\n%s", rec.texts())
	}
	if _, ok := rec.text(GameOverPrompt); ok {
		t.Error("after the click: the game-over prompt is still drawn")
	}
}

func TestSizeText(t *testing.T) {
	for _, tc := range []struct {
		size, reserve float64
		want          string
	}{
		{game.InitSize * 3, 0, "Size 15.0"},
		{15 + 2.5 - 2.1, 0, "Size 15.4"}, // float sums print as their one decimal
		{17.5, 0, "Size 17.5"},
		{24.9, 0, "Size 24.9"},
		{24.95, 0, "Size 24.95"}, // never rounded up to 25.0
		{24.98, 0, "Size 24.98"},
		{game.PlayerMaxSize, 0, "Size 24.99 (max)"},
		// The reserve beyond the cap ("size on eat") shows instead of
		// "(max)", and while a hit empties it.
		{game.PlayerMaxSize, 3, "Size 24.99 +3.0"},
		{game.PlayerMaxSize, 10, "Size 24.99 +10.0"},
		{game.PlayerMaxSize, 0.5, "Size 24.99 +0.5"},
	} {
		if got := SizeText(game.Player{Square: game.Square{Size: tc.size}, Reserve: tc.reserve}); got != tc.want {
			t.Errorf("SizeText(%v, reserve %v) = %q, want %q", tc.size, tc.reserve, got, tc.want)
		}
	}
}

// TestHUDAtTheCap: at the cap, the HUD shows 24.99 and marks it, never
// 25.0.
func TestHUDAtTheCap(t *testing.T) {
	g := newGame(t, 3)
	update(t, g, game.Input{Key: ' '}, 1)
	setUnique(t, g, func(p *game.Player) { p.Size = game.PlayerMaxSize })
	rec := draw(t, g, 400, 300)
	if _, ok := rec.text("Size 24.99 (max)"); !ok {
		t.Errorf("HUD at the cap lacks \"Size 24.99 (max)\"; texts:\n%s", rec.texts())
	}
	if _, ok := rec.text("25.0"); ok {
		t.Errorf("HUD at the cap shows 25.0; texts:\n%s", rec.texts())
	}
}

// TestHUDHidesNothing: over many frames of the bot's play, everything of
// the world is drawn below the HUD's strip, and the HUD draws nothing
// below it.
func TestHUDHidesNothing(t *testing.T) {
	g := newGame(t, 2)
	var bot game.Bot
	frames := 0
	for range 3000 {
		update(t, g, bot.Input(g), 1)
		if g.Scene() != game.SceneFloor {
			continue
		}
		frames++
		rec := draw(t, g, 400, 300)
		hud := -1
		for i, o := range rec.ops {
			if o.kind == "rect" && o.c == HUDPanel {
				hud = i
				break
			}
		}
		if hud < 0 {
			t.Fatal("no HUD on a floor")
		}
		for i, o := range rec.ops[1:hud] {
			if o.y < game.ArenaTop {
				t.Fatalf("frame %d: world op %d %+v drawn under the HUD (y < %v)", g.State().Frames, i+1, o, game.ArenaTop)
			}
		}
		for _, o := range rec.ops[hud:] {
			bottom := o.y + o.h
			if o.kind == "text" {
				bottom = o.y + o.size
			}
			if bottom > game.ArenaTop {
				t.Fatalf("frame %d: HUD op %+v reaches y %v, into the arena (from %v)", g.State().Frames, o, bottom, game.ArenaTop)
			}
		}
		if o := rec.ops[hud]; o.x != 0 || o.y != 0 || o.w != game.Width || o.h != game.ArenaTop {
			t.Errorf("HUD strip %+v, want (0, 0, %v, %v)", o, game.Width, game.ArenaTop)
		}
	}
	if frames < 100 {
		t.Errorf("only %d floor frames drawn", frames)
	}
}

// win makes the player clear the current floor on the next frame.
func win(t *testing.T, g *game.Game) {
	t.Helper()
	if _, err := ecs.DeleteAny[game.Friend](g.World()); err != nil {
		t.Fatal(err)
	}
	setUnique(t, g, func(s *game.Spawner) { s.Left = 0 })
	update(t, g, game.Input{MouseX: 400, MouseY: 300}, 1)
}

// TestShopShowsTheNextBonus: after a cleared floor, the shop names the
// bonus the friends gain on the next floor before the pick, and that is
// the bonus they get; after a defeat it says there is none.
func TestShopShowsTheNextBonus(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		g := newGame(t, seed)
		update(t, g, game.Input{Key: ' '}, 1)
		for floor := 1; floor <= 3; floor++ {
			win(t, g)
			if g.Scene() != game.SceneShop {
				t.Fatalf("seed %d: scene %v after clearing floor %d, want shop", seed, g.Scene(), floor)
			}
			next := g.Bonuses().Next
			want := fmt.Sprintf("On floor %d the friends gain: %s", floor+1, next)
			rec := draw(t, g, 0, 0)
			if _, ok := rec.text(want); !ok {
				t.Fatalf("seed %d, shop after floor %d lacks %q; texts:\n%s", seed, floor, want, rec.texts())
			}
			update(t, g, game.Input{Key: '5'}, 1)
			if b := g.Bonuses(); b.Last != next {
				t.Fatalf("seed %d: the shop showed %v, floor %d started with %v", seed, next, floor+1, b.Last)
			}
		}
		lose(t, g)
		rec := draw(t, g, 0, 0)
		if _, ok := rec.text("Floor 4 again: the friends gain no new bonus."); !ok {
			t.Errorf("seed %d, shop after a defeat: texts:\n%s", seed, rec.texts())
		}
		if _, ok := rec.text("friends gain:"); ok {
			t.Errorf("seed %d, shop after a defeat announces a bonus; texts:\n%s", seed, rec.texts())
		}
	}
}

func TestDrawRunsOnCallerAndReleasesPainter(t *testing.T) {
	g := newGame(t, 11)
	update(t, g, game.Input{Key: ' '}, 1)
	me := goroutineID()
	for range 20 { // workers would show up sooner or later
		rec := draw(t, g, 10, 10)
		for _, o := range rec.ops {
			if o.goroutine != me {
				t.Fatalf("painted on goroutine %s, not the caller's %s", o.goroutine, me)
			}
		}
	}
	c, err := ecs.GetUnique[Canvas](g.World())
	if err != nil {
		t.Fatal(err)
	}
	if c.P != nil {
		t.Error("the canvas keeps the painter after the frame")
	}
	if c.Frame != 20 {
		t.Errorf("canvas frame = %d, want 20", c.Frame)
	}
}

func TestDrawFrameErrors(t *testing.T) {
	g := game.New(1) // render workload never added
	err := DrawFrame(g, &recorder{}, 0, 0)
	var ue *ecs.UniqueError
	if !errors.As(err, &ue) && !errors.Is(err, ecs.ErrMissingUnique) {
		t.Errorf("DrawFrame without AddTo: %v, want a missing unique error", err)
	}
	g = newGame(t, 1)
	if err := AddTo(g.World()); err == nil {
		t.Error("AddTo twice: no error")
	}
}

// rewindOps returns the ops of the rewind indicator: those from its panel
// on, or nil when there is none.
func (r *recorder) rewindOps() []op {
	for i, o := range r.ops {
		if o.kind == "rect" && o.c == RewindPanel {
			return r.ops[i:]
		}
	}
	return nil
}

// TestRewindIndicator: while the game rewinds, the HUD's strip shows
// "REWIND", a bar of the history left and the seconds left, over the HUD,
// within the strip's right end; it shows nothing of it otherwise, and
// shows it on the start screen too.
func TestRewindIndicator(t *testing.T) {
	g := newGame(t, 7)
	update(t, g, game.Input{Key: ' '}, 1)
	update(t, g, game.Input{MouseX: 100, MouseY: 500}, 99)
	if rec := draw(t, g, 100, 500); rec.rewindOps() != nil {
		t.Fatal("rewind indicator drawn while playing")
	}
	if _, ok := draw(t, g, 100, 500).text("REWIND"); ok {
		t.Fatal("REWIND shown while playing")
	}

	update(t, g, game.Input{Rewind: true}, 60)
	h := g.History()
	if h != (game.History{Rewinding: true, Frames: 40}) {
		t.Fatalf("after 100 frames and 60 rewound: %+v, want rewinding with 40 frames left", h)
	}
	rec := draw(t, g, 100, 500)
	ops := rec.rewindOps()
	if ops == nil {
		t.Fatalf("no rewind indicator while rewinding; texts:\n%s", rec.texts())
	}
	hud := -1
	for i, o := range rec.ops {
		if o.kind == "rect" && o.c == HUDPanel {
			hud = i
			break
		}
	}
	if hud < 0 || len(rec.ops)-len(ops) < hud {
		t.Errorf("rewind indicator drawn before the HUD (HUD at op %d), which would hide it", hud)
	}
	for _, o := range ops {
		bottom := o.y + o.h
		if o.kind == "text" {
			bottom = o.y + o.size
		}
		if o.x < rewindX || bottom > game.ArenaTop {
			t.Errorf("rewind indicator op %+v outside the HUD strip's right end (x from %v, y to %v)", o, rewindX, game.ArenaTop)
		}
	}
	if o, ok := rec.text("REWIND"); !ok || o.c != White {
		t.Errorf("rewinding: REWIND shown as %+v (found %v), want in white; texts:\n%s", o, ok, rec.texts())
	}
	if _, ok := rec.text("0.7s"); !ok {
		t.Errorf("40 frames left, want 0.7s shown; texts:\n%s", rec.texts())
	}
	var bar []op
	for _, o := range ops {
		if o.kind == "rect" && o.c == RewindBar {
			bar = append(bar, o)
		}
	}
	if want := 40.0 / game.RewindFrames * rewindBarW; len(bar) != 1 || !near(bar[0].w, want) || want != RewindBarWidth(h) {
		t.Errorf("rewind bar %+v, want one of width %v (40 of %d frames)", bar, want, game.RewindFrames)
	}

	// At the oldest frame: an empty bar, 0.0s.
	update(t, g, game.Input{Rewind: true}, 100)
	rec = draw(t, g, 100, 500)
	if _, ok := rec.text("0.0s"); !ok {
		t.Errorf("at the oldest frame, want 0.0s shown; texts:\n%s", rec.texts())
	}
	for _, o := range rec.rewindOps() {
		if o.kind == "rect" && o.c == RewindBar {
			t.Errorf("at the oldest frame, rewind bar %+v drawn", o)
		}
	}
	// Released: gone.
	update(t, g, game.Input{MouseX: 100, MouseY: 500}, 1)
	if rec := draw(t, g, 100, 500); rec.rewindOps() != nil {
		t.Error("rewind indicator drawn after the key was released")
	}

	// On the start screen too.
	g = newGame(t, 1)
	update(t, g, game.Input{Rewind: true}, 1)
	rec = draw(t, g, 0, 0)
	if _, ok := rec.text("REWIND"); !ok || rec.rewindOps() == nil {
		t.Errorf("rewinding on the start screen: no indicator; texts:\n%s", rec.texts())
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
