package game

import (
	"errors"
	"fmt"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// One test per rule of the guide, played through Game.Update.

func TestStartScreen(t *testing.T) {
	g := New(1)
	if g.Scene() != SceneStart {
		t.Fatalf("new game scene = %v, want start", g.Scene())
	}
	step(t, g, at(100, 100))
	step(t, g, Input{Key: '1'})
	if g.Scene() != SceneStart {
		t.Fatalf("scene after moving and pressing 1 = %v, want start", g.Scene())
	}
	step(t, g, Input{Key: ' '})
	st := g.State()
	if st.Scene != SceneFloor || st.Floor != 1 || st.Lives != Lives {
		t.Fatalf("after space: scene %v floor %d lives %d, want floor 1 with %d lives", st.Scene, st.Floor, st.Lives, Lives)
	}
	if p := g.Player(); p.Size != InitSize*3 {
		t.Errorf("player size = %v, want %v", p.Size, InitSize*3)
	}
}

func TestPlayerFollowsMouseClamped(t *testing.T) {
	g := quietFloor(t)
	step(t, g, at(300, 200))
	if x, y := g.Player().Center(); x != 300 || y != 200 {
		t.Errorf("player centre = (%v, %v), want the mouse (300, 200)", x, y)
	}
	step(t, g, at(-50, Height+70))
	p := g.Player()
	if p.X != 0 || p.Y != Height-p.Size {
		t.Errorf("player at (%v, %v) with the mouse outside, want clamped to (0, %v)", p.X, p.Y, Height-p.Size)
	}
	step(t, g, at(Width+10, -3))
	p = g.Player()
	if p.X != Width-p.Size || p.Y != ArenaTop {
		t.Errorf("player at (%v, %v), want clamped to (%v, %v), the arena's top under the HUD", p.X, p.Y, Width-p.Size, ArenaTop)
	}
}

func TestFriendsGrowFromTheirCentreUpToMaxSize(t *testing.T) {
	g := quietFloor(t)
	mid := add(t, g, Friend{Square{X: 100, Y: 100, Size: 10}})
	corner := add(t, g, Friend{Square{X: 0, Y: ArenaTop, Size: 10}})
	almost := add(t, g, Friend{Square{X: 600, Y: 100, Size: MaxSize - 0.1}})
	// The player is at the far corner and bigger than the first two, which
	// therefore do not move.
	step(t, g, at(Width-10, Height-10))

	f, _ := get[Friend](t, g, mid)
	if x, y := f.Center(); !near(f.Size, 10+GrowthRate) || !near(x, 105) || !near(y, 105) {
		t.Errorf("friend grew to %v centred on (%v, %v), want %v centred on (105, 105)", f.Size, x, y, 10+GrowthRate)
	}
	f, _ = get[Friend](t, g, corner)
	if f.X != 0 || f.Y != ArenaTop || !near(f.Size, 10+GrowthRate) {
		t.Errorf("friend in the arena's corner = %+v, want it to stay at (0, %v) and grow", f.Square, ArenaTop)
	}
	for range 3 {
		step(t, g, at(Width-10, Height-10))
	}
	f, _ = get[Friend](t, g, almost)
	if f.Size != MaxSize || !f.FullGrown() {
		t.Errorf("friend grown past the limit has size %v, want exactly MaxSize", f.Size)
	}
}

func TestBiggerFriendsChaseThePlayer(t *testing.T) {
	g := quietFloor(t)
	step(t, g, at(400, 300))
	big := add(t, g, Friend{Square{X: 100, Y: 100, Size: 20}})
	small := add(t, g, Friend{Square{X: 600, Y: 100, Size: 8}})
	p := g.Player().Square
	b0, _ := get[Friend](t, g, big)
	s0, _ := get[Friend](t, g, small)
	step(t, g, at(400, 300))
	b1, _ := get[Friend](t, g, big)
	s1, _ := get[Friend](t, g, small)
	if d0, d1 := dist(b0.Square, p), dist(b1.Square, p); !near(d0-d1, Speed) {
		t.Errorf("bigger friend came %v closer, want Speed = %v", d0-d1, Speed)
	}
	if x0, y0 := s0.Center(); true {
		if x1, y1 := s1.Center(); x0 != x1 || y0 != y1 {
			t.Errorf("smaller friend moved from (%v, %v) to (%v, %v), want it still", x0, y0, x1, y1)
		}
	}
}

func TestFriendsKeepApartFromNeighbours(t *testing.T) {
	// Two friends side by side, the player far below the middle of them:
	// the chase pulls them together a little, their neighbours push them
	// apart more.
	g := quietFloor(t)
	left := add(t, g, Friend{Square{X: 390, Y: 50, Size: 20}})
	right := add(t, g, Friend{Square{X: 396, Y: 50, Size: 20}})
	step(t, g, at(403, 550))
	l, _ := get[Friend](t, g, left)
	r, _ := get[Friend](t, g, right)
	if gap := r.X - l.X; gap <= 6+0.5 {
		t.Errorf("gap between neighbours went from 6 to %v, want it wider", gap)
	}
	// Alone, a friend goes straight for the player.
	g = quietFloor(t)
	lone := add(t, g, Friend{Square{X: 390, Y: 50, Size: 20}})
	step(t, g, at(400, 550))
	if f, _ := get[Friend](t, g, lone); !near(f.X+f.Size/2, 400) {
		t.Errorf("lone friend above the player drifted to centre x %v", f.X+f.Size/2)
	}
}

func TestEat(t *testing.T) {
	g := quietFloor(t)
	step(t, g, at(400, 300))
	prey := add(t, g, Friend{Square{X: 395, Y: 295, Size: 10}})
	gray := add(t, g, Friend{Square{X: 600, Y: 400, Size: 20}})
	step(t, g, at(400, 300))
	if _, alive := get[Friend](t, g, prey); alive {
		t.Fatal("friend smaller than the player survived contact")
	}
	if p := g.Player(); p.Size != InitSize*3+InitSize/2 {
		t.Errorf("player size after eating = %v, want %v", p.Size, InitSize*3+InitSize/2)
	}

	// A bigger friend that is not full-grown neither is eaten nor hurts.
	f, _ := get[Friend](t, g, gray)
	step(t, g, on(f.Square))
	if _, alive := get[Friend](t, g, gray); !alive {
		t.Error("bigger friend was eaten")
	}
	if p := g.Player(); p.Size != InitSize*3+InitSize/2 || p.Invincible() {
		t.Errorf("touching a bigger friend: player %+v, want unchanged", p)
	}

	// A friend of the player's size is eaten (growth off so sizes stay
	// equal).
	setUnique(t, g, func(r *Rules) { r.FriendGrowth = 0 })
	same := add(t, g, Friend{Square{X: 100, Y: 100, Size: InitSize*3 + InitSize/2}})
	step(t, g, at(110, 110))
	if _, alive := get[Friend](t, g, same); alive {
		t.Error("friend of the player's size survived contact")
	}
	if sc := mustUnique[Score](g.World()); sc.Eaten != 2 || sc.Hits != 0 {
		t.Errorf("score = %+v, want 2 eaten and no hit", sc)
	}
}

func TestEatingCapsJustUnderMaxSize(t *testing.T) {
	g := quietFloor(t)
	step(t, g, at(400, 300))
	setUnique(t, g, func(p *Player) { p.Size = MaxSize - 1 })
	add(t, g, Friend{Square{X: 398, Y: 298, Size: 6}})
	step(t, g, at(400, 300))
	if p := g.Player(); p.Size != PlayerMaxSize || p.Size >= MaxSize || !p.Capped() {
		t.Errorf("player size = %v (capped %v), want %v, capped", p.Size, p.Capped(), PlayerMaxSize)
	}
}

func TestFullGrownFriendShrinksThePlayer(t *testing.T) {
	g := quietFloor(t)
	red := Friend{Square{X: 300, Y: 300, Size: MaxSize}}
	add(t, g, red)
	step(t, g, on(red.Square))
	p := g.Player()
	if p.Size != InitSize*3-InitSize/2 {
		t.Errorf("player size after a hit = %v, want %v", p.Size, InitSize*3-InitSize/2)
	}
	if !p.Invincible() || p.ICounter != InvincibleFrames {
		t.Errorf("ICounter after a hit = %d, want %d", p.ICounter, InvincibleFrames)
	}
	if countFriends(t, g) != 1 {
		t.Error("the full-grown friend was eaten by a player that is not powered up")
	}
}

// TestInvincibilityOptions: the default invincibility after a hit, the
// guide's (GuideOptions) and another chosen through Options set
// Rules.InvincibleFrames, and a red friend touching the player hits it once
// every that many frames.
func TestInvincibilityOptions(t *testing.T) {
	if InvincibleFrames <= GuideInvincibleFrames {
		t.Errorf("default invincibility %d frames, want longer than the guide's %d", InvincibleFrames, GuideInvincibleFrames)
	}
	for _, tc := range []struct {
		name string
		opts Options
		want int
	}{
		{"default", Options{}, InvincibleFrames},
		{"guide", GuideOptions(), GuideInvincibleFrames},
		{"guide by hand", Options{InvincibleFrames: GuideInvincibleFrames}, 5},
		{"other", Options{InvincibleFrames: 12}, 12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewWithOptions(1, tc.opts)
			if g.Options() != tc.opts {
				t.Errorf("Options() = %+v, want %+v", g.Options(), tc.opts)
			}
			step(t, g, Input{Key: ' '})
			quiet(t, g, false)
			if r := g.Rules(); r.InvincibleFrames != tc.want {
				t.Fatalf("Rules.InvincibleFrames = %d, want %d", r.InvincibleFrames, tc.want)
			}
			add(t, g, Friend{Square{X: 300, Y: 300, Size: MaxSize}})
			var hits []int
			size := g.Player().Size
			for frame := 1; frame <= 3*tc.want+1; frame++ {
				step(t, g, on(friends(t, g)[0].Square))
				if p := g.Player(); p.Size < size {
					hits = append(hits, frame)
					size = p.Size
					if p.ICounter != tc.want {
						t.Fatalf("ICounter after the hit on frame %d = %d, want %d", frame, p.ICounter, tc.want)
					}
				}
			}
			want := []int{1, 1 + tc.want, 1 + 2*tc.want, 1 + 3*tc.want}
			if fmt.Sprint(hits) != fmt.Sprint(want) {
				t.Errorf("hits on frames %v, want %v", hits, want)
			}
		})
	}
}

// TestReserveBeyondTheCap: with "size on eat" at level k, what eating adds
// beyond the cap is kept in reserve, up to k×1.0, and a hit takes the
// reserve before the size. Without the upgrade there is no reserve (the
// guide's rules).
func TestReserveBeyondTheCap(t *testing.T) {
	for _, tc := range []struct {
		name         string
		level        int
		size         float64 // before eating
		reserve      float64 // before eating
		wantSize     float64 // after eating
		wantReserve  float64 // after eating
		afterHitSize float64
		afterHitRes  float64
	}{
		// Level 0: capped, nothing kept; a hit costs 2.5.
		{"level 0 at the cap", 0, PlayerMaxSize, 0, PlayerMaxSize, 0, PlayerMaxSize - 2.5, 0},
		// Level 0 below the cap: the guide's growth.
		{"level 0 below the cap", 0, 15, 0, 17.5, 0, 15, 0},
		// Level 2: eating 3.5 at the cap keeps 2.0 (the most); a hit of
		// 2.5 takes the 2.0 then 0.5 of the size.
		{"level 2 at the cap", 2, PlayerMaxSize, 0, PlayerMaxSize, 2, PlayerMaxSize - 0.5, 0},
		// Level 4, 3.5 under the cap: eating 4.5 reaches the cap and keeps
		// the 1.0 beyond it.
		{"level 4 near the cap", 4, PlayerMaxSize - 3.5, 0, PlayerMaxSize, 1, PlayerMaxSize - 1.5, 0},
		// Level 10: eating 7.5 at the cap keeps 7.5 (under the 10); a
		// hit takes 2.5 of the reserve, none of the size.
		{"level 10 at the cap", 10, PlayerMaxSize, 0, PlayerMaxSize, 7.5, PlayerMaxSize, 5},
		// Level 10, reserve 8: one more friend fills it to 10, no more.
		{"level 10 reserve full", 10, PlayerMaxSize, 8, PlayerMaxSize, 10, PlayerMaxSize, 7.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := quietFloor(t)
			// The rules "size on eat" at tc.level sets (TestShopUpgradesAndCaps
			// checks that the shop sets them so).
			setUnique(t, g, func(r *Rules) {
				r.FriendGrowth = 0
				r.EatGain = InitSize/2 + 0.5*float64(tc.level)
				r.ReserveMax = float64(tc.level)
			})
			step(t, g, at(400, 300))
			setUnique(t, g, func(p *Player) { p.Size, p.Reserve = tc.size, tc.reserve })
			add(t, g, Friend{Square{X: 398, Y: 298, Size: 6}})
			step(t, g, at(400, 300))
			if p := g.Player(); !near(p.Size, tc.wantSize) || !near(p.Reserve, tc.wantReserve) {
				t.Fatalf("after eating: size %v reserve %v, want %v and %v", p.Size, p.Reserve, tc.wantSize, tc.wantReserve)
			}
			red := Friend{Square{X: 100, Y: 300, Size: MaxSize}}
			add(t, g, red)
			step(t, g, on(red.Square))
			if p := g.Player(); !near(p.Size, tc.afterHitSize) || !near(p.Reserve, tc.afterHitRes) {
				t.Errorf("after a hit: size %v reserve %v, want %v and %v", p.Size, p.Reserve, tc.afterHitSize, tc.afterHitRes)
			}
		})
	}
	// A new floor starts with no reserve.
	g := quietFloor(t)
	setUnique(t, g, func(p *Player) { p.Reserve = 3 })
	setUnique(t, g, func(s *Spawner) { s.Left = 0 })
	step(t, g, at(400, 300)) // no friend left: victory, to the shop
	step(t, g, Input{Key: '1'})
	if p := g.Player(); g.Scene() != SceneFloor || p.Reserve != 0 {
		t.Errorf("scene %v, reserve %v on a new floor, want floor and 0", g.Scene(), p.Reserve)
	}
}

func TestInvincibilityFramesAfterAHit(t *testing.T) {
	g := quietFloor(t)
	add(t, g, Friend{Square{X: 300, Y: 300, Size: MaxSize}})
	var hits []int
	size := g.Player().Size
	for frame := 1; frame <= 3*InvincibleFrames+1; frame++ {
		f := friends(t, g)[0]
		step(t, g, on(f.Square))
		if p := g.Player(); p.Size < size {
			hits = append(hits, frame)
			size = p.Size
		}
	}
	want := []int{1, 1 + InvincibleFrames, 1 + 2*InvincibleFrames, 1 + 3*InvincibleFrames}
	if len(hits) != len(want) {
		t.Fatalf("hits on frames %v, want %v", hits, want)
	}
	for i := range want {
		if hits[i] != want[i] {
			t.Fatalf("hits on frames %v, want %v", hits, want)
		}
	}
}

func TestPowerPelletPowersUpAndFriendsFlee(t *testing.T) {
	g := quietFloor(t)
	step(t, g, at(400, 300))
	pellet := add(t, g, PowerPellet{Square{X: 395, Y: 295, Size: InitSize * 2}})
	big := add(t, g, Friend{Square{X: 100, Y: 100, Size: 20}})
	p := g.Player().Square
	step(t, g, at(400, 300))
	if _, alive := get[PowerPellet](t, g, pellet); alive {
		t.Error("touched pellet is still there")
	}
	pl := g.Player()
	if !pl.PoweredUp() || pl.PelletCounter != PowerUpFrames {
		t.Fatalf("PelletCounter after a pellet = %d, want %d", pl.PelletCounter, PowerUpFrames)
	}
	// The pellet was taken after the friend moved this frame; from now on
	// it flees.
	f0, _ := get[Friend](t, g, big)
	step(t, g, at(400, 300))
	f1, _ := get[Friend](t, g, big)
	if d := dist(f1.Square, p) - dist(f0.Square, p); !near(d, Speed) {
		t.Errorf("friend moved %v away from the powered-up player, want %v", d, Speed)
	}
	// The power-up wears off after PowerUpFrames frames.
	for range PowerUpFrames - 2 {
		step(t, g, at(400, 300))
	}
	if !g.Player().PoweredUp() {
		t.Fatal("power-up wore off early")
	}
	step(t, g, at(400, 300))
	if g.Player().PoweredUp() {
		t.Fatalf("still powered up after %d frames", PowerUpFrames)
	}
	f0, _ = get[Friend](t, g, big)
	step(t, g, at(400, 300))
	f1, _ = get[Friend](t, g, big)
	if dist(f1.Square, p) >= dist(f0.Square, p) {
		t.Error("friend does not chase again once the power-up is over")
	}
}

func TestPoweredUpPlayerEatsFullGrownFriends(t *testing.T) {
	g := quietFloor(t)
	step(t, g, at(400, 300))
	setUnique(t, g, func(p *Player) { p.PelletCounter = 10 })
	red := add(t, g, Friend{Square{X: 390, Y: 290, Size: MaxSize}})
	step(t, g, at(400, 300))
	if _, alive := get[Friend](t, g, red); alive {
		t.Fatal("powered-up player did not eat the full-grown friend")
	}
	if p := g.Player(); p.Size != InitSize*3+InitSize/2 || p.Invincible() {
		t.Errorf("player after eating a full-grown friend: %+v, want size %v and no hit", p, InitSize*3+InitSize/2)
	}
}

func TestPelletSpawnRate(t *testing.T) {
	// A pellet spawns with one chance in 150 per frame, in 75 when there is
	// none; each level of the shop's pellet upgrade lowers 150 by 10.
	const frames = 8000
	count := func(level int, keepOne bool) int {
		g := startFloor(t, 3)
		enterShop(t, g)
		if level == 0 {
			pick(t, g, UpgradeStartSize)
		} else {
			setUnique(t, g, func(s *Shop) { s.Levels[UpgradePelletRate] = level - 1 })
			pick(t, g, UpgradePelletRate)
		}
		if r := g.Rules(); r.PelletPeriod != PowerPelletSpawnRate-10*level {
			t.Fatalf("pellet upgrade level %d: period %d, want %d", level, r.PelletPeriod, PowerPelletSpawnRate-10*level)
		}
		quiet(t, g, true)
		pellet := PowerPellet{Square{X: 0, Y: 0, Size: InitSize * 2}}
		spawned := 0
		for range frames {
			if keepOne {
				add(t, g, pellet)
			}
			step(t, g, at(Width-20, Height-20))
			n, err := ecs.DeleteAny[PowerPellet](g.World())
			if err != nil {
				t.Fatal(err)
			}
			if keepOne {
				n--
			}
			spawned += n
		}
		return spawned
	}
	for _, c := range []struct {
		level   int
		keepOne bool
		period  int
	}{
		{0, true, PowerPelletSpawnRate},
		{0, false, PowerPelletSpawnRate / 2},
		{10, true, PowerPelletSpawnRate - 100},
		{10, false, (PowerPelletSpawnRate - 100) / 2},
	} {
		got, want := count(c.level, c.keepOne), frames/c.period
		if got < want*70/100 || got > want*130/100 {
			t.Errorf("pellet upgrade level %d, pellet present %v: %d spawns in %d frames, want about %d", c.level, c.keepOne, got, frames, want)
		}
	}
}

func TestFriendSpawnRate(t *testing.T) {
	// Friends spawn with 4 chances in 100 per frame while the floor has
	// some left; each "spawn rate +4" bonus adds 4.
	const frames = 10000
	for bonus := range 3 {
		g := startFloor(t, 2)
		enterShop(t, g)
		setUnique(t, g, func(b *FriendBonuses) { b.Levels[BonusSpawnRate] = bonus })
		pick(t, g, UpgradeDefense)
		if r := g.Rules(); r.FriendSpawnRate != FriendSpawnRate+4*bonus {
			t.Fatalf("%d spawn-rate bonuses: rate %d, want %d", bonus, r.FriendSpawnRate, FriendSpawnRate+4*bonus)
		}
		setUnique(t, g, func(s *Spawner) { s.Left = frames })
		before := mustUnique[Spawner](g.World())
		for range frames {
			step(t, g, at(Width-10, Height-10))
			// Eaten or not, spawned friends are counted; remove them so
			// they neither crowd the floor nor end it.
			if _, err := ecs.DeleteAny[Friend](g.World()); err != nil {
				t.Fatal(err)
			}
		}
		after := mustUnique[Spawner](g.World())
		got, want := after.Spawned-before.Spawned, frames*(FriendSpawnRate+4*bonus)/100
		if got < want*85/100 || got > want*115/100 {
			t.Errorf("%d spawn-rate bonuses: %d friends in %d frames, want about %d", bonus, got, frames, want)
		}
		if before.Left-after.Left != got {
			t.Errorf("Left went down by %d for %d spawns", before.Left-after.Left, got)
		}
	}
	// None spawns once the floor's friends have all spawned.
	g := quietFloor(t)
	setUnique(t, g, func(r *Rules) { r.FriendSpawnRate = 100 })
	setUnique(t, g, func(s *Spawner) { s.Left = 2 })
	for range 10 {
		step(t, g, at(Width-10, Height-10))
	}
	if n, s := countFriends(t, g), mustUnique[Spawner](g.World()); n != 2 || s.Left != 0 {
		t.Errorf("with 2 left to spawn at every frame: %d friends after 10 frames, %d left; want 2 and 0", n, s.Left)
	}
}

func TestDefeatBelowInitialSize(t *testing.T) {
	g := quietFloor(t)
	setUnique(t, g, func(p *Player) { p.Size = InitSize + 1 })
	red := Friend{Square{X: 300, Y: 300, Size: MaxSize}}
	add(t, g, red)
	// The floor ends through check_game_over's error, which the caller of
	// the workload finds with errors.As.
	setUnique(t, g, func(in *Input) { in.MouseX, in.MouseY = red.Center() })
	err := g.World().RunWorkload(MainLoop)
	var over GameOver
	var werr *ecs.WorkloadError
	if !errors.As(err, &over) || over != Defeat || !errors.As(err, &werr) || werr.System != "game.checkGameOver" {
		t.Fatalf("main_loop returned %v, want Defeat from game.checkGameOver", err)
	}
	// Through Update, the defeat costs a life and opens the shop.
	g = quietFloor(t)
	setUnique(t, g, func(p *Player) { p.Size = InitSize + 1 })
	add(t, g, red)
	step(t, g, on(red.Square))
	st := g.State()
	if st.Scene != SceneShop || st.LastFloor != Defeat || st.Lives != Lives-1 || st.Defeats != 1 || st.Floor != 1 {
		t.Errorf("after a defeat: %+v, want the shop, floor 1, one life less", st)
	}
}

func TestVictoryWhenNoFriendIsLeft(t *testing.T) {
	g := quietFloor(t)
	step(t, g, at(400, 300))
	add(t, g, Friend{Square{X: 395, Y: 295, Size: 6}})
	setUnique(t, g, func(s *Spawner) { s.Left = 0 })
	err := g.World().RunWorkload(MainLoop)
	var over GameOver
	if !errors.As(err, &over) || over != Victory {
		t.Fatalf("main_loop after eating the last friend returned %v, want Victory", err)
	}

	// No victory while friends are left to spawn.
	g = quietFloor(t)
	step(t, g, at(400, 300))
	add(t, g, Friend{Square{X: 395, Y: 295, Size: 6}})
	step(t, g, at(400, 300))
	if countFriends(t, g) != 0 || g.Scene() != SceneFloor {
		t.Fatalf("with a friend left to spawn: %d friends, scene %v; want 0 friends, still on the floor", countFriends(t, g), g.Scene())
	}
	setUnique(t, g, func(s *Spawner) { s.Left = 0 })
	step(t, g, at(400, 300))
	st := g.State()
	if st.Scene != SceneShop || st.LastFloor != Victory || st.Floor != 2 || st.Cleared != 1 || st.Lives != Lives {
		t.Errorf("after a victory: %+v, want the shop before floor 2", st)
	}
}

// TestArenaIsBelowTheHUD: the player, the friends and the pellets stay in
// the arena, below the HUD's strip, however the mouse moves and wherever
// things spawn, grow and chase.
func TestArenaIsBelowTheHUD(t *testing.T) {
	t.Run("player", func(t *testing.T) {
		for _, tc := range []struct {
			mouseY, wantY float64 // the player's size is InitSize*3 = 15
		}{
			{-50, ArenaTop},
			{0, ArenaTop},
			{ArenaTop, ArenaTop},
			{ArenaTop + 7.5, ArenaTop},
			{ArenaTop + 10, ArenaTop + 2.5},
			{300, 292.5},
			{Height + 10, Height - 15},
		} {
			g := quietFloor(t)
			step(t, g, at(400, tc.mouseY))
			if p := g.Player(); p.Y != tc.wantY {
				t.Errorf("mouse at y %v: player's top at %v, want %v", tc.mouseY, p.Y, tc.wantY)
			}
		}
	})
	t.Run("a friend grows and chases at the top", func(t *testing.T) {
		g := quietFloor(t)
		id := add(t, g, Friend{Square{X: 390, Y: ArenaTop, Size: 20}})
		for range 40 {
			step(t, g, at(400, 0)) // the player at the top, the friend bigger: it chases and grows
			f, _ := get[Friend](t, g, id)
			if f.Y < ArenaTop {
				t.Fatalf("friend at %+v, above the arena's top %v", f.Square, ArenaTop)
			}
		}
	})
	t.Run("bot play", func(t *testing.T) {
		for seed := uint64(1); seed <= 3; seed++ {
			g := New(seed)
			var bot Bot
			spawned := 0
			for frame := range 3000 {
				step(t, g, bot.Input(g))
				if g.Scene() != SceneFloor {
					continue
				}
				if p := g.Player(); p.Y < ArenaTop || p.Y+p.Size > Height {
					t.Fatalf("seed %d frame %d: player %+v outside the arena", seed, frame, p.Square)
				}
				for _, f := range friends(t, g) {
					spawned++
					if f.Y < ArenaTop {
						t.Fatalf("seed %d frame %d: friend %+v under the HUD", seed, frame, f.Square)
					}
				}
				if err := ecs.Each1(g.World(), func(_ ecs.EntityID, pl *PowerPellet) {
					if pl.Y < ArenaTop || pl.Y+pl.Size > Height {
						t.Fatalf("seed %d frame %d: pellet %+v outside the arena", seed, frame, pl.Square)
					}
				}); err != nil {
					t.Fatal(err)
				}
			}
			if spawned == 0 {
				t.Fatalf("seed %d: no friend seen", seed)
			}
		}
	})
	t.Run("random squares", func(t *testing.T) {
		src := newRng(5)
		r := src.rand()
		for i := range 10000 {
			size := []float64{InitSize, InitSize * 2, MaxSize}[i%3]
			s := randomSquare(r, size)
			if s.X < 0 || s.X+s.Size > Width || s.Y < ArenaTop || s.Y+s.Size > Height {
				t.Fatalf("randomSquare(%v) = %+v, outside the arena", size, s)
			}
		}
	})
}
