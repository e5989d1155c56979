package ecs_test

import (
	"errors"
	"fmt"

	"github.com/slipway-ecs/slipway/ecs"
)

// BulkNewEntity2 creates entities whose components are computed as they
// are made: here a row of particles, spaced out and moving up. Nothing is
// copied from slices: each component starts as a zero value in its
// storage, and fill sets it through a pointer.
func ExampleBulkNewEntity2() {
	w := ecs.NewWorld()
	ids, err := ecs.BulkNewEntity2(w, nil, 4, func(i int, id ecs.EntityID, p *Pos, v *Vel) {
		p.X = float32(2 * i)
		v.Y = 1
	})
	fmt.Println(len(ids), err)
	for _, id := range ids {
		p, v, _ := ecs.Get2[Pos, Vel](w, id)
		fmt.Println(id, p, v)
	}

	// A nil fill leaves the zero values.
	more, _ := ecs.BulkNewEntity1[Vel](w, nil, 2, nil)
	fmt.Println(ecs.Get[Vel](w, more[1]))
	// Output:
	// 4 <nil>
	// EntityID(0.0) {0 0} {0 1}
	// EntityID(1.0) {2 0} {0 1}
	// EntityID(2.0) {4 0} {0 1}
	// EntityID(3.0) {6 0} {0 1}
	// {0 0} <nil>
}

// BulkFillComponent1 gives entities a component made in place, replacing
// the one they had: it is zeroed first, so fill sets every field it
// needs. A dead id is refused before anything changes.
func ExampleBulkFillComponent1() {
	w := ecs.NewWorld()
	ids, _ := ecs.BulkAddEntity1(w, []Vel{{5, 5}, {6, 6}, {7, 7}})

	err := ecs.BulkFillComponent1(w, ids[1:], func(i int, id ecs.EntityID, v *Vel) {
		v.X = float32(-i)
	})
	fmt.Println(err)
	for _, id := range ids {
		fmt.Println(ecs.Get[Vel](w, id))
	}

	w.DeleteEntity(ids[0])
	err = ecs.BulkFillComponent1[Vel](w, ids, nil)
	fmt.Println(err)
	// Output:
	// <nil>
	// {5 5} <nil>
	// {0 0} <nil>
	// {-1 0} <nil>
	// ecs: BulkFillComponent1: ids[0]: EntityID(0.0) is not alive (deleted, or never created by this world)
}

// Inside a system, pass the AllStoragesViewMut: fill may then call
// through it (here to read the spawner the new entities start from), but
// not add or remove components of the types it fills while it runs.
func ExampleBulkNewEntity2_inASystem() {
	w := ecs.NewWorld()
	type Spawner struct{ At Pos }
	spawner, _ := ecs.AddEntity1(w, Spawner{At: Pos{100, 50}})

	err := w.Run(func(all ecs.AllStoragesViewMut) error {
		ids, err := ecs.BulkNewEntity2(all, nil, 2, func(i int, id ecs.EntityID, p *Pos, v *Vel) {
			s, _ := ecs.Get[Spawner](all, spawner)
			*p = Pos{s.At.X + float32(i), s.At.Y}
			_, err := ecs.AddEntity1(all, Pos{})
			fmt.Println("AddEntity1 inside fill:", errors.Is(err, ecs.ErrIterating))
		})
		fmt.Println(ecs.Get[Pos](all, ids[1]))
		return err
	})
	fmt.Println(err, w.EntityCount())
	// Output:
	// AddEntity1 inside fill: true
	// AddEntity1 inside fill: true
	// {101 50} <nil>
	// <nil> 3
}
