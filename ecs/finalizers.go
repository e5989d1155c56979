package ecs

import (
	"errors"
	"reflect"
)

// Finalizers: component types that hold their entity back from deletion
// (Dynec's finalizer components). SetFinalizer declares one. Every path
// that deletes entities across all storages (World.DeleteEntity,
// AllStoragesViewMut.DeleteEntity, DeleteEntities, DeleteAny, the
// deletions of Commands) asks the world's finalizers first (spare): an
// entity holding a finalizer component is not deleted but given a
// Terminating component, and stays alive, readable, until its last
// finalizer goes. Each finalizer type has two observers (of its Removed
// and Deleted events) that then delete the entity at the next sync point,
// through an AllStoragesViewMut: the entity's deletion events and hooks
// come with that deletion. A world without finalizers pays one nil test
// per deleting call.

// Terminating is the component the world gives an entity whose deletion
// waits for finalizer components (see [SetFinalizer]): the entity was
// deleted while it held one, and will be once its last finalizer is
// removed. Read it through a View[Terminating] (join it with the
// finalizer's view to find the entities whose clean-up is due), and do not
// write it: a ViewMut[Terminating] is refused. A World-level removal of
// Terminating takes the entity back (it is no longer deleted when its
// finalizers go); a World-level addition marks it as a deletion would.
type Terminating struct{}

// ErrTerminating is wrapped by the [*FinalizerError] of giving a
// terminating entity a finalizer it does not have.
var ErrTerminating = errors.New("entity is terminating")

// FinalizerError is the error of adding a finalizer component to an entity
// that is terminating (see [SetFinalizer]): Op names the call, Type the
// finalizer type, ID the entity. It wraps [ErrTerminating]. Replacing a
// finalizer the entity still holds is allowed.
type FinalizerError struct {
	Op   string
	Type string
	ID   EntityID
}

func (e *FinalizerError) Error() string {
	return "ecs: " + e.Op + ": cannot give " + e.ID.String() + " a new " + e.Type +
		" finalizer: the entity is terminating (deleted, waiting for its finalizers to be removed)"
}

// Unwrap returns [ErrTerminating].
func (e *FinalizerError) Unwrap() error { return ErrTerminating }

// finalizers are a world's finalizer types and its Terminating storage.
// Both change only under the world's exclusive borrow; views read them
// while they hold a borrow, which orders the reads after the changes.
type finalizers struct {
	types []storage
	term  *sparseSet[Terminating]
}

// SetFinalizer declares T a finalizer component type of w: deleting an
// entity that holds a component of type T does not delete it, but marks
// it terminating (it gets a [Terminating] component) until no finalizer
// remains. The entity stays alive and readable meanwhile, so that the
// systems that clean up after it can still read its components; they
// find it with a join of View[Terminating] and the finalizer's view, and
// remove the finalizer when done. Once its last finalizer is removed or
// deleted (by any means: [Remove], [ViewMut.Remove], [ViewMut.Delete],
// [DeleteComponent], ...), the entity is deleted at the next sync point
// (the end of the World-level call, of [World.Run], an [ApplyCommands]
// item or the end of a workload run, as for observers: see [Observe]).
//
// Every call that deletes entities whole honours finalizers:
// [World.DeleteEntity], [AllStoragesViewMut.DeleteEntity],
// [DeleteEntities], [DeleteAny] (which counts only the entities it
// deleted) and [Commands.DeleteEntity]. Deleting a terminating entity
// again changes nothing. [EntitiesViewMut.DeleteUnchecked] does not look
// at finalizers (it cannot see the storages) and [World.Strip] removes
// them with the rest. Giving a terminating entity a finalizer it does not
// have is refused with a [*FinalizerError].
//
// Tracking sees a terminating entity as it is: Terminating is inserted
// (if its type tracks insertion), the entity's components are neither
// removed nor deleted until the entity really is.
//
// Declaring a type twice changes nothing. SetFinalizer borrows the world as
// World-level changes do, so it fails with a [*BorrowError] while anything
// in w is borrowed; it refuses Terminating itself, and a nil world.
func SetFinalizer[T any](w *World) (err error) {
	if reflect.TypeFor[T]() == reflect.TypeFor[Terminating]() {
		return &argError{op: "SetFinalizer[ecs.Terminating]", what: "Terminating marks the entities finalizers hold back; it cannot be one", kind: ErrInvalidView}
	}
	wr, locked, err := beginWrite(w)
	if err != nil {
		return err
	}
	defer endWrite(wr, locked)
	st := storageFor[T](wr)
	f := wr.fin
	if f == nil {
		f = &finalizers{term: storageFor[Terminating](wr)}
	}
	for _, t := range f.types {
		if t == storage(st) {
			return nil
		}
	}
	// Views read f only while they hold a borrow, and this runs under the
	// world's exclusive borrow: f may change in place.
	f.types = append(f.types, st)
	st.observe(wr, hookRemove)
	st.observe(wr, hookDelete)
	wr.fin = f
	onRemoved := func(ev Event[Removed[T]], all AllStoragesViewMut) error { return all.finish(ev.Get().ID) }
	onDeleted := func(ev Event[Deleted[T]], all AllStoragesViewMut) error { return all.finish(ev.Get().ID) }
	name := "SetFinalizer[" + st.name + "]"
	wr.obs.add(keyFor[Removed[T]](), namedInfo(onRemoved, name), onRemoved)
	wr.obs.add(keyFor[Deleted[T]](), namedInfo(onDeleted, name), onDeleted)
	return nil
}

// namedInfo returns the analysis of the world's own observer system,
// under name: the name its errors and panics give.
func namedInfo(system any, name string) *runInfo {
	in := *runInfoOf(system)
	in.name = name
	return &in
}

// finish deletes id if it is alive, terminating, and holds no finalizer
// any more: the observers of a finalizer's removal and deletion call it.
func (v AllStoragesViewMut) finish(id EntityID) error {
	w := v.held()
	f := w.fin
	if !w.ents.isAlive(id) || !f.term.has(id) || f.holds(id) {
		return nil
	}
	return v.DeleteEntity(id)
}

// holds reports whether id has a component of a finalizer type.
func (f *finalizers) holds(id EntityID) bool {
	for _, st := range f.types {
		if st.has(id) {
			return true
		}
	}
	return false
}

// spare is the finalizers' say in the deletion of the live entity id: if
// id holds a finalizer, it marks id terminating and reports true (id is
// not to be deleted); otherwise it reports false. op names the deleting
// call for the error of a Terminating storage an Each walks.
func (f *finalizers) spare(w *World, op string, id EntityID) (bool, error) {
	if !f.holds(id) {
		return false, nil
	}
	if !f.term.has(id) {
		if w.eaching != 0 {
			if err := refuseAdd(op, false, []EntityID{id}, f.term); err != nil {
				return true, err
			}
		}
		f.term.insert(id, Terminating{})
	}
	return true, nil
}

// spareAll is spare for many ids: it returns those to delete (a new
// slice: ids may be a storage's memory), marking the others terminating.
// Dead ids are kept, for the caller to judge.
func (f *finalizers) spareAll(w *World, op string, ids []EntityID) ([]EntityID, error) {
	keep := make([]EntityID, 0, len(ids))
	for _, id := range ids {
		if w.ents.isAlive(id) {
			spared, err := f.spare(w, op, id)
			if err != nil {
				return nil, err
			}
			if spared {
				continue
			}
		}
		keep = append(keep, id)
	}
	return keep, nil
}

// refusesAdd returns the *FinalizerError of op adding id's component to
// st if st is a finalizer storage and id is terminating without one.
func (f *finalizers) refusesAdd(op string, id EntityID, sts ...storage) error {
	if !f.term.has(id) {
		return nil
	}
	for _, st := range sts {
		if st.has(id) {
			continue
		}
		for _, t := range f.types {
			if t == st {
				return &FinalizerError{Op: op, Type: st.typeName(), ID: id}
			}
		}
	}
	return nil
}

// refusesAddMany is refusesAdd for each of ids.
func (f *finalizers) refusesAddMany(op string, ids []EntityID, sts ...storage) error {
	if f.term.length() == 0 {
		return nil
	}
	for _, id := range ids {
		if err := f.refusesAdd(op, id, sts...); err != nil {
			return err
		}
	}
	return nil
}

// refuseTerminatingMut is the error of borrowing a ViewMut[Terminating].
func refuseTerminatingMut[T any]() error {
	if _, ok := any(*new(T)).(Terminating); !ok {
		return nil
	}
	return &argError{op: "ViewMut[ecs.Terminating]", what: "only the world writes Terminating (it marks the entities deleted while they hold finalizers); borrow View[ecs.Terminating] to read it", kind: ErrInvalidView}
}

// deleteAnyFinal is DeleteAny in a world with finalizers: the holders of
// finalizers among ids (a storage's ids) are marked terminating, the rest
// deleted, last first; it returns how many were.
func (w *World) deleteAnyFinal(ids []EntityID) (int, error) {
	rev := make([]EntityID, len(ids))
	for i, id := range ids {
		rev[len(ids)-1-i] = id
	}
	keep, err := w.fin.spareAll(w, "DeleteAny", rev)
	if err != nil {
		return 0, err
	}
	return w.deleteMany(keep), nil
}

// addFinalRefused returns the *FinalizerError of op adding id's component
// through the view if its type is a finalizer and id is terminating
// without one.
func (c *viewCore[T]) addFinalRefused(op string, id EntityID) error {
	if f := c.w.fin; f != nil {
		return f.refusesAdd(op+" (through ViewMut["+c.s.name+"])", id, c.s)
	}
	return nil
}
