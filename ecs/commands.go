package ecs

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Deferred commands: a Commands view records structural changes (create
// and delete entities, add, remove and delete components, add and remove
// uniques) for the world to apply later, when it can hold everything.
//
// Recording borrows only the entities storage, shared (to reserve ids),
// so systems that record run in parallel with each other and with every
// system that does not create or delete entities directly. Each frame (a
// system's place in a plan, a World.Run, a World.Borrow) has a buffer of
// its own (frame.cmds), so recording takes no lock: a command is an
// append to a typed queue (no boxing) and one to the buffer's order.
//
// Ids: AddEntity reserves the id the world's next creation would give
// (entities.reserve, an atomic counter over the free list and the fresh
// indices), so that later commands can name the entity. The reserved ids
// become live entities, in order, at the next exclusive use of the
// entities storage (entities.flushReserved): every World-level change,
// the borrow of an EntitiesViewMut or AllStoragesViewMut, and the apply.
//
// Apply points: the end of World.Run, the release of World.Borrow, and in
// a workload the ApplyCommands items and the end of the run; there the
// buffers of the systems that ran apply in declared order, each in
// recording order (plan.applyCommands).

// Commands is a view that records structural changes for the world to
// make later: create and delete entities, add, remove and delete
// components, add and remove uniques. Take it as a system parameter, or
// borrow it with [World.Borrow].
//
// It borrows the entities storage shared and nothing else, so systems
// that take it run in parallel with each other (and with any system that
// does not take [EntitiesViewMut] or [AllStoragesViewMut]). The changes
// are made afterwards, in the order recorded:
//
//   - for [World.Run], when the system returns, before Run returns;
//   - for [World.Borrow], when the views are released;
//   - in a workload, at the first [ApplyCommands] item declared after the
//     system, or at the end of the run: the commands of the systems that
//     ran apply in declared order, each system's in the order recorded.
//     Put an ApplyCommands item between a system that records and one
//     that must see the changes.
//
// Entities created with [Commands.AddEntity] get their ids at once, so
// later commands (of this system or any other) can name them; they
// become live, with no component, when the world next creates or deletes
// entities (any World-level change, an [EntitiesViewMut] borrowed, or
// the apply), and get their components when the commands apply.
//
// The commands of a system that returns an error or panics are dropped,
// and the entities it created through Commands are deleted. A command
// that fails when applied (a component added to an entity that died
// meanwhile) changes nothing, and the others still apply: the first
// failure comes back as a [*CommandError] naming the system and the
// command. Deleting an entity that is no longer alive, and removing or
// deleting a component it does not have, are no-ops, not errors: two
// systems may both decide that an entity must go.
//
// The apply holds the whole world. If another goroutine holds part of it
// then (a view borrowed with World.Borrow, a workload running beside),
// the apply fails with a [*BorrowError]: the commands are dropped, as a
// failed system's are, and the entities created through them are deleted
// as soon as the world next creates or deletes entities.
//
// A Commands is for the goroutine of its system: do not record from
// goroutines the system starts (ParEach included).
type Commands struct{ c *cmdCore }

// cmdCore is a Commands' borrow: the shared entities borrow, and the
// buffer of the frame it was borrowed into. epoch counts its borrows, so
// that a [TypedCommands] kept past the borrow is caught.
type cmdCore struct {
	entitiesCore
	buf   *cmdBuffer
	epoch uint64
}

func (v *Commands) access(a *accessSet) { a.add(entitiesAccess(false, "Commands")) }

func (v *Commands) borrowView(ctx *borrowCtx) (releaser, error) {
	old := *v
	if v.c == nil || v.c.w != nil { // borrowed already: as View.borrowView
		v.c = &cmdCore{}
	}
	if ctx.cmds == nil {
		*v = old
		return nil, &argError{op: "Commands", what: "a Commands view cannot be borrowed here (no place to apply its commands)", kind: ErrInvalidView}
	}
	if err := v.c.borrow(ctx, accEntitiesView, "Commands"); err != nil {
		*v = old
		return nil, err
	}
	v.c.buf = ctx.cmds
	v.c.buf.w = ctx.w
	v.c.epoch++
	return v.c, nil
}

// buffer returns the buffer c records into, panicking with ErrReleased
// if c is not borrowed.
func (c *cmdCore) buffer() *cmdBuffer {
	if c == nil || c.w == nil {
		panic(released{"Commands"})
	}
	return c.buf
}

// cmdKind is what a recorded command does.
type cmdKind uint8

const (
	cmdCreate cmdKind = iota
	cmdDelete
	cmdAdd
	cmdRemove
	cmdDeleteComp
	cmdAddUnique
	cmdRemoveUnique
	cmdEmit // an event (Emit): q is its place in cmdBuffer.events
)

// cmd is a recorded command in a buffer's order: for a creation, the id;
// for a run of entity deletions, how many (q), their ids being in
// cmdBuffer.dels; for the others, which typed queue holds its arguments
// (they are taken from it in order) and the id.
type cmd struct {
	kind cmdKind
	q    int32
	id   EntityID
}

// cmdBuffer is a frame's record of commands.
type cmdBuffer struct {
	w     *World
	order []cmd
	// dels holds the ids of the entity deletions in order. Deletions
	// recorded one after the other are one command of kind cmdDelete in
	// order, whose q counts them (merged counts the deletions that joined
	// a run), so that a run applies as one slice of dels (deleteRun); dn
	// is how many of dels the apply used.
	dels   []EntityID
	dn     int
	merged int
	queues []cmdQueue
	byType map[typeKey]int32
	events []emitted // the events Emit recorded
}

// cmdQueue is the type-free face of a typed queue.
type cmdQueue interface {
	// apply applies the queue's next command of kind k to id through s.
	apply(s Storages, k cmdKind, id EntityID) error
	// name returns the operation's name for errors.
	name(k cmdKind) string
	reset()
}

// typedQueue holds the values of the commands of one type, in order.
type typedQueue[T any] struct {
	vals []T
	next int
	tn   string
}

func (q *typedQueue[T]) apply(s Storages, k cmdKind, id EntityID) error {
	switch k {
	case cmdAdd:
		v := q.vals[q.next]
		q.next++
		return AddComponent1(s, id, v)
	case cmdRemove:
		_, _, err := Remove[T](s, id)
		return deadIsDone(err)
	case cmdDeleteComp:
		_, err := DeleteComponent[T](s, id)
		return deadIsDone(err)
	case cmdAddUnique:
		v := q.vals[q.next]
		q.next++
		return AddUnique(s, v)
	case cmdRemoveUnique:
		_, err := RemoveUnique[T](s)
		if errors.Is(err, ErrMissingUnique) {
			return nil
		}
		return err
	}
	return nil
}

// deadIsDone makes the error of removing a component from an entity that
// is not alive no error: the component is gone with it.
func deadIsDone(err error) error {
	if errors.Is(err, ErrDeadEntity) {
		return nil
	}
	return err
}

func (q *typedQueue[T]) name(k cmdKind) string {
	switch k {
	case cmdAdd:
		return "AddComponent[" + q.tn + "]"
	case cmdRemove:
		return "Remove[" + q.tn + "]"
	case cmdDeleteComp:
		return "DeleteComponent[" + q.tn + "]"
	case cmdAddUnique:
		return "AddUnique[" + q.tn + "]"
	default:
		return "RemoveUnique[" + q.tn + "]"
	}
}

func (q *typedQueue[T]) reset() {
	clear(q.vals)
	q.vals, q.next = q.vals[:0], 0
}

// TypedCommands records the commands of one component (or unique) type
// T in a [Commands]: get it with [CommandsFor], once per type and system
// run, then record through it as often as needed.
type TypedCommands[T any] struct {
	c     *cmdCore
	q     *typedQueue[T]
	qi    int32
	epoch uint64
}

// CommandsFor returns the recorder of commands about type T in c.
// It panics with [ErrReleased] if c is not borrowed.
func CommandsFor[T any](c Commands) TypedCommands[T] {
	b := c.c.buffer()
	k := keyFor[T]()
	qi, ok := b.byType[k]
	if !ok {
		if b.byType == nil {
			b.byType = make(map[typeKey]int32)
		}
		qi = int32(len(b.queues))
		b.queues = append(b.queues, &typedQueue[T]{tn: typeName(k)})
		b.byType[k] = qi
	}
	return TypedCommands[T]{c: c.c, q: b.queues[qi].(*typedQueue[T]), qi: qi, epoch: c.c.epoch}
}

// record appends a command of kind k about id to the buffer, panicking
// with ErrReleased if t outlived its Commands' borrow.
func (t TypedCommands[T]) record(k cmdKind, id EntityID) {
	if t.c == nil || t.c.w == nil || t.c.epoch != t.epoch {
		panic(released{"TypedCommands[" + typeName(keyFor[T]()) + "]"})
	}
	t.c.buf.order = append(t.c.buf.order, cmd{kind: k, q: t.qi, id: id})
}

// Add records giving entity id the component v, replacing any it has of
// type T then. Applying it fails with an error wrapping [ErrDeadEntity]
// if id is not alive by then.
func (t TypedCommands[T]) Add(id EntityID, v T) {
	t.record(cmdAdd, id)
	t.q.vals = append(t.q.vals, v)
}

// Remove records taking id's component of type T out ([Remove]); the
// value goes nowhere, but the removal is tracked as one (and runs the
// OnRemove hook).
func (t TypedCommands[T]) Remove(id EntityID) { t.record(cmdRemove, id) }

// Delete records deleting id's component of type T ([DeleteComponent]).
func (t TypedCommands[T]) Delete(id EntityID) { t.record(cmdDeleteComp, id) }

// AddUnique records adding (or replacing) the unique of type T.
func (t TypedCommands[T]) AddUnique(v T) {
	t.record(cmdAddUnique, NullID)
	t.q.vals = append(t.q.vals, v)
}

// RemoveUnique records removing the unique of type T, if there is one then.
func (t TypedCommands[T]) RemoveUnique() { t.record(cmdRemoveUnique, NullID) }

// AddEntity records the creation of an entity and returns its id,
// reserved now: later commands may name it. The entity is live, with no
// component, from the world's next creation or deletion of entities on
// (see [Commands]).
func (c Commands) AddEntity() EntityID {
	b := c.c.buffer()
	id := c.c.w.ents.reserve()
	b.order = append(b.order, cmd{kind: cmdCreate, id: id})
	return id
}

// DeleteEntity records deleting id with its components. An id that is not
// alive when the commands apply is left alone.
func (c Commands) DeleteEntity(id EntityID) {
	b := c.c.buffer()
	if n := len(b.order) - 1; n >= 0 && b.order[n].kind == cmdDelete && b.order[n].q < math.MaxInt32 {
		b.order[n].q++ // one more in the run
		b.merged++
	} else {
		b.order = append(b.order, cmd{kind: cmdDelete, q: 1})
	}
	b.dels = append(b.dels, id)
}

// Len returns how many commands c holds, not yet applied.
func (c Commands) Len() int {
	b := c.c.buffer()
	return len(b.order) + b.merged
}

// CommandError is the error of a command that failed when applied: it
// names the system (or "World.Borrow") that recorded it, its workload
// ("" outside workloads), its place in the system's commands (Index, from
// 0), the operation and the entity, and wraps the cause. More counts the
// other commands of the same apply that failed.
type CommandError struct {
	Workload string
	System   string
	Index    int
	Op       string
	ID       EntityID
	Err      error
	More     int
}

func (e *CommandError) Error() string {
	s := "ecs: command " + strconv.Itoa(e.Index) + " of " + e.System
	if e.Workload != "" {
		s += " (workload " + strconv.Quote(e.Workload) + ")"
	}
	s += ", " + e.Op
	if e.ID != NullID {
		s += " " + e.ID.String()
	}
	s += ": " + e.Err.Error()
	if e.More > 0 {
		s += fmt.Sprintf(" (and %d more commands failed)", e.More)
	}
	return s
}

// Unwrap returns the cause.
func (e *CommandError) Unwrap() error { return e.Err }

// empty reports whether b holds no command.
func (b *cmdBuffer) empty() bool { return b == nil || len(b.order) == 0 }

// applyTo applies b's commands in order through s, which holds the world,
// and empties b. It returns the first failure as a *CommandError (nil if
// none), naming system and workload.
func (b *cmdBuffer) applyTo(s Storages, workload, system string) error {
	var first *CommandError
	fail := func(err error, pos int, op string, id EntityID) {
		if first == nil {
			first = &CommandError{Workload: workload, System: system, Index: pos, Op: op, ID: id, Err: err}
		} else {
			first.More++
		}
	}
	w, _ := s.world()
	pos := 0 // the place of c among the commands recorded
	for _, c := range b.order {
		switch c.kind {
		case cmdCreate: // the entity came with the reservation
		case cmdEmit:
			e := b.events[c.q]
			w.obs.push(e.key, e.ev)
		case cmdDelete:
			if w.eaching == 0 { // the run at once
				b.deleteRun(w, int(c.q))
			} else {
				for j, id := range b.dels[b.dn : b.dn+int(c.q)] {
					if err := DeleteEntity(s, id); err != nil && !errors.Is(err, ErrDeadEntity) {
						fail(err, pos+j, "DeleteEntity", id)
					}
				}
				b.dn += int(c.q)
			}
			pos += int(c.q) - 1
		default:
			q := b.queues[c.q]
			if err := q.apply(s, c.kind, c.id); err != nil {
				fail(err, pos, q.name(c.kind), c.id)
			}
		}
		pos++
	}
	b.reset()
	if first == nil {
		return nil
	}
	return first
}

// deleteRun applies the next n entity deletions of b: as DeleteEntities
// does, it kills the entities (the live ones: a dead id is left alone, an
// id given twice deleted once), then deletes their components in one
// pass per storage.
func (b *cmdBuffer) deleteRun(w *World, n int) {
	ids := b.dels[b.dn : b.dn+n]
	b.dn += n
	if w.fin != nil {
		// Dead ids are kept, left alone below; spare fails only inside
		// an Each, where commands are not applied.
		ids, _ = w.fin.spareAll(w, "DeleteEntity", ids)
	}
	if w.ents.killAll(ids) {
		w.deleteComponents(ids)
		return
	}
	killed := ids[:0]
	for _, id := range ids {
		if w.ents.deleteTold(id) {
			killed = append(killed, id)
		}
	}
	w.deleteComponents(killed)
}

// reset empties b, keeping its memory.
func (b *cmdBuffer) reset() {
	b.order = b.order[:0]
	b.dels, b.dn, b.merged = b.dels[:0], 0, 0
	clear(b.events)
	b.events = b.events[:0]
	for _, q := range b.queues {
		q.reset()
	}
}

// applyCommands applies the commands of bufs, made by the systems named
// in systems, in w, holding the world for the time it takes. It returns
// the first failure. If the world cannot be borrowed (another goroutine
// holds part of it), the commands are dropped, the entities they
// reserved cancelled (entities.cancel), and the *BorrowError returned.
func (w *World) applyCommands(workload string, systems []string, bufs []*cmdBuffer) error {
	wr, locked, err := beginWrite(w)
	if err != nil {
		// Dropped, as a failed system's: the entities they reserved
		// are deleted as soon as they become live.
		for _, b := range bufs {
			for _, c := range b.order {
				if c.kind == cmdCreate {
					w.ents.cancel(c.id)
				}
			}
			b.reset()
		}
		return err
	}
	defer endWrite(wr, locked)
	return applyHeld(w, workload, systems, bufs)
}

// applyHeld is applyCommands for a world held by the caller (a
// World-level change under way, or an AllStoragesViewMut).
func applyHeld(w *World, workload string, systems []string, bufs []*cmdBuffer) error {
	// A World-level change: its hooks run as it ends (hooks.go).
	w.hooks.writing++
	defer func() {
		w.hooks.writing--
		if len(w.hooks.order) != 0 && w.hooks.writing == 0 && w.eaching == 0 {
			w.hooks.flush()
		}
	}()
	w.ents.flushReserved()
	all := AllStoragesViewMut{c: &allCore{w: w, b: worldWrite}}
	var first error
	for k, b := range bufs {
		if err := b.applyTo(all, workload, systems[k]); err != nil && first == nil {
			first = err
		}
	}
	w.stripDoomed()
	if w.ents.initing {
		w.initHeld()
	}
	return first
}

// abandon replaces the commands of b, of a system that failed, by the
// deletion of the entities it reserved: applied, they leave the world as
// if the system had recorded nothing.
func (b *cmdBuffer) abandon() {
	if b.empty() {
		return
	}
	b.dels, b.dn = b.dels[:0], 0
	for _, c := range b.order {
		if c.kind == cmdCreate {
			b.dels = append(b.dels, c.id)
		}
	}
	b.order = b.order[:0]
	b.merged = 0
	if n := len(b.dels); n > 0 {
		b.order = append(b.order, cmd{kind: cmdDelete, q: int32(n)})
		b.merged = n - 1
	}
	clear(b.events)
	b.events = b.events[:0]
	for _, q := range b.queues {
		q.reset()
	}
}

// dropCommands drops the commands of b, of a system that failed, and
// deletes the entities it reserved, if the world can be borrowed: b is
// abandoned already (cmdBuffer.abandon).
func (w *World) dropCommands(b *cmdBuffer) {
	if !b.empty() {
		_ = w.applyCommands("", []string{""}, []*cmdBuffer{b})
	}
}

// ApplyCommandsItem is the item [ApplyCommands] returns, to put among the
// items of a workload.
type ApplyCommandsItem struct{}

// ApplyCommands returns a point in a workload where the commands recorded
// by the systems declared before it (through [Commands]) are applied:
// every system declared before it that the run reaches has finished, and
// no system declared after it has started. It holds every storage
// while it applies, so it orders the systems around it as an
// [AllStoragesViewMut] system would. The plan lists it as a system named
// "ApplyCommands". A command that fails there fails the run with a
// [*WorkloadError] naming ApplyCommands, wrapping the [*CommandError]
// that names the system that recorded it.
//
// Commands not applied by an ApplyCommands item apply at the end of the
// run.
func ApplyCommands() ApplyCommandsItem { return ApplyCommandsItem{} }

// applyMark is the function of an ApplyCommands item's system: it is
// analysed as any system (its access orders it), but never called
// (planSystem.exec applies the commands instead).
func applyMark(AllStoragesViewMut) {}

// applyUpTo applies the commands that the systems before position end
// of p (in declared order) recorded and that are not applied yet.
func (p *plan) applyUpTo(end int) error {
	var names []string
	var bufs []*cmdBuffer
	for _, s := range p.systems[:end] {
		if !s.frame.cmds.empty() {
			names = append(names, s.name)
			bufs = append(bufs, &s.frame.cmds)
		}
	}
	if len(bufs) == 0 {
		return nil
	}
	return p.world.applyCommands(p.name, names, bufs)
}

// dropCommands drops the commands of every system of p, after a run that
// panicked, deleting the entities they reserved.
func (p *plan) dropCommands() {
	for _, s := range p.systems {
		s.frame.cmds.abandon()
	}
	_ = p.applyUpTo(len(p.systems))
}

// reserve returns the id the world's next creation would give, counting
// the ids reserved since the last flush: the free list's indices from its
// end, then fresh indices. It runs under the shared entities borrow, in
// which nothing changes the free list or the slots; the counter is the
// only thing concurrent reservations share.
func (e *entities) reserve() EntityID {
	k := int(e.reserved.Add(1) - 1)
	if k < len(e.free) {
		i := e.free[len(e.free)-1-k]
		return newEntityID(i, e.slots[i])
	}
	i := uint64(len(e.slots)) + uint64(k-len(e.free))
	if i > maxIndex {
		panic("ecs: more than 4294967294 entity slots in use; delete entities to free slots")
	}
	return newEntityID(uint32(i), 0)
}

// settle brings the entities reserved since the last flush to life, if
// there are any: every exclusive use of the entities storage starts with
// it (beginWrite, beginBulkWrite, the borrows of EntitiesViewMut and
// AllStoragesViewMut, the apply), so that reserve's ids are the ones the
// next creations would have given.
func (e *entities) settle() {
	if e.reserved.Load() != 0 || e.cancels.n.Load() != 0 {
		e.flushReserved()
	}
}

// flushReserved creates the entities reserved since the last flush, in
// the order reserved: they get exactly the ids reserve gave. The caller
// holds the entities storage exclusively.
func (e *entities) flushReserved() {
	if n := e.reserved.Load(); n != 0 {
		e.reserved.Store(0)
		for range n {
			e.create()
		}
	}
	if e.cancels.n.Load() != 0 {
		e.cancels.Lock()
		for _, id := range e.cancels.ids {
			e.deleteUnpurged(id) // no component yet, unless one was added by hand
		}
		e.cancels.ids = e.cancels.ids[:0]
		e.cancels.n.Store(0)
		e.cancels.Unlock()
	}
}

// cancel marks the reserved id for deletion once it is live: its
// commands were dropped without the world, which another goroutine
// holds. The next flush (which makes it live) deletes it.
func (e *entities) cancel(id EntityID) {
	e.cancels.Lock()
	e.cancels.ids = append(e.cancels.ids, id)
	e.cancels.n.Add(1)
	e.cancels.Unlock()
}
