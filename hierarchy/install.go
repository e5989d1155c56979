package hierarchy

import (
	"sync"

	"github.com/slipway-ecs/slipway/ecs"
)

// Install makes w keep its hierarchy sound through every change, not only
// those of [ViewMut]: when a member of a tree is deleted by any means
// ([ecs.World.DeleteEntity], [ecs.DeleteAny], [ecs.DeleteEntities],
// [ecs.World.Strip], a [ecs.Commands] deletion, an [ecs.AllStoragesViewMut]
// deletion), or loses its Parent or Child component by hand, the links
// around it are mended as [ViewMut.Delete] mends them:
//
//   - an entity that leaves its parent's chain is taken out of it, its
//     siblings linked to each other (the parent loses its Parent component
//     with its last child);
//   - the children of an entity that left its parent's chain and lost its
//     Parent component too (a deleted entity, a stripped one) take its
//     place among its siblings, in their order;
//   - the children of an entity that lost its Parent component and had no
//     parent (a deleted root), or kept its Child, leave the tree: they lose
//     their Child component and become roots of their own subtrees.
//
// Many members may go in one call (a whole subtree, siblings, a parent and
// its child): the mending looks at them all together.
//
// It works with ecs observers (see [ecs.Observe]): observers of the
// [ecs.Deleted] and [ecs.Removed] events of Parent and Child record what
// left, and one observer mends the trees once the changes that raised
// them are done, at the sync point that follows them: before a
// World-level call returns, after the system that made them (World.Run),
// at the next [ecs.ApplyCommands] item or the end of a workload's run.
// Until then, the systems of the workload may meet the dangling links;
// their walks stop there (see "Deletes from anywhere, and broken links"
// in the package documentation).
//
// The changes of ViewMut's own methods keep the trees sound already: the
// mending finds nothing to do for them, at the cost of a look at the
// parents they touched.
//
// Install returns the error of [ecs.Observe]: a [*ecs.BorrowError] while
// something in w is borrowed. Call it once per world, before the trees
// are built (a second call adds a second set of observers, which find
// nothing left to mend).
func Install(w *ecs.World) error {
	m := &mender{lostChild: map[ecs.EntityID]Child{}, lostParent: map[ecs.EntityID]Parent{}}
	steps := []func() error{
		func() error { return ecs.Observe[ecs.Deleted[Child]](w, m.childDeleted) },
		func() error { return ecs.Observe[ecs.Removed[Child]](w, m.childRemoved) },
		func() error { return ecs.Observe[ecs.Deleted[Parent]](w, m.parentDeleted) },
		func() error { return ecs.Observe[ecs.Removed[Parent]](w, m.parentRemoved) },
		func() error { return ecs.Observe[mendEvent](w, m.mend) },
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return err
		}
	}
	return nil
}

// mendEvent asks for the mending of what the mender recorded.
type mendEvent struct{}

// mender is a world's record of the members that left the trees since the
// last mending. Observers run one at a time in a world, but a world's
// observers may run on different goroutines over time: the mutex orders
// them.
type mender struct {
	mu         sync.Mutex
	lostChild  map[ecs.EntityID]Child  // entities that lost their Child, with it
	lostParent map[ecs.EntityID]Parent // entities that lost their Parent, with it
	order      []ecs.EntityID          // the parents to look at, in the order met
	asked      bool                    // a mendEvent is on its way
}

func (m *mender) childDeleted(ev ecs.Event[ecs.Deleted[Child]], c ecs.Commands) {
	e := ev.Get()
	m.lose(c, e.ID, &e.Value, nil)
}

func (m *mender) childRemoved(ev ecs.Event[ecs.Removed[Child]], c ecs.Commands) {
	e := ev.Get()
	m.lose(c, e.ID, &e.Value, nil)
}

func (m *mender) parentDeleted(ev ecs.Event[ecs.Deleted[Parent]], c ecs.Commands) {
	e := ev.Get()
	m.lose(c, e.ID, nil, &e.Value)
}

func (m *mender) parentRemoved(ev ecs.Event[ecs.Removed[Parent]], c ecs.Commands) {
	e := ev.Get()
	m.lose(c, e.ID, nil, &e.Value)
}

// lose records that id lost its Child (ch) or its Parent (p), and asks
// for a mending if none is on its way: the mendEvent is queued after every
// event waiting, so the mending sees all that the change removed.
func (m *mender) lose(c ecs.Commands, id ecs.EntityID, ch *Child, p *Parent) {
	m.mu.Lock()
	defer m.mu.Unlock()
	// The latest record wins: an entity that left, came back and left
	// again left the chain it was in last.
	if ch != nil {
		m.lostChild[id] = *ch
		m.order = append(m.order, ch.Parent)
	} else {
		m.lostParent[id] = *p
		m.order = append(m.order, id)
	}
	if !m.asked {
		m.asked = true
		ecs.Emit(c, mendEvent{})
	}
}

// mend repairs the chains of the parents that lost children or left, then
// takes the children of the parents that are gone out of the trees.
func (m *mender) mend(v ViewMut) {
	m.mu.Lock()
	defer m.mu.Unlock()
	seen := map[ecs.EntityID]bool{}
	for _, p := range m.order {
		if seen[p] {
			continue
		}
		seen[p] = true
		if _, has := v.ParentView.Get(p); has && v.Entities.IsAlive(p) && !v.sound(p) {
			v.relink(p, m.collect(v, p, 0))
		}
	}
	// Parents gone (dead, or without a Parent component): the children
	// still naming them leave the tree.
	for _, p := range m.order {
		if !seen[p] {
			continue
		}
		seen[p] = false
		if _, has := v.ParentView.Get(p); has && v.Entities.IsAlive(p) {
			continue
		}
		for _, k := range m.collect(v, p, 0) {
			v.ChildView.Delete(k)
		}
	}
	clear(m.lostChild)
	clear(m.lostParent)
	m.order = m.order[:0]
	m.asked = false
}

// sound reports whether p's chain of children is whole: NumChildren live
// entities, each naming p as parent, linked both ways, closing at
// FirstChild.
func (v ViewMut) sound(p ecs.EntityID) bool {
	par, _ := v.ParentView.Get(p)
	if par.NumChildren <= 0 {
		return false
	}
	id := par.FirstChild
	for range par.NumChildren {
		c, ok := v.ChildView.Get(id)
		if !ok || !v.Entities.IsAlive(id) || c.Parent != p {
			return false
		}
		next, ok := v.ChildView.Get(c.Next)
		if !ok || next.Prev != id {
			return false
		}
		id = c.Next
	}
	return id == par.FirstChild
}

// collect returns the children p should have, in order: walking p's chain
// as it was (the links of its members still in it, and those recorded of
// the members that left), it keeps the members that still name p as
// parent and puts, in the place of a member that left the trees (dead, or
// with neither component now), that member's own children, collected so
// in turn. depth bounds that recursion, and each walk stops at a member it
// met before: records of different times cannot make it loop.
func (m *mender) collect(v ViewMut, p ecs.EntityID, depth int) []ecs.EntityID {
	var first ecs.EntityID
	if par, ok := v.ParentView.Get(p); ok {
		first = par.FirstChild
	} else if par, ok := m.lostParent[p]; ok {
		first = par.FirstChild
	} else {
		return nil
	}
	if depth > len(m.lostParent) {
		return nil
	}
	var out []ecs.EntityID
	visited := map[ecs.EntityID]bool{}
	for id := first; !visited[id]; {
		visited[id] = true
		c, ok := v.ChildView.Get(id)
		alive := v.Entities.IsAlive(id)
		var link Child
		if ok && c.Parent == p && alive {
			out = append(out, id)
			link = *c
		} else {
			rec, lost := m.lostChild[id]
			if !lost || rec.Parent != p {
				return out // a link that no record explains: stop there
			}
			if _, has := v.ParentView.Get(id); !alive || (!has && !ok) {
				out = append(out, m.collect(v, id, depth+1)...)
			}
			link = rec
		}
		if link.Next == first {
			break
		}
		id = link.Next
	}
	return out
}

// relink makes kids, in order, the children of p, which is alive: their
// Child components are rewritten, and p's Parent (deleted if kids is
// empty).
func (v ViewMut) relink(p ecs.EntityID, kids []ecs.EntityID) {
	if len(kids) == 0 {
		v.ParentView.Delete(p)
		return
	}
	n := len(kids)
	for i, k := range kids {
		c := v.ChildView.MustGet(k)
		*c = Child{Parent: p, Prev: kids[(i+n-1)%n], Next: kids[(i+1)%n]}
	}
	par := v.ParentView.MustGet(p)
	*par = Parent{NumChildren: n, FirstChild: kids[0]}
}
