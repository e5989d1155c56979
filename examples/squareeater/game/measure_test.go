package game

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// mousePlayer is a scripted player that plays roughly as a person with a
// mouse does, for measuring how hard a floor is: unlike the Bot, it sees
// the game only every react frames (a reaction time), aims with an error,
// moves the mouse at a limited speed, ignores friends about to turn red and
// keeps away from red friends only when it notices them close by. It is
// deterministic: its own randomness comes from its seed.
type mousePlayer struct {
	r            *rand.Rand
	react        int     // frames between two looks at the game
	speed        float64 // the farthest the mouse moves in a frame
	aim          float64 // standard deviation of the aim error, in pixels
	fear         float64 // distance at which a red friend is noticed
	x, y, gx, gy float64
	wait         int
	started      bool
}

// mouseSkill is how well a mousePlayer plays.
type mouseSkill struct {
	name             string
	react            int
	speed, aim, fear float64
}

// mouseSkills: "steady" looks at the game every 9 to 27 frames (0.15 to
// 0.45 s), moves the mouse up to 360 px/s, aims within about 14 px and
// notices red friends 40 px away; "novice" looks every 15 to 45 frames,
// moves up to 300 px/s, aims within about 20 px and notices red friends
// only 25 px away.
var mouseSkills = []mouseSkill{
	{"steady", 18, 6, 14, 40},
	{"novice", 30, 5, 20, 25},
}

func newMousePlayer(seed uint64, k mouseSkill) *mousePlayer {
	return &mousePlayer{r: rand.New(rand.NewPCG(seed, 0x6d6f757365)), react: k.react, speed: k.speed, aim: k.aim, fear: k.fear}
}

func (m *mousePlayer) Input(g *Game) Input {
	if !m.started {
		m.x, m.y, m.gx, m.gy, m.started = Width/2, Height/2, Width/2, Height/2, true
	}
	switch g.Scene() {
	case SceneStart, SceneGameOver:
		return Input{MouseX: m.x, MouseY: m.y, Key: ' '}
	case SceneShop:
		return Input{MouseX: m.x, MouseY: m.y, Key: '1' + rune(m.r.IntN(int(NumUpgrades)))}
	}
	if m.wait--; m.wait <= 0 {
		m.wait = m.react/2 + m.r.IntN(m.react+1)
		m.look(g)
	}
	dx, dy := m.gx-m.x, m.gy-m.y
	if d := math.Hypot(dx, dy); d > m.speed {
		dx, dy = dx/d*m.speed, dy/d*m.speed
	}
	m.x, m.y = clamp(m.x+dx, 0, Width), clamp(m.y+dy, 0, Height)
	return Input{MouseX: m.x, MouseY: m.y}
}

// look picks the next goal: away from a red friend noticed close by, else
// the nearest friend it can eat (a pellet when red friends are about and it
// is not powered up), with an aiming error.
func (m *mousePlayer) look(g *Game) {
	p := g.Player()
	px, py := p.Center()
	var friends ecs.View[Friend]
	var pellets ecs.View[PowerPellet]
	release, err := g.World().Borrow(&friends, &pellets)
	if err != nil {
		return
	}
	defer release()
	best, tx, ty, reds := math.Inf(1), px, py, 0
	for f := range friends.All() {
		fx, fy := f.Center()
		d := math.Hypot(fx-px, fy-py)
		if f.FullGrown() && !p.PoweredUp() {
			reds++
			if d-f.Size < m.fear {
				nx, ny := normalize(px-fx, py-fy)
				m.gx = clamp(px+nx*120+m.r.NormFloat64()*30, 0, Width)
				m.gy = clamp(py+ny*120+m.r.NormFloat64()*30, ArenaTop, Height)
				return
			}
			continue
		}
		if p.CanEat(*f) && d < best {
			best, tx, ty = d, fx, fy
		}
	}
	if reds > 0 {
		for pl := range pellets.All() {
			x, y := pl.Center()
			if d := math.Hypot(x-px, y-py); d < best {
				best, tx, ty = d, x, y
			}
		}
	}
	m.gx, m.gy = tx+m.r.NormFloat64()*m.aim, ty+m.r.NormFloat64()*m.aim
}

// player is what plays a measured game: a Bot or a mousePlayer.
type player interface{ Input(*Game) Input }

// floorOneCleared plays floor 1 of seed once with pl and reports whether it
// was cleared.
func floorOneCleared(seed uint64, pl player, newGame func(uint64) *Game) bool {
	g := newGame(seed)
	for range 20000 {
		if err := g.Update(pl.Input(g)); err != nil {
			panic(err)
		}
		st := g.State()
		if st.Scene == SceneShop || st.Scene == SceneGameOver {
			return st.LastFloor == Victory
		}
	}
	return false
}

// TestMeasureFloorOne prints measurements, not checks: the floor-1 clear
// rates (first try) of the Bot and of the mouse-like player over 200 seeds,
// for each configuration of measureConfigs. It runs only with
// SQUAREEATER_MEASURE=1:
//
//	SQUAREEATER_MEASURE=1 go test -run TestMeasureFloorOne -v ./game
func TestMeasureFloorOne(t *testing.T) {
	if os.Getenv("SQUAREEATER_MEASURE") == "" {
		t.Skip("set SQUAREEATER_MEASURE=1 to measure")
	}
	const floorSeeds = 200
	for _, c := range measureConfigs() {
		bot := 0
		mouse := make([]int, len(mouseSkills))
		for s := range uint64(floorSeeds) {
			if floorOneCleared(s+1, &Bot{}, c.newGame) {
				bot++
			}
			for i, k := range mouseSkills {
				if floorOneCleared(s+1, newMousePlayer(s+1, k), c.newGame) {
					mouse[i]++
				}
			}
		}
		out := fmt.Sprintf("bot %d%%", bot*100/floorSeeds)
		for i, k := range mouseSkills {
			out += fmt.Sprintf(", %s mouse player %d%%", k.name, mouse[i]*100/floorSeeds)
		}
		t.Logf("invincibility %s: floor 1 cleared on the first try over %d seeds: %s", c.name, floorSeeds, out)
	}
}

// TestMeasureRuns prints the Bot's runs over 50 seeds (SQUAREEATER_SEEDS
// to change it), with the guide's invincibility and the default, and with
// the bot's old fixed buying order and BotUpgrade: wins, best floors and
// upgrades bought. It runs only with SQUAREEATER_MEASURE=1:
//
//	SQUAREEATER_MEASURE=1 go test -run TestMeasureRuns -v ./game
func TestMeasureRuns(t *testing.T) {
	if os.Getenv("SQUAREEATER_MEASURE") == "" {
		t.Skip("set SQUAREEATER_MEASURE=1 to measure")
	}
	runSeeds, runFrames := 50, 60000
	if n, err := strconv.Atoi(os.Getenv("SQUAREEATER_SEEDS")); err == nil && n > 0 {
		runSeeds = n
	}
	oldOrder := []Upgrade{UpgradeStartSize, UpgradeDefense, UpgradePelletRate, UpgradePowerDuration, UpgradeEatSize}
	for _, c := range []measureConfig{{"guide's 5", func(s uint64) *Game { return NewWithOptions(s, GuideOptions()) }}, {fmt.Sprint("default ", InvincibleFrames), New}} {
		measureRuns(t, c, "old fixed order", oldOrder, runSeeds, runFrames)
		measureRuns(t, c, "BotUpgrade", nil, runSeeds, runFrames)
	}
}

func measureRuns(t *testing.T, c measureConfig, policy string, fixed []Upgrade, runSeeds, runFrames int) {
	wins, floors := 0, 0
	var levels [NumUpgrades]int
	var picked [NumUpgrades]int
	for s := range uint64(runSeeds) {
		g := c.newGame(s + 1)
		bot := Bot{fixed: fixed}
		for range runFrames {
			if err := g.Update(bot.Input(g)); err != nil {
				t.Fatal(err)
			}
			if g.Scene() == SceneGameOver {
				break
			}
		}
		sum := g.Summary()
		if sum.Result == Won {
			wins++
		}
		floors += sum.BestFloor
		for u, l := range sum.Shop {
			levels[u] += l
			if l > 0 {
				picked[u]++
			}
		}
	}
	out := ""
	for u := range NumUpgrades {
		out += fmt.Sprintf("\n  %-20s mean level %.1f/%d, bought on %d/%d seeds", u, float64(levels[u])/float64(runSeeds), u.Max(), picked[u], runSeeds)
	}
	t.Logf("invincibility %s, shop %s: bot runs over %d seeds (at most %d frames each): won %d/%d, mean best floor %.1f; upgrades:%s", c.name, policy, runSeeds, runFrames, wins, runSeeds, float64(floors)/float64(runSeeds), out)
}

type measureConfig struct {
	name    string
	newGame func(uint64) *Game
}
