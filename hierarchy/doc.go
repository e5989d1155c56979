// Package hierarchy arranges entities in trees: a scene graph, a transform
// hierarchy, an inventory inside a bag inside a chest. It is built on the
// public API of package ecs alone, as any user package could be.
//
// # Components
//
// The whole tree lives in two components:
//
//   - a [Parent] on every entity that has children: how many, and the first;
//   - a [Child] on every entity that has a parent: the parent, and the
//     previous and next sibling.
//
// The siblings form a circular chain: the last child's Next is the first
// child, and the first child's Prev is the last. An entity with neither
// component is not in any tree; an entity with a Parent and no Child is a
// root.
//
// # Views
//
// [ViewMut] bundles the entities storage with exclusive views of both
// components. It is a custom view: take it as a system parameter, or borrow
// it with [ecs.World.Borrow]. Its methods change the trees:
// [ViewMut.Attach], [ViewMut.AttachNew], [ViewMut.Detach], [ViewMut.Remove],
// [ViewMut.RemoveAll], [ViewMut.SortChildren], [ViewMut.Delete] and
// [ViewMut.DeleteSubtree].
//
// [View] holds shared views of the same storages, for systems that only read
// the trees; several of them run in parallel. Both views walk the trees:
// Parent, Children, Ancestors, Descendants (depth first, parents before their
// children), DescendantsBreadthFirst, Depth and Roots.
//
// [Propagate] walks a View's tree in the order of Descendants and carries a
// value down it, each entity getting its parent's: transform propagation
// without a look-up of the parent.
//
//	func printTrees(t hierarchy.View) {
//		for root := range t.Roots() {
//			for id := range t.Descendants(root) {
//				fmt.Println(id)
//			}
//		}
//	}
//
// # Errors
//
// A change that cannot be made returns an [*Error] and changes nothing:
// attaching an entity under itself or under one of its descendants (it wraps
// [ErrCycle]), attaching to or from an entity that is not alive (it wraps
// [ecs.ErrDeadEntity]), or meeting a broken link on the way (it wraps a
// [*LinkError], which wraps [ErrBrokenLink]).
//
// # Deletes from anywhere, and broken links
//
// The links are kept by this package's own calls. Call [Install] once per
// world, and they are also mended after deletions made by any other means
// ([ecs.World.DeleteEntity], [ecs.DeleteAny], bulk deletions,
// [ecs.World.Strip], commands, a Parent or Child component removed by
// hand), at the world's next sync point (see [ecs.Observe]).
//
// Without Install, such a deletion leaves the links that named the entity
// behind, naming a dead entity: a dangling link. Delete hierarchy members
// with [ViewMut.Delete] or [ViewMut.DeleteSubtree] then, which repair the
// links first. Links changed by hand (a Child overwritten) are never seen.
//
// Every walk guards itself:
//
//   - a dead entity, a missing component or a link that contradicts another
//     ends the walk. The plain iterators (Children, Descendants...) then stop
//     early and say nothing; their Err forms (ChildrenErr,
//     DescendantsErr...) yield a [*LinkError] as their last element;
//   - a walk never takes more steps than there are Child components, so a
//     cycle made by hand ends it too, with a [*LinkError];
//   - no walk panics on a broken hierarchy.
//
// [Check] (and [View.Check], [ViewMut.Check]) reports every broken link at
// once. Changes refuse to work across a broken link: they return an error
// and change nothing, so that a broken tree is not broken further.
//
// [ViewMut.Delete] and [ViewMut.DeleteSubtree] delete entities through
// [ecs.EntitiesViewMut.DeleteUnchecked]: the entities are dead at once, and
// their components of other types are purged at the world's next change (see
// there).
//
// Do not change a tree while walking it: collect the ids first (with
// [slices.Collect]), then change.
package hierarchy
