package ecs_test

// Each1 … Each8 through an AllStoragesViewMut: fn may call the
// AllStoragesViewMut. The entities it deletes keep their components in
// place until the outermost Each returns, whatever else fn calls, so the
// iteration never walks storages that change under it; a change that
// would add or remove components in a storage it walks is refused.

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

type (
	eaHP    struct{ V int }
	eaArmor struct{ V int }
	eaOther struct{ V int } // no Each of these tests walks it
	eaGA    struct{ V int } // eaGA and eaGB form a packed group
	eaGB    struct{ V int }
	eaClock struct{ T int } // a unique
)

// eaWorld returns the world: six entities, each with eaHP{10},
// eaArmor{1}, eaOther{i}, eaGA{i} and eaGB{i}, in a world where eaGA and
// eaGB form a group and eaClock is a unique.
func eaWorld(t *testing.T) (*ecs.World, []ecs.EntityID) {
	t.Helper()
	w := ecs.NewWorld()
	must(t, ecs.AddGroup2[eaGA, eaGB](w))
	must(t, ecs.AddUnique(w, eaClock{}))
	var ids []ecs.EntityID
	for i := range 6 {
		id, err := ecs.AddEntity5(w, eaHP{10}, eaArmor{1}, eaOther{i}, eaGA{i}, eaGB{i})
		must(t, err)
		ids = append(ids, id)
	}
	return w, ids
}

// eaNoDeadLeft checks that no storage of the test types holds a component
// of an entity that is not alive.
func eaNoDeadLeft(t *testing.T, w *ecs.World) {
	t.Helper()
	must(t, w.Run(func(e ecs.EntitiesView, hp ecs.View[eaHP], ar ecs.View[eaArmor], o ecs.View[eaOther], ga ecs.View[eaGA], gb ecs.View[eaGB]) {
		for name, ids := range map[string][]ecs.EntityID{"eaHP": hp.IDs(), "eaArmor": ar.IDs(), "eaOther": o.IDs(), "eaGA": ga.IDs(), "eaGB": gb.IDs()} {
			for _, id := range ids {
				isTrue(t, e.IsAlive(id), "%s of the dead %v left in its storage", name, id)
			}
		}
	}))
}

// TestEachDeleteThenCallKeepsUpdates is the scenario: Each1 over
// eaHP through the AllStoragesViewMut deletes the odd entities and gives
// the others hp += armor, read with ecs.Get. Before reading, fn makes one
// call through the AllStoragesViewMut: none may strip the deleted
// entities while the Each walks their storages, so every even entity ends
// with 11 and every entity is handed out once.
func TestEachDeleteThenCallKeepsUpdates(t *testing.T) {
	type call = func(t *testing.T, all ecs.AllStoragesViewMut, id ecs.EntityID, ids []ecs.EntityID)
	deleteWith := map[string]func(all ecs.AllStoragesViewMut, id ecs.EntityID) error{
		"AllStoragesViewMut.DeleteEntity":   func(all ecs.AllStoragesViewMut, id ecs.EntityID) error { return all.DeleteEntity(id) },
		"DeleteEntity":                      func(all ecs.AllStoragesViewMut, id ecs.EntityID) error { return ecs.DeleteEntity(all, id) },
		"AllStoragesViewMut.DeleteEntities": func(all ecs.AllStoragesViewMut, id ecs.EntityID) error { return all.DeleteEntities(id, id) },
		"DeleteEntities":                    func(all ecs.AllStoragesViewMut, id ecs.EntityID) error { return ecs.DeleteEntities(all, id) },
	}
	// liveOf counts the entities of ids still alive.
	liveOf := func(all ecs.AllStoragesViewMut, ids []ecs.EntityID) int {
		n := 0
		for _, id := range ids {
			if all.IsAlive(id) {
				n++
			}
		}
		return n
	}
	cases := []struct {
		name string
		call call
	}{
		{"Get", func(t *testing.T, all ecs.AllStoragesViewMut, id ecs.EntityID, _ []ecs.EntityID) {
			_, err := ecs.Get[eaArmor](all, id)
			must(t, err)
		}},
		{"Get of a deleted entity", func(t *testing.T, all ecs.AllStoragesViewMut, id ecs.EntityID, ids []ecs.EntityID) {
			_, err := ecs.Get[eaArmor](all, ids[1])
			if id != ids[0] {
				errIs(t, err, ecs.ErrDeadEntity)
			}
		}},
		{"Get2", func(t *testing.T, all ecs.AllStoragesViewMut, id ecs.EntityID, _ []ecs.EntityID) {
			_, _, err := ecs.Get2[eaArmor, eaOther](all, id)
			must(t, err)
		}},
		{"Contains", func(t *testing.T, all ecs.AllStoragesViewMut, id ecs.EntityID, ids []ecs.EntityID) {
			ok, err := ecs.Contains[eaArmor](all, id)
			must(t, err)
			isTrue(t, ok, "Contains[eaArmor] of the live %v is false", id)
			ok, err = ecs.Contains[eaArmor](all, ids[1])
			must(t, err)
			isTrue(t, !ok || id == ids[0], "Contains[eaArmor] of the deleted %v is true", ids[1])
		}},
		{"GetUnique", func(t *testing.T, all ecs.AllStoragesViewMut, _ ecs.EntityID, _ []ecs.EntityID) {
			_, err := ecs.GetUnique[eaClock](all)
			must(t, err)
		}},
		{"UpdateUnique", func(t *testing.T, all ecs.AllStoragesViewMut, _ ecs.EntityID, _ []ecs.EntityID) {
			must(t, ecs.UpdateUnique(all, func(c *eaClock) { c.T++ }))
		}},
		{"AddUnique", func(t *testing.T, all ecs.AllStoragesViewMut, _ ecs.EntityID, _ []ecs.EntityID) {
			must(t, ecs.AddUnique(all, eaClock{7}))
		}},
		{"TrackingOf", func(t *testing.T, all ecs.AllStoragesViewMut, _ ecs.EntityID, _ []ecs.EntityID) {
			equal(t, "TrackingOf[eaArmor]", ecs.TrackingOf[eaArmor](all), 0)
		}},
		{"TrackingTimestamp", func(t *testing.T, all ecs.AllStoragesViewMut, _ ecs.EntityID, _ []ecs.EntityID) {
			_ = all.TrackingTimestamp()
		}},
		{"GroupLen counts the live only", func(t *testing.T, all ecs.AllStoragesViewMut, _ ecs.EntityID, ids []ecs.EntityID) {
			n, ok, err := ecs.GroupLen[eaGA](all)
			must(t, err)
			isTrue(t, ok, "no group")
			equal(t, "GroupLen[eaGA]", n, liveOf(all, ids))
		}},
		{"AllStoragesViewMut.AddEntity", func(t *testing.T, all ecs.AllStoragesViewMut, _ ecs.EntityID, _ []ecs.EntityID) {
			_ = all.AddEntity()
		}},
		{"AddEntity1 of another type (into a deleted entity's index)", func(t *testing.T, all ecs.AllStoragesViewMut, _ ecs.EntityID, _ []ecs.EntityID) {
			_, err := ecs.AddEntity1(all, eaOther{100})
			must(t, err)
		}},
		{"AddEntity2 of other types", func(t *testing.T, all ecs.AllStoragesViewMut, _ ecs.EntityID, _ []ecs.EntityID) {
			_, err := ecs.AddEntity2(all, eaOther{100}, eaArmor{5})
			must(t, err)
		}},
		{"BulkAddEntity1 of another type", func(t *testing.T, all ecs.AllStoragesViewMut, _ ecs.EntityID, _ []ecs.EntityID) {
			_, err := ecs.BulkAddEntity1(all, []eaOther{{100}, {101}})
			must(t, err)
		}},
		{"AddComponent1 of another type", func(t *testing.T, all ecs.AllStoragesViewMut, id ecs.EntityID, _ []ecs.EntityID) {
			must(t, ecs.AddComponent1(all, id, eaOther{99}))
		}},
		{"BulkAddComponent1 of another type", func(t *testing.T, all ecs.AllStoragesViewMut, id ecs.EntityID, _ []ecs.EntityID) {
			must(t, ecs.BulkAddComponent1(all, []ecs.EntityID{id}, []eaOther{{99}}))
		}},
		{"DeleteComponent of another type", func(t *testing.T, all ecs.AllStoragesViewMut, id ecs.EntityID, _ []ecs.EntityID) {
			ok, err := ecs.DeleteComponent[eaOther](all, id)
			must(t, err)
			isTrue(t, ok, "no eaOther deleted")
		}},
		{"Remove of another type", func(t *testing.T, all ecs.AllStoragesViewMut, id ecs.EntityID, _ []ecs.EntityID) {
			_, ok, err := ecs.Remove[eaOther](all, id)
			must(t, err)
			isTrue(t, ok, "no eaOther removed")
		}},
		{"BulkDeleteComponent of another type", func(t *testing.T, all ecs.AllStoragesViewMut, id ecs.EntityID, _ []ecs.EntityID) {
			n, err := ecs.BulkDeleteComponent[eaOther](all, id)
			must(t, err)
			equal(t, "deleted", n, 1)
		}},
		{"Strip of an entity with no walked component", func(t *testing.T, all ecs.AllStoragesViewMut, _ ecs.EntityID, _ []ecs.EntityID) {
			x, err := ecs.AddEntity2(all, eaOther{1}, eaArmor{1})
			must(t, err)
			must(t, ecs.Strip(all, x))
			must(t, all.Strip(x))
		}},
		{"SortAs of other types", func(t *testing.T, all ecs.AllStoragesViewMut, _ ecs.EntityID, _ []ecs.EntityID) {
			_, err := ecs.SortAs[eaArmor, eaOther](all)
			must(t, err)
		}},
		{"TrackComponent of another type", func(t *testing.T, all ecs.AllStoragesViewMut, _ ecs.EntityID, _ []ecs.EntityID) {
			must(t, ecs.TrackComponent[eaOther](all, ecs.TrackInsertion))
		}},
		{"AddGroup2 of other types", func(t *testing.T, all ecs.AllStoragesViewMut, id ecs.EntityID, ids []ecs.EntityID) {
			if id == ids[2] {
				must(t, ecs.AddGroup2[eaArmor, eaOther](all))
			}
		}},
		{"a nested Each of another type", func(t *testing.T, all ecs.AllStoragesViewMut, _ ecs.EntityID, _ []ecs.EntityID) {
			must(t, ecs.Each1(all, func(_ ecs.EntityID, a *eaArmor) { _ = a.V }))
		}},
		{"a nested Each of the walked type, deleting", func(t *testing.T, all ecs.AllStoragesViewMut, id ecs.EntityID, ids []ecs.EntityID) {
			must(t, ecs.Each2(all, func(x ecs.EntityID, _ *eaHP, _ *eaGA) {
				if x == ids[5] && id == ids[4] {
					must(t, all.DeleteEntity(x)) // the outer Each reaches it next, dead
				}
			}))
		}},
	}
	for _, c := range cases {
		for delName, del := range deleteWith {
			if delName != "AllStoragesViewMut.DeleteEntity" && c.name != "Get" && c.name != "GroupLen counts the live only" {
				continue // every deletion once, with the call of the issue and with GroupLen
			}
			t.Run(c.name+"/"+delName, func(t *testing.T) {
				w, ids := eaWorld(t)
				seen := map[ecs.EntityID]int{}
				must(t, w.Run(func(all ecs.AllStoragesViewMut) {
					must(t, ecs.Each1(all, func(id ecs.EntityID, hp *eaHP) {
						seen[id]++
						k := slices.Index(ids, id)
						if k%2 == 1 {
							if all.IsAlive(id) {
								must(t, del(all, id))
							}
							return
						}
						c.call(t, all, id, ids)
						armor, err := ecs.Get[eaArmor](all, id)
						must(t, err)
						hp.V += armor.V
					}))
				}))
				deepEqual(t, "times each entity was handed out", seen, maps.Collect(func(yield func(ecs.EntityID, int) bool) {
					for _, id := range ids {
						yield(id, 1)
					}
				}))
				for k, id := range ids {
					if k%2 == 1 {
						isTrue(t, !w.IsAlive(id), "%v alive", id)
						continue
					}
					hp, err := ecs.Get[eaHP](w, id)
					must(t, err)
					equal(t, fmt.Sprint("HP of entity ", k), hp.V, 11)
				}
				must(t, w.Run(func(hp ecs.View[eaHP]) { equal(t, "eaHP components", hp.Len(), 3) }))
				n, _, err := ecs.GroupLen[eaGA](w)
				must(t, err)
				equal(t, "GroupLen[eaGA] after", n, 3)
				eaNoDeadLeft(t, w)
				must(t, ecs.CheckLayouts(w))
				nothingHeld(t, w)
			})
		}
	}
}

// TestEachThroughAllHandsOutLaterDeleted: an entity that fn deletes before
// the iteration reaches it is still handed out, dead (IsAlive tells), with
// its components as they were; they go once the Each returns.
func TestEachThroughAllHandsOutLaterDeleted(t *testing.T) {
	w, ids := eaWorld(t)
	var dead []ecs.EntityID
	must(t, w.Run(func(all ecs.AllStoragesViewMut) {
		must(t, ecs.Each1(all, func(id ecs.EntityID, hp *eaHP) {
			if id == ids[0] {
				must(t, all.DeleteEntities(ids[1:]...))
			}
			if !all.IsAlive(id) {
				dead = append(dead, id)
				equal(t, "HP of a deleted entity", hp.V, 10)
			}
		}))
		n, _, err := ecs.GroupLen[eaGA](all)
		must(t, err)
		equal(t, "GroupLen[eaGA] after the Each", n, 1)
	}))
	sameSet(t, "dead ids handed out", dead, ids[1:])
	eaNoDeadLeft(t, w)
	must(t, ecs.CheckLayouts(w))
}

// TestEachThroughAllPanicRestores: a panic in fn, recovered in the system,
// leaves nothing of the Each behind: the deleted entities' components go
// at the next call, and changes to the storages it walked work again.
func TestEachThroughAllPanicRestores(t *testing.T) {
	w, ids := eaWorld(t)
	must(t, w.Run(func(all ecs.AllStoragesViewMut) {
		panicsWith(t, func() {
			_ = ecs.Each2(all, func(id ecs.EntityID, _ *eaHP, _ *eaGA) {
				must(t, all.DeleteEntity(ids[0]))
				panic("boom")
			})
		}, "boom")
		n, _, err := ecs.GroupLen[eaGA](all)
		must(t, err)
		equal(t, "GroupLen[eaGA] after the panic", n, 5)
		_, err = ecs.AddEntity2(all, eaHP{1}, eaGB{1})
		must(t, err)
		must(t, ecs.Strip(all, ids[1]))
	}))
	eaNoDeadLeft(t, w)
	must(t, ecs.CheckLayouts(w))
	nothingHeld(t, w)
}

// TestEachThroughAllRefusesMovingWalkedStorages: inside Each2[eaHP, eaGA]
// through the AllStoragesViewMut, a change that would add a component to,
// or remove one from, eaHP's or eaGA's storage, or eaGB's (packed in a
// group with eaGA: its changes move eaGA's components), returns an error
// wrapping ErrIterating, naming the call and the type, and changes
// nothing. Replacing a component, or a call that would remove none, is
// not refused.
func TestEachThroughAllRefusesMovingWalkedStorages(t *testing.T) {
	type call = func(all ecs.AllStoragesViewMut, ids []ecs.EntityID, loner ecs.EntityID) error
	refused := []struct {
		name, typ string
		call      call
	}{
		{"AddEntity1", "eaHP", func(all ecs.AllStoragesViewMut, _ []ecs.EntityID, _ ecs.EntityID) error {
			_, err := ecs.AddEntity1(all, eaHP{1})
			return err
		}},
		{"AddEntity2", "eaHP", func(all ecs.AllStoragesViewMut, _ []ecs.EntityID, _ ecs.EntityID) error {
			_, err := ecs.AddEntity2(all, eaOther{1}, eaHP{1})
			return err
		}},
		{"AddEntity1", "eaGB", func(all ecs.AllStoragesViewMut, _ []ecs.EntityID, _ ecs.EntityID) error {
			_, err := ecs.AddEntity1(all, eaGB{1})
			return err
		}},
		{"BulkAddEntity1", "eaHP", func(all ecs.AllStoragesViewMut, _ []ecs.EntityID, _ ecs.EntityID) error {
			_, err := ecs.BulkAddEntity1(all, []eaHP{{1}, {2}})
			return err
		}},
		{"BulkAppendEntity2", "eaGA", func(all ecs.AllStoragesViewMut, _ []ecs.EntityID, _ ecs.EntityID) error {
			_, err := ecs.BulkAppendEntity2(all, nil, []eaOther{{1}}, []eaGA{{1}})
			return err
		}},
		{"AddComponent1", "eaHP", func(all ecs.AllStoragesViewMut, _ []ecs.EntityID, loner ecs.EntityID) error {
			return ecs.AddComponent1(all, loner, eaHP{1})
		}},
		{"AddComponent2", "eaHP", func(all ecs.AllStoragesViewMut, _ []ecs.EntityID, loner ecs.EntityID) error {
			return ecs.AddComponent2(all, loner, eaArmor{9}, eaHP{1})
		}},
		{"AddComponent1", "eaGB", func(all ecs.AllStoragesViewMut, _ []ecs.EntityID, loner ecs.EntityID) error {
			return ecs.AddComponent1(all, loner, eaGB{1}) // loner has eaGA: it would join the group
		}},
		{"BulkAddComponent1", "eaHP", func(all ecs.AllStoragesViewMut, ids []ecs.EntityID, loner ecs.EntityID) error {
			return ecs.BulkAddComponent1(all, []ecs.EntityID{ids[0], loner}, []eaHP{{1}, {2}})
		}},
		{"DeleteComponent", "eaHP", func(all ecs.AllStoragesViewMut, ids []ecs.EntityID, _ ecs.EntityID) error {
			_, err := ecs.DeleteComponent[eaHP](all, ids[3])
			return err
		}},
		{"DeleteComponent", "eaGB", func(all ecs.AllStoragesViewMut, ids []ecs.EntityID, _ ecs.EntityID) error {
			_, err := ecs.DeleteComponent[eaGB](all, ids[3])
			return err
		}},
		{"Remove", "eaGA", func(all ecs.AllStoragesViewMut, ids []ecs.EntityID, _ ecs.EntityID) error {
			_, _, err := ecs.Remove[eaGA](all, ids[3])
			return err
		}},
		{"BulkDeleteComponent", "eaHP", func(all ecs.AllStoragesViewMut, ids []ecs.EntityID, loner ecs.EntityID) error {
			_, err := ecs.BulkDeleteComponent[eaHP](all, loner, ids[3])
			return err
		}},
		{"Strip", "ea", func(all ecs.AllStoragesViewMut, ids []ecs.EntityID, _ ecs.EntityID) error { // names a walked type it has
			return ecs.Strip(all, ids[3])
		}},
		{"Strip", "eaGA", func(all ecs.AllStoragesViewMut, _ []ecs.EntityID, loner ecs.EntityID) error {
			return all.Strip(loner)
		}},
		{"DeleteAny", "", func(all ecs.AllStoragesViewMut, _ []ecs.EntityID, _ ecs.EntityID) error {
			_, err := ecs.DeleteAny[eaArmor](all)
			return err
		}},
		{"SortAs", "eaHP", func(all ecs.AllStoragesViewMut, _ []ecs.EntityID, _ ecs.EntityID) error {
			_, err := ecs.SortAs[eaHP, eaArmor](all)
			return err
		}},
		{"AddGroup2", "eaHP", func(all ecs.AllStoragesViewMut, _ []ecs.EntityID, _ ecs.EntityID) error {
			return ecs.AddGroup2[eaArmor, eaHP](all)
		}},
		{"TrackComponent", "eaHP", func(all ecs.AllStoragesViewMut, _ []ecs.EntityID, _ ecs.EntityID) error {
			return ecs.TrackComponent[eaHP](all, ecs.TrackModification)
		}},
	}
	// build returns eaWorld plus loner, an entity with eaOther and eaGA
	// (walked by no Each2[eaHP, eaGA]: it has no eaHP).
	build := func(t *testing.T) (*ecs.World, []ecs.EntityID, ecs.EntityID) {
		w, ids := eaWorld(t)
		loner, err := ecs.AddEntity2(w, eaOther{-1}, eaGA{-1})
		must(t, err)
		return w, ids, loner
	}
	// dump describes everything the world holds.
	dump := func(t *testing.T, w *ecs.World) string {
		t.Helper()
		var s string
		must(t, w.Run(func(hp ecs.View[eaHP], ar ecs.View[eaArmor], o ecs.View[eaOther], ga ecs.View[eaGA], gb ecs.View[eaGB]) {
			s = fmt.Sprint(w.EntityCount(), hp.IDs(), hp.Slice(), ar.IDs(), ar.Slice(), o.IDs(), o.Slice(), ga.IDs(), ga.Slice(), gb.IDs(), gb.Slice())
		}))
		n, _, err := ecs.GroupLen[eaGA](w)
		must(t, err)
		return fmt.Sprint(s, " group ", n, " tracking ", ecs.TrackingOf[eaHP](w))
	}
	for _, c := range refused {
		t.Run(c.name+"["+c.typ+"]", func(t *testing.T) {
			w, ids, loner := build(t)
			before := dump(t, w)
			calls := 0
			must(t, w.Run(func(all ecs.AllStoragesViewMut) {
				must(t, ecs.Each2(all, func(id ecs.EntityID, _ *eaHP, _ *eaGA) {
					if id != ids[0] {
						return
					}
					calls++
					err := c.call(all, ids, loner)
					errIs(t, err, ecs.ErrIterating)
					errHas(t, err, c.name, c.typ, "Each")
				}))
			}))
			equal(t, "calls", calls, 1)
			equal(t, "world after the refused call", dump(t, w), before)
			nothingHeld(t, w)
			// After the Each, the same call is made.
			must(t, w.Run(func(all ecs.AllStoragesViewMut) { must(t, c.call(all, ids, loner)) }))
		})
	}

	allowed := []struct {
		name  string
		call  call
		check func(t *testing.T, w *ecs.World, ids []ecs.EntityID, loner ecs.EntityID)
	}{
		{"AddComponent1 replacing a walked component", func(all ecs.AllStoragesViewMut, ids []ecs.EntityID, _ ecs.EntityID) error {
			return ecs.AddComponent1(all, ids[3], eaHP{33})
		}, func(t *testing.T, w *ecs.World, ids []ecs.EntityID, _ ecs.EntityID) {
			hp, err := ecs.Get[eaHP](w, ids[3])
			must(t, err)
			equal(t, "replaced eaHP", hp.V, 33)
		}},
		{"BulkAddComponent2 replacing walked components", func(all ecs.AllStoragesViewMut, ids []ecs.EntityID, _ ecs.EntityID) error {
			return ecs.BulkAddComponent2(all, ids[2:4], []eaGB{{22}, {23}}, []eaHP{{32}, {33}})
		}, func(t *testing.T, w *ecs.World, ids []ecs.EntityID, _ ecs.EntityID) {
			hp, gb, err := ecs.Get2[eaHP, eaGB](w, ids[3])
			must(t, err)
			equal(t, "replaced", [2]int{hp.V, gb.V}, [2]int{33, 23})
		}},
		{"DeleteComponent of a walked type the entity lacks", func(all ecs.AllStoragesViewMut, _ []ecs.EntityID, loner ecs.EntityID) error {
			ok, err := ecs.DeleteComponent[eaHP](all, loner)
			if ok {
				return errors.New("deleted an eaHP the loner has not")
			}
			return err
		}, nil},
		{"Strip of an entity without walked components", func(all ecs.AllStoragesViewMut, _ []ecs.EntityID, _ ecs.EntityID) error {
			x, err := ecs.AddEntity2(all, eaOther{7}, eaArmor{7})
			if err != nil {
				return err
			}
			return ecs.Strip(all, x)
		}, nil},
	}
	for _, c := range allowed {
		t.Run(c.name, func(t *testing.T) {
			w, ids, loner := build(t)
			must(t, w.Run(func(all ecs.AllStoragesViewMut) {
				must(t, ecs.Each2(all, func(id ecs.EntityID, _ *eaHP, _ *eaGA) {
					if id == ids[0] {
						must(t, c.call(all, ids, loner))
					}
				}))
			}))
			if c.check != nil {
				c.check(t, w, ids, loner)
			}
			must(t, ecs.CheckLayouts(w))
		})
	}
}
