package ecs_test

// Re-alignment (align.go): joins that find their storages out of order
// have the world sort them at the next sync point; SortAs does it on
// demand. Storage order is unspecified, so these tests look at it through
// ecs.OrderOf, and check that every entity keeps its components.

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

type alAcc struct{ X float32 }

// alTracked tracks everything: its timestamps must move with it.
type alTracked struct{ V int }

func (alTracked) Tracking() ecs.Tracking { return ecs.TrackAll }

// churned returns a world of movers (Pos and Vel) and as many again with
// Pos only, in which half the movers lost their Vel and got it back in
// another order: a join of Pos and Vel misses most of its guesses.
func churned(t *testing.T, movers int) (*ecs.World, map[ecs.EntityID]Pos) {
	t.Helper()
	w := ecs.NewWorld()
	want := map[ecs.EntityID]Pos{}
	var ids []ecs.EntityID
	for i := range movers {
		id, err := ecs.AddEntity2(w, Pos{float32(i), 0}, Vel{1, 0})
		must(t, err)
		want[id] = Pos{float32(i), 0}
		ids = append(ids, id)
		other, err := ecs.AddEntity1(w, Pos{-1, float32(i)})
		must(t, err)
		want[other] = Pos{-1, float32(i)}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	lost := ids[:movers/2]
	for _, id := range lost {
		_, err := ecs.DeleteComponent[Vel](w, id)
		must(t, err)
	}
	for _, id := range slices.Backward(lost) {
		must(t, ecs.AddComponent1(w, id, Vel{1, 0}))
	}
	return w, want
}

// moveAll is a system joining Pos and Vel by range over All.
func moveAll(pos ecs.ViewMut[Pos], vel ecs.View[Vel]) {
	for p, v := range ecs.Join2(pos, vel).All() {
		p.X += v.X
	}
}

// leads reports whether follow starts with the entities of lead it
// holds, in lead's order.
func leads(follow, lead []ecs.EntityID) bool {
	in := map[ecs.EntityID]bool{}
	for _, id := range follow {
		in[id] = true
	}
	var shared []ecs.EntityID
	for _, id := range lead {
		if in[id] {
			shared = append(shared, id)
		}
	}
	return slices.Equal(follow[:len(shared)], shared)
}

// samePos checks every entity's Pos against want, moved by dx if it has Vel.
func samePos(t *testing.T, w *ecs.World, want map[ecs.EntityID]Pos, dx float32) {
	t.Helper()
	for id, p := range want {
		if ok, _ := ecs.Contains[Vel](w, id); ok {
			p.X += dx
		}
		got, err := ecs.Get[Pos](w, id)
		must(t, err)
		if got != p {
			t.Fatalf("Pos of %v is %v, want %v", id, got, p)
		}
	}
}

func TestJoinsReAlignAChurnedWorld(t *testing.T) {
	w, want := churned(t, 1000)
	if leads(ecs.OrderOf[Pos](w), ecs.OrderOf[Vel](w)) {
		t.Fatal("the churn left Pos in Vel's order")
	}
	must(t, w.Run(moveAll))
	// The join missed its guesses: at the end of Run, the world sorted
	// Pos in Vel's order (Vel is shorter, and drives).
	isTrue(t, leads(ecs.OrderOf[Pos](w), ecs.OrderOf[Vel](w)), "Pos does not follow Vel after the join's Run")
	samePos(t, w, want, 1)
	// The next run finds every entity where it guessed, and moves them
	// all once more.
	must(t, w.Run(moveAll))
	samePos(t, w, want, 2)

	t.Run("a world with re-alignment off", func(t *testing.T) {
		w, want := churned(t, 1000)
		w.SetAutoAlign(false)
		before := ecs.OrderOf[Pos](w)
		must(t, w.Run(moveAll))
		deepEqual(t, "Pos order", ecs.OrderOf[Pos](w), before)
		samePos(t, w, want, 1)
		// Turned on again, the next join asks again.
		w.SetAutoAlign(true)
		must(t, w.Run(moveAll))
		isTrue(t, leads(ecs.OrderOf[Pos](w), ecs.OrderOf[Vel](w)), "Pos does not follow Vel once re-alignment is on again")
	})

	t.Run("waits while something is borrowed", func(t *testing.T) {
		w, want := churned(t, 1000)
		var acc ecs.View[alAcc]
		release, err := w.Borrow(&acc)
		must(t, err)
		before := ecs.OrderOf[Pos](w)
		must(t, w.Run(moveAll))
		deepEqual(t, "Pos order while a view is held", ecs.OrderOf[Pos](w), before)
		release() // a sync point with nothing borrowed
		isTrue(t, leads(ecs.OrderOf[Pos](w), ecs.OrderOf[Vel](w)), "Pos does not follow Vel after the release")
		samePos(t, w, want, 1)
	})

	t.Run("through a workload, and through Borrow", func(t *testing.T) {
		w, _ := churned(t, 1000)
		must(t, w.AddWorkload("move", moveAll))
		must(t, w.RunWorkload("move"))
		isTrue(t, leads(ecs.OrderOf[Pos](w), ecs.OrderOf[Vel](w)), "Pos does not follow Vel after RunWorkload")

		w, _ = churned(t, 1000)
		var pos ecs.View[Pos]
		var vel ecs.View[Vel]
		release, err := w.Borrow(&pos, &vel)
		must(t, err)
		n := ecs.Join2(vel, pos).Count() // any order of the views: Vel drives
		equal(t, "count", n, 1000)
		release()
		isTrue(t, leads(ecs.OrderOf[Pos](w), ecs.OrderOf[Vel](w)), "Pos does not follow Vel after Borrow's release")
	})

	t.Run("Runs and Each ask too", func(t *testing.T) {
		for name, sys := range map[string]any{
			"Runs": func(pos ecs.ViewMut[Pos], vel ecs.View[Vel]) {
				for r := range ecs.Join2(pos, vel).Runs() {
					for i := range r.A {
						r.A[i].X += r.B[i].X
					}
				}
			},
			"Each": func(pos ecs.ViewMut[Pos], vel ecs.View[Vel]) {
				ecs.Join2(pos, vel).Each(func(p *Pos, v *Vel) { p.X += v.X })
			},
		} {
			w, want := churned(t, 1000)
			must(t, w.Run(sys))
			isTrue(t, leads(ecs.OrderOf[Pos](w), ecs.OrderOf[Vel](w)), "%s: Pos does not follow Vel", name)
			samePos(t, w, want, 1)
		}
	})

	t.Run("a few misses ask nothing", func(t *testing.T) {
		w := ecs.NewWorld()
		var ids []ecs.EntityID
		for i := range 1000 {
			id, err := ecs.AddEntity2(w, Pos{float32(i), 0}, Vel{})
			must(t, err)
			ids = append(ids, id)
		}
		for _, id := range ids[:10] { // ten out of place: under one in 32
			_, err := ecs.DeleteComponent[Vel](w, id)
			must(t, err)
			must(t, ecs.AddComponent1(w, id, Vel{}))
		}
		before := ecs.OrderOf[Pos](w)
		must(t, w.Run(moveAll))
		deepEqual(t, "Pos order", ecs.OrderOf[Pos](w), before)
	})
}

// TestReAlignmentKeepsTracking: timestamps move with their components, so
// a Changed view sees the same components after re-alignment.
func TestReAlignmentKeepsTracking(t *testing.T) {
	w := ecs.NewWorld()
	var ids []ecs.EntityID
	for i := range 600 {
		id, err := ecs.AddEntity2(w, alTracked{i}, Vel{})
		must(t, err)
		ids = append(ids, id)
		_, err = ecs.AddEntity1(w, alTracked{-i})
		must(t, err)
	}
	must(t, w.Run(func(tr ecs.ViewMut[alTracked]) { tr.ClearAllInserted() }))
	rng := rand.New(rand.NewPCG(3, 4))
	rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	for _, id := range ids[:300] {
		_, err := ecs.DeleteComponent[Vel](w, id)
		must(t, err)
	}
	for _, id := range ids[:300] {
		must(t, ecs.AddComponent1(w, id, Vel{}))
	}
	// Modify every third mover.
	var modified []ecs.EntityID
	must(t, w.Run(func(tr ecs.ViewMut[alTracked]) {
		for k := 0; k < len(ids); k += 3 {
			tr.MustGet(ids[k]).V += 1000
			modified = append(modified, ids[k])
		}
	}))
	changed := func() []ecs.EntityID {
		var got []ecs.EntityID
		must(t, w.Run(func(tr ecs.View[alTracked]) {
			c, err := tr.Modified()
			must(t, err)
			for id := range ecs.Join1(c).WithID() {
				got = append(got, id)
			}
		}))
		return got
	}
	sameSet(t, "modified before", changed(), modified)
	before := ecs.OrderOf[alTracked](w)
	must(t, w.Run(func(tr ecs.View[alTracked], vel ecs.View[Vel]) {
		equal(t, "joined", ecs.Join2(tr, vel).Count(), 600)
	}))
	isTrue(t, !slices.Equal(before, ecs.OrderOf[alTracked](w)), "the join did not re-align the tracked storage")
	isTrue(t, leads(ecs.OrderOf[alTracked](w), ecs.OrderOf[Vel](w)), "alTracked does not follow Vel")
	sameSet(t, "modified after re-alignment", changed(), modified)
}

// TestReAlignmentRespectsGroupsAndOtherJoins: a group member is never
// moved, and two joins that want one storage in their orders settle on a
// chain of orders instead of undoing each other.
func TestReAlignmentRespectsGroupsAndOtherJoins(t *testing.T) {
	t.Run("group member", func(t *testing.T) {
		w, want := churned(t, 1000)
		must(t, ecs.AddGroup2[Pos, alAcc](w))
		before := ecs.OrderOf[Pos](w)
		must(t, w.Run(moveAll))
		must(t, w.Run(moveAll))
		deepEqual(t, "Pos order", ecs.OrderOf[Pos](w), before)
		samePos(t, w, want, 2)
	})

	t.Run("two joins want Pos in their order", func(t *testing.T) {
		w, want := churned(t, 1000)
		// alAcc on 800 of the Pos-only entities, in another order.
		var others []ecs.EntityID
		must(t, w.Run(func(pos ecs.View[Pos], vel ecs.View[Vel]) {
			for id := range ecs.Join1(pos).Not(vel).WithID() {
				others = append(others, id)
			}
		}))
		rand.New(rand.NewPCG(5, 6)).Shuffle(len(others), func(i, j int) { others[i], others[j] = others[j], others[i] })
		for _, id := range others[:800] {
			must(t, ecs.AddComponent1(w, id, alAcc{}))
		}
		accJoin := func(pos ecs.ViewMut[Pos], acc ecs.View[alAcc]) {
			for p := range ecs.Join2(pos, acc).All() {
				p.Y++
			}
		}
		must(t, w.Run(moveAll))
		isTrue(t, leads(ecs.OrderOf[Pos](w), ecs.OrderOf[Vel](w)), "Pos does not follow Vel")
		// Once both joins run, Pos takes the smaller driver's order
		// (alAcc's), then gathers Vel's entities, and Vel follows Pos:
		// both joins find their entities in line, and the sorts stop.
		for range 5 {
			must(t, w.Run(accJoin))
			must(t, w.Run(moveAll))
		}
		settled, _ := sorts(w)
		for range 5 {
			must(t, w.Run(accJoin))
			must(t, w.Run(moveAll))
		}
		n, waits := sorts(w)
		equal(t, "sorts after settling", n, settled)
		equal(t, "waits", waits, 0)
		pos := ecs.OrderOf[Pos](w)
		isTrue(t, leads(pos, ecs.OrderOf[alAcc](w)), "Pos does not follow alAcc")
		isTrue(t, leads(pos[800:], ecs.OrderOf[Vel](w)), "Vel's entities do not come after alAcc's in Pos")
		isTrue(t, leads(ecs.OrderOf[Vel](w), pos), "Vel does not follow Pos")
		for _, id := range others[:800] {
			p := want[id]
			p.Y += 10 // accJoin's passes
			want[id] = p
		}
		samePos(t, w, want, 11)
	})
}

func TestSortAs(t *testing.T) {
	w, want := churned(t, 500)
	moved, err := ecs.SortAs[Pos, Vel](w)
	must(t, err)
	isTrue(t, moved > 0, "SortAs moved nothing")
	isTrue(t, leads(ecs.OrderOf[Pos](w), ecs.OrderOf[Vel](w)), "Pos does not follow Vel")
	samePos(t, w, want, 0)
	moved, err = ecs.SortAs[Pos, Vel](w)
	must(t, err)
	equal(t, "moved by a second SortAs", moved, 0)

	// The leader may hold entities the follower lacks, and the other
	// way round: the shared ones come first, in the leader's order.
	_, err = ecs.AddEntity1(w, Vel{})
	must(t, err)
	_, err = ecs.SortAs[Vel, Pos](w)
	must(t, err)
	isTrue(t, leads(ecs.OrderOf[Vel](w), ecs.OrderOf[Pos](w)), "Vel does not start with the shared entities in Pos's order")
	samePos(t, w, want, 0)

	// Inside a system holding every storage.
	must(t, w.Run(func(all ecs.AllStoragesViewMut) {
		_, err := ecs.SortAs[Pos, Vel](all)
		must(t, err)
	}))
	isTrue(t, leads(ecs.OrderOf[Pos](w), ecs.OrderOf[Vel](w)), "Pos does not follow Vel")

	// Refusals change nothing.
	before := ecs.OrderOf[Pos](w)
	tests := []struct {
		name string
		sort func() (int, error)
		want error
	}{
		{"same type", func() (int, error) { return ecs.SortAs[Pos, Pos](w) }, ecs.ErrSortRefused},
		{"nil world", func() (int, error) { return ecs.SortAs[Pos, Vel]((*ecs.World)(nil)) }, ecs.ErrNilWorld},
		{"borrowed", func() (int, error) {
			var v ecs.View[Pos]
			release, err := w.Borrow(&v)
			must(t, err)
			defer release()
			return ecs.SortAs[Pos, Vel](w)
		}, ecs.ErrBorrowConflict},
	}
	for _, tt := range tests {
		moved, err := tt.sort()
		errIs(t, err, tt.want)
		equal(t, tt.name+": moved", moved, 0)
		deepEqual(t, tt.name+": Pos order", ecs.OrderOf[Pos](w), before)
	}
	must(t, ecs.AddGroup2[Pos, alAcc](w))
	moved, err = ecs.SortAs[Pos, Vel](w)
	errIs(t, err, ecs.ErrSortRefused)
	equal(t, "group member: moved", moved, 0)
	if err != nil && err.Error() != "ecs: SortAs[ecs_test.Pos, ecs_test.Vel]: F is a member of a packed group, which keeps its own order" {
		t.Errorf("error %q", err)
	}
}

// churnVel is a system's worth of churn between a join's passes: the
// first k movers of ids lose their Vel, and get it back in reverse order.
func churnVel(ids []ecs.EntityID, k int) func(ecs.ViewMut[Vel]) {
	return func(vel ecs.ViewMut[Vel]) {
		for _, id := range ids[:k] {
			vel.Delete(id)
		}
		for _, id := range slices.Backward(ids[:k]) {
			vel.AddComponentUnchecked(id, Vel{1, 0})
		}
	}
}

// TestReAlignmentAheadOfTheJoin: once a join had its storages sorted, the
// world sorts them again at the sync point after changes past the join's
// threshold, before the join's next pass, as long as the join runs.
func TestReAlignmentAheadOfTheJoin(t *testing.T) {
	setUp := func(t *testing.T) (*ecs.World, map[ecs.EntityID]Pos, []ecs.EntityID) {
		t.Helper()
		w, want := churned(t, 1000)
		must(t, w.Run(moveAll)) // the join asks; its Run's end sorts
		isTrue(t, leads(ecs.OrderOf[Pos](w), ecs.OrderOf[Vel](w)), "Pos does not follow Vel after the join's Run")
		ids := ecs.OrderOf[Vel](w)
		rand.New(rand.NewPCG(3, 4)).Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		return w, want, ids
	}

	t.Run("changes past the threshold", func(t *testing.T) {
		w, want, ids := setUp(t)
		// 100 removals and 100 additions in Vel: 200 changes, past 64
		// and one in 32 of 1,000.
		must(t, w.Run(churnVel(ids, 100)))
		isTrue(t, leads(ecs.OrderOf[Pos](w), ecs.OrderOf[Vel](w)), "Pos does not follow Vel after the churn's Run")
		must(t, w.Run(moveAll))
		samePos(t, w, want, 2)
		// Once more: the join ran since the last sort.
		must(t, w.Run(churnVel(ids[100:], 100)))
		isTrue(t, leads(ecs.OrderOf[Pos](w), ecs.OrderOf[Vel](w)), "Pos does not follow Vel after the second churn")
	})

	t.Run("changes under the threshold wait", func(t *testing.T) {
		w, _, ids := setUp(t)
		before := ecs.OrderOf[Pos](w)
		must(t, w.Run(churnVel(ids, 10))) // 20 changes: under 64
		deepEqual(t, "Pos order", ecs.OrderOf[Pos](w), before)
		// They add up: the next changes pass the threshold together.
		must(t, w.Run(churnVel(ids[10:], 25)))
		isTrue(t, leads(ecs.OrderOf[Pos](w), ecs.OrderOf[Vel](w)), "Pos does not follow Vel once the changes added up")
	})

	t.Run("stops when the join stops", func(t *testing.T) {
		w, _, ids := setUp(t)
		must(t, w.Run(churnVel(ids, 100)))
		isTrue(t, leads(ecs.OrderOf[Pos](w), ecs.OrderOf[Vel](w)), "Pos does not follow Vel after the first churn")
		// No join since that sort, and none between it and the one
		// before: the world stops sorting for a join that no longer runs.
		must(t, w.Run(churnVel(ids[100:], 100)))
		isTrue(t, !leads(ecs.OrderOf[Pos](w), ecs.OrderOf[Vel](w)), "Pos was sorted for a join that stopped")
		before := ecs.OrderOf[Pos](w)
		must(t, w.Run(churnVel(ids[200:], 100)))
		deepEqual(t, "Pos order", ecs.OrderOf[Pos](w), before)
		// The join runs again and asks: the pair is watched again.
		must(t, w.Run(moveAll))
		must(t, w.Run(churnVel(ids[300:], 100)))
		isTrue(t, leads(ecs.OrderOf[Pos](w), ecs.OrderOf[Vel](w)), "Pos does not follow Vel once the join ran again")
	})

	t.Run("not with re-alignment off", func(t *testing.T) {
		w, _, ids := setUp(t)
		w.SetAutoAlign(false)
		before := ecs.OrderOf[Pos](w)
		must(t, w.Run(churnVel(ids, 100)))
		deepEqual(t, "Pos order", ecs.OrderOf[Pos](w), before)
	})

	t.Run("after SortAs, once a join ran", func(t *testing.T) {
		w, _ := churned(t, 1000)
		w.SetAutoAlign(true)
		_, err := ecs.SortAs[Pos, Vel](w)
		must(t, err)
		ids := ecs.OrderOf[Vel](w)
		before := ecs.OrderOf[Pos](w)
		must(t, w.Run(churnVel(ids, 100))) // no join over the pair yet
		deepEqual(t, "Pos order", ecs.OrderOf[Pos](w), before)
		must(t, w.Run(moveAll)) // it misses, asks and is sorted
		must(t, w.Run(churnVel(ids[100:], 100)))
		isTrue(t, leads(ecs.OrderOf[Pos](w), ecs.OrderOf[Vel](w)), "Pos does not follow Vel after the churn")
	})
}

// Types of TestReAlignmentNeverFollowsItself.
type (
	loopA struct{ V int }
	loopB struct{ V int }
	loopX struct{ V int }
	loopY struct{ V int }
)

// TestReAlignmentNeverFollowsItself: joins that swap drivers after
// deletions once made re-alignment read a pair list it had just
// rewritten, sort a storage in its own order, and loop for ever walking
// up the leads (found by the fuzz model). Every join must return, and no
// storage may be recorded as its own lead.
func TestReAlignmentNeverFollowsItself(t *testing.T) {
	w := ecs.NewWorld()
	ecs.SetAlignMinMisses(w, 1)
	ids := make([]ecs.EntityID, 6)
	for i := range ids {
		ids[i], _ = ecs.AddEntity2(w, loopA{i}, loopB{i})
	}
	for i, id := range ids {
		if i%2 == 0 {
			must(t, ecs.AddComponent1(w, id, loopX{i}))
		} else {
			must(t, ecs.AddComponent1(w, id, loopY{i}))
		}
	}
	var a ecs.View[loopA]
	var b ecs.View[loopB]
	var x ecs.View[loopX]
	var y ecs.View[loopY]
	join := func(f func() int) int {
		release, err := w.Borrow(&a, &b, &x, &y)
		must(t, err)
		defer release()
		return f()
	}
	if n := join(func() int { return ecs.Join2(y, b).Count() }); n != 3 {
		t.Errorf("Join2(y, b) counted %d", n)
	}
	join(func() int { return ecs.Join2(a, x).Count() })
	must(t, w.DeleteEntity(ids[0]))
	join(func() int { return ecs.Join2(a, y).Count() })
	must(t, w.DeleteEntity(ids[1]))
	if n := join(func() int { return ecs.Join2(b, a).Count() }); n != 4 {
		t.Errorf("Join2(b, a) counted %d, want 4", n)
	}
	join(func() int { return ecs.Join2(a, b).Count() }) // the sync point after the last request
	for _, st := range w.AlignStats() {
		if st.Storage == st.Lead {
			t.Errorf("%s sorted in its own order", st.Storage)
		}
	}
}
