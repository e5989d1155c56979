package ecs_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// The book's scenario: a networked bullet keeps its NetworkID until the
// system that tells the clients it is gone has read it.
type finNetworkID struct{ N int }
type finNetworked struct{} // the finalizer
type finOther struct{}     // a second finalizer
type finBullet struct{ Speed int }

func finWorld(t *testing.T) *ecs.World {
	t.Helper()
	w := ecs.NewWorld()
	must(t, ecs.SetFinalizer[finNetworked](w))
	must(t, ecs.SetFinalizer[finOther](w))
	return w
}

// despawnNetworked is the book's clean-up system: for every terminating
// entity still networked, it reports the NetworkID, then drops the
// finalizer.
func despawnNetworked(sent *[]int) func(ecs.View[ecs.Terminating], ecs.View[finNetworkID], ecs.ViewMut[finNetworked]) {
	return func(term ecs.View[ecs.Terminating], net ecs.View[finNetworkID], fin ecs.ViewMut[finNetworked]) {
		var done []ecs.EntityID
		for id, r := range ecs.Join3(term, net, fin).WithID() {
			*sent = append(*sent, r.B.N)
			done = append(done, id)
		}
		for _, id := range done {
			fin.Remove(id)
		}
	}
}

// TestFinalizerBook: deleting a networked bullet leaves it alive and
// readable, marked Terminating, until the clean-up system has read its
// NetworkID and removed the finalizer; then it is deleted.
func TestFinalizerBook(t *testing.T) {
	w := finWorld(t)
	bullet := ok(ecs.AddEntity3(w, finBullet{Speed: 5}, finNetworkID{N: 42}, finNetworked{}))
	plain := ok(ecs.AddEntity2(w, finBullet{Speed: 1}, finNetworkID{N: 7}))
	var deleted []ecs.EntityID
	must(t, ecs.Observe[ecs.EntityDeleted](w, func(ev ecs.Event[ecs.EntityDeleted]) {
		deleted = append(deleted, ev.Get().ID)
	}))

	must(t, w.DeleteEntity(bullet))
	must(t, w.DeleteEntity(plain))
	if !w.IsAlive(bullet) || w.IsAlive(plain) {
		t.Fatalf("alive: bullet %v, plain %v; want true, false", w.IsAlive(bullet), w.IsAlive(plain))
	}
	if got := ok(ecs.Get[finNetworkID](w, bullet)); got.N != 42 {
		t.Fatalf("terminating bullet's NetworkID %v, want 42", got)
	}
	if !ok(ecs.Contains[ecs.Terminating](w, bullet)) {
		t.Fatal("deleted bullet with a finalizer is not Terminating")
	}
	if !slices.Equal(deleted, []ecs.EntityID{plain}) {
		t.Fatalf("deleted %v, want only the plain bullet %v", deleted, plain)
	}

	var sent []int
	must(t, w.Run(despawnNetworked(&sent)))
	if !slices.Equal(sent, []int{42}) {
		t.Fatalf("clean-up sent %v, want [42]", sent)
	}
	if w.IsAlive(bullet) {
		t.Fatal("bullet still alive after its last finalizer was removed")
	}
	if !slices.Equal(deleted, []ecs.EntityID{plain, bullet}) {
		t.Fatalf("deleted %v, want %v", deleted, []ecs.EntityID{plain, bullet})
	}
	must(t, w.Run(func(term ecs.View[ecs.Terminating]) {
		if term.Len() != 0 {
			t.Errorf("%d Terminating left, want 0", term.Len())
		}
	}))
	// The clean-up has nothing to do any more.
	sent = nil
	must(t, w.Run(despawnNetworked(&sent)))
	if len(sent) != 0 {
		t.Fatalf("second clean-up sent %v", sent)
	}
}

// TestFinalizerTwo: an entity with two finalizers is deleted when the
// second goes, whichever way (removed or deleted).
func TestFinalizerTwo(t *testing.T) {
	for _, how := range []string{"Remove", "DeleteComponent", "ViewMut.Delete"} {
		w := finWorld(t)
		id := ok(ecs.AddEntity3(w, finBullet{}, finNetworked{}, finOther{}))
		must(t, w.DeleteEntity(id))
		must(t, errOf3(ecs.Remove[finNetworked](w, id)))
		if !w.IsAlive(id) {
			t.Fatalf("%s: deleted with a finalizer left", how)
		}
		switch how {
		case "Remove":
			must(t, errOf3(ecs.Remove[finOther](w, id)))
		case "DeleteComponent":
			_, err := ecs.DeleteComponent[finOther](w, id)
			must(t, err)
		default:
			must(t, w.Run(func(v ecs.ViewMut[finOther]) { v.Delete(id) }))
		}
		if w.IsAlive(id) {
			t.Fatalf("%s: alive after its last finalizer went", how)
		}
	}
}

// errOf3 is the error of a (value, found, error) call.
func errOf3[T any](_ T, _ bool, err error) error { return err }

// TestFinalizerDeleteAgain: deleting a terminating entity again changes
// nothing, through every deleting call.
func TestFinalizerDeleteAgain(t *testing.T) {
	w := finWorld(t)
	must(t, ecs.TrackComponent[ecs.Terminating](w, ecs.TrackAll))
	id := ok(ecs.AddEntity2(w, finBullet{Speed: 3}, finNetworked{}))
	must(t, w.DeleteEntity(id))
	must(t, w.DeleteEntity(id))
	must(t, w.DeleteEntities(id))
	must(t, w.Run(func(c ecs.Commands) { c.DeleteEntity(id) }))
	must(t, w.Run(func(all ecs.AllStoragesViewMut) error { return all.DeleteEntity(id) }))
	if n := ok(ecs.DeleteAny[finBullet](w)); n != 0 {
		t.Fatalf("DeleteAny deleted %d, want 0", n)
	}
	if !w.IsAlive(id) || ok(ecs.Get[finBullet](w, id)).Speed != 3 {
		t.Fatal("terminating entity changed by deleting it again")
	}
	// Terminating was inserted once, never replaced.
	must(t, w.Run(func(term ecs.View[ecs.Terminating]) {
		ins, err := term.Inserted()
		must(t, err)
		mod, err := term.Modified()
		must(t, err)
		if ins.Count() != 1 || mod.Count() != 0 {
			t.Errorf("Terminating inserted %d, modified %d; want 1, 0", ins.Count(), mod.Count())
		}
	}))
}

// TestFinalizerAddRefused: a terminating entity cannot get a finalizer it
// does not hold, by any adding call; it may replace one it holds, and
// get other components.
func TestFinalizerAddRefused(t *testing.T) {
	w := finWorld(t)
	id := ok(ecs.AddEntity2(w, finBullet{}, finNetworked{}))
	must(t, w.DeleteEntity(id))
	check := func(what string, err error) {
		t.Helper()
		var fe *ecs.FinalizerError
		if !errors.Is(err, ecs.ErrTerminating) || !errors.As(err, &fe) || fe.ID != id || fe.Type != "ecs_test.finOther" {
			t.Errorf("%s: error %v, want a *FinalizerError for %v and ecs_test.finOther", what, err, id)
		}
		if ok(ecs.Contains[finOther](w, id)) {
			t.Fatalf("%s: the finalizer was added", what)
		}
	}
	check("AddComponent1", ecs.AddComponent1(w, id, finOther{}))
	check("AddComponent2", ecs.AddComponent2(w, id, finBullet{Speed: 9}, finOther{}))
	check("BulkAddComponent1", ecs.BulkAddComponent1(w, []ecs.EntityID{id}, []finOther{{}}))
	if ok(ecs.Get[finBullet](w, id)).Speed == 9 {
		t.Fatal("AddComponent2 added the bullet although it refused the finalizer")
	}
	check("ViewMut.AddComponent", runErr(w, func(ents ecs.EntitiesView, v ecs.ViewMut[finOther]) error {
		return v.AddComponent(ents, id, finOther{})
	}))
	check("ViewMut.AddComponentUnchecked", runErr(w, func(v ecs.ViewMut[finOther]) error {
		return v.AddComponentUnchecked(id, finOther{})
	}))
	check("AddTo2", runErr(w, func(ents ecs.EntitiesView, b ecs.ViewMut[finBullet], v ecs.ViewMut[finOther]) error {
		return ecs.AddTo2(ents, id, b, v, finBullet{}, finOther{})
	}))
	check("Commands", w.Run(func(c ecs.Commands) { ecs.CommandsFor[finOther](c).Add(id, finOther{}) }))
	// Replacing the finalizer it holds, and adding other components, pass.
	must(t, ecs.AddComponent2(w, id, finNetworked{}, finBullet{Speed: 4}))
	if !w.IsAlive(id) || ok(ecs.Get[finBullet](w, id)).Speed != 4 {
		t.Fatal("replacing a held finalizer failed")
	}
	// A live entity that is not terminating takes finalizers freely.
	other := ok(w.AddEntity())
	must(t, ecs.AddComponent1(w, other, finOther{}))
}

// runErr runs system and returns its error (or World.Run's).
func runErr(w *ecs.World, system any) error { return w.Run(system) }

// TestFinalizerBulk: bulk deletions, DeleteAny and Commands delete the
// entities without finalizers and mark the others; a dead id in
// DeleteEntities changes nothing.
func TestFinalizerBulk(t *testing.T) {
	w := finWorld(t)
	a := ok(ecs.AddEntity2(w, finBullet{Speed: 1}, finNetworked{}))
	b := ok(ecs.AddEntity1(w, finBullet{Speed: 2}))
	c := ok(ecs.AddEntity2(w, finBullet{Speed: 3}, finOther{}))
	d := ok(ecs.AddEntity1(w, finBullet{Speed: 4}))
	dead := ok(w.AddEntity())
	must(t, w.DeleteEntity(dead))

	if err := w.DeleteEntities(a, b, dead); !errors.Is(err, ecs.ErrDeadEntity) {
		t.Fatalf("DeleteEntities with a dead id: %v, want ErrDeadEntity", err)
	}
	if !w.IsAlive(b) || ok(ecs.Contains[ecs.Terminating](w, a)) {
		t.Fatal("a refused DeleteEntities changed the world")
	}
	must(t, w.DeleteEntities(a, b))
	if !w.IsAlive(a) || w.IsAlive(b) || !ok(ecs.Contains[ecs.Terminating](w, a)) {
		t.Fatal("DeleteEntities: want a terminating, b deleted")
	}
	if n := ok(ecs.DeleteAny[finBullet](w)); n != 1 {
		t.Fatalf("DeleteAny deleted %d, want 1 (d)", n)
	}
	if w.IsAlive(d) || !w.IsAlive(c) || !ok(ecs.Contains[ecs.Terminating](w, c)) {
		t.Fatal("DeleteAny: want c terminating, d deleted")
	}
	// Commands in a workload: the entity waits for the finalizer, which
	// a later system removes; it goes at the end of the run.
	e := ok(ecs.AddEntity2(w, finBullet{}, finNetworked{}))
	seen := 0
	must(t, w.AddWorkload("despawn",
		func(cm ecs.Commands) { cm.DeleteEntity(e) },
		ecs.ApplyCommands(),
		func(term ecs.View[ecs.Terminating], fin ecs.ViewMut[finNetworked]) {
			if term.Contains(e) {
				seen++
				fin.Remove(e)
			}
		},
	))
	must(t, w.RunWorkload("despawn"))
	if seen != 1 || w.IsAlive(e) {
		t.Fatalf("workload: clean-up saw it %d times, alive %v; want 1, false", seen, w.IsAlive(e))
	}
	// Removing every finalizer in one bulk call deletes them all.
	must(t, errOf3(ecs.Remove[finNetworked](w, a)))
	_, err := ecs.BulkDeleteComponent[finOther](w, c)
	must(t, err)
	if w.IsAlive(a) || w.IsAlive(c) {
		t.Fatal("bulk finalizer removal left terminating entities alive")
	}
}

// TestFinalizerTracking: what tracking reports, and when: nothing is
// deleted while the entity terminates; its components are logged as
// deleted when it really is, with their values.
func TestFinalizerTracking(t *testing.T) {
	w := finWorld(t)
	must(t, ecs.TrackComponent[finBullet](w, ecs.TrackDeletion|ecs.TrackRemoval))
	id := ok(ecs.AddEntity2(w, finBullet{Speed: 8}, finNetworked{}))
	deletedBullets := func() []finBullet {
		var got []finBullet
		must(t, w.Run(func(v ecs.View[finBullet]) {
			del, err := v.Deleted()
			must(t, err)
			for _, b := range del {
				got = append(got, b)
			}
		}))
		return got
	}
	must(t, w.DeleteEntity(id))
	if got := deletedBullets(); len(got) != 0 {
		t.Fatalf("terminating entity's bullet logged deleted: %v", got)
	}
	must(t, errOf3(ecs.Remove[finNetworked](w, id)))
	if got := deletedBullets(); !slices.Equal(got, []finBullet{{Speed: 8}}) {
		t.Fatalf("deleted bullets %v, want [{8}]", got)
	}
}

// TestFinalizerTakeBack: removing Terminating at the World level takes the
// entity back; DeleteUnchecked and Strip pass finalizers by.
func TestFinalizerTakeBack(t *testing.T) {
	w := finWorld(t)
	id := ok(ecs.AddEntity2(w, finBullet{}, finNetworked{}))
	must(t, w.DeleteEntity(id))
	must(t, errOf3(ecs.Remove[ecs.Terminating](w, id)))
	must(t, errOf3(ecs.Remove[finNetworked](w, id)))
	if !w.IsAlive(id) {
		t.Fatal("entity taken back was deleted when its finalizer went")
	}

	u := ok(ecs.AddEntity2(w, finBullet{}, finNetworked{}))
	must(t, w.Run(func(ents ecs.EntitiesViewMut) { ents.DeleteUnchecked(u) }))
	if w.IsAlive(u) {
		t.Fatal("DeleteUnchecked kept an entity with a finalizer")
	}
	s := ok(ecs.AddEntity2(w, finBullet{}, finNetworked{}))
	must(t, w.DeleteEntity(s))
	must(t, w.Strip(s))
	if !w.IsAlive(s) || ok(ecs.Contains[ecs.Terminating](w, s)) {
		t.Fatal("Strip: want the entity alive with nothing left")
	}
}

// TestFinalizerRefusals: bad declarations and writing Terminating through
// a view get clear errors and change nothing.
func TestFinalizerRefusals(t *testing.T) {
	if err := ecs.SetFinalizer[finNetworked](nil); !errors.Is(err, ecs.ErrNilWorld) {
		t.Errorf("nil world: %v", err)
	}
	w := ecs.NewWorld()
	if err := ecs.SetFinalizer[ecs.Terminating](w); !errors.Is(err, ecs.ErrInvalidView) {
		t.Errorf("SetFinalizer[Terminating]: %v", err)
	}
	must(t, ecs.SetFinalizer[finNetworked](w))
	must(t, ecs.SetFinalizer[finNetworked](w)) // twice: nothing more
	id := ok(ecs.AddEntity1(w, finNetworked{}))
	must(t, w.DeleteEntity(id))
	must(t, errOf3(ecs.Remove[finNetworked](w, id)))
	if w.IsAlive(id) {
		t.Fatal("declared twice: entity not deleted once its finalizer went")
	}
	err := w.Run(func(v ecs.ViewMut[ecs.Terminating]) {})
	if !errors.Is(err, ecs.ErrInvalidView) || !contains(err.Error(), "ViewMut[ecs.Terminating]") {
		t.Errorf("ViewMut[Terminating]: %v", err)
	}
	// SetFinalizer borrows the world.
	err = w.Run(func(v ecs.View[finBullet]) {
		if err := ecs.SetFinalizer[finOther](w); !errors.Is(err, ecs.ErrBorrowConflict) {
			t.Errorf("SetFinalizer inside a system: %v", err)
		}
	})
	must(t, err)
}

// TestFinalizerInSystem: AllStoragesViewMut.DeleteEntity inside a system
// marks; the finalizer removed in the same system deletes the entity
// when the system returns.
func TestFinalizerInSystem(t *testing.T) {
	w := finWorld(t)
	id := ok(ecs.AddEntity2(w, finBullet{}, finNetworked{}))
	must(t, w.Run(func(all ecs.AllStoragesViewMut) error {
		if err := all.DeleteEntity(id); err != nil {
			return err
		}
		if !ok(ecs.Contains[ecs.Terminating](all, id)) {
			t.Error("not terminating inside the system")
		}
		_, _, err := ecs.Remove[finNetworked](all, id)
		return err
	}))
	if w.IsAlive(id) {
		t.Fatal("alive after the system removed its last finalizer")
	}
}

func ExampleSetFinalizer() {
	type NetworkID struct{ N int }
	type Networked struct{} // the finalizer
	w := ecs.NewWorld()
	_ = ecs.SetFinalizer[Networked](w)
	bullet, _ := ecs.AddEntity2(w, NetworkID{N: 42}, Networked{})

	_ = w.DeleteEntity(bullet) // held back: it has a Networked
	fmt.Println("alive after DeleteEntity:", w.IsAlive(bullet))

	cleanUp := func(term ecs.View[ecs.Terminating], net ecs.View[NetworkID], fin ecs.ViewMut[Networked]) {
		var done []ecs.EntityID
		for id, r := range ecs.Join3(term, net, fin).WithID() {
			fmt.Println("despawn on the clients:", r.B.N)
			done = append(done, id)
		}
		for _, id := range done {
			fin.Remove(id) // the last finalizer: deleted when the system returns
		}
	}
	_ = w.Run(cleanUp)
	fmt.Println("alive after the clean-up:", w.IsAlive(bullet))
	// Output:
	// alive after DeleteEntity: true
	// despawn on the clients: 42
	// alive after the clean-up: false
}
