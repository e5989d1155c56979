package ecs_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// A world's entities state, set into a fresh world, gives it the same
// live ids and the same next ids.
func TestEntitiesStateRoundTrip(t *testing.T) {
	w := ecs.NewWorld()
	var ids []ecs.EntityID
	for range 6 {
		id, _ := w.AddEntity()
		ids = append(ids, id)
	}
	for _, i := range []int{4, 1} {
		if err := w.DeleteEntity(ids[i]); err != nil {
			t.Fatal(err)
		}
	}
	var st ecs.EntitiesState
	if err := w.EntitiesState(&st); err != nil {
		t.Fatal(err)
	}
	if want := []uint32{4, 1}; !slices.Equal(st.Free, want) {
		t.Fatalf("free %v, want %v", st.Free, want)
	}
	if id, live := st.ID(1); live || id != ecs.NewEntityID(1, 1) {
		t.Fatalf("slot 1: %v %v, want dead at generation 1", id, live)
	}
	for _, c := range []struct {
		id   ecs.EntityID
		want bool
	}{{ids[0], true}, {ids[1], false}, {ecs.NewEntityID(1, 1), false}, {ecs.NewEntityID(9, 0), false}, {ecs.NullID, false}} {
		if got := st.IsAlive(c.id); got != c.want {
			t.Errorf("IsAlive(%v) = %v, want %v", c.id, got, c.want)
		}
	}
	w2 := ecs.NewWorld()
	if err := w2.SetEntitiesState(st); err != nil {
		t.Fatal(err)
	}
	st.Slots[0] = 0 // the world copied the state
	for _, id := range ids {
		if w.IsAlive(id) != w2.IsAlive(id) {
			t.Fatalf("%v: alive %v in the world, %v in the copy", id, w.IsAlive(id), w2.IsAlive(id))
		}
	}
	for range 4 {
		a, _ := w.AddEntity()
		b, _ := w2.AddEntity()
		if a != b {
			t.Fatalf("next ids differ: %v and %v", a, b)
		}
	}
	// A world that has had entities refuses a state.
	if err := w2.SetEntitiesState(ecs.EntitiesState{}); !errors.Is(err, ecs.ErrEntitiesState) {
		t.Fatalf("a used world took a state: %v", err)
	}
	if err := (*ecs.World)(nil).SetEntitiesState(ecs.EntitiesState{}); !errors.Is(err, ecs.ErrNilWorld) {
		t.Fatalf("nil world: %v", err)
	}
	if err := w.EntitiesState(nil); !errors.Is(err, ecs.ErrEntitiesState) {
		t.Fatalf("nil dst: %v", err)
	}
}

func TestSetEntitiesStateRefusals(t *testing.T) {
	const alive = ecs.SlotAlive
	cases := []struct {
		name  string
		slots []uint32
		free  []uint32
		want  string
	}{
		{"free out of range", []uint32{alive}, []uint32{3}, "out of range"},
		{"free alive", []uint32{alive, 1}, []uint32{0, 1}, "holds a live entity"},
		{"free retired", []uint32{ecs.MaxGeneration}, []uint32{0}, "retired"},
		{"free twice", []uint32{1, 2}, []uint32{0, 0}, "listed twice"},
		{"dead missing", []uint32{1, 2}, []uint32{1}, "slot 0 is dead"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := ecs.NewWorld()
			err := w.SetEntitiesState(ecs.EntitiesState{Slots: c.slots, Free: c.free})
			if !errors.Is(err, ecs.ErrEntitiesState) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("%v, want ErrEntitiesState saying %q", err, c.want)
			}
			// Nothing changed: the world still takes a good state.
			if err := w.SetEntitiesState(ecs.EntitiesState{Slots: []uint32{alive, ecs.MaxGeneration}}); err != nil {
				t.Fatal(err)
			}
			if id, _ := w.AddEntity(); id != ecs.NewEntityID(2, 0) {
				t.Fatalf("after a retired slot, the next id is %v", id)
			}
		})
	}
}
