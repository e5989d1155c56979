package game

import (
	"errors"

	"github.com/slipway-ecs/slipway/ecs"
)

// Rewind: while the player holds the rewind key (Backspace in the window,
// [Input].Rewind for Update), each call to [Game.Update] steps the game one
// logic frame back instead of playing one, up to [RewindSeconds] back.
//
// After every frame it plays, Update copies the game's state into the
// next ecs.Snapshot of a ring of RewindFrames+1 of them (World.SnapshotTo,
// which reuses each snapshot's memory: once the ring is full and its
// snapshots have grown to the world's size, recording allocates nothing).
// A rewinding Update restores the snapshot before the newest
// (World.Restore) and drops the newest, so that the frames rewound are
// forgotten: when the key is released, the game plays on from the
// restored state and records its new frames over them.
//
// What a snapshot holds is listed in one place, snapshotGame: the game's
// components and its uniques, the RNG's state among them (see [rng]), so
// that playing the same inputs again after a rewind plays the same frames,
// bit for bit. What it leaves out is not the game's state: moveFriends'
// scratch grid, the [History] unique (which describes the ring), and
// whatever else shares the world (the renderer's canvas).

// FramesPerSecond is the game's tick rate: [Game.Update] plays one logic
// frame per call, and the renderer calls it 60 times a second.
const FramesPerSecond = 60

// How far back the game can rewind.
const (
	// RewindSeconds is how far back a rewind can go.
	RewindSeconds = 5
	// RewindFrames is RewindSeconds in logic frames: the number of
	// frames the game remembers.
	RewindFrames = RewindSeconds * FramesPerSecond
)

// History is a unique: how far back the game can rewind, for the HUD.
// [Game.Update] sets it after every frame; it is not part of the
// snapshots it describes, and a rewind does not restore it.
type History struct {
	// Rewinding is set when the last Update rewound ([Input].Rewind).
	Rewinding bool
	// Frames is how many frames back the game can still go: 0 when the
	// rewind reached its oldest frame, [RewindFrames] at most.
	Frames int
}

// Seconds returns how far back the game can still go, in seconds.
func (h History) Seconds() float64 { return float64(h.Frames) / FramesPerSecond }

// History returns a copy of the History unique.
func (g *Game) History() History { return mustUnique[History](g.w) }

// snapshotGame restricts s to the game's state: its components and the
// uniques a frame depends on or changes. Left out are friendGrid (scratch
// space that moveFriends rebuilds every frame; a snapshot would only copy
// its slice headers), History (it describes the ring) and anything another
// package adds to the world, such as the renderer's canvas. A new unique
// or component type of the game must be listed here, and in the rewind
// tests' fingerprint, and in the registry of saves (save.go's registry),
// which also holds runConfig: it never changes during a game, so a
// snapshot for rewinding has no need of it.
func snapshotGame(s *ecs.Snapshot) {
	ecs.SnapshotComponent[Friend](s)
	ecs.SnapshotComponent[PowerPellet](s)
	ecs.SnapshotComponent[ToDelete](s)
	ecs.SnapshotUnique[rng](s)
	ecs.SnapshotUnique[Input](s)
	ecs.SnapshotUnique[Player](s)
	ecs.SnapshotUnique[Rules](s)
	ecs.SnapshotUnique[Spawner](s)
	ecs.SnapshotUnique[Score](s)
	ecs.SnapshotUnique[FriendBonuses](s)
	ecs.SnapshotUnique[Shop](s)
	ecs.SnapshotUnique[State](s)
}

// ring holds the snapshots of the last RewindFrames+1 frames played: the
// current frame's (the newest) and the RewindFrames before it. It lives
// in [Game], beside the world it copies: a snapshot cannot be part of
// what it copies.
type ring struct {
	snaps  []ecs.Snapshot // reused from lap to lap
	newest int            // index of the newest snapshot in snaps
	n      int            // snapshots held, from 0 to len(snaps)
	// dirty is set while a frame is being played and cleared when it is
	// recorded: set after a frame that failed (an error or a panic) and
	// may have changed the world halfway. The newest snapshot then holds
	// the frame before the world's, and a rewind restores it first.
	dirty bool
}

func newRing() ring { return ring{snaps: make([]ecs.Snapshot, RewindFrames+1)} }

// frames returns how many frames back the ring can go.
func (r *ring) frames() int { return max(r.n-1, 0) }

// record copies w's state into the slot after the newest, which becomes
// the newest; when the ring is full, that slot held the oldest. On error
// the ring is as it was.
func (r *ring) record(w *ecs.World) error {
	next := 0
	if r.n > 0 {
		next = (r.newest + 1) % len(r.snaps)
	}
	s := &r.snaps[next]
	if !s.Taken() {
		snapshotGame(s) // once per slot: listing the types again does nothing
	}
	if err := w.SnapshotTo(s); err != nil {
		return err
	}
	r.newest, r.n = next, min(r.n+1, len(r.snaps))
	r.dirty = false
	return nil
}

// errNoHistory: the ring is empty. New records the first frame, so only a
// bug gets it.
var errNoHistory = errors.New("game: nothing recorded to rewind to")

// back steps w one frame back: it restores the snapshot before the
// newest and drops the newest. After a frame that failed (dirty), one
// frame back is the newest frame recorded, which it restores and keeps.
// At the oldest it restores the oldest again: rewinding never goes further
// back, and always leaves the world in a state it recorded. On error the
// ring and w are as they were.
func (r *ring) back(w *ecs.World) error {
	if r.n == 0 {
		return errNoHistory
	}
	i := r.newest
	if r.n > 1 && !r.dirty {
		i = (r.newest - 1 + len(r.snaps)) % len(r.snaps)
	}
	if err := w.Restore(&r.snaps[i]); err != nil {
		return err
	}
	if i != r.newest {
		r.newest, r.n = i, r.n-1
	}
	r.dirty = false
	return nil
}

// record records the frame just played and updates the History unique.
func (g *Game) record() error {
	if err := g.hist.record(g.w); err != nil {
		return err
	}
	return put(g.w, History{Frames: g.hist.frames()})
}

// rewind steps the game one frame back, or restores the oldest frame
// again at the limit, and updates the History unique.
func (g *Game) rewind() error {
	if err := g.hist.back(g.w); err != nil {
		return err
	}
	return put(g.w, History{Rewinding: true, Frames: g.hist.frames()})
}
