package game

import (
	"testing"
)

// Tests of the guide's mission: floors, the friends' bonuses and the shop.

func TestFloorFriendCounts(t *testing.T) {
	for floor := 1; floor <= 6; floor++ {
		for number := range 2 {
			g := startFloor(t, uint64(floor))
			enterShop(t, g)
			setUnique(t, g, func(s *State) { s.Floor, s.BestFloor = floor, floor })
			setUnique(t, g, func(b *FriendBonuses) { b.Levels[BonusNumber] = number })
			pick(t, g, UpgradeDefense)

			total := (floor+1)*2 + 3*number
			atStart := (total + 1) / 2
			if r := g.Rules(); r.FriendsTotal != total {
				t.Errorf("floor %d with %d number bonuses: %d friends in total, want %d", floor, number, r.FriendsTotal, total)
			}
			if n, s := countFriends(t, g), mustUnique[Spawner](g.World()); n != atStart || s.Left != total-atStart {
				t.Errorf("floor %d with %d number bonuses starts with %d friends and %d to spawn, want %d and %d", floor, number, n, s.Left, atStart, total-atStart)
			}
			// Let the rest spawn, the player safe in a corner.
			setUnique(t, g, func(p *Player) { p.ICounter = 1 << 40 })
			for range 5000 {
				if mustUnique[Spawner](g.World()).Left == 0 {
					break
				}
				step(t, g, at(5, 5))
			}
			for range 60 {
				step(t, g, at(5, 5))
			}
			s, sc := mustUnique[Spawner](g.World()), mustUnique[Score](g.World())
			if alive := countFriends(t, g); s.Left != 0 || s.Spawned != total || alive+sc.Eaten != total {
				t.Errorf("floor %d with %d number bonuses: %d spawned (%d alive, %d eaten), %d left; want %d in all", floor, number, s.Spawned, alive, sc.Eaten, s.Left, total)
			}
		}
	}
}

func TestFloorBonusAppliedOncePerNewFloor(t *testing.T) {
	g := startFloor(t, 5)
	if b := g.Bonuses(); b.Count != 0 {
		t.Fatalf("floor 1 gave the friends %d bonuses, want none", b.Count)
	}
	base := makeRules(2, FriendBonuses{}, Shop{}, Options{})

	clearFloor(t, g)
	// The shop knows the bonus of floor 2 before the pick.
	shown := g.Bonuses()
	if !shown.HasNext || shown.Count != 0 || sum(shown.Levels[:]) != 0 {
		t.Fatalf("in the shop after floor 1: bonuses %+v; want the next one drawn, none applied yet", shown)
	}
	pick(t, g, UpgradeEatSize)
	b := g.Bonuses()
	if st := g.State(); st.Floor != 2 || st.BestFloor != 2 || b.Count != 1 || sum(b.Levels[:]) != 1 || b.Levels[b.Last] != 1 {
		t.Fatalf("on reaching floor 2: floor %d, bonuses %+v; want one bonus", st.Floor, b)
	}
	if b.Last != shown.Next || b.HasNext {
		t.Fatalf("floor 2 started with bonus %v (pending %v), but the shop showed %v", b.Last, b.HasNext, shown.Next)
	}
	r := g.Rules()
	want := base
	want.EatGain, want.ReserveMax, want.FriendsAtStart = r.EatGain, r.ReserveMax, r.FriendsAtStart
	switch b.Last {
	case BonusStartSize:
		want.FriendStart += 0.5
	case BonusGrowth:
		want.FriendGrowth += 0.05
	case BonusSpeed:
		want.FriendSpeed += 0.1
	case BonusNumber:
		want.FriendsTotal += 3
	case BonusSpawnRate:
		want.FriendSpawnRate += 4
	}
	if r != want {
		t.Errorf("floor 2 rules after bonus %v:\n got %+v\nwant %+v", b.Last, r, want)
	}

	// Losing floor 2 and playing it again gives no new bonus.
	for range 2 {
		loseFloor(t, g)
		if nb := g.Bonuses(); nb.HasNext {
			t.Fatalf("in the shop before replaying floor 2: bonuses %+v, want no next bonus", nb)
		}
		pick(t, g, UpgradeDefense)
		if st := g.State(); st.Floor != 2 || g.Bonuses() != b {
			t.Fatalf("replaying floor 2: floor %d, bonuses %+v; want floor 2, bonuses %+v", st.Floor, g.Bonuses(), b)
		}
	}
	// Reaching floor 3 gives the second.
	clearFloor(t, g)
	pick(t, g, UpgradeStartSize)
	if b3 := g.Bonuses(); g.State().Floor != 3 || b3.Count != 2 || sum(b3.Levels[:]) != 2 {
		t.Errorf("on reaching floor 3: floor %d, bonuses %+v; want two bonuses", g.State().Floor, b3)
	}
}

func TestShopUpgradesAndCaps(t *testing.T) {
	g := startFloor(t, 1)
	effect := map[Upgrade]func(Rules, int) (got, want float64){
		UpgradeStartSize: func(r Rules, k int) (float64, float64) { return r.PlayerStart, InitSize*3 + 3*float64(k) },
		UpgradePowerDuration: func(r Rules, k int) (float64, float64) {
			return float64(r.PowerUpFrames), float64(PowerUpFrames + 10*k)
		},
		UpgradePelletRate: func(r Rules, k int) (float64, float64) {
			return float64(r.PelletPeriod), float64(PowerPelletSpawnRate - 10*k)
		},
		UpgradeEatSize: func(r Rules, k int) (float64, float64) { return r.EatGain, InitSize/2 + 0.5*float64(k) },
		UpgradeDefense: func(r Rules, k int) (float64, float64) { return r.HitLoss, InitSize/2 - 0.4*float64(k) },
	}
	maxes := [NumUpgrades]int{3, 10, 10, 10, 5}
	for u := range NumUpgrades {
		if u.Max() != maxes[u] {
			t.Errorf("%v: max %d, want %d", u, u.Max(), maxes[u])
		}
		for k := 1; k <= maxes[u]; k++ {
			enterShop(t, g)
			pick(t, g, u)
			if g.Scene() != SceneFloor || g.Shop().Levels[u] != k {
				t.Fatalf("%v pick %d: scene %v, level %d; want the floor, level %d", u, k, g.Scene(), g.Shop().Levels[u], k)
			}
			if got, want := effect[u](g.Rules(), k); !near(got, want) {
				t.Errorf("%v level %d: rule value %v, want %v", u, k, got, want)
			}
			if r := g.Rules(); u == UpgradeEatSize && !near(r.ReserveMax, float64(k)) {
				t.Errorf("%v level %d: ReserveMax %v, want %v", u, k, r.ReserveMax, float64(k))
			}
			if p := g.Player(); u == UpgradeStartSize && p.Size != g.Rules().PlayerStart {
				t.Errorf("player starts the floor at %v, want %v", p.Size, g.Rules().PlayerStart)
			}
		}
		enterShop(t, g)
		if opt := g.ShopOptions()[u]; !opt.Maxed || opt.Level != maxes[u] || opt.Max != maxes[u] {
			t.Errorf("%v option after %d picks: %+v, want maxed", u, maxes[u], opt)
		}
		pick(t, g, u)
		if g.Scene() != SceneShop || g.Shop().Levels[u] != maxes[u] {
			t.Errorf("%v picked past its cap: scene %v, level %d", u, g.Scene(), g.Shop().Levels[u])
		}
	}
	if p := g.Rules().PlayerStart; p >= MaxSize {
		t.Errorf("maxed start size %v reaches MaxSize", p)
	}
	// With everything maxed, the shop lets the player continue.
	if !g.Shop().AllMaxed() || g.Scene() != SceneShop {
		t.Fatal("expected to be in the shop with every upgrade maxed")
	}
	step(t, g, Input{Key: ' '})
	if g.Scene() != SceneFloor {
		t.Errorf("space in a maxed-out shop: scene %v, want the floor", g.Scene())
	}
}

func TestShopPickByClick(t *testing.T) {
	g := startFloor(t, 1)
	enterShop(t, g)
	opts := g.ShopOptions()
	for i, o := range opts {
		if o.Key != '1'+rune(i) || o.Rect.X < 0 || o.Rect.Y < 0 || o.Rect.X+o.Rect.W > Width || o.Rect.Y+o.Rect.H > Height {
			t.Errorf("option %d: %+v, want key %q and a rectangle inside the screen", i, o, '1'+rune(i))
		}
		for _, p := range opts[:i] {
			if o.Rect.Y < p.Rect.Y+p.Rect.H && p.Rect.Y < o.Rect.Y+o.Rect.H && o.Rect.X < p.Rect.X+p.Rect.W && p.Rect.X < o.Rect.X+o.Rect.W {
				t.Errorf("options %q and %q overlap", p.Key, o.Key)
			}
		}
	}
	r := opts[UpgradeEatSize].Rect
	// A click as the shop appears is ignored (ClickGuard), then clicks
	// count.
	step(t, g, Input{MouseX: r.X + 1, MouseY: r.Y + 1, Clicked: true})
	if g.Scene() != SceneShop || g.Shop().Picks != 0 {
		t.Fatalf("a click on the shop's first frame picked something: scene %v, %d picks", g.Scene(), g.Shop().Picks)
	}
	for range ClickGuard - 1 {
		step(t, g, at(r.X+1, r.Y+1))
	}
	step(t, g, Input{MouseX: r.X + r.W/2, MouseY: r.Y + r.H/2}) // hover, no click
	step(t, g, Input{MouseX: 5, MouseY: 5, Clicked: true})      // click beside
	if g.Scene() != SceneShop || g.Shop().Picks != 0 {
		t.Fatalf("hover and a click outside the options picked something: scene %v, %d picks", g.Scene(), g.Shop().Picks)
	}
	step(t, g, Input{MouseX: r.X + 1, MouseY: r.Y + r.H - 1, Clicked: true})
	if g.Scene() != SceneFloor || g.Shop().Levels[UpgradeEatSize] != 1 || g.Shop().Picks != 1 {
		t.Fatalf("click on %q: scene %v, levels %v; want the floor and one level of it", opts[UpgradeEatSize].Name, g.Scene(), g.Shop().Levels)
	}
	enterShop(t, g)
	setUnique(t, g, func(s *Shop) { s.Levels[UpgradeDefense] = UpgradeDefense.Max() })
	for range ClickGuard {
		step(t, g, Input{})
	}
	d := opts[UpgradeDefense].Rect
	step(t, g, Input{MouseX: d.X + 10, MouseY: d.Y + 10, Clicked: true})
	if g.Scene() != SceneShop {
		t.Error("a click on a maxed option left the shop")
	}
}

func TestStayOnTheSameFloorAfterALoss(t *testing.T) {
	g := startFloor(t, 9)
	clearFloor(t, g)
	pick(t, g, UpgradeStartSize)
	clearFloor(t, g)
	pick(t, g, UpgradeStartSize)
	if f := g.State().Floor; f != 3 {
		t.Fatalf("floor %d after clearing two, want 3", f)
	}
	rules := g.Rules()
	loseFloor(t, g)
	if st := g.State(); st.Scene != SceneShop || st.Floor != 3 || st.Lives != Lives-1 {
		t.Fatalf("after losing floor 3: %+v, want the shop before floor 3", st)
	}
	pick(t, g, UpgradeDefense)
	st, s := g.State(), mustUnique[Spawner](g.World())
	if st.Scene != SceneFloor || st.Floor != 3 || st.FloorFrames != 0 {
		t.Fatalf("after the shop: %+v, want floor 3 from its start", st)
	}
	if n := countFriends(t, g); n != rules.FriendsAtStart || s.Left != rules.FriendsTotal-rules.FriendsAtStart {
		t.Errorf("floor 3 restarts with %d friends and %d to spawn, want %d and %d", n, s.Left, rules.FriendsAtStart, rules.FriendsTotal-rules.FriendsAtStart)
	}
	if p := g.Player(); p.Size != rules.PlayerStart || p.PoweredUp() || p.Invincible() {
		t.Errorf("player on the restarted floor: %+v, want fresh at size %v", p, rules.PlayerStart)
	}
	if countPellets(t, g) != 0 {
		t.Error("pellets of the lost floor are still there")
	}
}

func TestRunEndsWithTheLastLife(t *testing.T) {
	g := startFloor(t, 4)
	for life := Lives; life > 0; life-- {
		loseFloor(t, g)
		if life > 1 {
			pick(t, g, UpgradeDefense)
		}
	}
	st := g.State()
	if st.Scene != SceneGameOver || st.Result != Lost || st.Defeats != Lives || st.Lives != 0 {
		t.Fatalf("after %d defeats: %+v, want game over, lost", Lives, st)
	}
	step(t, g, Input{Key: '1'})
	if g.Scene() != SceneGameOver {
		t.Fatal("a shop key left the game-over screen")
	}
}

// TestGameOverPlaysAgainInOneInput: on the game-over screen, of a lost or
// a won run, one click or space starts a new run at once; other input
// does nothing.
func TestGameOverPlaysAgainInOneInput(t *testing.T) {
	lose := func(t *testing.T, g *Game) {
		for life := Lives; life > 0; life-- {
			loseFloor(t, g)
			if life > 1 {
				pick(t, g, UpgradeDefense)
			}
		}
	}
	win := func(t *testing.T, g *Game) {
		enterShop(t, g)
		setUnique(t, g, func(s *State) { s.Floor, s.BestFloor = FinalFloor, FinalFloor })
		pick(t, g, UpgradeStartSize)
		clearFloor(t, g)
	}
	for _, tc := range []struct {
		name   string
		end    func(*testing.T, *Game)
		result Result
		in     Input
	}{
		{"lost, space", lose, Lost, Input{Key: ' '}},
		{"lost, click", lose, Lost, Input{Clicked: true, MouseX: 10, MouseY: 10}},
		{"won, space", win, Won, Input{Key: ' '}},
		{"won, click", win, Won, Input{Clicked: true, MouseX: Width / 2, MouseY: Height / 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := startFloor(t, 4)
			tc.end(t, g)
			if st := g.State(); st.Scene != SceneGameOver || st.Result != tc.result {
				t.Fatalf("run ended: %+v, want game over, %v", st, tc.result)
			}
			for _, other := range []Input{at(100, 100), {Key: '1'}, {Key: '5'}, {Clicked: true, MouseX: 10, MouseY: 10}} {
				step(t, g, other)
				if g.Scene() != SceneGameOver {
					t.Fatalf("input %+v left the game-over screen for %v", other, g.Scene())
				}
			}
			// A click only counts once the screen has been up for
			// ClickGuard frames; the one above came too early.
			for g.State().SceneFrames < ClickGuard {
				step(t, g, Input{})
			}
			step(t, g, tc.in)
			st := g.State()
			if st.Scene != SceneFloor || st.Floor != 1 || st.BestFloor != 1 || st.Lives != Lives || st.Defeats != 0 ||
				st.Cleared != 0 || st.Eaten != 0 || st.Result != Playing || g.Shop() != (Shop{}) || g.Bonuses() != (FriendBonuses{}) {
				t.Fatalf("after %+v on game over: %+v, shop %+v, bonuses %+v; want a fresh run on floor 1", tc.in, st, g.Shop(), g.Bonuses())
			}
			rules := g.Rules()
			if n := countFriends(t, g); n != rules.FriendsAtStart || g.Player().Size != rules.PlayerStart {
				t.Errorf("new run's floor 1: %d friends, player %+v; want %d friends and size %v", n, g.Player(), rules.FriendsAtStart, rules.PlayerStart)
			}
		})
	}
}

func TestClearingTheFinalFloorWinsTheRun(t *testing.T) {
	g := startFloor(t, 6)
	enterShop(t, g)
	setUnique(t, g, func(s *State) { s.Floor, s.BestFloor = FinalFloor, FinalFloor })
	pick(t, g, UpgradeStartSize)
	clearFloor(t, g)
	if st := g.State(); st.Scene != SceneGameOver || st.Result != Won || st.Floor != FinalFloor {
		t.Errorf("after clearing floor %d: %+v, want game over, won", FinalFloor, st)
	}
}

// TestShopShowsTheNextFloorsBonus: for several seeds and floors, the bonus
// drawn when a floor is cleared, which the shop shows, is the one the
// friends gain when the next floor starts; a defeat or the final victory
// draws none.
func TestShopShowsTheNextFloorsBonus(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		g := startFloor(t, seed)
		for floor := 1; floor <= 4; floor++ {
			clearFloor(t, g)
			shown := g.Bonuses()
			if g.Scene() != SceneShop || !shown.HasNext {
				t.Fatalf("seed %d, floor %d cleared: scene %v, bonuses %+v; want the shop with the next bonus", seed, floor, g.Scene(), shown)
			}
			pick(t, g, UpgradeDefense)
			got := g.Bonuses()
			if got.Last != shown.Next || got.Count != shown.Count+1 || got.Levels[shown.Next] != shown.Levels[shown.Next]+1 || got.HasNext {
				t.Fatalf("seed %d, floor %d: shop showed %v, floor %d started with %+v", seed, floor, shown.Next, floor+1, got)
			}
			if floor == 2 {
				// A defeat on floor 3: the shop before its replay has no
				// bonus to show, and the replay adds none.
				loseFloor(t, g)
				if b := g.Bonuses(); b.HasNext || b != got {
					t.Fatalf("seed %d, shop after losing floor 3: bonuses %+v, want %+v and nothing next", seed, b, got)
				}
				pick(t, g, UpgradeDefense)
				if b := g.Bonuses(); b != got {
					t.Fatalf("seed %d, floor 3 replayed with bonuses %+v, want %+v", seed, b, got)
				}
			}
		}
	}

	g := startFloor(t, 3)
	enterShop(t, g)
	setUnique(t, g, func(s *State) { s.Floor, s.BestFloor = FinalFloor, FinalFloor })
	pick(t, g, UpgradeStartSize)
	clearFloor(t, g)
	if b := g.Bonuses(); g.Scene() != SceneGameOver || b.HasNext {
		t.Errorf("after the final floor: scene %v, bonuses %+v; want game over, no next bonus", g.Scene(), b)
	}
}

func sum(s []int) int {
	n := 0
	for _, v := range s {
		n += v
	}
	return n
}
