package ecs_test

import (
	"fmt"

	"github.com/slipway-ecs/slipway/ecs"
)

// A system records the entities to spawn as commands; the workload
// applies them at its ApplyCommands item, before the system that counts.
func ExampleCommands() {
	type Bullet struct{ X, Y float64 }
	w := ecs.NewWorld()
	fire := func(cmds ecs.Commands) {
		bullets := ecs.CommandsFor[Bullet](cmds)
		for i := range 3 {
			bullets.Add(cmds.AddEntity(), Bullet{X: float64(i)})
		}
	}
	count := func(b ecs.View[Bullet]) { fmt.Println("bullets:", b.Len()) }
	if err := w.AddWorkload("frame", fire, ecs.ApplyCommands(), count); err != nil {
		fmt.Println(err)
	}
	if err := w.RunWorkload("frame"); err != nil {
		fmt.Println(err)
	}
	// Output:
	// bullets: 3
}

// Hooks see every component of their type arrive and leave.
func ExampleSetHooks() {
	type Health struct{ HP int }
	w := ecs.NewWorld()
	err := ecs.SetHooks(w, ecs.ComponentHooks[Health]{
		OnInsert: func(id ecs.EntityID, h *Health) { fmt.Println("insert", id, h.HP) },
		OnDelete: func(id ecs.EntityID, h Health) { fmt.Println("delete", id, h.HP) },
	})
	if err != nil {
		fmt.Println(err)
	}
	a, _ := ecs.AddEntity1(w, Health{10})
	_ = w.DeleteEntity(a)
	// Output:
	// insert EntityID(0.0) 10
	// delete EntityID(0.0) 10
}

// An observer of a component's deletion runs after the World-level call
// that deleted it, before the call returns.
func ExampleObserve() {
	type Health struct{ HP int }
	type Died struct{ ID ecs.EntityID }
	w := ecs.NewWorld()
	_ = ecs.Observe[ecs.Deleted[Health]](w, func(ev ecs.Event[ecs.Deleted[Health]], cmds ecs.Commands) {
		fmt.Println("health gone, it was", ev.Get().Value.HP)
		ecs.Emit(cmds, Died{ID: ev.Get().ID})
	})
	_ = ecs.Observe[Died](w, func(ev ecs.Event[Died]) { fmt.Println("died:", ev.Get().ID) })
	id, _ := ecs.AddEntity1(w, Health{HP: 7})
	if err := w.DeleteEntity(id); err != nil {
		fmt.Println(err)
	}
	// Output:
	// health gone, it was 7
	// died: EntityID(0.0)
}
