package ecs

// Each through an AllStoragesViewMut.
//
// Each1 … Each8 walk their storages' arrays in place and hand fn pointers
// into them, while fn may make calls through the AllStoragesViewMut the
// Each goes through. Nothing may then move a component of a storage the
// Each walks, or the iteration would skip entities, hand one out twice,
// or write through a pointer to a slot another component has taken. So,
// while such an Each runs (World.eaching counts them, nested ones
// included):
//
//   - the components of the entities deleted through the
//     AllStoragesViewMut stay in place (stripDoomed waits) until the
//     outermost Each returns; the calls that check liveness refuse those
//     entities, and GroupLen does not count them (doomedInGroup);
//   - each storage the Each walks, and every member of a packed group of
//     one (a change to a member moves the others' components), counts
//     the Each in sparseIndex.walked, and the changes that would add a
//     component to such a storage or remove one from it return an error
//     wrapping ErrIterating and change nothing (walkRefusal and the
//     checks below, made by every World-level change when eaching is not
//     0). DeleteAny, which deletes entities with every storage's
//     components at once, is refused whatever it would delete.
//
// Through a *World, an Each holds every storage for the whole iteration,
// so fn cannot reach them: none of this applies.
//
// The fill function of an in-place bulk call (BulkNewEntity1 …,
// BulkFillComponent1 …) through an AllStoragesViewMut gets pointers into
// the storages it fills in the same way, and the call walks them while
// fill runs by the same rules (fill.go).

// walkedStore is a storage an Each walks, and its group (nil if none).
type walkedStore struct {
	ix *sparseIndex
	g  *pack
}

// beginEach records that an Each through an AllStoragesViewMut walks sts;
// endEach, deferred, undoes it, also when fn panics.
func (w *World) beginEach(sts []walkedStore) { w.walk(sts, 1) }

func (w *World) endEach(sts []walkedStore) { w.walk(sts, -1) }

func (w *World) walk(sts []walkedStore, d int) {
	w.eaching += d
	for _, s := range sts {
		if s.g == nil {
			s.ix.walked += d
			continue
		}
		for k := range s.g.members {
			s.g.index[k].walked += d
		}
	}
}

// walkRefusal returns the error of op, a change through an
// AllStoragesViewMut inside an Each, refused because it would do (add,
// remove, reorder...) something to the components of typ, whose storage
// the Each walks.
func walkRefusal(op, doing, typ string) error {
	return &argError{
		op:   op,
		what: "would " + doing + " while an Each (Each1 … Each8), or the fill of a BulkNewEntity or BulkFillComponent call, through the AllStoragesViewMut walks the " + typ + " storage or one packed in a group with it; make the change after it returns (deleting entities is allowed inside it)",
		kind: ErrIterating,
	}
}

// refuseAdd returns the error of op if one of sts is walked by an Each and
// would get a new component: fresh entities are created (fresh), or one
// of ids has no component there. It returns nil otherwise; replacing a
// component moves nothing.
func refuseAdd(op string, fresh bool, ids []EntityID, sts ...storage) error {
	for _, st := range sts {
		ix := st.typeFree()
		if ix.walked == 0 {
			continue
		}
		if fresh {
			return walkRefusal(op, "add a "+st.typeName()+" component for a new entity", st.typeName())
		}
		for _, id := range ids {
			if ix.pos(id) < 0 {
				return walkRefusal(op, "add a "+st.typeName()+" component to "+id.String(), st.typeName())
			}
		}
	}
	return nil
}

// refuseRemove returns the error of op if st is walked by an Each and one
// of ids has a component there, which op would remove; nil otherwise.
func refuseRemove(op string, st storage, ids ...EntityID) error {
	ix := st.typeFree()
	if ix.walked == 0 {
		return nil
	}
	for _, id := range ids {
		if ix.pos(id) >= 0 {
			return walkRefusal(op, "remove the "+st.typeName()+" component of "+id.String(), st.typeName())
		}
	}
	return nil
}

// refuseStrip returns the error of op (Strip) if id has a component in a
// storage an Each walks; nil otherwise.
func (w *World) refuseStrip(op string, id EntityID) error {
	for _, st := range w.comps.all() {
		if err := refuseRemove(op, st, id); err != nil {
			return err
		}
	}
	return nil
}

// refuseWalked returns the error of op if st is walked by an Each, for
// changes that would reorder it or change its bookkeeping whatever the
// entities; nil otherwise.
func refuseWalked(op, doing string, ix *sparseIndex, typ string) error {
	if ix.walked == 0 {
		return nil
	}
	return walkRefusal(op, doing, typ)
}

// deleteManyLater is DeleteEntities inside an Each through an
// AllStoragesViewMut: it checks every id first, as DeleteEntities does,
// then kills them as deleteLater does, leaving their components in place.
func (w *World) deleteManyLater(ids []EntityID) error {
	if err := w.ents.checkAlive("DeleteEntities", ids); err != nil {
		return err
	}
	for _, id := range ids {
		if w.ents.deleteTold(id) { // false for an id given again
			w.scratch.doomed = append(w.scratch.doomed, id)
		}
	}
	return nil
}

// doomedInGroup returns how many of the entities deleted through the
// AllStoragesViewMut whose components are still in place (only inside an
// Each) are in g's packed range.
func (w *World) doomedInGroup(g *pack) int {
	n := 0
	for _, id := range w.scratch.doomed {
		if p := g.index[0].pos(id); p >= 0 && p < g.n {
			n++
		}
	}
	return n
}
