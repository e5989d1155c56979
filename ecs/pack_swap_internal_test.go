package ecs

import (
	"fmt"
	"slices"
	"testing"
)

// Component types of every kind group.swap distinguishes: moved as two
// words (the fast case), as some other number of words (a loop, or no
// data at all), or through the member's swapPos (a size or alignment that
// is not a whole number of words, or pointers).
type (
	swVec2  struct{ X, Y float64 }
	swVec3  [3]int64
	swEmpty struct{}
	swI32   struct{ A int32 }
	swPair  struct{ A, B int32 }
	swName  struct{ S string }
	swBig   struct{ A, B, C, D, E uint64 }
)

// TestGroupSwapKinds runs adds and removals through a group of two members
// of each kind of component, and of a tracked member, checking after every
// step that the group is packed and that every entity kept its own
// components: a swap that moved an entity without its data, or the data
// without its sparse entry, fails here.
func TestGroupSwapKinds(t *testing.T) {
	t.Run("two words and two words", func(t *testing.T) {
		testGroupSwap(t, func(i int) swVec2 { return swVec2{float64(i), -float64(i)} }, func(i int) swPos { return swPos{float64(i), 0.5} })
	})
	t.Run("two words and three", func(t *testing.T) {
		testGroupSwap(t, func(i int) swVec2 { return swVec2{float64(i), 1} }, func(i int) swVec3 { return swVec3{int64(i), 2, -int64(i)} })
	})
	t.Run("five words and one", func(t *testing.T) {
		testGroupSwap(t, func(i int) swBig { return swBig{uint64(i), 1, 2, 3, uint64(i) * 7} }, func(i int) int { return -i })
	})
	t.Run("no data and two words", func(t *testing.T) {
		testGroupSwap(t, func(int) swEmpty { return swEmpty{} }, func(i int) swVec2 { return swVec2{float64(i), 3} })
	})
	t.Run("half words and two words", func(t *testing.T) {
		testGroupSwap(t, func(i int) swI32 { return swI32{int32(i)} }, func(i int) swVec2 { return swVec2{float64(i), 4} })
	})
	t.Run("4-byte aligned and pointers", func(t *testing.T) {
		testGroupSwap(t, func(i int) swPair { return swPair{int32(i), -int32(i)} }, func(i int) swName { return swName{fmt.Sprint(i)} })
	})
	t.Run("tracked and two words", func(t *testing.T) {
		testGroupSwap(t, func(i int) gT { return gT{i} }, func(i int) swVec2 { return swVec2{float64(i), 5} })
	})
}

// swPos is a second two-float64 type, a member beside swVec2.
type swPos struct{ X, Y float64 }

// testGroupSwap gives 300 entities an A (made by mkA from the entity's
// number) and, in a scrambled order, a B; it then removes and re-adds B
// and removes A from scrambled entities, through every removal path,
// checking the group and every component after each round.
func testGroupSwap[A, B comparable](t *testing.T, mkA func(int) A, mkB func(int) B) {
	t.Helper()
	w := NewWorld()
	if err := AddGroup2[A, B](w); err != nil {
		t.Fatal(err)
	}
	const n = 300
	ids := make([]EntityID, n)
	for i := range ids {
		ids[i], _ = w.AddEntity()
		if err := AddComponent1(w, ids[i], mkA(i)); err != nil {
			t.Fatal(err)
		}
	}
	g := storageFor[A](w).pack
	hasA, hasB := make([]bool, n), make([]bool, n)
	for i := range hasA {
		hasA[i] = true
	}
	verify := func(step string) {
		t.Helper()
		checkGroup(t, g)
		for i, id := range ids {
			a, errA := Get[A](w, id)
			if hasA[i] != (errA == nil) || hasA[i] && a != mkA(i) {
				t.Fatalf("%s: entity %d has A %v (%v), want present=%v %v", step, i, a, errA, hasA[i], mkA(i))
			}
			b, errB := Get[B](w, id)
			if hasB[i] != (errB == nil) || hasB[i] && b != mkB(i) {
				t.Fatalf("%s: entity %d has B %v (%v), want present=%v %v", step, i, b, errB, hasB[i], mkB(i))
			}
		}
	}
	x := uint32(12345)
	scrambled := func() []int {
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		for i := n - 1; i > 0; i-- {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			j := int(x % uint32(i+1))
			order[i], order[j] = order[j], order[i]
		}
		return order
	}
	for round := range 4 {
		for _, i := range scrambled() {
			if !hasB[i] && (round+i)%5 != 0 {
				if err := AddComponent1(w, ids[i], mkB(i)); err != nil {
					t.Fatal(err)
				}
				hasB[i] = true
			}
		}
		verify(fmt.Sprintf("round %d, after adding B", round))
		for k, i := range scrambled() {
			switch {
			case k%3 == 0 && hasB[i]: // B leaves: the group swaps A
				if _, err := DeleteComponent[B](w, ids[i]); err != nil {
					t.Fatal(err)
				}
				hasB[i] = false
			case k%3 == 1 && hasA[i]: // A leaves: the group swaps B
				if _, had, err := Remove[A](w, ids[i]); err != nil || !had {
					t.Fatalf("Remove[A](%d) = %v, %v", i, had, err)
				}
				hasA[i] = false
			case k%7 == 2 && !hasA[i]: // A comes back: the entity may join again
				if err := AddComponent1(w, ids[i], mkA(i)); err != nil {
					t.Fatal(err)
				}
				hasA[i] = true
			}
		}
		verify(fmt.Sprintf("round %d, after removals", round))
	}
}

// TestGroupSwapAfterTrackComponent turns tracking on for a member whose
// components the group was swapping as words: from then on its swaps must
// go through swapPos, which moves the modification timestamps along.
func TestGroupSwapAfterTrackComponent(t *testing.T) {
	w := NewWorld()
	if err := AddGroup2[swVec2, swPos](w); err != nil {
		t.Fatal(err)
	}
	var ids []EntityID
	for i := range 10 {
		id, _ := AddEntity1(w, swVec2{float64(i), 0})
		ids = append(ids, id)
	}
	for _, i := range []int{4, 8} { // swaps while untracked
		if err := AddComponent1(w, ids[i], swPos{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := TrackComponent[swVec2](w, TrackModification); err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{7, 3} {
		if err := w.Run(func(v ViewMut[swVec2]) { v.MustGet(ids[i]).Y = 1 }); err != nil {
			t.Fatal(err)
		}
	}
	// Joining swaps swVec2's components to the front; leaving swaps them
	// back out, through both removal paths.
	for _, i := range []int{9, 7, 0, 5, 3} {
		if err := AddComponent1(w, ids[i], swPos{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := DeleteComponent[swPos](w, ids[9]); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Remove[swPos](w, ids[4]); err != nil {
		t.Fatal(err)
	}
	checkGroup(t, storageFor[swVec2](w).pack)
	if got := modifiedKeys(t, w, func(c *swVec2) float64 { return c.X }); !slices.Equal(got, []float64{3, 7}) {
		t.Errorf("modified after group swaps = %v, want [3 7]", got)
	}
}
