package ecs_test

// Adding a component only when it differs: AddDistinct through a view and
// AddComponentDistinct through a Storages.

import (
	"math"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

type dsHP struct{ V int } // tracks everything

func (dsHP) Tracking() ecs.Tracking { return ecs.TrackAll }

type dsF struct{ F float64 }

// dsChanges returns which of ids are inserted and which modified, since
// the last clear.
func dsChanges(t *testing.T, w *ecs.World, id ecs.EntityID) (ins, mod bool) {
	t.Helper()
	must(t, w.Run(func(v ecs.View[dsHP]) error {
		i, err := v.Inserted()
		if err != nil {
			return err
		}
		m, err := v.Modified()
		if err != nil {
			return err
		}
		ins, mod = i.Contains(id), m.Contains(id)
		return nil
	}))
	return ins, mod
}

func dsClear(t *testing.T, w *ecs.World) {
	t.Helper()
	must(t, w.Run(func(v ecs.ViewMut[dsHP]) { v.ClearAllInsertedAndModified() }))
}

func TestAddDistinct(t *testing.T) {
	// Each case starts from an entity with dsHP{1}, changes cleared.
	for _, c := range []struct {
		name     string
		has      bool
		give     dsHP
		changed  bool
		ins, mod bool
		want     dsHP
	}{
		{"equal value: nothing", true, dsHP{1}, false, false, false, dsHP{1}},
		{"different value: replaced", true, dsHP{2}, true, false, true, dsHP{2}},
		{"absent: inserted", false, dsHP{3}, true, true, false, dsHP{3}},
	} {
		for _, form := range []string{"view", "world", "all storages"} {
			t.Run(c.name+"/"+form, func(t *testing.T) {
				w := ecs.NewWorld()
				id, _ := w.AddEntity()
				if c.has {
					must(t, ecs.AddComponent1(w, id, dsHP{1}))
				}
				dsClear(t, w)
				var changed bool
				var err error
				switch form {
				case "view":
					must(t, w.Run(func(e ecs.EntitiesView, v ecs.ViewMut[dsHP]) {
						changed, err = ecs.AddDistinct(v, e, id, c.give)
					}))
				case "world":
					changed, err = ecs.AddComponentDistinct(w, id, c.give)
				default:
					must(t, w.Run(func(a ecs.AllStoragesViewMut) {
						changed, err = ecs.AddComponentDistinct(a, id, c.give)
					}))
				}
				must(t, err)
				equal(t, "changed", changed, c.changed)
				ins, mod := dsChanges(t, w, id)
				equal(t, "inserted", ins, c.ins)
				equal(t, "modified", mod, c.mod)
				got, err := ecs.Get[dsHP](w, id)
				must(t, err)
				equal(t, "value", got, c.want)
			})
		}
	}
}

func TestAddDistinctRefused(t *testing.T) {
	w := ecs.NewWorld()
	id, _ := ecs.AddEntity1(w, dsHP{1})
	must(t, w.DeleteEntity(id))
	// A leftover under the dead id (AddComponentUnchecked) must not make
	// the dead id pass as "equal, unchanged".
	must(t, w.Run(func(v ecs.ViewMut[dsHP]) error { return v.AddComponentUnchecked(id, dsHP{1}) }))
	dsClear(t, w)
	must(t, w.Run(func(e ecs.EntitiesView, v ecs.ViewMut[dsHP]) {
		for _, c := range []dsHP{{1}, {2}} {
			changed, err := ecs.AddDistinct(v, e, id, c)
			errIs(t, err, ecs.ErrDeadEntity)
			errHas(t, err, "AddComponent", id.String())
			equal(t, "changed", changed, false)
		}
	}))
	changed, err := ecs.AddComponentDistinct(w, id, dsHP{2})
	errIs(t, err, ecs.ErrDeadEntity)
	errHas(t, err, "AddComponentDistinct")
	equal(t, "changed", changed, false)
	ins, mod := dsChanges(t, w, id)
	isTrue(t, !ins && !mod, "nothing recorded")
	var nilWorld *ecs.World
	_, err = ecs.AddComponentDistinct(nilWorld, id, dsHP{})
	errIs(t, err, ecs.ErrNilWorld)
}

// TestAddDistinctNaN: a value not equal to itself always counts as a
// change.
func TestAddDistinctNaN(t *testing.T) {
	w := ecs.NewWorld()
	id, _ := ecs.AddEntity1(w, dsF{math.NaN()})
	changed, err := ecs.AddComponentDistinct(w, id, dsF{math.NaN()})
	must(t, err)
	equal(t, "NaN replaces NaN", changed, true)
	changed, err = ecs.AddComponentDistinct(w, id, dsF{1})
	must(t, err)
	equal(t, "changed", changed, true)
	changed, err = ecs.AddComponentDistinct(w, id, dsF{1})
	must(t, err)
	equal(t, "same", changed, false)
}
