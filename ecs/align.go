package ecs

import (
	"cmp"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"
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
// driving storage at a time (its lead): while the join that set its order
// still runs (it says so at each iteration, seen), another join's request
// is resolved without undoing that order (resolve, below), or waits
// (alignPatience sync points with requests).
//
// Re-alignment moves components within their storages, as removals do:
// the order of a storage is unspecified, and so is iteration order. It
// never moves a member of a packed group, which has an order of its own,
// nor a storage sorted by ViewMut.SortFunc or SortByKey, which keeps the
// order its sort gave it until SortAs sorts it (sparseIndex.ordered).
// World.SetAutoAlign turns it off; SortAs re-aligns on demand.
//
// Several joins may share a storage and want it in different orders:
// move over Pos and Vel, count over Pos and Tag. One storage has one
// order, so the world builds a chain instead of alternating: Pos follows
// the smallest of the drivers that ask for it (Tag, whose join then reads
// Pos in order from its start), gathers the entities of the larger
// drivers next, and those drivers follow Pos (Vel is sorted in Pos's
// order). A join whose driver follows one of its storages
// finds its entities there in order, with others between them (Pos holds
// entities without Vel): it counts those look-ups ahead of its guess as
// the price of sharing, not as disorder (skips), and asks again only for
// look-ups behind it. When a storage is sorted again, the storages that
// follow it are sorted after it. World.AlignStats reports each sort.
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

	// stats are what the sorts did (AlignStats); statsAt finds a
	// storage's entry for a lead.
	statsMu sync.Mutex
	stats   []AlignStat
	statsAt map[[2]*sparseIndex]int
}

// AlignStat is what re-alignment did to one storage in one order: the
// sorts at sync points ([World.SetAutoAlign]) and by [SortAs], and the
// requests that waited. See [World.AlignStats].
type AlignStat struct {
	Storage string // the storage sorted, by its component type
	Lead    string // the storage whose order it was sorted in
	// Sorts counts the sorts, Moved the components they moved, and Time
	// what they took. A sort that finds the storage in order moves none.
	Sorts, Moved int
	Time         time.Duration
	// Waits counts the sync points at which a join asked for this order
	// and the storage kept another, because the join that set it still
	// ran and neither could follow the other.
	Waits int
}

// record adds a sort of follow in lead's order that moved n components
// in d, or a request that waited (n < 0), to the statistics.
func (a *aligner) record(follow, lead alignable, n int, d time.Duration) {
	a.statsMu.Lock()
	defer a.statsMu.Unlock()
	key := [2]*sparseIndex{follow.typeFree(), lead.typeFree()}
	k, ok := a.statsAt[key]
	if !ok {
		if a.statsAt == nil {
			a.statsAt = make(map[[2]*sparseIndex]int)
		}
		k = len(a.stats)
		a.statsAt[key] = k
		a.stats = append(a.stats, AlignStat{Storage: follow.typeName(), Lead: lead.typeName()})
	}
	st := &a.stats[k]
	if n < 0 {
		st.Waits++
		return
	}
	st.Sorts++
	st.Moved += n
	st.Time += d
}

// AlignStats returns what re-alignment has done in w, one entry per
// storage and order, in the order of their first sort or wait. A storage
// sorted again and again at every frame, or requests that keep waiting,
// say that joins over it want orders the world cannot give them all (see
// the "Joins after churn" section of docs/performance-tips.md). Panics if
// w is nil.
func (w *World) AlignStats() []AlignStat {
	w.mustWorld("AlignStats")
	a := &w.align
	a.statsMu.Lock()
	defer a.statsMu.Unlock()
	return slices.Clone(a.stats)
}

// alignPair is a storage sorted in its lead's order, and what the two
// had counted at the sort (see sparseIndex.changes and leadUses).
type alignPair struct {
	follow, lead   alignable
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
// a sort ahead of the join's next pass. A storage sorted through a
// ViewMut (sparseIndex.ordered) is never due: that sort cleared its lead,
// and sorted sets no lead on it until SortAs.
func (a *aligner) due(p *alignPair) bool {
	if p.fi.lead != p.li || !p.live && p.fi.leadUses.Load() == p.uses {
		return false
	}
	moved := (p.fi.drift - p.drift) + (p.li.changes - p.changes)
	return moved <= math.MaxInt32 && a.misaligned(int(moved), len(p.li.dense))
}

// sorted sorts follow in lead's order, and watches the pair from then on;
// asked says that a join asked for the sort. The storages that follow
// follow are sorted after it, if it moved. The world holds every storage.
func (a *aligner) sorted(follow, lead alignable, round uint64, asked bool) int {
	fi, li := follow.typeFree(), lead.typeFree()
	if fi.ordered || fi == li {
		// Sorted through a ViewMut: it keeps that order (see
		// sparseIndex.ordered). Or asked to follow itself, which would
		// make a loop of leads.
		return 0
	}
	var then []*sparseIndex
	for _, q := range a.pairs {
		if q.li == fi && q.fi.lead == fi && q.fi != li {
			then = append(then, q.fi)
		}
	}
	start := time.Now()
	n := sortAs(follow, li, then)
	a.record(follow, lead, n, time.Since(start))
	uses := fi.leadUses.Load()
	live := asked
	if k := slices.IndexFunc(a.pairs, func(q alignPair) bool { return q.fi == fi && q.li == li }); k >= 0 {
		live = live || a.pairs[k].uses != uses
	}
	// A storage that follows follow, directly or not, cannot be its lead
	// too: the link that closes the loop goes (SortAs can ask for it).
	for x := li; x != nil; x = x.lead {
		if x.lead == fi {
			x.lead = nil
			break
		}
	}
	fi.lead = li
	fi.leadSeen.Store(round)
	fi.sorted = min(len(fi.dense), len(li.dense))
	p := alignPair{follow: follow, lead: lead, fi: fi, li: li, drift: fi.drift, changes: li.changes, uses: uses, live: live}
	a.pairs = slices.DeleteFunc(a.pairs, func(q alignPair) bool { return q.fi == fi || q.fi.lead != q.li })
	a.pairs = append(a.pairs, p)
	a.watching.Store(true)
	if n > 0 {
		for _, q := range slices.Clone(a.pairs) {
			if q.li == fi && q.fi.lead == fi {
				a.sorted(q.follow, follow, round, false)
			}
		}
	}
	return n
}

// resolve acts on a join's request that follow be sorted in lead's order,
// at a sync point (see the top of this file).
func (a *aligner) resolve(r alignReq, round uint64) {
	follow, lead := r.follow.(alignable), r.lead.(alignable)
	fi, li := follow.typeFree(), lead.typeFree()
	switch {
	case follow.inPack(), fi.ordered:
	case li.lead == fi:
		// The driver follows this storage already, and drifted from it.
		a.sorted(lead, follow, round, true)
	case a.free(fi, li, round):
		a.sorted(follow, lead, round, true)
	default:
		// follow keeps the order of another driver whose join still runs.
		// The smaller of the two drivers keeps follow, the larger follows
		// follow: swap them if lead is the smaller, else sort lead.
		// old is follow's lead, read before any sort: sorted rewrites
		// a.pairs, so an index into it does not outlive a sort.
		var old alignable
		if k := slices.IndexFunc(a.pairs, func(q alignPair) bool { return q.fi == fi && q.li == fi.lead }); k >= 0 {
			old = a.pairs[k].lead
		}
		if old != nil && len(li.dense) < len(fi.lead.dense) && !chains(li, fi) {
			if oi := old.typeFree(); !old.inPack() && !chains(li, oi) {
				oi.lead = nil // free: it follows follow from now on
				a.sorted(old, follow, round, true)
				a.sorted(follow, lead, round, true)
				return
			}
		}
		if !lead.inPack() && a.free(li, fi, round) {
			// Then follow again, to gather lead's entities after those
			// of its own lead.
			a.sorted(lead, follow, round, true)
			if old != nil {
				a.sorted(follow, old, round, false)
			}
			return
		}
		a.record(follow, lead, -1, 0)
	}
}

// free reports whether x may take y's order: x follows nothing, or y
// already, or a lead whose join has stopped running, and y does not
// follow x (directly or not).
func (a *aligner) free(x, y *sparseIndex, round uint64) bool {
	if chains(y, x) {
		return false
	}
	return x.lead == nil || x.lead == y || round-x.leadSeen.Load() > alignPatience
}

// chains reports whether x is y or follows y, directly or through other
// storages.
func chains(x, y *sparseIndex) bool {
	for n := 0; x != nil && n <= maxChain; x, n = x.lead, n+1 {
		if x == y {
			return true
		}
	}
	return false
}

// maxChain bounds a walk up the leads: sorted keeps them free of loops,
// so the bound only guards against a mistake there.
const maxChain = 64

// alignReq asks that follow be sorted in lead's order.
type alignReq struct {
	lead, follow storage
}

// alignable is what re-alignment needs of a storage beyond storage.
type alignable interface {
	typeFree() *sparseIndex
	typeName() string
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
		a.resolve(r, round)
	}
	// The watched pairs that drifted, in the order they were sorted.
	for _, p := range slices.Clone(a.pairs) {
		if !a.off.Load() && a.due(&p) {
			a.sorted(p.follow, p.lead, round, false)
		}
	}
}

// sortAs moves follow's components of lead's entities to the front of
// follow, in lead's order, then those of the entities of each storage of
// then, in its order: after it, a join driven by lead finds each entity in
// follow right after the previous one, and a join driven by a storage of
// then sorted in follow's order finds its entities close together. It
// reads the ids of lead and then in order, and moves only the components
// out of place, each once: position k holds its final entity once the
// pass has gone past it, so a swap never takes a component from before k.
func sortAs(follow alignable, lead *sparseIndex, then []*sparseIndex) int {
	if follow.inPack() {
		return 0
	}
	fi := follow.typeFree()
	moved, k := 0, 0
	for j := -1; j < len(then); j++ {
		ids := lead.dense
		if j >= 0 {
			ids = then[j].dense
		}
		for _, id := range ids {
			if k == len(fi.dense) {
				return moved // every component of follow is in place
			}
			if fi.dense[k] == id {
				k++
				continue
			}
			x := follow.position(id)
			if x < k {
				continue // not in follow, or placed already
			}
			follow.swapPos(k, x)
			moved++
			k++
		}
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
// join. F's storage is left to re-alignment again afterwards, if
// [ViewMut.SortFunc] or [SortByKey] had sorted it. It fails, changing
// nothing, if the storages are borrowed
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
	f.ordered = false // an explicit order replaces the sort's (see sparseIndex.ordered)
	return w.align.sorted(f, l, w.align.round.Load(), false), nil
}

// settleJoin is a join's report at the end of a pass over n of its
// driver's entities (ss[driver] drives) in which misses look-ups found an
// entity behind their guess and skips ahead of it: it asks w to re-align
// the other storages when they missed often, and otherwise marks the
// orders it relies on as still in use.
func settleJoin(w *World, driver, misses, skips, n int, ss []storage) {
	a := &w.align
	lead := ss[driver]
	li := lead.(alignable).typeFree()
	follows := false
	for k, s := range ss {
		if k == driver {
			continue
		}
		fi := s.(alignable).typeFree()
		if fi.lead == li {
			fi.leadUses.Add(1)
		}
		if li.lead == fi {
			li.leadUses.Add(1)
			follows = true
		}
	}
	// A driver sorted in the order of one of the join's storages finds
	// its entities there in order, with other entities between them:
	// skipping those is the price of sharing that storage, not disorder.
	if !follows {
		misses += skips
	}
	if a.misaligned(misses, n) {
		for k, s := range ss {
			if k != driver {
				a.want(lead, s)
			}
		}
		return
	}
	for k, s := range ss {
		if k != driver {
			fi := s.(alignable).typeFree()
			a.seen(li, fi)
			a.seen(fi, li)
		}
	}
}
