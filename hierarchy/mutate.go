package hierarchy

import (
	"fmt"
	"slices"

	"github.com/slipway-ecs/slipway/ecs"
)

// Every change below is made in two phases: first it checks its arguments
// and every link it will follow or rewrite (and returns an *Error if one is
// wrong), then it rewrites the links, with no check left that could fail
// halfway. That is what lets a refused change leave everything as it was.

// Attach makes id the last child of parent. If id already has a parent, it is
// detached from it first (even when that parent is parent: id then moves to
// the end of the chain). id keeps its own children, so Attach moves a whole
// subtree, in the same inner order.
//
// It returns an [*Error], and changes nothing, if id or parent is not alive
// (wrapping [ecs.ErrDeadEntity]), if parent is id or one of id's descendants
// (wrapping [ErrCycle]), or if a link it would follow is broken (wrapping a
// [*LinkError]).
func (v ViewMut) Attach(id, parent ecs.EntityID) error {
	fail := func(err error) error { return &Error{Op: "Attach", ID: id, Parent: parent, Err: err} }
	r := v.r()
	if !r.alive.IsAlive(id) {
		return fail(deadError{"entity", id})
	}
	if !r.alive.IsAlive(parent) {
		return fail(deadError{"parent", parent})
	}
	if id == parent {
		return fail(fmt.Errorf("an entity cannot be its own parent: %w", ErrCycle))
	}
	found := false
	err := r.ancestors(parent, func(a ecs.EntityID) bool {
		found = a == id
		return !found
	})
	if err != nil {
		return fail(err)
	}
	if found {
		return fail(fmt.Errorf("the parent %v is a descendant of %v: %w", parent, id, ErrCycle))
	}
	c, attached := v.childOf(id)
	if attached {
		if err := v.checkDetach(id, c); err != nil {
			return fail(err)
		}
	}
	if err := v.checkChain(parent); err != nil {
		return fail(err)
	}
	if attached {
		v.unlink(id, c)
	}
	v.link(id, parent)
	return nil
}

// AttachNew creates an entity with no component and attaches it as the last
// child of parent, returning its id. It returns an [*Error], and creates
// nothing, if parent is not alive or the end of its chain of children is
// broken.
func (v ViewMut) AttachNew(parent ecs.EntityID) (ecs.EntityID, error) {
	fail := func(err error) error { return &Error{Op: "AttachNew", ID: ecs.NullID, Parent: parent, Err: err} }
	if !v.Entities.IsAlive(parent) {
		return ecs.NullID, fail(deadError{"parent", parent})
	}
	if err := v.checkChain(parent); err != nil {
		return ecs.NullID, fail(err)
	}
	id := v.Entities.AddEntity()
	v.link(id, parent)
	return id, nil
}

// Detach takes id out of its parent's children, making it a root (if it has
// children) or an entity outside any tree. Its own children stay with it.
// An entity with no parent is left as it is. The parent loses its Parent
// component with its last child.
//
// It returns an [*Error], and changes nothing, if id is not alive or a link
// it would rewrite is broken.
func (v ViewMut) Detach(id ecs.EntityID) error {
	fail := func(err error) error { return &Error{Op: "Detach", ID: id, Parent: ecs.NullID, Err: err} }
	if !v.Entities.IsAlive(id) {
		return fail(deadError{"entity", id})
	}
	c, attached := v.childOf(id)
	if !attached {
		return nil
	}
	if err := v.checkDetach(id, c); err != nil {
		return fail(err)
	}
	v.unlink(id, c)
	return nil
}

// Remove takes id out of the hierarchy: it detaches id from its parent and
// its children from id, which makes each child a root or an entity outside
// any tree (their own children stay with them). The entities stay alive.
//
// It returns an [*Error], and changes nothing, if id is not alive or a link
// it would rewrite is broken.
func (v ViewMut) Remove(id ecs.EntityID) error {
	fail := func(err error) error { return &Error{Op: "Remove", ID: id, Parent: ecs.NullID, Err: err} }
	c, attached, kids, err := v.prepare(id)
	if err != nil {
		return fail(err)
	}
	if attached {
		v.unlink(id, c)
	}
	v.orphan(id, kids)
	return nil
}

// RemoveAll takes id and all its descendants out of the hierarchy: it
// detaches id from its parent and removes the Parent and Child components of
// the whole subtree. The entities stay alive.
//
// It returns an [*Error], and changes nothing, if id is not alive or a link
// in the subtree (or next to id) is broken.
func (v ViewMut) RemoveAll(id ecs.EntityID) error {
	sub, err := v.subtree("RemoveAll", id)
	if err != nil {
		return err
	}
	for _, d := range sub {
		v.ChildView.Delete(d)
		v.ParentView.Delete(d)
	}
	return nil
}

// DeleteSubtree deletes id and all its descendants, and returns how many
// entities it deleted. The subtree is first detached from id's parent, so
// the rest of the hierarchy stays sound.
//
// The entities are deleted with [ecs.EntitiesViewMut.DeleteUnchecked]: they
// are dead at once, and their components of other types are purged at the
// world's next change (see there).
//
// It returns an [*Error], and changes nothing, if id is not alive or a link
// in the subtree (or next to id) is broken.
func (v ViewMut) DeleteSubtree(id ecs.EntityID) (int, error) {
	sub, err := v.subtree("DeleteSubtree", id)
	if err != nil {
		return 0, err
	}
	for _, d := range sub {
		v.ChildView.Delete(d)
		v.ParentView.Delete(d)
		v.Entities.DeleteUnchecked(d)
	}
	return len(sub), nil
}

// Delete deletes id and mends the hierarchy around it:
//
//   - its children take its place among its siblings, in their order, as
//     children of id's parent (so the parent's children stay in order:
//     deleting b from a, b, c where b has children x, y leaves a, x, y, c);
//   - if id has no parent, its children become roots (or leave the
//     hierarchy, those without children of their own);
//   - its siblings are linked to each other, or to its children.
//
// Every other entity stays where it was, with its own subtree. To delete the
// children too, use [ViewMut.DeleteSubtree].
//
// The entity is deleted with [ecs.EntitiesViewMut.DeleteUnchecked]: it is
// dead at once, and its components of other types are purged at the world's
// next change (see there).
//
// It returns an [*Error], and changes nothing, if id is not alive or a link
// it would rewrite is broken.
func (v ViewMut) Delete(id ecs.EntityID) error {
	fail := func(err error) error { return &Error{Op: "Delete", ID: id, Parent: ecs.NullID, Err: err} }
	c, attached, kids, err := v.prepare(id)
	if err != nil {
		return fail(err)
	}
	switch {
	case !attached:
		v.orphan(id, kids)
	case len(kids) == 0:
		v.unlink(id, c)
	default:
		// Splice the chain of id's children into the chain of its siblings,
		// in id's place.
		for _, k := range kids {
			v.ChildView.MustGet(k).Parent = c.Parent
		}
		first, last := kids[0], kids[len(kids)-1]
		p := v.ParentView.MustGet(c.Parent)
		if p.NumChildren > 1 {
			v.ChildView.MustGet(c.Prev).Next = first
			v.ChildView.MustGet(first).Prev = c.Prev
			v.ChildView.MustGet(c.Next).Prev = last
			v.ChildView.MustGet(last).Next = c.Next
		} // else id was alone: its children's chain is already closed
		if p.FirstChild == id {
			p.FirstChild = first
		}
		p.NumChildren += len(kids) - 1
		v.ChildView.Delete(id)
		v.ParentView.Delete(id)
	}
	v.Entities.DeleteUnchecked(id)
	return nil
}

// SortChildren orders id's children by less (a strict order, as for
// [slices.SortStableFunc]): the chain then starts with the least child.
// Children less does not order keep their order. The children keep their own
// subtrees.
//
// It returns an [*Error], and changes nothing, if id is not alive, less is
// nil (wrapping [ecs.ErrNilFunc]), or the chain of children is broken.
func (v ViewMut) SortChildren(id ecs.EntityID, less func(a, b ecs.EntityID) bool) error {
	fail := func(err error) error { return &Error{Op: "SortChildren", ID: id, Parent: ecs.NullID, Err: err} }
	if less == nil {
		return fail(fmt.Errorf("less is nil: %w", ecs.ErrNilFunc))
	}
	if !v.Entities.IsAlive(id) {
		return fail(deadError{"entity", id})
	}
	kids, err := v.collectChildren(id)
	if err != nil {
		return fail(err)
	}
	if len(kids) < 2 {
		return nil
	}
	slices.SortStableFunc(kids, func(a, b ecs.EntityID) int {
		switch {
		case less(a, b):
			return -1
		case less(b, a):
			return 1
		}
		return 0
	})
	v.ParentView.MustGet(id).FirstChild = kids[0]
	for i, k := range kids {
		c := v.ChildView.MustGet(k)
		c.Prev = kids[(i+len(kids)-1)%len(kids)]
		c.Next = kids[(i+1)%len(kids)]
	}
	return nil
}

// childOf returns a copy of id's Child component, if it has one.
func (v ViewMut) childOf(id ecs.EntityID) (Child, bool) {
	if c, ok := v.ChildView.Get(id); ok {
		return *c, true
	}
	return Child{}, false
}

// checkDetach checks the links that unlink(id, c) rewrites: id's parent and,
// if it has siblings, the siblings on either side.
func (v ViewMut) checkDetach(id ecs.EntityID, c Child) error {
	r := v.r()
	p, err := r.parent(id, c.Parent)
	if err != nil {
		return err
	}
	if p.NumChildren == 1 {
		if c.Prev != id || c.Next != id || p.FirstChild != id {
			return brokenLink(c.Parent, "Parent.NumChildren", ecs.NullID, "NumChildren is 1, but %v is not the only child", id)
		}
		return nil
	}
	if c.Prev == id || c.Next == id {
		return brokenLink(id, "Child.Next", c.Next, "the entity is its own sibling, but its parent has %d children", p.NumChildren)
	}
	prev, err := r.child(id, "Child.Prev", c.Prev)
	if err != nil {
		return err
	}
	if prev.Parent != c.Parent || prev.Next != id {
		return brokenLink(id, "Child.Prev", c.Prev, "the sibling's parent and Next are %v and %v", prev.Parent, prev.Next)
	}
	next, err := r.child(id, "Child.Next", c.Next)
	if err != nil {
		return err
	}
	if next.Parent != c.Parent || next.Prev != id {
		return brokenLink(id, "Child.Next", c.Next, "the sibling's parent and Prev are %v and %v", next.Parent, next.Prev)
	}
	return nil
}

// checkChain checks the links that link(id, parent) rewrites: the first and
// last children of parent, if it has any.
func (v ViewMut) checkChain(parent ecs.EntityID) error {
	p, ok := v.ParentView.Get(parent)
	if !ok {
		return nil
	}
	if p.NumChildren <= 0 {
		return brokenLink(parent, "Parent.NumChildren", ecs.NullID, "NumChildren is %d", p.NumChildren)
	}
	r := v.r()
	first, err := r.child(parent, "Parent.FirstChild", p.FirstChild)
	if err != nil {
		return err
	}
	if first.Parent != parent {
		return brokenLink(parent, "Parent.FirstChild", p.FirstChild, "the child's parent is %v", first.Parent)
	}
	last, err := r.child(p.FirstChild, "Child.Prev", first.Prev)
	if err != nil {
		return err
	}
	if last.Parent != parent || last.Next != p.FirstChild {
		return brokenLink(p.FirstChild, "Child.Prev", first.Prev, "the sibling's parent and Next are %v and %v", last.Parent, last.Next)
	}
	return nil
}

// collectChildren returns id's children, checking the whole chain.
func (v ViewMut) collectChildren(id ecs.EntityID) ([]ecs.EntityID, error) {
	var kids []ecs.EntityID
	_, err := v.r().childrenOf(id, func(k ecs.EntityID) bool {
		kids = append(kids, k)
		return true
	})
	return kids, err
}

// prepare checks what Remove and Delete need: id is alive, the links to its
// parent and siblings are sound, and so is the chain of its children, which it
// returns.
func (v ViewMut) prepare(id ecs.EntityID) (c Child, attached bool, kids []ecs.EntityID, err error) {
	if !v.Entities.IsAlive(id) {
		return Child{}, false, nil, deadError{"entity", id}
	}
	c, attached = v.childOf(id)
	if attached {
		if err := v.checkDetach(id, c); err != nil {
			return Child{}, false, nil, err
		}
	}
	kids, err = v.collectChildren(id)
	if err != nil {
		return Child{}, false, nil, err
	}
	return c, attached, kids, nil
}

// subtree checks and detaches id, and returns id with all its descendants,
// for RemoveAll and DeleteSubtree.
func (v ViewMut) subtree(op string, id ecs.EntityID) ([]ecs.EntityID, error) {
	fail := func(err error) error { return &Error{Op: op, ID: id, Parent: ecs.NullID, Err: err} }
	if !v.Entities.IsAlive(id) {
		return nil, fail(deadError{"entity", id})
	}
	c, attached := v.childOf(id)
	if attached {
		if err := v.checkDetach(id, c); err != nil {
			return nil, fail(err)
		}
	}
	sub := []ecs.EntityID{id}
	err := v.r().descendants(id, func(d ecs.EntityID) bool {
		sub = append(sub, d)
		return true
	})
	if err != nil {
		return nil, fail(err)
	}
	if attached {
		v.unlink(id, c)
	}
	return sub, nil
}

// unlink takes id, whose Child is c, out of its parent's chain, and deletes
// its Child component. The links were checked by checkDetach.
func (v ViewMut) unlink(id ecs.EntityID, c Child) {
	p := v.ParentView.MustGet(c.Parent)
	p.NumChildren--
	if p.NumChildren == 0 {
		v.ParentView.Delete(c.Parent)
	} else {
		if p.FirstChild == id {
			p.FirstChild = c.Next
		}
		v.ChildView.MustGet(c.Prev).Next = c.Next
		v.ChildView.MustGet(c.Next).Prev = c.Prev
	}
	v.ChildView.Delete(id)
}

// link makes id, which has no parent, the last child of parent. The links
// were checked by checkChain.
func (v ViewMut) link(id, parent ecs.EntityID) {
	if p, ok := v.ParentView.Get(parent); ok {
		first := p.FirstChild
		p.NumChildren++
		last := v.ChildView.MustGet(first).Prev
		v.ChildView.MustGet(last).Next = id
		v.ChildView.MustGet(first).Prev = id
		mustAdd(v.ChildView, id, Child{Parent: parent, Prev: last, Next: first})
		return
	}
	mustAdd(v.ChildView, id, Child{Parent: parent, Prev: id, Next: id})
	mustAdd(v.ParentView, parent, Parent{NumChildren: 1, FirstChild: id})
}

// orphan deletes the Child components of id's children, kids, and id's
// Parent component.
func (v ViewMut) orphan(id ecs.EntityID, kids []ecs.EntityID) {
	for _, k := range kids {
		v.ChildView.Delete(k)
	}
	v.ParentView.Delete(id)
}

// mustAdd adds c to the live entity id. It cannot fail: the callers checked
// that id is alive.
func mustAdd[T any](s ecs.ViewMut[T], id ecs.EntityID, c T) {
	if err := s.AddComponentUnchecked(id, c); err != nil {
		panic("hierarchy: internal error: " + err.Error())
	}
}
