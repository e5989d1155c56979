package ecs_test

// The tracking clock against borrows held for a while: a timestamp read
// with TrackingTimestamp while a ViewMut is held orders the deletions and
// removals made through it after the reading, and clearing inside a
// system leaves that system's own window alone.

import (
	"fmt"
	"iter"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// heldLogCase logs deletions or removals of trLife through views held by
// one borrow: before the mark is read (what a clear up to the mark drops)
// and after (what it keeps).
type heldLogCase struct {
	name string
	// before and after act through vm (and all, for the cases that borrow
	// an AllStoragesViewMut instead) on ids; after returns the entries it
	// logged.
	before func(vm ecs.ViewMut[trLife], ids []ecs.EntityID)
	after  func(vm ecs.ViewMut[trLife], all ecs.AllStoragesViewMut, ids []ecs.EntityID) (dels []del[trLife], rems []ecs.EntityID)
	all    bool // borrow an AllStoragesViewMut, not a ViewMut
}

var heldLogCases = []heldLogCase{
	{name: "ViewMut.Delete",
		before: func(vm ecs.ViewMut[trLife], ids []ecs.EntityID) { vm.Delete(ids[0]) },
		after: func(vm ecs.ViewMut[trLife], _ ecs.AllStoragesViewMut, ids []ecs.EntityID) ([]del[trLife], []ecs.EntityID) {
			vm.Delete(ids[1])
			return []del[trLife]{{ids[1], trLife{1}}}, nil
		}},
	{name: "ViewMut.Remove",
		before: func(vm ecs.ViewMut[trLife], ids []ecs.EntityID) { vm.Remove(ids[0]) },
		after: func(vm ecs.ViewMut[trLife], _ ecs.AllStoragesViewMut, ids []ecs.EntityID) ([]del[trLife], []ecs.EntityID) {
			vm.Remove(ids[1])
			return nil, ids[1:2]
		}},
	{name: "ViewMut.Clear",
		before: func(vm ecs.ViewMut[trLife], ids []ecs.EntityID) { vm.Delete(ids[0]) },
		after: func(vm ecs.ViewMut[trLife], _ ecs.AllStoragesViewMut, ids []ecs.EntityID) ([]del[trLife], []ecs.EntityID) {
			vm.Clear()
			return []del[trLife]{{ids[1], trLife{1}}, {ids[2], trLife{2}}, {ids[3], trLife{3}}}, nil
		}},
	{name: "AllStoragesViewMut.DeleteEntity", all: true,
		after: func(_ ecs.ViewMut[trLife], all ecs.AllStoragesViewMut, ids []ecs.EntityID) ([]del[trLife], []ecs.EntityID) {
			_ = all.DeleteEntity(ids[1]) // its entry, checked, says it worked
			return []del[trLife]{{ids[1], trLife{1}}}, nil
		}},
}

// TestTrackingOlderThanKeepsLaterChangesOfAHeldBorrow: a ViewMut borrowed
// with World.Borrow takes its timestamp when the borrow begins; a mark
// read from World.TrackingTimestamp while it is held (after another
// system ran, or not) must still be older than what the borrow deletes
// or removes after the reading, so that clearing up to the mark keeps
// those entries and drops the earlier ones.
func TestTrackingOlderThanKeepsLaterChangesOfAHeldBorrow(t *testing.T) {
	for _, c := range heldLogCases {
		for _, other := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, another system ran: %v", c.name, other), func(t *testing.T) {
				w := ecs.NewWorld()
				ids, err := ecs.BulkAddEntity1(w, []trLife{{0}, {1}, {2}, {3}})
				must(t, err)
				_, err = ecs.AddEntity1(w, trMana{})
				must(t, err)
				var (
					vm  ecs.ViewMut[trLife]
					all ecs.AllStoragesViewMut
				)
				var release func()
				if c.all {
					release, err = w.Borrow(&all)
				} else {
					release, err = w.Borrow(&vm)
				}
				must(t, err)
				if c.before != nil {
					c.before(vm, ids)
				}
				if other && !c.all {
					// A system of another tracked type takes the next
					// timestamp; the mark is that one.
					must(t, w.Run(func(m ecs.ViewMut[trMana]) { m.Slice() }))
				}
				var mark uint64
				if c.all {
					mark = all.TrackingTimestamp()
				} else {
					mark = w.TrackingTimestamp()
				}
				wantDel, wantRem := c.after(vm, all, ids)
				release()
				withViewMut(t, w, func(vm ecs.ViewMut[trLife]) { vm.ClearAllRemovedAndDeletedOlderThan(mark) })
				// The order of the deletions of one Clear is unspecified.
				sameSeq(t, "Deleted after clearing up to the mark", sortedDels(deletedOf[trLife](t, w)), wantDel)
				sameSeq(t, "Removed after clearing up to the mark", removedOf[trLife](t, w), wantRem)
				nothingHeld(t, w)
			})
		}
	}
}

// TestTrackingOlderThanKeepsLaterChangesOfASystem: the same for a system
// of a workload that runs while the mark is read, by another goroutine
// (sequenced with channels) or by the system itself. The workload's
// windows stay right: the system does not see its own deletions again at
// its next run, and a reader after it sees each one once.
func TestTrackingOlderThanKeepsLaterChangesOfASystem(t *testing.T) {
	for _, who := range []string{"another goroutine", "the system itself"} {
		t.Run(who, func(t *testing.T) {
			w := ecs.NewWorld()
			ids, err := ecs.BulkAddEntity1(w, []trLife{{0}, {1}, {2}, {3}, {4}})
			must(t, err)
			_, err = ecs.AddEntity1(w, trMana{})
			must(t, err)
			var (
				frame           int
				mark            uint64
				started, marked = make(chan struct{}), make(chan struct{})
				ownSeen, readBy []int
			)
			deleter := func(vm ecs.ViewMut[trLife]) error {
				d, err := vm.RemovedOrDeleted()
				if err != nil {
					return err
				}
				n := 0
				for range d {
					n++
				}
				ownSeen = append(ownSeen, n)
				if frame != 1 {
					return nil
				}
				vm.Delete(ids[0])
				if who == "another goroutine" {
					close(started)
					<-marked
				} else {
					mark = w.TrackingTimestamp()
				}
				vm.Delete(ids[1])
				vm.Remove(ids[2])
				return nil
			}
			reader := func(v ecs.View[trLife]) error {
				d, err := v.RemovedOrDeleted()
				if err != nil {
					return err
				}
				n := 0
				for range d {
					n++
				}
				readBy = append(readBy, n)
				return nil
			}
			must(t, w.AddWorkload("w", ecs.System(deleter).Named("deleter"), ecs.System(reader).Named("reader")))
			for frame = 0; frame < 4; frame++ {
				if frame == 1 && who == "another goroutine" {
					done := make(chan error)
					go func() { done <- w.RunWorkload("w") }()
					<-started
					must(t, w.Run(func(m ecs.ViewMut[trMana]) { m.Slice() }))
					mark = w.TrackingTimestamp()
					close(marked)
					must(t, <-done)
					continue
				}
				must(t, w.RunWorkload("w"))
			}
			sameSeq(t, "what the deleter sees of its window, per frame", ownSeen, []int{0, 0, 0, 0})
			sameSeq(t, "what the reader sees of its window, per frame", readBy, []int{0, 3, 0, 0})
			withViewMut(t, w, func(vm ecs.ViewMut[trLife]) { vm.ClearAllRemovedAndDeletedOlderThan(mark) })
			sameSeq(t, "Deleted after clearing up to the mark", deletedOf[trLife](t, w), []del[trLife]{{ids[1], trLife{1}}})
			sameSeq(t, "Removed after clearing up to the mark", removedOf[trLife](t, w), ids[2:3])
			nothingHeld(t, w)
		})
	}
}

// TestTrackingClearInSystemKeepsOwnWindow: every ClearAll… variant called
// inside a system of a workload moves only what views outside workloads
// see: the system does not see, at its next runs, what it changed after
// the clear, and a reader after it sees each change once. Outside
// workloads, what was changed after the clear is still reported.
func TestTrackingClearInSystemKeepsOwnWindow(t *testing.T) {
	cases := []struct {
		name  string
		clear func(vm ecs.ViewMut[trLife], mark uint64)
		// Whether the clear starts the window of insertions
		// (modifications) seen outside workloads: then the changes of
		// that kind made before it are no longer reported there.
		outsideIns, outsideMod bool
	}{
		{"ClearAllInserted", func(vm ecs.ViewMut[trLife], _ uint64) { vm.ClearAllInserted() }, true, false},
		{"ClearAllModified", func(vm ecs.ViewMut[trLife], _ uint64) { vm.ClearAllModified() }, false, true},
		{"ClearAllInsertedAndModified", func(vm ecs.ViewMut[trLife], _ uint64) { vm.ClearAllInsertedAndModified() }, true, true},
		{"ClearAllDeleted", func(vm ecs.ViewMut[trLife], _ uint64) { vm.ClearAllDeleted() }, false, false},
		{"ClearAllRemoved", func(vm ecs.ViewMut[trLife], _ uint64) { vm.ClearAllRemoved() }, false, false},
		{"ClearAllRemovedAndDeleted", func(vm ecs.ViewMut[trLife], _ uint64) { vm.ClearAllRemovedAndDeleted() }, false, false},
		{"ClearAllDeletedOlderThan", func(vm ecs.ViewMut[trLife], m uint64) { vm.ClearAllDeletedOlderThan(m) }, false, false},
		{"ClearAllRemovedOlderThan", func(vm ecs.ViewMut[trLife], m uint64) { vm.ClearAllRemovedOlderThan(m) }, false, false},
		{"ClearAllRemovedAndDeletedOlderThan", func(vm ecs.ViewMut[trLife], m uint64) { vm.ClearAllRemovedAndDeletedOlderThan(m) }, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := ecs.NewWorld()
			ids, err := ecs.BulkAddEntity1(w, []trLife{{0}, {1}, {2}, {3}})
			must(t, err)
			var (
				frame         int
				before, after ecs.EntityID
				own, reader   []clockCounts
			)
			changer := func(ents ecs.EntitiesViewMut, vm ecs.ViewMut[trLife]) error {
				n, err := countWindow(vm, vm.Deleted, vm.Removed)
				own = append(own, n)
				if err != nil || frame != 1 {
					return err
				}
				// A change of each kind before the clear, the clear, and
				// one of each kind after it.
				vm.MustGet(ids[3]).HP++
				before = vm.AddEntity(ents, trLife{10})
				c.clear(vm, w.TrackingTimestamp())
				after = vm.AddEntity(ents, trLife{11})
				vm.MustGet(ids[0]).HP++
				vm.Delete(ids[1])
				vm.Remove(ids[2])
				return nil
			}
			read := func(v ecs.View[trLife]) error {
				n, err := countWindow(v, v.Deleted, v.Removed)
				reader = append(reader, n)
				return err
			}
			must(t, w.AddWorkload("w", ecs.System(changer).Named("changer"), ecs.System(read).Named("reader")))
			for frame = 0; frame < 4; frame++ {
				must(t, w.RunWorkload("w"))
			}
			// Frame 0 is the first run of both: they see the four
			// insertions of the setup. Then the changer sees nothing: it
			// made every change itself.
			sameSeq(t, "what the changer sees, per frame", own, []clockCounts{{Ins: 4}, {}, {}, {}})
			// The reader sees each change of frame 1 once, whatever the
			// clear: the log clears came before the deletion and the
			// removal.
			sameSeq(t, "what the reader sees, per frame", reader, []clockCounts{{Ins: 4}, {Ins: 2, Mod: 2, Del: 1, Rem: 1}, {}, {}})
			wantIns := []ecs.EntityID{ids[0], ids[3], before, after}
			if c.outsideIns {
				wantIns = []ecs.EntityID{after}
			}
			wantMod := []ecs.EntityID{ids[0], ids[3]}
			if c.outsideMod {
				wantMod = ids[:1]
			}
			sameSet(t, "Inserted outside workloads", insertedIDs[trLife](t, w), wantIns)
			sameSet(t, "Modified outside workloads", modifiedIDs[trLife](t, w), wantMod)
			nothingHeld(t, w)
		})
	}
}

// clockCounts is how many changes of each kind a view sees in its window.
type clockCounts struct{ Ins, Mod, Del, Rem int }

// countWindow counts what v (a View or ViewMut of trLife) sees in its
// window, without marking anything.
func countWindow(v interface {
	Inserted() (ecs.Changed[trLife], error)
	Modified() (ecs.Changed[trLife], error)
}, deleted func() (iter.Seq2[ecs.EntityID, trLife], error), removed func() (iter.Seq[ecs.EntityID], error)) (c clockCounts, err error) {
	ins, err := v.Inserted()
	if err != nil {
		return c, err
	}
	mod, err := v.Modified()
	if err != nil {
		return c, err
	}
	c.Ins, c.Mod = ins.Count(), mod.Count()
	d, err := deleted()
	if err != nil {
		return c, err
	}
	for range d {
		c.Del++
	}
	r, err := removed()
	if err != nil {
		return c, err
	}
	for range r {
		c.Rem++
	}
	return c, nil
}
