package ecs_test

import (
	"fmt"

	"github.com/slipway-ecs/slipway/ecs"
)

// Health tracks modification: the Go form of Shipyard's
// `type Tracking = track::Modification`.
type Health struct{ HP int }

func (Health) Tracking() ecs.Tracking { return ecs.TrackModification }

// A system in a workload sees the components modified since its own
// previous run.
func ExampleView_Modified() {
	w := ecs.NewWorld()
	ids, _ := ecs.BulkAddEntity1(w, []Health{{10}, {10}, {10}})

	frame := 0
	hurt := func(h ecs.ViewMut[Health]) {
		frame++
		h.MustGet(ids[frame%3]).HP -= frame
	}
	watch := func(h ecs.View[Health]) error {
		mod, err := h.Modified()
		if err != nil {
			return err
		}
		for id, v := range mod.WithID() {
			fmt.Printf("frame %d: entity %d has %d HP\n", frame, id.Index(), v.HP)
		}
		return nil
	}
	_ = w.AddWorkload("loop", hurt, watch)
	for range 3 {
		_ = w.RunWorkload("loop")
	}
	// Output:
	// frame 1: entity 1 has 9 HP
	// frame 2: entity 2 has 8 HP
	// frame 3: entity 0 has 7 HP
}

// TrackComponent adds tracking to a type you do not own; asking a view for
// a kind its type does not track is an error.
func ExampleTrackComponent() {
	type Name string
	w := ecs.NewWorld()
	if err := ecs.TrackComponent[Name](w, ecs.TrackDeletion); err != nil {
		fmt.Println(err)
	}
	id, _ := ecs.AddEntity1(w, Name("bob"))
	_ = w.DeleteEntity(id)

	_ = w.Run(func(names ecs.View[Name]) {
		deleted, _ := names.Deleted()
		for _, n := range deleted {
			fmt.Println("deleted:", n)
		}
		_, err := names.Inserted()
		fmt.Println(err)
	})
	// Output:
	// deleted: bob
	// ecs: View[ecs_test.Name].Inserted: ecs_test.Name does not track insertion (it tracks deletion); declare it with a Tracking method on ecs_test.Name or with ecs.TrackComponent[ecs_test.Name]
}
