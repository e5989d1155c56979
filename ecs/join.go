package ecs

// The join core: everything a join does that does not depend on its
// component types. The generated IterN types (join_gen.go) read their
// views into a joinCore, and map the positions it finds to components:
// &data[x]. Passes go a batch at a time (joinBatch): a run of entities
// aligned in every storage, or a list of up to batchLen positions.

// maxParts is the largest arity of a join.
const maxParts = 8

// batchLen is how many entities a list batch holds.
const batchLen = 64

// minRun is the shortest stretch of aligned entities a pass hands out
// as a run; shorter ones go into list batches.
const minRun = 8

// joinCore is the type-free state of a join over n storages.
type joinCore struct {
	n   int
	ix  [maxParts]*sparseIndex
	tr  [maxParts]*stamps // nil: untracked
	st  [maxParts]storage
	grp [maxParts]*pack
	op  [maxParts]opTrack
	not []Filter
	// opt[k]: storage k is an Optional term, which never drives and
	// never excludes: where it lacks the entity, its position is -1.
	// opts: some storage is.
	opt  [maxParts]bool
	opts bool
	// ors: bit k says that storage k is an Or term's table (its
	// orTable is set), built for the iteration: marking there marks
	// the term's views.
	ors uint8
	w   *World // the views' world, or nil (made from storages, or views of several worlds)

	ids    []EntityID // the driving storage's entities
	driver int        // which of ix drives (ids[i] owns position i there), or -1: every storage holds ids[i] at i
	i      int        // the next position of ids to look at
	// tracked: a view is a Changed filter, or a term is an Or table (see
	// setFlags); marks: a view marks what the join hands out (see
	// opTrack).
	tracked, marks bool

	// Pass state: the position of the last entity found in each storage,
	// and how many guesses missed (see align.go).
	last   [maxParts]int
	misses int // look-ups that found an entity behind the guess
	skips  int // look-ups that found it ahead of the guess
	from   int
	// runTo is the end of the run that starts at i, when a list batch
	// found it (0: not known), and runAt where it starts in each storage.
	runTo int
	runAt [maxParts]int
	// runMin is the shortest run a pass hands out (0: minRun). Runs
	// sets 1: every entity in line starts a run.
	runMin int
	// guess[k] says that the last guess in storage k hit (see find).
	guess [maxParts]bool
	// A cursor inside a run: curLeft entities are left in it, and the
	// last one handed out sat at curAt.
	curLeft int
	curAt   [maxParts]int
	curTry  bool // look for a run at the next entity
}

// shortest returns the shortest run a pass hands out.
func (c *joinCore) shortest() int {
	if c.runMin > 0 {
		return c.runMin
	}
	return minRun
}

// joinBatch is what a pass hands out at a time: n entities. In a run,
// they are ids[:n], and the components of ids[j] sit at at[k]+j in
// storage k; otherwise they are idb[:n], and the components of idb[j]
// sit at x[k][j]. (A list keeps its ids in idb, not in ids: a slice of
// the batch kept in the batch would make every batch escape.)
type joinBatch struct {
	n   int
	run bool
	at  [maxParts]int
	ids []EntityID
	x   [maxParts][batchLen]int32
	idb [batchLen]EntityID
}

// pos returns where entity j of the batch sits in storage k.
func (b *joinBatch) pos(k, j int) int {
	if b.run {
		return b.at[k] + j
	}
	return int(b.x[k][j])
}

// setStore sets storage k of the join: its index, tracking, storage and
// group.
func (c *joinCore) setStore(k int, ix *sparseIndex, tr *stamps, st storage, g *pack) {
	c.ix[k], c.tr[k], c.st[k], c.grp[k] = ix, tr, st, g
	if o := st.orTable(); o != nil {
		c.ors |= 1 << k
		c.op[k].mark = o.marks()
	}
}

// markAt marks the component at position p of storage k modified: in an
// Or term's table, the components of its views that entry p hands out.
func (c *joinCore) markAt(k, p int) {
	if c.ors&(1<<k) != 0 {
		c.st[k].orTable().mark(p)
		return
	}
	c.tr[k].mark(p)
}

// setOpt makes storage k an Optional term or not.
func (c *joinCore) setOpt(k int, opt bool) {
	c.opt[k] = opt
	c.opts = c.opts || opt
}

// setFlags computes tracked and marks from the operands' opTrack. A join
// with an Or term counts as tracked: its table is built for each
// iteration, so Get rebuilds it, and the join hands out no runs of
// several entities.
func (c *joinCore) setFlags() {
	c.tracked, c.marks = c.ors != 0, false
	for k := range c.n {
		c.tracked = c.tracked || c.op[k].filter != 0
		c.marks = c.marks || c.op[k].mark
	}
}

// pick chooses what drives the join: the aligned range of a packed group
// when the storages are exactly its members; every storage at once when
// their identity prefixes, of one generation, cover the shortest (the
// first components of each belong to the same entities in order, as when
// a level is loaded); else the shortest storage. An Optional term never
// drives; it panics with errOnlyOptional if every term is one.
func (c *joinCore) pick() {
	c.driver = -1
	for k := range c.n {
		if !c.opt[k] && (c.driver < 0 || len(c.ix[k].dense) < len(c.ids)) {
			c.driver, c.ids = k, c.ix[k].dense
		}
	}
	if c.driver < 0 {
		panic(errOnlyOptional)
	}
	if c.n < 2 {
		return
	}
	if g := c.packed(); g != nil {
		c.driver, c.ids = -1, c.ix[0].dense[:g.n]
		return
	}
	n, gen := uint64(len(c.ids)), c.ix[0].pre.gen
	for k := range c.n {
		if p := c.ix[k].pre; p.n < n || p.gen != gen {
			return
		}
	}
	c.driver = -1
}

// packed returns the group whose members are exactly the join's storages,
// or nil; nil for a join with an Optional term, which visits entities
// outside the group too.
func (c *joinCore) packed() *pack {
	g := c.grp[0]
	if g == nil || len(g.members) != c.n || c.opts {
		return nil
	}
	for k := range c.n {
		if c.grp[k] != g {
			return nil
		}
		for j := range k {
			if c.ix[j] == c.ix[k] {
				return nil
			}
		}
	}
	return g
}

// stampsOf returns the type-free part of t, or nil.
func stampsOf[T any](t *tracker[T]) *stamps {
	if t == nil || t.kinds == 0 { // untracked, or hooks alone
		return nil
	}
	return &t.stamps
}

// inGroup reports whether the join runs over a packed group.
func (c *joinCore) inGroup() bool { return c.driver < 0 && c.grp[0] != nil }

// plain reports whether the join has no filter and marks nothing, so that
// a pass can hand out runs.
func (c *joinCore) plain() bool { return !c.tracked && !c.marks && c.not == nil }

// begin starts a pass from position i of the driver.
func (c *joinCore) begin() {
	for k := range c.last {
		c.last[k] = c.i - 1
		c.guess[k] = true
	}
	c.misses, c.skips, c.from, c.runTo, c.curLeft, c.curTry = 0, 0, c.i, 0, 0, true
}

// next fills b with the pass's next batch and reports whether there was
// one; a batch may hold no entity when a stretch of the driver matched
// nothing. At the end of the pass it tells the world how the guesses went
// (settle).
func (c *joinCore) next(b *joinBatch) bool {
	return c.nextUpTo(b, batchLen)
}

// nextUpTo is next with list batches of at most limit entities.
func (c *joinCore) nextUpTo(b *joinBatch, limit int) bool {
	ids := c.ids
	i := c.i
	if i >= len(ids) {
		c.settle(len(ids))
		return false
	}
	if c.driver < 0 {
		if c.plain() {
			b.run, b.n, b.ids = true, len(ids)-i, ids[i:]
			for k := range c.n {
				b.at[k] = i
			}
			c.i = len(ids)
			return true
		}
	} else if c.plain() && limit > 1 {
		end := c.runTo
		if end <= i {
			end = c.runEnd(i, &c.runAt)
		}
		if c.runTo = 0; end-i >= c.shortest() {
			b.run, b.n, b.ids, b.at = true, end-i, ids[i:end], c.runAt
			for k := range c.n {
				c.last[k] = b.at[k] + b.n - 1
			}
			c.i = end
			return true
		}
	}
	b.run = false
	if c.plain() && c.driver >= 0 {
		c.fillPlain(b, limit)
		return true
	}
	m := 0
	var x [maxParts]int
	for ; i < len(ids) && m < limit; i++ {
		if ok, _ := c.match(i, &x); !ok {
			continue
		}
		for k := range c.n {
			b.x[k][m] = int32(x[k])
		}
		b.idb[m] = ids[i]
		m++
	}
	c.i = i
	b.n = m
	return true
}

// fillPlain fills a list batch of at most limit entities for a join with
// a driver and no filter or marks. It writes each position into the
// batch as it finds it. Where an entity sits right after the last one in
// every storage, or in line with the driver, a run may start: with
// entities in the batch already, fillPlain ends the batch there if the
// run is long enough, and leaves it to the next batch (runTo).
func (c *joinCore) fillPlain(b *joinBatch, limit int) {
	ids, drv, n := c.ids, c.driver, c.n
	i, m := c.i, 0
next:
	for ; i < len(ids) && m < limit; i++ {
		id := ids[i]
		inLine, absent := true, false
		for k := range n {
			p := i
			if k != drv {
				if p = c.find(k, id, i); p < 0 {
					if !c.opt[k] {
						continue next
					}
					inLine, absent = false, true
				} else if p != i && p != c.last[k]+1 {
					inLine = false
				}
			}
			b.x[k][m] = int32(p)
		}
		if inLine && m > 0 && limit > 1 {
			if end := c.runEnd(i, &c.runAt); end-i >= c.shortest() {
				c.runTo = end
				break
			}
		}
		if absent {
			c.keepLast(b, m)
		} else {
			for k := range n {
				c.last[k] = int(b.x[k][m])
			}
		}
		b.idb[m] = id
		m++
	}
	c.i = i
	b.n = m
}

// keepLast records the positions of entity m of list batch b as the last
// found, in the storages that hold it.
func (c *joinCore) keepLast(b *joinBatch, m int) {
	for k := range c.n {
		if x := int(b.x[k][m]); x >= 0 {
			c.last[k] = x
		}
	}
}

// match finds the entity at position i of the driver in every storage,
// guessing first that it sits right after the last entity found there,
// and applies the join's filters. It stores the positions in x and
// reports whether the entity matches, and whether every guess hit. An
// Optional term's position is -1 where it lacks the entity or its
// Changed filter refuses the component.
func (c *joinCore) match(i int, x *[maxParts]int) (ok, hits bool) {
	id := c.ids[i]
	hits = true
	absent := false
	for k := range c.n {
		p := i
		if k != c.driver && c.driver >= 0 {
			if p = c.find(k, id, i); p < 0 {
				if !c.opt[k] {
					return false, false
				}
				x[k], hits, absent = -1, false, true
				continue
			}
			hits = hits && p == c.last[k]+1
		}
		if op := &c.op[k]; op.filter != 0 && !c.tr[k].admits(op, p) {
			if !c.opt[k] {
				return false, false
			}
			p, hits, absent = -1, false, true
		}
		x[k] = p
	}
	if c.not != nil && excluded(c.not, id) {
		return false, false
	}
	if absent {
		for k := range c.n {
			if x[k] >= 0 {
				c.last[k] = x[k]
			}
		}
	} else {
		copy(c.last[:c.n], x[:c.n])
	}
	return true, hits
}

// find returns the position of id, the driver's entity at i, in storage
// k, or -1. While the guesses hit there, it guesses first that id sits
// right after the last entity found; after a miss, it looks id up first
// (seek), and guesses again once the entity found is where the guess
// would have been. Entities neither there nor in line with the driver
// count as skips when they sit ahead of the guess, and as misses behind
// it (see align.go).
func (c *joinCore) find(k int, id EntityID, i int) int {
	ix, p := c.ix[k], c.last[k]+1
	if c.guess[k] {
		if p < len(ix.dense) && ix.dense[p] == id {
			return p
		}
		c.guess[k] = false
	}
	x := ix.seek(id, i)
	switch {
	case x == p:
		c.guess[k] = true
	case x < 0 || x == i:
	case x > p:
		c.skips++
	default:
		c.misses++
	}
	return x
}

// nextOne advances a cursor to the next matching entity: it stores the
// entity's positions in x, marks what the views mark, and returns its
// id, or reports false at the end. Within a run (see nextUpTo), it only
// steps the positions.
func (c *joinCore) nextOne(x *[maxParts]int) (EntityID, bool) {
	if c.curLeft == 0 && c.curTry && c.plain() && c.i < len(c.ids) {
		c.cursorRun()
	}
	if c.curLeft > 0 {
		c.curLeft--
		for k := range c.n {
			c.curAt[k]++
			x[k] = c.curAt[k]
		}
		id := c.ids[c.i]
		c.i++
		return id, true
	}
	for i := c.i; i < len(c.ids); i++ {
		if ok, hits := c.match(i, x); ok {
			// Look for a run after an entity in line only.
			c.i, c.curTry = i+1, hits
			for k := range c.n {
				if c.op[k].mark && x[k] >= 0 {
					c.markAt(k, x[k])
				}
			}
			return c.ids[i], true
		}
	}
	c.i = len(c.ids)
	c.settle(len(c.ids))
	return 0, false
}

// cursorRun looks for a run at the cursor's position: the whole range
// over a group or lined-up prefixes, or a stretch of at least two
// entities in line (runEnd). It sets curLeft and curAt (one before each
// start) when it finds one.
func (c *joinCore) cursorRun() {
	i := c.i
	end := len(c.ids)
	if c.driver >= 0 {
		if end = c.runEnd(i, &c.curAt); end-i < 2 {
			return
		}
	} else {
		for k := range c.n {
			c.curAt[k] = i
		}
	}
	c.curLeft = end - i
	for k := range c.n {
		c.curAt[k]--
		c.last[k] = c.curAt[k] + c.curLeft
	}
}

// runEnd returns the end of the stretch of the driver's ids from i that
// every other storage holds in the same order, from the position after
// its last entity there or from i (in line with the driver): i itself if
// ids[i] is in neither place in some storage. It stores where the stretch
// starts in each storage in at.
func (c *joinCore) runEnd(i int, at *[maxParts]int) int {
	var others [maxParts - 1][]EntityID
	o := 0
	for k := range c.n {
		if k == c.driver {
			at[k] = i
			continue
		}
		d := c.ix[k].dense
		x := c.last[k] + 1 // after the last entity, or in line with the driver
		if x >= len(d) || d[x] != c.ids[i] {
			if x = i; x >= len(d) || d[x] != c.ids[i] {
				return i
			}
		}
		others[o], at[k] = d[x:], x
		o++
	}
	return i + alignedPrefix(c.ids[i:], 1, others[:o])
}

// mark marks entity j of b modified in the storages whose views mark what
// they hand out. Passes call it for each entity they hand out.
func (c *joinCore) mark(b *joinBatch, j int) {
	for k := range c.n {
		if c.op[k].mark {
			if p := b.pos(k, j); p >= 0 {
				c.markAt(k, p)
			}
		}
	}
}

// stop ends a pass early, after entity j of b.
func (c *joinCore) stop(b *joinBatch, j int) {
	c.settle(c.i - (b.n - j - 1))
}

// settle tells the world how a pass that reached position end of the
// driver went: see settleJoin. A join made from storages, over a group
// or lined-up prefixes, or over views of several worlds tells nothing;
// nor does a join with an Or term, whose table the world does not own.
func (c *joinCore) settle(end int) {
	if c.w == nil || c.driver < 0 || c.from < 0 || c.ors != 0 {
		return
	}
	settleJoin(c.w, c.driver, c.misses, c.skips, end-c.from, c.st[:c.n])
	c.from = -1 // once per pass
}

// get finds id in every storage of the join, applying its filters and
// marks, and stores the positions in x. It reports false if id lacks a
// component or is filtered out (an Optional term's position is -1 then).
func (c *joinCore) get(id EntityID, x *[maxParts]int) bool {
	for k := range c.n {
		p := c.ix[k].pos(id)
		if p >= 0 {
			if op := &c.op[k]; op.filter != 0 && !c.tr[k].admits(op, p) {
				p = -1
			}
		}
		if p < 0 && !c.opt[k] {
			return false
		}
		x[k] = p
	}
	if c.not != nil && excluded(c.not, id) {
		return false
	}
	for k := range c.n {
		if c.op[k].mark && x[k] >= 0 {
			c.markAt(k, x[k])
		}
	}
	return true
}

// count returns the number of entities a pass would hand out.
func (c *joinCore) count() (n int) {
	c.marks = false
	for k := range c.n {
		c.op[k].mark = false
	}
	c.begin()
	var b joinBatch
	for c.next(&b) {
		n += b.n
	}
	return n
}

// packedRange returns the group's length when the join runs over a
// packed group with no filter, marking every component handed out when
// its views mark, and false otherwise.
func (c *joinCore) packedRange() (int, bool) {
	if !c.inGroup() || c.tracked || c.not != nil || c.opts {
		return 0, false
	}
	n := len(c.ids)
	for k := range c.n {
		if c.op[k].mark {
			c.tr[k].markFirst(n)
		}
	}
	return n, true
}

// markPass marks every component a pass hands out, in one pass on the
// caller, and turns the marks off: ParEach marks first, since marking
// updates summaries shared by neighbouring components, which workers must
// not write at once.
func (c *joinCore) markPass() {
	if !c.marks {
		return
	}
	i := c.i
	defer func() { c.i = i; c.begin() }()
	c.begin()
	var b joinBatch
	for c.next(&b) {
		for j := range b.n {
			c.mark(&b, j)
		}
	}
	c.marks = false
	for k := range c.n {
		c.op[k].mark = false
	}
}

// parallel runs body over the driver's positions from c.i, split across
// the worker pool in chunks of at least grain: body gets a copy of the
// join limited to its chunk.
func (c *joinCore) parallel(grain int, body func(sub *joinCore)) {
	pool := sharedPool()
	if c.w != nil {
		pool = c.w.Pool()
	}
	base, ids := c.i, c.ids
	pool.parallelFor(len(ids)-base, grain, func(start, end int) {
		sub := *c
		sub.ids, sub.i, sub.w = ids[:base+end], base+start, nil
		sub.begin()
		body(&sub)
	})
}
