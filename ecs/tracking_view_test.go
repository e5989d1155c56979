package ecs_test

import (
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// TestTrackingViewNeverMarks: nothing done through a View marks a component
// modified, in a system run, from World.Borrow or in a workload.
func TestTrackingViewNeverMarks(t *testing.T) {
	cases := []struct {
		name string
		fn   func(v ecs.View[trLife], tag ecs.View[trTag], ids []ecs.EntityID)
	}{
		{"Get", func(v ecs.View[trLife], _ ecs.View[trTag], ids []ecs.EntityID) { v.Get(ids[0]) }},
		{"MustGet", func(v ecs.View[trLife], _ ecs.View[trTag], ids []ecs.EntityID) { _ = v.MustGet(ids[1]).HP }},
		{"All", func(v ecs.View[trLife], _ ecs.View[trTag], _ []ecs.EntityID) {
			for range v.All() {
			}
		}},
		{"WithID", func(v ecs.View[trLife], _ ecs.View[trTag], _ []ecs.EntityID) {
			for range v.WithID() {
			}
		}},
		{"Slice and IDs", func(v ecs.View[trLife], _ ecs.View[trTag], _ []ecs.EntityID) { _, _ = v.Slice(), v.IDs() }},
		{"Contains, Len, IsEmpty", func(v ecs.View[trLife], _ ecs.View[trTag], ids []ecs.EntityID) {
			_, _, _ = v.Contains(ids[0]), v.Len(), v.IsEmpty()
		}},
		{"ParEachMin", func(v ecs.View[trLife], _ ecs.View[trTag], _ []ecs.EntityID) { v.ParEachMin(1, func(*trLife) {}) }},
		{"Join2", func(v ecs.View[trLife], tag ecs.View[trTag], _ []ecs.EntityID) {
			for range ecs.Join2(v, tag).All() {
			}
			ecs.Join2(tag, v).Each(func(*trTag, *trLife) {})
			_ = ecs.Join2(v, tag).Count()
		}},
		{"Join cursor and Get", func(v ecs.View[trLife], tag ecs.View[trTag], ids []ecs.EntityID) {
			it := ecs.Join1(v).Not(tag)
			for it.Next() {
			}
			it.Get(ids[1])
		}},
		{"ParEach of a join", func(v ecs.View[trLife], tag ecs.View[trTag], _ []ecs.EntityID) {
			ecs.Join2(v, tag).ParEachMin(1, func(*trLife, *trTag) {})
		}},
		{"Changed views", func(v ecs.View[trLife], tag ecs.View[trTag], ids []ecs.EntityID) {
			ins, _ := v.Inserted()
			mod, _ := v.Modified()
			both, _ := v.InsertedOrModified()
			for range ins.All() {
			}
			for range both.WithID() {
			}
			_, _ = mod.Count(), mod.Contains(ids[0])
			for range ecs.Join2(both, tag).All() {
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, ids := clearedWorld(t, 6)
			withViewMut(t, w, func(vm ecs.ViewMut[trLife]) { vm.MustGet(ids[2]).HP = 20 }) // one real change
			want := []ecs.EntityID{ids[2]}
			must(t, w.Run(func(v ecs.View[trLife], tag ecs.View[trTag]) { c.fn(v, tag, ids) }))
			var v ecs.View[trLife]
			var tag ecs.View[trTag]
			release, err := w.Borrow(&v, &tag)
			must(t, err)
			c.fn(v, tag, ids)
			release()
			must(t, w.AddWorkload("look", func(v ecs.View[trLife], tag ecs.View[trTag]) { c.fn(v, tag, ids) }))
			must(t, w.RunWorkload("look"))
			must(t, w.RunWorkload("look"))
			sameSet(t, "Modified", modifiedIDs[trLife](t, w), want)
			// Nor is it seen as a modification by a system in a workload.
			var seen []ecs.EntityID
			must(t, w.AddWorkload("check", func(v ecs.View[trLife]) error {
				c, err := v.Modified()
				seen = changedIDs(t, c, err)
				return nil
			}))
			must(t, w.RunWorkload("check"))
			sameSet(t, "Modified in a first workload run", seen, want)
		})
	}
}

// TestTrackingViewMutMarks: each way a ViewMut hands out a component for
// writing marks it modified; the ways that hand nothing out do not. want
// returns the entities that must be marked; it runs after fn, with the
// same view (so it can read the storage order fn saw).
func TestTrackingViewMutMarks(t *testing.T) {
	type env struct {
		t    *testing.T
		vm   ecs.ViewMut[trLife]
		tag  ecs.View[trTag]
		ids  []ecs.EntityID
		seen []ecs.EntityID // what fn recorded
	}
	all := func(e *env) []ecs.EntityID { return e.ids }
	none := func(*env) []ecs.EntityID { return nil }
	seen := func(e *env) []ecs.EntityID { return e.seen }
	tagged := func(e *env) []ecs.EntityID { return []ecs.EntityID{e.ids[0], e.ids[2], e.ids[4]} }
	untagged := func(e *env) []ecs.EntityID { return []ecs.EntityID{e.ids[1], e.ids[3], e.ids[5]} }
	cases := []struct {
		name string
		bug  string
		fn   func(e *env)
		want func(e *env) []ecs.EntityID
	}{
		{"Get", "", func(e *env) { e.vm.Get(e.ids[1]) }, func(e *env) []ecs.EntityID { return e.ids[1:2] }},
		{"Get of an absent component", "", func(e *env) {
			_, ok := e.vm.Get(ecs.NullID)
			isTrue(e.t, !ok, "Get(NullID) found something")
		}, none},
		{"MustGet", "", func(e *env) { e.vm.MustGet(e.ids[3]).HP++ }, func(e *env) []ecs.EntityID { return e.ids[3:4] }},
		{"All", "", func(e *env) {
			for range e.vm.All() {
			}
		}, all},
		{"All, stopped after two", "", func(e *env) {
			n := 0
			for range e.vm.All() {
				if n++; n == 2 {
					break
				}
			}
			e.seen = e.vm.IDs()[:2] // All goes in storage order
		}, seen},
		{"WithID", "", func(e *env) {
			for range e.vm.WithID() {
			}
		}, all},
		{"WithID, stopped after three", "", func(e *env) {
			for id := range e.vm.WithID() {
				if e.seen = append(e.seen, id); len(e.seen) == 3 {
					break
				}
			}
		}, seen},
		{"Slice, even unwritten", "", func(e *env) { _ = e.vm.Slice() }, all},
		{"ParEach", "", func(e *env) { e.vm.ParEach(func(l *trLife) { l.HP++ }) }, all},
		{"ParEachMin, in parallel", "", func(e *env) { e.vm.ParEachMin(1, func(l *trLife) { l.HP++ }) }, all},
		{"Join1 All", "", func(e *env) {
			for range ecs.Join1(e.vm).All() {
			}
		}, all},
		{"Join2 with a View: only the joined", "", func(e *env) {
			for l := range ecs.Join2(e.vm, e.tag).All() {
				l.HP++
			}
		}, tagged},
		{"Join2, ViewMut second, Each", "", func(e *env) { ecs.Join2(e.tag, e.vm).Each(func(*trTag, *trLife) {}) }, tagged},
		{"Join2 WithID", "", func(e *env) {
			for range ecs.Join2(e.vm, e.tag).WithID() {
			}
		}, tagged},
		{"Join2 EachWithID", "", func(e *env) { ecs.Join2(e.vm, e.tag).EachWithID(func(ecs.EntityID, *trLife, *trTag) {}) }, tagged},
		{"Join1 Not", "", func(e *env) { ecs.Join1(e.vm).Not(e.tag).Each(func(*trLife) {}) }, untagged},
		{"Join ParEachMin", "", func(e *env) { ecs.Join2(e.vm, e.tag).ParEachMin(1, func(*trLife, *trTag) {}) }, tagged},
		{"cursor: Next twice", "", func(e *env) {
			it := ecs.Join2(e.vm, e.tag)
			for range 2 {
				isTrue(e.t, it.Next(), "Next found nothing")
				e.seen = append(e.seen, it.ID())
			}
		}, seen},
		{"cursor to the end", "", func(e *env) {
			it := ecs.Join1(e.vm).Not(e.tag)
			for it.Next() {
			}
		}, untagged},
		{"Iter.Get", "", func(e *env) {
			_, _, ok := ecs.Join2(e.vm, e.tag).Get(e.ids[4])
			isTrue(e.t, ok, "Get found nothing")
		}, func(e *env) []ecs.EntityID { return e.ids[4:5] }},
		{"Iter.Get of an entity the join lacks", "", func(e *env) {
			_, _, ok := ecs.Join2(e.vm, e.tag).Get(e.ids[1])
			isTrue(e.t, !ok, "Get found an untagged entity")
		}, none},
		{"Iter.Get of an excluded entity", "", func(e *env) {
			_, ok := ecs.Join1(e.vm).Not(e.tag).Get(e.ids[0])
			isTrue(e.t, !ok, "Get found an excluded entity")
		}, none},
		{"Contains, Len, IsEmpty, IDs", "", func(e *env) {
			_, _, _, _ = e.vm.Contains(e.ids[0]), e.vm.Len(), e.vm.IsEmpty(), e.vm.IDs()
		}, none},
		{"Remove and Delete", "", func(e *env) {
			e.vm.Remove(e.ids[0])
			e.vm.Delete(e.ids[1])
		}, none},
		{"Changed.Count and Contains", "", func(e *env) {
			ins, err := e.vm.InsertedOrModified()
			must(e.t, err)
			_, _ = ins.Count(), ins.Contains(e.ids[0])
		}, none},
		{"Iter.Count", "", func(e *env) {
			equal(e.t, "Count", ecs.Join2(e.vm, e.tag).Count(), 3)
		}, none},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.bug != "" {
				knownBug(t, c.bug)
			}
			for _, where := range []string{"World.Borrow", "World.Run", "workload"} {
				w, ids := clearedWorld(t, 6)
				e := &env{t: t, ids: ids}
				var want []ecs.EntityID
				body := func(vm ecs.ViewMut[trLife], tag ecs.View[trTag]) {
					e.vm, e.tag, e.seen = vm, tag, nil
					c.fn(e)
					want = c.want(e)
				}
				switch where {
				case "World.Borrow":
					var vm ecs.ViewMut[trLife]
					var tag ecs.View[trTag]
					release, err := w.Borrow(&vm, &tag)
					must(t, err)
					body(vm, tag)
					release()
				case "World.Run":
					must(t, w.Run(body))
				case "workload":
					must(t, w.AddWorkload("w", body))
					must(t, w.RunWorkload("w"))
				}
				// Removed components cannot be marked: leave them out.
				want = slices.DeleteFunc(slices.Clone(want), func(id ecs.EntityID) bool {
					ok, err := ecs.Contains[trLife](w, id)
					must(t, err)
					return !ok
				})
				sameSet(t, where+": Modified", modifiedIDs[trLife](t, w), want)
				sameSet(t, where+": Inserted", insertedIDs[trLife](t, w), nil)
			}
		})
	}
}

// TestTrackingChangedInJoins: Changed views filter joins with other views,
// with WithID, as Not filters, and answer Contains and Count.
func TestTrackingChangedInJoins(t *testing.T) {
	// Six entities with trLife, the even ones tagged, and trMana on 0..3.
	// Then: 0 and 1 modified, 2 and 3 replaced, 6 and 7 inserted (7 tagged)
	// and mana 1 and 2 modified.
	w, ids := clearedWorld(t, 6)
	for i := range 4 {
		must(t, ecs.AddComponent1(w, ids[i], trMana{i}))
	}
	withViewMut(t, w, func(vm ecs.ViewMut[trMana]) { vm.ClearAllModified() })
	withViewMut(t, w, func(vm ecs.ViewMut[trLife]) {
		vm.MustGet(ids[0]).HP = 100
		vm.MustGet(ids[1]).HP = 101
	})
	must(t, ecs.AddComponent1(w, ids[2], trLife{102}))
	must(t, ecs.AddComponent1(w, ids[3], trLife{103}))
	id6, err := ecs.AddEntity1(w, trLife{6})
	must(t, err)
	id7, err := ecs.AddEntity2(w, trLife{7}, trTag{})
	must(t, err)
	ids = append(ids, id6, id7)
	withViewMut(t, w, func(vm ecs.ViewMut[trMana]) {
		vm.MustGet(ids[1]).MP = 11
		vm.MustGet(ids[2]).MP = 12
	})
	pick := func(is ...int) []ecs.EntityID {
		var out []ecs.EntityID
		for _, i := range is {
			out = append(out, ids[i])
		}
		return out
	}
	type views struct {
		life ecs.View[trLife]
		mana ecs.View[trMana]
		tag  ecs.View[trTag]
		ins  ecs.Changed[trLife]
		mod  ecs.Changed[trLife]
		both ecs.Changed[trLife]
		mmod ecs.Changed[trMana]
	}
	cases := []struct {
		name string
		run  func(v *views) []ecs.EntityID
		want []ecs.EntityID
	}{
		{"Inserted", func(v *views) []ecs.EntityID { return keys(v.ins.WithID()) }, pick(6, 7)},
		{"Modified", func(v *views) []ecs.EntityID { return keys(v.mod.WithID()) }, pick(0, 1, 2, 3)},
		{"InsertedOrModified", func(v *views) []ecs.EntityID { return keys(v.both.WithID()) }, pick(0, 1, 2, 3, 6, 7)},
		{"Modified All values", func(v *views) []ecs.EntityID {
			var out []ecs.EntityID
			for l := range v.mod.All() {
				out = append(out, ids[l.HP-100])
			}
			return out
		}, pick(0, 1, 2, 3)},
		{"Join2 Modified with a tag", func(v *views) []ecs.EntityID {
			return keys(ecs.Join2(v.mod, v.tag).WithID())
		}, pick(0, 2)},
		{"Join2 a tag with Inserted", func(v *views) []ecs.EntityID {
			return keys(ecs.Join2(v.tag, v.ins).WithID())
		}, pick(7)},
		{"Join2 two Changed of different types", func(v *views) []ecs.EntityID {
			return keys(ecs.Join2(v.mod, v.mmod).WithID())
		}, pick(1, 2)},
		{"Join3 Changed, View, View", func(v *views) []ecs.EntityID {
			return keys(ecs.Join3(v.both, v.mana, v.tag).WithID())
		}, pick(0, 2)},
		{"Join2 EachWithID", func(v *views) []ecs.EntityID {
			var out []ecs.EntityID
			ecs.Join2(v.life, v.mmod).EachWithID(func(id ecs.EntityID, _ *trLife, _ *trMana) { out = append(out, id) })
			return out
		}, pick(1, 2)},
		{"Join1 Not Modified", func(v *views) []ecs.EntityID {
			return keys(ecs.Join1(v.life).Not(v.mod).WithID())
		}, pick(4, 5, 6, 7)},
		{"Changed Not a tag", func(v *views) []ecs.EntityID {
			return keys(ecs.Join1(v.both).Not(v.tag).WithID())
		}, pick(1, 3, 6)},
		{"cursor over Changed", func(v *views) []ecs.EntityID {
			var out []ecs.EntityID
			it := ecs.Join2(v.mod, v.mana)
			for it.Next() {
				out = append(out, it.ID())
			}
			return out
		}, pick(0, 1, 2, 3)},
		{"Iter.Get through Changed", func(v *views) []ecs.EntityID {
			var out []ecs.EntityID
			it := ecs.Join2(v.life, v.mmod)
			for _, id := range ids {
				if _, _, ok := it.Get(id); ok {
					out = append(out, id)
				}
			}
			return out
		}, pick(1, 2)},
		{"Contains", func(v *views) []ecs.EntityID {
			var out []ecs.EntityID
			for _, id := range append(slices.Clone(ids), ecs.NullID) {
				if v.mod.Contains(id) {
					out = append(out, id)
				}
			}
			return out
		}, pick(0, 1, 2, 3)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var v views
			release, err := w.Borrow(&v.life, &v.mana, &v.tag)
			must(t, err)
			defer release()
			v.ins, err = v.life.Inserted()
			must(t, err)
			v.mod, err = v.life.Modified()
			must(t, err)
			v.both, err = v.life.InsertedOrModified()
			must(t, err)
			v.mmod, err = v.mana.Modified()
			must(t, err)
			sameSet(t, c.name, c.run(&v), c.want)
		})
	}
	t.Run("Count", func(t *testing.T) {
		withView(t, w, func(life ecs.View[trLife]) {
			ins, err := life.Inserted()
			must(t, err)
			mod, err := life.Modified()
			must(t, err)
			both, err := life.InsertedOrModified()
			must(t, err)
			equal(t, "Inserted.Count", ins.Count(), 2)
			equal(t, "Modified.Count", mod.Count(), 4)
			equal(t, "InsertedOrModified.Count", both.Count(), 6)
			equal(t, "Join1(Modified).Count", ecs.Join1(mod).Count(), 4)
		})
	})
}
