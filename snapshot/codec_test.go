package snapshot_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/slipway-ecs/slipway/snapshot"
)

type (
	withMap      struct{ M map[string]int }
	withPtr      struct{ P *int }
	withFunc     struct{ F func() }
	withIface    struct{ I any }
	withHidden   struct{ x int } //lint:ignore U1000 the field the codecs must refuse
	withComplex  struct{ C complex128 }
	withChan     struct{ C chan int }
	withBlank    struct{ A, _ int32 }
	withTaggedJS struct {
		A int
		b int `json:"-"` //lint:ignore U1000 the field JSON leaves out by the tag
	}
	tree struct {
		V    int8
		Kids []tree
	}
	fixed struct {
		A int32
		B [2]float32
		C uint8
		D uint8
	}
	// wide is fixed with an int: encoded field by field.
	wide struct {
		A int
		B [2]float32
		C uint8
		D uint8
	}
)

func TestRegisterRefusals(t *testing.T) {
	cases := []struct {
		name   string
		reg    func(r *snapshot.Registry) error
		reason string // in the error
	}{
		{"empty name", func(r *snapshot.Registry) error { return snapshot.Register[Pos](r, "") }, "empty"},
		{"long name", func(r *snapshot.Registry) error { return snapshot.Register[Pos](r, strings.Repeat("x", 256)) }, "255"},
		{"bad utf-8", func(r *snapshot.Registry) error { return snapshot.Register[Pos](r, "\xff") }, "UTF-8"},
		{"name taken", func(r *snapshot.Registry) error { return snapshot.Register[Name](r, "taken") }, "taken by snapshot_test.Pos"},
		{"type twice", func(r *snapshot.Registry) error { return snapshot.RegisterUnique[Pos](r, "again") }, "registered already"},
		{"two codecs", func(r *snapshot.Registry) error {
			return snapshot.Register(r, "two", snapshot.Codecs[Name]{}, snapshot.Codecs[Name]{})
		}, "one at most"},
		{"map binary", func(r *snapshot.Registry) error { return snapshot.Register[withMap](r, "m") }, "withMap.M is a map"},
		{"pointer binary", func(r *snapshot.Registry) error { return snapshot.Register[withPtr](r, "p") }, "withPtr.P is a pointer"},
		{"func", func(r *snapshot.Registry) error { return snapshot.Register[withFunc](r, "f") }, "withFunc.F is a func"},
		{"interface", func(r *snapshot.Registry) error { return snapshot.Register[withIface](r, "i") }, "withIface.I is an interface"},
		{"unexported", func(r *snapshot.Registry) error { return snapshot.Register[withHidden](r, "h") }, "withHidden.x is unexported"},
		{"complex json", func(r *snapshot.Registry) error { return snapshot.Register[withComplex](r, "c") }, "withComplex.C is a complex128"},
		{"chan", func(r *snapshot.Registry) error { return snapshot.Register[withChan](r, "ch") }, "withChan.C is a chan"},
		{"nil registry", func(*snapshot.Registry) error { return snapshot.Register[Name](nil, "n") }, "nil"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var r snapshot.Registry
			must(t, snapshot.Register[Pos](&r, "taken"))
			err := c.reg(&r)
			errorsIs(t, err, snapshot.ErrRegistry)
			if !strings.Contains(err.Error(), c.reason) {
				t.Fatalf("%v: does not say %q", err, c.reason)
			}
			if got := r.Names(); len(got) != 1 {
				t.Fatalf("a refused registration registered: %v", got)
			}
		})
	}
	// What the defaults refuse, a codec of one's own makes possible; a
	// tag keeps a field out of JSON by the type's own choice.
	var r snapshot.Registry
	must(t, snapshot.Register(&r, "m", snapshot.Codecs[withMap]{Binary: badMapCodec{}}))
	must(t, snapshot.Register[withTaggedJS](&r, "tagged", snapshot.Codecs[withTaggedJS]{Binary: snapshot.JSONCodec[withTaggedJS]()}))
	must(t, snapshot.Register[withBlank](&r, "blank"))
}

type badMapCodec struct{}

func (badMapCodec) Append(dst []byte, _ []withMap) ([]byte, error) { return dst, nil }
func (badMapCodec) Decode([]byte, []withMap) error                 { return errors.New("no") }

// The binary codec writes the same bytes for a type of fixed size
// (encoding/binary, a storage at a time) and for the same fields planned
// one by one, little-endian on every platform.
func TestBinaryCodecLayout(t *testing.T) {
	f := []fixed{{A: -2, B: [2]float32{1.5, -0}, C: 1, D: 7}, {A: 1 << 30}}
	w := []wide{{A: -2, B: [2]float32{1.5, -0}, C: 1, D: 7}, {A: 1 << 30}}
	fb, err := snapshot.BinaryCodec[fixed]().Append(nil, f)
	must(t, err)
	wb, err := snapshot.BinaryCodec[wide]().Append(nil, w)
	must(t, err)
	// wide's int takes eight bytes where fixed's int32 takes four.
	want := binary.LittleEndian.AppendUint32(nil, uint32(0xfffffffe))
	if !bytes.HasPrefix(fb, want) || len(fb) != 2*14 || len(wb) != 2*18 {
		t.Fatalf("layout: %x (%d bytes), %x (%d bytes)", fb, len(fb), wb, len(wb))
	}
	if !bytes.Equal(fb[4:14], wb[8:18]) {
		t.Fatalf("the same fields encode differently: %x and %x", fb[4:14], wb[8:18])
	}
	var back []wide = make([]wide, 2)
	must(t, snapshot.BinaryCodec[wide]().Decode(wb, back))
	if back[0] != w[0] || back[1] != w[1] {
		t.Fatalf("decoded %v, want %v", back, w)
	}
}

func TestBinaryCodecRecursiveAndRefusals(t *testing.T) {
	c := snapshot.BinaryCodec[tree]()
	v := []tree{{V: 1, Kids: []tree{{V: 2}, {V: 3, Kids: []tree{{V: 4}}}}}}
	b, err := c.Append(nil, v)
	must(t, err)
	back := make([]tree, 1)
	must(t, c.Decode(b, back))
	if back[0].Kids[1].Kids[0].V != 4 {
		t.Fatalf("decoded %+v", back)
	}
	bad := []struct {
		name string
		data []byte
		want string
	}{
		{"short", b[:len(b)-1], "elements where"},
		{"long", append(bytes.Clone(b), 0), "left over"},
		{"huge length", []byte{1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, "bytes are left"},
		{"overflowing length", []byte{1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, "overflows"},
		{"deep", append(bytes.Repeat([]byte{1, 1}, 2000), 1, 0), "nested"},
	}
	for _, x := range bad {
		if err := c.Decode(x.data, make([]tree, 1)); err == nil || !strings.Contains(err.Error(), x.want) {
			t.Errorf("%s: %v, want an error saying %q", x.name, err, x.want)
		}
	}
	if err := snapshot.BinaryCodec[Big]().Decode([]byte{1}, make([]Big, 1)); err == nil {
		t.Error("a short Big decoded")
	}
	bools := snapshot.BinaryCodec[bool]()
	if err := bools.Decode([]byte{2}, make([]bool, 1)); err == nil {
		t.Error("byte 2 decoded as a bool")
	}
	// A type the default codec refuses gets a codec that says why.
	if _, err := snapshot.BinaryCodec[withMap]().Append(nil, []withMap{{}}); err == nil || !strings.Contains(err.Error(), "map") {
		t.Errorf("map codec: %v", err)
	}
}
