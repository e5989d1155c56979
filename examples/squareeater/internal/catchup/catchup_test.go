package catchup

import (
	"testing"
	"time"
)

// play calls Extra at the given times between Updates (ms after the
// first) and returns the logic frames played in all: one per Update plus
// the extra ones.
func play(gaps []float64) (frames int, extras []int) {
	var c Clock
	t := time.Unix(0, 0)
	frames = 1
	c.Extra(t, 60)
	for _, g := range gaps {
		t = t.Add(time.Duration(g * float64(time.Millisecond)))
		n := c.Extra(t, 60)
		frames += 1 + n
		extras = append(extras, n)
	}
	return frames, extras
}

func repeat(ms float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = ms
	}
	return out
}

func TestClock(t *testing.T) {
	sec := func(f float64) int { return int(f * 60) }
	for _, tc := range []struct {
		name       string
		gaps       []float64
		lo, hi     int // logic frames played in all
		noneExtras bool
	}{
		// 60 Updates a second, with jitter: never an extra frame.
		{"full speed", repeat(1000.0/60, 600), 601, 601, true},
		{"jitter", func() []float64 {
			var g []float64
			for range 300 {
				g = append(g, 1000.0/60+4, 1000.0/60-4)
			}
			return g
		}(), 601, 601, true},
		// 10 Updates a second (Ebitengine gave up catching up): about 60
		// frames a second all the same.
		{"10 per second", repeat(100, 100), sec(10) - 2, sec(10) + 1, false},
		// 4 Updates a second: capped at 1+MaxExtra per Update.
		{"4 per second", repeat(250, 40), 1 + 40*(1+MaxExtra), 1 + 40*(1+MaxExtra), false},
		// Ebitengine's own catch-up: a slow frame then 4 quick Updates;
		// the clock counts them and does not play them twice (it ends
		// up to the last 4 Updates ahead, repaid at the next slow frame).
		{"Ebitengine catching up", func() []float64 {
			var g []float64
			for range 20 {
				g = append(g, 150, 0.1, 0.1, 0.1, 0.1)
			}
			return g
		}(), sec(3.008) - 2, sec(3.008) + 5, false},
		// A pause of 5 s is not replayed.
		{"pause", append(append(repeat(1000.0/60, 60), 5000), repeat(1000.0/60, 60)...), 122, 122, true},
	} {
		frames, extras := play(tc.gaps)
		if frames < tc.lo || frames > tc.hi {
			t.Errorf("%s: %d logic frames, want %d to %d", tc.name, frames, tc.lo, tc.hi)
		}
		for _, n := range extras {
			if n > MaxExtra || n < 0 || tc.noneExtras && n != 0 {
				t.Errorf("%s: %d extra frames in one Update", tc.name, n)
				break
			}
		}
	}
}

func TestClockWithoutTPS(t *testing.T) {
	var c Clock
	now := time.Unix(0, 0)
	for range 10 {
		now = now.Add(time.Second / 4)
		if n := c.Extra(now, 0); n != 0 {
			t.Fatalf("Extra with no TPS = %d, want 0", n)
		}
	}
}
