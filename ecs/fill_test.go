package ecs_test

// In-place bulk creation: BulkNewEntityN and BulkFillComponentN must leave
// what the one-entity calls leave with the values fill sets (the tests
// build two identical worlds and compare them, as bulk_test.go does), hand
// fill pointers to the right components, and keep the world consistent
// whatever fill does: call the world, panic, delete entities.

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// checkChanges checks that the inserted and the modified components of
// every type are those the model recorded since the last clearChanges.
func (m *jgModel) checkChanges(label string) {
	m.t.Helper()
	for k := 1; k <= len(m.ops); k++ {
		for _, kind := range []ecs.Tracking{ecs.TrackInsertion, ecs.TrackModification} {
			got, err := m.ops[k-1].changed(m.w, kind)
			jgMust(m.t, err)
			want := m.ins[k]
			if kind == ecs.TrackModification {
				want = m.mod[k]
			}
			if !jgSameSet(got, want) {
				m.t.Errorf("%s: components of type %d in the window %v: %v, want %v", label, k, kind, jgSorted(got), jgSorted(want))
			}
		}
	}
}

// bfPos returns the values the tests give entity i.
func bfPos(i int) bkPos   { return bkPos{float64(i), -1} }
func bfVel(i int) bkVel   { return bkVel{2, float64(i)} }
func bfName(i int) bkName { return bkName{fmt.Sprint("f", i)} }
func bfLife(i int) bkLife { return bkLife{100 + i} }

// BulkNewEntityN with a fill setting entity i's components gives what
// AddEntityN of the same values gives, in a world with entities, free
// slots, tracked and grouped storages, whether it works on the storages
// one after the other or at once, and with a type given twice (both
// pointers reach one component, so the last write wins, as the last value
// does with AddEntityN).
func TestBulkNewEntityMatchesOneByOne(t *testing.T) {
	const n = 2000
	cases := []bkNewCase{
		{"untracked",
			func(w *ecs.World) ([]ecs.EntityID, error) {
				return ecs.BulkNewEntity3(w, nil, n, func(i int, _ ecs.EntityID, p *bkPos, m *bkName, v *bkVel) {
					*p, *m, *v = bfPos(i), bfName(i), bfVel(i)
				})
			},
			func(w *ecs.World, i int) (ecs.EntityID, error) {
				return ecs.AddEntity3(w, bfPos(i), bfName(i), bfVel(i))
			}},
		{"with a tracked type",
			func(w *ecs.World) ([]ecs.EntityID, error) {
				return ecs.BulkNewEntity3(w, nil, n, func(i int, _ ecs.EntityID, l *bkLife, p *bkPos, m *bkName) {
					*l, *p, *m = bfLife(i), bfPos(i), bfName(i)
				})
			},
			func(w *ecs.World, i int) (ecs.EntityID, error) {
				return ecs.AddEntity3(w, bfLife(i), bfPos(i), bfName(i))
			}},
		{"a type twice",
			func(w *ecs.World) ([]ecs.EntityID, error) {
				return ecs.BulkNewEntity3(w, nil, n, func(i int, _ ecs.EntityID, p *bkPos, v *bkVel, p2 *bkPos) {
					if p != p2 {
						t.Errorf("entity %d: a type given twice has two components", i)
					}
					*p, *v = bfPos(i), bfVel(i)
					*p2 = bkPos{-1, float64(i)}
				})
			},
			func(w *ecs.World, i int) (ecs.EntityID, error) {
				return ecs.AddEntity3(w, bfPos(i), bfVel(i), bkPos{-1, float64(i)})
			}},
		{"zero values",
			func(w *ecs.World) ([]ecs.EntityID, error) {
				return ecs.BulkNewEntity4[bkPos, bkVel, bkName, bkLife](w, nil, n, nil)
			},
			func(w *ecs.World, i int) (ecs.EntityID, error) {
				return ecs.AddEntity4(w, bkPos{}, bkVel{}, bkName{}, bkLife{})
			}},
	}
	bkNewMatchesOneByOne(t, 12, n, true, cases)
}

// BulkFillComponentN with a fill setting the components of ids[i] gives
// what AddComponentN of the same values for each id in turn gives, for
// every pick of ids (none, one, all, shuffled, with repeats), grouped or
// not, one storage after the other or at once.
func TestBulkFillComponentMatchesOneByOne(t *testing.T) {
	t.Run("FillComponent1", func(t *testing.T) {
		bkCase(t, 3000,
			func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
				must(t, ecs.BulkFillComponent1(w, ids, func(i int, _ ecs.EntityID, p *bkPos) { *p = bfPos(i) }))
				must(t, ecs.BulkFillComponent1(w, ids, func(i int, _ ecs.EntityID, l *bkLife) { *l = bfLife(i) }))
			},
			func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
				for i, id := range ids {
					must(t, ecs.AddComponent1(w, id, bfPos(i)))
				}
				for i, id := range ids {
					must(t, ecs.AddComponent1(w, id, bfLife(i)))
				}
			})
	})
	t.Run("FillComponent3", func(t *testing.T) {
		bkCase(t, 3000,
			func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
				must(t, ecs.BulkFillComponent3(w, ids, func(i int, id ecs.EntityID, m *bkName, p *bkPos, _ *bkTag) {
					if id != ids[i] {
						t.Errorf("fill(%d) was given %v, want %v", i, id, ids[i])
					}
					*m, *p = bfName(i), bfPos(i)
				}))
			},
			func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
				for i, id := range ids {
					must(t, ecs.AddComponent3(w, id, bfName(i), bfPos(i), bkTag{}))
				}
			})
	})
	t.Run("FillComponent4, zero values", func(t *testing.T) {
		bkCase(t, 3000,
			func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
				must(t, ecs.BulkFillComponent4[bkLife, bkName, bkVel, bkPos](w, ids, nil))
			},
			func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
				for _, id := range ids {
					must(t, ecs.AddComponent4(w, id, bkLife{}, bkName{}, bkVel{}, bkPos{}))
				}
			})
	})
}

// BulkFillComponentN refuses a dead id as the other bulk calls do: it
// names the id and its position and changes nothing; fill is not called.
func TestBulkFillComponentRefusesDeadIDs(t *testing.T) {
	for _, mode := range bkModes {
		t.Run("BulkFillComponent3"+mode.name, func(t *testing.T) {
			defer ecs.SetBulkParallelMin(mode.min)()
			bkRefusesDeadIDs(t, "BulkFillComponent3", func(s ecs.Storages, ids []ecs.EntityID) error {
				return ecs.BulkFillComponent3(s, ids, func(int, ecs.EntityID, *bkPos, *bkName, *bkLife) {
					t.Error("fill called by a refused BulkFillComponent3")
				})
			})
		})
	}
}

// A negative n, or a borrow conflict, is an error naming what was wrong;
// nothing changes and fill is not called.
func TestBulkNewEntityRefusals(t *testing.T) {
	w, live, _ := bkWorld(t, 5, 100)
	before := bkSnap(t, w)
	dst := append(make([]ecs.EntityID, 0, 8), live[0])
	fill := func(int, ecs.EntityID, *bkPos, *bkLife) { t.Error("fill called by a refused call") }
	for _, n := range []int{-1, math.MinInt} {
		got, err := ecs.BulkNewEntity2(w, dst, n, fill)
		errIs(t, err, ecs.ErrNegativeCount)
		errHas(t, err, "ecs: BulkNewEntity2: n is negative ("+fmt.Sprint(n)+")", "number of entities to create")
		isTrue(t, len(got) == 1 && &got[0] == &dst[0], "n = %d: the slice came back changed: %v", n, got)
		deepEqual(t, "unchanged", bkSnap(t, w), before)
	}

	var v ecs.View[bkVel]
	release, err := w.Borrow(&v)
	must(t, err)
	got, err := ecs.BulkNewEntity2(w, dst, 3, fill)
	errIs(t, err, ecs.ErrBorrowConflict)
	isTrue(t, len(got) == 1 && &got[0] == &dst[0], "borrow conflict: the slice came back changed: %v", got)
	err = ecs.BulkFillComponent2(w, live[:3], fill)
	errIs(t, err, ecs.ErrBorrowConflict)
	release()
	deepEqual(t, "unchanged", bkSnap(t, w), before)
}

// Through a *World, fill runs while the world is borrowed for the call:
// what it calls on the world fails with a *BorrowError (or panics with
// it), and the call goes on unharmed.
func TestBulkFillCallingTheWorld(t *testing.T) {
	w, live, _ := bkWorld(t, 6, 200)
	calls := 0
	try := func(id ecs.EntityID) {
		calls++
		_, err := w.AddEntity()
		errIs(t, err, ecs.ErrBorrowConflict)
		_, err = ecs.AddEntity1(w, bkTag{})
		errIs(t, err, ecs.ErrBorrowConflict)
		_, err = ecs.Get[bkPos](w, id)
		errIs(t, err, ecs.ErrBorrowConflict)
		_, err = ecs.BulkNewEntity1[bkVel](w, nil, 2, nil)
		errIs(t, err, ecs.ErrBorrowConflict)
		r := mustPanic(t, func() { w.IsAlive(id) })
		if err, ok := r.(error); !ok || !errors.Is(err, ecs.ErrBorrowConflict) {
			t.Errorf("IsAlive inside fill panicked with %v, want a *BorrowError", r)
		}
	}
	count := w.EntityCount()
	ids, err := ecs.BulkNewEntity2(w, nil, 3, func(i int, id ecs.EntityID, p *bkPos, _ *bkName) {
		try(id)
		*p = bfPos(i)
	})
	must(t, err)
	must(t, ecs.BulkFillComponent1(w, live[:3], func(i int, id ecs.EntityID, v *bkVel) {
		try(id)
		*v = bfVel(i)
	}))
	equal(t, "fill calls", calls, 6)
	equal(t, "entities", w.EntityCount(), count+3)
	for i := range 3 {
		p, err := ecs.Get[bkPos](w, ids[i])
		must(t, err)
		equal(t, "position", p, bfPos(i))
		v, err := ecs.Get[bkVel](w, live[i])
		must(t, err)
		equal(t, "velocity", v, bfVel(i))
	}
	must(t, ecs.CheckLayouts(w))
	nothingHeld(t, w)
}

// Through an AllStoragesViewMut, fill may call through it as the fn of
// an Each may: it reads, creates entities with other types, deletes
// entities (their components stay until the call returns) and makes bulk
// calls of its own, which use the world's scratch memory for their ids
// while BulkFillComponent's loop reads its copy of the ids; the changes
// that would add or remove a component of the types filled are refused.
func TestBulkFillThroughAllStorages(t *testing.T) {
	w, live, _ := bkWorld(t, 7, 300)
	others := live[100:110] // fewer than the ids filled: their copy fits in the same memory
	var created, doomed []ecs.EntityID
	var seen []ecs.EntityID
	must(t, w.Run(func(all ecs.AllStoragesViewMut) error {
		err := ecs.BulkFillComponent2(all, live[:20], func(i int, id ecs.EntityID, p *bkPos, v *bkVel) {
			if id != live[i] {
				t.Errorf("fill(%d) was given %v, want %v", i, id, live[i])
			}
			seen = append(seen, id)
			*p, *v = bfPos(i), bfVel(i)
			// A bulk call of other types, over other ids: it copies
			// them where this call keeps its own.
			must(t, ecs.BulkAddComponent1(all, others, make([]bkTag, len(others))))
			ids, err := ecs.BulkNewEntity1(all, nil, 2, func(_ int, _ ecs.EntityID, m *bkName) { *m = bfName(i) })
			must(t, err)
			created = append(created, ids...)
			if g, err := ecs.Get[bkPos](all, id); err != nil || g != bfPos(i) {
				t.Errorf("Get of %v inside fill: %v, %v; want %v", id, g, err, bfPos(i))
			}
			for name, err := range map[string]error{
				"AddComponent1":      ecs.AddComponent1(all, ids[0], bkPos{}),
				"BulkFillComponent1": ecs.BulkFillComponent1[bkVel](all, ids, nil),
				"Strip":              ecs.Strip(all, id),
				"BulkNewEntity2": func() error {
					_, err := ecs.BulkNewEntity2[bkName, bkPos](all, nil, 1, nil)
					return err
				}(),
			} {
				errIs(t, err, ecs.ErrIterating)
				errHas(t, err, name, "fill of a BulkNewEntity or BulkFillComponent call")
			}
			// Replacing a component of a filled type moves nothing.
			must(t, ecs.AddComponent1(all, id, bkVel{7, 7}))
			*v = bfVel(i)
			if i%5 == 0 {
				must(t, all.DeleteEntity(id))
				doomed = append(doomed, id)
				if g, err := ecs.Get[bkPos](all, id); !errors.Is(err, ecs.ErrDeadEntity) {
					t.Errorf("Get of %v deleted inside fill: %v, %v; want ErrDeadEntity", id, g, err)
				}
			}
		})
		if err != nil {
			return err
		}
		// Once it returns, the deleted entities' components are gone and
		// the storages it filled take changes again.
		_, err = ecs.AddEntity2(all, bkPos{1, 1}, bkVel{1, 1})
		return err
	}))
	deepEqual(t, "ids fill was given", seen, live[:20])
	for i, id := range live[:20] {
		if slices.Contains(doomed, id) {
			isTrue(t, !w.IsAlive(id), "%v deleted inside fill is alive", id)
			continue
		}
		p, v, err := ecs.Get2[bkPos, bkVel](w, id)
		must(t, err)
		equal(t, fmt.Sprint(id, " components"), [2]float64{p.X, v.Y}, [2]float64{bfPos(i).X, bfVel(i).Y})
	}
	for _, id := range others {
		ok, err := ecs.Contains[bkTag](w, id)
		must(t, err)
		isTrue(t, ok, "%v lacks the tag added inside fill", id)
	}
	equal(t, "entities created inside fill", len(created), 40)
	withView(t, w, func(v ecs.View[bkPos]) {
		for _, id := range v.IDs() {
			isTrue(t, w.IsAlive(id), "the dead %v's position is still stored", id)
		}
	})
	must(t, ecs.CheckLayouts(w))
	nothingHeld(t, w)
}

// If fill panics, the panic reaches the caller with nothing borrowed:
// every entity of the call has its components, those fill set before
// the panic with their values, the others zero; a BulkNewEntity's ids
// are in dst's array when it had room. Through an AllStoragesViewMut,
// the storages take changes again afterwards.
func TestBulkFillPanics(t *testing.T) {
	const n, at = 8, 3
	fill := func(i int, _ ecs.EntityID, p *bkPos, l *bkLife) {
		if i == at {
			panic("fill gave up")
		}
		*p, *l = bfPos(i), bfLife(i)
	}
	check := func(t *testing.T, s ecs.Storages, ids []ecs.EntityID) {
		t.Helper()
		for i, id := range ids {
			p, l, err := ecs.Get2[bkPos, bkLife](s, id)
			must(t, err)
			wantP, wantL := bfPos(i), bfLife(i)
			if i >= at {
				wantP, wantL = bkPos{}, bkLife{}
			}
			equal(t, fmt.Sprint("entity ", i), [2]any{p, l}, [2]any{wantP, wantL})
		}
	}
	for _, through := range []string{"World", "AllStoragesViewMut"} {
		for _, grouped := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, grouped=%v", through, grouped), func(t *testing.T) {
				w, live, _ := bkWorldGrouped(t, 8, 200, grouped)
				run := func(call func(s ecs.Storages)) {
					if through == "World" {
						panicsWith(t, func() { call(w) }, "fill gave up")
						return
					}
					must(t, w.Run(func(all ecs.AllStoragesViewMut) error {
						panicsWith(t, func() { call(all) }, "fill gave up")
						_, err := ecs.AddEntity2(all, bkPos{}, bkLife{}) // walked no more
						return err
					}))
				}
				count := w.EntityCount()
				dst := make([]ecs.EntityID, 1, 1+n)
				run(func(s ecs.Storages) { _, _ = ecs.BulkNewEntity2(s, dst, n, fill) })
				ids := dst[1 : 1+n]
				check(t, w, ids)
				extra := 0
				if through != "World" {
					extra = 1
				}
				equal(t, "entities", w.EntityCount(), count+n+extra)
				target := slices.Clone(live[:n])
				run(func(s ecs.Storages) { _ = ecs.BulkFillComponent2(s, target, fill) })
				check(t, w, target)
				must(t, ecs.CheckLayouts(w))
				nothingHeld(t, w)
				if grouped {
					bkPacked(t, w)
				}
			})
		}
	}
}

// Components of dead entities still in place: those left by
// EntitiesViewMut.DeleteUnchecked are purged before BulkNewEntity
// creates anything, and those of entities deleted inside an Each through
// an AllStoragesViewMut (kept until it returns) are taken over by the
// new entities that get their indices, as one-by-one creation does.
func TestBulkNewEntityOverLeftovers(t *testing.T) {
	leave := func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
		must(t, w.Run(func(ents ecs.EntitiesViewMut) {
			for _, id := range ids {
				ents.DeleteUnchecked(id)
			}
		}))
	}
	t.Run("DeleteUnchecked", func(t *testing.T) {
		a, live, _ := bkWorld(t, 13, 300)
		b, _, _ := bkWorld(t, 13, 300)
		leave(t, a, live[:40])
		leave(t, b, live[:40])
		got, err := ecs.BulkNewEntity3(a, nil, 60, func(i int, _ ecs.EntityID, p *bkPos, m *bkName, l *bkLife) {
			*p, *m, *l = bfPos(i), bfName(i), bfLife(i)
		})
		must(t, err)
		for i := range 60 {
			id, err := ecs.AddEntity3(b, bfPos(i), bfName(i), bfLife(i))
			must(t, err)
			equal(t, fmt.Sprint("id ", i), got[i], id)
		}
		bkSame(t, a, b)
		must(t, ecs.CheckLayouts(a))
	})
	t.Run("deleted inside an Each", func(t *testing.T) {
		build := func() (*ecs.World, []ecs.EntityID) {
			w := ecs.NewWorld()
			var ids []ecs.EntityID
			for i := range 30 {
				id, err := ecs.AddEntity3(w, bkTag{}, bkPos{float64(i), 0}, bkName{fmt.Sprint("old", i)})
				must(t, err)
				ids = append(ids, id)
			}
			return w, ids
		}
		inEach := func(t *testing.T, w *ecs.World, create func(all ecs.AllStoragesViewMut) []ecs.EntityID) []ecs.EntityID {
			var got []ecs.EntityID
			must(t, w.Run(func(all ecs.AllStoragesViewMut) error {
				done := false
				return ecs.Each1(all, func(id ecs.EntityID, _ *bkTag) {
					if id.Index()%3 == 0 {
						must(t, all.DeleteEntity(id))
					}
					if id.Index() == 20 && !done {
						done = true
						got = create(all)
					}
				})
			}))
			return got
		}
		a, _ := build()
		b, _ := build()
		gotA := inEach(t, a, func(all ecs.AllStoragesViewMut) []ecs.EntityID {
			ids, err := ecs.BulkNewEntity2(all, nil, 5, func(i int, _ ecs.EntityID, p *bkPos, m *bkName) {
				*p, *m = bfPos(i), bfName(i)
			})
			must(t, err)
			return ids
		})
		gotB := inEach(t, b, func(all ecs.AllStoragesViewMut) []ecs.EntityID {
			var ids []ecs.EntityID
			for i := range 5 {
				id, err := ecs.AddEntity2(all, bfPos(i), bfName(i))
				must(t, err)
				ids = append(ids, id)
			}
			return ids
		})
		deepEqual(t, "ids", gotA, gotB)
		isTrue(t, gotA[0].Generation() == 1, "the new entities do not reuse deleted slots: %v", gotA)
		bkSame(t, a, b)
		must(t, ecs.CheckLayouts(a))
	})
}

// BulkFillComponentN given ids that are a storage's own memory (a View's
// IDs, released) does what it does with a copy of them.
func TestBulkFillComponentAliasedIDs(t *testing.T) {
	for _, grouped := range []bool{false, true} {
		for _, src := range bkAliasSources {
			if src.grouped && !grouped {
				continue
			}
			name := src.name
			if grouped {
				name += ", grouped"
			}
			t.Run(name, func(t *testing.T) {
				a, _, _ := bkWorldGrouped(t, 11, 300, grouped)
				b, _, _ := bkWorldGrouped(t, 11, 300, grouped)
				aliased := src.ids(t, a)
				copied := slices.Clone(src.ids(t, b))
				fill := func(i int, _ ecs.EntityID, p *bkPos, v *bkVel, l *bkLife) {
					*p, *v, *l = bfPos(i), bfVel(i), bfLife(i)
				}
				errA, errB := ecs.BulkFillComponent3(a, aliased, fill), ecs.BulkFillComponent3(b, copied, fill)
				equal(t, "the error", fmt.Sprint(errA), fmt.Sprint(errB))
				bkSame(t, a, b)
				if grouped {
					bkPacked(t, a)
				}
			})
		}
	}
}

// With room in dst, creating entities in place and deleting them again
// allocates nothing in steady state, with a fill or without.
func TestBulkNewEntityAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	const n = 3000
	w := ecs.NewWorld()
	ids := make([]ecs.EntityID, 0, n)
	fill := func(i int, _ ecs.EntityID, p *bkPos, v *bkVel) { p.X, v.Y = float64(i), 1 }
	round := func() {
		var err error
		ids, err = ecs.BulkNewEntity2(w, ids[:0], n, fill)
		must(t, err)
		must(t, ecs.BulkFillComponent1[bkTag](w, ids, nil))
		must(t, w.DeleteEntities(ids...))
		ids, err = ecs.BulkNewEntity2[bkPos, bkVel](w, ids[:0], n, nil)
		must(t, err)
		must(t, w.DeleteEntities(ids...))
	}
	round()
	if a := testing.AllocsPerRun(20, round); a != 0 {
		t.Errorf("%v allocations per round, want 0", a)
	}
}

// Random worlds: bulk creation and filling in place, in any mix with the
// other calls, leave the same world as the one-entity calls.
func TestBulkFillRandomMix(t *testing.T) {
	for seed := range uint64(6) {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 99))
			grouped := seed%2 == 1
			a, _, _ := bkWorldGrouped(t, seed, 200, grouped)
			b, _, _ := bkWorldGrouped(t, seed, 200, grouped)
			defer ecs.SetBulkParallelMin(1 + r.IntN(64))()
			for step := range 30 {
				live := bkSnap(t, a).Live
				switch r.IntN(4) {
				case 0: // create
					k := r.IntN(50)
					_, err := ecs.BulkNewEntity2(a, nil, k, func(i int, _ ecs.EntityID, p *bkPos, l *bkLife) { *p, *l = bfPos(i+step), bfLife(i) })
					must(t, err)
					for i := range k {
						_, err := ecs.AddEntity2(b, bfPos(i+step), bfLife(i))
						must(t, err)
					}
				case 1: // fill some, with repeats
					var pick []ecs.EntityID
					for range r.IntN(60) {
						pick = append(pick, live[r.IntN(len(live))])
					}
					must(t, ecs.BulkFillComponent2(a, pick, func(i int, _ ecs.EntityID, v *bkVel, m *bkName) { *v, *m = bfVel(i), bfName(step) }))
					for i, id := range pick {
						must(t, ecs.AddComponent2(b, id, bfVel(i), bfName(step)))
					}
				case 2: // delete some
					var pick []ecs.EntityID
					for _, id := range live {
						if r.IntN(5) == 0 {
							pick = append(pick, id)
						}
					}
					must(t, a.DeleteEntities(pick...))
					must(t, b.DeleteEntities(pick...))
				case 3: // delete every entity with a position: the next creation continues the prefix
					_, err := ecs.DeleteAny[bkPos](a)
					must(t, err)
					_, err = ecs.DeleteAny[bkPos](b)
					must(t, err)
				}
				must(t, ecs.CheckLayouts(a))
			}
			bkSame(t, a, b)
			if grouped {
				bkPacked(t, a)
			}
		})
	}
}

// A fill that writes over dst's array, where the call puts the ids it
// creates, changes what the call returns but not which components fill
// is given: the look-ups by id (in a group here) read a copy.
func TestBulkNewEntityFillWritingDst(t *testing.T) {
	w, _, _ := bkWorldGrouped(t, 9, 100, true)
	dst := make([]ecs.EntityID, 0, 20)
	var given []ecs.EntityID
	got, err := ecs.BulkNewEntity2(w, dst, 20, func(i int, id ecs.EntityID, p *bkPos, v *bkVel) {
		given = append(given, id)
		*p, *v = bfPos(i), bfVel(i)
		dst[:20][19-i] = ecs.NullID
	})
	must(t, err)
	equal(t, "ids returned", got[0], ecs.NullID)
	for i, id := range given {
		p, v, err := ecs.Get2[bkPos, bkVel](w, id)
		must(t, err)
		equal(t, fmt.Sprint("entity ", i), [2]float64{p.X, v.Y}, [2]float64{bfPos(i).X, bfVel(i).Y})
	}
	isTrue(t, !slices.Contains(given, ecs.NullID), "fill was given NullID: %v", given)
	bkPacked(t, w)
	must(t, ecs.CheckLayouts(w))
}
