package ecs

import "testing"

// TestDoomedEmptied: the entities AllStoragesViewMut.DeleteEntity leaves
// for later are stripped once: the list is empty after each strip and
// keeps its memory for the next system.
func TestDoomedEmptied(t *testing.T) {
	w := NewWorld()
	ids, err := BulkAddEntity1(w, make([]int, 100))
	if err != nil {
		t.Fatal(err)
	}
	for round, cut := range []int{50, 1, 49} {
		err := w.Run(func(all AllStoragesViewMut) error {
			for _, id := range ids[:cut] {
				if err := all.DeleteEntity(id); err != nil {
					return err
				}
			}
			if got := len(w.scratch.doomed); got != cut {
				t.Errorf("round %d: %d entities waiting, want %d", round, got, cut)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := len(w.scratch.doomed); got != 0 {
			t.Errorf("round %d: %d entities still waiting after the system", round, got)
		}
		if got := storageFor[int](w).dense; len(got) != len(ids)-cut {
			t.Errorf("round %d: %d ints left, want %d", round, len(got), len(ids)-cut)
		}
		ids = ids[cut:]
	}
	if c := cap(w.scratch.doomed); c < 50 {
		t.Errorf("the list's capacity is %d: its memory was not kept", c)
	}
	if err := w.ShrinkToFit(); err != nil {
		t.Fatal(err)
	}
	if w.scratch.doomed != nil {
		t.Errorf("ShrinkToFit kept the list's memory")
	}
}
