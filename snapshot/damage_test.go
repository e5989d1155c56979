package snapshot_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"strconv"
	"strings"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/snapshot"
)

// fixCRC recomputes a binary save's checksum after a test changed it, so
// that the loader meets the change itself rather than the checksum.
func fixCRC(b []byte) []byte {
	n := len(b) - 4
	binary.LittleEndian.PutUint32(b[n:], crc32.ChecksumIEEE(b[:n]))
	return b
}

func le64(id ecs.EntityID) []byte { return binary.LittleEndian.AppendUint64(nil, uint64(id)) }

// replaceOnce returns b with the first old replaced by new, and fails t
// if b holds no old.
func replaceOnce(t *testing.T, b, old, new []byte) []byte {
	t.Helper()
	if !bytes.Contains(b, old) {
		t.Fatalf("the save holds no %q", old)
	}
	return bytes.Replace(bytes.Clone(b), old, new, 1)
}

// loadTarget is a world that a failed load must leave as it was: it has a
// unique and has had no entity.
func loadTarget(t *testing.T) *ecs.World {
	w := ecs.NewWorld()
	must(t, ecs.AddUnique(w, Score{Points: -1}))
	return w
}

func TestLoadRefusesDamage(t *testing.T) {
	r := newRegistry(t)
	w := buildWorld(t)
	st := stateOf(t, w)
	pos := st.Pos.IDs
	bin := save(t, r, w, &snapshot.SaveOptions{Format: snapshot.Binary})
	js := save(t, r, w, nil)

	// The pos section: its length, its count, its first id.
	n := len(pos)
	secLen := binary.AppendUvarint(nil, uint64(1+24*n))
	head := append(append(bytes.Clone(secLen), byte(n)), le64(pos[0])...)
	longer := append(binary.AppendUvarint(nil, uint64(1+24*n+1000)), head[len(secLen):]...)
	shorter := append(binary.AppendUvarint(nil, uint64(24*n)), head[len(secLen):]...)
	ids01 := append(le64(pos[0]), le64(pos[1])...)
	dup := append(le64(pos[0]), le64(pos[0])...)
	stale := append(le64(pos[0]), le64(ecs.NewEntityID(pos[1].Index(), 7))...)

	cases := []struct {
		name   string
		data   []byte
		kind   error
		offset bool // the error gives a byte offset
		entity ecs.EntityID
		typ    string
	}{
		{"binary newer version", fixCRC(replaceOnce(t, bin, []byte("SLPWSAVE\x01"), []byte("SLPWSAVE\x02"))), snapshot.ErrVersion, true, ecs.NullID, ""},
		{"binary bad magic", append([]byte("SLPWSAVX"), bin[8:]...), snapshot.ErrFormat, true, ecs.NullID, ""},
		{"binary length too long", fixCRC(replaceOnce(t, bin, head, longer)), snapshot.ErrTruncated, true, ecs.NullID, "pos"},
		// The next section's length is read from inside this one.
		{"binary length too short", fixCRC(replaceOnce(t, bin, head, shorter)), snapshot.ErrTruncated, true, ecs.NullID, "name"},
		{"binary duplicate id", fixCRC(replaceOnce(t, bin, ids01, dup)), snapshot.ErrDuplicateID, true, pos[0], "pos"},
		{"binary dead id", fixCRC(replaceOnce(t, bin, ids01, stale)), snapshot.ErrDeadEntity, true, ecs.NewEntityID(pos[1].Index(), 7), "pos"},
		{"binary checksum", func() []byte { b := bytes.Clone(bin); b[len(b)-10] ^= 1; return b }(), snapshot.ErrCorrupt, true, ecs.NullID, ""},
		{"binary trailing bytes", fixCRC(append(bytes.Clone(bin[:len(bin)-4]), 0, 0, 0, 0, 0)), snapshot.ErrCorrupt, true, ecs.NullID, ""},
		{"empty", nil, snapshot.ErrTruncated, true, ecs.NullID, ""},
		{"not a save", []byte("hello"), snapshot.ErrFormat, true, ecs.NullID, ""},
		{"json newer version", bytes.Replace(js, []byte(`"version":1`), []byte(`"version":2`), 1), snapshot.ErrVersion, true, ecs.NullID, ""},
		{"json other format", bytes.Replace(js, []byte(`slipway-save`), []byte(`something`), 1), snapshot.ErrFormat, true, ecs.NullID, ""},
		{"json duplicate id", bytes.Replace(js, []byte(`"ids":[`+idList(pos[:2])), []byte(`"ids":[`+idList([]ecs.EntityID{pos[0], pos[0]})), 1), snapshot.ErrDuplicateID, false, pos[0], "pos"},
		{"json bad value", bytes.Replace(js, []byte(`"X":0,`), []byte(`"X":"zero",`), 1), snapshot.ErrCorrupt, false, ecs.NullID, "pos"},
		{"json slot too large", bytes.Replace(js, []byte(`"slots":[`), []byte(`"slots":[99999999999,`), 1), snapshot.ErrCorrupt, true, ecs.NullID, ""},
		{"json free list wrong", bytes.Replace(js, []byte(`"free":[`), []byte(`"free":[0,`), 1), snapshot.ErrCorrupt, false, ecs.NullID, ""},
		{"json syntax", bytes.Replace(js, []byte(`"types":[`), []byte(`"types":[[`), 1), snapshot.ErrCorrupt, true, ecs.NullID, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			target := loadTarget(t)
			before := stateOf(t, target)
			err := r.LoadInto(target, bytes.NewReader(c.data), nil)
			se := errorsIs(t, err, c.kind)
			if c.offset && se.Offset < 0 {
				t.Errorf("%v: no byte offset", err)
			}
			if se.Entity != c.entity {
				t.Errorf("%v: entity %v, want %v", err, se.Entity, c.entity)
			}
			if c.typ != "" && se.Type != c.typ {
				t.Errorf("%v: type %q, want %q", err, se.Type, c.typ)
			}
			sameState(t, "target after a refused load", stateOf(t, target), before)
		})
	}
}

func idList(ids []ecs.EntityID) string {
	var b []byte
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendUint(b, uint64(id), 10)
	}
	return string(b)
}

// Every prefix of a save is refused as truncated, and changes nothing.
func TestLoadRefusesEveryPrefix(t *testing.T) {
	r := newRegistry(t)
	for _, f := range formats {
		data := save(t, r, buildWorld(t), &snapshot.SaveOptions{Format: f})
		target := loadTarget(t)
		before := stateOf(t, target)
		for n := range len(data) {
			if f == snapshot.JSON && strings.TrimSpace(string(data[:n])) == strings.TrimSpace(string(data)) {
				continue // the whole document, less its final newline
			}
			err := r.LoadInto(target, bytes.NewReader(data[:n]), nil)
			if !errors.Is(err, snapshot.ErrTruncated) {
				t.Fatalf("%v save cut to %d of %d bytes: %v, want ErrTruncated", f, n, len(data), err)
			}
		}
		sameState(t, "target after truncated loads", stateOf(t, target), before)
	}
}

func TestLoadUnknownType(t *testing.T) {
	full := newRegistry(t)
	var small snapshot.Registry
	must(t, snapshot.Register[Pos](&small, "pos"))
	must(t, snapshot.RegisterUnique[Score](&small, "score"))
	w := buildWorld(t)
	for _, f := range formats {
		data := save(t, full, w, &snapshot.SaveOptions{Format: f})
		_, err := small.Load(bytes.NewReader(data), nil)
		if se := errorsIs(t, err, snapshot.ErrUnknownType); se.Type != "name" {
			t.Fatalf("%v: %v, want the first unknown type, name", f, err)
		}
		w2, err := small.Load(bytes.NewReader(data), &snapshot.LoadOptions{SkipUnknown: true})
		must(t, err)
		got, want := stateOf(t, w2), stateOf(t, w)
		if len(got.Name.IDs) != 0 || !equalIDs(got.Pos.IDs, want.Pos.IDs) || *got.Score != *want.Score {
			t.Fatalf("%v: skipping unknown types loaded %+v", f, got)
		}
	}
}

func equalIDs(a, b []ecs.EntityID) bool { return string(le64s(a)) == string(le64s(b)) }

func le64s(ids []ecs.EntityID) []byte {
	var b []byte
	for _, id := range ids {
		b = append(b, le64(id)...)
	}
	return b
}
