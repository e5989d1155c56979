package ecs

import "strconv"

// Join terms: Or. An Or term joins as a storage of its own, its table:
// the union of its views' entities, each with an EitherN of pointers to
// the components it has, built afresh whenever an iteration of the join
// begins (viewCore.build). The join core sees an ordinary storage, so
// the generated join loops are those of plain views; marking goes
// through the table's orMarks (joinCore.markAt).

// Either2 is the item of an [Or2] join term: the components an entity has
// among the term's two views, nil where it has none (or where a [Changed]
// view refuses it). At least one is not nil.
type Either2[T1, T2 any] struct {
	A *T1
	B *T2
}

// Count returns how many of the components are present.
func (e *Either2[T1, T2]) Count() int { return present(e.A) + present(e.B) }

// Either3 is the item of an [Or3] join term: see [Either2].
type Either3[T1, T2, T3 any] struct {
	A *T1
	B *T2
	C *T3
}

// Count returns how many of the components are present.
func (e *Either3[T1, T2, T3]) Count() int { return present(e.A) + present(e.B) + present(e.C) }

// Either4 is the item of an [Or4] join term: see [Either2].
type Either4[T1, T2, T3, T4 any] struct {
	A *T1
	B *T2
	C *T3
	D *T4
}

// Count returns how many of the components are present.
func (e *Either4[T1, T2, T3, T4]) Count() int {
	return present(e.A) + present(e.B) + present(e.C) + present(e.D)
}

// present returns 1 if p is not nil, else 0.
func present[T any](p *T) int {
	if p == nil {
		return 0
	}
	return 1
}

// OrView2 is a join term that matches the entities having either of two
// components, made by [Or2]. It is a [Part] of every join, at any
// position; its item is a *[Either2].
type OrView2[T1, T2 any] struct {
	c1 *viewCore[T1]
	k1 partKey
	c2 *viewCore[T2]
	k2 partKey
}

// OrView3 is a join term that matches the entities having any of three
// components, made by [Or3]: see [OrView2].
type OrView3[T1, T2, T3 any] struct {
	c1 *viewCore[T1]
	k1 partKey
	c2 *viewCore[T2]
	k2 partKey
	c3 *viewCore[T3]
	k3 partKey
}

// OrView4 is a join term that matches the entities having any of four
// components, made by [Or4]: see [OrView2].
type OrView4[T1, T2, T3, T4 any] struct {
	c1 *viewCore[T1]
	k1 partKey
	c2 *viewCore[T2]
	k2 partKey
	c3 *viewCore[T3]
	k3 partKey
	c4 *viewCore[T4]
	k4 partKey
}

// Or2 makes a join term of two views ([View], [ViewMut], [Changed], or
// another Or term) that matches the entities having either component, and
// tells which they have:
//
//	for p, e := range ecs.Join2(pos, ecs.Or2(vel, acc)).All() {
//		if e.A != nil { ... } // the entity has a Vel
//		if e.B != nil { ... } // the entity has an Acc
//	}
//
// The join visits the entities that match its other terms and have at
// least one of the Or's components; a join of Or terms only visits the
// union of their storages, each entity once. The term composes with Not
// filters, WithID, [Optional] (Optional(Or2(a, b)) hands out nil where
// the entity has neither) and the other terms, at any arity and position.
//
// A [Changed] view under Or counts as present only where its component
// changed in the view's window. A [ViewMut] under Or marks modified only
// the components the join hands out: those of the entities it visits,
// where present.
//
// The term's table: when an iteration of the join begins (and when the
// join is made), the join builds a table of the entities having any of
// the components, with an *[Either2] for each, in time and memory in
// proportion to the views' lengths. The *Either2 a join hands out points
// into that table: read it while the views are borrowed and no component
// of these types is added or removed, and do not keep it past the
// iteration (setting its fields changes only the table). For the same
// reason a join with an Or term comes as one entity per run in
// [Iter2.Runs] and its siblings, [Iter2.Packed] reports false, and
// [Iter2.Get] builds a table at each call (look components up through
// the views when you can). Each iteration has a table of its own, so
// iterations of one join may run at once, as for any join.
//
// Or2 panics with an error wrapping [ErrBadOr] if a term is [Optional] or
// both views are of one storage; the join panics with [ErrReleased] if a
// view is not borrowed.
func Or2[P1 Part[T1], P2 Part[T2], T1, T2 any](v1 P1, v2 P2) OrView2[T1, T2] {
	var o OrView2[T1, T2]
	o.c1, o.k1 = v1.joinView()
	o.c2, o.k2 = v2.joinView()
	orCheck("Or2", o.k1, o.k2)
	return o
}

// Or3 makes a join term of three views that matches the entities having
// any of the three components, with an *[Either3] telling which: see
// [Or2].
func Or3[P1 Part[T1], P2 Part[T2], P3 Part[T3], T1, T2, T3 any](v1 P1, v2 P2, v3 P3) OrView3[T1, T2, T3] {
	var o OrView3[T1, T2, T3]
	o.c1, o.k1 = v1.joinView()
	o.c2, o.k2 = v2.joinView()
	o.c3, o.k3 = v3.joinView()
	orCheck("Or3", o.k1, o.k2, o.k3)
	return o
}

// Or4 makes a join term of four views that matches the entities having
// any of the four components, with an *[Either4] telling which: see
// [Or2].
func Or4[P1 Part[T1], P2 Part[T2], P3 Part[T3], P4 Part[T4], T1, T2, T3, T4 any](v1 P1, v2 P2, v3 P3, v4 P4) OrView4[T1, T2, T3, T4] {
	var o OrView4[T1, T2, T3, T4]
	o.c1, o.k1 = v1.joinView()
	o.c2, o.k2 = v2.joinView()
	o.c3, o.k3 = v3.joinView()
	o.c4, o.k4 = v4.joinView()
	orCheck("Or4", o.k1, o.k2, o.k3, o.k4)
	return o
}

// joinView gives each join its own core, whose storage is the table the
// join builds at each iteration.
func (o OrView2[T1, T2]) joinView() (*viewCore[Either2[T1, T2]], partKey) {
	c := &viewCore[Either2[T1, T2]]{}
	c.live = func() bool { return orLive(o.c1, o.k1) && orLive(o.c2, o.k2) }
	if c.live() {
		c.w = orWorld(o.c1.w, o.c2.w)
	}
	c.build = func() *sparseSet[Either2[T1, T2]] {
		s1, m1 := orMemberOf("Or2", 1, o.c1, o.k1)
		s2, m2 := orMemberOf("Or2", 2, o.c2, o.k2)
		return orBuild("Or2", []orMember{m1, m2}, func(e *Either2[T1, T2], at []int32) {
			e.A, e.B = elemAt(s1.data, int(at[0])), elemAt(s2.data, int(at[1]))
		})
	}
	return c, partKey{}
}

func (o OrView3[T1, T2, T3]) joinView() (*viewCore[Either3[T1, T2, T3]], partKey) {
	c := &viewCore[Either3[T1, T2, T3]]{}
	c.live = func() bool { return orLive(o.c1, o.k1) && orLive(o.c2, o.k2) && orLive(o.c3, o.k3) }
	if c.live() {
		c.w = orWorld(o.c1.w, o.c2.w, o.c3.w)
	}
	c.build = func() *sparseSet[Either3[T1, T2, T3]] {
		s1, m1 := orMemberOf("Or3", 1, o.c1, o.k1)
		s2, m2 := orMemberOf("Or3", 2, o.c2, o.k2)
		s3, m3 := orMemberOf("Or3", 3, o.c3, o.k3)
		return orBuild("Or3", []orMember{m1, m2, m3}, func(e *Either3[T1, T2, T3], at []int32) {
			e.A, e.B, e.C = elemAt(s1.data, int(at[0])), elemAt(s2.data, int(at[1])), elemAt(s3.data, int(at[2]))
		})
	}
	return c, partKey{}
}

func (o OrView4[T1, T2, T3, T4]) joinView() (*viewCore[Either4[T1, T2, T3, T4]], partKey) {
	c := &viewCore[Either4[T1, T2, T3, T4]]{}
	c.live = func() bool {
		return orLive(o.c1, o.k1) && orLive(o.c2, o.k2) && orLive(o.c3, o.k3) && orLive(o.c4, o.k4)
	}
	if c.live() {
		c.w = orWorld(o.c1.w, o.c2.w, o.c3.w, o.c4.w)
	}
	c.build = func() *sparseSet[Either4[T1, T2, T3, T4]] {
		s1, m1 := orMemberOf("Or4", 1, o.c1, o.k1)
		s2, m2 := orMemberOf("Or4", 2, o.c2, o.k2)
		s3, m3 := orMemberOf("Or4", 3, o.c3, o.k3)
		s4, m4 := orMemberOf("Or4", 4, o.c4, o.k4)
		return orBuild("Or4", []orMember{m1, m2, m3, m4}, func(e *Either4[T1, T2, T3, T4], at []int32) {
			e.A, e.B = elemAt(s1.data, int(at[0])), elemAt(s2.data, int(at[1]))
			e.C, e.D = elemAt(s3.data, int(at[2])), elemAt(s4.data, int(at[3]))
		})
	}
	return c, partKey{}
}

// orLive reports whether the view of an Or term whose core is c and kind
// k is borrowed as it was when the term was made (for a nested Or term,
// whether its own views are).
func orLive[T any](c *viewCore[T], k partKey) bool {
	if c == nil {
		return false
	}
	if c.live != nil {
		return c.live()
	}
	return c.s != nil && c.epoch == k.epoch
}

// orWorld returns the world of the views of an Or term, or nil if they
// are of several worlds: the join runs ParEach on its pool.
func orWorld(ws ...*World) *World {
	for _, w := range ws[1:] {
		if w != ws[0] {
			return nil
		}
	}
	return ws[0]
}

// orCheck panics with errBadOr if a term of the Or made by op is
// Optional.
func orCheck(op string, keys ...partKey) {
	for i, k := range keys {
		if k.opt {
			panic(&argError{op: "ecs." + op, what: "term " + strconv.Itoa(i+1) + " is Optional: an Or matches the entities that have any of its terms, which an Optional term does not say; make the Or itself Optional instead (ecs.Optional(ecs." + op + "(...)))", kind: ErrBadOr})
		}
	}
}

// orMember is one view of an Or term, type-free: its storage, and what
// the view does with its tracking. sub is the table's marks when the
// view is itself an Or term.
type orMember struct {
	ix  *sparseIndex
	tr  *stamps
	op  opTrack
	sub *orMarks
}

// orMemberOf returns the storage of term i (from 1) of the Or made by op,
// c being its view's core and k its kind, and the term as an orMember. It
// panics with an error wrapping ErrReleased if the view is not borrowed.
func orMemberOf[T any](op string, i int, c *viewCore[T], k partKey) (*sparseSet[T], orMember) {
	if c == nil || (c.build == nil && (c.s == nil || c.epoch != k.epoch)) {
		panic(&argError{op: "ecs." + op, what: "term " + strconv.Itoa(i) + ", a view of " + typeName(typeOf[T]()) + ", is not borrowed (a zero view, or used after its system returned or its Borrow was released)", kind: ErrReleased})
	}
	s := c.store(k.epoch)
	m := orMember{ix: &s.sparseIndex, sub: s.or}
	if s.track != nil {
		m.tr, m.op = &s.track.stamps, c.trackOp(k)
	}
	return s, m
}

// has reports whether the component at position p counts as present:
// where the view is a Changed filter, whether it changed in its window.
func (m *orMember) has(p int) bool { return m.op.filter == 0 || m.tr.admits(&m.op, p) }

// find returns the position of id's component, or -1 if it has none or
// the component does not count as present.
func (m *orMember) find(id EntityID) int {
	if p := m.ix.pos(id); p >= 0 && m.has(p) {
		return p
	}
	return -1
}

// orBuild builds the table of an Or term of the views ms (made by op):
// the entities of the first view, then those of each later view that no
// earlier one has, each once, with fill giving each its item from its
// positions in the views (-1: absent).
func orBuild[E any](op string, ms []orMember, fill func(e *E, at []int32)) *sparseSet[E] {
	for i := range ms {
		for j := range i {
			if ms[i].ix == ms[j].ix {
				panic(&argError{op: "ecs." + op, what: "terms " + strconv.Itoa(j+1) + " and " + strconv.Itoa(i+1) + " are views of the same storage: an Or takes views of different component types", kind: ErrBadOr})
			}
		}
	}
	n, total := len(ms), 0
	for i := range ms {
		total += len(ms[i].ix.dense)
	}
	// At most total entities: grown once, not by appends.
	ids := make([]EntityID, 0, total)
	at := make([]int32, 0, total*n)
	for i := range ms {
		m := &ms[i]
	next:
		for p, id := range m.ix.dense {
			if !m.has(p) {
				continue
			}
			for j := range i {
				if ms[j].find(id) >= 0 {
					continue next
				}
			}
			for j := range ms {
				switch {
				case j < i:
					at = append(at, -1)
				case j == i:
					at = append(at, int32(p))
				default:
					at = append(at, int32(ms[j].find(id)))
				}
			}
			ids = append(ids, id)
		}
	}
	vals := make([]E, len(ids))
	for k := range vals {
		fill(&vals[k], at[k*n:][:n])
	}
	s := &sparseSet[E]{name: "ecs." + op}
	s.bulkInsert(ids, vals)
	s.or = &orMarks{ms: ms, at: at}
	return s
}

// orMarks is what marking the components of an Or term's table marks:
// for the entry at position p, the components at at[p*len(ms)+i] of the
// views ms[i] that mark what they hand out.
type orMarks struct {
	ms []orMember
	at []int32
}

// marks reports whether any of the views marks what it hands out.
func (o *orMarks) marks() bool {
	for i := range o.ms {
		if m := &o.ms[i]; m.op.mark || (m.sub != nil && m.sub.marks()) {
			return true
		}
	}
	return false
}

// mark marks modified the components of entry p that the views mark.
func (o *orMarks) mark(p int) {
	n := len(o.ms)
	for i := range o.ms {
		x := int(o.at[p*n+i])
		if x < 0 {
			continue
		}
		switch m := &o.ms[i]; {
		case m.op.mark:
			m.tr.mark(x)
		case m.sub != nil:
			m.sub.mark(x)
		}
	}
}
