package game

import (
	"math"

	"github.com/slipway-ecs/slipway/ecs"
)

// BotStep is the farthest the bot moves the mouse in one frame, roughly a
// brisk hand: friends move 1.5 (plus bonuses).
const BotStep = 7.0

// Bot plays the game for headless runs and tests: it chases edible friends
// and power pellets, keeps away from full-grown friends (and from those
// about to be), and picks shop upgrades by what the last floor needed (see
// [BotUpgrade]). It is deterministic: it reads only the game.
type Bot struct {
	x, y  float64 // the mouse
	moved bool
	// fixed, if set, is an order to buy upgrades in instead of
	// BotUpgrade's (the bot's order before it; the measurements compare
	// the two).
	fixed []Upgrade
}

// botHurt is the number of hits on a floor that makes the bot buy
// protection.
const botHurt = 1

// botLead makes the bot pick an upgrade sooner in its group, as if it had
// that many levels fewer.
var botLead = [NumUpgrades]int{UpgradeDefense: -3, UpgradePelletRate: -2}

// BotUpgrade returns the upgrade the bot picks in the shop after a floor
// that ended with last and hits hits, and false when every upgrade is
// maxed. A big start comes first: it lets the bot eat most friends at
// once. Then the pick depends on how the last floor went:
//   - after a defeat or a hit, protection: defense (each hit costs less)
//     or size on eat (a reserve beyond the cap, refilled by eating, takes
//     the hits first), whichever is less far along (level/max), counting
//     defense as 3 levels behind (it is worth more per pick), defense on a
//     tie;
//   - after a floor cleared without a hit, attack: power pellets spawn
//     more often, or last longer, whichever is less far along, counting
//     the spawn rate as 2 levels behind (time is worth little without
//     pellets), the spawn rate on a tie.
//
// When the group it wants is maxed, it takes the other one.
func BotUpgrade(s Shop, last GameOver, hits int) (Upgrade, bool) {
	if !s.Maxed(UpgradeStartSize) {
		return UpgradeStartSize, true
	}
	protect := [2]Upgrade{UpgradeDefense, UpgradeEatSize}
	attack := [2]Upgrade{UpgradePelletRate, UpgradePowerDuration}
	groups := [2][2]Upgrade{attack, protect}
	if last == Defeat || hits >= botHurt {
		groups = [2][2]Upgrade{protect, attack}
	}
	for _, g := range groups {
		best, ok := Upgrade(0), false
		for _, u := range g {
			if s.Maxed(u) {
				continue
			}
			// Compare how far along each is: Level/Max, cross-multiplied.
			if !ok || (s.Levels[u]+botLead[u])*best.Max() < (s.Levels[best]+botLead[best])*u.Max() {
				best, ok = u, true
			}
		}
		if ok {
			return best, true
		}
	}
	return 0, false
}

// Input returns the bot's input for the next frame of g.
func (b *Bot) Input(g *Game) Input {
	if !b.moved {
		b.x, b.y, b.moved = Width/2, Height/2, true
	}
	in := Input{MouseX: b.x, MouseY: b.y}
	switch g.Scene() {
	case SceneStart, SceneGameOver:
		in.Key = ' '
	case SceneShop:
		in.Key = ' '
		u, ok := BotUpgrade(g.Shop(), g.State().LastFloor, mustUnique[Score](g.w).Hits)
		if b.fixed != nil {
			ok = false
			for _, v := range b.fixed {
				if !g.Shop().Maxed(v) {
					u, ok = v, true
					break
				}
			}
		}
		if ok {
			in.Key = '1' + rune(u)
		}
	case SceneFloor:
		dx, dy := b.steer(g)
		b.x = clamp(b.x+dx*BotStep, 0, Width)
		b.y = clamp(b.y+dy*BotStep, 0, Height)
		in.MouseX, in.MouseY = b.x, b.y
	}
	return in
}

// steer returns the direction (of length at most 1) the bot wants to move
// the player in.
func (b *Bot) steer(g *Game) (float64, float64) {
	p := g.Player()
	rules := g.Rules()
	var friends ecs.View[Friend]
	var pellets ecs.View[PowerPellet]
	release, err := g.World().Borrow(&friends, &pellets)
	if err != nil {
		return 0, 0
	}
	defer release()
	px, py := p.Center()

	// Danger: full-grown friends (unless the power-up lasts long enough to
	// reach them) and friends that will be full-grown before long push the
	// player away, harder when close.
	powered := p.PelletCounter > 20
	var ax, ay float64
	reds := 0
	for f := range friends.All() {
		framesToRed := (MaxSize - f.Size) / rules.FriendGrowth
		dangerous := f.FullGrown() && !powered || !f.FullGrown() && f.Size > p.Size && framesToRed < 20
		if f.FullGrown() {
			reds++
		}
		if !dangerous {
			continue
		}
		fx, fy := f.Center()
		dx, dy := px-fx, py-fy
		d := math.Hypot(dx, dy) - (f.Size+p.Size)/2
		const reach = 90.0
		if d < reach {
			w := (reach - max(d, 1)) / reach
			nx, ny := normalize(dx, dy)
			ax += nx * w * w * 4
			ay += ny * w * w * 4
		}
	}
	// Walls push a little, so that the player is not cornered.
	const wall = 40.0
	ax += max(0, wall-px) / wall
	ax -= max(0, px-(Width-wall)) / wall
	ay += max(0, wall-(py-ArenaTop)) / wall
	ay -= max(0, py-(Height-wall)) / wall

	// Target: the closest edible friend, or a pellet when full-grown
	// friends are around and the player is not powered up; a pellet counts
	// as closer than it is then.
	best, tx, ty := math.Inf(1), 0.0, 0.0
	for f := range friends.All() {
		edible := p.Size >= f.Size || f.FullGrown() && powered
		if !edible {
			continue
		}
		fx, fy := f.Center()
		if d := math.Hypot(fx-px, fy-py); d < best {
			best, tx, ty = d, fx, fy
		}
	}
	if !powered && reds > 0 {
		for pl := range pellets.All() {
			x, y := pl.Center()
			if d := math.Hypot(x-px, y-py) / 2; d < best {
				best, tx, ty = d, x, y
			}
		}
	}
	var dx, dy float64
	if !math.IsInf(best, 1) {
		dx, dy = normalize(tx-px, ty-py)
		if best < BotStep {
			dx, dy = dx*best/BotStep, dy*best/BotStep
		}
	}
	dx += ax
	dy += ay
	if l := math.Hypot(dx, dy); l > 1 {
		dx, dy = dx/l, dy/l
	}
	return dx, dy
}
