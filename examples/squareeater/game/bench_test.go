package game

import (
	"testing"
	"time"

	"github.com/slipway-ecs/slipway/ecs"
)

// benchFriends is the number of friends BenchmarkGameUpdate plays with.
const benchFriends = 200

// fillFriends replaces the friends of g with n friends spread over the
// window, with sizes from InitSize to MaxSize, and nothing left to spawn.
func fillFriends(tb testing.TB, g *Game, n int) {
	tb.Helper()
	w := g.World()
	if _, err := ecs.DeleteAny[Friend](w); err != nil {
		tb.Fatal(err)
	}
	friends := make([]Friend, n)
	for i := range friends {
		size := InitSize + (MaxSize-InitSize)*float64(i%8)/7
		friends[i] = Friend{Square{X: float64(i%20) * (Width - MaxSize) / 19, Y: float64(i/20) * (Height - MaxSize) / 9, Size: size}}
	}
	if _, err := ecs.BulkAddEntity1(w, friends); err != nil {
		tb.Fatal(err)
	}
	setUnique(tb, g, func(s *Spawner) { s.Left = 0 })
}

// BenchmarkGameUpdate measures one logic frame of a floor with 200
// friends: the whole main_loop workload plus Update's bookkeeping. The
// player is kept invincible so the floor never ends; friends chase it and
// crowd around it, the costly case for moveFriends. It reports wall time
// per frame (µs/frame) and, where it can, the process's CPU time per frame
// (cpu-µs/frame), which stays meaningful when other work shares the CPUs.
func BenchmarkGameUpdate(b *testing.B) {
	g := New(1)
	if err := g.Update(Input{Key: ' '}); err != nil {
		b.Fatal(err)
	}
	fillFriends(b, g, benchFriends)
	setUnique(b, g, func(p *Player) { p.ICounter = 1 << 40 })
	in := Input{MouseX: Width / 2, MouseY: Height / 2}
	// Warm up: let the friends gather around the player.
	for range 300 {
		if err := g.Update(in); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	frames := 0
	// A b.N loop, not b.Loop: b.Loop with the timer stopped never ends
	// under Go 1.24.0 and 1.24.1 (golang/go#72922).
	b.ResetTimer()
	start := time.Now()
	cpuStart, cpuOK := cpuTime()
	var paused, cpuPaused time.Duration
	for range b.N {
		if err := g.Update(in); err != nil {
			b.Fatal(err)
		}
		frames++
		if g.Scene() != SceneFloor || countFriends(b, g) < benchFriends {
			// A pellet powered the player up and some friends were eaten.
			b.StopTimer()
			t := time.Now()
			c, _ := cpuTime()
			fillFriends(b, g, benchFriends)
			setUnique(b, g, func(p *Player) { p.PelletCounter = 0 })
			paused += time.Since(t)
			c2, _ := cpuTime()
			cpuPaused += c2 - c
			b.StartTimer()
		}
	}
	elapsed := time.Since(start) - paused
	b.ReportMetric(float64(elapsed.Nanoseconds())/1e3/float64(frames), "µs/frame")
	if cpuEnd, ok := cpuTime(); ok && cpuOK {
		b.ReportMetric(float64((cpuEnd-cpuStart-cpuPaused).Nanoseconds())/1e3/float64(frames), "cpu-µs/frame")
	}
}
