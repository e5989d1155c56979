package game

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// untimed returns s without its measured update times.
func untimed(s Summary) Summary {
	s.MeanUpdate, s.WorstUpdate = 0, 0
	return s
}

// worldHash hashes everything the game's state is made of.
func worldHash(tb testing.TB, g *Game) uint64 {
	tb.Helper()
	h := fnv.New64a()
	w := g.World()
	if err := ecs.Each1(w, func(id ecs.EntityID, f *Friend) { fmt.Fprint(h, id, *f) }); err != nil {
		tb.Fatal(err)
	}
	if err := ecs.Each1(w, func(id ecs.EntityID, p *PowerPellet) { fmt.Fprint(h, id, *p) }); err != nil {
		tb.Fatal(err)
	}
	fmt.Fprint(h, g.State(), g.Player(), g.Rules(), g.Shop(), g.Bonuses(),
		mustUnique[Spawner](w), mustUnique[Score](w))
	return h.Sum64()
}

// scripted returns a pseudo-random input sequence: a wandering mouse,
// sometimes a click or a key.
func scripted(seed uint64, n int) []Input {
	r := rand.New(rand.NewPCG(seed, 7))
	ins := make([]Input, n)
	x, y := Width/2, Height/2
	for i := range ins {
		x = clamp(x+r.NormFloat64()*6, -20, Width+20)
		y = clamp(y+r.NormFloat64()*6, -20, Height+20)
		in := Input{MouseX: x, MouseY: y, Clicked: r.IntN(200) == 0}
		if r.IntN(100) == 0 {
			in.Key = []rune("12345 ")[r.IntN(6)]
		}
		ins[i] = in
	}
	return ins
}

func TestDeterminism(t *testing.T) {
	a, b := RunHeadless(3, 4000), RunHeadless(3, 4000)
	if untimed(a) != untimed(b) {
		t.Errorf("same seed, two summaries:\n%v\n%v", a, b)
	}
	if c := RunHeadless(4, 4000); untimed(c) == untimed(a) {
		t.Errorf("seeds 3 and 4 played the same game: %v", c)
	}

	// Scripted input, step by step, also with the workload on one thread
	// and on several.
	ins := scripted(11, 4000)
	play := func(procs int) []uint64 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		g := New(42)
		var hashes []uint64
		ended := false // a floor ended: the script reached the shop or game over
		for i, in := range ins {
			step(t, g, in)
			if i%250 == 0 {
				hashes = append(hashes, worldHash(t, g))
			}
			s := g.State()
			ended = ended || s.Scene == SceneShop || s.Scene == SceneGameOver
		}
		if !ended {
			t.Errorf("scripted input played too little of the game to compare: %+v", g.State())
		}
		return hashes
	}
	one, many, again := play(1), play(4), play(4)
	for i := range one {
		if one[i] != many[i] || many[i] != again[i] {
			t.Fatalf("frame %d: state hashes %x (1 thread), %x and %x (4 threads) differ", i*250, one[i], many[i], again[i])
		}
	}
}

func TestBotPlays(t *testing.T) {
	s := RunHeadless(1, 6000)
	if s.BestFloor < 5 || s.Eaten < 40 || sum(s.Shop[:]) < 4 {
		t.Errorf("bot played poorly: %v", s)
	}
	line := s.String()
	for _, want := range []string{"floors reached", "friends eaten", "shop [", "result", "frames", "update mean", "worst"} {
		if !strings.Contains(line, want) {
			t.Errorf("summary %q lacks %q", line, want)
		}
	}
	if strings.Contains(line, "\n") {
		t.Errorf("summary is not one line: %q", line)
	}
	t.Log(line)
}

// TestSoak lets the bot play 200,000 frames over four seeds, starting a new
// run whenever one ends, and checks that nothing panics, the world does not
// pile up entities and the heap stays flat. Under the race detector, which
// makes every frame about ten times slower, it plays a quarter of that.
//
// The heap is measured without the rewind history: its RewindFrames+1
// snapshots grow, once each, to the largest world they copied (later
// floors have more friends), which is bounded but not flat. The game
// forgets it just before each measurement. That it allocates nothing once
// grown is TestRewindAllocatesNothing's.
func TestSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("soak test skipped with -short")
	}
	const seeds, warmup = 4, 5000
	perSeed := 50000
	if raceEnabled {
		perSeed /= 4
		t.Logf("race detector on: %d frames per seed instead of 50,000", perSeed)
	}
	var mem runtime.MemStats
	heap := func() uint64 {
		runtime.GC()
		runtime.ReadMemStats(&mem)
		return mem.HeapAlloc
	}
	// heapWithoutHistory returns the heap once g has forgotten its
	// rewind history, and how much that history held.
	heapWithoutHistory := func(g *Game) (heapNow, history uint64) {
		with := heap()
		g.hist = newRing()
		without := heap()
		return without, with - min(without, with)
	}
	runs := 0
	for seed := uint64(1); seed <= seeds; seed++ {
		g := New(seed)
		var bot Bot
		var before uint64
		for frame := range perSeed {
			if frame == warmup {
				before, _ = heapWithoutHistory(g)
			}
			if g.Scene() == SceneGameOver {
				runs++
			}
			step(t, g, bot.Input(g))
			if n := g.World().EntityCount(); n > 500 {
				t.Fatalf("seed %d frame %d: %d entities alive", seed, frame, n)
			}
		}
		after, hist := heapWithoutHistory(g)
		t.Logf("seed %d: HeapAlloc %d KiB after %d frames, %d KiB after %d (and %d KiB of rewind history); %v", seed, before>>10, warmup, after>>10, perSeed, hist>>10, g.Summary())
		if after > before+512<<10 {
			t.Errorf("seed %d: heap grew from %d KiB to %d KiB", seed, before>>10, after>>10)
		}
	}
	if runs == 0 {
		t.Errorf("no run ended in %d frames: the game-over path was not soaked", seeds*perSeed)
	}
	t.Logf("%d frames, %d runs ended", seeds*perSeed, runs)
}

// TestBotUpgrade: the bot's shop choices (see BotUpgrade).
func TestBotUpgrade(t *testing.T) {
	lv := func(start, power, pellets, eat, defense int) Shop {
		return Shop{Levels: [NumUpgrades]int{start, power, pellets, eat, defense}}
	}
	all := lv(3, 10, 10, 10, 5)
	for _, tc := range []struct {
		name string
		shop Shop
		last GameOver
		hits int
		want Upgrade
		ok   bool
	}{
		{"start size first", lv(0, 0, 0, 0, 0), Victory, 0, UpgradeStartSize, true},
		{"start size first, even hurt", lv(2, 0, 0, 0, 0), Defeat, 5, UpgradeStartSize, true},
		{"clean victory: pellets", lv(3, 0, 0, 0, 0), Victory, 0, UpgradePelletRate, true},
		{"clean victory: power-up time once pellets lead", lv(3, 0, 3, 0, 0), Victory, 0, UpgradePowerDuration, true},
		{"hit: defense", lv(3, 0, 0, 0, 0), Victory, 1, UpgradeDefense, true},
		{"defeat: defense", lv(3, 5, 5, 0, 0), Defeat, 0, UpgradeDefense, true},
		{"defeat: size on eat once defense leads", lv(3, 5, 5, 0, 4), Defeat, 3, UpgradeEatSize, true},
		{"defense maxed: size on eat", lv(3, 0, 0, 2, 5), Defeat, 3, UpgradeEatSize, true},
		{"protection maxed: attack", lv(3, 2, 2, 10, 5), Defeat, 3, UpgradePelletRate, true},
		{"attack maxed: protection", lv(3, 10, 10, 0, 0), Victory, 0, UpgradeDefense, true},
		{"all maxed", all, Victory, 0, 0, false},
	} {
		u, ok := BotUpgrade(tc.shop, tc.last, tc.hits)
		if u != tc.want || ok != tc.ok {
			t.Errorf("%s: BotUpgrade(%v, %v, %d hits) = %v, %v; want %v, %v", tc.name, tc.shop.Levels, tc.last, tc.hits, u, ok, tc.want, tc.ok)
		}
	}
	// Over a few runs the bot buys every upgrade.
	var bought [NumUpgrades]int
	for seed := uint64(1); seed <= 4; seed++ {
		s := RunHeadless(seed, 20000)
		for u, l := range s.Shop {
			bought[u] += l
		}
	}
	for u := range NumUpgrades {
		if bought[u] == 0 {
			t.Errorf("the bot never bought %v in 4 runs (levels %v)", u, bought)
		}
	}
}
