package hierarchy

import (
	"iter"

	"github.com/slipway-ecs/slipway/ecs"
)

// getter is what the walks need of a component view: [ecs.View] and
// [ecs.ViewMut] both are.
type getter[T any] interface {
	Get(id ecs.EntityID) (*T, bool)
	Len() int
	IDs() []ecs.EntityID
}

// reader is the read-only core shared by View and ViewMut: every walk is
// written once, over either kind of view.
//
// Every walk checks each link it follows (the target is alive and has the
// component it should, and agrees with the link that led there) and takes at
// most as many steps as there are Child components, so that a broken or
// cyclic hierarchy ends the walk with a *LinkError instead of a panic or an
// endless loop.
type reader[A ecs.AliveChecker, P getter[Parent], C getter[Child]] struct {
	alive A
	ps    P
	cs    C
}

// child returns the Child of id, which was reached from the link link of
// entity from; an error if id is dead or has no Child.
func (r reader[A, P, C]) child(from ecs.EntityID, link string, id ecs.EntityID) (*Child, error) {
	if !r.alive.IsAlive(id) {
		return nil, deadLink(from, link, id)
	}
	c, ok := r.cs.Get(id)
	if !ok {
		return nil, brokenLink(from, link, id, "the entity has no Child component")
	}
	return c, nil
}

// parent returns the Parent of id, reached as child's Child.Parent, checking
// that it is alive and has a valid count.
func (r reader[A, P, C]) parent(child, id ecs.EntityID) (*Parent, error) {
	if !r.alive.IsAlive(id) {
		return nil, deadLink(child, "Child.Parent", id)
	}
	p, ok := r.ps.Get(id)
	if !ok {
		return nil, brokenLink(child, "Child.Parent", id, "the parent has no Parent component")
	}
	if p.NumChildren <= 0 {
		return nil, brokenLink(id, "Parent.NumChildren", ecs.NullID, "NumChildren is %d", p.NumChildren)
	}
	return p, nil
}

// start checks the entity a walk starts from.
func (r reader[A, P, C]) start(id ecs.EntityID) error {
	if !r.alive.IsAlive(id) {
		return &LinkError{ID: id, Link: "walk", Target: id, Problem: "the walk starts at an entity that is not alive", Dead: true}
	}
	return nil
}

// parentOf returns id's parent as linked, and whether it has one.
func (r reader[A, P, C]) parentOf(id ecs.EntityID) (ecs.EntityID, bool) {
	if c, ok := r.cs.Get(id); ok {
		return c.Parent, true
	}
	return ecs.NullID, false
}

// numChildren returns the number of children recorded in id's Parent.
func (r reader[A, P, C]) numChildren(id ecs.EntityID) int {
	if p, ok := r.ps.Get(id); ok {
		return p.NumChildren
	}
	return 0
}

// children yields id's children in sibling order.
func (r reader[A, P, C]) children(id ecs.EntityID, yield func(ecs.EntityID) bool) error {
	if err := r.start(id); err != nil {
		return err
	}
	_, err := r.childrenOf(id, yield)
	return err
}

// childrenOf yields the children of the live entity id and reports whether
// the walk ran to its end (false when yield asked to stop).
func (r reader[A, P, C]) childrenOf(id ecs.EntityID, yield func(ecs.EntityID) bool) (bool, error) {
	p, ok := r.ps.Get(id)
	if !ok {
		return true, nil
	}
	n, first := p.NumChildren, p.FirstChild
	if n <= 0 || n > r.cs.Len() {
		return false, brokenLink(id, "Parent.NumChildren", ecs.NullID, "NumChildren is %d, with %d Child components in all", n, r.cs.Len())
	}
	from, link, cur := id, "Parent.FirstChild", first
	for range n {
		c, err := r.child(from, link, cur)
		if err != nil {
			return false, err
		}
		if c.Parent != id {
			return false, brokenLink(cur, "Child.Parent", c.Parent, "the entity is in the chain of children of %v", id)
		}
		next := c.Next
		if !yield(cur) {
			return false, nil
		}
		from, link, cur = cur, "Child.Next", next
	}
	if cur != first {
		return false, brokenLink(from, "Child.Next", cur, "the chain of %v's children does not close after NumChildren = %d", id, n)
	}
	return true, nil
}

// ancestors yields id's parent, its parent's parent, and so on up to the root.
func (r reader[A, P, C]) ancestors(id ecs.EntityID, yield func(ecs.EntityID) bool) error {
	if err := r.start(id); err != nil {
		return err
	}
	limit := r.cs.Len()
	cur := id
	for steps := 0; ; steps++ {
		c, ok := r.cs.Get(cur)
		if !ok {
			return nil
		}
		if steps >= limit {
			return brokenLink(id, "ancestors", cur, "more ancestors than Child components: the Child.Parent links form a cycle")
		}
		p := c.Parent
		if _, err := r.parent(cur, p); err != nil {
			return err
		}
		if !yield(p) {
			return nil
		}
		cur = p
	}
}

// depth returns the number of id's ancestors.
func (r reader[A, P, C]) depth(id ecs.EntityID) (int, error) {
	n := 0
	err := r.ancestors(id, func(ecs.EntityID) bool { n++; return true })
	return n, err
}

// firstChild checks root as the start of a walk down its tree and returns
// its first child, or false when root has no children (with the error of
// a root that is not alive, or whose Parent says it has none).
func (r reader[A, P, C]) firstChild(root ecs.EntityID) (ecs.EntityID, bool, error) {
	if err := r.start(root); err != nil {
		return ecs.NullID, false, err
	}
	rp, ok := r.ps.Get(root)
	if !ok {
		return ecs.NullID, false, nil
	}
	if rp.NumChildren <= 0 {
		return ecs.NullID, false, brokenLink(root, "Parent.NumChildren", ecs.NullID, "NumChildren is %d", rp.NumChildren)
	}
	return rp.FirstChild, true, nil
}

// descendants yields id's descendants depth first, each before its own
// descendants, siblings in order: the recipe's order. It needs no stack: it
// goes down through Parent.FirstChild, along through Child.Next, and back up
// through Child.Parent when the chain of siblings comes back to its start.
func (r reader[A, P, C]) descendants(root ecs.EntityID, yield func(ecs.EntityID) bool) error {
	first, ok, err := r.firstChild(root)
	if !ok {
		return err
	}
	limit := r.cs.Len()
	parent := root
	from, link, cur := root, "Parent.FirstChild", first
	for steps := 1; ; steps++ {
		c, err := r.child(from, link, cur)
		if err != nil {
			return err
		}
		if c.Parent != parent {
			return brokenLink(cur, "Child.Parent", c.Parent, "the entity was reached as a child of %v", parent)
		}
		if steps > limit {
			return brokenLink(root, "descendants", cur, "more descendants than Child components: the links form a cycle")
		}
		next := c.Next
		if !yield(cur) {
			return nil
		}
		// Down, to the first child.
		if p, ok := r.ps.Get(cur); ok {
			if p.NumChildren <= 0 {
				return brokenLink(cur, "Parent.NumChildren", ecs.NullID, "NumChildren is %d", p.NumChildren)
			}
			parent, first = cur, p.FirstChild
			from, link, cur = cur, "Parent.FirstChild", first
			continue
		}
		// Along, to the next sibling, or up until there is one. Each step up
		// retraces a step down, so there are no more steps up than down.
		for climbs := 0; next == first; climbs++ {
			if parent == root {
				return nil
			}
			if climbs >= limit {
				return brokenLink(root, "descendants", cur, "more ancestors than Child components: the Child.Parent links form a cycle")
			}
			c, err := r.child(cur, "Child.Parent", parent)
			if err != nil {
				return err
			}
			p, err := r.parent(parent, c.Parent)
			if err != nil {
				return err
			}
			cur, next = parent, c.Next
			parent, first = c.Parent, p.FirstChild
		}
		from, link, cur = cur, "Child.Next", next
	}
}

// descendantsBreadthFirst yields id's children, then their children, and so
// on, level by level, siblings in order.
func (r reader[A, P, C]) descendantsBreadthFirst(root ecs.EntityID, yield func(ecs.EntityID) bool) error {
	if err := r.start(root); err != nil {
		return err
	}
	limit := r.cs.Len()
	var buf [64]ecs.EntityID
	queue := append(buf[:0], root)
	seen := 0
	stopped := false
	for head := 0; head < len(queue) && !stopped; head++ {
		_, err := r.childrenOf(queue[head], func(id ecs.EntityID) bool {
			seen++
			if seen > limit {
				return false
			}
			if !yield(id) {
				stopped = true
				return false
			}
			if _, ok := r.ps.Get(id); ok {
				queue = append(queue, id)
			}
			return true
		})
		if err != nil {
			return err
		}
		if seen > limit {
			return brokenLink(root, "descendants", queue[head], "more descendants than Child components: the links form a cycle")
		}
	}
	return nil
}

// seq turns a walk into an iterator that stops quietly at a broken link.
func seq(walk func(ecs.EntityID, func(ecs.EntityID) bool) error, id ecs.EntityID) iter.Seq[ecs.EntityID] {
	return func(yield func(ecs.EntityID) bool) { _ = walk(id, yield) }
}

// seqErr turns a walk into an iterator whose last pair holds the error that
// ended it, if one did.
func seqErr(walk func(ecs.EntityID, func(ecs.EntityID) bool) error, id ecs.EntityID) iter.Seq2[ecs.EntityID, error] {
	return func(yield func(ecs.EntityID, error) bool) {
		stopped := false
		err := walk(id, func(e ecs.EntityID) bool {
			if !yield(e, nil) {
				stopped = true
				return false
			}
			return true
		})
		if err != nil && !stopped {
			yield(ecs.NullID, err)
		}
	}
}
