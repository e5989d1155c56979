package ecs

import (
	"reflect"
	"sync"
	"testing"
)

// TestTypeTable: a typeTable is empty at first, makes a key's value once
// (the first getOrAdd's mk; later calls return it and do not call mk),
// and lists its values in insertion order.
func TestTypeTable(t *testing.T) {
	var tt typeTable[string]
	if v, ok := tt.get(keyFor[int]()); ok || v != "" {
		t.Fatalf("get on an empty table = %q, %v", v, ok)
	}
	if all := tt.all(); len(all) != 0 {
		t.Fatalf("all on an empty table = %v", all)
	}
	calls := 0
	mk := func(s string) func() string { return func() string { calls++; return s } }
	for _, c := range []struct {
		key  typeKey
		mk   string
		want string
	}{
		{keyFor[int](), "int", "int"},
		{keyFor[string](), "string", "string"},
		{keyFor[int](), "again", "int"},        // kept
		{keyOf(reflect.TypeOf(0)), "x", "int"}, // the same key however obtained
		{keyFor[*int](), "*int", "*int"},
	} {
		if got := tt.getOrAdd(c.key, mk(c.mk)); got != c.want {
			t.Errorf("getOrAdd(%v) = %q, want %q", c.key, got, c.want)
		}
	}
	if calls != 3 {
		t.Errorf("mk called %d times, want 3 (once per key)", calls)
	}
	if got, want := tt.all(), []string{"int", "string", "*int"}; !reflect.DeepEqual(got, want) {
		t.Errorf("all = %v, want %v", got, want)
	}
	if v, ok := tt.get(keyFor[string]()); !ok || v != "string" {
		t.Errorf("get(string) = %q, %v", v, ok)
	}
}

// TestTypeTableConcurrentAdd: goroutines adding the same key at once all
// get the one value stored.
func TestTypeTableConcurrentAdd(t *testing.T) {
	var tt typeTable[*int]
	const n = 8
	got := make([]*int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = tt.getOrAdd(keyFor[float64](), func() *int { return new(int) })
		}()
	}
	wg.Wait()
	for i := range got {
		if got[i] != got[0] {
			t.Fatalf("goroutine %d got another value than goroutine 0", i)
		}
	}
	if len(tt.all()) != 1 {
		t.Errorf("%d values stored, want 1", len(tt.all()))
	}
}

type tkLocal struct{}

// TestTypeName: how messages name types.
func TestTypeName(t *testing.T) {
	for _, c := range []struct {
		t    reflect.Type
		want string
	}{
		{nil, "nil"},
		{reflect.TypeFor[int](), "int"},
		{reflect.TypeFor[tkLocal](), "ecs.tkLocal"},
		{reflect.TypeFor[*tkLocal](), "*ecs.tkLocal"},
		{reflect.TypeFor[[]tkLocal](), "[]ecs.tkLocal"},
		{reflect.TypeFor[View[tkLocal]](), "ecs.View[github.com/slipway-ecs/slipway/ecs.tkLocal]"},
	} {
		if got := typeName(c.t); got != c.want {
			t.Errorf("typeName(%v) = %q, want %q", c.t, got, c.want)
		}
	}
}
