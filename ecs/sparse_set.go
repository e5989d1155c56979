package ecs

import (
	"math"
	"reflect"
	"slices"
	"sync/atomic"
)

const (
	pageShift = 10
	pageSize  = 1 << pageShift // sparse entries per page
	pageMask  = pageSize - 1
)

// sparsePage maps entity indices to dense positions. An entry is
// generation<<32 | (position+1); zero means "no component".
type sparsePage [pageSize]uint64

// emptyPage stands for every page not allocated: it maps nothing, and is
// never written (an insertion allocates a page of its own first). A page
// table never holds nil, so lookups need no nil test. Its entries are not
// zero but noGen, which no lookup matches either (no id has generation
// math.MaxUint32: see maxGeneration), so that freeEntry's test for an
// empty entry fails on it with no test of the page.
var emptyPage = func() (p sparsePage) {
	for i := range p {
		p[i] = noGen
	}
	return p
}()

// noGen is a generation, in the high 32 bits as in an EntityID, that no
// entity has: the entries of emptyPage, and the identity prefix's
// generation in a group member, so that no id continues its prefix.
const noGen = genMask

// genMask selects the generation half of an entry (and of an EntityID).
const genMask = ^uint64(math.MaxUint32)

func sparseEntry(id EntityID, pos int) uint64 {
	return uint64(id)&genMask | uint64(uint32(pos+1))
}

// entryGen returns the generation stored in a non-zero entry.
func entryGen(e uint64) uint32 { return uint32(e >> 32) }

// The lookups below test an entry e against an id with one comparison:
// x := e ^ (id's generation half) is position+1 (in 1..MaxUint32) exactly
// when e is non-zero and has id's generation; otherwise x is zero or has
// high bits set. So x-1 < MaxUint32 says "present, same generation", and
// x-1 is then the position.

// insertOutcome tells what an insertion did.
type insertOutcome uint8

const (
	inserted insertOutcome = iota // the entity had no component of this type
	replaced                      // the entity's component was overwritten
	refused                       // the id is older than the entity owning its slot here
	blocked                       // refused by the group: see sparseSet.groupRefuses
)

// sparseSet is the storage of one component type.
//
// Invariants:
//   - len(dense) == len(data); data[i] is the component of entity dense[i].
//   - for every i >= pre.n, the sparse entry of dense[i].Index() is
//     sparseEntry(dense[i], i); every other sparse entry is zero (those
//     of the identity prefix's entities too).
//   - pages are allocated on first use and only freed by shrink (memory.go)
//     once no entity maps to them, so a sparse index far from the others
//     costs one page, not an array as long as the index. Pages not
//     allocated are &emptyPage, never nil.
//   - pre.n <= len(dense), and dense[i] == EntityID(pre.gen+i) for every
//     i < pre.n: the storage's first pre.n components belong to the
//     entities with indices 0..pre.n-1, in order, all of one generation
//     (see pre). A storage with a prefix tracks nothing and is in no
//     group.
//   - removal swap-removes: the last element moves into the hole, and its
//     sparse entry is updated in the same step.
//
// A sparseSet is only touched under its borrow state (see borrow.go).
//
// The lookups below (pos, get, has, entry) sit on every per-entity path,
// and are kept small.
type sparseSet[T any] struct {
	sparseIndex // pages and dense
	data        []T

	// track is the tracking state (tracking.go), nil when the type tracks
	// nothing: untracked storages pay one nil test per insertion or
	// removal, and nothing per lookup or iteration. It and group sit
	// next to the slices, in the cache line every insertion and removal
	// reads.
	track *tracker[T]
	// pack is the pack (the storage side of a packed owning group:
	// pack.go) this storage is a member of, or nil.
	pack   *pack
	member int // which of pack.members this storage is
	// ptrs reports whether T holds pointers: only then do removals zero
	// the slots they free (dropLast, cutTo).
	ptrs bool
	// or is set in an [Or2] term's table only: what marking an entry of
	// the table marks in the term's views (join_terms_or.go).
	or *orMarks
	// spare stands for the sparse entry of the identity prefix's last
	// component while it is removed (see entry).
	spare uint64

	typ  reflect.Type
	name string
	lock borrowState
	// tracked is track.kinds (0 without track), for TrackingOf, which
	// reads it without borrowing the storage.
	tracked atomic.Uint32
	// reqBy is the types that require T (Require), nil if none: the
	// removals of T check them (requirements.go).
	reqBy *requiredBy
	// iso is set in an isotope storage (isotope.go) only: its key and
	// discriminant.
	iso *isoTag
}

// sparseIndex is the part of a storage that does not depend on its
// component type: which entities have a component, and at which dense
// position. Code that works on storages of any type (groups) reads it
// with no call through an interface.
type sparseIndex struct {
	pages []*sparsePage
	dense []EntityID
	// readers counts the Views of a group member held by frames that
	// also hold a ViewMut of another member (see groupBorrows): while it
	// is above zero, the other members' additions and removals, which
	// would move this storage's components, are refused (group.reader).
	readers int
	// walked counts the Each1 … Each8 calls through an
	// AllStoragesViewMut that walk this storage, or a member of its
	// group, now: while it is above zero, World-level changes that would
	// add or remove its components are refused (see each.go).
	walked int
	// pre is the identity prefix: the first pre.n components, which
	// belong to the entities with indices 0..pre.n-1 in order, all of
	// the generation pre.gen. Their sparse entries are not written (they
	// stay zero, and their pages may not even be allocated): where a
	// component of the prefix is follows from its id, pre.at(id), which
	// is below pre.n exactly for the prefix's ids. So creating entities
	// in order with their components, in a new world or in one whose
	// entities were all deleted (a level loaded, a wave spawned), writes
	// two arrays per component instead of three. A lookup through the prefix costs a subtraction and one
	// load, as indexing a plain slice does. An append extends the prefix
	// when it continues it; whatever moves a component of the prefix,
	// removes it (but the last), or puts another entity's component on
	// an index the prefix holds cuts the prefix there (cutIdent), writing
	// the entries of the components it leaves: each component's entry is
	// written at most once for the appends that skipped it. Unlike the
	// sparse entries, nothing checks a lookup through the prefix: the
	// invariant must hold exactly (layoutError tests it). Tracked storages
	// and group members keep no prefix: their bookkeeping works on the
	// entries.
	pre identity
	// lead is the storage whose order this one was last sorted in (see
	// align.go), nil if none; written while the world holds every
	// storage, and cleared by a sort through a ViewMut (see ordered),
	// which holds this storage exclusively: it is read only by joins
	// holding the storage and by re-alignment. leadSeen is the world's
	// re-alignment round in which a join driven by lead last ran over
	// this storage.
	lead     *sparseIndex
	leadSeen atomic.Uint64
	// ordered: the storage's order was set by ViewMut.SortFunc or
	// SortByKey (sparse_set_sort.go), which also cleared lead: automatic
	// re-alignment leaves it in that order, as it leaves a pack member,
	// until SortAs sorts it. Written while the storage is held
	// exclusively (the sort) or the world holds every storage (SortAs);
	// read by re-alignment, which holds every storage.
	ordered bool
	// leadUses counts the passes of joins driven by lead over this
	// storage; the world re-aligns it ahead of a join only if the join
	// ran since the last re-alignment (see alignPair).
	leadUses atomic.Uint64
	// changes counts the components added and removed; drift counts
	// those of them at a position below sorted, the stretch of this
	// storage that its last re-alignment put in lead's order. They only
	// measure how far the storage may have moved from an order (see
	// alignPair): nothing relies on them being exact.
	changes, drift uint64
	sorted         int
}

// edited records a component added or removed at position i (the hole a
// removal leaves, where the last component moves).
func (s *sparseIndex) edited(i int) {
	s.changes++
	if i < s.sorted {
		s.drift++
	}
}

// editedMany records k components added from position i on.
func (s *sparseIndex) editedMany(i, k int) {
	s.changes += uint64(k)
	if i < s.sorted {
		s.drift += uint64(min(k, s.sorted-i))
	}
}

// typeFree returns the storage's sparseIndex.
func (s *sparseSet[T]) typeFree() *sparseIndex { return &s.sparseIndex }

// identity is a storage's identity prefix (see sparseSet.pre).
type identity struct {
	n   uint64 // its length
	gen uint64 // its entities' generation, in the high 32 bits, as in an EntityID
}

// at returns id's position if id's component is in the prefix, and
// otherwise a value pre.n or more: id less the generation bits is id's
// index when id has the prefix's generation, and has high bits set (or
// wraps around) when not.
func (p *identity) at(id EntityID) uint64 { return uint64(id) - p.gen }

func newSparseSet[T any]() *sparseSet[T] {
	t := reflect.TypeFor[T]()
	return &sparseSet[T]{typ: t, name: typeName(t), ptrs: hasPointers(t)}
}

// entry returns a pointer to id's sparse entry if id has a component here,
// or nil. A component of the identity prefix has no entry: entry first
// cuts the prefix there, so it is for callers that go on to move or
// remove the component. For the last component, when the prefix holds it,
// it only shortens the prefix and returns spare, set to the entry the
// component would have: removing it moves nothing, and its entry would
// only be written to be zeroed.
func (s *sparseSet[T]) entry(id EntityID) *uint64 {
	if x := s.pre.at(id); x < s.pre.n {
		if x+1 == uint64(len(s.dense)) {
			s.pre.n = x
			s.spare = sparseEntry(id, int(x))
			return &s.spare
		}
		s.cutIdent(int(x))
	}
	return entryIn(s.pages, id)
}

// entryIn is entry's lookup in the sparse pages: id's entry if it maps id,
// or nil. It finds no component of the identity prefix; deleteID calls it
// directly, inlined, in a storage with no prefix.
func entryIn(pages []*sparsePage, id EntityID) *uint64 {
	if p := uint(uint32(id) >> pageShift); p < uint(len(pages)) {
		if e := &pages[p][id&pageMask]; (*e^uint64(id)&genMask)-1 < math.MaxUint32 {
			return e
		}
	}
	return nil
}

// pos returns the dense position of id's component, or -1.
func (s *sparseIndex) pos(id EntityID) int {
	if x := uint64(id) - s.pre.gen; x < s.pre.n {
		return int(x)
	}
	return posIn(s.pages, id)
}

// get returns a pointer to id's component, or nil.
func (s *sparseSet[T]) get(id EntityID) *T {
	x := uint64(id) - s.pre.gen
	if x >= s.pre.n {
		x = slotIn(s.pages, uint64(id))
	}
	if x < uint64(len(s.data)) {
		return &s.data[x]
	}
	return nil
}

// posIn is pos on the sparse pages, for loops that keep them in locals: it
// finds no component of the identity prefix, so a caller looks there first
// (pos, seek, or a group member, which keeps no prefix).
func posIn(pages []*sparsePage, id EntityID) int {
	if p := uint(uint32(id) >> pageShift); p < uint(len(pages)) {
		if x := (pages[p][id&pageMask] ^ uint64(id)&genMask) - 1; x < math.MaxUint32 {
			return int(x)
		}
	}
	return -1
}

// slot is pos for callers that bound the position by the length of the
// storage, as indexing does anyway: it returns the dense position of id's
// component, or a value no storage reaches (1<<32 - 1 or more) when there
// is none. The caller's one comparison with the length is then both the
// lookup's test and the bounds check. It is the lookup of the per-entity
// accessors (View.Get and View.MustGet make it on the view's copies of the
// layout: viewCore.slot).
//
//   - An id of the identity prefix is at position pre.at(id) (see pre).
//   - Otherwise the sparse entry tells (slotIn).
func (s *sparseSet[T]) slot(id EntityID) uint64 {
	x := uint64(id) - s.pre.gen // pre.at(id), spelled out
	if x >= s.pre.n {
		x = slotIn(s.pages, uint64(id))
	}
	return x
}

// slotIn is slot's lookup in the sparse pages, for the id whose bits are
// x. An entry that does not match the id keeps a difference in the
// generation bits, and an empty one wraps around, so both give a huge
// position, as does an index past the page table.
func slotIn(pages []*sparsePage, x uint64) uint64 {
	if p := int(uint32(x) >> pageShift); p < len(pages) {
		return (pages[p][x&pageMask] ^ x&genMask) - 1
	}
	return math.MaxUint64
}

// seek is a join's look-up of id, the driving storage's entity at i,
// once its guess missed: in the identity prefix (no memory read), at i
// (where storages aligned from the start hold it), then in the sparse
// pages.
func (s *sparseIndex) seek(id EntityID, i int) int {
	if x := uint64(id) - s.pre.gen; x < s.pre.n {
		return int(x)
	}
	if i < len(s.dense) && s.dense[i] == id {
		return i
	}
	return posIn(s.pages, id)
}

// has reports whether id has a component in this storage.
func (s *sparseSet[T]) has(id EntityID) bool { return s.pos(id) >= 0 }

// entryFor returns a pointer to id's sparse entry, or nil if its page is
// not allocated yet (see newEntry).
func (s *sparseSet[T]) entryFor(id EntityID) *uint64 {
	if page := s.allocated(uint32(id) >> pageShift); page != nil {
		return &page[id&pageMask]
	}
	return nil
}

// newEntry allocates the page holding id's sparse entry (and grows the
// page table to reach it) and returns a pointer to the entry.
func (s *sparseSet[T]) newEntry(id EntityID) *uint64 {
	return &s.page(uint32(id) >> pageShift)[id&pageMask]
}

// allocated returns page p if it is allocated, or nil: the inline half of
// page, for loops that change pages often.
func (s *sparseSet[T]) allocated(p uint32) *sparsePage {
	if p < uint32(len(s.pages)) && s.pages[p] != &emptyPage {
		return s.pages[p]
	}
	return nil
}

// page returns page p, allocating it (and growing the page table to reach
// it) if needed. It is kept out of line: it runs once per page.
//
//go:noinline
func (s *sparseSet[T]) page(p uint32) *sparsePage {
	if n := int(p) + 1 - len(s.pages); n > 0 {
		s.pages = slices.Grow(s.pages, n)
		for range n {
			s.pages = append(s.pages, &emptyPage)
		}
	}
	page := s.pages[p]
	if page == &emptyPage {
		page = s.newPage()
		s.pages[p] = page
	}
	return page
}

// insert gives id the component v.
func (s *sparseSet[T]) insert(id EntityID, v T) insertOutcome {
	if s.appendsIdent(id) {
		s.putIdent(id, v)
		return inserted
	}
	if e := s.freeEntry(id); e != nil {
		s.putNew(e, id, v)
		if s.pack != nil && !s.joinNew(id) { // no call outside a group
			return blocked
		}
		return inserted
	}
	return s.insertSlow(id, v)
}

// The common cases of an insertion take inlined steps, which
// AddComponent, AddComponentUnchecked and insert spell out so that they
// make no call outside a group: appendsIdent tells whether the component
// continues the identity prefix, and putIdent appends it; otherwise
// freeEntry tells whether the case out of the prefix holds and finds the
// entry, putNew appends, joinNew lets the entity join the storage's group,
// if any. Each stays under the inlining budget; together they would not.

// appendsIdent reports whether an insertion of id's component is the
// common case of continuing the identity prefix: the prefix holds every
// component, id is the next position's entity in the prefix's
// generation (or any generation's entity with index 0, in an empty
// storage not in a group), the dense arrays have room, and the storage
// tracks nothing. A group member never passes otherwise: its prefix
// generation is noGen.
func (s *sparseSet[T]) appendsIdent(id EntityID) bool {
	n := uint64(len(s.dense))
	return (uint64(id)-s.pre.gen == n || n == 0 && uint32(id) == 0 && s.pack == nil) &&
		s.pre.n == n && n < uint64(cap(s.dense)) && n < uint64(cap(s.data)) && s.track == nil
}

// putIdent appends id's component v when appendsIdent says so: no sparse
// entry.
func (s *sparseSet[T]) putIdent(id EntityID, v T) {
	n := len(s.dense)
	s.edited(n)
	s.dense = s.dense[:n+1]
	s.dense[n] = id
	s.data = s.data[:n+1]
	s.data[n] = v
	s.pre.n++
	s.pre.gen = uint64(id) & genMask
}

// freeEntry returns id's sparse entry when an insertion of id's component
// is the common case out of the identity prefix: id's page is allocated
// and its entry empty, id's index is not one the prefix holds, the dense
// arrays have room, and the storage tracks nothing. Otherwise it returns
// nil, and insertSlow does the work. It does not refuse the index of
// NullID: callers that may get it test it. An unallocated page is
// emptyPage, whose entries are not zero, so it needs no test of its own.
func (s *sparseSet[T]) freeEntry(id EntityID) *uint64 {
	i := uint64(uint32(id))
	if n := len(s.dense); i>>pageShift < uint64(len(s.pages)) && n < cap(s.dense) && n < cap(s.data) && s.track == nil && i >= s.pre.n {
		if e := &s.pages[i>>pageShift][i&pageMask]; *e == 0 {
			return e
		}
	}
	return nil
}

// putNew appends id's component v in the common case, e being the entry
// freeEntry returned.
func (s *sparseSet[T]) putNew(e *uint64, id EntityID, v T) {
	n := len(s.dense)
	s.edited(n)
	*e = sparseEntry(id, n)
	s.dense = s.dense[:n+1]
	s.dense[n] = id
	s.data = s.data[:n+1]
	s.data[n] = v
}

// joinNew lets id, whose component putNew has just appended, join the
// storage's group, if it is in one and id now has every member type. It
// reports false when the group refuses the insertion (groupRefuses: a
// component appended by putNew is never a replacement), having undone it:
// the storage is as it was before the call.
func (s *sparseSet[T]) joinNew(id EntityID) bool {
	if g := s.pack; g != nil {
		if g.reader(s.member) >= 0 {
			*entryIn(s.pages, id) = 0
			s.dropLast(len(s.dense) - 1)
			return false
		}
		if len(g.members) == 2 { // joined for the usual group, spelled out: no call
			o := 1 - s.member
			if p := posIn(g.index[o].pages, id); p >= 0 {
				n := g.n
				if p != n {
					g.swap(o, p, n)
				}
				g.n = n + 1
				if last := len(s.dense) - 1; last != n { // no call when already there
					s.swapPos(last, n)
				}
			}
		} else if n, ok := g.joined(s.member, id); ok { // join, spelled out: no call
			if last := len(s.dense) - 1; last != n {
				s.swapPos(last, n)
			}
		}
	}
	return true
}

// join lets id, whose component was just appended, join g, the storage's
// group, if id now has every member type.
func (s *sparseSet[T]) join(g *pack, id EntityID) {
	if n, ok := g.joined(s.member, id); ok {
		s.swapPos(len(s.dense)-1, n) // no-op when already there
	}
}

// groupRefuses reports whether the storage's group refuses an insertion
// of id's component now: a View of the frame holding the storage reads
// another member (group.reader), and the insertion would add a component,
// which could move that member's components under the View (group.joined),
// rather than replace id's component or be refused for an old id. Call it
// only for a storage in a group.
func (s *sparseSet[T]) groupRefuses(id EntityID) bool {
	if s.pack.reader(s.member) < 0 {
		return false
	}
	e := s.entryFor(id) // a member has no identity prefix: the entry tells
	return e == nil || *e == 0 || entryGen(*e) < id.Generation()
}

// movesError returns the error of the call op of a ViewMut of the
// storage ("AddComponent"), doing ("adding") what its group refuses:
// see group.moveError. Out of line, as notAlive.
//
//go:noinline
func (s *sparseSet[T]) movesError(op, doing string) *GroupError {
	g := s.pack
	return g.moveError(s.member, g.reader(s.member), op, doing)
}

// insertSlow is insert in the cases freeEntry leaves: a page to allocate,
// an entry in use (insertOver), or an append that grows the arrays,
// records the insertion or joins the group (appendAny). An insertion the
// group refuses (groupRefuses) changes nothing.
func (s *sparseSet[T]) insertSlow(id EntityID, v T) insertOutcome {
	if s.pack != nil && s.groupRefuses(id) {
		return blocked
	}
	if x := s.pre.at(id); x < s.pre.n { // id's component, in the prefix
		s.data[x] = v // no tracking: the storage has a prefix
		return replaced
	}
	if i := uint64(uint32(id)); i < s.pre.n {
		// The prefix holds id's index, for an entity of another
		// generation: refuse an older id; for a newer one, cut the prefix
		// there, and insertOver takes the dead entity's slot over.
		if uint64(id)&genMask < s.pre.gen {
			return refused
		}
		s.cutIdent(int(i))
	}
	if s.continuesIdent(id) {
		s.appendIdent(id, v)
		return inserted
	}
	e := s.entryFor(id)
	if e == nil {
		e = s.newEntry(id)
	} else if *e != 0 {
		return s.insertOver(e, id, v)
	}
	s.appendAny(e, id, v)
	return inserted
}

// appendAny appends id's component, whose sparse entry e is empty, in any
// case: growing the dense arrays, recording the insertion, and joining the
// group.
func (s *sparseSet[T]) appendAny(e *uint64, id EntityID, v T) {
	s.edited(len(s.dense))
	*e = sparseEntry(id, len(s.dense))
	if len(s.dense) == cap(s.dense) || len(s.data) == cap(s.data) { // here, not only in reserve: no call when there is room
		s.reserve(1)
	}
	s.dense = append(s.dense, id)
	s.data = append(s.data, v)
	if s.track != nil {
		s.track.appended()
	}
	if g := s.pack; g != nil {
		s.join(g, id) // insertSlow asked groupRefuses first
	}
	if s.track != nil && s.track.hooks != nil {
		s.hook(hookInsert, id, nil)
	}
}

// continuesIdent reports whether an append of id's component would
// continue the identity prefix: the prefix holds every component, id's
// index is the next position, and id has the prefix's generation (any
// generation, when the storage is empty: the prefix starts anew).
func (s *sparseSet[T]) continuesIdent(id EntityID) bool {
	n := uint64(len(s.dense))
	return s.pre.n == n && uint64(uint32(id)) == n && (n == 0 || uint64(id)&genMask == s.pre.gen) &&
		s.track == nil && s.pack == nil && id.Index() <= maxIndex
}

// appendIdent appends id's component, which continues the identity
// prefix (continuesIdent), without a sparse entry.
func (s *sparseSet[T]) appendIdent(id EntityID, v T) {
	s.edited(len(s.dense))
	s.reserve(1)
	s.dense = append(s.dense, id)
	s.data = append(s.data, v)
	s.pre.n++
	s.pre.gen = uint64(id) & genMask
}

// cutIdent ends the identity prefix at position i, if it reached past it,
// and writes the sparse entries of the components it leaves (whose pages
// may not be allocated yet). Whatever moves or removes a component of the
// prefix, or puts another component on an index it holds, calls it first.
func (s *sparseSet[T]) cutIdent(i int) {
	if uint64(i) < s.pre.n { // inlined: most callers find no prefix there
		s.cutIdentAt(i)
	}
}

// cutIdentAt is cutIdent's work, when the prefix reaches past i.
func (s *sparseSet[T]) cutIdentAt(i int) {
	end := int(s.pre.n)
	s.pre.n = uint64(i)
	gen := s.pre.gen
	var page *sparsePage
	cur := ^uint32(0) // the page index of page
	for j := i; j < end; j++ {
		// dense[j] is the entity with index j and generation gen.
		if p := uint32(j) >> pageShift; p != cur {
			page, cur = s.page(p), p
		}
		page[j&pageMask] = gen | uint64(j+1)
	}
}

// continueIdent extends the identity prefix over ids and reports true if
// appending their components in order continues it (continuesIdent for
// each in turn: consecutive indices from the next position on, of one
// generation); otherwise it changes nothing. A caller told true appends
// the components with no sparse entries.
func (s *sparseSet[T]) continueIdent(ids []EntityID) bool {
	if len(ids) == 0 || !s.continuesIdent(ids[0]) {
		return false
	}
	for k, id := range ids {
		if id != ids[0]+EntityID(k) {
			return false
		}
	}
	s.pre.n += uint64(len(ids))
	s.pre.gen = uint64(ids[0]) & genMask
	return true
}

// cutIdentFor cuts the identity prefix where a loop over ids that looks
// them up in the sparse pages would meet it: at the lowest index of ids,
// if that is in the prefix. Indices below stay the prefix's: no id of ids
// has them.
func (s *sparseSet[T]) cutIdentFor(ids []EntityID) {
	if s.pre.n == 0 {
		return
	}
	low := s.pre.n
	for _, id := range ids {
		low = min(low, uint64(uint32(id)))
	}
	s.cutIdent(int(low))
}

// noIdent ends the identity prefix, writing its entries, for good: it
// sets the prefix's generation to noGen, which no id continues
// (appendsIdent). A storage joining a group calls it.
func (s *sparseSet[T]) noIdent() {
	s.cutIdent(0)
	s.pre.gen = noGen
}

// dropIdent ends the identity prefix at position n, if it reached past
// it, when the components from n on are about to be dropped: they need no
// entries.
func (s *sparseSet[T]) dropIdent(n int) {
	if uint64(n) < s.pre.n {
		s.pre.n = uint64(n)
	}
}

// insertOver handles an insertion into a non-zero sparse entry e: the same
// entity (replace), a newer one (refuse), or a dead entity's leftover (take
// over its slot).
func (s *sparseSet[T]) insertOver(e *uint64, id EntityID, v T) insertOutcome {
	gen := entryGen(*e)
	i := int(uint32(*e)) - 1
	switch {
	case gen == id.Generation():
		if s.track != nil {
			s.replaceTracked(i, id, v)
			return replaced
		}
		s.data[i] = v
		return replaced
	case gen > id.Generation():
		return refused
	default: // a dead entity's leftover: the slot now belongs to id
		if s.pack != nil {
			// The leftover may be in the group's packed range: delete it
			// the ordinary way, and insert id anew.
			s.deleteID(s.dense[i])
			return s.insert(id, v)
		}
		if s.track != nil {
			s.takeOverTracked(e, i, id, v)
			return inserted
		}
		s.cutIdent(i) // id is of a later generation than the leftover
		s.edited(i)
		s.dense[i] = id
		s.data[i] = v
		*e = sparseEntry(id, i)
		return inserted
	}
}

// takeOverTracked is insertOver's take-over of a dead entity's leftover
// at i, whose sparse entry is e, for a storage with a tracker: it logs the
// leftover's deletion and id's insertion, and tells the hooks of both.
//
//go:noinline
func (s *sparseSet[T]) takeOverTracked(e *uint64, i int, id EntityID, v T) {
	old, oldV := s.dense[i], s.data[i]
	s.track.tookOver(old, &s.data[i], i)
	s.cutIdent(i) // id is of a later generation than the leftover
	s.edited(i)
	s.dense[i] = id
	s.data[i] = v
	*e = sparseEntry(id, i)
	if s.track.hooks != nil {
		s.hook(hookDelete, old, &oldV)
		s.hook(hookInsert, id, nil)
	}
}

// replaceTracked is insertOver's replacement of the component at i for a
// storage with a tracker: it records the modification, and tells the
// hooks with the old value.
//
//go:noinline
func (s *sparseSet[T]) replaceTracked(i int, id EntityID, v T) {
	if s.track.hooks == nil {
		s.data[i] = v
		s.track.replaced(i)
		return
	}
	old := s.data[i]
	s.data[i] = v
	s.track.replaced(i)
	s.hook(hookReplace, id, &old)
}

// remove takes id's component out and returns it. Its body is deleteID's,
// repeated to save a call on this per-entity path.
func (s *sparseSet[T]) remove(id EntityID) (v T, ok bool) {
	e := s.entry(id)
	if e == nil {
		return v, false
	}
	i := int(uint32(*e)) - 1
	if g := s.pack; g != nil && i < g.n {
		if g.reader(s.member) >= 0 {
			panic(s.movesError("Remove", "removing"))
		}
		if s.track == nil {
			v = s.data[i]
			s.deletePacked(e, i)
			return v, true
		}
		g.leave(i)
		i = g.n // leave moved the component to the group's old end
	}
	*e = 0
	v = s.data[i]
	last := len(s.dense) - 1
	s.edited(i)
	if s.track != nil {
		s.track.removed(id, i, last)
	}
	if i != last {
		s.cutIdent(i)
		s.move(last, i)
	}
	s.dropLast(last)
	if s.track != nil && s.track.hooks != nil {
		s.hook(hookRemove, id, &v)
	}
	return v, true
}

// deleteID removes id's component and reports whether there was one.
// Removal swap-removes: the last element moves into the hole, and its
// sparse entry follows it.
func (s *sparseSet[T]) deleteID(id EntityID) bool {
	var e *uint64
	if s.pre.n == 0 { // no prefix to cut (a group member never has one): no call
		e = entryIn(s.pages, id)
	} else {
		e = s.entry(id)
	}
	if e == nil {
		return false
	}
	i := int(uint32(*e)) - 1
	if g := s.pack; g != nil && i < g.n {
		if g.reader(s.member) >= 0 {
			panic(s.movesError("Delete", "removing"))
		}
		if s.track == nil {
			s.deletePacked(e, i)
			return true
		}
		g.leave(i)
		i = g.n // leave moved the component to the group's old end
	}
	*e = 0
	last := len(s.dense) - 1
	s.edited(i)
	if s.track != nil {
		s.deleteTracked(id, i, last)
		return true
	}
	if i != last {
		s.cutIdent(i)
		s.move(last, i)
	}
	s.dropLast(last)
	return true
}

// deleteTracked is the end of deleteID for a storage with a tracker: it
// logs the deletion, swap-removes, and tells the hooks with the value.
//
//go:noinline
func (s *sparseSet[T]) deleteTracked(id EntityID, i, last int) {
	s.track.deleted(id, &s.data[i], i, last)
	var v T
	hooked := s.track.hooks != nil
	if hooked {
		v = s.data[i]
	}
	if i != last {
		s.cutIdent(i)
		s.move(last, i)
	}
	s.dropLast(last)
	if hooked {
		s.hook(hookDelete, id, &v)
	}
}

// deletePacked deletes the component at position i of an untracked
// member, whose sparse entry is e, when its entity is in the group's
// packed range (i below n). It does leave and the swap-remove in one: the
// other members swap the entity to the group's new end, as in leave, but
// here the component at that end fills the hole directly and the last
// component fills its place, so the leaving component is never moved.
func (s *sparseSet[T]) deletePacked(e *uint64, i int) {
	s.edited(i)
	g := s.pack
	g.n--
	n := g.n
	if i != n {
		if len(g.members) == 2 { // the usual group, without the loop
			g.swap(1-s.member, i, n)
		} else {
			for k := range g.members {
				if k != s.member {
					g.swap(k, i, n)
				}
			}
		}
		s.move(n, i)
	}
	*e = 0
	last := len(s.dense) - 1
	if n != last {
		s.move(last, n)
	}
	s.dropLast(last)
}

// move moves the component at position from, with its entity, to
// position to, overwriting what was there, and points the entity's sparse
// entry at it. The caller cuts the identity prefix at to first, if it may
// reach there (a group member keeps none): so move is small enough to
// inline, and a removal makes no call to fill its hole.
func (s *sparseSet[T]) move(from, to int) {
	moved := s.dense[from]
	s.dense[to] = moved
	s.data[to] = s.data[from]
	s.pages[moved.Index()>>pageShift][moved.Index()&pageMask] = sparseEntry(moved, to)
}

// dropLast cuts the storage to its first last components, after a
// removal has moved the one at position last, if any, elsewhere. Only a
// type holding pointers has the freed slot zeroed, so that the garbage
// collector can have what it referenced; for other types the write would
// only dirty a cache line.
func (s *sparseSet[T]) dropLast(last int) {
	if s.ptrs {
		var zero T
		s.data[last] = zero
	}
	s.dropIdent(last)
	s.dense, s.data = s.dense[:last], s.data[:last]
}

// cutTo is dropLast for any number of components: it keeps the first n.
func (s *sparseSet[T]) cutTo(n int) {
	s.editedMany(n, len(s.dense)-n)
	if s.ptrs {
		clear(s.data[n:])
	}
	s.dropIdent(n)
	s.dense, s.data = s.dense[:n], s.data[:n]
}

// clear removes every component.
func (s *sparseSet[T]) clear() {
	if s.track != nil {
		s.track.cleared(s.dense, s.data)
		if s.track.hooks != nil && len(s.dense) != 0 {
			ids, vals := slices.Clone(s.dense), slices.Clone(s.data)
			defer s.hookAll(hookDelete, ids, vals)
		}
	}
	if s.pack != nil {
		s.pack.n = 0 // no entity has every member type any more
	}
	for _, id := range s.dense[s.pre.n:] {
		s.pages[id.Index()>>pageShift][id.Index()&pageMask] = 0
	}
	s.cutTo(0)
}

// The methods below make *sparseSet[T] a storage (storage.go).

func (s *sparseSet[T]) typeName() string     { return s.name }
func (s *sparseSet[T]) borrow() *borrowState { return &s.lock }
func (s *sparseSet[T]) length() int          { return len(s.dense) }
func (s *sparseSet[T]) ids() []EntityID      { return s.dense }
func (s *sparseSet[T]) orTable() *orMarks    { return s.or }

// bulkInsert gives ids[i] the component vals[i], growing the storage once.
// It has the outcome of calling insert for each id in turn. Ids in the same
// page as the previous one (the usual case: new entities come in runs of
// indices) reuse its page, and new components are written in place in the
// grown arrays, which are cut to length at the end.
func (s *sparseSet[T]) bulkInsert(ids []EntityID, vals []T) {
	vals = vals[:len(ids)]
	if s.track != nil || s.pack != nil {
		for k, id := range ids {
			s.insert(id, vals[k])
		}
		return
	}
	s.reserve(len(ids))
	n := len(s.dense)
	s.editedMany(n, len(ids)) // at most: replacements move nothing
	if s.continueIdent(ids) {
		s.dense, s.data = append(s.dense, ids...), append(s.data, vals...)
		return
	}
	s.cutIdentFor(ids) // the loop below looks the ids up in the pages
	dense, data := s.dense[:n+len(ids)], s.data[:n+len(ids)]
	var page *sparsePage
	cur := ^uint32(0) // the page index of page
	for k, id := range ids {
		if p := uint32(id) >> pageShift; p != cur {
			if page, cur = s.allocated(p), p; page == nil {
				page = s.page(p)
			}
		}
		e := &page[id&pageMask]
		if *e != 0 {
			s.dense, s.data = dense[:n], data[:n]
			s.insertOver(e, id, vals[k])
			continue
		}
		*e = sparseEntry(id, n)
		dense[n] = id
		data[n] = vals[k]
		n++
	}
	s.dense, s.data = dense[:n], data[:n]
}

// hasPointers reports whether values of type t hold pointers the garbage
// collector follows, so that a slice of them must be cleared where it is
// cut, not just shortened. Storages compute it once, when created.
func hasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return false
	case reflect.Array:
		return t.Len() > 0 && hasPointers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if hasPointers(t.Field(i).Type) {
				return true
			}
		}
		return false
	default: // pointers, strings, slices, maps, channels, functions, interfaces
		return true
	}
}

// newPage allocates a sparse page, every entry empty (zero).
func (s *sparseSet[T]) newPage() *sparsePage { return new(sparsePage) }

// reserve makes room for n more components, growing dense and data
// together, as append does, so that they keep the same capacity.
func (s *sparseSet[T]) reserve(n int) {
	if cap(s.dense)-len(s.dense) >= n && cap(s.data)-len(s.data) >= n {
		return
	}
	s.dense = slices.Grow(s.dense, n)
	s.data = slices.Grow(s.data, cap(s.dense)-len(s.data))
}

// fitDense moves dense and data to arrays of exactly their length (none
// when empty), so that the spare capacity can be garbage collected.
func (s *sparseSet[T]) fitDense() {
	s.dense = fit(s.dense)
	s.data = fit(s.data)
}

// allocatedBytes returns the bytes of s's array, its elements being size
// bytes each.
func allocatedBytes[E any](s []E, size int) int { return cap(s) * size }

func (s *sparseSet[T]) memory() StorageMemory {
	size := int(reflect.TypeFor[T]().Size())
	idSize := int(reflect.TypeFor[EntityID]().Size())
	pages := 0
	for _, p := range s.pages {
		if p != &emptyPage {
			pages++
		}
	}
	trackUsed, trackAllocated := s.track.memory()
	m := StorageMemory{
		Type:           s.name,
		Components:     len(s.dense),
		Pages:          pages,
		DataBytes:      len(s.data) * size,
		IDBytes:        len(s.dense) * idSize,
		PageBytes:      pages * pageBytes,
		TrackingBytes:  trackUsed,
		AllocatedBytes: allocatedBytes(s.dense, idSize) + allocatedBytes(s.data, size) + pages*pageBytes + cap(s.pages)*wordBytes + trackAllocated,
	}
	m.UsedBytes = m.DataBytes + m.IDBytes + m.PageBytes + m.TrackingBytes
	return m
}

func (s *sparseSet[T]) shrink() {
	used := make([]bool, len(s.pages))
	for _, id := range s.dense[s.pre.n:] { // the prefix's entities have no entries
		used[id.Index()>>pageShift] = true
	}
	last := -1
	for i := range s.pages {
		if !used[i] {
			s.pages[i] = &emptyPage
		} else {
			last = i
		}
	}
	s.pages = fit(s.pages[:last+1])
	s.fitDense()
	s.track.shrink()
}

// fit returns s in an array of exactly its length, so that the old array's
// spare capacity can be garbage collected.
func fit[S ~[]E, E any](s S) S {
	if cap(s) == len(s) {
		return s
	}
	if len(s) == 0 {
		return nil
	}
	return append(S(make([]E, 0, len(s))), s...)
}

// The faces a storage shows the layers above: alignable (align.go),
// packMember (pack.go) and groupMember (group.go).

func (s *sparseSet[T]) position(id EntityID) int { return s.pos(id) }
func (s *sparseSet[T]) inPack() bool             { return s.pack != nil }
func (s *sparseSet[T]) packOf() *pack            { return s.pack }
func (s *sparseSet[T]) setPack(p *pack, k int)   { s.pack, s.member = p, k }
func (s *sparseSet[T]) borrowLock() *borrowState { return &s.lock }
func (s *sparseSet[T]) accessKey() resKey {
	if s.iso != nil {
		return s.iso.key
	}
	return resKey{t: keyOf(s.typ)}
}

// swapPos swaps the components at positions i and j, with their entities,
// sparse entries and tracking timestamps.
func (s *sparseSet[T]) swapPos(i, j int) {
	if i == j {
		return
	}
	s.cutIdent(min(i, j))
	a, b := s.dense[i], s.dense[j]
	s.dense[i], s.dense[j] = b, a
	s.data[i], s.data[j] = s.data[j], s.data[i]
	s.pages[a.Index()>>pageShift][a.Index()&pageMask] = sparseEntry(a, j)
	s.pages[b.Index()>>pageShift][b.Index()&pageMask] = sparseEntry(b, i)
	if t := s.track; t != nil {
		if t.kinds&TrackInsertion != 0 {
			x := t.insertedAt
			x[i], x[j] = x[j], x[i]
		}
		if t.kinds&TrackModification != 0 {
			x := t.modifiedAt
			xi, xj := x[i], x[j]
			t.setModified(i, xj)
			t.setModified(j, xi)
		}
	}
}

// notAlive is AddComponent's error, built out of line so that its string
// concatenation does not weigh on the common path.
//
//go:noinline
func (s *sparseSet[T]) notAlive(id EntityID) error {
	return &EntityError{Op: "ViewMut[" + s.name + "].AddComponent", ID: id}
}

// refusedUnchecked is AddComponentUnchecked's error, built out of line as
// notAlive is.
//
//go:noinline
func (s *sparseSet[T]) refusedUnchecked(id EntityID) error {
	return &EntityError{Op: "ViewMut[" + s.name + "].AddComponentUnchecked", ID: id}
}

// enableTracking makes s track kinds too, from now on.
func (s *sparseSet[T]) enableTracking(kinds Tracking, clk *clock) {
	if kinds == 0 {
		return
	}
	s.cutIdent(0) // a tracked storage keeps no identity prefix
	now := clk.tick.Load()
	t := s.track
	if t == nil {
		t = &tracker[T]{stamps: stamps{clk: clk, insClear: now, modClear: now}}
	}
	add := kinds &^ t.kinds
	if add&TrackInsertion != 0 {
		t.insertedAt = filled(len(s.dense), cap(s.dense), now-ancient)
	}
	if add&TrackModification != 0 {
		t.modifiedAt = filled(len(s.dense), cap(s.dense), now-ancient)
		t.modBlock = filled(blocks(len(s.dense)), blocks(cap(s.dense)), summaryOf(now-ancient))
	}
	t.kinds |= kinds
	s.track = t
	s.tracked.Store(uint32(t.kinds))
}

// clearTracking clears, of the kinds in kinds that s tracks, the
// insertion and modification windows seen outside workloads (as
// [ViewMut.ClearAllInserted] does) and the deletion and removal logs: the
// entries made at or before ts, or all of them if all is set. A storage
// that tracks none of kinds is left as it is, its clock unread.
func (s *sparseSet[T]) clearTracking(kinds Tracking, ts uint64, all bool) {
	t := s.track
	if t == nil {
		return
	}
	kinds &= t.kinds
	if c := kinds & (TrackInsertion | TrackModification); c != 0 {
		t.clearChanges(c)
	}
	if l := kinds & (TrackDeletion | TrackRemoval); l != 0 {
		t.clearLogs(l, ts, all)
	}
}

// needs returns a *TrackingError for op unless s tracks every kind in kinds.
func (s *sparseSet[T]) needs(op string, kinds Tracking) error {
	var has Tracking
	if s.track != nil {
		has = s.track.kinds
	}
	if has&kinds != kinds {
		return &TrackingError{Op: op, Type: s.name, Missing: kinds &^ has, Has: has}
	}
	return nil
}

func (s *sparseSet[T]) pagesRef() *[]*sparsePage { return &s.pages }

func (s *sparseSet[T]) identRef() *identity { return &s.pre }

// deleteFound is deleteID for an id known to have a component here, whose
// sparse entry is at e. Storages with tracking or a group delete through
// deleteID, which keeps them in step; the others swap-remove here,
// without looking id up again.
func (s *sparseSet[T]) deleteFound(id EntityID, e *uint64) {
	if !s.bulkable() {
		s.deleteID(id)
		return
	}
	i := int(uint32(*e)) - 1
	*e = 0
	dense, data := s.dense, s.data
	last := len(dense) - 1
	s.edited(i)
	if i != last {
		moved := dense[last]
		dense[i] = moved
		data[i] = data[last]
		s.pages[moved.Index()>>pageShift][moved.Index()&pageMask] = sparseEntry(moved, i)
	}
	s.dropLast(last)
}
