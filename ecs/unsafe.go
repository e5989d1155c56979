package ecs

import (
	"reflect"
	"unsafe"
)

// This file holds the package's only use of unsafe.

// addrOf returns a pointer to v, an addressable value, as a reflect.Value
// whose Interface may be called even when v was reached through an
// unexported field: a custom view may keep its views in unexported fields,
// and borrowing fills them in through such pointers.
//
// It follows rule (5) of unsafe.Pointer: the result of
// reflect.Value.UnsafeAddr is converted to a Pointer in the same
// expression, and the pointer is to a live variable of v's type (the
// frame's or the caller's, which outlives the pointer's use).
// TestSystemCalls borrows views in unexported fields, nested and not, and
// runs under checkptr in CI.
func addrOf(v reflect.Value) reflect.Value {
	if v.CanInterface() {
		return v.Addr()
	}
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr()))
}
