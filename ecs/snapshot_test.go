package ecs_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// The components of the snapshot tests: untracked (snA, snB: the identity
// prefix's cases), tracked in every way, holding a pointer (snT), a packed
// group of two, one member tracked (snG1, snG2), a storage only some runs
// create (snLate), and uniques.
type snA struct{ V int }
type snB struct{ X, Y float64 }
type snT struct {
	V int
	S string
}
type snG1 struct{ V int }
type snG2 struct{ V int }
type snLate struct{ V int }
type snU struct{ N int }
type snCount struct{ Ins, Mod, Del int }

func (snT) Tracking() ecs.Tracking  { return ecs.TrackAll }
func (snG2) Tracking() ecs.Tracking { return ecs.TrackInsertion | ecs.TrackModification }

// snWorld returns a world with the group of snG1 and snG2 and the
// workload "frame", whose system counts what it sees change in snT.
func snWorld(t testing.TB) *ecs.World {
	t.Helper()
	w := ecs.NewWorld()
	if err := ecs.AddGroup2[snG1, snG2](w); err != nil {
		t.Fatal(err)
	}
	if err := ecs.AddUnique(w, snCount{}); err != nil {
		t.Fatal(err)
	}
	if err := w.AddWorkload("frame", snCountChanges); err != nil {
		t.Fatal(err)
	}
	return w
}

// snCountChanges counts the snT components it sees inserted, modified and
// deleted since its last run: what workload tracking windows answer.
func snCountChanges(v ecs.View[snT], c ecs.UniqueViewMut[snCount]) error {
	ins, err := v.Inserted()
	if err != nil {
		return err
	}
	mod, err := v.Modified()
	if err != nil {
		return err
	}
	del, err := v.Deleted()
	if err != nil {
		return err
	}
	n := c.Get()
	n.Ins += ins.Count()
	n.Mod += mod.Count()
	for range del {
		n.Del++
	}
	return nil
}

// snDriver applies random operations to a world: every kind of change a
// snapshot must capture, errors for dead ids being part of the game.
type snDriver struct {
	r   *rand.Rand
	w   *ecs.World
	ids []ecs.EntityID // every id seen, dead ones included
}

func (d *snDriver) id() ecs.EntityID {
	if len(d.ids) == 0 || d.r.IntN(20) == 0 {
		return ecs.NewEntityID(uint32(d.r.IntN(40)), uint32(d.r.IntN(3)))
	}
	return d.ids[d.r.IntN(len(d.ids))]
}

func (d *snDriver) add(id ecs.EntityID, late bool) {
	w, r := d.w, d.r
	switch r.IntN(6) {
	case 0:
		ecs.AddComponent1(w, id, snA{r.IntN(100)})
	case 1:
		ecs.AddComponent1(w, id, snB{r.Float64(), r.Float64()})
	case 2:
		ecs.AddComponent1(w, id, snT{r.IntN(100), fmt.Sprint(r.IntN(10))})
	case 3:
		ecs.AddComponent1(w, id, snG1{r.IntN(100)})
	case 4:
		ecs.AddComponent1(w, id, snG2{r.IntN(100)})
	case 5:
		if late {
			ecs.AddComponent1(w, id, snLate{r.IntN(100)})
		}
	}
}

// step applies one random operation; late allows the types that only
// the operations after the snapshot use (a storage, a unique).
func (d *snDriver) step(t testing.TB, late bool) {
	w, r := d.w, d.r
	switch op := r.IntN(20); op {
	case 0, 1, 2:
		id, err := w.AddEntity()
		if err != nil {
			t.Fatal(err)
		}
		d.ids = append(d.ids, id)
		for range r.IntN(4) {
			d.add(id, late)
		}
	case 3:
		// In order, with the components of an identity prefix.
		ids, err := ecs.BulkAddEntity2(w, []snA{{1}, {2}, {3}}, []snB{{1, 1}, {2, 2}, {3, 3}})
		if err != nil {
			t.Fatal(err)
		}
		d.ids = append(d.ids, ids...)
	case 4, 5, 6:
		d.add(d.id(), late)
	case 7:
		ecs.Remove[snT](w, d.id())
		ecs.Remove[snG1](w, d.id())
	case 8:
		ecs.DeleteComponent[snA](w, d.id())
		ecs.DeleteComponent[snG2](w, d.id())
		ecs.DeleteComponent[snT](w, d.id())
	case 9:
		w.DeleteEntity(d.id())
	case 10:
		id := ecs.NewEntityID(uint32(r.IntN(60)), uint32(r.IntN(4)))
		if w.SpawnAt(id) == nil {
			d.ids = append(d.ids, id)
			d.add(id, late)
		}
	case 11:
		// Modify through a ViewMut: marks modification.
		var vt ecs.ViewMut[snT]
		var vg ecs.ViewMut[snG2]
		release, err := w.Borrow(&vt, &vg)
		if err != nil {
			t.Fatal(err)
		}
		if p, ok := vt.Get(d.id()); ok {
			p.V++
		}
		if p, ok := vg.Get(d.id()); ok {
			p.V++
		}
		release()
	case 12:
		switch r.IntN(4) {
		case 0:
			w.ClearAllInserted()
		case 1:
			w.ClearAllModified()
		case 2:
			w.ClearAllRemovedAndDeletedOlderThan(w.TrackingTimestamp())
		case 3:
			w.ClearAllDeleted()
		}
	case 13:
		// A dead entity's leftovers, purged at the next World-level change.
		id := d.id()
		if err := w.Run(func(e ecs.EntitiesViewMut) { e.DeleteUnchecked(id) }); err != nil {
			t.Fatal(err)
		}
	case 14:
		if r.IntN(2) == 0 {
			ecs.AddUnique(w, snU{r.IntN(100)})
		} else {
			ecs.RemoveUnique[snU](w)
		}
		if late {
			ecs.AddUnique(w, snLate{r.IntN(100)})
		}
	case 15:
		w.Strip(d.id())
	case 16:
		if r.IntN(4) == 0 {
			ecs.DeleteAny[snA](w)
		}
	case 17, 18:
		if err := w.RunWorkload("frame"); err != nil {
			t.Fatal(err)
		}
	case 19:
		if r.IntN(8) == 0 {
			ecs.DeleteAny[snG1](w)
		}
	}
}

// snRestore restores s into w, failing t on error.
func snRestore(t testing.TB, w *ecs.World, s *ecs.Snapshot) {
	t.Helper()
	if err := w.Restore(s); err != nil {
		t.Fatal(err)
	}
}

func snTake(t testing.TB, w *ecs.World, s *ecs.Snapshot) {
	t.Helper()
	if err := w.SnapshotTo(s); err != nil {
		t.Fatal(err)
	}
}

// TestSnapshotRandomRestore builds random worlds, takes a snapshot, goes
// on with more random operations (some of which create a storage and a
// unique the snapshot has not seen), restores, and checks that the world
// is exactly as it was at the snapshot, internals included, that its
// invariants hold, and that the next entities created get the ids they
// got the first time. Then it does it again with the same Snapshot,
// taken anew (its memory reused).
func TestSnapshotRandomRestore(t *testing.T) {
	for seed := range uint64(90) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			// A third of the runs copy the sparse pages, a third
			// rebuild them, a third choose by density (mostly rebuild,
			// with so few entities).
			switch seed % 3 {
			case 0:
				defer ecs.SetSnapshotDensePages(1 << 30)()
			case 1:
				defer ecs.SetSnapshotDensePages(0)()
			}
			r := rand.New(rand.NewPCG(seed, 56))
			w := snWorld(t)
			d := &snDriver{r: r, w: w}
			var s ecs.Snapshot
			for round := range 3 {
				for range r.IntN(150) {
					d.step(t, false)
				}
				snTake(t, w, &s)
				want := ecs.SnapStateOf(w)
				var next []ecs.EntityID
				for range 3 {
					id, err := w.AddEntity()
					if err != nil {
						t.Fatal(err)
					}
					next = append(next, id)
				}
				for range r.IntN(150) {
					d.step(t, true)
				}
				snRestore(t, w, &s)
				if diff := want.Diff(ecs.SnapStateOf(w)); diff != "" {
					t.Fatalf("round %d: restored world differs:\n%s", round, diff)
				}
				ecs.SnapCheck(t, w)
				for k, want := range next {
					if id, _ := w.AddEntity(); id != want {
						t.Fatalf("round %d: AddEntity #%d after restore = %v, want %v", round, k, id, want)
					}
				}
				// The world goes on from there.
				d.step(t, true)
			}
		})
	}
}

// snFrame is one frame of the deterministic simulation: its input is a
// seed, from which it applies random operations, then runs the workload.
func snFrame(t testing.TB, w *ecs.World, input uint64) {
	d := &snDriver{r: rand.New(rand.NewPCG(input, 7)), w: w}
	// The ids the frame works on are the world's, found the same way in
	// every run: the live entities with an snA or snT, in storage order.
	var va ecs.View[snA]
	var vt ecs.View[snT]
	release, err := w.Borrow(&va, &vt)
	if err != nil {
		t.Fatal(err)
	}
	d.ids = append(append(d.ids, va.IDs()...), vt.IDs()...)
	release()
	for range 20 {
		d.step(t, true)
	}
	if err := w.RunWorkload("frame"); err != nil {
		t.Fatal(err)
	}
}

// TestSnapshotDeterminism runs a simulation for many frames, taking a
// snapshot at every frame into a ring of Snapshots, restores frame k and
// replays the same inputs: every frame after that must be what it was in
// the first run, bit for bit (internals included), and so must tracking's
// answers, which the workload's system accumulates in a unique.
func TestSnapshotDeterminism(t *testing.T) {
	for _, dense := range []int{0, 1 << 30} {
		t.Run(fmt.Sprint("densePages=", dense), func(t *testing.T) {
			defer ecs.SetSnapshotDensePages(dense)()
			testSnapshotDeterminism(t)
		})
	}
}

func testSnapshotDeterminism(t *testing.T) {
	const frames = 60
	w := snWorld(t)
	snaps := make([]ecs.Snapshot, frames)
	states := make([]ecs.SnapState, frames)
	for f := range frames {
		snTake(t, w, &snaps[f])
		states[f] = ecs.SnapStateOf(w)
		snFrame(t, w, uint64(f))
	}
	end := ecs.SnapStateOf(w)
	for _, k := range []int{0, 1, 17, 40, frames - 1} {
		snRestore(t, w, &snaps[k])
		for f := k; f < frames; f++ {
			if diff := states[f].Diff(ecs.SnapStateOf(w)); diff != "" {
				t.Fatalf("replay from frame %d: frame %d differs:\n%s", k, f, diff)
			}
			snFrame(t, w, uint64(f))
		}
		if diff := end.Diff(ecs.SnapStateOf(w)); diff != "" {
			t.Fatalf("replay from frame %d: the end differs:\n%s", k, diff)
		}
		ecs.SnapCheck(t, w)
	}
	c, _ := ecs.GetUnique[snCount](w)
	if c.Ins == 0 || c.Mod == 0 || c.Del == 0 {
		t.Fatalf("the simulation saw no change of some kind: %+v", c)
	}
}

// TestSnapshotEdgeCases restores worlds prepared to reach one case each.
func TestSnapshotEdgeCases(t *testing.T) {
	for _, tc := range []struct {
		name   string
		before func(t *testing.T, w *ecs.World) // the state snapshotted
		after  func(t *testing.T, w *ecs.World) // changes the restore undoes
	}{
		{"empty world", func(*testing.T, *ecs.World) {}, func(t *testing.T, w *ecs.World) {
			id, _ := ecs.AddEntity2(w, snA{1}, snT{V: 2})
			ecs.AddUnique(w, snU{3})
			w.DeleteEntity(id)
		}},
		{"deleted entities and free list", func(t *testing.T, w *ecs.World) {
			var ids []ecs.EntityID
			for i := range 10 {
				id, _ := ecs.AddEntity1(w, snA{i})
				ids = append(ids, id)
			}
			w.DeleteEntity(ids[3])
			w.DeleteEntity(ids[7])
			w.DeleteEntity(ids[1])
		}, func(t *testing.T, w *ecs.World) {
			w.AddEntity()
			w.AddEntity()
			w.AddEntity()
			w.AddEntity()
		}},
		{"SpawnAt holes", func(t *testing.T, w *ecs.World) {
			w.SpawnAt(ecs.NewEntityID(9, 2))
			ecs.AddComponent1(w, ecs.NewEntityID(9, 2), snB{9, 9})
		}, func(t *testing.T, w *ecs.World) {
			w.SpawnAt(ecs.NewEntityID(4, 0))
			w.SpawnAt(ecs.NewEntityID(30, 1))
			w.AddEntity()
		}},
		{"identity prefix kept and cut", func(t *testing.T, w *ecs.World) {
			ecs.BulkAddEntity2(w, []snA{{0}, {1}, {2}, {3}}, []snB{{0, 0}, {1, 1}, {2, 2}, {3, 3}})
		}, func(t *testing.T, w *ecs.World) {
			ecs.DeleteComponent[snA](w, ecs.NewEntityID(1, 0))
			w.DeleteEntity(ecs.NewEntityID(0, 0))
			id, _ := w.AddEntity()
			ecs.AddComponent1(w, id, snA{7})
		}},
		{"identity prefix created after", func(t *testing.T, w *ecs.World) {
			id, _ := ecs.AddEntity1(w, snA{0})
			w.DeleteEntity(id)
		}, func(t *testing.T, w *ecs.World) {
			ecs.BulkAddEntity1(w, []snA{{0}, {1}, {2}, {3}})
		}},
		{"tracked storage of every kind", func(t *testing.T, w *ecs.World) {
			for i := range 5 {
				ecs.AddEntity2(w, snT{V: i}, snG2{i})
			}
			ecs.Remove[snT](w, ecs.NewEntityID(1, 0))
			w.DeleteEntity(ecs.NewEntityID(2, 0))
			var v ecs.ViewMut[snT]
			release, _ := w.Borrow(&v)
			v.MustGet(ecs.NewEntityID(3, 0)).V = 30
			release()
		}, func(t *testing.T, w *ecs.World) {
			w.ClearAllInserted()
			w.ClearAllRemovedAndDeleted()
			w.DeleteEntity(ecs.NewEntityID(4, 0))
			ecs.AddEntity1(w, snT{V: 9})
			var v ecs.ViewMut[snT]
			release, _ := w.Borrow(&v)
			v.MustGet(ecs.NewEntityID(0, 0)).V = 10
			release()
		}},
		{"uniques added and removed after", func(t *testing.T, w *ecs.World) {
			ecs.AddUnique(w, snU{1})
		}, func(t *testing.T, w *ecs.World) {
			ecs.RemoveUnique[snU](w)
			ecs.AddUnique(w, snLate{2})
		}},
		{"storage created after", func(t *testing.T, w *ecs.World) {
			ecs.AddEntity1(w, snA{1})
		}, func(t *testing.T, w *ecs.World) {
			ecs.AddEntity1(w, snLate{1})
			ecs.AddComponent1(w, ecs.NewEntityID(0, 0), snLate{2})
		}},
		{"packed group", func(t *testing.T, w *ecs.World) {
			for i := range 6 {
				id, _ := ecs.AddEntity1(w, snG1{i})
				if i%2 == 0 {
					ecs.AddComponent1(w, id, snG2{i})
				}
			}
		}, func(t *testing.T, w *ecs.World) {
			ecs.AddComponent1(w, ecs.NewEntityID(1, 0), snG2{1})
			ecs.AddComponent1(w, ecs.NewEntityID(5, 0), snG2{5})
			ecs.DeleteComponent[snG1](w, ecs.NewEntityID(0, 0))
			w.DeleteEntity(ecs.NewEntityID(2, 0))
		}},
		{"dead entities' leftovers", func(t *testing.T, w *ecs.World) {
			a, _ := ecs.AddEntity2(w, snA{1}, snT{V: 1})
			ecs.AddEntity2(w, snA{2}, snT{V: 2})
			if err := w.Run(func(e ecs.EntitiesViewMut) { e.DeleteUnchecked(a) }); err != nil {
				t.Fatal(err)
			}
		}, func(t *testing.T, w *ecs.World) {
			w.AddEntity() // purges, then takes a's index
			ecs.AddEntity1(w, snA{3})
		}},
	} {
		for _, dense := range []int{0, 1 << 30} {
			t.Run(fmt.Sprint(tc.name, "/densePages=", dense), func(t *testing.T) {
				defer ecs.SetSnapshotDensePages(dense)()
				snEdgeCase(t, tc.before, tc.after)
			})
		}
	}
}

func snEdgeCase(t *testing.T, before, after func(t *testing.T, w *ecs.World)) {
	// The state snapshotted, then changes the restore undoes.
	w := snWorld(t)
	before(t, w)
	var s ecs.Snapshot
	snTake(t, w, &s)
	want := ecs.SnapStateOf(w)
	next, _ := w.AddEntity()
	after(t, w)
	snRestore(t, w, &s)
	if diff := want.Diff(ecs.SnapStateOf(w)); diff != "" {
		t.Fatalf("restored world differs:\n%s", diff)
	}
	ecs.SnapCheck(t, w)
	if id, _ := w.AddEntity(); id != next {
		t.Fatalf("AddEntity after restore = %v, want %v", id, next)
	}
	// A clone of the snapshot-time world, too.
	snRestore(t, w, &s)
	c, err := w.Clone()
	if err != nil {
		t.Fatal(err)
	}
	ecs.SnapCheck(t, c)
	if diff := snNoGroups(want).Diff(snNoGroups(ecs.SnapStateOf(c))); diff != "" {
		t.Fatalf("clone differs:\n%s", diff)
	}
}

// snNoGroups drops what only a world with groups has (a clone has none):
// the group length of its members' dumps, and its workload's clock
// readings, which a clone keeps anyway.
func snNoGroups(s ecs.SnapState) ecs.SnapState {
	out := ecs.SnapState{}
	for k, v := range s {
		out[k] = snStripPack(v)
	}
	return out
}

func snStripPack(v string) string {
	const key = " pack.n="
	for {
		i := strings.Index(v, key)
		if i < 0 {
			return v
		}
		j := i + len(key)
		for j < len(v) && v[j] >= '0' && v[j] <= '9' {
			j++
		}
		v = v[:i] + v[j:]
	}
}

// TestSnapshotRestricted rolls back only the storages and uniques listed:
// the others keep their state, but for the components of entities the
// restore kills.
func TestSnapshotRestricted(t *testing.T) {
	w := snWorld(t)
	a, _ := ecs.AddEntity2(w, snA{1}, snB{1, 1})
	ecs.AddUnique(w, snU{1})
	var s ecs.Snapshot
	ecs.SnapshotComponent[snA](&s)
	ecs.SnapshotComponent[snA](&s) // listed twice: once
	ecs.SnapshotUnique[snU](&s)
	snTake(t, w, &s)

	ecs.AddComponent1(w, a, snA{2})
	ecs.AddComponent1(w, a, snB{2, 2})
	b, _ := ecs.AddEntity2(w, snA{3}, snB{3, 3})
	ecs.AddUnique(w, snU{2})
	ecs.AddUnique(w, snLate{2})
	snRestore(t, w, &s)
	ecs.SnapCheck(t, w)

	if got, _ := ecs.Get[snA](w, a); got != (snA{1}) {
		t.Errorf("snA of a = %v, want the snapshot's {1}", got)
	}
	if got, _ := ecs.Get[snB](w, a); got != (snB{2, 2}) {
		t.Errorf("snB of a = %v, want the later {2 2}: snB is not rolled back", got)
	}
	if w.IsAlive(b) {
		t.Errorf("%v, created after the snapshot, is alive", b)
	}
	var vb ecs.View[snB]
	release, err := w.Borrow(&vb)
	if err != nil {
		t.Fatal(err)
	}
	if vb.Len() != 1 || vb.Contains(b) {
		t.Errorf("snB holds %v, want only a's: b's component went with b", vb.IDs())
	}
	release()
	if u, _ := ecs.GetUnique[snU](w); u != (snU{1}) {
		t.Errorf("snU = %v, want {1}", u)
	}
	if u, err := ecs.GetUnique[snLate](w); err != nil || u != (snLate{2}) {
		t.Errorf("snLate = %v, %v: a unique not listed is left as it is", u, err)
	}
	// A storage listed but created after the first snapshot.
	var s2 ecs.Snapshot
	ecs.SnapshotComponent[snLate](&s2)
	snTake(t, w, &s2)
	ecs.AddEntity1(w, snLate{5})
	snRestore(t, w, &s2)
	if ok, _ := ecs.Contains[snLate](w, a); ok || w.EntityCount() != 1 {
		t.Errorf("after restoring s2: snLate of a %v, %d entities, want none and 1", ok, w.EntityCount())
	}
}

// TestSnapshotErrors checks the refusals: each returns the error named
// and changes nothing.
func TestSnapshotErrors(t *testing.T) {
	var nilWorld *ecs.World
	var s ecs.Snapshot
	if err := nilWorld.SnapshotTo(&s); !errors.Is(err, ecs.ErrNilWorld) {
		t.Errorf("SnapshotTo on a nil world: %v", err)
	}
	if err := nilWorld.Restore(&s); !errors.Is(err, ecs.ErrNilWorld) {
		t.Errorf("Restore on a nil world: %v", err)
	}
	if _, err := nilWorld.Clone(); !errors.Is(err, ecs.ErrNilWorld) {
		t.Errorf("Clone of a nil world: %v", err)
	}
	w := snWorld(t)
	id, _ := ecs.AddEntity1(w, snA{1})
	if err := w.SnapshotTo(nil); !errors.Is(err, ecs.ErrSnapshot) {
		t.Errorf("SnapshotTo(nil): %v", err)
	}
	if err := w.Restore(nil); !errors.Is(err, ecs.ErrSnapshot) {
		t.Errorf("Restore(nil): %v", err)
	}
	want := ecs.SnapStateOf(w)
	if err := w.Restore(&s); !errors.Is(err, ecs.ErrSnapshot) || s.Taken() {
		t.Errorf("Restore of a Snapshot never taken: %v", err)
	}
	if diff := want.Diff(ecs.SnapStateOf(w)); diff != "" {
		t.Errorf("a refused Restore changed the world:\n%s", diff)
	}

	snTake(t, w, &s)
	ecs.AddComponent1(w, id, snA{2})
	// A view held exclusively: the snapshot is refused; a view held
	// shared: the restore is refused.
	var vm ecs.ViewMut[snA]
	release, err := w.Borrow(&vm)
	if err != nil {
		t.Fatal(err)
	}
	var be *ecs.BorrowError
	if err := w.SnapshotTo(&s); !errors.As(err, &be) {
		t.Errorf("SnapshotTo while a ViewMut is held: %v, want a *BorrowError", err)
	}
	release()
	var v ecs.View[snA]
	release, _ = w.Borrow(&v)
	if err := w.Restore(&s); !errors.As(err, &be) {
		t.Errorf("Restore while a View is held: %v, want a *BorrowError", err)
	}
	release()
	// The failed SnapshotTo left s as it was: the restore brings back {1}.
	snRestore(t, w, &s)
	if got, _ := ecs.Get[snA](w, id); got != (snA{1}) {
		t.Errorf("after restore: %v, want {1}", got)
	}
	// A unique held exclusively by UpdateUnique refuses both.
	ecs.AddUnique(w, snU{1})
	err = ecs.UpdateUnique(w, func(u *snU) {
		if err := w.SnapshotTo(&s); !errors.As(err, &be) {
			t.Errorf("SnapshotTo inside UpdateUnique: %v", err)
		}
		if err := w.Restore(&s); !errors.As(err, &be) {
			t.Errorf("Restore inside UpdateUnique: %v", err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	// Inside a system: an AllStoragesViewMut holds everything.
	err = w.Run(func(all ecs.AllStoragesViewMut) {
		if err := w.Restore(&s); !errors.As(err, &be) {
			t.Errorf("Restore inside an AllStoragesViewMut: %v", err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestSnapshotConcurrentViewMut runs a snapshot, and a restore, while a
// system on another goroutine holds a ViewMut: both get a BorrowError.
// Then it races snapshots against such a system running again and again:
// each gets a BorrowError or a consistent copy, never a data race (run
// with -race).
func TestSnapshotConcurrentViewMut(t *testing.T) {
	w := ecs.NewWorld()
	for i := range 100 {
		ecs.AddEntity1(w, snA{i})
	}
	var s ecs.Snapshot
	snTake(t, w, &s)
	held, done, ran := make(chan struct{}), make(chan struct{}), make(chan error)
	go func() {
		ran <- w.Run(func(v ecs.ViewMut[snA]) {
			close(held)
			<-done
		})
	}()
	<-held
	var be *ecs.BorrowError
	if err := w.SnapshotTo(&s); !errors.As(err, &be) {
		t.Errorf("SnapshotTo while a system holds a ViewMut: %v, want a *BorrowError", err)
	}
	if err := w.Restore(&s); !errors.As(err, &be) {
		t.Errorf("Restore while a system holds a ViewMut: %v, want a *BorrowError", err)
	}
	close(done)
	if err := <-ran; err != nil {
		t.Fatal(err)
	}

	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			w.Run(func(v ecs.ViewMut[snA]) {
				for p := range v.All() {
					p.V++
				}
			})
		}
	}()
	refused, taken := 0, 0
	for i := 0; i < 20000 && (i < 300 || refused == 0); i++ {
		err := w.SnapshotTo(&s)
		var be *ecs.BorrowError
		switch {
		case err == nil:
			taken++
		case errors.As(err, &be):
			refused++
		default:
			t.Fatalf("SnapshotTo: %v", err)
		}
	}
	close(stop)
	wg.Wait()
	t.Logf("%d snapshots taken, %d refused", taken, refused)
	if taken == 0 {
		snTake(t, w, &s)
	}
	c := ecs.NewWorld()
	snRestore(t, c, &s)
	var v ecs.View[snA]
	release, _ := c.Borrow(&v)
	defer release()
	first := v.Slice()[0].V
	for i, a := range v.Slice() { // every component was incremented as often
		if a.V-i != first {
			t.Fatalf("inconsistent copy: component %d is %d, component 0 is %d", i, a.V, first)
		}
	}
}

// TestClone checks that a clone holds what the world holds, and that the
// two are independent from then on; pointers inside components are
// shared (shallow copies).
func TestClone(t *testing.T) {
	w := snWorld(t)
	a, _ := ecs.AddEntity2(w, snA{1}, snT{V: 1, S: "one"})
	b, _ := ecs.AddEntity2(w, snG1{2}, snG2{2})
	w.DeleteEntity(ecs.NewEntityID(99, 0)) // nothing
	ecs.AddUnique(w, snU{7})
	p := new(int)
	ecs.AddUnique(w, p)
	c, err := w.Clone()
	if err != nil {
		t.Fatal(err)
	}
	ecs.SnapCheck(t, c)
	if got, _ := ecs.Get[snT](c, a); got != (snT{V: 1, S: "one"}) {
		t.Errorf("clone's snT of a = %v", got)
	}
	if u, _ := ecs.GetUnique[snU](c); u != (snU{7}) {
		t.Errorf("clone's snU = %v", u)
	}
	// Independent: changes to either do not reach the other.
	ecs.AddComponent1(c, a, snA{10})
	c.DeleteEntity(b)
	ecs.AddUnique(c, snU{8})
	if got, _ := ecs.Get[snA](w, a); got != (snA{1}) {
		t.Errorf("the clone's change reached the world: %v", got)
	}
	if !w.IsAlive(b) || c.IsAlive(b) {
		t.Errorf("deleting b in the clone: alive in w %v, in c %v", w.IsAlive(b), c.IsAlive(b))
	}
	if u, _ := ecs.GetUnique[snU](w); u != (snU{7}) {
		t.Errorf("the world's snU = %v", u)
	}
	ecs.AddComponent1(w, b, snA{20})
	if ok, _ := ecs.Contains[snA](c, b); ok {
		t.Errorf("the world's change reached the clone")
	}
	// Shallow: the pointer unique is the same pointer.
	cp, _ := ecs.GetUnique[*int](c)
	if cp != p {
		t.Errorf("the clone's *int unique is %p, want the world's %p (shallow copy)", cp, p)
	}
	// The clone tracks what w tracks, and answers as w did.
	if got := ecs.TrackingOf[snT](c); got != ecs.TrackAll {
		t.Errorf("clone tracks %v of snT", got)
	}
	// And has no workloads.
	if len(c.Workloads()) != 0 {
		t.Errorf("clone has workloads %v", c.Workloads())
	}
}

// TestSnapshotReuseAllocs checks the steady state: taking and restoring
// snapshots of a world that keeps its size allocates nothing.
func TestSnapshotReuseAllocs(t *testing.T) {
	w := snWorld(t)
	for i := range 1000 {
		ecs.AddEntity2(w, snA{i}, snT{V: i})
		ecs.AddEntity2(w, snG1{i}, snG2{i})
	}
	ecs.AddUnique(w, snU{1})
	var s ecs.Snapshot
	snTake(t, w, &s)
	snRestore(t, w, &s)
	allocs := testing.AllocsPerRun(20, func() {
		if err := w.SnapshotTo(&s); err != nil {
			t.Fatal(err)
		}
		if err := w.Restore(&s); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("a snapshot and a restore allocate %v times in the steady state, want 0", allocs)
	}
}

// TestSnapshotRestoreIntoAnotherWorld restores a random world's snapshot
// into another world with the same group and workload, which holds other
// entities: it becomes the snapshotted world exactly (its pack rebuilt
// from the copied order), and its workload's system, whose window starts
// afresh, sees every snT component as inserted.
func TestSnapshotRestoreIntoAnotherWorld(t *testing.T) {
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 99))
		a, b := snWorld(t), snWorld(t)
		da, db := &snDriver{r: r, w: a}, &snDriver{r: r, w: b}
		for range 120 {
			da.step(t, false)
			db.step(t, true)
		}
		if err := b.RunWorkload("frame"); err != nil {
			t.Fatal(err)
		}
		var s ecs.Snapshot
		snTake(t, a, &s)
		want := ecs.SnapStateOf(a)
		snRestore(t, b, &s)
		if diff := want.Diff(ecs.SnapStateOf(b)); diff != "" {
			t.Fatalf("seed %d: the other world differs:\n%s", seed, diff)
		}
		ecs.SnapCheck(t, b)

		before, _ := ecs.GetUnique[snCount](b)
		if err := b.RunWorkload("frame"); err != nil {
			t.Fatal(err)
		}
		after, _ := ecs.GetUnique[snCount](b)
		var v ecs.View[snT]
		release, err := b.Borrow(&v)
		if err != nil {
			t.Fatal(err)
		}
		n := v.Len()
		release()
		if after.Ins-before.Ins != n {
			t.Fatalf("seed %d: the workload's first run after the restore saw %d insertions, want all %d", seed, after.Ins-before.Ins, n)
		}
	}
}
