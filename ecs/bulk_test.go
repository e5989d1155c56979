package ecs_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// The bulk operations must do what the one-entity calls do for each id in
// turn. Each test below builds two identical worlds, applies a bulk call to
// one and the one-by-one loop to the other, and compares everything
// observable: live entities, every component, change tracking, and the ids
// the worlds hand out next (which shows their free lists agree).

type bkPos struct{ X, Y float64 }
type bkVel struct{ X, Y float64 }
type bkTag struct{}
type bkName struct{ S string } // holds a pointer: storages clear what they cut off
type bkLife struct{ HP int }   // tracks everything: the per-element paths

func (bkLife) Tracking() ecs.Tracking { return ecs.TrackAll }

// bkState is what the tests compare.
type bkState struct {
	Live              []ecs.EntityID
	Pos               map[ecs.EntityID]bkPos
	Vel               map[ecs.EntityID]bkVel
	Tag               map[ecs.EntityID]bool
	Name              map[ecs.EntityID]bkName
	Life              map[ecs.EntityID]bkLife
	Inserted, Changed []ecs.EntityID // bkLife inserted, modified (sorted)
	Deleted           []string       // bkLife's deletion log, in order
	Removed           []ecs.EntityID // bkLife's removal log, in order
}

// bkComponents reads a storage through v, checking that every component
// is found again by id (the sparse entries point where they should).
func bkComponents[T comparable](t *testing.T, v ecs.View[T]) map[ecs.EntityID]T {
	t.Helper()
	m := map[ecs.EntityID]T{}
	for i, id := range v.IDs() {
		c := v.Slice()[i]
		if _, dup := m[id]; dup {
			t.Errorf("%T: %v stored twice", c, id)
		}
		m[id] = c
		if p, ok := v.Get(id); !ok || *p != c {
			t.Errorf("%T: Get(%v) = %v, %v; stored at %d: %v", c, id, p, ok, i, c)
		}
	}
	return m
}

func bkSnap(t *testing.T, w *ecs.World) bkState {
	t.Helper()
	var ents ecs.EntitiesView
	var p ecs.View[bkPos]
	var v ecs.View[bkVel]
	var g ecs.View[bkTag]
	var n ecs.View[bkName]
	var l ecs.View[bkLife]
	release, err := w.Borrow(&ents, &p, &v, &g, &n, &l)
	must(t, err)
	defer release()
	s := bkState{
		Live: slices.Collect(ents.All()),
		Pos:  bkComponents(t, p), Vel: bkComponents(t, v), Name: bkComponents(t, n), Life: bkComponents(t, l),
		Tag: map[ecs.EntityID]bool{},
	}
	for id := range bkComponents(t, g) {
		s.Tag[id] = true
	}
	ins, err := l.Inserted()
	must(t, err)
	for id := range ins.WithID() {
		s.Inserted = append(s.Inserted, id)
	}
	mod, err := l.Modified()
	must(t, err)
	for id := range mod.WithID() {
		s.Changed = append(s.Changed, id)
	}
	slices.Sort(s.Inserted)
	slices.Sort(s.Changed)
	del, err := l.Deleted()
	must(t, err)
	for id, c := range del {
		s.Deleted = append(s.Deleted, fmt.Sprint(id, c))
	}
	rem, err := l.Removed()
	must(t, err)
	s.Removed = slices.Collect(rem)
	return s
}

// bkSame fails unless a and b hold the same, then checks that they hand
// out the same ids next.
func bkSame(t *testing.T, a, b *ecs.World) {
	t.Helper()
	deepEqual(t, "bulk vs one by one", bkSnap(t, a), bkSnap(t, b))
	for range 40 {
		x, err := a.AddEntity()
		must(t, err)
		y, err := b.AddEntity()
		must(t, err)
		if x != y {
			t.Fatalf("next ids differ: bulk world gives %v, one-by-one world %v", x, y)
		}
	}
}

// bkWorld builds a world from seed: entities with random sets of the test
// types, some deleted and their slots reused, and some dead entities'
// components left behind (EntitiesViewMut.DeleteUnchecked), with the ids
// of the live and of the dead entities.
func bkWorld(t *testing.T, seed uint64, n int) (w *ecs.World, live, dead []ecs.EntityID) {
	t.Helper()
	return bkWorldGrouped(t, seed, n, false)
}

// bkWorldGrouped is bkWorld, with a packed group over bkPos and bkVel
// when grouped: grouped storages take the per-element paths, which keep
// the group packed.
func bkWorldGrouped(t *testing.T, seed uint64, n int, grouped bool) (w *ecs.World, live, dead []ecs.EntityID) {
	t.Helper()
	w = ecs.NewWorld()
	if grouped {
		must(t, ecs.AddGroup2[bkPos, bkVel](w))
	}
	r := rand.New(rand.NewPCG(seed, 7))
	add := func(id ecs.EntityID, mask int, k int) {
		if mask&1 != 0 {
			must(t, ecs.AddComponent1(w, id, bkPos{float64(k), 1}))
		}
		if mask&2 != 0 {
			must(t, ecs.AddComponent1(w, id, bkVel{1, float64(k)}))
		}
		if mask&4 != 0 {
			must(t, ecs.AddComponent1(w, id, bkTag{}))
		}
		if mask&8 != 0 {
			must(t, ecs.AddComponent1(w, id, bkName{fmt.Sprint("n", k)}))
		}
		if mask&16 != 0 {
			must(t, ecs.AddComponent1(w, id, bkLife{k}))
		}
	}
	for k := range n {
		id, err := w.AddEntity()
		must(t, err)
		add(id, r.IntN(32), k)
		live = append(live, id)
	}
	// Delete a fifth, then reuse half of the freed slots.
	r.Shuffle(len(live), func(i, j int) { live[i], live[j] = live[j], live[i] })
	cut := len(live) / 5
	for _, id := range live[:cut] {
		must(t, w.DeleteEntity(id))
	}
	dead = append(dead, live[:cut]...)
	live = live[cut:]
	for k := range cut / 2 {
		id, err := w.AddEntity()
		must(t, err)
		add(id, r.IntN(32), n+k)
		live = append(live, id)
	}
	// Leave a few dead entities' components behind.
	left := live[:len(live)/20]
	must(t, w.Run(func(ents ecs.EntitiesViewMut) {
		for _, id := range left {
			ents.DeleteUnchecked(id)
		}
	}))
	dead = append(dead, left...)
	live = live[len(left):]
	// New entities in those slots: their components take over the
	// leftovers' places.
	for k := range len(left) / 2 {
		id, err := w.AddEntity()
		must(t, err)
		add(id, r.IntN(32)&^(8|16), 2*n+k)
		live = append(live, id)
	}
	// Start the tracking windows after the setup.
	must(t, w.Run(func(l ecs.ViewMut[bkLife]) {
		l.ClearAllInsertedAndModified()
		l.ClearAllRemovedAndDeleted()
	}))
	return w, live, dead
}

// bkPick returns the ids a case works on, from the live ids of a world
// built by bkWorld.
type bkPick struct {
	name string
	pick func(r *rand.Rand, live []ecs.EntityID) []ecs.EntityID
}

var bkPicks = []bkPick{
	{"none", func(*rand.Rand, []ecs.EntityID) []ecs.EntityID { return nil }},
	{"one", func(_ *rand.Rand, live []ecs.EntityID) []ecs.EntityID { return live[3:4] }},
	{"all", func(_ *rand.Rand, live []ecs.EntityID) []ecs.EntityID { return slices.Clone(live) }},
	{"all in index order", func(_ *rand.Rand, live []ecs.EntityID) []ecs.EntityID {
		ids := slices.Clone(live)
		slices.SortFunc(ids, func(a, b ecs.EntityID) int { return int(a.Index()) - int(b.Index()) })
		return ids
	}},
	{"half, shuffled", func(r *rand.Rand, live []ecs.EntityID) []ecs.EntityID {
		ids := slices.Clone(live)
		r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		return ids[:len(ids)/2]
	}},
	{"a tenth, with repeats", func(r *rand.Rand, live []ecs.EntityID) []ecs.EntityID {
		var ids []ecs.EntityID
		for range len(live) / 10 {
			id := live[r.IntN(len(live))]
			ids = append(ids, id, live[r.IntN(len(live))], id)
		}
		return ids
	}},
}

// bkModes are the ways the bulk calls may work: one storage after the
// other, and several storages at once, which they do from a number of
// ids that bkCase's worlds do not reach unless it is lowered.
var bkModes = []struct {
	name string
	min  int // the ids from which bulk calls work on storages at once
}{
	{"", 1 << 30},
	{", parallel", 1},
}

// bkCase runs every pick on two worlds of n entities: bulk on one, one by
// one on the other, in every mode.
func bkCase(t *testing.T, n int, bulk, single func(t *testing.T, w *ecs.World, ids []ecs.EntityID)) {
	for _, mode := range bkModes {
		bkCaseIn(t, n, mode.name, mode.min, bulk, single)
	}
}

func bkCaseIn(t *testing.T, n int, suffix string, parMin int, bulk, single func(t *testing.T, w *ecs.World, ids []ecs.EntityID)) {
	for _, grouped := range []bool{false, true} {
		for seed, p := range bkPicks {
			name := p.name
			if grouped {
				name += ", grouped"
			}
			t.Run(name+suffix, func(t *testing.T) {
				defer ecs.SetBulkParallelMin(parMin)()
				a, live, _ := bkWorldGrouped(t, uint64(seed), n, grouped)
				b, _, _ := bkWorldGrouped(t, uint64(seed), n, grouped)
				ids := p.pick(rand.New(rand.NewPCG(uint64(seed), 3)), live)
				bulk(t, a, ids)
				single(t, b, ids)
				bkSame(t, a, b)
				if grouped {
					bkPacked(t, a)
					bkPacked(t, b)
				}
			})
		}
	}
}

// bkPacked checks the group over bkPos and bkVel: the entities that have
// both sit first in both storages, in the same order.
func bkPacked(t *testing.T, w *ecs.World) {
	t.Helper()
	n, ok, err := ecs.GroupLen[bkPos](w)
	if err != nil {
		t.Fatal(err)
	}
	isTrue(t, ok, "no group")
	var p ecs.View[bkPos]
	var v ecs.View[bkVel]
	release, err := w.Borrow(&p, &v)
	must(t, err)
	defer release()
	both := 0
	for _, id := range p.IDs() {
		if v.Contains(id) {
			both++
		}
	}
	equal(t, "group length", n, both)
	if !slices.Equal(p.IDs()[:n], v.IDs()[:n]) {
		t.Errorf("group not packed: %v vs %v", p.IDs()[:n], v.IDs()[:n])
	}
}

func TestDeleteEntitiesMatchesOneByOne(t *testing.T) {
	for _, n := range []int{50, 3000} {
		t.Run(fmt.Sprint("n=", n), func(t *testing.T) {
			bkCase(t, n,
				func(t *testing.T, w *ecs.World, ids []ecs.EntityID) { must(t, w.DeleteEntities(ids...)) },
				func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
					for _, id := range ids {
						if w.IsAlive(id) { // a repeat is deleted once
							must(t, w.DeleteEntity(id))
						}
					}
				})
		})
	}
}

func TestBulkDeleteComponentMatchesOneByOne(t *testing.T) {
	bkCase(t, 3000,
		func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
			n1, err := ecs.BulkDeleteComponent[bkPos](w, ids...)
			must(t, err)
			n2, err := ecs.BulkDeleteComponent[bkLife](w, ids...)
			must(t, err)
			n3, err := ecs.BulkDeleteComponent[bkName](w, ids...)
			must(t, err)
			t.Logf("deleted %d, %d, %d", n1, n2, n3)
		},
		func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
			for _, id := range ids {
				_, err := ecs.DeleteComponent[bkPos](w, id)
				must(t, err)
			}
			for _, id := range ids {
				_, err := ecs.DeleteComponent[bkLife](w, id)
				must(t, err)
			}
			for _, id := range ids {
				_, err := ecs.DeleteComponent[bkName](w, id)
				must(t, err)
			}
		})
}

func TestBulkDeleteComponentCounts(t *testing.T) {
	w, live, _ := bkWorld(t, 9, 500)
	ids := append(slices.Clone(live[:100]), live[:10]...) // ten repeats
	want := 0
	for _, id := range live[:100] {
		if ok, _ := ecs.Contains[bkVel](w, id); ok {
			want++
		}
	}
	got, err := ecs.BulkDeleteComponent[bkVel](w, ids...)
	must(t, err)
	equal(t, "deleted", got, want)
	got, err = ecs.BulkDeleteComponent[bkVel](w, ids...)
	must(t, err)
	equal(t, "deleted again", got, 0)
}

func TestBulkAddComponentMatchesOneByOne(t *testing.T) {
	vals := func(ids []ecs.EntityID) ([]bkPos, []bkTag, []bkName, []bkLife) {
		ps, ts, ns, ls := make([]bkPos, len(ids)), make([]bkTag, len(ids)), make([]bkName, len(ids)), make([]bkLife, len(ids))
		for i := range ids {
			ps[i], ns[i], ls[i] = bkPos{-float64(i), 2}, bkName{fmt.Sprint("b", i)}, bkLife{-i}
		}
		return ps, ts, ns, ls
	}
	t.Run("AddComponent1", func(t *testing.T) {
		bkCase(t, 3000,
			func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
				ps, _, _, ls := vals(ids)
				must(t, ecs.BulkAddComponent1(w, ids, ps))
				must(t, ecs.BulkAddComponent1(w, ids, ls))
			},
			func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
				ps, _, _, ls := vals(ids)
				for i, id := range ids {
					must(t, ecs.AddComponent1(w, id, ps[i]))
				}
				for i, id := range ids {
					must(t, ecs.AddComponent1(w, id, ls[i]))
				}
			})
	})
	t.Run("AddComponent3", func(t *testing.T) { // untracked storages only
		bkCase(t, 3000,
			func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
				ps, ts, ns, _ := vals(ids)
				must(t, ecs.BulkAddComponent3(w, ids, ns, ps, ts))
			},
			func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
				ps, ts, ns, _ := vals(ids)
				for i, id := range ids {
					must(t, ecs.AddComponent3(w, id, ns[i], ps[i], ts[i]))
				}
			})
	})
	t.Run("AddComponent4", func(t *testing.T) {
		bkCase(t, 3000,
			func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
				ps, ts, ns, ls := vals(ids)
				must(t, ecs.BulkAddComponent4(w, ids, ls, ns, ts, ps))
			},
			func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
				ps, ts, ns, ls := vals(ids)
				for i, id := range ids {
					must(t, ecs.AddComponent4(w, id, ls[i], ns[i], ts[i], ps[i]))
				}
			})
	})
}

// BulkAddEntityN gives the entities it creates what AddEntityN would, in
// a world with entities and free slots already, whether it works on the
// storages one after the other or at once, with tracked and grouped
// storages, and with a type given twice (the last slice wins, as the last
// value does with AddEntityN).
func TestBulkAddEntityMatchesOneByOne(t *testing.T) {
	const n = 2000
	ps, vs, ns, ls := make([]bkPos, n), make([]bkVel, n), make([]bkName, n), make([]bkLife, n)
	ps2 := make([]bkPos, n)
	for i := range n {
		ps[i], vs[i], ns[i], ls[i], ps2[i] = bkPos{float64(i), 1}, bkVel{1, float64(-i)}, bkName{fmt.Sprint("e", i)}, bkLife{i}, bkPos{-1, float64(i)}
	}
	cases := []bkNewCase{
		{"untracked",
			func(w *ecs.World) ([]ecs.EntityID, error) { return ecs.BulkAddEntity3(w, ps, ns, vs) },
			func(w *ecs.World, i int) (ecs.EntityID, error) { return ecs.AddEntity3(w, ps[i], ns[i], vs[i]) }},
		{"with a tracked type",
			func(w *ecs.World) ([]ecs.EntityID, error) { return ecs.BulkAddEntity3(w, ls, ps, ns) },
			func(w *ecs.World, i int) (ecs.EntityID, error) { return ecs.AddEntity3(w, ls[i], ps[i], ns[i]) }},
		{"a type twice",
			func(w *ecs.World) ([]ecs.EntityID, error) { return ecs.BulkAddEntity3(w, ps, vs, ps2) },
			func(w *ecs.World, i int) (ecs.EntityID, error) { return ecs.AddEntity3(w, ps[i], vs[i], ps2[i]) }},
	}
	bkNewMatchesOneByOne(t, 11, n, false, cases)
}

// bkNewCase is a bulk creation of n entities and the one-by-one creation
// of the i-th of them that it must match.
type bkNewCase struct {
	name   string
	bulk   func(w *ecs.World) ([]ecs.EntityID, error)
	single func(w *ecs.World, i int) (ecs.EntityID, error)
}

// bkNewMatchesOneByOne runs each case in each parallel mode, grouped or
// not, on two like worlds made from seed (300 entities, some deleted): the
// bulk call on one, the n single calls on the other. It checks the ids and
// the storages match, the layouts with layouts set, and the group's
// packing when grouped.
func bkNewMatchesOneByOne(t *testing.T, seed uint64, n int, layouts bool, cases []bkNewCase) {
	t.Helper()
	for _, mode := range bkModes {
		for _, grouped := range []bool{false, true} {
			for _, c := range cases {
				name := c.name
				if grouped {
					name += ", grouped"
				}
				t.Run(name+mode.name, func(t *testing.T) {
					defer ecs.SetBulkParallelMin(mode.min)()
					a, _, _ := bkWorldGrouped(t, seed, 300, grouped)
					b, _, _ := bkWorldGrouped(t, seed, 300, grouped)
					got, err := c.bulk(a)
					must(t, err)
					want := make([]ecs.EntityID, n)
					for i := range want {
						want[i], err = c.single(b, i)
						must(t, err)
					}
					deepEqual(t, "ids", got, want)
					bkSame(t, a, b)
					if layouts {
						must(t, ecs.CheckLayouts(a))
					}
					if grouped {
						bkPacked(t, a)
					}
				})
			}
		}
	}
}

// BulkAppendEntityN appends to the slice it is given, keeps what was
// there, allocates nothing when the slice has room, and on an error
// returns the slice as it was and creates nothing.
func TestBulkAppendEntity(t *testing.T) {
	w := ecs.NewWorld()
	keep, err := w.AddEntity()
	must(t, err)
	dst := append(make([]ecs.EntityID, 0, 64), keep)
	got, err := ecs.BulkAppendEntity2(w, dst, []bkPos{{1, 1}, {2, 2}}, []bkVel{{3, 3}, {4, 4}})
	must(t, err)
	equal(t, "len", len(got), 3)
	equal(t, "kept", got[0], keep)
	isTrue(t, &got[0] == &dst[0], "BulkAppendEntity2 did not append in place")
	for i, id := range got[1:] {
		p, v, err := ecs.Get2[bkPos, bkVel](w, id)
		must(t, err)
		equal(t, fmt.Sprint("entity ", i), [2]float64{p.X, v.X}, [2]float64{float64(i + 1), float64(i + 3)})
	}

	before := bkSnap(t, w)
	for _, c := range []struct {
		name string
		call func() ([]ecs.EntityID, error)
		want error
	}{
		{"length mismatch", func() ([]ecs.EntityID, error) {
			return ecs.BulkAppendEntity2(w, got, []bkPos{{}}, []bkVel{})
		}, ecs.ErrLengthMismatch},
		{"borrow conflict", func() ([]ecs.EntityID, error) {
			var v ecs.View[bkVel]
			release, err := w.Borrow(&v)
			must(t, err)
			defer release()
			return ecs.BulkAppendEntity2(w, got, []bkPos{{}}, []bkVel{{}})
		}, ecs.ErrBorrowConflict},
	} {
		back, err := c.call()
		errIs(t, err, c.want)
		if c.want == ecs.ErrLengthMismatch {
			errHas(t, err, "BulkAppendEntity2", "slice 2 has 0 elements, slice 1 has 1")
		}
		isTrue(t, len(back) == len(got) && &back[0] == &got[0], "%s: the slice came back changed", c.name)
		deepEqual(t, c.name+": unchanged", bkSnap(t, w), before)
	}

	if !raceEnabled {
		ps, vs := make([]bkPos, 40), make([]bkVel, 40)
		round := func() {
			got, err = ecs.BulkAppendEntity2(w, got[:0], ps, vs)
			must(t, err)
			must(t, w.DeleteEntities(got...))
		}
		round()
		if a := testing.AllocsPerRun(20, round); a != 0 {
			t.Errorf("%v allocations per round with room in the slice, want 0", a)
		}
	}
}

// At the default threshold, bulk calls over 2^16 ids and more work on
// several storages at once; they must leave what one-by-one calls leave.
func TestBulkAtParallelSize(t *testing.T) {
	if testing.Short() {
		t.Skip("builds worlds of 70,000 entities")
	}
	const n = 70_000
	ps, vs, ns := make([]bkPos, n), make([]bkVel, n), make([]bkName, n)
	for i := range n {
		ps[i], vs[i], ns[i] = bkPos{float64(i), 1}, bkVel{1, float64(-i)}, bkName{fmt.Sprint("e", i)}
	}
	a, b := ecs.NewWorld(), ecs.NewWorld()
	ids, err := ecs.BulkAddEntity2(a, ps, vs)
	must(t, err)
	for i := range n {
		_, err := ecs.AddEntity2(b, ps[i], vs[i])
		must(t, err)
	}
	bkSame(t, a, b)
	// bkName alone (its own worker copies while the caller writes the
	// sparse entries): new for every id but a run given again in the
	// middle, where the fast path stops and the rest go one by one.
	rep := slices.Concat(ids[:n/2], ids[100:110], ids[n/2:])
	names := make([]bkName, len(rep))
	for i := range names {
		names[i] = bkName{fmt.Sprint("r", i)}
	}
	must(t, ecs.BulkAddComponent1(a, rep, names))
	for i, id := range rep {
		must(t, ecs.AddComponent1(b, id, names[i]))
	}
	bkSame(t, a, b)
	some := ids[:n-100]
	must(t, ecs.BulkAddComponent2(a, some, ns[:len(some)], vs[:len(some)]))
	for i, id := range some {
		must(t, ecs.AddComponent2(b, id, ns[i], vs[i]))
	}
	bkSame(t, a, b)
	// bkName alone again, swept (there are more ids than components):
	// every id shuffled, some twice.
	shuffle := rand.New(rand.NewPCG(1, 2)).Shuffle
	del := slices.Concat(ids, ids[:50])
	shuffle(len(del), func(i, j int) { del[i], del[j] = del[j], del[i] })
	got, err := ecs.BulkDeleteComponent[bkName](a, del...)
	must(t, err)
	want := 0
	for _, id := range del {
		ok, err := ecs.DeleteComponent[bkName](b, id)
		must(t, err)
		if ok {
			want++
		}
	}
	if got != want || got != n {
		t.Fatalf("BulkDeleteComponent deleted %d, one by one %d, want %d", got, want, n)
	}
	bkSame(t, a, b)
	// Every storage holds no more components than there are ids: each
	// sweeps.
	shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	must(t, a.DeleteEntities(ids...))
	for _, id := range ids {
		must(t, b.DeleteEntity(id))
	}
	bkSame(t, a, b)
}

// The Op names in errors, and a bulk call for each with every id of ids.
var bkOps = []struct {
	op  string
	run func(s ecs.Storages, ids []ecs.EntityID) error
}{
	{"DeleteEntities", func(s ecs.Storages, ids []ecs.EntityID) error { return ecs.DeleteEntities(s, ids...) }},
	{"BulkDeleteComponent", func(s ecs.Storages, ids []ecs.EntityID) error {
		_, err := ecs.BulkDeleteComponent[bkPos](s, ids...)
		return err
	}},
	{"BulkAddComponent1", func(s ecs.Storages, ids []ecs.EntityID) error {
		return ecs.BulkAddComponent1(s, ids, make([]bkLife, len(ids)))
	}},
	{"BulkAddComponent3", func(s ecs.Storages, ids []ecs.EntityID) error {
		return ecs.BulkAddComponent3(s, ids, make([]bkPos, len(ids)), make([]bkName, len(ids)), make([]bkTag, len(ids)))
	}},
}

// A bulk call given an id that is not alive names it and its position,
// wraps ErrDeadEntity and an *EntityError, and changes nothing. In the
// parallel mode the ids are checked in chunks at once: a later dead id
// (ids[8]) found first must not be the one named.
func TestBulkRefusesDeadIDs(t *testing.T) {
	for _, mode := range bkModes {
		for _, o := range bkOps {
			t.Run(o.op+mode.name, func(t *testing.T) {
				defer ecs.SetBulkParallelMin(mode.min)()
				bkRefusesDeadIDs(t, o.op, o.run)
			})
		}
	}
}

func bkRefusesDeadIDs(t *testing.T, op string, run func(s ecs.Storages, ids []ecs.EntityID) error) {
	w, live, dead := bkWorld(t, 4, 300)
	last := live[len(live)-1]
	bad := map[string]ecs.EntityID{
		"deleted":         dead[0],
		"left components": dead[len(dead)-1],
		"null":            ecs.NullID,
		"never issued":    fzForge(100_000, 0),
		"future":          fzForge(last.Index(), last.Generation()+1),
	}
	before := bkSnap(t, w)
	for what, id := range bad {
		ids := append(slices.Clone(live[:6]), id, live[0], dead[1])
		err := run(w, ids)
		errIs(t, err, ecs.ErrDeadEntity)
		be := errAs[*ecs.BulkError](t, err)
		equal(t, what+": index", be.Index, 6)
		equal(t, what+": op", be.Op, op)
		ee := errAs[*ecs.EntityError](t, err)
		equal(t, what+": id", ee.ID, id)
		errHas(t, err, op, "ids[6]", id.String(), "not alive")
		deepEqual(t, what+": unchanged", bkSnap(t, w), before)
	}
	// Through an AllStoragesViewMut, too.
	must(t, w.Run(func(all ecs.AllStoragesViewMut) {
		errIs(t, run(all, []ecs.EntityID{dead[2]}), ecs.ErrDeadEntity)
	}))
	deepEqual(t, "unchanged", bkSnap(t, w), before)
}

// A bulk call while something is borrowed elsewhere is a borrow error,
// and changes nothing.
func TestBulkBorrowConflict(t *testing.T) {
	for _, o := range bkOps {
		t.Run(o.op, func(t *testing.T) {
			w, live, _ := bkWorld(t, 5, 100)
			before := bkSnap(t, w)
			var v ecs.View[bkVel]
			release, err := w.Borrow(&v)
			must(t, err)
			err = o.run(w, live)
			release()
			errIs(t, err, ecs.ErrBorrowConflict)
			deepEqual(t, "unchanged", bkSnap(t, w), before)
			must(t, o.run(w, live)) // and works once released
		})
	}
}

func TestBulkAddComponentLengthMismatch(t *testing.T) {
	w, live, _ := bkWorld(t, 6, 100)
	before := bkSnap(t, w)
	ids := live[:3]
	err := ecs.BulkAddComponent2(w, ids, make([]bkPos, 3), make([]bkVel, 2))
	errIs(t, err, ecs.ErrLengthMismatch)
	errHas(t, err, "BulkAddComponent2", "c2 has 2 elements, ids has 3")
	err = ecs.BulkAddComponent1(w, ids, make([]bkPos, 4))
	errHas(t, err, "BulkAddComponent1", "c1 has 4 elements, ids has 3")
	deepEqual(t, "unchanged", bkSnap(t, w), before)
}

// A repeated id ends with the components of its last occurrence, as with
// one call per id.
func TestBulkAddComponentRepeatedID(t *testing.T) {
	w := ecs.NewWorld()
	a, _ := ecs.AddEntity1(w, bkPos{1, 1})
	b, _ := w.AddEntity()
	must(t, ecs.BulkAddComponent1(w, []ecs.EntityID{a, b, a, b, a}, []bkPos{{2, 0}, {3, 0}, {4, 0}, {5, 0}, {6, 0}}))
	pa, _ := ecs.Get[bkPos](w, a)
	pb, _ := ecs.Get[bkPos](w, b)
	equal(t, "a", pa, bkPos{6, 0})
	equal(t, "b", pb, bkPos{5, 0})
	var v ecs.View[bkPos]
	release, err := w.Borrow(&v)
	must(t, err)
	equal(t, "Len", v.Len(), 2)
	release()
}

// Inside a system, the bulk calls take the AllStoragesViewMut.
func TestBulkThroughAllStorages(t *testing.T) {
	w, live, _ := bkWorld(t, 8, 200)
	must(t, w.Run(func(all ecs.AllStoragesViewMut) error {
		if err := ecs.BulkAddComponent1(all, live[:50], make([]bkVel, 50)); err != nil {
			return err
		}
		if _, err := ecs.BulkDeleteComponent[bkVel](all, live[:25]...); err != nil {
			return err
		}
		return all.DeleteEntities(live[:10]...)
	}))
	for _, id := range live[:10] {
		isTrue(t, !w.IsAlive(id), "%v still alive", id)
	}
	for i, id := range live[10:50] {
		has, err := ecs.Contains[bkVel](w, id)
		must(t, err)
		equal(t, fmt.Sprint("has Vel ", id), has, i >= 15)
	}
}

// In steady state the bulk calls allocate nothing.
func TestBulkAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	const n = 5000
	w := ecs.NewWorld()
	ps, vs := make([]bkPos, n), make([]bkVel, n)
	ids, err := ecs.BulkAddEntity2(w, ps, vs)
	must(t, err)
	round := func() {
		must(t, ecs.BulkAddComponent1(w, ids, make([]bkTag, n)))
		_, err := ecs.BulkDeleteComponent[bkTag](w, ids...)
		must(t, err)
		must(t, w.DeleteEntities(ids...))
		ids, err = ecs.BulkAddEntity2(w, ps, vs)
		must(t, err)
	}
	round()
	// One allocation per round: the id slice BulkAddEntity2 returns.
	if a := testing.AllocsPerRun(20, round); a > 1 {
		t.Errorf("%v allocations per round, want 1 (BulkAddEntity2's ids)", a)
	}
}

func TestBulkErrorMessage(t *testing.T) {
	w := ecs.NewWorld()
	a, _ := w.AddEntity()
	must(t, w.DeleteEntity(a))
	err := w.DeleteEntities(a)
	want := "ecs: DeleteEntities: ids[0]: " + a.String() + " is not alive (deleted, or never created by this world)"
	equal(t, "message", err.Error(), want)
	isTrue(t, strings.Count(err.Error(), "ecs:") == 1, "message repeats its prefix: %q", err)
	isTrue(t, errors.Is(err, ecs.ErrDeadEntity), "not ErrDeadEntity")
}

// bkAliasSources are ways a caller gets an id slice that is a storage's
// own memory: a View's or a ViewMut's IDs, or the ids of a join over a
// packed group, taken and then released.
var bkAliasSources = []struct {
	name    string
	grouped bool // needs the group over bkPos and bkVel
	ids     func(t *testing.T, w *ecs.World) []ecs.EntityID
}{
	{"View[bkPos].IDs", false, func(t *testing.T, w *ecs.World) []ecs.EntityID {
		var v ecs.View[bkPos]
		release, err := w.Borrow(&v)
		must(t, err)
		defer release()
		return v.IDs()
	}},
	{"ViewMut[bkVel].IDs", false, func(t *testing.T, w *ecs.World) []ecs.EntityID {
		var v ecs.ViewMut[bkVel]
		release, err := w.Borrow(&v)
		must(t, err)
		defer release()
		return v.IDs()
	}},
	{"View[bkLife].IDs", false, func(t *testing.T, w *ecs.World) []ecs.EntityID {
		var v ecs.View[bkLife]
		release, err := w.Borrow(&v)
		must(t, err)
		defer release()
		return v.IDs()
	}},
	{"View[bkName].IDs", false, func(t *testing.T, w *ecs.World) []ecs.EntityID {
		var v ecs.View[bkName]
		release, err := w.Borrow(&v)
		must(t, err)
		defer release()
		return v.IDs()
	}},
	{"Join2(bkPos, bkVel).Packed", true, func(t *testing.T, w *ecs.World) []ecs.EntityID {
		var p ecs.View[bkPos]
		var v ecs.View[bkVel]
		release, err := w.Borrow(&p, &v)
		must(t, err)
		defer release()
		ids, _, _, ok := ecs.Join2(p, v).Packed()
		isTrue(t, ok, "the join is not over the group")
		return ids
	}},
}

// bkAliasOps are the bulk calls that take ids, each given ids once.
var bkAliasOps = []struct {
	name string
	run  func(w *ecs.World, ids []ecs.EntityID) error
}{
	{"World.DeleteEntities", func(w *ecs.World, ids []ecs.EntityID) error { return w.DeleteEntities(ids...) }},
	{"AllStoragesViewMut.DeleteEntities", func(w *ecs.World, ids []ecs.EntityID) error {
		var err error
		if rerr := w.Run(func(all ecs.AllStoragesViewMut) { err = all.DeleteEntities(ids...) }); rerr != nil {
			return rerr
		}
		return err
	}},
	{"BulkDeleteComponent[bkPos]", func(w *ecs.World, ids []ecs.EntityID) error {
		_, err := ecs.BulkDeleteComponent[bkPos](w, ids...)
		return err
	}},
	{"BulkDeleteComponent[bkVel]", func(w *ecs.World, ids []ecs.EntityID) error {
		_, err := ecs.BulkDeleteComponent[bkVel](w, ids...)
		return err
	}},
	{"BulkDeleteComponent[bkLife]", func(w *ecs.World, ids []ecs.EntityID) error {
		_, err := ecs.BulkDeleteComponent[bkLife](w, ids...)
		return err
	}},
	{"BulkAddComponent1[bkVel]", func(w *ecs.World, ids []ecs.EntityID) error {
		return ecs.BulkAddComponent1(w, ids, bkVals(len(ids), func(i int) bkVel { return bkVel{7, float64(i)} }))
	}},
	{"BulkAddComponent2[bkPos, bkVel]", func(w *ecs.World, ids []ecs.EntityID) error {
		return ecs.BulkAddComponent2(w, ids,
			bkVals(len(ids), func(i int) bkPos { return bkPos{8, float64(i)} }),
			bkVals(len(ids), func(i int) bkVel { return bkVel{9, float64(i)} }))
	}},
	{"BulkAddComponent3[bkLife, bkVel, bkName]", func(w *ecs.World, ids []ecs.EntityID) error {
		return ecs.BulkAddComponent3(w, ids,
			bkVals(len(ids), func(i int) bkLife { return bkLife{i} }),
			bkVals(len(ids), func(i int) bkVel { return bkVel{10, float64(i)} }),
			bkVals(len(ids), func(i int) bkName { return bkName{fmt.Sprint("a", i)} }))
	}},
}

// bkVals returns n values, value i being f(i).
func bkVals[T any](n int, f func(i int) T) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = f(i)
	}
	return s
}

// A bulk call given ids that are a storage's own memory (a View's IDs,
// released) does what it does with a copy of them: the storages it
// changes first must not change the ids the others read. Deleting from
// the storage the ids come from once filled its holes in the ids, so the
// next storages deleted the components of other entities.
func TestBulkAliasedIDs(t *testing.T) {
	windows := []struct {
		name string
		cut  func(ids []ecs.EntityID) []ecs.EntityID
	}{
		{"first 3", func(ids []ecs.EntityID) []ecs.EntityID { return ids[:3] }},
		{"middle 3", func(ids []ecs.EntityID) []ecs.EntityID { return ids[len(ids)/2-1 : len(ids)/2+2] }},
		{"last 3", func(ids []ecs.EntityID) []ecs.EntityID { return ids[len(ids)-3:] }},
		{"all", func(ids []ecs.EntityID) []ecs.EntityID { return ids }},
	}
	for _, mode := range bkModes {
		for _, grouped := range []bool{false, true} {
			for _, src := range bkAliasSources {
				if src.grouped && !grouped {
					continue
				}
				for _, win := range windows {
					for _, op := range bkAliasOps {
						name := fmt.Sprintf("%s/%s/%s", src.name, win.name, op.name)
						if grouped {
							name += ", grouped"
						}
						t.Run(name+mode.name, func(t *testing.T) {
							defer ecs.SetBulkParallelMin(mode.min)()
							a, _, _ := bkWorldGrouped(t, 11, 300, grouped)
							b, _, _ := bkWorldGrouped(t, 11, 300, grouped)
							for _, w := range []*ecs.World{a, b} {
								must(t, w.DeleteEntities()) // purges the dead entities' leftovers
							}
							aliased := win.cut(src.ids(t, a))
							copied := slices.Clone(win.cut(src.ids(t, b)))
							equal(t, "the ids", fmt.Sprint(aliased), fmt.Sprint(copied))
							errA, errB := op.run(a, aliased), op.run(b, copied)
							equal(t, "the error", fmt.Sprint(errA), fmt.Sprint(errB))
							bkSame(t, a, b)
							if grouped {
								bkPacked(t, a)
							}
						})
					}
				}
			}
		}
	}
}
