package game

import "fmt"

// Upgrade is an upgrade the player can pick in the shop.
type Upgrade int

// The upgrades, in the order the shop lists them (keys '1' to '5').
const (
	// UpgradeStartSize: the player starts each floor 3.0 bigger (at most 3
	// times, so at most 24, still under MaxSize).
	UpgradeStartSize Upgrade = iota
	// UpgradePowerDuration: a power pellet lasts 10 frames longer (at most
	// 10 times).
	UpgradePowerDuration
	// UpgradePelletRate: power pellets spawn more often: the one chance in
	// N per frame goes from N = 150 down by 10 per level (at most 10 times,
	// so one in 50, one in 25 when there is none).
	UpgradePelletRate
	// UpgradeEatSize: eating a friend makes the player 0.5 bigger than the
	// guide's 2.5, and the player keeps up to 1.0 more of what eating adds
	// beyond the cap in reserve, which hits take before the player's size
	// (at most 10 times: 5.0 per friend, a reserve of up to 10). Without
	// the reserve this upgrade was worth almost nothing once the start size
	// was maxed: the first friend eaten took the player to the cap.
	UpgradeEatSize
	// UpgradeDefense: a hit takes 0.4 less than the guide's 2.5 off the
	// player's size (at most 5 times, so 0.5).
	UpgradeDefense
	// NumUpgrades is the number of upgrades.
	NumUpgrades
)

var upgradeInfo = [NumUpgrades]struct {
	name, short, effect string
	max                 int
}{
	{"Start size", "start", "+3.0 size when a floor starts", 3},
	{"Power-up duration", "power", "+10 frames of power-up", 10},
	{"Power-up spawn rate", "pellets", "power pellets spawn more often", 10},
	{"Size on eat", "eat", "+0.5 per eat; +1 reserve past cap", 10},
	{"Defense", "defense", "-0.4 size lost per hit", 5},
}

func (u Upgrade) String() string {
	if u >= 0 && u < NumUpgrades {
		return upgradeInfo[u].name
	}
	return fmt.Sprintf("Upgrade(%d)", int(u))
}

// Max returns how many times u can be picked.
func (u Upgrade) Max() int { return upgradeInfo[u].max }

// Shop is a unique: the player's upgrade levels in this run.
type Shop struct {
	// Levels counts how many times each upgrade was picked.
	Levels [NumUpgrades]int
	// Picks counts the upgrades picked in this run.
	Picks int
}

// Maxed reports whether u cannot be picked any more.
func (s Shop) Maxed(u Upgrade) bool { return s.Levels[u] >= u.Max() }

// AllMaxed reports whether no upgrade can be picked: the shop then lets the
// player continue with space or a click.
func (s Shop) AllMaxed() bool {
	for u := range NumUpgrades {
		if !s.Maxed(u) {
			return false
		}
	}
	return true
}

// Rect is a rectangle of the logical screen, with its top-left corner at
// (X, Y).
type Rect struct{ X, Y, W, H float64 }

// Contains reports whether the point (x, y) is inside r.
func (r Rect) Contains(x, y float64) bool {
	return x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H
}

// ShopOption is one choice of the shop screen, as the renderer shows it.
type ShopOption struct {
	// Key picks the option ('1' to '5'); so does a click inside Rect.
	Key     rune
	Upgrade Upgrade
	// Name and Effect describe the upgrade.
	Name, Effect string
	// Level is how many times it was picked, Max how many times it can be.
	Level, Max int
	// Maxed options cannot be picked.
	Maxed bool
	// Rect is where the renderer draws the option, and where a click picks
	// it.
	Rect Rect
}

// Layout of the shop screen's options: stacked, centred horizontally.
const (
	shopX, shopY, shopW, shopH, shopGap = 200.0, 130.0, 400.0, 70.0, 14.0
)

// optionRect returns where option u sits on the shop screen.
func optionRect(u Upgrade) Rect {
	return Rect{X: shopX, Y: shopY + float64(u)*(shopH+shopGap), W: shopW, H: shopH}
}

// Options returns the shop's five options.
func (s Shop) Options() []ShopOption {
	opts := make([]ShopOption, NumUpgrades)
	for u := range NumUpgrades {
		info := upgradeInfo[u]
		opts[u] = ShopOption{
			Key:     '1' + rune(u),
			Upgrade: u,
			Name:    info.name,
			Effect:  info.effect,
			Level:   s.Levels[u],
			Max:     info.max,
			Maxed:   s.Maxed(u),
			Rect:    optionRect(u),
		}
	}
	return opts
}

// choice returns the upgrade that in picks, if any: a key '1' to '5', or a
// click inside an option's rectangle. A maxed upgrade is not a choice.
func (s Shop) choice(in Input) (Upgrade, bool) {
	u := Upgrade(-1)
	if in.Key >= '1' && in.Key < '1'+rune(NumUpgrades) {
		u = Upgrade(in.Key - '1')
	} else if in.Clicked {
		for v := range NumUpgrades {
			if optionRect(v).Contains(in.MouseX, in.MouseY) {
				u = v
			}
		}
	}
	if u < 0 || s.Maxed(u) {
		return 0, false
	}
	return u, true
}

// shortLevels prints the levels compactly: "start 2/3 power 0/10 ...".
func (s Shop) shortLevels() string {
	out := ""
	for u := range NumUpgrades {
		if u > 0 {
			out += " "
		}
		out += fmt.Sprintf("%s %d/%d", upgradeInfo[u].short, s.Levels[u], upgradeInfo[u].max)
	}
	return out
}
