package game

import (
	"fmt"
	"math/rand/v2"
)

// Scene is the screen the game shows.
type Scene int

// The scenes, in the order a run meets them.
const (
	// SceneStart waits for space or a click to start a run.
	SceneStart Scene = iota
	// SceneFloor plays a floor: the main_loop workload runs every frame.
	SceneFloor
	// SceneShop waits for the player to pick an upgrade, after every floor.
	SceneShop
	// SceneGameOver shows how the run ended; space or a click starts a new
	// run at once (floor 1, as from the start screen).
	SceneGameOver
)

func (s Scene) String() string {
	switch s {
	case SceneStart:
		return "start"
	case SceneFloor:
		return "floor"
	case SceneShop:
		return "shop"
	case SceneGameOver:
		return "game over"
	}
	return fmt.Sprintf("Scene(%d)", int(s))
}

// GameOver is the error [checkGameOver] returns when a floor ends, as in the
// guide: the caller of the workload finds it with errors.As.
type GameOver int

// How a floor ends.
const (
	// Defeat: the player shrank below [InitSize].
	Defeat GameOver = iota + 1
	// Victory: every friend of the floor was eaten.
	Victory
)

func (g GameOver) Error() string {
	switch g {
	case Defeat:
		return "defeat"
	case Victory:
		return "victory"
	}
	return fmt.Sprintf("GameOver(%d)", int(g))
}

// Result is how a run ends.
type Result int

// Run results.
const (
	// Playing: the run is not over.
	Playing Result = iota
	// Won: the player cleared [FinalFloor].
	Won
	// Lost: the player was defeated [Lives] times.
	Lost
)

func (r Result) String() string {
	switch r {
	case Playing:
		return "playing"
	case Won:
		return "won"
	case Lost:
		return "lost"
	}
	return fmt.Sprintf("Result(%d)", int(r))
}

// What ends a run.
const (
	// FinalFloor is the last floor: clearing it wins the run.
	FinalFloor = 20
	// Lives is the number of defeats that end a run. Before that, a defeat
	// sends the player to the shop and back to the same floor.
	Lives = 3
)

// State is a unique: where the run is. [Game.Update] changes it between
// workload runs; systems do not write it.
type State struct {
	Scene Scene
	// Floor is the floor being played, or in the shop the floor played
	// next.
	Floor int
	// BestFloor is the highest floor reached in this run.
	BestFloor int
	// Lives is the number of defeats left before the run is lost.
	Lives int
	// Cleared counts floors cleared, Defeats floors lost, Eaten friends
	// eaten, all in this run.
	Cleared, Defeats, Eaten int
	// LastFloor is how the last floor ended (0 before the first).
	LastFloor GameOver
	// Result is how the run ended, or Playing.
	Result Result
	// Frames counts the frames played since [New], less those a rewind
	// took back (it is restored with the rest of the state); FloorFrames
	// the frames of the current floor; SceneFrames the frames since the
	// scene last changed (0 on the frame that changed it).
	Frames, FloorFrames, SceneFrames int
}

// ClickGuard is how many logic frames (half a second) the shop and the
// game-over screen ignore mouse clicks for after they appear: the player
// steers with the mouse, and a click made as the floor ended must not pick
// an upgrade or start a new run unseen. Keys act at once.
const ClickGuard = 30

// Rules is a unique: the numbers a floor is played with, set when it starts
// from the guide's constants, the friends' bonuses and the player's
// upgrades.
type Rules struct {
	// Friends: size at spawn, growth per frame, speed per frame, spawn
	// chance per frame in hundredths.
	FriendStart, FriendGrowth, FriendSpeed float64
	FriendSpawnRate                        int
	// FriendsTotal friends spawn on the floor, FriendsAtStart of them at
	// once when it starts.
	FriendsTotal, FriendsAtStart int
	// PelletPeriod: a pellet spawns with one chance in PelletPeriod each
	// frame (in PelletPeriod/2 when there is none).
	PelletPeriod int
	// PowerUpFrames is how long a pellet powers the player up.
	PowerUpFrames int
	// InvincibleFrames is how long the player is invincible after a hit
	// ([InvincibleFrames] unless [Options] say otherwise).
	InvincibleFrames int
	// PlayerStart is the player's size when the floor starts; EatGain what
	// eating a friend adds to it; HitLoss what a hit takes from it.
	PlayerStart, EatGain, HitLoss float64
	// ReserveMax is the most size the player keeps in reserve beyond the
	// cap (see [Player].Reserve): 1.0 per level of "size on eat".
	ReserveMax float64
}

// Spawner is a unique: the friends of the floor that have not spawned yet.
type Spawner struct {
	// Left is the number of friends still to spawn; Spawned the number that
	// did, bulk-added ones included.
	Left, Spawned int
}

// Score is a unique: what happened on the current floor.
type Score struct {
	// Eaten friends, Hits taken, Pellets taken.
	Eaten, Hits, Pellets int
}

// rng is a unique: the game's only source of randomness. It holds the
// PCG generator's state by value, not a pointer to it, so that a snapshot
// of the world (ecs.World.SnapshotTo, which copies uniques by value) copies
// the state itself and a rewind puts it back: after a rewind the game
// draws the same numbers again and replays the same inputs the same way.
type rng struct{ src rand.PCG }

func newRng(seed uint64) rng {
	return rng{*rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)}
}

// rand returns a generator that draws from r's state, advancing it. Use
// it only while r is borrowed (or is a local copy that is then stored
// back). A rand.Rand holds nothing but its source, so it draws what the
// former rand.New(rand.NewPCG(...)) drew: seeds play the same games.
func (r *rng) rand() *rand.Rand { return rand.New(&r.src) }

// Bonus is a bonus the friends gain on each new floor.
type Bonus int

// The friends' bonuses.
const (
	BonusStartSize Bonus = iota // start size +0.5
	BonusGrowth                 // growth rate +0.05
	BonusSpeed                  // speed +0.1
	BonusNumber                 // number of friends per floor +3
	BonusSpawnRate              // spawn rate +4 (hundredths per frame)
	NumBonuses
)

var bonusNames = [NumBonuses]string{"start size +0.5", "growth rate +0.05", "speed +0.1", "number +3", "spawn rate +4"}

func (b Bonus) String() string {
	if b >= 0 && b < NumBonuses {
		return bonusNames[b]
	}
	return fmt.Sprintf("Bonus(%d)", int(b))
}

// FriendBonuses is a unique: the bonuses the friends gained in this run,
// and the one they gain on the next floor.
type FriendBonuses struct {
	// Levels counts each bonus.
	Levels [NumBonuses]int
	// Count is the number of bonuses gained (one per new floor after the
	// first); Last is the latest, valid when Count > 0.
	Count int
	Last  Bonus
	// Next is the bonus the friends gain when the next floor starts, valid
	// when HasNext is set. It is drawn as soon as a floor is cleared, so
	// that the shop shows it before the player picks an upgrade; it is
	// added to Levels when the next floor starts. A floor replayed after a
	// defeat brings no bonus.
	Next    Bonus
	HasNext bool
}

// makeRules computes the rules of floor from the friends' bonuses and the
// player's upgrades.
func makeRules(floor int, b FriendBonuses, shop Shop, o Options) Rules {
	total := (floor+1)*2 + 3*b.Levels[BonusNumber]
	return Rules{
		FriendStart:      min(InitSize+0.5*float64(b.Levels[BonusStartSize]), MaxSize),
		FriendGrowth:     GrowthRate + 0.05*float64(b.Levels[BonusGrowth]),
		FriendSpeed:      Speed + 0.1*float64(b.Levels[BonusSpeed]),
		FriendSpawnRate:  FriendSpawnRate + 4*b.Levels[BonusSpawnRate],
		FriendsTotal:     total,
		FriendsAtStart:   (total + 1) / 2,
		PelletPeriod:     PowerPelletSpawnRate - 10*shop.Levels[UpgradePelletRate],
		PowerUpFrames:    PowerUpFrames + 10*shop.Levels[UpgradePowerDuration],
		InvincibleFrames: o.invincibleFrames(),
		PlayerStart:      InitSize*3 + 3*float64(shop.Levels[UpgradeStartSize]),
		EatGain:          InitSize/2 + 0.5*float64(shop.Levels[UpgradeEatSize]),
		HitLoss:          InitSize/2 - 0.4*float64(shop.Levels[UpgradeDefense]),
		ReserveMax:       1.0 * float64(shop.Levels[UpgradeEatSize]),
	}
}
