package ecs

import "testing"

type (
	accA struct{}
	accB struct{}
)

// TestAccessResourceAndString: an Access names its resource by kind, and
// prints as the view that asks for it.
func TestAccessResourceAndString(t *testing.T) {
	for _, c := range []struct {
		a                Access
		resource, String string
	}{
		{componentAccess[accA]("View", false), "ecs.accA", "View[ecs.accA]"},
		{componentAccess[accA]("ViewMut", true), "ecs.accA", "ViewMut[ecs.accA]"},
		{uniqueAccess[accB]("UniqueView", false), "unique ecs.accB", "UniqueView[ecs.accB]"},
		{Access{Kind: EntitiesStorage, View: "EntitiesView"}, "entities", "EntitiesView"},
		{Access{Kind: AllStorages, Exclusive: true, View: "AllStoragesViewMut"}, "all storages", "AllStoragesViewMut"},
	} {
		if got := c.a.Resource(); got != c.resource {
			t.Errorf("%v.Resource() = %q, want %q", c.a, got, c.resource)
		}
		if got := c.a.String(); got != c.String {
			t.Errorf("String() = %q, want %q", got, c.String)
		}
	}
}

// TestAccessConflictsWith: two accesses conflict when either is an
// exclusive borrow of all storages, or both borrow the same resource and
// one of them exclusively; the relation is symmetric.
func TestAccessConflictsWith(t *testing.T) {
	var (
		viewA    = componentAccess[accA]("View", false)
		mutA     = componentAccess[accA]("ViewMut", true)
		mutB     = componentAccess[accB]("ViewMut", true)
		uniqA    = uniqueAccess[accA]("UniqueView", false)
		uniqMutA = uniqueAccess[accA]("UniqueViewMut", true)
		ents     = Access{Kind: EntitiesStorage, View: "EntitiesView"}
		entsMut  = Access{Kind: EntitiesStorage, Exclusive: true, View: "EntitiesViewMut"}
		all      = Access{Kind: AllStorages, Exclusive: true, View: "AllStoragesViewMut"}
		allRead  = Access{Kind: AllStorages, View: "World-level read"}
	)
	for _, c := range []struct {
		name string
		a, b Access
		want bool
	}{
		{"two Views of a type", viewA, viewA, false},
		{"View and ViewMut of a type", viewA, mutA, true},
		{"two ViewMuts of a type", mutA, mutA, true},
		{"ViewMuts of two types", mutA, mutB, false},
		{"a component and the unique of its type", mutA, uniqMutA, false},
		{"UniqueView and UniqueViewMut", uniqA, uniqMutA, true},
		{"two EntitiesViews", ents, ents, false},
		{"EntitiesView and EntitiesViewMut", ents, entsMut, true},
		{"EntitiesViewMut and a component", entsMut, mutA, false},
		{"all storages and a View", all, viewA, true},
		{"all storages and an EntitiesView", all, ents, true},
		{"all storages twice", all, all, true},
		{"a shared read of all storages and a ViewMut", allRead, mutA, false},
		{"two shared reads of all storages", allRead, allRead, false},
		{"a shared read and an exclusive borrow of all storages", allRead, all, true},
	} {
		if got := c.a.ConflictsWith(c.b); got != c.want {
			t.Errorf("%s: %v.ConflictsWith(%v) = %v, want %v", c.name, c.a, c.b, got, c.want)
		}
		if got := c.b.ConflictsWith(c.a); got != c.want {
			t.Errorf("%s: %v.ConflictsWith(%v) = %v, want %v (not symmetric)", c.name, c.b, c.a, got, c.want)
		}
	}
}

// TestConflictOfLists: conflict finds the first conflicting pair of two
// lists, and an exclusive borrow of all storages conflicts with any list,
// even an empty one, naming the barrier and the other list's first access.
func TestConflictOfLists(t *testing.T) {
	viewA := componentAccess[accA]("View", false)
	mutA := componentAccess[accA]("ViewMut", true)
	mutB := componentAccess[accB]("ViewMut", true)
	all := Access{Kind: AllStorages, Exclusive: true, View: "AllStoragesViewMut"}
	for _, c := range []struct {
		name   string
		a, b   []Access
		ok     bool
		wx, wy string
	}{
		{"empty lists", nil, nil, false, "", ""},
		{"no shared resource", []Access{mutA}, []Access{mutB}, false, "", ""},
		{"shared reads", []Access{viewA}, []Access{viewA}, false, "", ""},
		{"a write and a read", []Access{mutB, viewA}, []Access{mutA}, true, "View[ecs.accA]", "ViewMut[ecs.accA]"},
		{"the barrier against nothing", []Access{all}, nil, true, "AllStoragesViewMut", "AllStoragesViewMut"},
		{"nothing against the barrier", nil, []Access{all}, true, "AllStoragesViewMut", "AllStoragesViewMut"},
		{"the barrier against a list", []Access{all}, []Access{mutB, viewA}, true, "AllStoragesViewMut", "ViewMut[ecs.accB]"},
		{"a list against the barrier", []Access{viewA}, []Access{mutB, all}, true, "View[ecs.accA]", "AllStoragesViewMut"},
	} {
		x, y, ok := conflict(c.a, c.b)
		if ok != c.ok || x.String() != c.wx || y.String() != c.wy {
			t.Errorf("%s: conflict = %v, %v, %v; want %v, %v, %v", c.name, x, y, ok, c.wx, c.wy, c.ok)
		}
	}
}
