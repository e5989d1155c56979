package ecs_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// lookedUp collects what a Lookup sequence yields as "id:X" strings,
// stopping after limit items when limit is positive.
func lookedUp(seq func(func(ecs.EntityID, *wPos) bool), limit int) []string {
	var out []string
	for id, p := range seq {
		out = append(out, fmt.Sprintf("%v:%v", id, p.X))
		if len(out) == limit {
			break
		}
	}
	return out
}

// lookupWorld has six entities with Position {i, 0}: 0..3 created with it
// in order (the storage's identity prefix), 4 without it, then 5 created
// in the slot of a deleted entity (a later generation). It returns the
// ids, the deleted one, and an id never issued.
func lookupWorld(t *testing.T) (w *ecs.World, ids []ecs.EntityID, dead, forged ecs.EntityID) {
	t.Helper()
	w = ecs.NewWorld()
	ids, err := ecs.BulkAddEntity1(w, []wPos{{0, 0}, {1, 0}, {2, 0}, {3, 0}})
	must(t, err)
	bare, err := w.AddEntity()
	must(t, err)
	dead, err = w.AddEntity()
	must(t, err)
	must(t, w.DeleteEntity(dead))
	reused, err := ecs.AddEntity1(w, wPos{5, 0})
	must(t, err)
	if reused.Index() != dead.Index() {
		t.Fatalf("the new entity took slot %d, not the freed %d", reused.Index(), dead.Index())
	}
	return w, append(ids, bare, reused), dead, fzForge(99, 0)
}

func TestViewLookup(t *testing.T) {
	w, ids, dead, forged := lookupWorld(t)
	want := func(xs ...int) []string {
		var out []string
		for _, x := range xs {
			out = append(out, fmt.Sprintf("%v:%v", ids[x], float64(x)))
		}
		return out
	}
	cases := []struct {
		name  string
		ids   []ecs.EntityID
		limit int
		want  []string
	}{
		{"none", nil, 0, nil},
		{"in the order given", []ecs.EntityID{ids[3], ids[0], ids[2]}, 0, want(3, 0, 2)},
		{"twice", []ecs.EntityID{ids[1], ids[1]}, 0, want(1, 1)},
		{"without a component", []ecs.EntityID{ids[4], ids[0]}, 0, want(0)},
		{"deleted, and its slot's new entity", []ecs.EntityID{dead, ids[5]}, 0, want(5)},
		{"never issued, and the null id", []ecs.EntityID{forged, ecs.NullID, ids[2]}, 0, want(2)},
		{"the loop stops early", []ecs.EntityID{ids[0], ids[1], ids[2]}, 2, want(0, 1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			noErr(t, w.Run(func(v ecs.View[wPos]) {
				if got := lookedUp(v.Lookup(c.ids), c.limit); !slices.Equal(got, c.want) {
					t.Errorf("View.Lookup = %v, want %v", got, c.want)
				}
			}))
			noErr(t, w.Run(func(v ecs.ViewMut[wPos]) {
				if got := lookedUp(v.Lookup(c.ids), c.limit); !slices.Equal(got, c.want) {
					t.Errorf("ViewMut.Lookup = %v, want %v", got, c.want)
				}
			}))
		})
	}
}

// TestLookupWhileTheGroupMoves: adding through a ViewMut of one group
// member in Lookup's loop over another member moves the latter's
// components. Through a ViewMut of it, each id still gives its own
// component; through a View (which does not conflict with the ViewMut in
// the same system), the first addition is refused with a GroupError,
// before changing anything.
func TestLookupWhileTheGroupMoves(t *testing.T) {
	w := ecs.NewWorld()
	must(t, ecs.AddGroup2[wPos, wVel](w))
	const n = 64
	ps := make([]wPos, n)
	for i := range ps {
		ps[i] = wPos{float64(i), 0}
	}
	ids, err := ecs.BulkAddEntity1(w, ps)
	must(t, err)
	order := slices.Clone(ids)
	slices.Reverse(order) // each addition swaps the entity to the group's end
	err = w.Run(func(ents ecs.EntitiesView, pos ecs.View[wPos], vel ecs.ViewMut[wVel]) error {
		for id := range pos.Lookup(order) {
			if err := vel.AddComponent(ents, id, wVel{1, 1}); err != nil {
				return err
			}
		}
		return nil
	})
	if ge := errAs[*ecs.GroupError](t, err); ge.View != "View[ecs_test.wPos]" {
		t.Errorf("error %v, want it to name the View", err)
	}
	if n, _, err := ecs.GroupLen[wPos](w); err != nil || n != 0 {
		t.Fatalf("GroupLen = %d after the refused addition, want 0", n)
	}
	noErr(t, w.Run(func(ents ecs.EntitiesView, pos ecs.ViewMut[wPos], vel ecs.ViewMut[wVel]) error {
		k := 0
		for id, p := range pos.Lookup(order) {
			if id != order[k] || p.X != float64(order[k].Index()) {
				return fmt.Errorf("item %d: %v with X = %v, want %v with X = %v", k, id, p.X, order[k], order[k].Index())
			}
			if err := vel.AddComponent(ents, id, wVel{1, 1}); err != nil {
				return err
			}
			k++
		}
		if k != n {
			return fmt.Errorf("visited %d, want %d", k, n)
		}
		return nil
	}))
	must(t, ecs.CheckLayouts(w))
}

// TestViewMutLookupChangesTheStorage: ViewMut.Lookup looks every id up in
// the storage as the loop has left it.
func TestViewMutLookupChangesTheStorage(t *testing.T) {
	w, ids, _, _ := lookupWorld(t)
	var got []string
	noErr(t, w.Run(func(ents ecs.EntitiesView, v ecs.ViewMut[wPos]) error {
		for id, p := range v.Lookup([]ecs.EntityID{ids[0], ids[1], ids[4], ids[2], ids[4]}) {
			got = append(got, fmt.Sprintf("%d:%v", id.Index(), p.X))
			p.X += 10
			switch id {
			case ids[0]:
				v.Delete(ids[2]) // moves the last component into 2's place
			case ids[1]:
				if err := v.AddComponent(ents, ids[4], wPos{4, 0}); err != nil {
					return err
				}
			}
		}
		return nil
	}))
	if want := []string{"0:0", "1:1", "4:4", "4:14"}; !slices.Equal(got, want) {
		t.Errorf("visited %v, want %v", got, want)
	}
	for i, want := range map[int]float64{0: 10, 1: 11, 3: 3, 4: 24, 5: 5} {
		if p, err := ecs.Get[wPos](w, ids[i]); err != nil || p.X != want {
			t.Errorf("entity %d: %v, %v; want X = %v", i, p, err, want)
		}
	}
}

// TestViewMutLookupMarksModified: what ViewMut.Lookup hands out is marked
// modified, as ViewMut.Get marks it; View.Lookup marks nothing.
func TestViewMutLookupMarksModified(t *testing.T) {
	w := ecs.NewWorld()
	ids := make([]ecs.EntityID, 4)
	for i := range ids {
		var err error
		ids[i], err = ecs.AddEntity1(w, trMana{i})
		must(t, err)
	}
	withViewMut(t, w, func(vm ecs.ViewMut[trMana]) { vm.ClearAllModified() })
	noErr(t, w.Run(func(v ecs.View[trMana]) {
		for range v.Lookup(ids) {
		}
	}))
	withViewMut(t, w, func(vm ecs.ViewMut[trMana]) {
		for range vm.Lookup([]ecs.EntityID{ids[3], ids[1]}) {
		}
		mod, err := vm.Modified()
		if got := changedIDs(t, mod, err); !slices.Equal(got, []ecs.EntityID{ids[1], ids[3]}) {
			t.Errorf("modified %v, want %v", got, []ecs.EntityID{ids[1], ids[3]})
		}
	})
}

func TestViewLookupDoesNotAllocate(t *testing.T) {
	w, ids, _, _ := lookupWorld(t)
	var v ecs.View[wPos]
	release, err := w.Borrow(&v)
	must(t, err)
	defer release()
	sum := 0.0
	if n := testing.AllocsPerRun(100, func() {
		for _, p := range v.Lookup(ids) {
			sum += p.X
		}
	}); n != 0 {
		t.Errorf("View.Lookup allocates %v times per loop", n)
	}
}

// A View of a component of size zero finds it as any other: through the
// identity prefix, through the sparse pages (an entity of a later
// generation), and not for entities without it.
func TestViewLookupOfZeroSizeComponent(t *testing.T) {
	type mark struct{}
	w := ecs.NewWorld()
	ids, err := ecs.BulkAddEntity1(w, make([]mark, 3)) // the prefix
	must(t, err)
	bare, err := w.AddEntity()
	must(t, err)
	must(t, w.DeleteEntity(ids[1]))
	reused, err := ecs.AddEntity1(w, mark{}) // slot 1, generation 1
	must(t, err)
	holders := []ecs.EntityID{ids[0], reused, ids[2]}
	must(t, w.Run(func(v ecs.View[mark]) {
		for _, id := range holders {
			if p, ok := v.Get(id); p == nil || !ok {
				t.Errorf("Get(%v) = %v, %v; want a pointer", id, p, ok)
			}
			if v.MustGet(id) == nil {
				t.Errorf("MustGet(%v) = nil", id)
			}
		}
		for _, id := range []ecs.EntityID{bare, ids[1]} {
			if p, ok := v.Get(id); p != nil || ok {
				t.Errorf("Get(%v) = %v, %v; want nil, false", id, p, ok)
			}
		}
		var got []ecs.EntityID
		for id, p := range v.Lookup([]ecs.EntityID{bare, ids[2], ids[1], reused, ids[0]}) {
			if p == nil {
				t.Errorf("Lookup yielded %v with a nil pointer", id)
			}
			got = append(got, id)
		}
		if want := []ecs.EntityID{ids[2], reused, ids[0]}; !slices.Equal(got, want) {
			t.Errorf("Lookup yielded %v, want %v", got, want)
		}
	}))
}

// TestGetPastThePageTable checks View.Get (and MustGet, Contains and
// Lookup beside it) on ids off the storage's identity prefix: ids whose
// sparse page exists, ids past the page table, with the prefix's
// generation and others. View.Get reads no page for an id past the table
// and relies on that id's slot being past the storage's components.
func TestGetPastThePageTable(t *testing.T) {
	w := ecs.NewWorld()
	// Indices 0..3: the prefix (generation 0). 4..3003: no component,
	// but 1500 gets one later, in page 1: the table reaches index 2047.
	_, err := ecs.BulkAddEntity1(w, []wPos{{0, 0}, {1, 0}, {2, 0}, {3, 0}})
	must(t, err)
	var paged ecs.EntityID
	for i := 4; i < 3004; i++ {
		id, err := w.AddEntity()
		must(t, err)
		if i == 1500 {
			paged = id
		}
	}
	equal(t, "paged index", paged.Index(), uint32(1500))
	must(t, ecs.AddComponent1(w, paged, wPos{1500, 0}))
	cases := []struct {
		name string
		id   ecs.EntityID
		want float64 // -1: none
	}{
		{"prefix", fzForge(3, 0), 3},
		{"prefix index, later generation", fzForge(3, 1), -1},
		{"paged", fzForge(1500, 0), 1500},
		{"paged index, later generation", fzForge(1500, 1), -1},
		{"in the table, no component", fzForge(4, 0), -1},
		{"first index past the table", fzForge(2048, 0), -1},
		{"last live index, past the table", fzForge(3003, 0), -1},
		{"never issued, past the table", fzForge(5000, 0), -1},
		{"past the table, later generation", fzForge(2048, 1), -1},
		{"past the table, last generation", fzForge(2048, math.MaxUint32-1), -1},
		{"highest index", fzForge(math.MaxUint32-1, 0), -1},
		{"null id", ecs.NullID, -1},
	}
	must(t, w.Run(func(v ecs.View[wPos]) {
		for _, c := range cases {
			p, ok := v.Get(c.id)
			if c.want < 0 {
				isTrue(t, !ok && p == nil, "%s: Get(%v) = %v, %v, want nil, false", c.name, c.id, p, ok)
				isTrue(t, !v.Contains(c.id), "%s: Contains(%v) is true", c.name, c.id)
				got := lookedUp(v.Lookup([]ecs.EntityID{c.id}), 0)
				equal(t, c.name+": Lookup yields", len(got), 0)
				continue
			}
			isTrue(t, ok && p != nil && p.X == c.want, "%s: Get(%v) = %v, %v, want X %v", c.name, c.id, p, ok, c.want)
			isTrue(t, v.Contains(c.id), "%s: Contains(%v) is false", c.name, c.id)
			equal(t, c.name+": MustGet", v.MustGet(c.id).X, c.want)
		}
	}))
}
