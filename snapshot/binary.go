package snapshot

import (
	"encoding/binary"
	"hash/crc32"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/slipway-ecs/slipway/ecs"
)

// The binary format, all integers little-endian, "uvarint" an unsigned
// varint (encoding/binary):
//
//	magic      "SLPWSAVE"
//	version    uvarint (1)
//	entities   uvarint: 0 none (one storage alone), 1 the entities storage
//	types      uvarint count, then per type: a kind byte (0 component,
//	           1 unique), a uvarint name length and the name
//	entities   if 1: uvarint slot count, a uint32 per slot, uvarint
//	           free count, a uint32 per free index (ecs.EntitiesState)
//	sections   one per type, in the header's order: a uvarint length,
//	           then for a component a uvarint count and a uint64 id per
//	           component, and the values as the type's codec wrote them;
//	           for a unique, its value as the codec wrote it
//	checksum   CRC-32 (IEEE) of every byte before it, uint32

const magic = "SLPWSAVE"

func appendBinary(b []byte, f *file) []byte {
	le := binary.LittleEndian
	size := 64 + 4*len(f.state.Slots) + 4*len(f.state.Free)
	for _, s := range f.sections {
		size += 24 + len(s.name) + 8*len(s.ids) + len(s.raw)
	}
	b = slices.Grow(b, size)
	b = append(b, magic...)
	b = binary.AppendUvarint(b, Version)
	b = binary.AppendUvarint(b, uint64(f.ents))
	b = binary.AppendUvarint(b, uint64(len(f.sections)))
	for _, s := range f.sections {
		if s.unique {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
		b = binary.AppendUvarint(b, uint64(len(s.name)))
		b = append(b, s.name...)
	}
	if f.ents == entFull {
		b = binary.AppendUvarint(b, uint64(len(f.state.Slots)))
		for _, v := range f.state.Slots {
			b = le.AppendUint32(b, v)
		}
		b = binary.AppendUvarint(b, uint64(len(f.state.Free)))
		for _, v := range f.state.Free {
			b = le.AppendUint32(b, v)
		}
	}
	for _, s := range f.sections {
		n := len(s.raw)
		if !s.unique {
			n += uvarintLen(uint64(len(s.ids))) + 8*len(s.ids)
		}
		b = binary.AppendUvarint(b, uint64(n))
		if !s.unique {
			b = binary.AppendUvarint(b, uint64(len(s.ids)))
			for _, id := range s.ids {
				b = le.AppendUint64(b, uint64(id))
			}
		}
		b = append(b, s.raw...)
	}
	return le.AppendUint32(b, crc32.ChecksumIEEE(b))
}

func uvarintLen(x uint64) int {
	var buf [binary.MaxVarintLen64]byte
	return binary.PutUvarint(buf[:], x)
}

// binReader reads the binary format from b, at off, and words its
// errors with the offset where they arise.
type binReader struct {
	op  string
	b   []byte
	off int
	typ string // the section being read, for errors
}

func (r *binReader) err(kind error, reason string) *Error {
	return fail(r.op, int64(r.off), r.typ, kind, reason, nil)
}

func (r *binReader) left() int { return len(r.b) - r.off }

func (r *binReader) uvarint(what string) (uint64, error) {
	x, k := binary.Uvarint(r.b[r.off:])
	if k == 0 {
		return 0, r.err(ErrTruncated, "the input ends inside "+what)
	}
	if k < 0 {
		return 0, r.err(ErrCorrupt, what+" overflows 64 bits")
	}
	r.off += k
	return x, nil
}

// count reads a count of items of size bytes each, and refuses one the
// bytes left cannot hold, so that no count allocates more than the input
// justifies.
func (r *binReader) count(what string, size int) (int, error) {
	at := r.off
	n, err := r.uvarint(what)
	if err != nil {
		return 0, err
	}
	if n > uint64(r.left()/size) {
		r.off = at
		return 0, r.err(ErrTruncated, what+" is "+strconv.FormatUint(n, 10)+", more than the "+
			strconv.Itoa(r.left())+" bytes left can hold: the input is truncated or the count is corrupt")
	}
	return int(n), nil
}

func (r *binReader) u32s(n int) []uint32 {
	out := make([]uint32, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(r.b[r.off:])
		r.off += 4
	}
	return out
}

func (r *binReader) ids(n int) []ecs.EntityID {
	out := make([]ecs.EntityID, n)
	for i := range out {
		out[i] = ecs.EntityID(binary.LittleEndian.Uint64(r.b[r.off:]))
		r.off += 8
	}
	return out
}

func parseBinary(op string, data []byte) (*file, error) {
	r := &binReader{op: op, b: data, off: len(magic)}
	v, err := r.uvarint("the version")
	if err != nil {
		return nil, err
	}
	if v == 0 || v > Version {
		r.off = len(magic)
		if v == 0 {
			return nil, r.err(ErrFormat, "version 0")
		}
		return nil, r.err(ErrVersion, "format version "+strconv.FormatUint(v, 10)+" is newer than this package reads ("+strconv.Itoa(Version)+")")
	}
	at := r.off
	mode, err := r.uvarint("the entities mode")
	if err != nil {
		return nil, err
	}
	if mode > entFull {
		r.off = at
		return nil, r.err(ErrCorrupt, "entities mode "+strconv.FormatUint(mode, 10)+" (0 or 1)")
	}
	f := &file{ents: int(mode)}
	nt, err := r.count("the type count", 2)
	if err != nil {
		return nil, err
	}
	names := make(map[string]bool, nt)
	f.sections = make([]section, nt)
	for i := range f.sections {
		s := &f.sections[i]
		s.at = int64(r.off)
		if r.left() < 1 {
			return nil, r.err(ErrTruncated, "the input ends inside the type list")
		}
		switch r.b[r.off] {
		case 0:
		case 1:
			s.unique = true
		default:
			return nil, r.err(ErrCorrupt, "type kind "+strconv.Itoa(int(r.b[r.off]))+" (0 component, 1 unique)")
		}
		r.off++
		n, err := r.count("a type name's length", 1)
		if err != nil {
			return nil, err
		}
		s.name = string(r.b[r.off : r.off+n])
		if !utf8.ValidString(s.name) || n == 0 || n > 255 {
			return nil, r.err(ErrCorrupt, "type name "+strconv.Quote(s.name)+" is empty, too long or not UTF-8")
		}
		if names[s.name] {
			return nil, r.err(ErrCorrupt, "type "+strconv.Quote(s.name)+" is listed twice")
		}
		names[s.name] = true
		r.off += n
	}
	f.entsAt = int64(r.off)
	if f.ents == entFull {
		n, err := r.count("the slot count", 4)
		if err != nil {
			return nil, err
		}
		f.state.Slots = r.u32s(n)
		if n, err = r.count("the free count", 4); err != nil {
			return nil, err
		}
		f.state.Free = r.u32s(n)
	}
	for i := range f.sections {
		s := &f.sections[i]
		r.typ = s.name
		s.at = int64(r.off)
		n, err := r.count("the section's length", 1)
		if err != nil {
			return nil, err
		}
		end := r.off + n
		sub := &binReader{op: op, b: data[:end], off: r.off, typ: s.name}
		if s.unique {
			s.n = 1
		} else {
			k, err := sub.count("the component count", 8)
			if err != nil {
				return nil, err
			}
			s.ids = sub.ids(k)
			s.n = k
		}
		s.rawAt = int64(sub.off)
		s.raw = data[sub.off:end]
		r.off = end
	}
	r.typ = ""
	switch {
	case r.left() < 4:
		return nil, r.err(ErrTruncated, "the input ends before the checksum")
	case r.left() > 4:
		return nil, r.err(ErrCorrupt, strconv.Itoa(r.left()-4)+" bytes after the last section")
	}
	if got, want := crc32.ChecksumIEEE(data[:r.off]), binary.LittleEndian.Uint32(data[r.off:]); got != want {
		return nil, r.err(ErrCorrupt, "checksum mismatch: the save is damaged")
	}
	return f, nil
}
