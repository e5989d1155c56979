package game

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/slipway-ecs/slipway/ecs"
)

// The systems of the main_loop workload, in the guide's order. Each is a
// plain function whose parameters are views; the workload borrows them.

// movePlayer moves the player's square to the mouse, centred on it and
// clamped to the arena (the window below the HUD).
func movePlayer(in ecs.UniqueView[Input], player ecs.UniqueViewMut[Player]) {
	m, p := in.Get(), player.Get()
	p.X = clamp(m.MouseX-p.Size/2, 0, Width-p.Size)
	p.Y = clamp(m.MouseY-p.Size/2, ArenaTop, Height-p.Size)
}

// moveFriends moves every friend bigger than the player toward the player
// (away while the player is powered up), steering it away from the
// neighbours whose centres are closer than size/√1.5, as the guide does.
// Neighbours are found through a grid rebuilt each frame (the guide compares
// every pair); their pushes are all computed from the positions before any
// friend moves, and a friend's direction depends on nothing else that
// moves but its own position, so each friend moves as soon as its
// direction is known.
func moveFriends(player ecs.UniqueView[Player], rules ecs.UniqueView[Rules], friends ecs.ViewMut[Friend], grid ecs.UniqueViewMut[friendGrid]) {
	p := player.Get()
	speed := rules.Get().FriendSpeed
	data := friends.Slice()
	g := grid.Get()
	g.build(data)
	g.pushAll()
	push := g.push[:len(data)]
	pcx, pcy := p.Center()
	flee := p.PoweredUp()
	for i := range data {
		f := &data[i]
		if f.Size <= p.Size {
			continue
		}
		cx, cy := f.Center()
		dx, dy := normalize(pcx-cx, pcy-cy)
		if flee {
			dx, dy = -dx, -dy
		}
		d := vec{dx*speed + push[i].x*0.05, dy*speed + push[i].y*0.05}
		if d == (vec{}) {
			continue
		}
		f.X = clamp(f.X+d.x, 0, Width-f.Size)
		f.Y = clamp(f.Y+d.y, ArenaTop, Height-f.Size)
	}
}

// grow makes every friend grow from its centre, up to MaxSize, without
// crossing the arena's left and top edges.
func grow(rules ecs.UniqueView[Rules], friends ecs.ViewMut[Friend]) {
	rate := rules.Get().FriendGrowth
	for f := range friends.All() {
		delta := min(f.Size+rate, MaxSize) - f.Size
		f.Size += delta
		f.X = max(f.X-delta/2, 0)
		f.Y = max(f.Y-delta/2, ArenaTop)
	}
}

// counters counts the player's power-up and invincibility frames down.
func counters(player ecs.UniqueViewMut[Player]) {
	p := player.Get()
	p.PelletCounter = max(p.PelletCounter-1, 0)
	p.ICounter = max(p.ICounter-1, 0)
}

// spawn adds power pellets at random (twice as often when there is none)
// and the floor's friends that have not spawned yet, at the floor's rate.
// It records the new entities as commands, which take effect at the
// ApplyCommands after it (see mainLoop): it borrows no storage
// exclusively, only reads the pellets.
func spawn(cmds ecs.Commands, rules ecs.UniqueView[Rules], rnd ecs.UniqueViewMut[rng], spawner ecs.UniqueViewMut[Spawner], pellets ecs.View[PowerPellet]) {
	r, ru, s := rnd.Get().rand(), rules.Get(), spawner.Get()
	period := ru.PelletPeriod
	if pellets.IsEmpty() {
		period /= 2
	}
	if r.IntN(period) == 0 {
		ecs.CommandsFor[PowerPellet](cmds).Add(cmds.AddEntity(), PowerPellet{randomSquare(r, InitSize*2)})
	}
	if s.Left > 0 && r.IntN(100) < ru.FriendSpawnRate {
		ecs.CommandsFor[Friend](cmds).Add(cmds.AddEntity(), Friend{randomSquare(r, ru.FriendStart)})
		s.Left--
		s.Spawned++
	}
}

// collision makes the player take the power pellets they touch, and settles
// every friend they touch: a full-grown friend is eaten if the player is
// powered up, does nothing if they are invincible, and otherwise hits them
// (the hit empties their reserve first, then shrinks them, and they turn
// invincible); a friend no bigger than the player is eaten (they grow, and
// what goes beyond the cap fills the reserve). Eaten friends and taken
// pellets get a ToDelete.
func collision(entities ecs.EntitiesView, rules ecs.UniqueView[Rules], player ecs.UniqueViewMut[Player], score ecs.UniqueViewMut[Score], friends ecs.View[Friend], pellets ecs.View[PowerPellet], toDelete ecs.ViewMut[ToDelete]) error {
	p, ru, sc := player.Get(), rules.Get(), score.Get()
	for id, pellet := range pellets.WithID() {
		if p.Collide(pellet.Square) {
			p.PelletCounter = ru.PowerUpFrames
			sc.Pellets++
			if err := toDelete.AddComponent(entities, id, ToDelete{}); err != nil {
				return err
			}
		}
	}
	for id, f := range friends.WithID() {
		eat := false
		if f.FullGrown() && f.Collide(p.Square) {
			switch {
			case p.PoweredUp():
				eat = true
			case p.Invincible():
				continue
			default:
				// The reserve takes the hit first.
				fromReserve := min(p.Reserve, ru.HitLoss)
				p.Reserve -= fromReserve
				p.Size -= ru.HitLoss - fromReserve
				p.ICounter = ru.InvincibleFrames
				sc.Hits++
			}
		} else if p.Size >= f.Size && p.Collide(f.Square) {
			eat = true
		}
		if eat {
			// What goes beyond the cap fills the reserve, up to
			// ReserveMax (0 without the "size on eat" upgrade).
			grown := p.Size + ru.EatGain
			p.Size = min(grown, PlayerMaxSize)
			p.Reserve = min(p.Reserve+grown-p.Size, max(p.Reserve, ru.ReserveMax))
			sc.Eaten++
			if err := toDelete.AddComponent(entities, id, ToDelete{}); err != nil {
				return err
			}
		}
	}
	return nil
}

// cleanUp deletes every entity flagged ToDelete, through commands: the
// deletions take effect at the ApplyCommands after it, before
// checkGameOver. (The guide's first version, with an AllStoragesViewMut
// and DeleteAny, is in docs/delete-entity.md.)
//
// It goes last first, as DeleteAny does, so that the entities spawned
// next reuse the freed ids in the same order as with DeleteAny.
func cleanUp(cmds ecs.Commands, toDelete ecs.View[ToDelete]) {
	for _, id := range slices.Backward(toDelete.IDs()) {
		cmds.DeleteEntity(id)
	}
}

// checkGameOver ends the floor: Defeat when the player shrank below
// InitSize, Victory when no friend is left on the floor and none is left to
// spawn.
func checkGameOver(player ecs.UniqueView[Player], friends ecs.View[Friend], spawner ecs.UniqueView[Spawner]) error {
	switch {
	case player.Get().Size < InitSize:
		return Defeat
	case friends.IsEmpty() && spawner.Get().Left == 0:
		return Victory
	}
	return nil
}

// mainLoop lists the floor's systems in the guide's order; the workload
// keeps that order between any two that touch the same data. Of these,
// only grow and counters share no data and could run in parallel. counters
// runs on the calling goroutine (OnCaller), and grow, the one system of
// their batch left to hand out, then runs there too: handing either to a
// worker goroutine cost a wake-up every frame (a futex call, then the woken
// thread looking for more work), more CPU time than the two systems take.
func mainLoop() []any {
	return []any{movePlayer, moveFriends, grow, ecs.System(counters).OnCaller(), spawn, ecs.ApplyCommands(), collision, cleanUp, ecs.ApplyCommands(), checkGameOver}
}

func clamp(v, lo, hi float64) float64 { return max(lo, min(v, hi)) }

type vec struct{ x, y float64 }

// normalize returns (x, y) scaled to length 1, or (0, 0) for (0, 0).
func normalize(x, y float64) (float64, float64) {
	l := math.Sqrt(x*x + y*y)
	if l == 0 {
		return 0, 0
	}
	return x / l, y / l
}

// randomSquare returns a square of the given size at a random place inside
// the arena.
func randomSquare(r *rand.Rand, size float64) Square {
	return Square{X: r.Float64() * (Width - size), Y: ArenaTop + r.Float64()*(Height-ArenaTop-size), Size: size}
}
