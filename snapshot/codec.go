package snapshot

import (
	"encoding"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Codec encodes the values of one component or unique type, a slice at a
// time (a storage's components go in one call).
//
// Append appends the encoding of vs to dst and returns it. Decode fills
// vs from src, which holds exactly the bytes one Append of len(vs) values
// wrote: it must report an error, and not panic, if src holds fewer or
// more, or a value it cannot read, since src comes from a file. A Decode
// must not allocate more than src justifies.
//
// In a [JSON] save, what Append writes is embedded in the document as it
// is, so it must be one JSON value (the default codec writes an array).
type Codec[T any] interface {
	Append(dst []byte, vs []T) ([]byte, error)
	Decode(src []byte, vs []T) error
}

// Codecs are the codecs of a type, one per format; a nil field takes the
// format's default: [JSONCodec] and [BinaryCodec].
type Codecs[T any] struct {
	JSON   Codec[T]
	Binary Codec[T]
}

// JSONCodec returns the default codec of the JSON format: encoding/json,
// the values of a storage as one array. It is readable and follows the
// type's json tags and its json.Marshaler and json.Unmarshaler methods.
//
// It refuses, when T is registered, types encoding/json would not bring
// back as they were: a struct field that is unexported (encoding/json
// drops it silently), a complex number, a channel, a function, an
// interface, or a map whose keys are not strings, integers or
// encoding.TextMarshaler.
//
// JSON strings are text: encoding/json writes U+FFFD for bytes of a Go
// string that are not UTF-8, and cannot write NaN or infinities (the
// save fails, naming the type). Keep arbitrary bytes in a []byte (base64
// in JSON), or use the binary format, which keeps every string as it is. A type that implements json.Marshaler and
// json.Unmarshaler (on its pointer) is taken as it is. A field tagged
// `json:"-"` is the type's own choice and is not saved.
func JSONCodec[T any]() Codec[T] { return jsonCodec[T]{} }

type jsonCodec[T any] struct{}

func (jsonCodec[T]) Append(dst []byte, vs []T) ([]byte, error) {
	if len(vs) == 0 {
		return append(dst, "[]"...), nil
	}
	b, err := json.Marshal(vs)
	if err != nil {
		return dst, err
	}
	if len(dst) == 0 {
		return b, nil // a storage's values: no copy
	}
	return append(dst, b...), nil
}

func (jsonCodec[T]) Decode(src []byte, vs []T) error {
	var out []T
	if err := json.Unmarshal(src, &out); err != nil {
		return err
	}
	if len(out) != len(vs) {
		return fmt.Errorf("%d values where the ids say %d", len(out), len(vs))
	}
	copy(vs, out)
	return nil
}

var (
	jsonMarshaler   = reflect.TypeFor[json.Marshaler]()
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textMarshaler   = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// checkJSON returns why encoding/json cannot round-trip t, or nil. path
// names where in the registered type t is met.
func checkJSON(t reflect.Type, path string, seen map[reflect.Type]bool) error {
	if seen[t] {
		return nil
	}
	seen[t] = true
	if t.Implements(jsonMarshaler) && reflect.PointerTo(t).Implements(jsonUnmarshaler) ||
		t.Implements(textMarshaler) && reflect.PointerTo(t).Implements(textUnmarshaler) {
		return nil
	}
	switch t.Kind() {
	case reflect.Complex64, reflect.Complex128, reflect.Chan, reflect.Func, reflect.Interface, reflect.UnsafePointer, reflect.Uintptr:
		return fmt.Errorf("%s is %s, which encoding/json cannot bring back", path, aKind(t.Kind()))
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return checkJSON(t.Elem(), path+"[]", seen)
	case reflect.Map:
		k := t.Key()
		switch k.Kind() {
		case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		default:
			if !k.Implements(textMarshaler) {
				return fmt.Errorf("%s is a map keyed by %s, which encoding/json cannot encode", path, k)
			}
		}
		return checkJSON(t.Elem(), path+"[key]", seen)
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Tag.Get("json") == "-" || f.Name == "_" {
				continue
			}
			if !f.IsExported() {
				if f.Anonymous && f.Type.Kind() == reflect.Struct {
					// encoding/json promotes an embedded unexported
					// struct's exported fields.
					if err := checkJSON(f.Type, path+"."+f.Name, seen); err != nil {
						return err
					}
					continue
				}
				return fmt.Errorf("%s.%s is unexported: encoding/json would drop it (export it, tag it `json:\"-\"`, or register a codec)", path, f.Name)
			}
			if err := checkJSON(f.Type, path+"."+f.Name, seen); err != nil {
				return err
			}
		}
	}
	return nil
}

// BinaryCodec returns the default codec of the binary format: compact,
// little-endian, the same bytes on every platform. Booleans take one
// byte; integers and floats their width (int and uint eight bytes);
// strings and slices a length (unsigned varint) and their contents;
// arrays and struct fields follow each other with nothing in between.
// Types of fixed size, numbers and arrays and structs of them, without
// int, uint or bool, are encoded with encoding/binary a storage at a
// time; other types field by field, through reflection planned once per
// type.
//
// It refuses, when T is registered, what it does not encode: maps,
// pointers, interfaces, channels, functions, unsafe pointers, uintptr and
// unexported struct fields (blank fields of fixed size are written as
// zeros). Register a [Codec] for such a type.
func BinaryCodec[T any]() Codec[T] {
	c, err := newBinCodec[T]()
	if err != nil {
		return badCodec[T]{err}
	}
	return c
}

// badCodec is the binary codec of a type it cannot encode: every call
// returns why. Register refuses such types, so only a codec obtained
// with BinaryCodec and used directly meets it.
type badCodec[T any] struct{ err error }

func (c badCodec[T]) Append(dst []byte, _ []T) ([]byte, error) { return dst, c.err }
func (c badCodec[T]) Decode([]byte, []T) error                 { return c.err }

// binCodec is BinaryCodec's codec for T: fixed is T's size when
// encoding/binary encodes it (a storage in one call), and 0 otherwise,
// when plan does, a value at a time.
type binCodec[T any] struct {
	fixed int
	plan  *binPlan
}

func newBinCodec[T any]() (*binCodec[T], error) {
	t := reflect.TypeFor[T]()
	plan, err := planBinary(t, t.String(), map[reflect.Type]*binPlan{})
	if err != nil {
		return nil, err
	}
	c := &binCodec[T]{plan: plan}
	if n := binary.Size(*new(T)); n > 0 && !hasBool(t) {
		c.fixed = n
	}
	return c, nil
}

func (c *binCodec[T]) Append(dst []byte, vs []T) ([]byte, error) {
	if len(vs) == 0 {
		return dst, nil
	}
	if c.fixed > 0 {
		return binary.Append(dst, binary.LittleEndian, vs)
	}
	rv := reflect.ValueOf(vs)
	for i := range vs {
		dst = c.plan.enc(dst, rv.Index(i))
	}
	return dst, nil
}

func (c *binCodec[T]) Decode(src []byte, vs []T) error {
	if c.fixed > 0 {
		if len(src) != c.fixed*len(vs) {
			return fmt.Errorf("%d bytes for %d values of %d bytes", len(src), len(vs), c.fixed)
		}
		if len(vs) == 0 {
			return nil
		}
		_, err := binary.Decode(src, binary.LittleEndian, vs)
		return err
	}
	d := binDecoder{src: src}
	rv := reflect.ValueOf(vs)
	for i := range vs {
		if err := c.plan.dec(&d, rv.Index(i), 0); err != nil {
			return err
		}
	}
	if len(d.src) != d.at {
		return fmt.Errorf("%d bytes left over after %d values", len(d.src)-d.at, len(vs))
	}
	return nil
}

// binPlan encodes and decodes the values of one type. Plans of recursive
// types (a struct holding a slice of itself) refer to themselves: the
// plan is made before its element plans, which may then point back at it.
type binPlan struct {
	enc func(dst []byte, v reflect.Value) []byte
	dec func(d *binDecoder, v reflect.Value, depth int) error
}

// maxDepth bounds the nesting of slices a decode follows, so that a file
// cannot make it recurse until the stack runs out.
const maxDepth = 1000

// binDecoder reads a value's bytes: src from at.
type binDecoder struct {
	src []byte
	at  int
}

var errShort = errors.New("the values end before their bytes say")

func (d *binDecoder) take(n int) ([]byte, error) {
	if n < 0 || n > len(d.src)-d.at {
		return nil, errShort
	}
	b := d.src[d.at : d.at+n]
	d.at += n
	return b, nil
}

// length reads a length, and refuses one that the bytes left cannot hold
// at min bytes per element (a length of 2^40 does not allocate 2^40).
func (d *binDecoder) length(min int) (int, error) {
	n, k := binary.Uvarint(d.src[d.at:])
	if k <= 0 {
		if k == 0 {
			return 0, errShort
		}
		return 0, errors.New("a length overflows 64 bits")
	}
	d.at += k
	left := uint64(len(d.src) - d.at)
	if min > 0 && n > left/uint64(min) || min == 0 && n > math.MaxInt32 {
		return 0, fmt.Errorf("a length of %d elements where %d bytes are left", n, left)
	}
	return int(n), nil
}

// planBinary returns the plan of t, or why BinaryCodec cannot encode it.
func planBinary(t reflect.Type, path string, plans map[reflect.Type]*binPlan) (*binPlan, error) {
	if p := plans[t]; p != nil {
		return p, nil
	}
	p := &binPlan{}
	plans[t] = p
	num := func(size int, put func([]byte, reflect.Value) []byte, get func([]byte, reflect.Value)) {
		p.enc = put
		p.dec = func(d *binDecoder, v reflect.Value, _ int) error {
			b, err := d.take(size)
			if err != nil {
				return err
			}
			get(b, v)
			return nil
		}
	}
	le := binary.LittleEndian
	switch t.Kind() {
	case reflect.Bool:
		p.enc = func(dst []byte, v reflect.Value) []byte {
			if v.Bool() {
				return append(dst, 1)
			}
			return append(dst, 0)
		}
		p.dec = func(d *binDecoder, v reflect.Value, _ int) error {
			b, err := d.take(1)
			if err != nil {
				return err
			}
			if b[0] > 1 {
				return fmt.Errorf("byte %d for a bool", b[0])
			}
			v.SetBool(b[0] == 1)
			return nil
		}
	case reflect.Int8:
		num(1, func(dst []byte, v reflect.Value) []byte { return append(dst, byte(v.Int())) },
			func(b []byte, v reflect.Value) { v.SetInt(int64(int8(b[0]))) })
	case reflect.Uint8:
		num(1, func(dst []byte, v reflect.Value) []byte { return append(dst, byte(v.Uint())) },
			func(b []byte, v reflect.Value) { v.SetUint(uint64(b[0])) })
	case reflect.Int16:
		num(2, func(dst []byte, v reflect.Value) []byte { return le.AppendUint16(dst, uint16(v.Int())) },
			func(b []byte, v reflect.Value) { v.SetInt(int64(int16(le.Uint16(b)))) })
	case reflect.Uint16:
		num(2, func(dst []byte, v reflect.Value) []byte { return le.AppendUint16(dst, uint16(v.Uint())) },
			func(b []byte, v reflect.Value) { v.SetUint(uint64(le.Uint16(b))) })
	case reflect.Int32:
		num(4, func(dst []byte, v reflect.Value) []byte { return le.AppendUint32(dst, uint32(v.Int())) },
			func(b []byte, v reflect.Value) { v.SetInt(int64(int32(le.Uint32(b)))) })
	case reflect.Uint32:
		num(4, func(dst []byte, v reflect.Value) []byte { return le.AppendUint32(dst, uint32(v.Uint())) },
			func(b []byte, v reflect.Value) { v.SetUint(uint64(le.Uint32(b))) })
	case reflect.Int, reflect.Int64:
		// int is 32 bits on 386 and wasm: a value that does not fit is
		// refused there, not wrapped.
		num(8, func(dst []byte, v reflect.Value) []byte { return le.AppendUint64(dst, uint64(v.Int())) }, nil)
		p.dec = func(d *binDecoder, v reflect.Value, _ int) error {
			b, err := d.take(8)
			if err != nil {
				return err
			}
			x := int64(le.Uint64(b))
			if v.OverflowInt(x) {
				return fmt.Errorf("%d overflows %s", x, v.Type())
			}
			v.SetInt(x)
			return nil
		}
	case reflect.Uint, reflect.Uint64:
		num(8, func(dst []byte, v reflect.Value) []byte { return le.AppendUint64(dst, v.Uint()) }, nil)
		p.dec = func(d *binDecoder, v reflect.Value, _ int) error {
			b, err := d.take(8)
			if err != nil {
				return err
			}
			x := le.Uint64(b)
			if v.OverflowUint(x) {
				return fmt.Errorf("%d overflows %s", x, v.Type())
			}
			v.SetUint(x)
			return nil
		}
	case reflect.Float32:
		num(4, func(dst []byte, v reflect.Value) []byte {
			return le.AppendUint32(dst, math.Float32bits(float32(v.Float())))
		},
			func(b []byte, v reflect.Value) { v.SetFloat(float64(math.Float32frombits(le.Uint32(b)))) })
	case reflect.Float64:
		num(8, func(dst []byte, v reflect.Value) []byte { return le.AppendUint64(dst, math.Float64bits(v.Float())) },
			func(b []byte, v reflect.Value) { v.SetFloat(math.Float64frombits(le.Uint64(b))) })
	case reflect.Complex64:
		num(8, func(dst []byte, v reflect.Value) []byte {
			c := v.Complex()
			dst = le.AppendUint32(dst, math.Float32bits(float32(real(c))))
			return le.AppendUint32(dst, math.Float32bits(float32(imag(c))))
		}, func(b []byte, v reflect.Value) {
			v.SetComplex(complex(float64(math.Float32frombits(le.Uint32(b))), float64(math.Float32frombits(le.Uint32(b[4:])))))
		})
	case reflect.Complex128:
		num(16, func(dst []byte, v reflect.Value) []byte {
			c := v.Complex()
			dst = le.AppendUint64(dst, math.Float64bits(real(c)))
			return le.AppendUint64(dst, math.Float64bits(imag(c)))
		}, func(b []byte, v reflect.Value) {
			v.SetComplex(complex(math.Float64frombits(le.Uint64(b)), math.Float64frombits(le.Uint64(b[8:]))))
		})
	case reflect.String:
		p.enc = func(dst []byte, v reflect.Value) []byte {
			s := v.String()
			dst = binary.AppendUvarint(dst, uint64(len(s)))
			return append(dst, s...)
		}
		p.dec = func(d *binDecoder, v reflect.Value, _ int) error {
			n, err := d.length(1)
			if err != nil {
				return err
			}
			b, err := d.take(n)
			if err != nil {
				return err
			}
			v.SetString(string(b))
			return nil
		}
	case reflect.Array:
		ep, err := planBinary(t.Elem(), path+"[]", plans)
		if err != nil {
			return nil, err
		}
		n := t.Len()
		p.enc = func(dst []byte, v reflect.Value) []byte {
			for i := range n {
				dst = ep.enc(dst, v.Index(i))
			}
			return dst
		}
		p.dec = func(d *binDecoder, v reflect.Value, depth int) error {
			for i := range n {
				if err := ep.dec(d, v.Index(i), depth); err != nil {
					return err
				}
			}
			return nil
		}
	case reflect.Slice:
		ep, err := planBinary(t.Elem(), path+"[]", plans)
		if err != nil {
			return nil, err
		}
		min := minSize(t.Elem())
		p.enc = func(dst []byte, v reflect.Value) []byte {
			n := v.Len()
			dst = binary.AppendUvarint(dst, uint64(n))
			for i := range n {
				dst = ep.enc(dst, v.Index(i))
			}
			return dst
		}
		p.dec = func(d *binDecoder, v reflect.Value, depth int) error {
			if depth >= maxDepth {
				return fmt.Errorf("slices nested more than %d deep", maxDepth)
			}
			n, err := d.length(min)
			if err != nil {
				return err
			}
			s := reflect.MakeSlice(t, n, n)
			if min > 0 || t.Elem().Size() > 0 {
				for i := range n {
					if err := ep.dec(d, s.Index(i), depth+1); err != nil {
						return err
					}
				}
			}
			v.Set(s)
			return nil
		}
	case reflect.Struct:
		type field struct {
			i     int
			p     *binPlan
			blank int // bytes of a blank field, written as zeros
		}
		var fs []field
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Name == "_" {
				n := binary.Size(reflect.Zero(f.Type).Interface())
				if n < 0 {
					return nil, fmt.Errorf("%s has a blank field of type %s, which has no fixed size", path, f.Type)
				}
				fs = append(fs, field{i: i, blank: n})
				continue
			}
			if !f.IsExported() {
				return nil, fmt.Errorf("%s.%s is unexported: the binary codec cannot set it (export it or register a codec)", path, f.Name)
			}
			fp, err := planBinary(f.Type, path+"."+f.Name, plans)
			if err != nil {
				return nil, err
			}
			fs = append(fs, field{i: i, p: fp})
		}
		p.enc = func(dst []byte, v reflect.Value) []byte {
			for _, f := range fs {
				if f.p == nil {
					dst = append(dst, make([]byte, f.blank)...)
					continue
				}
				dst = f.p.enc(dst, v.Field(f.i))
			}
			return dst
		}
		p.dec = func(d *binDecoder, v reflect.Value, depth int) error {
			for _, f := range fs {
				if f.p == nil {
					if _, err := d.take(f.blank); err != nil {
						return err
					}
					continue
				}
				if err := f.p.dec(d, v.Field(f.i), depth); err != nil {
					return err
				}
			}
			return nil
		}
	default:
		delete(plans, t)
		return nil, fmt.Errorf("%s is %s: the binary codec does not encode %ss (register a codec)", path, aKind(t.Kind()), kindName(t.Kind()))
	}
	return p, nil
}

func kindName(k reflect.Kind) string {
	switch k {
	case reflect.Pointer:
		return "pointer"
	case reflect.UnsafePointer:
		return "unsafe pointer"
	}
	return k.String()
}

// aKind returns k's name with its article: "a map", "an interface".
func aKind(k reflect.Kind) string {
	n := kindName(k)
	if strings.ContainsRune("aeiou", rune(n[0])) {
		return "an " + n
	}
	return "a " + n
}

// hasBool reports whether t holds a bool: encoding/binary reads any
// non-zero byte as true, where the plan refuses all but 0 and 1, so that
// a value has one encoding only.
func hasBool(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool:
		return true
	case reflect.Array:
		return hasBool(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if hasBool(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// minSize returns the fewest bytes the binary codec writes for a value of
// t: what a decoder may assume each element of a slice costs.
func minSize(t reflect.Type) int {
	switch t.Kind() {
	case reflect.Bool, reflect.Int8, reflect.Uint8:
		return 1
	case reflect.Int16, reflect.Uint16:
		return 2
	case reflect.Int32, reflect.Uint32, reflect.Float32:
		return 4
	case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint64, reflect.Float64, reflect.Complex64:
		return 8
	case reflect.Complex128:
		return 16
	case reflect.String, reflect.Slice:
		return 1 // the length
	case reflect.Array:
		return t.Len() * minSize(t.Elem())
	case reflect.Struct:
		n := 0
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Name == "_" {
				n += max(binary.Size(reflect.Zero(f.Type).Interface()), 0)
				continue
			}
			n += minSize(f.Type)
		}
		return n
	}
	return 0
}

// validName reports why name cannot name a type in a save, or "".
func validName(name string) string {
	switch {
	case name == "":
		return "the name is empty"
	case len(name) > 255:
		return "the name is longer than 255 bytes"
	case !utf8.ValidString(name):
		return "the name " + strconv.Quote(name) + " is not valid UTF-8"
	}
	return ""
}
