// Package catchup decides how many extra logic frames to play when the
// screen is drawn too slowly.
//
// Ebitengine calls Update 60 times a second (TPS), but it catches up only a
// few missed ticks after a slow frame: in a browser without a GPU (software
// GL), drawing 7 to 12 frames a second, the game then ran in slow motion.
// A [Clock] counts the ticks that wall time asks for against those played,
// and tells Update how many more to play, capped so that a slow machine
// still draws now and then, and forgiving a long pause (a hidden tab)
// rather than replaying it.
//
// It reads no clock itself: the caller passes the time, so that it is
// deterministic in tests. The game logic stays deterministic per seed and
// inputs: catching up only adds logic frames, with the same mouse position
// and no click or key (those are delivered once, on the first frame).
package catchup

import "time"

// Limits of a [Clock].
const (
	// MaxExtra is the most extra logic frames played in one Update: with
	// Ebitengine's own catch-up, enough for about 7 drawn frames a second.
	MaxExtra = 8
	// Threshold is how many ticks behind the game must be before it
	// catches up, so that the jitter of a game drawn at full speed never
	// plays an extra frame.
	Threshold = 2.0
	// MaxBehind caps the ticks owed: a slower machine plays in slow motion
	// rather than ever further behind.
	MaxBehind = 30.0
	// Pause is the longest gap between two Updates still caught up; after
	// a longer one (a hidden tab, a stopped debugger) the game goes on from
	// where it was.
	Pause = time.Second
)

// Clock counts the logic frames owed to wall time. Its zero value is
// ready; the first call to Extra starts it.
type Clock struct {
	last    time.Time
	started bool
	// behind is the number of ticks wall time asks for beyond those
	// played; negative when Ebitengine's own catch-up played ahead.
	behind float64
}

// Extra is called once per Ebitengine Update, at time now, after that
// Update played its one logic frame, with tps the ticks per second. It
// returns how many extra logic frames to play now (none when tps is not
// positive: Ebitengine's ticks then follow the drawn frames).
func (c *Clock) Extra(now time.Time, tps float64) int {
	if tps <= 0 {
		return 0
	}
	if !c.started {
		c.last, c.started = now, true
		return 0
	}
	gap := now.Sub(c.last)
	c.last = now
	if gap < 0 || gap > Pause {
		c.behind = 0
		return 0
	}
	c.behind += gap.Seconds()*tps - 1
	c.behind = max(-MaxBehind, min(c.behind, MaxBehind))
	if c.behind < Threshold {
		return 0
	}
	n := min(int(c.behind), MaxExtra)
	c.behind -= float64(n)
	return n
}
