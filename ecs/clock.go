package ecs

import "sync/atomic"

// clock is a world's tracking clock, shared by its tracked storages
// (stamps.clk): the storage layer's only tie to the world's time. World
// embeds it.
type clock struct {
	tick atomic.Uint64 // the latest timestamp taken
	// marked is the newest timestamp TrackingTimestamp returned, 0 before
	// the first: deletions and removals logged after it carry a newer one
	// (stamps.logStamp).
	marked atomic.Uint64
	// allNow is the timestamp of the system holding an AllStoragesViewMut,
	// 0 when none does: changes made through it carry it. It is written
	// and read only under the exclusive all-storages borrow.
	allNow uint64
}

// The world has one clock (World.clock), whose tick which only moves forward. Every
// exclusive borrow of a tracked storage (a ViewMut, in a system or a
// World.Borrow) takes the next timestamp once it holds the storage, and
// so do an AllStoragesViewMut and every World-level change to a tracked
// storage; the changes made through the borrow carry its timestamp. So a
// change's timestamp is newer than the end of every earlier borrow of its
// storage.
//
// Readings of the clock are ordered against the changes made after them:
//
//   - A system in a workload sees the changes whose timestamp is after
//     the end of its own previous run: the clock as it was when that run
//     ended, read while its views were still held (borrowCtx.end). Its
//     own changes are not newer than that, and the changes made to its
//     storages after it are, since they are made through later borrows.
//   - A clear of insertions or modifications takes a timestamp of its
//     own, and the borrow that clears moves on to a later one
//     (clearChanges): the borrow holds the storage, so no one else
//     changes it meanwhile.
//   - A mark read with TrackingTimestamp is not tied to a storage: a
//     borrow held while it is read may still log deletions and removals
//     with its older timestamp. World.marked keeps the newest mark, and
//     logStamp moves such a borrow on to a newer timestamp first, so that
//     the …OlderThan clears keep what is logged after the mark.
//     Insertions and modifications need no such care: no clear takes a
//     mark for them.
//
// A borrow's timestamp therefore moves only forward, and each log is in
// timestamp order. Timestamps are 64-bit: at a billion borrows per
// second the clock wraps after 584 years. Comparisons are wrap-safe anyway
// (serial-number arithmetic: a is after b when a-b, modulo 2^64, is
// below 2^63), so the clock can start anywhere; "never modified" is
// stored as 2^62 ticks before the insertion, so it stays in the past
// for any window that starts less than 2^62 ticks before it.

// ancient is how far in the past "never" is put, relative to a stamp.
const ancient = 1 << 62

// firstWindow returns where the window of a system's first run in a
// workload starts: it sees every change made in the 2^61 ticks before
// now, and a component never modified (stored ancient ticks before its
// insertion) stays unmodified in it, also one that the run itself inserts,
// up to 2^61 ticks later.
func (c *clock) firstWindow() uint64 { return c.tick.Load() - ancient/2 }

// newer reports whether ts is after since, wrap-safely.
func newer(ts, since uint64) bool { return int64(ts-since) > 0 }

// nextTick takes the next timestamp, never 0 (0 means "none").
func (c *clock) nextTick() uint64 {
	t := c.tick.Add(1)
	if t == 0 {
		t = c.tick.Add(1)
	}
	return t
}

// mark reads the clock for TrackingTimestamp, and keeps the reading in
// c.marked unless a newer one is there already (another goroutine may
// read a mark at the same time).
func (c *clock) mark() uint64 {
	ts := c.tick.Load()
	for {
		m := c.marked.Load()
		if (m != 0 && !newer(ts, m)) || c.marked.CompareAndSwap(m, ts) {
			return ts
		}
	}
}
