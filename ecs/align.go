package ecs

import (
	"cmp"
	"math"
	"slices"
	"sync"
	"sync/atomic"
)

// Re-alignment: keeping joins fast in a world that churns.
//
// A join walks its driving storage (the shortest) in order and finds each
// entity's components in the other storages. It guesses first that an
// entity sits right after the previous one in every other storage: where
// the storages hold the join's entities in the same order, every guess
// hits and the join reads all its storages in order, at the speed of a
// loop over slices. A miss costs a look-up in the sparse pages, and after
// churn (components removed and added again, entities deleted and
// created) most guesses miss, and each look-up waits on memory.
//
// So a join counts its misses, and when they pass a share of its entities
// (alignMisses), it asks its world to re-align: at the next sync point
// (the end of World.Run, RunWorkload, or a Borrow's release) where nothing
// else is borrowed, the world sorts each other storage of the join in the
// order of the driving one (sortAs), in one pass over the driving storage
// that moves only the components out of place. A storage follows one
// driving storage at a time: while the join that set its order still runs
// (it says so at each iteration, seen), another join's requests wait
// (alignPatience sync points with requests), so two joins that want
// different orders do not undo each other at every sync point.
//
// Re-alignment moves components within their storages, as removals do:
// the order of a storage is unspecified, and so is iteration order. It
// never moves a member of a packed group, which has an order of its own.
// World.SetAutoAlign turns it off; SortAs re-aligns on demand.
//
// A join measures disorder only as it runs, so a request comes after a
// pass that paid for it. Where the world churns between the passes of a
// join (a game's frame: systems add and remove components, then the query
// runs), every pass would pay before its storages are sorted again. So
// the world also keeps watching the storages it sorted (alignPair): each
// storage counts its insertions and removals, and those that land in the
// stretch its last sort put in order (sparseIndex.drift); when a sorted
// storage and its lead have changed by more than a join's threshold since
// the sort, and the join ran since, the next sync point sorts it again,
// before the join's next pass.

// alignMisses: a join asks for re-alignment when more than one in
// alignMisses of its entities were not where it guessed, and more than
// alignMinMisses.
const (
	alignMisses    = 32
	alignMinMisses = 64
)

// alignPatience is how many sync points with requests a storage keeps the
// order of a driving storage whose join has stopped running before it
// takes another's.
const alignPatience = 4

// aligner is a world's re-alignment state.
type aligner struct {
	off atomic.Bool // SetAutoAlign(false)
	// minMisses replaces alignMinMisses when above zero (set by tests
	// before the world is used, so that small worlds re-align too).
	minMisses int
	pending   atomic.Bool // reqs is not empty
	round     atomic.Uint64

	mu   sync.Mutex
	reqs []alignReq

	// pairs are the storages a sort put in another's order, watched for
	// drift; written only while the world holds every storage. watching
	// says whether there are any, for the sync points' first test.
	pairs    []alignPair
	watching atomic.Bool
}

// alignPair is a storage sorted in its lead's order, and what the two
// had counted at the sort (see sparseIndex.changes and leadUses).
type alignPair struct {
	follow         alignable
	fi, li         *sparseIndex
	drift, changes uint64 // fi.drift and li.changes at the sort
	uses           uint64 // fi.leadUses at the sort
	// live: a join over the pair ran between the sort before and this
	// one (or asked for this one). Sorts ahead of a join follow changes
	// made between its passes, so the last sort often came after its
	// last pass: the pass before it says the join still runs.
	live bool
}

// due reports whether p's storages have moved far enough from their
// common order since the sort, for a join over them that still runs, for
// a sort ahead of the join's next pass.
func (a *aligner) due(p *alignPair) bool {
	if p.fi.lead != p.li || !p.live && p.fi.leadUses.Load() == p.uses {
		return false
	}
	moved := (p.fi.drift - p.drift) + (p.li.changes - p.changes)
	return moved <= math.MaxInt32 && a.misaligned(int(moved), len(p.li.dense))
}

// sorted sorts follow in lead's order, and watches the pair from then on;
// asked says that a join asked for the sort. The world holds every
// storage.
func (a *aligner) sorted(follow alignable, lead *sparseIndex, round uint64, asked bool) int {
	fi := follow.typeFree()
	n := sortAs(follow, lead)
	uses := fi.leadUses.Load()
	live := asked
	if k := slices.IndexFunc(a.pairs, func(q alignPair) bool { return q.fi == fi && q.li == lead }); k >= 0 {
		live = live || a.pairs[k].uses != uses
	}
	fi.lead = lead
	fi.leadSeen.Store(round)
	fi.sorted = min(len(fi.dense), len(lead.dense))
	p := alignPair{follow: follow, fi: fi, li: lead, drift: fi.drift, changes: lead.changes, uses: uses, live: live}
	a.pairs = slices.DeleteFunc(a.pairs, func(q alignPair) bool { return q.fi == fi || q.fi.lead != q.li })
	a.pairs = append(a.pairs, p)
	a.watching.Store(true)
	return n
}

// alignReq asks that follow be sorted in lead's order.
type alignReq struct {
	lead, follow storage
}

// alignable is what re-alignment needs of a storage beyond storage.
type alignable interface {
	typeFree() *sparseIndex
	position(id EntityID) int
	swapPos(i, j int)
	inPack() bool
}

// misaligned reports whether a join that visited n entities and missed
// its guess misses times should ask for re-alignment.
func (a *aligner) misaligned(misses, n int) bool {
	least := alignMinMisses
	if a.minMisses > 0 {
		least = a.minMisses
	}
	return misses > least && misses*alignMisses > n
}

// want records that a join driven by lead missed its guesses in follow
// too often. Joins call it from any goroutine, holding their views.
func (a *aligner) want(lead, follow storage) {
	if a.off.Load() || lead == follow {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	r := alignReq{lead, follow}
	if !slices.Contains(a.reqs, r) {
		a.reqs = append(a.reqs, r)
	}
	a.pending.Store(true)
}

// seen records that a join driven by lead ran over follow, which follows
// lead's order: follow keeps that order against other joins' requests.
func (a *aligner) seen(lead *sparseIndex, follow *sparseIndex) {
	if follow.lead == lead {
		if r := a.round.Load(); follow.leadSeen.Load() != r {
			follow.leadSeen.Store(r)
		}
	}
}

// syncPoint re-aligns the storages joins asked for, if nothing in w is
// borrowed (the world takes all storages exclusively for it); otherwise
// the requests wait for the next sync point.
func (w *World) syncPoint() {
	a := &w.align
	if !a.pending.Load() && (!a.watching.Load() || a.off.Load()) {
		return
	}
	l := &w.allLock
	if !l.n.CompareAndSwap(0, -1) {
		return
	}
	defer l.releaseExclusive()
	if l.excl.Load() != worldWrite {
		l.excl.Store(worldWrite)
	}
	var reqs []alignReq
	if a.pending.Load() { // joins hold views: none can ask meanwhile
		a.mu.Lock()
		reqs = a.reqs
		a.reqs = nil
		a.pending.Store(false)
		a.mu.Unlock()
	}
	if len(reqs) == 0 && !slices.ContainsFunc(a.pairs, func(p alignPair) bool { return a.due(&p) }) {
		return
	}
	// No purge of what DeleteUnchecked left behind here (stripDoomed):
	// Run, RunWorkload and a Borrow's release leave it, whether they sort
	// or not. The sort moves those components with the others.
	round := a.round.Load()
	if len(reqs) > 0 {
		round = a.round.Add(1)
	}
	// In a stable order, whatever order the requests came in (systems run
	// in parallel): the same changes lead to the same storage orders.
	slices.SortFunc(reqs, func(x, y alignReq) int {
		return cmp.Or(cmp.Compare(x.follow.typeName(), y.follow.typeName()), cmp.Compare(x.lead.typeName(), y.lead.typeName()))
	})
	for k, r := range reqs {
		if k > 0 && reqs[k-1].follow == r.follow {
			continue // one order per storage and sync point
		}
		f := r.follow.(alignable)
		fi, li := f.typeFree(), r.lead.(alignable).typeFree()
		if fi.lead != nil && fi.lead != li && round-fi.leadSeen.Load() <= alignPatience {
			continue // its join still runs
		}
		a.sorted(f, li, round, true)
	}
	// The watched pairs that drifted, in the order they were sorted.
	for _, p := range slices.Clone(a.pairs) {
		if !a.off.Load() && a.due(&p) {
			a.sorted(p.follow, p.li, round, false)
		}
	}
}

// sortAs moves follow's components of lead's entities to the front of
// follow, in lead's order: after it, a join driven by lead finds each
// entity in follow right after the previous one. It reads lead's ids in
// order, and moves only the components out of place, each once: position
// k holds its final entity once the pass has gone past it, so a swap
// never takes a component from before k.
func sortAs(follow alignable, lead *sparseIndex) int {
	if follow.inPack() {
		return 0
	}
	fi := follow.typeFree()
	moved, k := 0, 0
	for _, id := range lead.dense {
		if k == len(fi.dense) {
			break // every component of follow is in place
		}
		if fi.dense[k] == id {
			k++
			continue
		}
		x := follow.position(id)
		if x < 0 {
			continue
		}
		follow.swapPos(k, x)
		moved++
		k++
	}
	return moved
}

// SetAutoAlign turns automatic re-alignment on (the default) or off: with
// it on, joins that find their storages in different orders have the
// world sort them in the driving storage's order at the next sync point
// (see the "Joins after churn" section of docs/performance-tips.md).
// Off, storages keep the order insertions and removals give them, and
// only [SortAs] re-aligns them. Panics if w is nil.
func (w *World) SetAutoAlign(on bool) {
	w.mustWorld("SetAutoAlign")
	w.align.off.Store(!on)
	if !on {
		w.align.mu.Lock()
		w.align.reqs = nil
		w.align.pending.Store(false)
		w.align.mu.Unlock()
	}
}

// SortAs sorts the storage of F in the order of L's: the components of
// the entities that have both come first, in L's order, so that joins
// driven by L (the shorter storage, usually) read F in order. It returns
// how many components it moved. F's storage keeps this order until
// components are added or removed, or the world re-aligns it for another
// join. It fails, changing nothing, if the storages are borrowed
// elsewhere, if F and L are the same type, or if F is a member of a packed
// group (a group keeps its own order).
func SortAs[F, L any](s Storages) (int, error) {
	w, locked, err := beginWrite(s)
	if err != nil {
		return 0, err
	}
	defer endWrite(w, locked)
	f, l := storageFor[F](w), storageFor[L](w)
	op := "SortAs[" + f.name + ", " + l.name + "]"
	if w.eaching != 0 {
		if err := refuseWalked(op, "reorder the "+f.name+" storage", &f.sparseIndex, f.name); err != nil {
			return 0, err
		}
	}
	if any(f) == any(l) {
		return 0, &argError{op: op, what: "F and L are the same type", kind: ErrSortRefused}
	}
	if f.pack != nil {
		return 0, &argError{op: op, what: "F is a member of a packed group, which keeps its own order", kind: ErrSortRefused}
	}
	return w.align.sorted(f, &l.sparseIndex, w.align.round.Load(), false), nil
}

// settleJoin is a join's report at the end of a pass over n of its
// driver's entities (ss[driver] drives) in which misses guesses missed: it
// asks w to re-align the other storages when they missed often, and
// otherwise marks those that follow the driver as still in use.
func settleJoin(w *World, driver, misses, n int, ss []storage) {
	lead := ss[driver]
	li := lead.(alignable).typeFree()
	for k, s := range ss {
		if fi := s.(alignable).typeFree(); k != driver && fi.lead == li {
			fi.leadUses.Add(1)
		}
	}
	if w.align.misaligned(misses, n) {
		for k, s := range ss {
			if k != driver {
				w.align.want(lead, s)
			}
		}
		return
	}
	for k, s := range ss {
		if k != driver {
			w.align.seen(li, s.(alignable).typeFree())
		}
	}
}
