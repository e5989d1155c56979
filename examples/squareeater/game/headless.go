package game

import (
	"fmt"
	"time"
)

// Summary describes a game: how far it went and how long its updates took.
type Summary struct {
	Seed   uint64
	Frames int // frames played ([State].Frames: calls to Update, less those rewound)
	Scene  Scene
	// Floor is the floor being played (or next); BestFloor the highest
	// reached; Cleared and Defeats count floors won and lost.
	Floor, BestFloor, Cleared, Defeats int
	// Eaten counts friends eaten.
	Eaten int
	// Shop holds the upgrade levels picked, Bonuses the friends' bonuses.
	Shop    [NumUpgrades]int
	Bonuses [NumBonuses]int
	Result  Result
	// MeanUpdate and WorstUpdate are the mean and the longest time one call
	// to Update took. They are measured, not part of the game: two runs of
	// the same game have the same summary apart from them.
	MeanUpdate, WorstUpdate time.Duration
}

// Summary returns the game's summary so far.
func (g *Game) Summary() Summary {
	st := g.State()
	s := Summary{
		Seed:      g.seed,
		Frames:    st.Frames,
		Scene:     st.Scene,
		Floor:     st.Floor,
		BestFloor: st.BestFloor,
		Cleared:   st.Cleared,
		Defeats:   st.Defeats,
		Eaten:     st.Eaten,
		Shop:      g.Shop().Levels,
		Bonuses:   g.Bonuses().Levels,
		Result:    st.Result,
	}
	if g.timed > 0 {
		s.MeanUpdate = g.total / time.Duration(g.timed)
		s.WorstUpdate = g.slow
	}
	return s
}

// String prints the summary on one line.
func (s Summary) String() string {
	result := s.Result.String()
	if s.Result == Playing {
		result += fmt.Sprintf(" (%s, floor %d)", s.Scene, s.Floor)
	}
	return fmt.Sprintf("seed %d: floors reached %d (%d cleared, %d lost), friends eaten %d, shop [%s], result %s, frames %d, update mean %s worst %s",
		s.Seed, s.BestFloor, s.Cleared, s.Defeats, s.Eaten, Shop{Levels: s.Shop}.shortLevels(), result, s.Frames,
		fmtDuration(s.MeanUpdate), fmtDuration(s.WorstUpdate))
}

func fmtDuration(d time.Duration) string {
	return fmt.Sprintf("%.1fµs", float64(d)/float64(time.Microsecond))
}

// RunHeadless plays a game with the built-in [Bot] for at most frames
// frames, or until the run is over, and returns its summary. It panics if
// [Game.Update] fails, which only a bug makes it do.
func RunHeadless(seed uint64, frames int) Summary {
	return RunHeadlessWithOptions(seed, frames, Options{})
}

// RunHeadlessWithOptions is RunHeadless with rules changed by o.
func RunHeadlessWithOptions(seed uint64, frames int, o Options) Summary {
	return NewWithOptions(seed, o).PlayBot(frames)
}

// PlayBot lets the built-in [Bot] play g for at most frames frames, or
// until the run is over, and returns the game's summary. It panics if
// [Game.Update] fails, which only a bug makes it do.
func (g *Game) PlayBot(frames int) Summary {
	var bot Bot
	for range frames {
		if err := g.Update(bot.Input(g)); err != nil {
			panic(err) // only a bug makes Update fail
		}
		if g.Scene() == SceneGameOver {
			break
		}
	}
	return g.Summary()
}
