package snapshot

import (
	"errors"
	"io"
	"reflect"
	"slices"
	"strconv"

	"github.com/slipway-ecs/slipway/ecs"
)

// Format is a save's encoding.
type Format uint8

const (
	// JSON is the readable format: one JSON document (see the package
	// documentation for its shape), each type's values encoded by its
	// JSON codec.
	JSON Format = iota
	// Binary is the compact format: a header, length-prefixed sections
	// and a CRC-32 checksum, each type's values encoded by its binary
	// codec.
	Binary
)

// String returns "JSON" or "Binary".
func (f Format) String() string {
	switch f {
	case JSON:
		return "JSON"
	case Binary:
		return "Binary"
	}
	return "Format(" + strconv.Itoa(int(f)) + ")"
}

// Version is the format version this package writes, and the newest it
// reads.
const Version = 1

// What a save holds besides its types' sections.
const (
	entNone = 0 // no entities section: one storage alone (SaveStorage)
	entFull = 1 // the entities storage: slots and free list
)

// file is a save's contents in either format: what Save writes, and what
// Load reads before it changes any world.
type file struct {
	ents     int // entNone or entFull
	state    ecs.EntitiesState
	sections []section
	entsAt   int64 // where the entities section starts in the input
}

// section is one type's part of a save.
type section struct {
	name   string
	unique bool
	ids    []ecs.EntityID // a component's entities, in storage order
	n      int            // the number of values (len(ids), or 1 for a unique)
	raw    []byte         // the values, as the type's codec wrote them
	check  bool           // Save checks raw is one JSON value (a codec of the type's own)
	at     int64          // where the section starts in the input
	rawAt  int64          // where raw starts in the input
}

// SaveOptions choose a save's format and what it holds. The zero value
// saves everything registered, in JSON.
type SaveOptions struct {
	// Format is the encoding: JSON (the default) or Binary.
	Format Format
	// Types, if not nil, restricts the save to the registered types of
	// these names (components and uniques); others are not saved. The
	// entities storage is saved whole all the same.
	Types []string
	// Entities, if not nil, restricts the save to these entities and
	// their components of the saved types. The other entities are saved
	// as if deleted, in index order: dead, their generations bumped and
	// their indices on the free list, so that their ids stay dead in the
	// loaded world and no new entity takes one of them. Every id must be
	// alive.
	Entities []ecs.EntityID
}

// Save writes w to dst: the entities storage (every id, generation and the
// free list), the storage of every registered component type, and every
// registered unique the world has.
//
// Storages of types not registered are skipped: a save holds exactly what
// r names, so that a world can keep run-time state (caches, handles) out
// of its saves. [Registry.Load] refuses a save that names a type r does
// not know, unless told to skip it.
//
// Save borrows the storages it reads and the entities storage shared, all
// at once, so that they are saved in one consistent state, then reads
// each unique in turn. If any of them is held exclusively elsewhere, it
// returns an error wrapping [ErrBusy] and the [*ecs.BorrowError]. Components of entities deleted
// with DeleteUnchecked and not purged yet are not saved. Errors from dst,
// and from codecs, are returned wrapped in an [*Error]; dst may then hold
// part of a save.
func (r *Registry) Save(w *ecs.World, dst io.Writer, opts *SaveOptions) error {
	const op = "Save"
	if r == nil || w == nil || dst == nil {
		return fail(op, -1, "", ErrRegistry, "the *Registry, the *World and the io.Writer must not be nil", nil)
	}
	var o SaveOptions
	if opts != nil {
		o = *opts
	}
	if o.Format != JSON && o.Format != Binary {
		return fail(op, -1, "", ErrRegistry, "unknown format "+o.Format.String(), nil)
	}
	entries, err := r.selected(op, o.Types)
	if err != nil {
		return err
	}
	f, err := collect(op, w, entries, o)
	if err != nil {
		return err
	}
	return write(op, dst, f, o.Format)
}

// SaveStorage writes the storage of T alone, with its ids, in format f:
// Shipyard's entity-less form, for sending or keeping one storage. T must
// be a registered component type. [Registry.LoadStorage] adds it to the
// live entities of a world.
func SaveStorage[T any](r *Registry, w *ecs.World, dst io.Writer, f Format) error {
	const op = "SaveStorage"
	if r == nil || w == nil || dst == nil {
		return fail(op, -1, "", ErrRegistry, "the *Registry, the *World and the io.Writer must not be nil", nil)
	}
	t := reflect.TypeFor[T]()
	r.mu.RLock()
	e := r.byType[t]
	r.mu.RUnlock()
	if e == nil || e.unique {
		return fail(op, -1, "", ErrUnknownType, t.String()+" is not a registered component type", nil)
	}
	if f != JSON && f != Binary {
		return fail(op, -1, "", ErrRegistry, "unknown format "+f.String(), nil)
	}
	fl, err := collect(op, w, []*entry{e}, SaveOptions{Format: f})
	if err != nil {
		return err
	}
	fl.ents = entNone
	return write(op, dst, fl, f)
}

// selected returns the entries named, in registration order, or all.
func (r *Registry) selected(op string, names []string) ([]*entry, error) {
	all := r.entries()
	if names == nil {
		return all, nil
	}
	want := make(map[string]bool, len(names))
	for _, n := range names {
		if r.lookup(n) == nil {
			return nil, fail(op, -1, n, ErrUnknownType, "SaveOptions.Types names a type not registered", nil)
		}
		want[n] = true
	}
	return slices.DeleteFunc(all, func(e *entry) bool { return !want[e.name] }), nil
}

// collect reads what a save of entries holds from w, under one borrow.
func collect(op string, w *ecs.World, entries []*entry, o SaveOptions) (*file, error) {
	f := &file{ents: entFull}
	var views []any
	var comps []*entry
	for _, e := range entries {
		if !e.unique {
			views = append(views, e.newView())
			comps = append(comps, e)
		}
	}
	release, err := w.Borrow(views...)
	if err != nil {
		return nil, fail(op, -1, "", ErrBusy, "cannot borrow the storages to save", err)
	}
	defer release()
	if err := w.EntitiesState(&f.state); err != nil {
		return nil, fail(op, -1, "", ErrBusy, "cannot read the entities storage", err)
	}
	alive := f.state.IsAlive
	keep := alive
	if o.Entities != nil {
		chosen := make(map[ecs.EntityID]bool, len(o.Entities))
		for _, id := range o.Entities {
			if !alive(id) {
				return nil, &Error{Op: op, Offset: -1, Entity: id, Reason: "SaveOptions.Entities names an entity that is not alive", Kind: ErrDeadEntity}
			}
			if chosen[id] {
				return nil, &Error{Op: op, Offset: -1, Entity: id, Reason: "SaveOptions.Entities names the entity twice", Kind: ErrDuplicateID}
			}
			chosen[id] = true
		}
		keep = func(id ecs.EntityID) bool { return chosen[id] }
		// The others are saved as if deleted, in index order.
		for i, v := range f.state.Slots {
			id, live := f.state.ID(i)
			if !live || chosen[id] {
				continue
			}
			if g := v &^ ecs.SlotAlive; g < ecs.MaxGeneration {
				f.state.Slots[i] = g + 1
				f.state.Free = append(f.state.Free, uint32(i))
			} else {
				f.state.Slots[i] = g // retired
			}
		}
	}
	for i, e := range comps {
		k := keep
		if o.Entities == nil && !slices.ContainsFunc(e.ids(views[i]), func(id ecs.EntityID) bool { return !alive(id) }) {
			k = nil // every component is an entity's: no copy, no test
		}
		ids, raw, err := e.encode(views[i], o.Format, k, nil, nil)
		if err != nil {
			return nil, fail(op, -1, e.name, ErrCodec, "the codec cannot encode the components", err)
		}
		f.sections = append(f.sections, section{name: e.name, ids: ids, n: len(ids), raw: raw, check: e.ownJSON})
	}
	release()
	for _, e := range entries {
		if !e.unique {
			continue
		}
		raw, ok, err := e.encodeUnique(w, o.Format, nil)
		if err != nil {
			return nil, fail(op, -1, e.name, busyOr(err, ErrCodec), "cannot read or encode the unique", err)
		}
		if ok {
			f.sections = append(f.sections, section{name: e.name, unique: true, n: 1, raw: raw, check: e.ownJSON})
		}
	}
	// Sections in registration order, uniques among components.
	order := make(map[string]int, len(entries))
	for i, e := range entries {
		order[e.name] = i
	}
	slices.SortStableFunc(f.sections, func(a, b section) int { return order[a.name] - order[b.name] })
	return f, nil
}

// write encodes f in format ft to dst.
func write(op string, dst io.Writer, f *file, ft Format) error {
	var b []byte
	if ft == Binary {
		b = appendBinary(nil, f)
	} else {
		var err error
		if b, err = appendJSON(nil, f); err != nil {
			return fail(op, -1, "", ErrCodec, "a codec wrote invalid JSON", err)
		}
	}
	if _, err := dst.Write(b); err != nil {
		return fail(op, -1, "", ErrIO, "cannot write the save", err)
	}
	return nil
}

func errorsIsMissing(err error) bool { return errors.Is(err, ecs.ErrMissingUnique) }
