package ecs

import (
	"errors"
)

// In-memory snapshots (issue 56, items 7 and 8): World.SnapshotTo copies a
// world's state into a reusable Snapshot, World.Restore puts it back, and
// World.Clone is the two into a new world. No codec is involved:
// components are copied by value, through generic code per storage
// (storageSnap, snapshot_storage.go), with no reflection per entity.

// ErrSnapshot is wrapped by the errors of [World.SnapshotTo],
// [World.Restore] and [World.Clone] for a bad argument: a nil *Snapshot, or
// a Snapshot that was never taken. They change nothing then.
var ErrSnapshot = errors.New("invalid snapshot")

// Snapshot is a copy of a world's state in memory, for rollback
// ([World.Restore]) and cloning ([World.Clone]). Take one with
// [World.SnapshotTo]. The zero Snapshot is ready for use; it holds nothing
// until taken.
//
// A Snapshot holds, for the storages it covers:
//
//   - the entities storage: every slot's generation, which entities are
//     alive, the free list in its order (so the ids that [World.AddEntity]
//     hands out next are the same after a restore), and the dead
//     entities whose components [EntitiesViewMut.DeleteUnchecked] left
//     behind;
//   - every component storage (or those listed with [SnapshotComponent]):
//     its components, copied by value, their entities and their order;
//   - every unique (or those listed with [SnapshotUnique]), copied by
//     value, and whether it is present;
//   - the tracking state: each tracked storage's insertion and
//     modification timestamps, its deletion and removal logs (deleted
//     components copied by value) and where its outside-workload windows
//     start; the world's tracking clock; and where the tracking window of
//     each system and workload condition of the world's workloads starts.
//     So after a restore, tracking answers as it did when the snapshot
//     was taken, outside workloads and inside them.
//
// It holds no configuration: the workloads themselves, the groups, what
// each storage tracks, the worker pool, the borrows held. Those stay as
// the world has them when it is restored (see [World.Restore]).
//
// Copies are shallow: a component holding a pointer, slice, map or other
// reference is copied as Go's assignment copies it, so the snapshot and
// the world share what it refers to. Rollback of such data is the game's
// (keep components plain values where it matters).
//
// Taking a snapshot into the same Snapshot again reuses its memory: a game
// that takes one per frame allocates nothing once the arrays have grown to
// the world's size. A Snapshot is not safe for use by several goroutines
// at once; a taken one may be restored any number of times.
type Snapshot struct {
	// src is the world the snapshot was taken from, nil until taken.
	src *World

	// The entities storage (see entities).
	slots    []uint32
	free     []uint32
	live     int
	unpurged []EntityID

	// The clock (clock.go): tick and marked. allNow is always 0 outside
	// an AllStoragesViewMut, which a snapshot cannot overlap.
	tick, marked uint64

	// comps holds the storages covered, in the order of the world's
	// storage table (so that taking the next snapshot of the same world
	// finds each one's copy at the same place and reuses it); keys maps
	// their types to their places in comps.
	comps []storageSnap
	keys  map[resKey]int
	// uniques and ukeys are comps and keys for the uniques.
	uniques []uniqueSnap
	ukeys   map[typeKey]int

	// windows are the tracking windows of the source world's workloads
	// (scheduler.go), with where each started.
	windows []windowAt

	// onlyComps (onlyUniques), when set, lists the only component
	// (unique) types the snapshot covers: see SnapshotComponent.
	onlyComps   []onlyStorage
	onlyUniques []onlyUnique
	restrictC   bool
	restrictU   bool

	// held lists the storages (and uniq the uniques) a snapshot or
	// restore borrows, reused from one call to the next.
	held  []storage
	uniq  []uniqueSlot
	purge []EntityID // restore's scratch: dead entities' components to delete
}

// onlyStorage returns the storage of one type listed with
// SnapshotComponent, creating it if needed; onlyUnique the slot of a
// unique listed with SnapshotUnique.
type onlyStorage struct {
	key resKey
	get func(*World) storage
}

type onlyUnique struct {
	key typeKey
	get func(*World) uniqueSlot
}

// windowAt is a workload's tracking window and where it started when the
// snapshot was taken.
type windowAt struct {
	win  *window
	last uint64
}

// storageSnap is the copy of one component storage: a *setSnap[T]
// (snapshot_storage.go). Its methods are typed code for T, reached with
// one call per storage.
type storageSnap interface {
	// key returns the key of the storage (sparseSet.accessKey).
	key() resKey
	// restoreInto puts the copy into w's storage of the type, creating
	// the storage if w has none, and returns it.
	restoreInto(w *World) storage
	// packed returns the pack the storage was a member of when copied,
	// and its length n then (nil, 0 if none).
	packed() (*pack, int)
}

// uniqueSnap is the copy of one unique: a *uniqueCopy[T].
type uniqueSnap interface {
	key() typeKey
	// slot returns w's slot of the unique type, creating it if needed.
	slot(w *World) uniqueSlot
	// restoreInto puts the copy into the slot slot(w) returned.
	restoreInto(u uniqueSlot)
}

// SnapshotComponent restricts s to the component types listed with it: once
// it has been called on a Snapshot, [World.SnapshotTo] copies only the
// storages of those types (and the entities storage, always), and
// [World.Restore] puts back only those, leaving the others as they are
// but for the components of entities that the restore leaves dead, which
// it deletes from them (as [World.DeleteEntity] would, logged as deleted
// if they track deletion). This is how a game rolls back only the
// storages its simulation owns: List each type once, before the first
// snapshot; listing a type again does nothing.
//
// A nil s is ignored.
func SnapshotComponent[T any](s *Snapshot) {
	if s == nil {
		return
	}
	s.restrictC = true
	k := resKey{t: keyFor[T]()}
	for _, o := range s.onlyComps {
		if o.key == k {
			return
		}
	}
	s.onlyComps = append(s.onlyComps, onlyStorage{key: k, get: func(w *World) storage { return storageFor[T](w) }})
}

// SnapshotUnique restricts s to the unique types listed with it, as
// [SnapshotComponent] does for components: once called on a Snapshot, it
// covers only those uniques. Uniques not listed are left as they are by
// [World.Restore].
//
// A nil s is ignored.
func SnapshotUnique[T any](s *Snapshot) {
	if s == nil {
		return
	}
	s.restrictU = true
	k := keyFor[T]()
	for _, o := range s.onlyUniques {
		if o.key == k {
			return
		}
	}
	s.onlyUniques = append(s.onlyUniques, onlyUnique{key: k, get: func(w *World) uniqueSlot { return uniqueFor[T](w) }})
}

// Taken reports whether s holds a snapshot: whether [World.SnapshotTo]
// succeeded on it at least once.
func (s *Snapshot) Taken() bool { return s != nil && s.src != nil }

// Len returns the number of live entities the snapshot holds.
func (s *Snapshot) Len() int {
	if s == nil {
		return 0
	}
	return s.live
}

var (
	snapshotRead = &borrower{kind: accWorldRead, view: "World-level read", by: "World.SnapshotTo"}
	restoreWrite = &borrower{kind: accWorldWrite, view: "World-level change", by: "World.Restore"}
)

// SnapshotTo copies w's state into s (see [Snapshot] for what it holds),
// replacing what s held. It reuses s's memory: taking a snapshot of the
// same world into the same Snapshot every frame allocates nothing once s
// has grown to the world's size.
//
// It borrows all storages, the entities storage, every storage it copies
// and every unique it copies, shared, for the duration of the call: it
// works while systems read the world, and returns a [*BorrowError] if
// anything it copies is held exclusively (a system holding a ViewMut,
// an AllStoragesViewMut, a World-level change on another goroutine). It
// returns an error wrapping [ErrNilWorld] if w is nil and one wrapping
// [ErrSnapshot] if s is nil. On error s is left as it was.
func (w *World) SnapshotTo(s *Snapshot) error {
	if w == nil {
		return &argError{op: "World.SnapshotTo", what: "the *World is nil (create worlds with ecs.NewWorld)", kind: ErrNilWorld}
	}
	if s == nil {
		return &argError{op: "World.SnapshotTo", what: "the *Snapshot is nil (a zero ecs.Snapshot is ready for use: pass its address)", kind: ErrSnapshot}
	}
	// The storages and uniques to copy. Those listed with
	// SnapshotComponent (SnapshotUnique) are created if w has none yet:
	// creating a storage borrows nothing (storageFor).
	s.held = s.held[:0]
	if s.restrictC {
		for _, o := range s.onlyComps {
			s.held = append(s.held, o.get(w))
		}
	} else {
		s.held = append(s.held, w.comps.all()...)
	}
	s.uniq = s.uniq[:0]
	if s.restrictU {
		for _, o := range s.onlyUniques {
			s.uniq = append(s.uniq, o.get(w))
		}
	} else {
		s.uniq = append(s.uniq, w.uniques.all()...)
	}
	if _, _, err := beginReads(w, s.held); err != nil {
		return err
	}
	defer endReads(w, true, s.held)
	for i, u := range s.uniq {
		if err := u.borrow().acquire(snapshotRead, false, u.typeName()); err != nil {
			for _, v := range s.uniq[:i] {
				v.borrow().release(snapshotRead, false)
			}
			return err
		}
	}
	defer func() {
		for _, u := range s.uniq {
			u.borrow().release(snapshotRead, false)
		}
	}()

	s.src = w
	e := &w.ents
	s.slots = append(s.slots[:0], e.slots...)
	s.free = append(s.free[:0], e.free...)
	s.live = e.live
	s.unpurged = append(s.unpurged[:0], e.unpurged...)
	s.tick, s.marked = w.tick.Load(), w.marked.Load()

	// Each storage's copy is at its place in the list: from one snapshot
	// of a world to the next, the same storage's (storages are only ever
	// added to a world's table, at its end), which it reuses.
	if s.keys == nil {
		s.keys = make(map[resKey]int, len(s.held))
	}
	s.comps = resize(s.comps, len(s.held))
	for i, st := range s.held {
		s.comps[i] = st.snapshotTo(s.comps[i])
		s.keys[s.comps[i].key()] = i
	}
	if len(s.keys) != len(s.comps) { // a type of an older snapshot is gone
		clear(s.keys)
		for i, c := range s.comps {
			s.keys[c.key()] = i
		}
	}
	if s.ukeys == nil {
		s.ukeys = make(map[typeKey]int, len(s.uniq))
	}
	s.uniques = resize(s.uniques, len(s.uniq))
	for i, u := range s.uniq {
		s.uniques[i] = u.snapshotTo(s.uniques[i])
		s.ukeys[s.uniques[i].key()] = i
	}
	if len(s.ukeys) != len(s.uniques) {
		clear(s.ukeys)
		for i, c := range s.uniques {
			s.ukeys[c.key()] = i
		}
	}

	// The workloads' tracking windows.
	s.windows = s.windows[:0]
	w.workMu.Lock()
	for _, p := range w.workloads {
		for _, sys := range p.systems {
			s.windows = append(s.windows, windowAt{win: sys.win, last: sys.win.last.Load()})
		}
		for _, c := range p.wconds {
			s.windows = append(s.windows, windowAt{win: c.win, last: c.win.last.Load()})
		}
	}
	w.workMu.Unlock()
	return nil
}

// resize returns s with length n, keeping its first elements (their
// copies are reused) and zeroing those past n, which the garbage
// collector may then have.
func resize[E any](s []E, n int) []E {
	if n <= len(s) {
		clear(s[n:])
		return s[:n]
	}
	if n <= cap(s) {
		return s[:n]
	}
	return append(s, make([]E, n-len(s))...)
}

// Restore puts w back in the state s holds (see [Snapshot]), exactly: the
// same live entities under the same ids, the same generations and free
// list (so the next [World.AddEntity] calls return the ids they returned
// after the snapshot was taken), the same components in the same storage
// order, the same uniques, and the same tracking state and clock. A game
// that restores a snapshot and then applies the same inputs gets the same
// world, bit for bit.
//
// Storages of w that s does not hold are emptied, with their tracking
// state (their storages did not exist when s was taken), unless s was
// restricted with [SnapshotComponent]: then they keep their components,
// but for those of entities the restore leaves dead, which are deleted.
// Storages s holds that w does not have are created. Uniques alike: one
// added after the snapshot is removed, one removed after it comes back
// (unless s was restricted with [SnapshotUnique]).
//
// Restore calls no lifecycle hook ([SetHooks], [World.SetEntityHooks]):
// it puts a state back, it does not replay the changes that led there.
// Commands recorded but not applied yet still apply afterwards; those that
// name entities the restore leaves dead fail then.
//
// What is configuration stays as w has it: its workloads, its groups,
// its hooks, what each storage tracks, its pool. A storage that tracks a
// kind now that it did not track when s was taken tracks it on, as if
// enabled at the snapshot's time ([TrackComponent]: nothing reported). A
// packed group is restored with the order s holds when the group existed
// at the snapshot, and packed again otherwise. The tracking windows of
// w's systems and workload conditions start where they did when s was
// taken; those of workloads added since (and all of them, when s comes
// from another world) start afresh, as before a first run.
//
// s may come from another world: Restore then makes w a copy of it, as
// [World.Clone] does (ids keep their meaning: an entity of s is the
// entity of the same id in w).
//
// Restore borrows all storages and every unique it touches exclusively,
// and returns a [*BorrowError] if any is borrowed elsewhere (a system
// running, a view from [World.Borrow] not released). It returns an error
// wrapping [ErrNilWorld] for a nil w, and one wrapping [ErrSnapshot] for
// a nil s or one never taken. It changes nothing when it returns an
// error.
func (w *World) Restore(s *Snapshot) error {
	if w == nil {
		return &argError{op: "World.Restore", what: "the *World is nil (create worlds with ecs.NewWorld)", kind: ErrNilWorld}
	}
	if s == nil {
		return &argError{op: "World.Restore", what: "the *Snapshot is nil", kind: ErrSnapshot}
	}
	if s.src == nil {
		return &argError{op: "World.Restore", what: "the Snapshot was never taken: fill it with World.SnapshotTo first", kind: ErrSnapshot}
	}
	if err := w.allLock.acquire(restoreWrite, true, allName); err != nil {
		return err
	}
	defer w.allLock.releaseExclusive()
	if w.eaching != 0 {
		// Only an AllStoragesViewMut runs an Each, and it holds all
		// storages: the borrow above fails first. Kept as a guard.
		return &argError{op: "World.Restore", what: "an Each (Each1 … Each8) is walking the storages", kind: ErrIterating}
	}
	// Every unique Restore touches, exclusively: w's own (each is either
	// in s, or removed) and those of s that w lacks (created here, which
	// borrows nothing).
	s.uniq = s.uniq[:0]
	if s.restrictU {
		for _, u := range s.uniques {
			s.uniq = append(s.uniq, u.slot(w))
		}
	} else {
		for _, u := range s.uniques {
			u.slot(w)
		}
		s.uniq = append(s.uniq, w.uniques.all()...)
	}
	for i, u := range s.uniq {
		if err := u.borrow().acquire(restoreWrite, true, u.typeName()); err != nil {
			for _, v := range s.uniq[:i] {
				v.borrow().releaseExclusive()
			}
			return err
		}
	}
	defer func() {
		for _, u := range s.uniq {
			u.borrow().releaseExclusive()
		}
	}()
	// Nothing can fail from here on.

	// Components of storages s does not hold, whose entity the restore
	// may kill, are left behind by stripDoomed: the entities storage is
	// restored whole, so its unpurged list becomes s's. The doomed list
	// is empty (only an AllStoragesViewMut fills it).
	e := &w.ents
	// Ids that Commands reserved and the world has not created yet are
	// the restored world's to give again: commands naming them fail when
	// they apply, as for any entity the restore leaves dead.
	e.reserved.Store(0)
	e.fresh = e.fresh[:0] // fresh ones too: the initializers are for entities of before
	e.freshPending.Store(false)
	e.cancels.Lock() // and cancelled ones name entities of before
	e.cancels.ids = e.cancels.ids[:0]
	e.cancels.n.Store(0)
	e.cancels.Unlock()
	e.slots = append(e.slots[:0], s.slots...)
	e.free = append(e.free[:0], s.free...)
	e.live = s.live
	e.unpurged = append(e.unpurged[:0], s.unpurged...)
	w.tick.Store(s.tick)
	w.marked.Store(s.marked)

	for _, c := range s.comps {
		c.restoreInto(w)
	}
	for _, st := range w.comps.all() {
		if _, ok := s.keys[st.accessKey()]; ok {
			continue
		}
		if s.restrictC {
			w.purgeDead(s, st)
		} else {
			st.restoreEmpty(s.tick)
		}
	}
	if s.restrictU {
		for i, u := range s.uniques {
			u.restoreInto(s.uniq[i])
		}
	} else {
		for _, u := range s.uniq {
			if i, ok := s.ukeys[u.key()]; ok {
				s.uniques[i].restoreInto(u)
			} else {
				u.restoreAbsent()
			}
		}
	}

	w.workMu.Lock()
	for _, g := range w.groups {
		s.restorePack(g)
	}
	for _, p := range w.workloads {
		for _, sys := range p.systems {
			sys.win.last.Store(0)
		}
		for _, c := range p.wconds {
			c.win.last.Store(0)
		}
	}
	if s.src == w {
		for _, x := range s.windows {
			x.win.last.Store(x.last)
		}
	}
	w.workMu.Unlock()
	return nil
}

// restoreInto puts the copy into w's storage of T, creating it if w has
// none.
func (c *setSnap[T]) restoreInto(w *World) storage {
	var s *sparseSet[T]
	if c.iso != nil {
		s = c.iso.home(w).(*sparseSet[T])
	} else {
		s = storageFor[T](w)
	}
	s.restoreFrom(c, &w.clock)
	return s
}

// slot returns w's slot of the unique type T, creating it if needed.
func (c *uniqueCopy[T]) slot(w *World) uniqueSlot { return uniqueFor[T](w) }

// purgeDead deletes, from st, a storage that a restricted snapshot does
// not hold, the components of the entities that are not alive once the
// entities storage is restored: the restore may have killed their
// entities, or given their indices back to older generations, which a
// leftover of a newer one would shadow. s.purge is its scratch.
func (w *World) purgeDead(s *Snapshot, st storage) {
	s.purge = s.purge[:0]
	for _, id := range st.ids() {
		if !w.ents.isAlive(id) {
			s.purge = append(s.purge, id)
		}
	}
	for _, id := range s.purge {
		st.deleteID(id)
	}
	s.purge = s.purge[:0]
}

// restorePack sets the length of g's pack after its members were
// restored: the one the snapshot holds, when every member was restored
// from a copy made while in this same pack (the copies' order is then
// packed already); otherwise the pack is made again from the members'
// restored order (repack).
func (s *Snapshot) restorePack(g *group) {
	n := -1
	for _, m := range g.storages {
		i, ok := s.keys[m.accessKey()]
		if !ok {
			g.pack.repack()
			return
		}
		p, k := s.comps[i].packed()
		if p != g.pack || (n >= 0 && k != n) {
			g.pack.repack()
			return
		}
		n = k
	}
	g.pack.n = n
}

// repack packs p again from scratch, as newPack does, over its members'
// current order: the entities that have every member component are
// brought to the front of each member, in the order of the shortest
// member. On a layout already packed it moves nothing.
func (p *pack) repack() {
	p.n = 0
	driver := 0
	for k, m := range p.members {
		if m.length() < p.members[driver].length() {
			driver = k
		}
	}
	ids := p.members[driver].ids()
	for i := 0; i < len(ids); i++ {
		if n, ok := p.joined(driver, ids[i]); ok && i != n {
			p.swap(driver, i, n)
		}
	}
}

// Clone returns a new world holding a copy of w: its entities under the
// same ids, with the same generations and free list, its components and
// uniques copied by value, and its tracking state and clock, as a
// [Snapshot] holds them. Copies are shallow: pointers, slices and maps
// inside components and uniques are copied as Go's assignment copies
// them, so the clone and w share what they point to.
//
// The clone has none of w's configuration: no workloads, no packed groups
// (the components keep the order w's groups gave them), its own worker
// pool. Its storages track what w's track.
//
// Clone borrows as [World.SnapshotTo] does, and returns its errors.
func (w *World) Clone() (*World, error) {
	if w == nil {
		return nil, &argError{op: "World.Clone", what: "the *World is nil (create worlds with ecs.NewWorld)", kind: ErrNilWorld}
	}
	var s Snapshot
	if err := w.SnapshotTo(&s); err != nil {
		return nil, err
	}
	c := NewWorld()
	if err := c.Restore(&s); err != nil {
		return nil, err // cannot happen: nobody else knows c
	}
	return c, nil
}
