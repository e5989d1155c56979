// The walks of View and ViewMut: each method calls the reader both share.

package hierarchy

import (
	"iter"

	"github.com/slipway-ecs/slipway/ecs"
)

// r returns the reader over v's views.
func (v View) r() reader[ecs.EntitiesView, ecs.View[Parent], ecs.View[Child]] {
	return reader[ecs.EntitiesView, ecs.View[Parent], ecs.View[Child]]{v.Entities, v.ParentView, v.ChildView}
}

// Roots iterates over the roots: the live entities that have children and
// no parent, in the order of the Parent storage. It is the loop to start
// each tree's walk from, and cheaper than the join it stands for
// (ecs.Join1(v.ParentView).Not(v.ChildView)): one look-up per Parent
// component, with no join to set up.
func (v View) Roots() iter.Seq[ecs.EntityID] {
	return func(yield func(ecs.EntityID) bool) {
		for _, id := range v.ParentView.IDs() {
			if _, ok := v.ChildView.Get(id); ok || !v.Entities.IsAlive(id) {
				continue
			}
			if !yield(id) {
				return
			}
		}
	}
}

// Parent returns id's parent as its Child component links it, and false if id
// has no parent. It does not check the link: [View.Ancestors] does.
func (v View) Parent(id ecs.EntityID) (ecs.EntityID, bool) {
	return v.r().parentOf(id)
}

// NumChildren returns the number of children id's Parent component records, 0
// if it has none.
func (v View) NumChildren(id ecs.EntityID) int {
	return v.r().numChildren(id)
}

// Children iterates over id's children in sibling order, starting with
// Parent.FirstChild. It yields nothing if id has no children, and stops at a
// broken link: see [View.ChildrenErr].
func (v View) Children(id ecs.EntityID) iter.Seq[ecs.EntityID] {
	return seq(v.r().children, id)
}

// ChildrenErr is [View.Children] that reports why it stopped early: each
// child comes with a nil error, and a broken link (or a dead id) ends the
// walk with a last pair holding ecs.NullID and a [*LinkError].
func (v View) ChildrenErr(id ecs.EntityID) iter.Seq2[ecs.EntityID, error] {
	return seqErr(v.r().children, id)
}

// Ancestors iterates over id's parent, its parent's parent, and so on up to the
// root. It stops at a broken link: see [View.AncestorsErr].
func (v View) Ancestors(id ecs.EntityID) iter.Seq[ecs.EntityID] {
	return seq(v.r().ancestors, id)
}

// AncestorsErr is [View.Ancestors] that reports why it stopped early, as
// [View.ChildrenErr] does.
func (v View) AncestorsErr(id ecs.EntityID) iter.Seq2[ecs.EntityID, error] {
	return seqErr(v.r().ancestors, id)
}

// Descendants iterates over id's descendants depth first: each child, then its
// own descendants, then the next child (pre-order, siblings in order). A
// parent always comes before its children, which is what transform
// propagation needs. It keeps no stack or queue: it follows the links down,
// along and back up, in memory that does not grow with the tree. It stops
// at a broken link: see [View.DescendantsErr].
func (v View) Descendants(id ecs.EntityID) iter.Seq[ecs.EntityID] {
	return seq(v.r().descendants, id)
}

// DescendantsErr is [View.Descendants] that reports why it stopped early, as
// [View.ChildrenErr] does.
func (v View) DescendantsErr(id ecs.EntityID) iter.Seq2[ecs.EntityID, error] {
	return seqErr(v.r().descendants, id)
}

// DescendantsBreadthFirst iterates over id's descendants level by level: its
// children, then their children, and so on, siblings in order. It keeps a
// queue of the parents still to visit. It stops at a broken link: see
// [View.DescendantsBreadthFirstErr].
func (v View) DescendantsBreadthFirst(id ecs.EntityID) iter.Seq[ecs.EntityID] {
	return seq(v.r().descendantsBreadthFirst, id)
}

// DescendantsBreadthFirstErr is [View.DescendantsBreadthFirst] that reports why
// it stopped early, as [View.ChildrenErr] does.
func (v View) DescendantsBreadthFirstErr(id ecs.EntityID) iter.Seq2[ecs.EntityID, error] {
	return seqErr(v.r().descendantsBreadthFirst, id)
}

// Depth returns the number of id's ancestors: 0 for a root or an entity
// outside any tree. It returns a [*LinkError] if a link on the way up is
// broken.
func (v View) Depth(id ecs.EntityID) (int, error) {
	return v.r().depth(id)
}

// Check reports every broken link of the hierarchy: the result of [Check].
func (v View) Check() error {
	return check(v.r())
}

// r returns the reader over v's views.
func (v ViewMut) r() reader[ecs.EntitiesViewMut, ecs.ViewMut[Parent], ecs.ViewMut[Child]] {
	return reader[ecs.EntitiesViewMut, ecs.ViewMut[Parent], ecs.ViewMut[Child]]{v.Entities, v.ParentView, v.ChildView}
}

// Roots iterates over the roots: the live entities that have children and
// no parent, in the order of the Parent storage. It reads no component, so
// it marks none modified.
func (v ViewMut) Roots() iter.Seq[ecs.EntityID] {
	return func(yield func(ecs.EntityID) bool) {
		for _, id := range v.ParentView.IDs() {
			if v.ChildView.Contains(id) || !v.Entities.IsAlive(id) {
				continue
			}
			if !yield(id) {
				return
			}
		}
	}
}

// Parent returns id's parent as its Child component links it, and false if id
// has no parent. It does not check the link: [ViewMut.Ancestors] does.
func (v ViewMut) Parent(id ecs.EntityID) (ecs.EntityID, bool) {
	return v.r().parentOf(id)
}

// NumChildren returns the number of children id's Parent component records, 0
// if it has none.
func (v ViewMut) NumChildren(id ecs.EntityID) int {
	return v.r().numChildren(id)
}

// Children iterates over id's children in sibling order, starting with
// Parent.FirstChild. It yields nothing if id has no children, and stops at a
// broken link: see [ViewMut.ChildrenErr].
func (v ViewMut) Children(id ecs.EntityID) iter.Seq[ecs.EntityID] {
	return seq(v.r().children, id)
}

// ChildrenErr is [ViewMut.Children] that reports why it stopped early: each
// child comes with a nil error, and a broken link (or a dead id) ends the
// walk with a last pair holding ecs.NullID and a [*LinkError].
func (v ViewMut) ChildrenErr(id ecs.EntityID) iter.Seq2[ecs.EntityID, error] {
	return seqErr(v.r().children, id)
}

// Ancestors iterates over id's parent, its parent's parent, and so on up to the
// root. It stops at a broken link: see [ViewMut.AncestorsErr].
func (v ViewMut) Ancestors(id ecs.EntityID) iter.Seq[ecs.EntityID] {
	return seq(v.r().ancestors, id)
}

// AncestorsErr is [ViewMut.Ancestors] that reports why it stopped early, as
// [ViewMut.ChildrenErr] does.
func (v ViewMut) AncestorsErr(id ecs.EntityID) iter.Seq2[ecs.EntityID, error] {
	return seqErr(v.r().ancestors, id)
}

// Descendants iterates over id's descendants depth first: each child, then its
// own descendants, then the next child (pre-order, siblings in order). A
// parent always comes before its children, which is what transform
// propagation needs. It keeps no stack or queue: it follows the links down,
// along and back up, in memory that does not grow with the tree. It stops
// at a broken link: see [ViewMut.DescendantsErr].
func (v ViewMut) Descendants(id ecs.EntityID) iter.Seq[ecs.EntityID] {
	return seq(v.r().descendants, id)
}

// DescendantsErr is [ViewMut.Descendants] that reports why it stopped early, as
// [ViewMut.ChildrenErr] does.
func (v ViewMut) DescendantsErr(id ecs.EntityID) iter.Seq2[ecs.EntityID, error] {
	return seqErr(v.r().descendants, id)
}

// DescendantsBreadthFirst iterates over id's descendants level by level: its
// children, then their children, and so on, siblings in order. It keeps a
// queue of the parents still to visit. It stops at a broken link: see
// [ViewMut.DescendantsBreadthFirstErr].
func (v ViewMut) DescendantsBreadthFirst(id ecs.EntityID) iter.Seq[ecs.EntityID] {
	return seq(v.r().descendantsBreadthFirst, id)
}

// DescendantsBreadthFirstErr is [ViewMut.DescendantsBreadthFirst] that reports why
// it stopped early, as [ViewMut.ChildrenErr] does.
func (v ViewMut) DescendantsBreadthFirstErr(id ecs.EntityID) iter.Seq2[ecs.EntityID, error] {
	return seqErr(v.r().descendantsBreadthFirst, id)
}

// Depth returns the number of id's ancestors: 0 for a root or an entity
// outside any tree. It returns a [*LinkError] if a link on the way up is
// broken.
func (v ViewMut) Depth(id ecs.EntityID) (int, error) {
	return v.r().depth(id)
}

// Check reports every broken link of the hierarchy: the result of [Check].
func (v ViewMut) Check() error {
	return check(v.r())
}
