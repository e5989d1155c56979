package ecs

// Join terms other than plain views: Optional (Or: join_terms_or.go).

// OptionalView is a join term whose component may be absent: the join
// visits the entities that match its other terms, and hands out the
// component where the entity has it and nil where it does not. Make one
// with [Optional]; it is a [Part] of every join, at any position.
type OptionalView[T any] struct {
	c   *viewCore[T]
	key partKey
}

// Optional makes v (a [View], [ViewMut] or [Changed]) an optional term of
// a join, the Go form of Shipyard's `Option<&T>` in a join:
//
//	for p, v := range ecs.Join2(pos, ecs.Optional(vel)).All() {
//		if v != nil { ... } // the entity has a Vel
//	}
//
// An optional term never drives the join and never excludes an entity: the
// join visits the entities that have its other components (and pass its
// Not and Changed filters), with a nil pointer for the optional component
// where the entity lacks it. Optional of a Changed view hands out the
// component only where it changed in the view's window, nil elsewhere. A
// ViewMut under Optional marks modified only the components it hands out.
// A join must have at least one term that is not optional: a join of
// optional terms only panics with an error wrapping [ErrOnlyOptional].
//
// In [Iter2.Runs] and its siblings, an entity that lacks an optional
// component comes as a run of its own whose slice for that term is empty;
// runs of several entities have every component. [Iter2.Packed] and its
// siblings report false for a join with an optional term.
func Optional[T any](v Part[T]) OptionalView[T] {
	c, k := v.joinView()
	k.opt = true
	return OptionalView[T]{c: c, key: k}
}

func (o OptionalView[T]) joinView() (*viewCore[T], partKey) { return o.c, o.key }

// elemAt returns &d[x], or nil if x is negative: a component of a join
// term that is absent (an optional term).
func elemAt[T any](d []T, x int) *T {
	if x < 0 {
		return nil
	}
	return &d[x]
}

// oneAt returns d[x:x+1] with its capacity cut, or nil if x is negative.
func oneAt[T any](d []T, x int) []T {
	if x < 0 {
		return nil
	}
	return d[x : x+1 : x+1]
}

// errOnlyOptional is the panic value of a join whose terms are all
// optional: nothing says which entities it visits.
var errOnlyOptional error = &argError{what: "a join of Optional terms only has no component to say which entities it visits: give it at least one view that is not Optional", kind: ErrOnlyOptional}
