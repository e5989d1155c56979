package ecs

import (
	"maps"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
)

// typeKey identifies a Go type. reflect.Type values are comparable, and
// equal exactly when they stand for identical types, so they serve as map
// keys as they are.
type typeKey = reflect.Type

// resKey identifies one resource a view borrows: a component storage, a
// unique, or one isotope storage (isotope.go). For a component or unique
// type T it is {T, nil}. For an isotope it is {the family's key, the
// discriminant}: the family key is a type made for the pair (D, T), so
// that isotope storages never share a key with T's own storage, and the
// discriminant is a comparable value of D (isotope.go checks it).
type resKey struct {
	t typeKey
	d any
}

// keyOf returns the key of t.
func keyOf(t reflect.Type) typeKey { return t }

// keyFor returns the key of T.
func keyFor[T any]() typeKey { return reflect.TypeFor[T]() }

// typeTable maps type keys to values. Reads are lock-free (one atomic load
// and a map look-up); writes, which happen once per type per world, copy
// the table under a mutex and publish the copy.
type typeTable[V any] struct {
	mu  sync.Mutex
	cur atomic.Pointer[typeTableData[V]]
}

type typeTableData[V any] struct {
	m    map[typeKey]V // never changed once published
	list []V           // in insertion order
}

// get returns the value stored for k.
func (t *typeTable[V]) get(k typeKey) (v V, ok bool) {
	if d := t.cur.Load(); d != nil {
		v, ok = d.m[k]
	}
	return v, ok
}

// getOrAdd returns the value for k, storing mk() first if there is none.
func (t *typeTable[V]) getOrAdd(k typeKey, mk func() V) V {
	if v, ok := t.get(k); ok {
		return v
	}
	return t.add(k, mk)
}

// add stores mk() for k unless another goroutine stored a value first, and
// returns the value stored.
func (t *typeTable[V]) add(k typeKey, mk func() V) V {
	t.mu.Lock()
	defer t.mu.Unlock()
	if v, ok := t.get(k); ok {
		return v
	}
	v := mk()
	d := &typeTableData[V]{m: map[typeKey]V{k: v}}
	if old := t.cur.Load(); old != nil {
		maps.Copy(d.m, old.m)
		d.list = slices.Clip(old.list)
	}
	d.list = append(d.list, v)
	t.cur.Store(d)
	return v
}

// addUnkeyed lists v after the values stored so far, under no key: an
// isotope storage (isotope.go), which its family finds.
func (t *typeTable[V]) addUnkeyed(v V) {
	t.mu.Lock()
	defer t.mu.Unlock()
	d := &typeTableData[V]{m: map[typeKey]V{}}
	if old := t.cur.Load(); old != nil {
		d.m = old.m // never changed once published: shared
		d.list = slices.Clip(old.list)
	}
	d.list = append(d.list, v)
	t.cur.Store(d)
}

// all returns every value, in insertion order. The slice must not be changed.
func (t *typeTable[V]) all() []V {
	if d := t.cur.Load(); d != nil {
		return d.list
	}
	return nil
}

// typeName is how Slipway names a type in messages: "main.Pos".
func typeName(t reflect.Type) string {
	if t == nil {
		return "nil"
	}
	return t.String()
}
