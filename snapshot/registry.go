package snapshot

import (
	"reflect"
	"strconv"
	"sync"

	"github.com/slipway-ecs/slipway/ecs"
)

// Registry lists the component and unique types a save holds, each under
// a stable name (the name, not the Go type's, goes in the file, so that
// renaming or moving a Go type does not break old saves) and with its
// codecs. Register types once, before the first Save or Load; a Registry
// is safe for concurrent use.
//
// The zero Registry is empty and ready to use.
type Registry struct {
	mu     sync.RWMutex
	byName map[string]*entry
	byType map[reflect.Type]*entry
	order  []*entry // in registration order: the order of a save's sections
}

// entry is one registered type: its name, its kind, and its operations,
// made by Register[T] and RegisterUnique[T] for the T they were given.
type entry struct {
	name   string
	typ    reflect.Type
	unique bool
	// ownJSON is set when the type has a JSON codec of its own, whose
	// output a save checks is one JSON value.
	ownJSON bool

	// newView returns a pointer to a View[T] for World.Borrow
	// (components).
	newView func() any
	// ids returns the view's ids, in storage order.
	ids func(view any) []ecs.EntityID
	// encode appends the codec's encoding of the view's components whose
	// ids keep accepts (all of them if keep is nil) to dst, and returns
	// their ids.
	encode func(view any, f Format, keep func(ecs.EntityID) bool, ids []ecs.EntityID, dst []byte) ([]ecs.EntityID, []byte, error)
	// encodeUnique appends the encoding of w's unique of the type to dst;
	// ok is false if w has none.
	encodeUnique func(w *ecs.World, f Format, dst []byte) (_ []byte, ok bool, _ error)
	// decode decodes n values of the section and returns what adds them
	// to a world (to ids, for a component).
	decode func(f Format, ids []ecs.EntityID, n int, raw []byte) (apply func(w *ecs.World) error, err error)
}

// Register adds the component type T to r under name, with the default
// codecs, or those given (one [Codecs] at most; nil fields take the
// defaults). A save then holds T's storage.
//
// It returns an [*Error] wrapping [ErrRegistry], and registers nothing, if
// r is nil, if name is empty, longer than 255 bytes or not UTF-8, if the
// name or the type is registered already, or if a default codec cannot
// encode T (the error names the field): register a codec for that format
// then.
func Register[T any](r *Registry, name string, codecs ...Codecs[T]) error {
	e, c, err := newEntry[T]("Register", r, name, false, codecs)
	if err != nil {
		return err
	}
	e.newView = func() any { return new(ecs.View[T]) }
	e.ids = func(view any) []ecs.EntityID { return view.(*ecs.View[T]).IDs() }
	e.encode = func(view any, f Format, keep func(ecs.EntityID) bool, ids []ecs.EntityID, dst []byte) ([]ecs.EntityID, []byte, error) {
		v := view.(*ecs.View[T])
		all, vals := v.IDs(), v.Slice()
		if keep != nil {
			var kept []T
			for i, id := range all {
				if keep(id) {
					ids = append(ids, id)
					kept = append(kept, vals[i])
				}
			}
			vals = kept
		} else {
			ids = append(ids, all...)
		}
		out, err := c.of(f).Append(dst, vals)
		return ids, out, err
	}
	e.decode = func(f Format, ids []ecs.EntityID, n int, raw []byte) (func(*ecs.World) error, error) {
		vals := make([]T, n)
		if err := c.of(f).Decode(raw, vals); err != nil {
			return nil, err
		}
		return func(w *ecs.World) error { return ecs.BulkAddComponent1(w, ids, vals) }, nil
	}
	return r.add(e)
}

// RegisterUnique adds the unique type T to r under name, as [Register]
// does for a component type. A save then holds the world's unique of
// type T, if it has one.
func RegisterUnique[T any](r *Registry, name string, codecs ...Codecs[T]) error {
	e, c, err := newEntry[T]("RegisterUnique", r, name, true, codecs)
	if err != nil {
		return err
	}
	e.encodeUnique = func(w *ecs.World, f Format, dst []byte) ([]byte, bool, error) {
		v, err := ecs.GetUnique[T](w)
		if err != nil {
			if errorsIsMissing(err) {
				return dst, false, nil
			}
			return dst, false, err
		}
		out, err := c.of(f).Append(dst, []T{v})
		return out, true, err
	}
	e.decode = func(f Format, _ []ecs.EntityID, n int, raw []byte) (func(*ecs.World) error, error) {
		vals := make([]T, n)
		if err := c.of(f).Decode(raw, vals); err != nil {
			return nil, err
		}
		return func(w *ecs.World) error { return ecs.AddUnique(w, vals[0]) }, nil
	}
	return r.add(e)
}

// newEntry checks a registration and returns its entry, without the
// operations its caller adds.
func newEntry[T any](op string, r *Registry, name string, unique bool, codecs []Codecs[T]) (*entry, Codecs[T], error) {
	t := reflect.TypeFor[T]()
	var c Codecs[T]
	bad := func(reason string, err error) (*entry, Codecs[T], error) {
		return nil, c, fail(op, -1, name, ErrRegistry, reason, err)
	}
	if r == nil {
		return bad("the *Registry is nil", nil)
	}
	if why := validName(name); why != "" {
		return bad(why, nil)
	}
	if len(codecs) > 1 {
		return bad(strconv.Itoa(len(codecs))+" Codecs given; give one at most", nil)
	}
	if len(codecs) == 1 {
		c = codecs[0]
	}
	own := c.JSON != nil
	if c.JSON == nil {
		if err := checkJSON(t, t.String(), map[reflect.Type]bool{}); err != nil {
			return bad("the default JSON codec cannot encode "+t.String(), err)
		}
		c.JSON = jsonCodec[T]{}
	}
	if c.Binary == nil {
		bc, err := newBinCodec[T]()
		if err != nil {
			return bad("the default binary codec cannot encode "+t.String(), err)
		}
		c.Binary = bc
	}
	return &entry{name: name, typ: t, unique: unique, ownJSON: own}, c, nil
}

// of returns the codec of format f.
func (c Codecs[T]) of(f Format) Codec[T] {
	if f == Binary {
		return c.Binary
	}
	return c.JSON
}

func (r *Registry) add(e *entry) error {
	op := "Register"
	if e.unique {
		op = "RegisterUnique"
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if old := r.byName[e.name]; old != nil {
		return fail(op, -1, e.name, ErrRegistry, "the name is taken by "+old.typ.String(), nil)
	}
	if old := r.byType[e.typ]; old != nil {
		return fail(op, -1, e.name, ErrRegistry, e.typ.String()+" is registered already, as "+strconv.Quote(old.name), nil)
	}
	if r.byName == nil {
		r.byName = map[string]*entry{}
		r.byType = map[reflect.Type]*entry{}
	}
	r.byName[e.name] = e
	r.byType[e.typ] = e
	r.order = append(r.order, e)
	return nil
}

// Names returns the registered names, in registration order.
func (r *Registry) Names() []string {
	if r == nil {
		return nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, len(r.order))
	for i, e := range r.order {
		names[i] = e.name
	}
	return names
}

// entries returns the registered entries, in order.
func (r *Registry) entries() []*entry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]*entry(nil), r.order...)
}

func (r *Registry) lookup(name string) *entry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.byName[name]
}
