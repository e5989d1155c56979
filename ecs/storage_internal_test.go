package ecs

import "testing"

type (
	stoA struct{ V int }
	stoB struct{ V int }
)

// TestStorageFor: a world has one storage per component type, made on
// first use and listed in the order of first use; another world has its
// own. Uniques are stored apart, one per type, absent until added.
func TestStorageFor(t *testing.T) {
	w, other := NewWorld(), NewWorld()
	a := storageFor[stoA](w)
	if storageFor[stoA](w) != a {
		t.Fatal("storageFor made a second storage of stoA")
	}
	b := storageFor[stoB](w)
	if storage(b) == storage(a) || storageFor[stoA](other) == a {
		t.Fatal("two types, or two worlds, share a storage")
	}
	if got := w.comps.all(); len(got) != 2 || got[0] != storage(a) || got[1] != storage(b) {
		t.Errorf("the world lists %d storages, want stoA's then stoB's", len(got))
	}
	for _, c := range []struct {
		s    storage
		name string
	}{{a, "ecs.stoA"}, {b, "ecs.stoB"}} {
		if c.s.typeName() != c.name || c.s.length() != 0 {
			t.Errorf("storage %q of %d components, want %q, empty", c.s.typeName(), c.s.length(), c.name)
		}
	}

	u := uniqueFor[stoA](w)
	if uniqueFor[stoA](w) != u || uniqueFor[stoA](other) == u {
		t.Fatal("uniqueFor made a second unique of stoA, or shared one between worlds")
	}
	if u.present || u.name != "ecs.stoA" || u.typeName() != "unique ecs.stoA" {
		t.Errorf("new unique: present %v, name %q, typeName %q", u.present, u.name, u.typeName())
	}
	if err := AddUnique(w, stoA{7}); err != nil {
		t.Fatal(err)
	}
	if !u.present || u.v.V != 7 {
		t.Errorf("after AddUnique: present %v, v %v", u.present, u.v)
	}
	if len(w.comps.all()) != 2 {
		t.Error("a unique made a component storage")
	}
}
