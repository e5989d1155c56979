package bench

// The sparse-set reference: the `sparse` implementation of a workload does its
// work by hand over the smallest paged sparse set that stores components
// the way Slipway does (DESIGN.md §2): per component type, pages of 1,024
// sparse entries (generation << 32 | position+1, 0 for absent), a dense
// slice of ids and a dense slice of components in the same order; removal
// swaps the last component into the hole. Entities are a slice of
// generations, liveness flags and a free list, as in Slipway.
//
// It has nothing else: no borrow checks, no systems, no error values, no
// tracking, no groups, no interface between the caller and the storage,
// and it knows at compile time which storages an entity uses. So the gap
// between `plain` and `sparse` is the cost of the data structure itself,
// and the gap between `sparse` and `slipway` is what Slipway adds to it.
// The loops are the one-at-a-time operations; the bulk calls may beat them
// by ordering the work differently.

import (
	"testing"
	"unsafe"

	"github.com/slipway-ecs/slipway/ecs"
)

const (
	refShift = 10 // log2 of the entries per page, as in Slipway
	refMask  = 1<<refShift - 1
	refGens  = 0xffff_ffff_0000_0000 // the generation bits of an entry and of an id
)

type refPage [1 << refShift]uint64

// refEmpty stands for every page not allocated: all its entries are 0, so
// lookups need no nil test.
var refEmpty refPage

// refSet is one component type's storage.
type refSet[T any] struct {
	pages []*refPage
	dense []ecs.EntityID
	data  []T
	// color staggers the storage's pages and arrays against the other
	// storages': pages start color cache lines into their allocation,
	// ids 3×color lines and components 3×color+1 lines (for arrays of
	// 4 KiB or more). Slipway no longer does this: its pages and arrays
	// are plain allocations.
	color int
}

// refPageWords is the size of a page's allocation in words: 9,472 bytes,
// a page (8 KiB, as in Slipway) and room for its offset.
const refPageWords = 9472 / 8

// newPage allocates a page at the storage's offset.
func (s *refSet[T]) newPage() *refPage {
	off := s.color % 20 * 8
	return (*refPage)(make([]uint64, refPageWords)[off : off+1<<refShift])
}

// refStagger returns a copy of a with capacity c, lines cache lines into
// its allocation when it takes 4 KiB or more (the offset wrapped within a
// quarter of the array, as in Slipway).
func refStagger[E any](a []E, c, lines int) []E {
	size := int(unsafe.Sizeof(*new(E)))
	pad := 0
	if bytes := c * size; size > 0 && bytes >= 4096 {
		pad = (lines%(bytes/4/64)*64 + size - 1) / size
	}
	n := make([]E, pad+c)[pad : pad+len(a)]
	copy(n, a)
	return n
}

// grow makes room for more components: twice as many.
func (s *refSet[T]) grow() {
	c := max(2*cap(s.dense), 8)
	s.dense = refStagger(s.dense, c, 3*(s.color%20))
	s.data = refStagger(s.data, c, 3*(s.color%20)+1)
}

// entry returns id's sparse entry when id has a component here, else nil.
func (s *refSet[T]) entry(id ecs.EntityID) *uint64 {
	if p := id.Index() >> refShift; p < uint32(len(s.pages)) {
		// Equal generations and a position: one unsigned comparison.
		if e := &s.pages[p][id.Index()&refMask]; (*e^uint64(id)&refGens)-1 < 1<<32-1 {
			return e
		}
	}
	return nil
}

// get returns id's component, or nil. An entry minus one is id's position
// when the generations match, and ≥ 2³²-1 otherwise (0 wraps around), so
// one comparison with the length is both the test and the bounds check.
func (s *refSet[T]) get(id ecs.EntityID) *T {
	if p := id.Index() >> refShift; p < uint32(len(s.pages)) {
		if x := (s.pages[p][id.Index()&refMask] ^ uint64(id)&refGens) - 1; x < uint64(len(s.data)) {
			return &s.data[x]
		}
	}
	return nil
}

// set gives id the component v, replacing the one it has.
func (s *refSet[T]) set(id ecs.EntityID, v T) {
	if e := s.entry(id); e != nil {
		s.data[uint32(*e)-1] = v
		return
	}
	p := id.Index() >> refShift
	for uint32(len(s.pages)) <= p {
		s.pages = append(s.pages, &refEmpty)
	}
	if s.pages[p] == &refEmpty {
		s.pages[p] = s.newPage()
	}
	s.place(id, len(s.dense))
	if len(s.dense) == cap(s.dense) || len(s.data) == cap(s.data) {
		s.grow()
	}
	s.dense = append(s.dense, id)
	s.data = append(s.data, v)
}

// place points id's sparse entry, on an allocated page, at position pos.
func (s *refSet[T]) place(id ecs.EntityID, pos int) {
	s.pages[id.Index()>>refShift][id.Index()&refMask] = uint64(id)&refGens | uint64(pos+1)
}

// remove deletes id's component and reports whether it had one.
func (s *refSet[T]) remove(id ecs.EntityID) bool {
	e := s.entry(id)
	if e == nil {
		return false
	}
	i := int(uint32(*e)) - 1
	*e = 0
	last := len(s.dense) - 1
	if i != last {
		moved := s.dense[last]
		s.dense[i] = moved
		s.data[i] = s.data[last]
		s.place(moved, i)
	}
	s.dense, s.data = s.dense[:last], s.data[:last]
	return true
}

// refCopy returns a refSet holding w's components of type T with the same
// ids, in the same dense order: the same memory layout as Slipway's, with
// the given color (the storage's place in the order w created them).
func refCopy[T any](tb testing.TB, w *ecs.World, color int) *refSet[T] {
	tb.Helper()
	var v ecs.View[T]
	release, err := w.Borrow(&v)
	check(tb, err)
	defer release()
	s := &refSet[T]{color: color}
	s.dense, s.data = refStagger(s.dense, v.Len(), 3*color), refStagger(s.data, v.Len(), 3*color+1)
	for i, id := range v.IDs() {
		s.set(id, v.Slice()[i])
	}
	return s
}

// refEntities issues entity ids as Slipway does: index in the low 32 bits,
// generation in the high 32; a freed index is reused last-freed first with
// its generation one higher.
type refEntities struct {
	gens  []uint32
	alive []bool
	free  []uint32
}

func (e *refEntities) create() ecs.EntityID {
	var i uint32
	if k := len(e.free) - 1; k >= 0 {
		i, e.free = e.free[k], e.free[:k]
		e.alive[i] = true
	} else {
		i = uint32(len(e.gens))
		e.gens = append(e.gens, 0)
		e.alive = append(e.alive, true)
	}
	return ecs.EntityID(uint64(e.gens[i])<<32 | uint64(i))
}

func (e *refEntities) isAlive(id ecs.EntityID) bool {
	i := id.Index()
	return uint(i) < uint(len(e.gens)) && e.alive[i] && e.gens[i] == id.Generation()
}

func (e *refEntities) delete(id ecs.EntityID) bool {
	if !e.isAlive(id) {
		return false
	}
	i := id.Index()
	e.alive[i] = false
	e.gens[i]++
	e.free = append(e.free, i)
	return true
}

// refWorld is the entities and len(sets) storages of one component shape,
// every entity having all of them: the state of the create and delete
// workloads.
type refWorld struct {
	ents refEntities
	sets []refSet[pair]
	vals []pair // vals[k] is the component created entities get in sets[k]
	ids  []ecs.EntityID
}

func newRefWorld(storages int) *refWorld {
	r := &refWorld{sets: make([]refSet[pair], storages)}
	for k := range storages {
		r.vals = append(r.vals, pair{1, float64(k + 1)})
		r.sets[k].color = k
	}
	return r
}

// createRef creates n entities with every component, one at a time, and
// keeps their ids.
//
//go:noinline
func createRef(r *refWorld, n int) {
	for range n {
		id := r.ents.create()
		for k := range r.sets {
			r.sets[k].set(id, r.vals[k])
		}
		r.ids = append(r.ids, id)
	}
}

// deleteRef deletes every entity of r.ids, one at a time, in creation
// order.
//
//go:noinline
func deleteRef(r *refWorld) {
	for _, id := range r.ids {
		r.delete(id)
	}
	r.ids = r.ids[:0]
}

// clearRef deletes every entity last first, as ecs.DeleteAny does, so
// that the next entities created take the same indices in the same order.
func clearRef(r *refWorld) {
	for i := len(r.ids) - 1; i >= 0; i-- {
		r.delete(r.ids[i])
	}
	r.ids = r.ids[:0]
}

// delete deletes id from every storage, then from the entities.
func (r *refWorld) delete(id ecs.EntityID) {
	for k := range r.sets {
		r.sets[k].remove(id)
	}
	r.ents.delete(id)
}

// refCreateImpl is the reference of Create2Comp (storages 2) and
// Create10Comp (10): worlds where n entities were created and deleted
// before, as benchRecycled.
func refCreateImpl(storages int) impl {
	return refBatchImpl(storages, func(r *refWorld, _ int) { clearRef(r) }, createRef)
}

// refDeleteImpl is the reference of Delete2Comp and Delete10Comp: worlds
// refilled with n entities between rounds, untimed, as benchDelete.
func refDeleteImpl(storages int) impl {
	return refBatchImpl(storages, createRef, func(r *refWorld, _ int) { deleteRef(r) })
}

// refBatchImpl runs timed rounds over a batch of worlds with storages
// storages, prepared by reset between rounds, untimed: measureReset, as for
// Slipway's worlds.
func refBatchImpl(storages int, reset, round func(r *refWorld, n int)) impl {
	return impl{"sparse", func(b *testing.B, n int) {
		worlds := make([]*refWorld, batchFor(n))
		for i := range worlds {
			worlds[i] = newRefWorld(storages)
		}
		measureReset(b, n, len(worlds),
			func(i int) { reset(worlds[i], n) },
			func(i int) { round(worlds[i], n) })
	}}
}

// refQueryImpl is the reference of the query workloads: the world build makes,
// copied into refSets with the same layout, and the join Slipway runs: the
// smaller storage (Velocity) in dense order, Position looked up by id.
func refQueryImpl(build func(testing.TB, *ecs.World, int)) impl {
	return impl{"sparse", func(b *testing.B, n int) {
		w := ecs.NewWorld()
		build(b, w, n)
		pos, vel := refCopy[Position](b, w, 0), refCopy[Velocity](b, w, 1)
		measure(b, n, func() { moveRef(pos, vel) })
	}}
}

//go:noinline
func moveRef(pos *refSet[Position], vel *refSet[Velocity]) {
	for i, id := range vel.dense {
		if p := pos.get(id); p != nil {
			v := &vel.data[i]
			p.X += v.X
			p.Y += v.Y
		}
	}
}

// sumRef is the reference of Random (see randomImpls): the same world and
// shuffled ids, each looked up in a refSet with the same layout.
//
//go:noinline
func sumRef(pos *refSet[Position], ids []ecs.EntityID) float64 {
	var sum float64
	for _, id := range ids {
		if p := pos.get(id); p != nil {
			sum += p.X
		}
	}
	return sum
}

// refAddRemoveImpl is the reference of AddRemove and AddRemoveLarge: n live
// entities; a round gives each a Velocity (checking it is alive first, as
// ViewMut.AddComponent does), then removes them all. The entities' other
// components are never touched, so both workloads have the same reference.
var refAddRemoveImpl = impl{"sparse", func(b *testing.B, n int) {
	var ents refEntities
	ids := make([]ecs.EntityID, n)
	for i := range ids {
		ids[i] = ents.create()
	}
	vel := refSet[Velocity]{color: 1}
	measure(b, n, func() { addRemoveRef(&ents, &vel, ids) })
}}

//go:noinline
func addRemoveRef(ents *refEntities, vel *refSet[Velocity], ids []ecs.EntityID) {
	for _, id := range ids {
		if ents.isAlive(id) {
			vel.set(id, Velocity{1, 2})
		}
	}
	for _, id := range ids {
		vel.remove(id)
	}
}

// refGroupImpl is the name of the packed-group reference: the sparse-set
// reference with a packed owning group over Position and Velocity
// (DESIGN.md §8), done by hand as Slipway's groups do it.
const refGroupImpl = "sparse-group"

// refGroup keeps the entities that have both a Position and a Velocity
// first in both storages, in the same order: n of them.
type refGroup struct {
	pos *refSet[Position]
	vel *refSet[Velocity]
	n   int
}

// refSwap swaps the components at positions i and j of s, with their
// entities and sparse entries.
func refSwap[T any](s *refSet[T], i, j int) {
	a, b := s.dense[i], s.dense[j]
	s.dense[i], s.dense[j] = b, a
	s.data[i], s.data[j] = s.data[j], s.data[i]
	s.place(a, j)
	s.place(b, i)
}

// addVel gives id the Velocity v and, when id has a Position, moves it
// into the group: its components go to position n of both storages.
func (g *refGroup) addVel(id ecs.EntityID, v Velocity) {
	if e := g.vel.entry(id); e != nil {
		g.vel.data[uint32(*e)-1] = v
		return
	}
	g.vel.set(id, v)
	e := g.pos.entry(id)
	if e == nil {
		return
	}
	if p := int(uint32(*e)) - 1; p != g.n {
		refSwap(g.pos, p, g.n)
	}
	if x := len(g.vel.dense) - 1; x != g.n {
		refSwap(g.vel, x, g.n)
	}
	g.n++
}

// removeVel deletes id's Velocity, first moving id out of the group if it
// is in it: its components swap with the group's last in both storages.
func (g *refGroup) removeVel(id ecs.EntityID) {
	e := g.vel.entry(id)
	if e == nil {
		return
	}
	if i := int(uint32(*e)) - 1; i < g.n {
		g.n--
		if i != g.n {
			refSwap(g.pos, i, g.n)
			refSwap(g.vel, i, g.n)
		}
	}
	g.vel.remove(id)
}

// newRefGroupWorld returns n live entities with a Position each, in a
// group over Position and Velocity with no members yet: AddRemove's world
// with groupLayout.
func newRefGroupWorld(n int) (*refEntities, *refGroup, []ecs.EntityID) {
	ents := new(refEntities)
	g := &refGroup{pos: &refSet[Position]{color: 0}, vel: &refSet[Velocity]{color: 1}}
	ids := make([]ecs.EntityID, n)
	for i := range ids {
		ids[i] = ents.create()
		g.pos.set(ids[i], Position{float64(i), 1})
	}
	return ents, g, ids
}

// refAddRemoveGroupImpl is the reference of AddRemove and AddRemoveLarge
// with a group owning Position and Velocity: refAddRemoveImpl's rounds,
// the group kept packed.
var refAddRemoveGroupImpl = impl{refGroupImpl, func(b *testing.B, n int) {
	ents, g, ids := newRefGroupWorld(n)
	measure(b, n, func() { addRemoveGroupRef(ents, g, ids) })
}}

//go:noinline
func addRemoveGroupRef(ents *refEntities, g *refGroup, ids []ecs.EntityID) {
	for _, id := range ids {
		if ents.isAlive(id) {
			g.addVel(id, Velocity{1, 2})
		}
	}
	for _, id := range ids {
		g.removeVel(id)
	}
}
