package hierarchy

import (
	"errors"

	"github.com/slipway-ecs/slipway/ecs"
)

// Check borrows a [View] of w's hierarchy and reports every broken link in
// it: the errors.Join of one [*LinkError] per broken link, or nil when the
// hierarchy is sound. It returns the borrow error if the hierarchy's storages
// are borrowed exclusively elsewhere.
//
// A sound hierarchy has:
//
//   - Parent and Child components on live entities only;
//   - Child.Parent, Child.Prev, Child.Next and Parent.FirstChild naming live
//     entities with the right components (a parent, siblings of the same
//     parent, a child of this parent);
//   - Prev and Next links that agree (x.Next.Prev is x, x.Prev.Next is x);
//   - for every parent, a chain of children that closes after exactly
//     NumChildren steps and holds every entity whose Child names the parent;
//   - no entity among its own ancestors.
//
// A hierarchy changed only through [ViewMut] is always sound. Links break
// when members are deleted with [ecs.World.DeleteEntity] or their components
// are changed by hand.
func Check(w *ecs.World) error {
	var v View
	release, err := w.Borrow(&v)
	if err != nil {
		return err
	}
	defer release()
	return v.Check()
}

// check is Check over either kind of view.
func check[A ecs.AliveChecker, P getter[Parent], C getter[Child]](r reader[A, P, C]) error {
	var errs []error
	report := func(e *LinkError) { errs = append(errs, e) }
	badParent := map[ecs.EntityID]bool{} // Child.Parent already reported

	// Each Child's own links.
	for _, id := range r.cs.IDs() {
		c, _ := r.cs.Get(id)
		if c == nil {
			continue // a leftover of a deleted entity the view no longer finds
		}
		if !r.alive.IsAlive(id) {
			report(&LinkError{ID: id, Link: "Child", Target: id, Problem: "a Child component on an entity that is not alive", Dead: true})
			continue
		}
		if _, err := r.parent(id, c.Parent); err != nil {
			report(err.(*LinkError))
			badParent[id] = true
		}
		for _, l := range [...]struct {
			name, back string
			target     ecs.EntityID
		}{{"Child.Prev", "Next", c.Prev}, {"Child.Next", "Prev", c.Next}} {
			s, err := r.child(id, l.name, l.target)
			switch {
			case err != nil:
				report(err.(*LinkError))
			case s.Parent != c.Parent:
				report(brokenLink(id, l.name, l.target, "the sibling's parent is %v, not %v", s.Parent, c.Parent))
			case l.back == "Next" && s.Next != id:
				report(brokenLink(id, l.name, l.target, "the sibling's Next is %v, not the entity", s.Next))
			case l.back == "Prev" && s.Prev != id:
				report(brokenLink(id, l.name, l.target, "the sibling's Prev is %v, not the entity", s.Prev))
			}
		}
	}

	// Each Parent's chain of children.
	limit := r.cs.Len()
	inChain := make(map[ecs.EntityID]ecs.EntityID, limit)
	for _, id := range r.ps.IDs() {
		p, _ := r.ps.Get(id)
		if p == nil {
			continue
		}
		if !r.alive.IsAlive(id) {
			report(&LinkError{ID: id, Link: "Parent", Target: id, Problem: "a Parent component on an entity that is not alive", Dead: true})
			continue
		}
		if p.NumChildren <= 0 {
			report(brokenLink(id, "Parent.NumChildren", ecs.NullID, "NumChildren is %d", p.NumChildren))
		}
		from, link, cur := id, "Parent.FirstChild", p.FirstChild
		n := 0
		for {
			c, err := r.child(from, link, cur)
			if err != nil {
				report(err.(*LinkError))
				break
			}
			if c.Parent != id {
				report(brokenLink(from, link, cur, "the entity's parent is %v, not %v", c.Parent, id))
				break
			}
			if _, dup := inChain[cur]; dup {
				report(brokenLink(from, link, cur, "the chain of %v's children comes back to this entity, not to the first child", id))
				break
			}
			inChain[cur] = id
			n++
			from, link, cur = cur, "Child.Next", c.Next
			if cur == p.FirstChild {
				if n != p.NumChildren {
					report(brokenLink(id, "Parent.NumChildren", ecs.NullID, "NumChildren is %d, but the chain holds %d children", p.NumChildren, n))
				}
				break
			}
			if n > limit {
				break // unreachable: the dup check ends a chain first
			}
		}
	}
	for _, id := range r.cs.IDs() {
		c, _ := r.cs.Get(id)
		if c == nil || !r.alive.IsAlive(id) || badParent[id] {
			continue
		}
		if p, ok := inChain[id]; !ok || p != c.Parent {
			report(brokenLink(id, "Child.Parent", c.Parent, "the entity is not in its parent's chain of children"))
		}
	}

	// No entity is its own ancestor: the Child.Parent links, one per entity,
	// must end at a root. Walk up from each entity, marking the path, until
	// an entity already known to end well, a root, or the path itself.
	const onPath, done = 1, 2
	state := make(map[ecs.EntityID]uint8, limit)
	var path []ecs.EntityID
	for _, id := range r.cs.IDs() {
		path = path[:0]
		cur := id
		for state[cur] == 0 {
			c, ok := r.cs.Get(cur)
			if !ok {
				break
			}
			state[cur] = onPath
			path = append(path, cur)
			cur = c.Parent
		}
		if state[cur] == onPath {
			report(brokenLink(cur, "ancestors", cur, "the entity is its own ancestor"))
		}
		for _, p := range path {
			state[p] = done
		}
	}
	return errors.Join(errs...)
}
