package ecs

import (
	"errors"
	"strings"
)

// Auto-initializers (Dynec's): a component type may have a function that
// makes its component for every entity created without one, from other
// components of the entity (SetInitializer1 …, SetDefault).
//
// Every way of creating entities goes through the entities storage's
// hook branch while the world has initializers (the storage then has an
// empty hook set, as observers give it): entities.hooked notes the new
// ids in entities.fresh. The fresh entities get their components at the
// next sync point: the end of the World-level call that created them
// (endWriteObs, while it still holds the world), of a Commands apply
// (applyHeld), of World.Run, an ApplyCommands item or the end of a
// workload run (initPending). So the creator's components are in place
// first, whatever the path: World-level calls, views inside a system,
// Commands. The initializers run in an order where each comes after those
// of its inputs, one pass over the fresh ids each, with generic code: no
// reflection per entity.

// ErrInitializerCycle is wrapped by the error of declaring an initializer
// that would depend on itself, through its inputs' initializers.
var ErrInitializerCycle = errors.New("initializer cycle")

// initializer is one component type's initializer.
type initializer struct {
	target typeKey
	name   string    // the target type's name
	inputs []typeKey // the types it reads
	// run gives each live entity of ids that lacks the target component
	// and has every input one made from its inputs.
	run func(w *World, ids []EntityID)
}

// initializers are a world's initializers, in the order they run (each
// after those of its inputs). A new value replaces them at each change,
// under the world's exclusive borrow.
type initializers struct {
	order []*initializer
}

// setInitializer installs in: it replaces the initializer of the same
// type, if any, and refuses one that would close a cycle. op names the
// call for errors.
func setInitializer(w *World, op string, in *initializer) (err error) {
	wr, locked, err := beginWrite(w)
	if err != nil {
		return err
	}
	defer endWrite(wr, locked)
	byTarget := map[typeKey]*initializer{}
	if wr.inits != nil {
		for _, x := range wr.inits.order {
			byTarget[x.target] = x
		}
	}
	byTarget[in.target] = in
	if path := initCycle(byTarget, in); path != nil {
		return &argError{op: op, what: "the initializer of " + in.name + " would depend on itself: " + strings.Join(path, " needs ") + "; an initializer may read only components given by the creator or made by initializers that do not read it", kind: ErrInitializerCycle}
	}
	// Order: depth first from each initializer (in declaration order,
	// replacements keeping their place), inputs first.
	var order []*initializer
	seen := map[typeKey]bool{}
	var visit func(x *initializer)
	visit = func(x *initializer) {
		if seen[x.target] {
			return
		}
		seen[x.target] = true
		for _, k := range x.inputs {
			if dep := byTarget[k]; dep != nil {
				visit(dep)
			}
		}
		order = append(order, x)
	}
	replaced := false
	if wr.inits != nil {
		for _, x := range wr.inits.order {
			if x.target == in.target {
				x, replaced = in, true
			}
			visit(x)
		}
	}
	if !replaced {
		visit(in)
	}
	wr.inits = &initializers{order: order}
	e := &wr.ents
	e.initing = true
	if e.hooks == nil {
		e.hooks = &EntityHooks{}
		e.sink = &wr.hooks
	}
	return nil
}

// initCycle returns the path of type names from in back to in through the
// initializers' inputs, or nil if there is none.
func initCycle(byTarget map[typeKey]*initializer, in *initializer) []string {
	var path []string
	onPath := map[typeKey]bool{}
	var walk func(x *initializer) bool
	walk = func(x *initializer) bool {
		path = append(path, x.name)
		onPath[x.target] = true
		for _, k := range x.inputs {
			if k == in.target {
				path = append(path, in.name)
				return true
			}
			if dep := byTarget[k]; dep != nil && !onPath[k] && walk(dep) {
				return true
			}
		}
		path = path[:len(path)-1]
		return false
	}
	if walk(in) {
		return path
	}
	return nil
}

// SetDefault gives the component type C an initializer with no inputs:
// every entity created without a C gets fn(), at the next sync point
// (see [SetInitializer1]). It replaces C's initializer, if any.
func SetDefault[C any](w *World, fn func() C) error {
	const op = "SetDefault"
	if fn == nil {
		return errNilFunc(op + "[" + typeName(keyFor[C]()) + "]")
	}
	return setInitializer(w, op, &initializer{
		target: keyFor[C](),
		name:   typeName(keyFor[C]()),
		run: func(w *World, ids []EntityID) {
			sc := storageFor[C](w)
			var b initBatch[C]
			for _, id := range ids {
				if w.ents.isAlive(id) && !sc.has(id) {
					b.add(sc, len(ids), id, fn())
				}
			}
			b.flush(sc)
		},
	})
}

// quiet reports whether the entity hooks are only there for the
// initializers: no hook function, no observer.
func (e *entities) quiet() bool {
	return e.hooks.OnCreate == nil && e.hooks.OnDelete == nil && e.observed == 0
}

// initChunk is how many components an initializer makes before it
// inserts them: in one bulk insertion per chunk (sparseSet.insertMany),
// which costs far less per component than inserting them one by one,
// with memory bounded whatever the number of entities.
const initChunk = 4096

// initBatch holds the components an initializer made and has not
// inserted yet, with their entities.
type initBatch[C any] struct {
	ids   []EntityID
	vals  []C
	grown bool // sc has room for every fresh entity
}

// add queues c for id, inserting the chunk into sc once full; n (the
// number of fresh entities) bounds the memory taken for it.
func (b *initBatch[C]) add(sc *sparseSet[C], n int, id EntityID, c C) {
	if b.ids == nil {
		m := min(n, initChunk)
		b.ids, b.vals = make([]EntityID, 0, m), make([]C, 0, m)
	}
	b.ids = append(b.ids, id)
	b.vals = append(b.vals, c)
	if len(b.ids) == initChunk {
		if !b.grown { // many to make: grow the storage once, not per chunk
			sc.reserve(n)
			b.grown = true
		}
		b.flush(sc)
	}
}

// flush inserts the components queued.
func (b *initBatch[C]) flush(sc *sparseSet[C]) {
	if len(b.ids) == 0 {
		return
	}
	sc.insertMany(b.ids, b.vals)
	clear(b.vals)
	b.ids, b.vals = b.ids[:0], b.vals[:0]
}

// notePending marks fresh entities waiting for their initializers, for
// the sync points that look without holding the world.
func (e *entities) notePending() { e.freshPending.Store(true) }

// initHeld runs the initializers over the fresh entities. The caller
// holds the world exclusively, outside any Each; the components they
// make are insertions of a World-level change, whose hooks run when the
// caller's change ends.
func (w *World) initHeld() {
	e := &w.ents
	if len(e.fresh) == 0 || w.eaching != 0 {
		return
	}
	w.hooks.writing++
	defer func() { w.hooks.writing-- }()
	ids := e.fresh
	e.fresh = nil
	e.freshPending.Store(false)
	for _, in := range w.inits.order {
		in.run(w, ids)
	}
	if e.fresh == nil { // keep the memory for the next fresh entities
		e.fresh = ids[:0]
	}
}

// initThenEnd is endWriteObs with fresh entities: it runs their
// initializers, then ends the change. If an initializer panics, the
// change still ends (the world given back, hooks run) before the panic
// goes on: the entities keep what the initializers made before.
func initThenEnd(w *World, locked bool, err *error) {
	defer endWriteObs(w, locked, err) // fresh is empty by then: no loop
	w.initHeld()
}

// initPending is a sync point for initializers outside a World-level
// change: if entities wait for theirs, it borrows the world and runs
// them. If the world is held elsewhere, they wait for the next sync
// point.
func (w *World) initPending() {
	if !w.ents.freshPending.Load() {
		return
	}
	wr, locked, err := beginWrite(w)
	if err != nil {
		return
	}
	endWriteObs(wr, locked, &err)
}
