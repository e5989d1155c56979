package ecs_test

import (
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

func TestDeleteFromSeveralViews(t *testing.T) {
	w := ecs.NewWorld()
	both, _ := ecs.AddEntity2(w, wPos{1, 1}, wVel{2, 2})
	onlyPos, _ := ecs.AddEntity1(w, wPos{3, 3})
	noErr(t, w.Run(func(p ecs.ViewMut[wPos], v ecs.ViewMut[wVel]) {
		if n := ecs.DeleteFrom(both, p, v); n != 2 {
			t.Errorf("deleted %d from both, want 2", n)
		}
		if n := ecs.DeleteFrom(onlyPos, p, v); n != 1 {
			t.Errorf("deleted %d from onlyPos, want 1", n)
		}
		if n := ecs.DeleteFrom(both, p, v); n != 0 {
			t.Errorf("deleted %d again, want 0", n)
		}
		if p.Len() != 0 || v.Len() != 0 {
			t.Errorf("left %d Pos, %d Vel", p.Len(), v.Len())
		}
	}))
	if !w.IsAlive(both) || !w.IsAlive(onlyPos) {
		t.Fatal("deleting components must not delete entities")
	}
}

// TestSequencesAfterReleasePanic: a sequence a view returned, kept past
// the view's release, panics when ranged over, rather than reading a
// storage others may be changing.
func TestSequencesAfterReleasePanic(t *testing.T) {
	w, ids, _, _ := lookupWorld(t)
	var v ecs.View[wPos]
	var vm ecs.ViewMut[wVel]
	release, err := w.Borrow(&v, &vm)
	must(t, err)
	seqs := map[string]func(){
		"View.Lookup":    rangeOver(v.Lookup(ids)),
		"View.All":       rangeOver1(v.All()),
		"View.WithID":    rangeOver(v.WithID()),
		"ViewMut.Lookup": rangeOver(vm.Lookup(ids)),
		"ViewMut.All":    rangeOver1(vm.All()),
		"ViewMut.WithID": rangeOver(vm.WithID()),
	}
	release()
	must(t, w.DeleteEntity(ids[0]))
	mustPanicReleased(t, seqs)
}

// TestViewCopiesAfterRelease: a copy of a View kept past the release
// panics on every look-up, in the identity prefix too, though it holds
// its own copies of the storage's layout; and it still does after the
// original variable is borrowed again over a storage whose components
// moved (grew past its capacity), instead of reading the new prefix's
// length against the old array. The original reads the new components.
func TestViewCopiesAfterRelease(t *testing.T) {
	w := ecs.NewWorld()
	ids, err := ecs.BulkAddEntity1(w, []wPos{{0, 0}, {1, 0}, {2, 0}, {3, 0}})
	must(t, err)
	var v ecs.View[wPos]
	release, err := w.Borrow(&v)
	must(t, err)
	if p, ok := v.Get(ids[3]); !ok || p.X != 3 {
		t.Fatalf("Get(ids[3]) = %v, %v before the release", p, ok)
	}
	kept := v
	release()
	uses := func(c ecs.View[wPos], id ecs.EntityID) map[string]func() {
		return map[string]func(){
			"Get":     func() { c.Get(id) },
			"MustGet": func() { c.MustGet(id) },
			"Lookup":  rangeOver(c.Lookup([]ecs.EntityID{id})),
		}
	}
	mustPanicReleased(t, uses(kept, ids[3]))

	more := make([]wPos, 5000)
	for i := range more {
		more[i] = wPos{float64(4 + i), 0}
	}
	moreIDs, err := ecs.BulkAddEntity1(w, more)
	must(t, err)
	release, err = w.Borrow(&v)
	must(t, err)
	defer release()
	last := moreIDs[len(moreIDs)-1]
	if p, ok := v.Get(last); !ok || p.X != 5003 {
		t.Errorf("Get(%v) = %v, %v after the borrow again, want X = 5003", last, p, ok)
	}
	mustPanicReleased(t, uses(kept, last))
	mustPanicReleased(t, uses(kept, ids[3]))

	// The same off the prefix: components given in reverse order, so
	// that the storage has no identity prefix, and every look-up goes
	// through the sparse pages to a position below n.
	w = ecs.NewWorld()
	reversed := func(n int) []ecs.EntityID {
		ids, err := ecs.BulkAddEntity1(w, make([]wVel, n))
		must(t, err)
		slices.Reverse(ids)
		must(t, ecs.BulkAddComponent1(w, ids, make([]wPos, n)))
		return ids
	}
	few := reversed(4)
	var u ecs.View[wPos]
	release2, err := w.Borrow(&u)
	must(t, err)
	if _, ok := u.Get(few[0]); !ok {
		t.Fatalf("Get(%v) missed before the release", few[0])
	}
	kept = u
	release2()
	many := reversed(5000)
	release2, err = w.Borrow(&u)
	must(t, err)
	defer release2()
	if _, ok := u.Get(many[0]); !ok {
		t.Errorf("Get(%v) missed after the borrow again", many[0])
	}
	mustPanicReleased(t, uses(kept, many[0]))
	mustPanicReleased(t, uses(kept, few[0]))
}
