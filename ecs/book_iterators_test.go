package ecs_test

// The "Iterators" chapter: iterating the world directly, single views,
// joins of several views (in any order), ids alongside components (With
// Id), and Not filters. Order is unspecified, so results are compared as
// sets.

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// TestBookIterWorld follows the World snippet:
//
//	for (i, j) in &mut world.iter::<(&mut Pos, &Vel)>() { i.0 += j.0; }
func TestBookIterWorld(t *testing.T) {
	w := ecs.NewWorld()
	both, err := ecs.AddEntity2(w, Pos{1, 1}, Vel{10, 20})
	must(t, err)
	posOnly, err := ecs.AddEntity1(w, Pos{2, 2})
	must(t, err)
	velOnly, err := ecs.AddEntity1(w, Vel{5, 5})
	must(t, err)

	var visited []ecs.EntityID
	must(t, ecs.Each2(w, func(id ecs.EntityID, i *Pos, j *Vel) {
		visited = append(visited, id)
		i.X += j.X
	}))
	deepEqual(t, "visited", visited, []ecs.EntityID{both})
	p, err := ecs.Get[Pos](w, both)
	must(t, err)
	equal(t, "Pos of the entity with both", p, Pos{11, 1})
	p, err = ecs.Get[Pos](w, posOnly)
	must(t, err)
	equal(t, "Pos of the entity without Vel", p, Pos{2, 2})
	v, err := ecs.Get[Vel](w, velOnly)
	must(t, err)
	equal(t, "Vel of the entity without Pos", v, Vel{5, 5})

	// Each1 visits every component of one type.
	var ids []ecs.EntityID
	must(t, ecs.Each1(w, func(id ecs.EntityID, p *Pos) { ids = append(ids, id) }))
	sameSet(t, "Each1 over Pos", ids, []ecs.EntityID{both, posOnly})

	// Iterating from the world borrows everything: other World calls made
	// from inside fail with a borrow error instead of corrupting the
	// iteration.
	must(t, ecs.Each1(w, func(id ecs.EntityID, p *Pos) {
		_, err := ecs.AddEntity1(w, Pos{})
		errIs(t, err, ecs.ErrBorrowConflict)
	}))
	equal(t, "EntityCount", w.EntityCount(), 3)
}

// TestBookIterViews follows the Views snippet: a single view, then a join
// of a ViewMut and a View.
func TestBookIterViews(t *testing.T) {
	w := ecs.NewWorld()
	a, _ := ecs.AddEntity2(w, Pos{1, 0}, Vel{1, 0})
	b, _ := ecs.AddEntity2(w, Pos{2, 0}, Vel{10, 0})
	c, err := ecs.AddEntity1(w, Pos{3, 0})
	must(t, err)

	must(t, w.Run(func(vmPos ecs.ViewMut[Pos], vVel ecs.View[Vel]) {
		var xs []float32
		for i := range vmPos.All() {
			xs = append(xs, i.X)
		}
		sameSet(t, "single view", xs, []float32{1, 2, 3})

		for i, j := range ecs.Join2(vmPos, vVel).All() {
			i.X += j.X
		}
	}))
	for id, want := range map[ecs.EntityID]float32{a: 2, b: 12, c: 3} {
		p, err := ecs.Get[Pos](w, id)
		must(t, err)
		equal(t, fmt.Sprintf("Pos.X of %v", id), p.X, want)
	}
}

// TestBookIterAnyOrder: "you can use views in any order"; the join visits
// the same entities whichever view comes first and whichever storage is
// shorter.
func TestBookIterAnyOrder(t *testing.T) {
	w := ecs.NewWorld()
	var want []ecs.EntityID
	for i := range 30 {
		switch {
		case i%3 == 0:
			id, err := ecs.AddEntity2(w, Pos{float32(i), 0}, Vel{float32(i), 1})
			must(t, err)
			want = append(want, id)
		case i%3 == 1:
			_, err := ecs.AddEntity1(w, Pos{float32(i), 0})
			must(t, err)
		}
	}
	check := func(label string) {
		must(t, w.Run(func(vPos ecs.View[Pos], vVel ecs.View[Vel]) {
			var ab, ba []ecs.EntityID
			for id, r := range ecs.Join2(vPos, vVel).WithID() {
				equal(t, "components of one entity", r.A.X, r.B.X)
				ab = append(ab, id)
			}
			for id, r := range ecs.Join2(vVel, vPos).WithID() {
				equal(t, "components of one entity", r.A.X, r.B.X)
				ba = append(ba, id)
			}
			sameSet(t, label+": Join2(Pos, Vel)", ab, want)
			sameSet(t, label+": Join2(Vel, Pos)", ba, want)
		}))
	}
	check("Pos longer")
	// Make Vel the longer storage.
	for range 40 {
		_, err := ecs.AddEntity1(w, Vel{-1, -1})
		must(t, err)
	}
	check("Vel longer")
}

// TestBookIterWithID follows "With Id": each component comes with the id of
// the entity that owns it.
func TestBookIterWithID(t *testing.T) {
	w := ecs.NewWorld()
	owners := map[ecs.EntityID]Pos{}
	for i := range 5 {
		p := Pos{float32(i), float32(-i)}
		id, err := ecs.AddEntity1(w, p)
		must(t, err)
		owners[id] = p
	}
	must(t, w.Run(func(vPos ecs.View[Pos]) {
		got := map[ecs.EntityID]Pos{}
		for id, i := range vPos.WithID() {
			got[id] = *i
		}
		deepEqual(t, "WithID", got, owners)

		// Slice and IDs are the same pairs, aligned.
		ids, comps := vPos.IDs(), vPos.Slice()
		equal(t, "len(IDs) == len(Slice)", len(ids), len(comps))
		for k, id := range ids {
			equal(t, fmt.Sprintf("Slice[%d]", k), comps[k], owners[id])
		}
		// And the join form agrees.
		for id, i := range ecs.Join1(vPos).WithID() {
			equal(t, "Join1 WithID", *i, owners[id])
		}
	}))
	// The same through a ViewMut, whose pointers can be written.
	must(t, w.Run(func(vmPos ecs.ViewMut[Pos]) {
		for id, p := range vmPos.WithID() {
			equal(t, "ViewMut WithID", *p, owners[id])
			p.Y = 100
		}
		ids, comps := vmPos.IDs(), vmPos.Slice()
		equal(t, "ViewMut len(IDs) == len(Slice)", len(ids), len(comps))
		for k, id := range ids {
			equal(t, "ViewMut Slice", comps[k], Pos{owners[id].X, 100})
		}
	}))
}

// TestBookIterNot follows "Not": entities with Pos but no Vel.
func TestBookIterNot(t *testing.T) {
	w := ecs.NewWorld()
	type frozen struct{}
	plain, _ := ecs.AddEntity1(w, Pos{1, 1})
	_, _ = ecs.AddEntity2(w, Pos{2, 2}, Vel{})
	_, _ = ecs.AddEntity1(w, Vel{})
	ice, err := ecs.AddEntity2(w, Pos{3, 3}, frozen{})
	must(t, err)

	must(t, w.Run(func(vPos ecs.View[Pos], vVel ecs.View[Vel], vFrozen ecs.View[frozen]) {
		var got []ecs.EntityID
		for id := range ecs.Join1(vPos).Not(vVel).WithID() {
			got = append(got, id)
		}
		sameSet(t, "Pos without Vel", got, []ecs.EntityID{plain, ice})

		// Not with several filters excludes entities in any of them, and
		// chained Not calls add up.
		got = got[:0]
		for id := range ecs.Join1(vPos).Not(vVel, vFrozen).WithID() {
			got = append(got, id)
		}
		deepEqual(t, "Pos without Vel or frozen", got, []ecs.EntityID{plain})
		equal(t, "chained Not", ecs.Join1(vPos).Not(vVel).Not(vFrozen).Count(), 1)

		// Not returns a new iterator: the original is unfiltered.
		it := ecs.Join1(vPos)
		_ = it.Not(vVel)
		equal(t, "unfiltered count", it.Count(), 3)

		// Get honours the filter.
		_, ok := ecs.Join1(vPos).Not(vFrozen).Get(ice)
		isTrue(t, !ok, "Get returned an entity the Not filter excludes")
	}))
}

// TestBookIterEarlyBreak: breaking out of a range loop stops the iteration.
func TestBookIterEarlyBreak(t *testing.T) {
	w := ecs.NewWorld()
	_, err := ecs.BulkAddEntity2(w, make([]Pos, 10), make([]Vel, 10))
	must(t, err)
	must(t, w.Run(func(vPos ecs.View[Pos], vVel ecs.View[Vel]) {
		n := 0
		for range vPos.All() {
			n++
			if n == 3 {
				break
			}
		}
		equal(t, "items before break (View.All)", n, 3)
		n = 0
		for range ecs.Join2(vPos, vVel).WithID() {
			n++
			if n == 4 {
				break
			}
		}
		equal(t, "items before break (Join2.WithID)", n, 4)
	}))
}

// Friend and Player of the Square Eater, for move_friends.
type bookSquare struct{ X, Y, Size float32 }
type bookFriend struct{ bookSquare }
type bookPlayer struct{ bookSquare }

func (s bookSquare) center() (float32, float32) { return s.X + s.Size/2, s.Y + s.Size/2 }

// bookMoveFriends is the guide's move_friends: it iterates vmFriend once to
// compute directions, iterating it again inside that loop to find
// neighbours, then a third time to move.
func bookMoveFriends(player ecs.UniqueView[bookPlayer], vmFriend ecs.ViewMut[bookFriend]) {
	const speed = 1.5
	p := player.Get()
	dirs := make([][2]float32, vmFriend.Len())
	k := 0
	for friend := range vmFriend.All() {
		dir := &dirs[k]
		k++
		if friend.Size <= p.Size {
			continue
		}
		px, py := p.center()
		fx, fy := friend.center()
		dx, dy := px-fx, py-fy
		n := float32(math.Hypot(float64(dx), float64(dy)))
		if n != 0 {
			dx, dy = dx/n, dy/n
		}
		var nx, ny float32
		for neighbor := range vmFriend.All() {
			ox, oy := neighbor.center()
			if (fx-ox)*(fx-ox)+(fy-oy)*(fy-oy) < friend.Size*friend.Size/1.5 {
				nx += friend.X - neighbor.X
				ny += friend.Y - neighbor.Y
			}
		}
		*dir = [2]float32{dx*speed + nx*0.05, dy*speed + ny*0.05}
	}
	k = 0
	for friend := range vmFriend.All() {
		dir := dirs[k]
		k++
		friend.X += dir[0]
		friend.Y += dir[1]
	}
}

// moveFriendsModel is the same computation on a plain slice.
func moveFriendsModel(p bookPlayer, friends []bookFriend) []bookFriend {
	out := slices.Clone(friends)
	for i, f := range friends {
		if f.Size <= p.Size {
			continue
		}
		px, py := p.center()
		fx, fy := f.center()
		dx, dy := px-fx, py-fy
		n := float32(math.Hypot(float64(dx), float64(dy)))
		if n != 0 {
			dx, dy = dx/n, dy/n
		}
		var nx, ny float32
		for _, o := range friends {
			ox, oy := o.center()
			if (fx-ox)*(fx-ox)+(fy-oy)*(fy-oy) < f.Size*f.Size/1.5 {
				nx += f.X - o.X
				ny += f.Y - o.Y
			}
		}
		out[i].X += dx*1.5 + nx*0.05
		out[i].Y += dy*1.5 + ny*0.05
	}
	return out
}

// TestBookIterSameViewTwice runs the guide's move_friends, which iterates
// the same view several times, nested, in one system; the result must
// equal the same computation on a plain slice.
func TestBookIterSameViewTwice(t *testing.T) {
	w := ecs.NewWorld()
	must(t, ecs.AddUnique(w, bookPlayer{bookSquare{50, 50, 10}}))
	start := []bookFriend{
		{bookSquare{0, 0, 20}}, {bookSquare{5, 5, 20}}, {bookSquare{90, 10, 5}},
		{bookSquare{40, 80, 15}}, {bookSquare{42, 82, 25}},
	}
	ids, err := ecs.BulkAddEntity1(w, start)
	must(t, err)
	// The storage order is the order of the slice: read it back to feed
	// the model in the same order.
	var order []bookFriend
	var orderIDs []ecs.EntityID
	must(t, w.Run(func(v ecs.View[bookFriend]) {
		order = slices.Clone(v.Slice())
		orderIDs = slices.Clone(v.IDs())
	}))
	sameSet(t, "ids", orderIDs, ids)

	must(t, w.Run(bookMoveFriends))
	want := moveFriendsModel(bookPlayer{bookSquare{50, 50, 10}}, order)
	for k, id := range orderIDs {
		got, err := ecs.Get[bookFriend](w, id)
		must(t, err)
		isTrue(t, got == want[k], "friend %v: got %+v, want %+v", id, got, want[k])
	}
	// The small friend (size 5 <= 10) did not move.
	small, err := ecs.Get[bookFriend](w, ids[2])
	must(t, err)
	equal(t, "small friend", small, start[2])

	// Nested joins over the same views also work.
	must(t, w.Run(func(vFriend ecs.View[bookFriend], vmFriend ecs.ViewMut[c1]) {
		pairs := 0
		for range ecs.Join1(vFriend).All() {
			for range ecs.Join1(vFriend).All() {
				pairs++
			}
		}
		equal(t, "pairs", pairs, len(start)*len(start))
	}))
}

// jrec records what one join form yields.
type jrec struct {
	byID map[ecs.EntityID][8]int
	anon []int // entity numbers decoded from the values, for forms without ids
	dups int
}

func newJrec() *jrec { return &jrec{byID: map[ecs.EntityID][8]int{}} }

func (r *jrec) put(id ecs.EntityID, vals ...int) {
	var row [8]int
	copy(row[:], vals)
	if _, dup := r.byID[id]; dup {
		r.dups++
	}
	r.byID[id] = row
}

// putAnon records an entity known only by its component values: entity i's
// component cj holds i*10+j, so the values tell which entity they came
// from (and -1 marks values that do not belong to one entity).
func (r *jrec) putAnon(vals ...int) {
	i := vals[0] / 10
	for j, v := range vals {
		if v != i*10+j+1 {
			i = -1
		}
	}
	r.anon = append(r.anon, i)
}

// joinN joins the first k of the eight views with every form, excluding
// entities in not (if any).
func joinN(k int, v1 ecs.View[c1], v2 ecs.View[c2], v3 ecs.View[c3], v4 ecs.View[c4], v5 ecs.View[c5], v6 ecs.View[c6], v7 ecs.View[c7], v8 ecs.View[c8], not []ecs.Filter) (cursor, withID, eachWithID, all, each *jrec, count int, get func(ecs.EntityID) bool) {
	cursor, withID, eachWithID, all, each = newJrec(), newJrec(), newJrec(), newJrec(), newJrec()
	switch k {
	case 2:
		it := ecs.Join2(v1, v2).Not(not...)
		for cur := it; cur.Next(); {
			a, b := cur.Values()
			cursor.put(cur.ID(), a.V, b.V)
		}
		for id, r := range it.WithID() {
			withID.put(id, r.A.V, r.B.V)
		}
		it.EachWithID(func(id ecs.EntityID, a *c1, b *c2) { eachWithID.put(id, a.V, b.V) })
		for a, b := range it.All() {
			all.putAnon(a.V, b.V)
		}
		it.Each(func(a *c1, b *c2) { each.putAnon(a.V, b.V) })
		count = it.Count()
		get = func(id ecs.EntityID) bool { _, _, ok := it.Get(id); return ok }
	case 3:
		it := ecs.Join3(v1, v2, v3).Not(not...)
		for cur := it; cur.Next(); {
			a, b, c := cur.Values()
			cursor.put(cur.ID(), a.V, b.V, c.V)
		}
		for id, r := range it.WithID() {
			withID.put(id, r.A.V, r.B.V, r.C.V)
		}
		it.EachWithID(func(id ecs.EntityID, a *c1, b *c2, c *c3) { eachWithID.put(id, a.V, b.V, c.V) })
		for r := range it.All() {
			all.putAnon(r.A.V, r.B.V, r.C.V)
		}
		it.Each(func(a *c1, b *c2, c *c3) { each.putAnon(a.V, b.V, c.V) })
		count = it.Count()
		get = func(id ecs.EntityID) bool { _, _, _, ok := it.Get(id); return ok }
	case 4:
		it := ecs.Join4(v1, v2, v3, v4).Not(not...)
		for cur := it; cur.Next(); {
			a, b, c, d := cur.Values()
			cursor.put(cur.ID(), a.V, b.V, c.V, d.V)
		}
		for id, r := range it.WithID() {
			withID.put(id, r.A.V, r.B.V, r.C.V, r.D.V)
		}
		it.EachWithID(func(id ecs.EntityID, a *c1, b *c2, c *c3, d *c4) { eachWithID.put(id, a.V, b.V, c.V, d.V) })
		for r := range it.All() {
			all.putAnon(r.A.V, r.B.V, r.C.V, r.D.V)
		}
		it.Each(func(a *c1, b *c2, c *c3, d *c4) { each.putAnon(a.V, b.V, c.V, d.V) })
		count = it.Count()
		get = func(id ecs.EntityID) bool { _, _, _, _, ok := it.Get(id); return ok }
	case 5:
		it := ecs.Join5(v1, v2, v3, v4, v5).Not(not...)
		for cur := it; cur.Next(); {
			a, b, c, d, e := cur.Values()
			cursor.put(cur.ID(), a.V, b.V, c.V, d.V, e.V)
		}
		for id, r := range it.WithID() {
			withID.put(id, r.A.V, r.B.V, r.C.V, r.D.V, r.E.V)
		}
		it.EachWithID(func(id ecs.EntityID, a *c1, b *c2, c *c3, d *c4, e *c5) {
			eachWithID.put(id, a.V, b.V, c.V, d.V, e.V)
		})
		for r := range it.All() {
			all.putAnon(r.A.V, r.B.V, r.C.V, r.D.V, r.E.V)
		}
		it.Each(func(a *c1, b *c2, c *c3, d *c4, e *c5) { each.putAnon(a.V, b.V, c.V, d.V, e.V) })
		count = it.Count()
		get = func(id ecs.EntityID) bool { _, _, _, _, _, ok := it.Get(id); return ok }
	case 6:
		it := ecs.Join6(v1, v2, v3, v4, v5, v6).Not(not...)
		for cur := it; cur.Next(); {
			a, b, c, d, e, f := cur.Values()
			cursor.put(cur.ID(), a.V, b.V, c.V, d.V, e.V, f.V)
		}
		for id, r := range it.WithID() {
			withID.put(id, r.A.V, r.B.V, r.C.V, r.D.V, r.E.V, r.F.V)
		}
		it.EachWithID(func(id ecs.EntityID, a *c1, b *c2, c *c3, d *c4, e *c5, f *c6) {
			eachWithID.put(id, a.V, b.V, c.V, d.V, e.V, f.V)
		})
		for r := range it.All() {
			all.putAnon(r.A.V, r.B.V, r.C.V, r.D.V, r.E.V, r.F.V)
		}
		it.Each(func(a *c1, b *c2, c *c3, d *c4, e *c5, f *c6) { each.putAnon(a.V, b.V, c.V, d.V, e.V, f.V) })
		count = it.Count()
		get = func(id ecs.EntityID) bool { _, _, _, _, _, _, ok := it.Get(id); return ok }
	case 7:
		it := ecs.Join7(v1, v2, v3, v4, v5, v6, v7).Not(not...)
		for cur := it; cur.Next(); {
			a, b, c, d, e, f, g := cur.Values()
			cursor.put(cur.ID(), a.V, b.V, c.V, d.V, e.V, f.V, g.V)
		}
		for id, r := range it.WithID() {
			withID.put(id, r.A.V, r.B.V, r.C.V, r.D.V, r.E.V, r.F.V, r.G.V)
		}
		it.EachWithID(func(id ecs.EntityID, a *c1, b *c2, c *c3, d *c4, e *c5, f *c6, g *c7) {
			eachWithID.put(id, a.V, b.V, c.V, d.V, e.V, f.V, g.V)
		})
		for r := range it.All() {
			all.putAnon(r.A.V, r.B.V, r.C.V, r.D.V, r.E.V, r.F.V, r.G.V)
		}
		it.Each(func(a *c1, b *c2, c *c3, d *c4, e *c5, f *c6, g *c7) {
			each.putAnon(a.V, b.V, c.V, d.V, e.V, f.V, g.V)
		})
		count = it.Count()
		get = func(id ecs.EntityID) bool { _, _, _, _, _, _, _, ok := it.Get(id); return ok }
	case 8:
		it := ecs.Join8(v1, v2, v3, v4, v5, v6, v7, v8).Not(not...)
		for cur := it; cur.Next(); {
			a, b, c, d, e, f, g, h := cur.Values()
			cursor.put(cur.ID(), a.V, b.V, c.V, d.V, e.V, f.V, g.V, h.V)
		}
		for id, r := range it.WithID() {
			withID.put(id, r.A.V, r.B.V, r.C.V, r.D.V, r.E.V, r.F.V, r.G.V, r.H.V)
		}
		it.EachWithID(func(id ecs.EntityID, a *c1, b *c2, c *c3, d *c4, e *c5, f *c6, g *c7, h *c8) {
			eachWithID.put(id, a.V, b.V, c.V, d.V, e.V, f.V, g.V, h.V)
		})
		for r := range it.All() {
			all.putAnon(r.A.V, r.B.V, r.C.V, r.D.V, r.E.V, r.F.V, r.G.V, r.H.V)
		}
		it.Each(func(a *c1, b *c2, c *c3, d *c4, e *c5, f *c6, g *c7, h *c8) {
			each.putAnon(a.V, b.V, c.V, d.V, e.V, f.V, g.V, h.V)
		})
		count = it.Count()
		get = func(id ecs.EntityID) bool { _, _, _, _, _, _, _, _, ok := it.Get(id); return ok }
	}
	return
}

// eachN runs the World-level EachK over the first k types.
func eachN(t *testing.T, w *ecs.World, k int) *jrec {
	r := newJrec()
	var err error
	switch k {
	case 2:
		err = ecs.Each2(w, func(id ecs.EntityID, a *c1, b *c2) { r.put(id, a.V, b.V) })
	case 3:
		err = ecs.Each3(w, func(id ecs.EntityID, a *c1, b *c2, c *c3) { r.put(id, a.V, b.V, c.V) })
	case 4:
		err = ecs.Each4(w, func(id ecs.EntityID, a *c1, b *c2, c *c3, d *c4) { r.put(id, a.V, b.V, c.V, d.V) })
	case 5:
		err = ecs.Each5(w, func(id ecs.EntityID, a *c1, b *c2, c *c3, d *c4, e *c5) { r.put(id, a.V, b.V, c.V, d.V, e.V) })
	case 6:
		err = ecs.Each6(w, func(id ecs.EntityID, a *c1, b *c2, c *c3, d *c4, e *c5, f *c6) {
			r.put(id, a.V, b.V, c.V, d.V, e.V, f.V)
		})
	case 7:
		err = ecs.Each7(w, func(id ecs.EntityID, a *c1, b *c2, c *c3, d *c4, e *c5, f *c6, g *c7) {
			r.put(id, a.V, b.V, c.V, d.V, e.V, f.V, g.V)
		})
	case 8:
		err = ecs.Each8(w, func(id ecs.EntityID, a *c1, b *c2, c *c3, d *c4, e *c5, f *c6, g *c7, h *c8) {
			r.put(id, a.V, b.V, c.V, d.V, e.V, f.V, g.V, h.V)
		})
	}
	must(t, err)
	return r
}

// TestBookIterJoinArities joins 2 to 8 views, with and without a Not
// filter, over 512 entities holding every subset of the eight types (each
// twice), and checks that every form (cursor, WithID, EachWithID, All,
// Each, Count, and the World's EachK) yields exactly the entities that have
// all the joined components, each once, with their own components.
func TestBookIterJoinArities(t *testing.T) {
	w := ecs.NewWorld()
	ids := make([]ecs.EntityID, 512)
	masks := make([]int, 512)
	for i := range ids {
		// Shuffle the masks so that storages are not in id order.
		masks[i] = (i*37 + 11) % 256
		id, err := w.AddEntity()
		must(t, err)
		ids[i] = id
		m, v := masks[i], func(j int) int { return i*10 + j }
		for j, add := range []func() error{
			func() error { return ecs.AddComponent1(w, id, c1{v(1)}) },
			func() error { return ecs.AddComponent1(w, id, c2{v(2)}) },
			func() error { return ecs.AddComponent1(w, id, c3{v(3)}) },
			func() error { return ecs.AddComponent1(w, id, c4{v(4)}) },
			func() error { return ecs.AddComponent1(w, id, c5{v(5)}) },
			func() error { return ecs.AddComponent1(w, id, c6{v(6)}) },
			func() error { return ecs.AddComponent1(w, id, c7{v(7)}) },
			func() error { return ecs.AddComponent1(w, id, c8{v(8)}) },
		} {
			if m&(1<<j) != 0 {
				must(t, add())
			}
		}
	}
	expected := func(k int, notBit int) (map[ecs.EntityID][8]int, []int) {
		byID := map[ecs.EntityID][8]int{}
		var nums []int
		all := 1<<k - 1
		for i, m := range masks {
			if m&all != all || (notBit >= 0 && m&(1<<notBit) != 0) {
				continue
			}
			var row [8]int
			for j := range k {
				row[j] = i*10 + j + 1
			}
			byID[ids[i]] = row
			nums = append(nums, i)
		}
		return byID, nums
	}

	var v1 ecs.View[c1]
	var v2 ecs.View[c2]
	var v3 ecs.View[c3]
	var v4 ecs.View[c4]
	var v5 ecs.View[c5]
	var v6 ecs.View[c6]
	var v7 ecs.View[c7]
	var v8 ecs.View[c8]
	for k := 2; k <= 8; k++ {
		for _, withNot := range []bool{false, true} {
			if withNot && k == 8 {
				continue
			}
			t.Run(fmt.Sprintf("Join%d/not=%v", k, withNot), func(t *testing.T) {
				release, err := w.Borrow(&v1, &v2, &v3, &v4, &v5, &v6, &v7, &v8)
				must(t, err)
				notViews := []ecs.Filter{v1, v2, v3, v4, v5, v6, v7, v8}
				var not []ecs.Filter
				notBit := -1
				if withNot {
					not, notBit = []ecs.Filter{notViews[k]}, k
				}
				cursor, withID, eachWithID, all, each, count, get := joinN(k, v1, v2, v3, v4, v5, v6, v7, v8, not)
				want, nums := expected(k, notBit)
				badGet := 0
				for _, id := range ids {
					if _, in := want[id]; get(id) != in {
						badGet++
					}
				}
				equal(t, "ids for which Get disagrees with the join", badGet, 0)
				release()

				isTrue(t, len(want) > 0, "the join has no match: the test proves nothing")
				for name, r := range map[string]*jrec{"cursor": cursor, "WithID": withID, "EachWithID": eachWithID} {
					equal(t, name+" duplicates", r.dups, 0)
					if !maps.Equal(r.byID, want) {
						t.Errorf("%s: %d entities, want %d (or values differ)", name, len(r.byID), len(want))
					}
				}
				sameSet(t, "All", all.anon, nums)
				sameSet(t, "Each", each.anon, nums)
				equal(t, "Count", count, len(want))
				if !withNot {
					r := eachN(t, w, k)
					equal(t, "World Each duplicates", r.dups, 0)
					isTrue(t, maps.Equal(r.byID, want), "World Each%d: %d entities, want %d", k, len(r.byID), len(want))
				}
			})
		}
	}
}

// TestBookIterMixedViews: joins take View and ViewMut in any mix, and
// writes through the ViewMut's pointers stick.
func TestBookIterMixedViews(t *testing.T) {
	w := ecs.NewWorld()
	ids, err := ecs.BulkAddEntity3(w, []c1{{1}, {2}, {3}}, []c2{{10}, {20}, {30}}, []c3{{100}, {200}, {300}})
	must(t, err)
	must(t, w.Run(func(a ecs.View[c1], b ecs.ViewMut[c2], c ecs.View[c3]) {
		for r := range ecs.Join3(c, b, a).All() {
			r.B.V += r.A.V + r.C.V
		}
	}))
	for i, id := range ids {
		v, err := ecs.Get[c2](w, id)
		must(t, err)
		equal(t, "c2 after the join", v.V, (i+1)*10+(i+1)+(i+1)*100)
	}
}

// TestBookIterOptional follows the "Optional terms" snippets: a join with
// an Optional term visits the entities with its required components, and
// hands nil for the optional one where it is absent, in All, Get, Count
// and with Not.
func TestBookIterOptional(t *testing.T) {
	w := ecs.NewWorld()
	both, err := ecs.AddEntity2(w, Pos{1, 1}, Vel{1, 0})
	must(t, err)
	posOnly, err := ecs.AddEntity1(w, Pos{2, 2})
	must(t, err)
	velOnly, err := ecs.AddEntity1(w, Vel{9, 9})
	must(t, err)
	var pos ecs.ViewMut[Pos]
	var vel ecs.View[Vel]
	release, err := w.Borrow(&pos, &vel)
	must(t, err)
	defer release()
	got := map[ecs.EntityID]bool{}
	for id, r := range ecs.Join2(pos, ecs.Optional(vel)).WithID() {
		got[id] = r.B != nil
		if r.B != nil {
			r.A.X += r.B.X
		}
	}
	deepEqual(t, "visited (with Vel)", got, map[ecs.EntityID]bool{both: true, posOnly: false})
	p, _ := pos.Get(both)
	equal(t, "moved Pos", *p, Pos{2, 1})
	j := ecs.Join2(pos, ecs.Optional(vel))
	if _, v, ok := j.Get(posOnly); !ok || v != nil {
		t.Errorf("Get(posOnly) = %v, %v, want nil, true", v, ok)
	}
	if _, _, ok := j.Get(velOnly); ok {
		t.Error("Get(velOnly) found an entity without Pos")
	}
	equal(t, "Count", j.Count(), 2)
	equal(t, "Count with Not(vel)", j.Not(vel).Count(), 1)
	r := recovered(func() { ecs.Join1(ecs.Optional(vel)) })
	errIs(t, asError(r), ecs.ErrOnlyOptional)
}

// Acc is the third component of the "Or terms" snippets.
type Acc struct{ X, Y float32 }

// TestBookIterOr follows the "Or terms" snippets: a join with an Or term
// visits the entities with its other components and any of the Or's,
// telling which they have; Join1 of an Or is the union; Get, Optional of
// an Or, and an Or of an Optional term (ErrBadOr).
func TestBookIterOr(t *testing.T) {
	w := ecs.NewWorld()
	velOnly, err := ecs.AddEntity2(w, Pos{1, 1}, Vel{1, 0})
	must(t, err)
	accOnly, err := ecs.AddEntity2(w, Pos{2, 2}, Acc{0, 2})
	must(t, err)
	both, err := ecs.AddEntity3(w, Pos{3, 3}, Vel{1, 0}, Acc{0, 1})
	must(t, err)
	neither, err := ecs.AddEntity1(w, Pos{4, 4})
	must(t, err)
	noPos, err := ecs.AddEntity1(w, Vel{9, 9})
	must(t, err)
	var pos ecs.ViewMut[Pos]
	var vel ecs.View[Vel]
	var acc ecs.View[Acc]
	release, err := w.Borrow(&pos, &vel, &acc)
	must(t, err)
	defer release()
	got := map[ecs.EntityID]int{}
	for id, r := range ecs.Join2(pos, ecs.Or2(vel, acc)).WithID() {
		p, e := r.A, r.B
		if e.A != nil {
			p.X += e.A.X
		}
		if e.B != nil {
			p.Y += e.B.Y
		}
		got[id] = e.Count()
	}
	deepEqual(t, "visited (how many of Vel, Acc)", got, map[ecs.EntityID]int{velOnly: 1, accOnly: 1, both: 2})
	for id, want := range map[ecs.EntityID]Pos{velOnly: {2, 1}, accOnly: {2, 4}, both: {4, 4}, neither: {4, 4}} {
		p, _ := pos.Get(id)
		equal(t, fmt.Sprint("Pos of ", id), *p, want)
	}
	equal(t, "Join1(Or2(vel, acc)).Count", ecs.Join1(ecs.Or2(vel, acc)).Count(), 4)
	j := ecs.Join2(pos, ecs.Or2(vel, acc))
	if _, e, ok := j.Get(velOnly); !ok || e.A == nil || e.B != nil {
		t.Errorf("Get(velOnly) = %v, %v, want a Vel only", e, ok)
	}
	if _, _, ok := j.Get(neither); ok {
		t.Error("Get(neither) found an entity with neither Vel nor Acc")
	}
	if _, _, ok := j.Get(noPos); ok {
		t.Error("Get(noPos) found an entity without Pos")
	}
	equal(t, "Optional(Or2).Count", ecs.Join2(pos, ecs.Optional(ecs.Or2(vel, acc))).Count(), 4)
	r := recovered(func() { ecs.Or2(vel, ecs.Optional(acc)) })
	errIs(t, asError(r), ecs.ErrBadOr)
}
