package ecs

import (
	"reflect"
	"testing"
)

type unsafeHolder struct {
	Exported int
	hidden   int
	nested   struct{ deep []string }
}

// TestAddrOf: addrOf gives a pointer to the variable itself, one whose
// Interface may be called, for exported and unexported fields alike.
func TestAddrOf(t *testing.T) {
	var h unsafeHolder
	v := reflect.ValueOf(&h).Elem()
	for _, c := range []struct {
		name  string
		field reflect.Value
		set   func(p any)
		check func() bool
	}{
		{"exported", v.Field(0), func(p any) { *p.(*int) = 1 }, func() bool { return h.Exported == 1 }},
		{"unexported", v.Field(1), func(p any) { *p.(*int) = 2 }, func() bool { return h.hidden == 2 }},
		{"unexported, nested", v.Field(2).Field(0), func(p any) { *p.(*[]string) = []string{"x"} }, func() bool { return len(h.nested.deep) == 1 }},
	} {
		p := addrOf(c.field)
		if p.Kind() != reflect.Pointer || p.Type().Elem() != c.field.Type() {
			t.Fatalf("%s: addrOf gave a %v, want a pointer to %v", c.name, p.Type(), c.field.Type())
		}
		if !p.CanInterface() {
			t.Fatalf("%s: addrOf's result cannot be used through Interface", c.name)
		}
		c.set(p.Interface())
		if !c.check() {
			t.Errorf("%s: writing through addrOf's pointer did not change the field", c.name)
		}
	}
}
