package ecs

import "reflect"

// ResourceKind tells what kind of thing an [Access] borrows.
type ResourceKind uint8

// The kinds of resources a system can borrow.
const (
	ComponentStorage ResourceKind = iota // the storage of one component type
	UniqueStorage                        // one unique
	EntitiesStorage                      // the entities storage
	AllStorages                          // everything: a barrier
	// IsotopeStorage is the isotopes of a component type by one
	// discriminant type (IsoView and its siblings): Type names one
	// discriminant's storage, "main.Amount#Fire", or all of them,
	// "main.Amount#*".
	IsotopeStorage
)

// Access is one thing a system borrows, and how.
type Access struct {
	Kind      ResourceKind
	Type      string // the component or unique type, e.g. "main.Pos"; empty for entities and all storages
	Exclusive bool
	View      string // the view that asks for it, e.g. "ViewMut[main.Pos]"

	key resKey
}

// Resource names what is borrowed: "main.Pos", "unique main.Player",
// "entities" or "all storages".
func (a Access) Resource() string {
	switch a.Kind {
	case UniqueStorage:
		return "unique " + a.Type
	case EntitiesStorage:
		return "entities"
	case AllStorages:
		return allName
	}
	return a.Type
}

// String formats the access as "View[main.Pos]" style text.
func (a Access) String() string { return a.View }

// ConflictsWith reports whether a and b cannot be held at the same time:
// either is an exclusive borrow of everything, or both borrow the same
// resource and at least one exclusively. An access to every isotope of a
// type ("main.Amount#*") borrows each of its discriminants.
func (a Access) ConflictsWith(b Access) bool {
	if (a.Kind == AllStorages && a.Exclusive) || (b.Kind == AllStorages && b.Exclusive) {
		return true
	}
	if a.Kind != b.Kind || !(a.Exclusive || b.Exclusive) {
		return false
	}
	if a.Kind == IsotopeStorage && a.key.t == b.key.t && (a.key.d == any(isoWhole{}) || b.key.d == any(isoWhole{})) {
		return true
	}
	return a.key == b.key
}

// accessSet collects the accesses of a system.
type accessSet struct {
	list []Access
}

func (s *accessSet) add(a Access) { s.list = append(s.list, a) }

func typeOf[T any]() reflect.Type { return reflect.TypeFor[T]() }

func componentAccess[T any](kind string, excl bool) Access {
	t := typeOf[T]()
	name := typeName(t)
	return Access{Kind: ComponentStorage, Type: name, Exclusive: excl, View: kind + "[" + name + "]", key: resKey{t: keyOf(t)}}
}

func uniqueAccess[T any](kind string, excl bool) Access {
	t := typeOf[T]()
	name := typeName(t)
	return Access{Kind: UniqueStorage, Type: name, Exclusive: excl, View: kind + "[" + name + "]", key: resKey{t: keyOf(t)}}
}

// conflict returns the first pair of accesses, one from a and one from b,
// that conflict. A list holding an exclusive borrow of all storages is a
// barrier: it conflicts with every other list, even an empty one.
func conflict(a, b []Access) (Access, Access, bool) {
	for _, x := range a {
		if x.Kind == AllStorages && x.Exclusive {
			return x, firstOr(b, x), true
		}
	}
	for _, y := range b {
		if y.Kind == AllStorages && y.Exclusive {
			return firstOr(a, y), y, true
		}
	}
	for _, x := range a {
		for _, y := range b {
			if x.ConflictsWith(y) {
				return x, y, true
			}
		}
	}
	return Access{}, Access{}, false
}

func firstOr(list []Access, def Access) Access {
	if len(list) > 0 {
		return list[0]
	}
	return def
}
