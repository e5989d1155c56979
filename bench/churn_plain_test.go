package bench

import (
	"math/rand/v2"
	"testing"
)

// FrameChurn's plain baseline: the frame without an ECS, as a Go program
// that keeps its movers and others in two tables of slices would write it.
// An entity is an index and a generation; its index says which table holds
// it and at which row. Taking a mover's Velocity moves its row from the
// moving table to the still one, giving it back moves it back; deleting
// swaps the last row of the table into the hole, bumps the generation and
// pushes the index on a free list, from which creating takes indices
// first. The frame draws the same random numbers as Slipway's, so both
// change the same share of the world, and the query is a loop over the
// moving table's two slices.

// plainEntity is an entity of the plain baseline.
type plainEntity struct{ index, gen uint32 }

// plainTable is a table of rows: the entities' indices and their
// components (vel is empty in the still table).
type plainTable struct {
	index []uint32
	pos   []Position
	vel   []Velocity
}

// plainSlot is an index's entry: its live generation, and where its
// entity is (its table and row), side by side so that one cache line
// answers both.
type plainSlot struct {
	gen    uint32
	row    int32
	moving bool
}

// plainChurnWorld is the plain baseline's world.
type plainChurnWorld struct {
	slots         []plainSlot
	free          []uint32 // indices deleted and not yet reused, the last reused first
	moving, still plainTable
}

func (w *plainChurnWorld) table(moving bool) *plainTable {
	if moving {
		return &w.moving
	}
	return &w.still
}

// push appends a row for index to the table moving says, and records it.
func (w *plainChurnWorld) push(index uint32, moving bool, p Position, v Velocity) {
	t := w.table(moving)
	w.slots[index].moving, w.slots[index].row = moving, int32(len(t.index))
	t.index = append(t.index, index)
	t.pos = append(t.pos, p)
	if moving {
		t.vel = append(t.vel, v)
	}
}

// cut removes index's row by moving the table's last row into it, and
// returns the row's components.
func (w *plainChurnWorld) cut(index uint32) (Position, Velocity) {
	loc := w.slots[index]
	t := w.table(loc.moving)
	r, last := int(loc.row), len(t.index)-1
	p := t.pos[r]
	var v Velocity
	if loc.moving {
		v = t.vel[r]
		t.vel[r] = t.vel[last]
		t.vel = t.vel[:last]
	}
	t.pos[r] = t.pos[last]
	t.pos = t.pos[:last]
	moved := t.index[last]
	t.index[r] = moved
	t.index = t.index[:last]
	w.slots[moved].row = int32(r)
	return p, v
}

func (w *plainChurnWorld) alive(e plainEntity) bool {
	return int(e.index) < len(w.slots) && w.slots[e.index].gen == e.gen
}

// create makes an entity with the Position p, in the still table.
func (w *plainChurnWorld) create(p Position) plainEntity {
	var index uint32
	if k := len(w.free); k > 0 {
		index = w.free[k-1]
		w.free = w.free[:k-1]
	} else {
		index = uint32(len(w.slots))
		w.slots = append(w.slots, plainSlot{})
	}
	w.push(index, false, p, Velocity{})
	return plainEntity{index, w.slots[index].gen}
}

// remove deletes e; it reports whether e was alive.
func (w *plainChurnWorld) remove(e plainEntity) bool {
	if !w.alive(e) {
		return false
	}
	w.cut(e.index)
	w.slots[e.index].gen++
	w.free = append(w.free, e.index)
	return true
}

// loseVelocity moves e to the still table; it reports whether e had a
// Velocity to lose.
func (w *plainChurnWorld) loseVelocity(e plainEntity) bool {
	if !w.alive(e) || !w.slots[e.index].moving {
		return false
	}
	p, _ := w.cut(e.index)
	w.push(e.index, false, p, Velocity{})
	return true
}

// giveVelocity moves e to the moving table with the Velocity v.
func (w *plainChurnWorld) giveVelocity(e plainEntity, v Velocity) bool {
	if !w.alive(e) || w.slots[e.index].moving {
		return false
	}
	p, _ := w.cut(e.index)
	w.push(e.index, true, p, v)
	return true
}

// move is the query: every mover's Position moves by its Velocity.
func (w *plainChurnWorld) move() {
	ps, vs := w.moving.pos, w.moving.vel[:len(w.moving.pos)]
	for i := range ps {
		ps[i].X += vs[i].X
		ps[i].Y += vs[i].Y
	}
}

// plainFrameChurn is the state of the plain baseline's frames, the plain
// twin of frameChurn.
type plainFrameChurn struct {
	w      plainChurnWorld
	rng    *rand.Rand
	movers []plainEntity
	others []plainEntity
	km, ko int

	lost   []plainEntity
	doomed []int
	taken  []uint64
}

// newPlainFrameChurn builds the world of Query2Comp in the plain
// baseline: n movers, then 10n others.
func newPlainFrameChurn(n int) *plainFrameChurn {
	f := &plainFrameChurn{rng: newChurnRand()}
	ps := column[Position](n)
	for i := range n {
		e := f.w.create(ps[i])
		f.w.giveVelocity(e, Velocity{1, 2})
		f.movers = append(f.movers, e)
	}
	for range 10 {
		for i := range n {
			f.others = append(f.others, f.w.create(ps[i]))
		}
	}
	f.taken = make([]uint64, (len(f.others)+63)/64)
	f.km, f.ko = frameShares(n)
	f.lost, f.doomed = make([]plainEntity, 0, f.km), make([]int, 0, f.ko)
	return f
}

// frame runs one frame: the same changes as frameChurn.frame, in the same
// order, then the query. It reports whether every change found its entity
// as expected.
func (f *plainFrameChurn) frame() bool {
	ok := true
	f.lost = f.lost[:0]
	for range f.km {
		if e := f.movers[f.rng.IntN(len(f.movers))]; f.w.loseVelocity(e) {
			f.lost = append(f.lost, e)
		}
	}
	f.doomed = f.doomed[:0]
	for len(f.doomed) < f.ko {
		i := f.rng.IntN(len(f.others))
		if bit := uint64(1) << (i % 64); f.taken[i/64]&bit == 0 {
			f.taken[i/64] |= bit
			f.doomed = append(f.doomed, i)
		}
	}
	for _, i := range f.doomed {
		ok = f.w.remove(f.others[i]) && ok
	}
	for _, i := range f.doomed {
		f.others[i] = f.w.create(Position{1, 1})
		f.taken[i/64] = 0
	}
	for i := len(f.lost) - 1; i >= 0; i-- {
		ok = f.w.giveVelocity(f.lost[i], Velocity{1, 2}) && ok
	}
	f.w.move()
	return ok
}

// plainFrameChurnImpl is FrameChurn's plain baseline.
var plainFrameChurnImpl = impl{"plain", func(b *testing.B, n int) {
	f := newPlainFrameChurn(n)
	for range frameWarmUp {
		f.frame()
	}
	ok := true
	measure(b, n, func() { ok = f.frame() && ok })
	if !ok {
		b.Fatal("a change of the plain frame did not find its entity")
	}
	if got := len(f.w.moving.pos); got != n {
		b.Fatalf("the last plain frame's query visited %d entities, want %d", got, n)
	}
}}

// TestPlainFrameChurn checks the plain baseline against a model: after
// frames, the tables hold exactly the live entities, each in the table
// its Velocity says, each row pointing back at its index, and the movers
// moved once per frame.
func TestPlainFrameChurn(t *testing.T) {
	const n, frames = 200, 30
	f := newPlainFrameChurn(n)
	for k := range frames {
		if !f.frame() {
			t.Fatalf("frame %d: a change did not find its entity", k)
		}
	}
	w := &f.w
	if got := len(w.moving.index); got != n {
		t.Fatalf("%d movers after the frames, want %d", got, n)
	}
	if got := len(w.still.index); got != 10*n {
		t.Fatalf("%d others after the frames, want %d", got, 10*n)
	}
	for _, moving := range []bool{true, false} {
		tab := w.table(moving)
		for r, index := range tab.index {
			if loc := w.slots[index]; loc.moving != moving || int(loc.row) != r {
				t.Fatalf("row %d of the table (moving %v) holds index %d, whose location is %+v", r, moving, index, loc)
			}
		}
	}
	ps := column[Position](n)
	for i, e := range f.movers {
		loc := w.slots[e.index]
		if !w.alive(e) || !loc.moving {
			t.Fatalf("mover %d is not a live mover: %+v", i, loc)
		}
		// Velocity {1, 2} added once a frame, losing and regaining it
		// keeping the Position.
		want := Position{ps[i].X + frames, ps[i].Y + 2*frames}
		if got := w.moving.pos[loc.row]; got != want {
			t.Fatalf("mover %d at %v after %d frames, want %v", i, got, frames, want)
		}
	}
	for _, e := range f.others {
		if !w.alive(e) || w.slots[e.index].moving {
			t.Fatalf("other %+v is not a live entity of the still table", e)
		}
	}
	if got := len(w.slots) - len(w.free); got != 11*n {
		t.Fatalf("%d live indices, want %d", got, 11*n)
	}
}
