package hierarchy_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/hierarchy"
)

// tree builds, in a world with Install, root r with children a, b, c,
// and b with children x, y; it returns the world and the ids in the order
// r, a, b, c, x, y.
func installedTree(t *testing.T) (*ecs.World, []ecs.EntityID) {
	t.Helper()
	w := ecs.NewWorld()
	must(t, hierarchy.Install(w))
	ids := make([]ecs.EntityID, 6)
	must(t, w.Run(func(h hierarchy.ViewMut) {
		ids[0] = h.Entities.AddEntity()
		ids[1], _ = h.AttachNew(ids[0])
		ids[2], _ = h.AttachNew(ids[0])
		ids[3], _ = h.AttachNew(ids[0])
		ids[4], _ = h.AttachNew(ids[2])
		ids[5], _ = h.AttachNew(ids[2])
	}))
	return w, ids
}

// shape prints every live entity's children, by name.
func shape(t *testing.T, w *ecs.World, ids []ecs.EntityID) string {
	t.Helper()
	names := "rabcxy"
	name := func(id ecs.EntityID) string {
		if i := slices.Index(ids, id); i >= 0 {
			return names[i : i+1]
		}
		return id.String()
	}
	out := ""
	must(t, hierarchy.Check(w))
	must(t, w.Run(func(v hierarchy.View) {
		for i, id := range ids {
			if !v.Entities.IsAlive(id) || v.NumChildren(id) == 0 {
				continue
			}
			out += names[i:i+1] + ":"
			for k := range v.Children(id) {
				out += name(k)
			}
			out += " "
		}
	}))
	return out
}

// TestInstall: deletions made outside ViewMut leave sound trees, mended
// as ViewMut.Delete mends them.
func TestInstall(t *testing.T) {
	type tag struct{}
	cases := []struct {
		name string
		do   func(w *ecs.World, ids []ecs.EntityID) error
		want string
	}{
		{"nothing", func(*ecs.World, []ecs.EntityID) error { return nil }, "r:abc b:xy "},
		{"DeleteEntity leaf", func(w *ecs.World, ids []ecs.EntityID) error { return w.DeleteEntity(ids[1]) }, "r:bc b:xy "},
		{"DeleteEntity middle", func(w *ecs.World, ids []ecs.EntityID) error { return w.DeleteEntity(ids[2]) }, "r:axyc "},
		{"DeleteEntity root", func(w *ecs.World, ids []ecs.EntityID) error { return w.DeleteEntity(ids[0]) }, "b:xy "},
		{"Strip middle", func(w *ecs.World, ids []ecs.EntityID) error { return w.Strip(ids[2]) }, "r:axyc "},
		{"DeleteEntities parent and child", func(w *ecs.World, ids []ecs.EntityID) error { return w.DeleteEntities(ids[4], ids[2]) }, "r:ayc "},
		{"DeleteEntities all children", func(w *ecs.World, ids []ecs.EntityID) error {
			return w.DeleteEntities(ids[1], ids[3], ids[4], ids[5], ids[2])
		}, ""},
		{"DeleteAny", func(w *ecs.World, ids []ecs.EntityID) error {
			must(t, ecs.AddComponent1(w, ids[3], tag{}))
			must(t, ecs.AddComponent1(w, ids[5], tag{}))
			_, err := ecs.DeleteAny[tag](w)
			return err
		}, "r:ab b:x "},
		{"Remove Child by hand", func(w *ecs.World, ids []ecs.EntityID) error {
			_, _, err := ecs.Remove[hierarchy.Child](w, ids[2])
			return err
		}, "r:ac b:xy "},
		{"Remove Parent by hand", func(w *ecs.World, ids []ecs.EntityID) error {
			_, err := ecs.DeleteComponent[hierarchy.Parent](w, ids[2])
			return err
		}, "r:abc "},
		{"commands in a workload", func(w *ecs.World, ids []ecs.EntityID) error {
			seen := ""
			del := func(c ecs.Commands) { c.DeleteEntity(ids[2]) }
			look := func(v hierarchy.View) { seen = fmt.Sprint(v.Check() == nil) }
			if err := w.AddWorkload("wl", del, ecs.ApplyCommands(), look); err != nil {
				return err
			}
			if err := w.RunWorkload("wl"); err != nil {
				return err
			}
			if seen != "true" {
				return fmt.Errorf("the system after ApplyCommands saw a broken tree")
			}
			return nil
		}, "r:axyc "},
		{"ViewMut's own changes", func(w *ecs.World, ids []ecs.EntityID) error {
			return w.Run(func(h hierarchy.ViewMut) {
				must(t, h.Delete(ids[2]))
				must(t, h.Attach(ids[1], ids[3]))
				must(t, h.Detach(ids[5]))
			})
		}, "r:xc c:a "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, ids := installedTree(t)
			if err := c.do(w, ids); err != nil {
				t.Fatal(err)
			}
			if got := shape(t, w, ids); got != c.want {
				t.Fatalf("trees %q, want %q", got, c.want)
			}
		})
	}
}
