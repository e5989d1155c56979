package snapshot_test

import (
	"bytes"
	"fmt"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/snapshot"
)

// A world saved and loaded back: the same entities under the same ids,
// an id inside a component still naming its entity, and the next id
// created the one the saved world would have created.
func Example() {
	type Health int
	type Target struct{ Who ecs.EntityID }
	type Turn struct{ N int }

	var reg snapshot.Registry
	if err := snapshot.Register[Health](&reg, "health"); err != nil {
		panic(err)
	}
	snapshot.Register[Target](&reg, "target")
	snapshot.RegisterUnique[Turn](&reg, "turn")

	w := ecs.NewWorld()
	hero, _ := w.AddEntity()
	gone, _ := w.AddEntity()
	ogre, _ := w.AddEntity()
	ecs.AddComponent1(w, hero, Health(10))
	ecs.AddComponent1(w, ogre, Health(30))
	ecs.AddComponent1(w, ogre, Target{hero})
	ecs.AddUnique(w, Turn{7})
	w.DeleteEntity(gone)

	var file bytes.Buffer
	if err := reg.Save(w, &file, &snapshot.SaveOptions{Format: snapshot.Binary}); err != nil {
		panic(err)
	}
	loaded, err := reg.Load(&file, nil)
	if err != nil {
		panic(err)
	}
	t, _ := ecs.Get[Target](loaded, ogre)
	h, _ := ecs.Get[Health](loaded, t.Who)
	turn, _ := ecs.GetUnique[Turn](loaded)
	next, _ := loaded.AddEntity()
	fmt.Println("the ogre targets", t.Who, "with health", h)
	fmt.Println("turn", turn.N, "next id", next, "reuses", gone.Index())
	// Output:
	// the ogre targets EntityID(0.0) with health 10
	// turn 7 next id EntityID(1.1) reuses 1
}

// The JSON format is readable: here, the save of one storage alone.
func ExampleSaveStorage() {
	type Name string
	var reg snapshot.Registry
	snapshot.Register[Name](&reg, "name")
	w := ecs.NewWorld()
	a, _ := w.AddEntity()
	b, _ := w.AddEntity()
	ecs.AddComponent1(w, a, Name("Ada"))
	ecs.AddComponent1(w, b, Name("Grace"))

	var file bytes.Buffer
	snapshot.SaveStorage[Name](&reg, w, &file, snapshot.JSON)
	fmt.Print(file.String())
	// Output:
	// {"format":"slipway-save","version":1,
	// "types":[{"name":"name","kind":"component"}],
	// "sections":[
	// {"type":"name","ids":[0,1],"values":["Ada","Grace"]}]}
}
