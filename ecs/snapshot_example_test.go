package ecs_test

import (
	"fmt"

	"github.com/slipway-ecs/slipway/ecs"
)

// A rollback loop: the game takes a snapshot at every frame into a ring
// of reused Snapshots; when a late input shows that frame 1 was wrong, it
// restores frame 1 and simulates again from there with the right inputs.
func ExampleWorld_Restore() {
	type Pos struct{ X int }
	w := ecs.NewWorld()
	id, _ := ecs.AddEntity1(w, Pos{0})
	step := func(input int) {
		ecs.Each1(w, func(_ ecs.EntityID, p *Pos) { p.X += input })
	}

	var ring [4]ecs.Snapshot
	inputs := []int{1, 1, 1}
	for frame, in := range inputs {
		if err := w.SnapshotTo(&ring[frame%len(ring)]); err != nil {
			fmt.Println(err)
			return
		}
		step(in)
	}
	p, _ := ecs.Get[Pos](w, id)
	fmt.Println("predicted:", p.X)

	// The input of frame 1 was really 5: roll back and replay.
	inputs[1] = 5
	if err := w.Restore(&ring[1]); err != nil {
		fmt.Println(err)
		return
	}
	for frame := 1; frame < len(inputs); frame++ {
		w.SnapshotTo(&ring[frame%len(ring)])
		step(inputs[frame])
	}
	p, _ = ecs.Get[Pos](w, id)
	fmt.Println("corrected:", p.X)
	// Output:
	// predicted: 3
	// corrected: 7
}

// A clone is independent of its world; pointers inside components are
// copied shallowly, so both share what they point to.
func ExampleWorld_Clone() {
	type Name struct{ S *string }
	type HP struct{ N int }
	w := ecs.NewWorld()
	s := "orc"
	id, _ := ecs.AddEntity2(w, HP{10}, Name{&s})

	c, err := w.Clone()
	if err != nil {
		fmt.Println(err)
		return
	}
	ecs.AddComponent1(c, id, HP{3}) // the clone's own copy
	s = "troll"                     // shared by both

	hw, _ := ecs.Get[HP](w, id)
	hc, _ := ecs.Get[HP](c, id)
	nc, _ := ecs.Get[Name](c, id)
	fmt.Println(hw.N, hc.N, *nc.S)
	// Output: 10 3 troll
}
