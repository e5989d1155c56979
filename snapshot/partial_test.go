package snapshot_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/snapshot"
)

func TestSaveSomeTypes(t *testing.T) {
	r := newRegistry(t)
	w := buildWorld(t)
	want := stateOf(t, w)
	for _, f := range formats {
		data := save(t, r, w, &snapshot.SaveOptions{Format: f, Types: []string{"name", "score"}})
		w2, err := r.Load(bytes.NewReader(data), nil)
		must(t, err)
		got := stateOf(t, w2)
		if len(got.Pos.IDs) != 0 || len(got.Tag.IDs) != 0 {
			t.Fatalf("%v: types not asked for were saved: %+v", f, got)
		}
		// Everything asked for, and the entities storage whole.
		want2 := want
		want2.Pos, want2.Tag, want2.Link, want2.Big = got.Pos, got.Tag, got.Link, got.Big
		sameState(t, f.String(), got, want2)
	}
	err := r.Save(w, &bytes.Buffer{}, &snapshot.SaveOptions{Types: []string{"pos", "nope"}})
	if se := errorsIs(t, err, snapshot.ErrUnknownType); se.Type != "nope" {
		t.Fatalf("%v: names %q, want nope", err, se.Type)
	}
}

func TestSaveSomeEntities(t *testing.T) {
	r := newRegistry(t)
	for _, f := range formats {
		w := buildWorld(t)
		st := stateOf(t, w)
		keep := []ecs.EntityID{st.Link.IDs[0], st.Big.IDs[0]} // 1 and 4
		data := save(t, r, w, &snapshot.SaveOptions{Format: f, Entities: keep})
		w2, err := r.Load(bytes.NewReader(data), nil)
		must(t, err)
		got := stateOf(t, w2)
		for i := range got.Ents.Slots {
			id, live := got.Ents.ID(i)
			if live != (id == keep[0] || id == keep[1]) {
				t.Fatalf("%v: %v alive %v after a save of %v", f, id, live, keep)
			}
		}
		// The others are dead, one generation on: their old ids stay dead.
		for _, id := range st.Pos.IDs {
			if id != keep[0] && id != keep[1] && w2.IsAlive(id) {
				t.Fatalf("%v: %v, not saved, is alive", f, id)
			}
		}
		if len(got.Pos.IDs) != 2 || len(got.Link.IDs) != 1 || got.Link.Vals[0] != st.Link.Vals[0] || len(got.Big.IDs) != 1 {
			t.Fatalf("%v: components of the saved entities: %+v", f, got)
		}
		if *got.Score != *st.Score {
			t.Fatalf("%v: score %v, want %v", f, *got.Score, *st.Score)
		}
		// No new entity takes the id of one not saved.
		for range 20 {
			id, _ := w2.AddEntity()
			for _, old := range st.Pos.IDs {
				if id == old {
					t.Fatalf("%v: a new entity took the id %v of an entity not saved", f, id)
				}
			}
		}
	}
	w := buildWorld(t)
	dead := ecs.NewEntityID(2, 0)
	err := r.Save(w, &bytes.Buffer{}, &snapshot.SaveOptions{Entities: []ecs.EntityID{dead}})
	if se := errorsIs(t, err, snapshot.ErrDeadEntity); se.Entity != dead {
		t.Fatalf("%v: entity %v, want %v", err, se.Entity, dead)
	}
	one := ecs.NewEntityID(1, 0)
	err = r.Save(w, &bytes.Buffer{}, &snapshot.SaveOptions{Entities: []ecs.EntityID{one, one}})
	errorsIs(t, err, snapshot.ErrDuplicateID)
}

// One storage alone, with its ids: saved from one world, given to the
// same entities of another.
func TestSaveStorageAlone(t *testing.T) {
	r := newRegistry(t)
	for _, f := range formats {
		w := buildWorld(t)
		var b bytes.Buffer
		must(t, snapshot.SaveStorage[Name](r, w, &b, f))
		if f == snapshot.JSON && strings.Contains(b.String(), `"entities"`) {
			t.Fatalf("a storage alone holds the entities: %s", b.String())
		}
		// Into a world holding the same entities (a clone without names).
		w2, err := w.Clone()
		must(t, err)
		var names ecs.ViewMut[Name]
		release, err := w2.Borrow(&names)
		must(t, err)
		names.Clear()
		release()
		must(t, r.LoadStorage(w2, bytes.NewReader(b.Bytes())))
		if got, want := stateOf(t, w2), stateOf(t, w); !equalIDs(got.Name.IDs, want.Name.IDs) {
			t.Fatalf("%v: names on %v, want %v", f, got.Name.IDs, want.Name.IDs)
		}
		// Into a world lacking one of the entities: refused, unchanged.
		w3 := ecs.NewWorld()
		_, err = w3.AddEntity()
		must(t, err)
		err = r.LoadStorage(w3, bytes.NewReader(b.Bytes()))
		errorsIs(t, err, snapshot.ErrDeadEntity)
		if n := len(stateOf(t, w3).Name.IDs); n != 0 {
			t.Fatalf("%v: a refused LoadStorage added %d names", f, n)
		}
		// A world's save is not a storage's, and the other way round.
		errorsIs(t, r.LoadStorage(w2, bytes.NewReader(save(t, r, w, &snapshot.SaveOptions{Format: f}))), snapshot.ErrFormat)
		_, err = r.Load(bytes.NewReader(b.Bytes()), nil)
		errorsIs(t, err, snapshot.ErrFormat)
	}
	errorsIs(t, snapshot.SaveStorage[Score](r, buildWorld(t), &bytes.Buffer{}, snapshot.JSON), snapshot.ErrUnknownType)
	errorsIs(t, snapshot.SaveStorage[int](r, buildWorld(t), &bytes.Buffer{}, snapshot.JSON), snapshot.ErrUnknownType)
}

// A component hook that panics mid-load leaves the target as it was, and
// the panic goes on.
func TestLoadPanicLeavesWorldUnchanged(t *testing.T) {
	r := newRegistry(t)
	data := save(t, r, buildWorld(t), nil)
	target := loadTarget(t)
	must(t, ecs.SetHooks(target, ecs.ComponentHooks[Link]{OnInsert: func(ecs.EntityID, *Link) { panic("hook") }}))
	before := stateOf(t, target)
	func() {
		defer func() {
			if p := recover(); p != "hook" {
				t.Fatalf("recovered %v, want the hook's panic", p)
			}
		}()
		_ = r.LoadInto(target, bytes.NewReader(data), nil)
	}()
	sameState(t, "target after a panicking load", stateOf(t, target), before)
	// Nothing stays borrowed: the world loads once the hook is gone.
	must(t, ecs.SetHooks(target, ecs.ComponentHooks[Link]{}))
	must(t, r.LoadInto(target, bytes.NewReader(data), nil))
}

func TestLoadIntoUsedWorld(t *testing.T) {
	r := newRegistry(t)
	data := save(t, r, buildWorld(t), nil)
	w := ecs.NewWorld()
	id, _ := w.AddEntity()
	must(t, w.DeleteEntity(id))
	errorsIs(t, r.LoadInto(w, bytes.NewReader(data), nil), snapshot.ErrNotEmpty)
}

// Components of entities deleted with DeleteUnchecked, not purged yet,
// are not saved.
func TestSaveSkipsUnpurged(t *testing.T) {
	r := newRegistry(t)
	w := buildWorld(t)
	victim := stateOf(t, w).Pos.IDs[0]
	must(t, w.Run(func(e ecs.EntitiesViewMut) { e.DeleteUnchecked(victim) }))
	w2, err := r.Load(bytes.NewReader(save(t, r, w, &snapshot.SaveOptions{Format: snapshot.Binary})), nil)
	must(t, err)
	for _, id := range stateOf(t, w2).Pos.IDs {
		if id == victim {
			t.Fatal("a deleted entity's component was saved")
		}
	}
}

// A type saved under a name loads into a program where the Go type has
// another name: the saved name is the registered one.
func TestStableNames(t *testing.T) {
	type OldPos struct{ X, Y float64 }
	type NewPos struct{ X, Y float64 }
	var a, b snapshot.Registry
	must(t, snapshot.Register[OldPos](&a, "pos"))
	must(t, snapshot.Register[NewPos](&b, "pos"))
	for _, f := range formats {
		w := ecs.NewWorld()
		id, _ := w.AddEntity()
		must(t, ecs.AddComponent1(w, id, OldPos{1, 2}))
		var buf bytes.Buffer
		must(t, a.Save(w, &buf, &snapshot.SaveOptions{Format: f}))
		w2, err := b.Load(&buf, nil)
		must(t, err)
		if p, err := ecs.Get[NewPos](w2, id); err != nil || p != (NewPos{1, 2}) {
			t.Fatalf("%v: %v, %v", f, p, err)
		}
	}
}

// upperCodec is a custom codec: names as upper-case text, one per line.
type upperCodec struct{}

func (upperCodec) Append(dst []byte, vs []Name) ([]byte, error) {
	for _, v := range vs {
		dst = append(dst, strings.ToUpper(string(v))...)
		dst = append(dst, '\n')
	}
	return dst, nil
}

func (upperCodec) Decode(src []byte, vs []Name) error {
	lines := strings.Split(string(src), "\n")
	if len(lines) != len(vs)+1 || lines[len(vs)] != "" {
		return errors.New("wrong number of lines")
	}
	for i := range vs {
		vs[i] = Name(lines[i])
	}
	return nil
}

func TestCustomCodec(t *testing.T) {
	var r snapshot.Registry
	must(t, snapshot.Register(&r, "name", snapshot.Codecs[Name]{Binary: upperCodec{}}))
	w := ecs.NewWorld()
	id, _ := w.AddEntity()
	must(t, ecs.AddComponent1(w, id, Name("ada")))
	var b bytes.Buffer
	must(t, r.Save(w, &b, &snapshot.SaveOptions{Format: snapshot.Binary}))
	if !bytes.Contains(b.Bytes(), []byte("ADA\n")) {
		t.Fatalf("the custom codec was not used: %q", b.Bytes())
	}
	w2, err := r.Load(&b, nil)
	must(t, err)
	if n, _ := ecs.Get[Name](w2, id); n != "ADA" {
		t.Fatalf("loaded %q", n)
	}
	// The JSON format keeps the default codec.
	b.Reset()
	must(t, r.Save(w, &b, nil))
	if !strings.Contains(b.String(), `"values":["ada"]`) {
		t.Fatalf("JSON save: %s", b.String())
	}
}

type failingIO struct{}

func (failingIO) Write([]byte) (int, error) { return 0, errors.New("disk full") }
func (failingIO) Read([]byte) (int, error)  { return 0, errors.New("disk gone") }

func TestSaveLoadBusyAndIO(t *testing.T) {
	r := newRegistry(t)
	w := buildWorld(t)
	var pos ecs.ViewMut[Pos]
	release, err := w.Borrow(&pos)
	must(t, err)
	err = r.Save(w, &bytes.Buffer{}, nil)
	errorsIs(t, err, snapshot.ErrBusy)
	errorsIs(t, err, ecs.ErrBorrowConflict)
	release()

	data := save(t, r, w, nil)
	target := loadTarget(t)
	before := stateOf(t, target)
	var score ecs.UniqueViewMut[Score]
	release, err = target.Borrow(&score)
	must(t, err)
	errorsIs(t, r.LoadInto(target, bytes.NewReader(data), nil), snapshot.ErrBusy)
	release()
	sameState(t, "target after a busy load", stateOf(t, target), before)

	errorsIs(t, r.Save(w, failingIO{}, nil), snapshot.ErrIO)
	_, err = r.Load(failingIO{}, nil)
	errorsIs(t, err, snapshot.ErrIO)
	errorsIs(t, r.Save(nil, &bytes.Buffer{}, nil), snapshot.ErrRegistry)
	errorsIs(t, r.Save(w, &bytes.Buffer{}, &snapshot.SaveOptions{Format: 9}), snapshot.ErrRegistry)
	_, err = (*snapshot.Registry)(nil).Load(bytes.NewReader(data), nil)
	errorsIs(t, err, snapshot.ErrRegistry)
}

// A registry of uniques only saves no storage, and the entities all the
// same.
func TestUniquesOnly(t *testing.T) {
	var r snapshot.Registry
	must(t, snapshot.RegisterUnique[Score](&r, "score"))
	w := buildWorld(t)
	for _, f := range formats {
		var b bytes.Buffer
		must(t, r.Save(w, &b, &snapshot.SaveOptions{Format: f}))
		w2, err := r.Load(&b, nil)
		must(t, err)
		got, want := stateOf(t, w2), stateOf(t, w)
		if *got.Score != *want.Score || !equalIDs(got.Next, want.Next) || len(got.Pos.IDs) != 0 {
			t.Fatalf("%v: %+v", f, got)
		}
	}
}

// Saves and loads from several goroutines at once, with registrations
// under way: run under -race.
func TestConcurrentSaveLoad(t *testing.T) {
	r := newRegistry(t)
	w := buildWorld(t)
	want := stateOf(t, w)
	done := make(chan error)
	for g := range 4 {
		go func() {
			var err error
			defer func() { done <- err }()
			for i := range 20 {
				f := formats[(g+i)%2]
				var b bytes.Buffer
				if err = r.Save(w, &b, &snapshot.SaveOptions{Format: f}); err != nil {
					return
				}
				var w2 *ecs.World
				if w2, err = r.Load(&b, nil); err != nil {
					return
				}
				if n := w2.EntityCount(); n != len(want.Pos.IDs) {
					err = fmt.Errorf("loaded %d entities, want %d", n, len(want.Pos.IDs))
					return
				}
			}
		}()
	}
	type Extra struct{ N int }
	_ = snapshot.Register[Extra](r, "extra")
	for range 4 {
		must(t, <-done)
	}
}

// A value JSON cannot hold fails the save with ErrCodec, naming the type;
// the binary format keeps it.
func TestSaveNaN(t *testing.T) {
	r := newRegistry(t)
	w := ecs.NewWorld()
	id, _ := w.AddEntity()
	must(t, ecs.AddComponent1(w, id, Pos{X: math.NaN()}))
	if se := errorsIs(t, r.Save(w, &bytes.Buffer{}, nil), snapshot.ErrCodec); se.Type != "pos" {
		t.Fatalf("names %q, want pos", se.Type)
	}
	w2, err := r.Load(bytes.NewReader(save(t, r, w, &snapshot.SaveOptions{Format: snapshot.Binary})), nil)
	must(t, err)
	if p, _ := ecs.Get[Pos](w2, id); !math.IsNaN(p.X) {
		t.Fatalf("loaded %v", p)
	}
}

func TestDescribeAndRequireAll(t *testing.T) {
	r := newRegistry(t)
	w := buildWorld(t)
	for _, f := range formats {
		data := save(t, r, w, &snapshot.SaveOptions{Format: f, Types: []string{"pos", "link", "score"}})
		c, err := snapshot.Describe(bytes.NewReader(data))
		must(t, err)
		want := fmt.Sprint(&snapshot.Contents{Format: f, Version: 1, Entities: 8, Types: []snapshot.TypeCount{
			{Name: "pos", Count: 8}, {Name: "link", Count: 1}, {Name: "score", Unique: true, Count: 1}}})
		if got := fmt.Sprint(c); got != want {
			t.Fatalf("%v: %s, want %s", f, got, want)
		}
		_, err = r.Load(bytes.NewReader(data), &snapshot.LoadOptions{RequireAll: true})
		if se := errorsIs(t, err, snapshot.ErrMissingType); se.Type != "name" {
			t.Fatalf("%v: %v names %q, want the first missing type, name", f, err, se.Type)
		}
		_, err = snapshot.Describe(bytes.NewReader(data[:len(data)-5]))
		errorsIs(t, err, snapshot.ErrTruncated)
	}
	_, err := r.Load(bytes.NewReader(save(t, r, w, nil)), &snapshot.LoadOptions{RequireAll: true})
	must(t, err)
}
