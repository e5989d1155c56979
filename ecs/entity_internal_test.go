package ecs

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// killAllSplit leaves the entities exactly as the one-pass killAll does
// (the order of the free list included), and changes nothing when it
// fails: for ids in either order, shuffled, repeated or dead on either
// side of the middle index, and with an id at the last generation, which
// is retired rather than freed.
func TestKillAllSplit(t *testing.T) {
	const n = 64
	type state struct {
		Slots []uint32
		Free  []uint32
		Live  int
	}
	snap := func(e *entities) state {
		// Copies by append: an empty free list is nil whatever its capacity.
		return state{append([]uint32(nil), e.slots...), append([]uint32(nil), e.free...), e.live}
	}
	build := func() (*World, []EntityID) {
		w := NewWorld()
		ids := make([]EntityID, n)
		for i := range ids {
			ids[i] = w.ents.create()
		}
		w.ents.slots[40] = maxGeneration | aliveBit
		ids[40] = newEntityID(40, maxGeneration)
		return w, ids
	}
	cat := func(parts ...[]EntityID) []EntityID { return slices.Concat(parts...) }
	for _, c := range []struct {
		name string
		pick func(ids []EntityID) []EntityID
		ok   bool
	}{
		{"index order", func(ids []EntityID) []EntityID { return ids[:40] }, true},
		{"reverse order", func(ids []EntityID) []EntityID {
			r := slices.Clone(ids[:40])
			slices.Reverse(r)
			return r
		}, true},
		{"shuffled", func(ids []EntityID) []EntityID {
			r := cat(ids[:40], ids[41:])
			rand.New(rand.NewPCG(3, 4)).Shuffle(len(r), func(i, j int) { r[i], r[j] = r[j], r[i] })
			return r
		}, true},
		{"repeat below the middle", func(ids []EntityID) []EntityID { return cat(ids[:39], ids[3:4]) }, true},
		{"repeat above the middle", func(ids []EntityID) []EntityID { return cat(ids[:39], ids[35:36]) }, true},
		{"dead below the middle", func(ids []EntityID) []EntityID {
			return cat(ids[:39], []EntityID{newEntityID(5, 7)})
		}, false},
		{"dead above the middle", func(ids []EntityID) []EntityID {
			return cat(ids[:39], []EntityID{newEntityID(30, 7)})
		}, false},
		{"never issued", func(ids []EntityID) []EntityID { return cat(ids[:39], []EntityID{newEntityID(1000, 0)}) }, false},
		{"last generation", func(ids []EntityID) []EntityID { return ids[30:50] }, true},
		{"all", func(ids []EntityID) []EntityID { return ids }, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func(old int) { bulkParallelMin = old }(bulkParallelMin)
			var got [2]state
			for mode, min := range []int{1 << 30, 1} {
				bulkParallelMin = min
				w, ids := build()
				before := snap(&w.ents)
				err := w.DeleteEntities(c.pick(ids)...)
				if (err == nil) != c.ok {
					t.Fatalf("mode %d: DeleteEntities: %v, want ok = %v", mode, err, c.ok)
				}
				got[mode] = snap(&w.ents)
				if !c.ok && !reflect.DeepEqual(got[mode], before) {
					t.Fatalf("mode %d: a failed DeleteEntities changed the entities:\n%+v\nwant\n%+v", mode, got[mode], before)
				}
			}
			if !reflect.DeepEqual(got[1], got[0]) {
				t.Errorf("split pass left\n%+v\nthe one pass left\n%+v", got[1], got[0])
			}
		})
	}
}

// deleteManyLastFirst kills what deleteMany kills over the ids reversed,
// leaving the same slots and free list, and does not change the ids:
// dead and never-issued ids, repeats, and a slot at the last generation,
// which is retired rather than freed.
func TestDeleteManyLastFirst(t *testing.T) {
	build := func() (*entities, []EntityID) {
		var e entities
		ids := e.createMany(nil, 20)
		e.slots[7] = maxGeneration | aliveBit
		ids[7] = newEntityID(7, maxGeneration)
		e.delete(ids[3])
		return &e, ids
	}
	_, ids := build()
	for _, c := range []struct {
		name string
		ids  []EntityID
	}{
		{"none", nil},
		{"all, a dead one and a retiring one among them", ids},
		{"repeats and strangers", slices.Concat(ids[:5], ids[2:4], []EntityID{NullID, newEntityID(1000, 0), newEntityID(5, 9)})},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, _ := build()
			b, _ := build()
			given := slices.Clone(c.ids)
			n := a.deleteManyLastFirst(c.ids)
			rev := slices.Clone(c.ids)
			slices.Reverse(rev)
			if want := b.deleteMany(rev); n != want {
				t.Errorf("killed %d, deleteMany %d", n, want)
			}
			if !slices.Equal(a.slots, b.slots) || !slices.Equal(a.free, b.free) || a.live != b.live {
				t.Errorf("slots %v free %v live %d; deleteMany: %v %v %d", a.slots, a.free, a.live, b.slots, b.free, b.live)
			}
			if !slices.Equal(c.ids, given) {
				t.Errorf("ids changed: %v, given %v", c.ids, given)
			}
		})
	}
}
