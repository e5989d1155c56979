package ecs

import (
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"
)

// typeKey identifies a Go type by the address of its runtime type descriptor.
// The address is unique per type and fixed for the life of the program.
type typeKey uintptr

// keyOf returns the key of t.
//
// Why this is safe: a reflect.Type is an interface whose dynamic value is a
// *reflect.rtype; the interface's data word is that pointer. Type descriptors
// are statically allocated (or, for types built at run time by reflect, kept
// alive forever in reflect's caches), so the address never moves and is never
// reused for another type. We only read the word, never dereference it.
func keyOf(t reflect.Type) typeKey {
	return typeKey((*[2]uintptr)(unsafe.Pointer(&t))[1])
}

// keyFor returns the key of T in the world's tables of storages and
// uniques: the address of the type descriptor of *T, which is as unique
// per T as T's own (keyOf). It is the type word of an interface holding a
// nil *T, which generic code reads from its dictionary in one load, where
// reflect.TypeFor[T] takes a chain of them. Keys from keyFor and keyOf are
// never mixed: keyOf keys only meet other keyOf keys (access.go).
//
// storageFor repeats this body rather than calling keyFor: in generic code
// even an inlined generic call reaches its type through one more
// dictionary, and storageFor runs on every World-level call.
func keyFor[T any]() typeKey {
	e := any((*T)(nil))
	return typeKey((*[2]uintptr)(unsafe.Pointer(&e))[0])
}

// typeTable maps type keys to values. Reads are lock-free (one atomic load
// and an open-addressing probe); writes, which happen once per type per
// world, copy the table under a mutex and publish the copy.
type typeTable[V any] struct {
	mu  sync.Mutex
	cur atomic.Pointer[typeTableData[V]]
}

type typeTableData[V any] struct {
	keys []typeKey // 0 marks an empty slot; len is a power of two
	vals []V
	n    int
	list []V // in insertion order
}

func hashKey(k typeKey) uint64 { return uint64(k>>3) * 0x9E3779B97F4A7C15 }

// get returns the value stored for k. It calls nothing, so that it stays
// small enough to inline into getOrAdd: storageFor runs it on every
// World-level call.
func (t *typeTable[V]) get(k typeKey) (v V, ok bool) {
	if d := t.cur.Load(); d != nil {
		keys := d.keys
		mask := uint64(len(keys) - 1)
		for i := hashKey(k) >> 32 & mask; ; i = (i + 1) & mask {
			switch keys[i] {
			case k:
				return d.vals[i], true
			case 0:
				return v, false
			}
		}
	}
	return v, false
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
	old := t.cur.Load()
	size, n := 16, 0
	var list []V
	if old != nil {
		size, n, list = len(old.keys), old.n, old.list
		if (n+1)*2 > size {
			size *= 2
		}
	}
	d := &typeTableData[V]{keys: make([]typeKey, size), vals: make([]V, size), n: n + 1}
	d.list = append(append(make([]V, 0, len(list)+1), list...), v)
	if old != nil {
		for i, ok := range old.keys {
			if ok != 0 {
				d.put(ok, old.vals[i])
			}
		}
	}
	d.put(k, v)
	t.cur.Store(d)
	return v
}

func (d *typeTableData[V]) put(k typeKey, v V) {
	mask := uint64(len(d.keys) - 1)
	i := hashKey(k) >> 32 & mask
	for d.keys[i] != 0 {
		i = (i + 1) & mask
	}
	d.keys[i], d.vals[i] = k, v
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
