package ecs_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// The types of TestGroupRefusesMovesUnderAView: grfP and grfV form a
// group, and so do grfTP and grfTV, which track everything.
type (
	grfP  struct{ V int }
	grfV  struct{ V int }
	grfTP struct{ V int }
	grfTV struct{ V int }
)

func (grfTP) Tracking() ecs.Tracking { return ecs.TrackAll }
func (grfTV) Tracking() ecs.Tracking { return ecs.TrackAll }

// grfFrame is what a case of TestGroupRefusesMovesUnderAView gets: the
// views of a system reading member P of a group and writing member V, and
// the world's entities (see grfWorld).
type grfFrame[P, V any] struct {
	ents ecs.EntitiesViewMut
	p    ecs.View[P]
	v    ecs.ViewMut[V]
	ids  []ecs.EntityID
}

// TestGroupRefusesMovesUnderAView: in a system holding a View of one group
// member and a ViewMut of another, a change through the ViewMut that could
// move the components under the View is refused, and changes nothing
// (storages, group, entities, tracking): the calls with an error result
// return a *GroupError naming the call, the group, the View and the fix;
// the others panic with one. Replacing a component, and removing one of
// an entity outside the group, go on as usual; an id that is not alive is
// refused as such first.
func TestGroupRefusesMovesUnderAView(t *testing.T) {
	t.Run("untracked", func(t *testing.T) { testGroupRefusals[grfP, grfV](t) })
	t.Run("tracked", func(t *testing.T) { testGroupRefusals[grfTP, grfTV](t) })
}

func testGroupRefusals[P, V ~struct{ V int }](t *testing.T) {
	pName, vName := grfTypeName[P](), grfTypeName[V]()
	group := "Group[" + pName + ", " + vName + "]"
	// leftover deletes entity 7, whose components stay (DeleteUnchecked),
	// and creates an entity that takes its index over: adding to it takes
	// the leftover's place in V's storage.
	leftover := func(f *grfFrame[P, V]) ecs.EntityID {
		f.ents.DeleteUnchecked(f.ids[7])
		id := f.ents.AddEntity()
		if id.Index() != f.ids[7].Index() {
			t.Fatalf("the new entity %v does not reuse the index of %v", id, f.ids[7])
		}
		return id
	}
	nth := func(k int) func(*grfFrame[P, V]) ecs.EntityID {
		return func(f *grfFrame[P, V]) ecs.EntityID { return f.ids[k] }
	}
	addComponent := func(f *grfFrame[P, V], id ecs.EntityID) error { return f.v.AddComponent(f.ents, id, V{V: -1}) }
	addUnchecked := func(f *grfFrame[P, V], id ecs.EntityID) error { return f.v.AddComponentUnchecked(id, V{V: -1}) }
	cases := []struct {
		name string
		id   func(*grfFrame[P, V]) ecs.EntityID // made in the frame, before the call
		call func(*grfFrame[P, V], ecs.EntityID) error
		op   string // the call, as the GroupError names it; "" when not refused by the group
		// refused, when op is "": the call is refused for another
		// reason (with an EntityError), and changes nothing either.
		refused bool
	}{
		{"AddComponent to an entity that would join the group", nth(4), addComponent, "AddComponent", false},
		{"AddComponent to an entity with no component", nth(8), addComponent, "AddComponent", false},
		{"AddComponent taking a leftover's place", leftover, addComponent, "AddComponent", false},
		{"AddComponentUnchecked to an entity that would join the group", nth(5), addUnchecked, "AddComponentUnchecked", false},
		{"AddComponentUnchecked to an entity with no component", nth(8), addUnchecked, "AddComponentUnchecked", false},
		{"AddComponentUnchecked taking a leftover's place", leftover, addUnchecked, "AddComponentUnchecked", false},
		{"AddEntity", nth(0), func(f *grfFrame[P, V], _ ecs.EntityID) error {
			f.v.AddEntity(f.ents, V{V: -1})
			return nil
		}, "AddEntity", false},
		{"Remove of an entity in the group", nth(1), func(f *grfFrame[P, V], id ecs.EntityID) error {
			f.v.Remove(id)
			return nil
		}, "Remove", false},
		{"Delete of an entity in the group", nth(2), func(f *grfFrame[P, V], id ecs.EntityID) error {
			f.v.Delete(id)
			return nil
		}, "Delete", false},
		// Not refused by the group.
		{"AddComponent to a dead entity", func(f *grfFrame[P, V]) ecs.EntityID {
			f.ents.DeleteUnchecked(f.ids[8])
			return f.ids[8]
		}, addComponent, "", true},
		{"AddComponentUnchecked of NullID", func(*grfFrame[P, V]) ecs.EntityID { return ecs.NullID }, addUnchecked, "", true},
		{"AddComponent replacing a component in the group", nth(0), addComponent, "", false},
		{"AddComponentUnchecked replacing a component outside the group", nth(6), addUnchecked, "", false},
		{"Remove of an entity outside the group", nth(6), func(f *grfFrame[P, V], id ecs.EntityID) error {
			if _, ok := f.v.Remove(id); !ok {
				return errors.New("Remove found nothing")
			}
			return nil
		}, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// twin goes through the same steps as w but the call, so
			// that a refused call must leave w as twin is.
			w, ids := grfWorld[P, V](t)
			twin, _ := grfWorld[P, V](t)
			var err error
			var panicked any
			var id ecs.EntityID
			must(t, w.Run(func(ents ecs.EntitiesViewMut, p ecs.View[P], v ecs.ViewMut[V]) {
				f := &grfFrame[P, V]{ents, p, v, ids}
				id = c.id(f)
				func() {
					defer func() { panicked = recover() }()
					err = c.call(f, id)
				}()
			}))
			must(t, twin.Run(func(ents ecs.EntitiesViewMut, p ecs.View[P], v ecs.ViewMut[V]) {
				c.id(&grfFrame[P, V]{ents, p, v, ids})
			}))
			got, unchanged := grfState[P, V](t, w), grfState[P, V](t, twin)
			nothingHeld(t, w) // after grfState: it purges the leftovers

			if c.op == "" {
				isTrue(t, panicked == nil, "panicked: %v", panicked)
				if c.refused {
					errAs[*ecs.EntityError](t, err)
					equal(t, "the world after the refused call", got, unchanged)
					return
				}
				must(t, err)
				isTrue(t, got != unchanged, "the call changed nothing")
				equal(t, "GroupLen", grfGroupLen[P](t, w), 5)
				return
			}
			if panicked != nil {
				isTrue(t, err == nil, "the call both panicked and returned %v", err)
				err, _ = panicked.(error)
				isTrue(t, err != nil, "panicked with %v (%T), want a *GroupError", panicked, panicked)
			} else if c.op == "AddEntity" || c.op == "Remove" || c.op == "Delete" {
				t.Fatalf("%s, which has no error result, did not panic (error %v)", c.op, err)
			}
			ge := errAs[*ecs.GroupError](t, err)
			errIs(t, err, ecs.ErrGroup)
			equal(t, "GroupError.Group", ge.Group, group)
			equal(t, "GroupError.Op", ge.Op, "ViewMut["+vName+"]."+c.op)
			equal(t, "GroupError.View", ge.View, "View["+pName+"]")
			doing := "adding"
			if c.op == "Remove" || c.op == "Delete" {
				doing = "removing"
			}
			equal(t, "the message", err.Error(), "ecs: ViewMut["+vName+"]."+c.op+": "+doing+" a "+vName+
				" component could move the "+pName+" components of "+group+", which a View["+pName+
				"] of the same system (or World.Borrow) is reading: take "+pName+" as a ViewMut["+pName+
				"] there instead, or make the change in another system")
			equal(t, "the world after the refused call", got, unchanged)
			// And it goes on as twin does: changes that record
			// tracking (in a new window) and move the group land on
			// the same state.
			for _, w := range []*ecs.World{w, twin} {
				grfClearChanges[P, V](t, w)
				must(t, ecs.AddComponent1(w, ids[5], V{V: 99}))
				_, err := ecs.AddEntity2(w, P{V: 98}, V{V: 98})
				must(t, err)
				_, err = ecs.DeleteComponent[V](w, ids[0])
				must(t, err)
			}
			equal(t, "the world after more changes", grfState[P, V](t, w), grfState[P, V](t, twin))
		})
	}
}

// grfWorld returns a world with Group[P, V] and these entities:
// 0 to 3 and 7 with a P and a V (the group), 4 and 5 with a P, 6 with a
// V, 8 with none; component values are the entity's number (10 + it, for
// V). Insertions and modifications are cleared, and P's and V's
// storages have room to grow.
func grfWorld[P, V ~struct{ V int }](t *testing.T) (*ecs.World, []ecs.EntityID) {
	t.Helper()
	w := ecs.NewWorld()
	must(t, ecs.AddGroup2[P, V](w))
	var ids []ecs.EntityID
	for k := range 9 {
		id, err := w.AddEntity()
		must(t, err)
		if k != 6 && k != 8 {
			must(t, ecs.AddComponent1(w, id, P{V: k}))
		}
		if k <= 3 || k == 6 || k == 7 {
			must(t, ecs.AddComponent1(w, id, V{V: 10 + k}))
		}
		ids = append(ids, id)
	}
	grfClearChanges[P, V](t, w)
	equal(t, "GroupLen", grfGroupLen[P](t, w), 5)
	return w, ids
}

// grfClearChanges clears the insertions and modifications of P and V, if
// they are tracked.
func grfClearChanges[P, V any](t *testing.T, w *ecs.World) {
	t.Helper()
	if isTracked[P]() {
		must(t, w.Run(func(p ecs.ViewMut[P], v ecs.ViewMut[V]) {
			p.ClearAllInsertedAndModified()
			v.ClearAllInsertedAndModified()
		}))
	}
}

// isTracked reports whether T declares some tracking.
func isTracked[T any]() bool {
	var v T
	_, ok := any(v).(interface{ Tracking() ecs.Tracking })
	return ok
}

func grfGroupLen[P any](t *testing.T, w *ecs.World) int {
	t.Helper()
	n, ok, err := ecs.GroupLen[P](w)
	must(t, err)
	isTrue(t, ok, "no group owns %s", grfTypeName[P]())
	return n
}

// grfState describes everything observable of P's and V's storages in w:
// the entities and components in storage order, the group's length, the
// number of entities, and what tracking reports.
func grfState[P, V ~struct{ V int }](t *testing.T, w *ecs.World) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "entities: %d\n", w.EntityCount())
	fmt.Fprintf(&b, "group: %d\n", grfGroupLen[P](t, w))
	grfStorageState[P](t, w, &b)
	grfStorageState[V](t, w, &b)
	return b.String()
}

func grfStorageState[T ~struct{ V int }](t *testing.T, w *ecs.World, b *strings.Builder) {
	t.Helper()
	withView(t, w, func(v ecs.View[T]) {
		fmt.Fprintf(b, "%s: %v %v\n", grfTypeName[T](), v.IDs(), v.Slice())
		for _, q := range []struct {
			name string
			fn   func(ecs.View[T]) (ecs.Changed[T], error)
		}{{"inserted", ecs.View[T].Inserted}, {"modified", ecs.View[T].Modified}} {
			c, err := q.fn(v)
			if err != nil {
				fmt.Fprintf(b, "  %s: %v\n", q.name, err)
				continue
			}
			ids := slices.Collect(func(yield func(ecs.EntityID) bool) {
				for id := range c.WithID() {
					if !yield(id) {
						return
					}
				}
			})
			fmt.Fprintf(b, "  %s: %v\n", q.name, ids)
		}
		if dels, err := v.Deleted(); err != nil {
			fmt.Fprintf(b, "  deleted: %v\n", err)
		} else {
			for id, c := range dels {
				fmt.Fprintf(b, "  deleted: %v %v\n", id, c)
			}
		}
		if rems, err := v.Removed(); err != nil {
			fmt.Fprintf(b, "  removed: %v\n", err)
		} else {
			fmt.Fprintf(b, "  removed: %v\n", slices.Collect(rems))
		}
	})
}

// grfTypeName returns T's name as Slipway's messages write it.
func grfTypeName[T any]() string { return fmt.Sprintf("%T", *new(T)) }
