package snapshot_test

import (
	"bytes"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/hierarchy"
	"github.com/slipway-ecs/slipway/snapshot"
)

// A hierarchy, whose links are ids inside components, loads as a sound
// hierarchy with the same links, after deletions reused indices.
func TestHierarchySurvivesSaveLoad(t *testing.T) {
	var r snapshot.Registry
	must(t, snapshot.Register[hierarchy.Parent](&r, "parent"))
	must(t, snapshot.Register[hierarchy.Child](&r, "child"))
	w := ecs.NewWorld()
	var root ecs.EntityID
	must(t, w.Run(func(h hierarchy.ViewMut) {
		root = h.Entities.AddEntity()
		var kids []ecs.EntityID
		for range 5 {
			k, err := h.AttachNew(root)
			must(t, err)
			kids = append(kids, k)
		}
		for _, k := range kids[:3] {
			for range 2 {
				_, err := h.AttachNew(k)
				must(t, err)
			}
		}
		_, err := h.DeleteSubtree(kids[1])
		must(t, err)
		for range 4 { // reuses the deleted indices, one generation on
			_, err := h.AttachNew(kids[4])
			must(t, err)
		}
	}))
	must(t, hierarchy.Check(w))
	for _, f := range formats {
		var b bytes.Buffer
		must(t, r.Save(w, &b, &snapshot.SaveOptions{Format: f}))
		w2, err := r.Load(&b, nil)
		must(t, err)
		must(t, hierarchy.Check(w2))
		a, c := readStorage[hierarchy.Child](t, w), readStorage[hierarchy.Child](t, w2)
		if !equalIDs(a.IDs, c.IDs) || len(a.Vals) != len(c.Vals) {
			t.Fatalf("%v: children %v, want %v", f, c.IDs, a.IDs)
		}
		for i := range a.Vals {
			if a.Vals[i] != c.Vals[i] {
				t.Fatalf("%v: child %v links %+v, want %+v", f, a.IDs[i], c.Vals[i], a.Vals[i])
			}
		}
	}
}
