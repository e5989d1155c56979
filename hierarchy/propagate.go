package hierarchy

import "github.com/slipway-ecs/slipway/ecs"

// Propagate walks root's descendants in the order of [View.Descendants]
// (depth first, each parent before its children, siblings in order) and
// carries a value down the tree: visit(id, parent) is called for each
// descendant id with the value of its parent, and returns id's own value,
// which id's children are given in turn. Root's children are given value.
//
// This is what transform propagation needs: with world positions as the
// values, visit adds the entity's local position to its parent's world
// position, stores the sum and returns it. Carrying the parent's value down
// saves looking the parent and its value up by id for every entity, which
// is most of the cost of a walk through [View.Descendants]. Propagate keeps
// a stack of one entry per level below root (allocated only for trees
// deeper than 16 levels).
//
// It checks every link it follows, as [View.DescendantsErr] does, and ends
// with the same error: a [*LinkError] for a broken link or a root that is
// not alive, after visiting the entities before the break. It returns nil
// at the end of the walk, at once if root has no children.
//
// Propagate takes a [View], the view of systems that read the trees; a
// system that holds a [ViewMut] walks with [ViewMut.Descendants].
func Propagate[S any](t View, root ecs.EntityID, value S, visit func(id ecs.EntityID, parent S) S) error {
	first, ok, err := t.r().firstChild(root)
	if !ok {
		return err
	}
	// The walk follows the links as reader.descendants does, with the same
	// checks in the same order, but climbs back up through its stack
	// instead of through Child.Parent: each link it would read on the way
	// up was read, and checked, on the way down. It calls the views' own
	// methods, not the reader's, so that the look-ups are direct calls
	// the compiler can inline.
	limit := t.ChildView.Len()
	var buf [16]level[S]
	stack, depth := buf[:], 0 // stack[depth] is the level being walked
	stack[0] = level[S]{parent: root, first: first, value: value}
	from, link, cur := root, "Parent.FirstChild", first
	for steps := 1; ; steps++ {
		top := &stack[depth]
		if !t.Entities.IsAlive(cur) {
			return deadLink(from, link, cur)
		}
		c, ok := t.ChildView.Get(cur)
		if !ok {
			return brokenLink(from, link, cur, "the entity has no Child component")
		}
		if c.Parent != top.parent {
			return brokenLink(cur, "Child.Parent", c.Parent, "the entity was reached as a child of %v", top.parent)
		}
		if steps > limit {
			return brokenLink(root, "descendants", cur, "more descendants than Child components: the links form a cycle")
		}
		next := c.Next
		own := visit(cur, top.value)
		// Down, to the first child.
		if p, ok := t.ParentView.Get(cur); ok {
			if p.NumChildren <= 0 {
				return brokenLink(cur, "Parent.NumChildren", ecs.NullID, "NumChildren is %d", p.NumChildren)
			}
			if depth++; depth == len(stack) {
				stack = append(stack, level[S]{})
			}
			l := &stack[depth]
			l.parent, l.first, l.next, l.value = cur, p.FirstChild, next, own
			from, link, cur = cur, "Parent.FirstChild", p.FirstChild
			continue
		}
		// Along, to the next sibling, or up until there is one. The stack is
		// never deeper than the steps taken, which the limit bounds.
		for next == stack[depth].first {
			if depth == 0 {
				return nil
			}
			cur, next = stack[depth].parent, stack[depth].next
			depth--
		}
		from, link, cur = cur, "Child.Next", next
	}
}

// level is an entry of Propagate's stack: a parent whose children are being
// walked, its first child (where the chain of siblings closes), the
// parent's own next sibling (where the walk goes on when the level is
// done), and the value the children are given.
type level[S any] struct {
	parent, first, next ecs.EntityID
	value               S
}
