package snapshot

import (
	"bytes"
	"errors"
	"io"
	"strconv"

	"github.com/slipway-ecs/slipway/ecs"
)

// LoadOptions tune a load. The zero value refuses what it does not know.
type LoadOptions struct {
	// SkipUnknown skips the sections of types the registry does not
	// know, instead of refusing the save with [ErrUnknownType]: for a
	// program that dropped a type its old saves still hold.
	SkipUnknown bool
	// RequireAll refuses a save that lacks one of the registry's types
	// (with [ErrMissingType], naming it): for a program that would rather
	// not start from defaults where a save says nothing. A world saved
	// without a unique of a registered type lacks it too.
	RequireAll bool
}

// Contents describes a save, as [Describe] reads it.
type Contents struct {
	Format   Format
	Version  int
	Entities int         // live entities; 0 for a storage alone
	Storage  bool        // a storage alone ([SaveStorage])
	Types    []TypeCount // in the save's order
}

// TypeCount is a type of a save and how many values it holds.
type TypeCount struct {
	Name   string
	Unique bool
	Count  int
}

// Describe reads a save's header and sections from src, checking their
// structure (and, in the binary format, the checksum) but decoding no
// value, and says what the save holds. It needs no registry: it tells a
// program which types a save names before it loads it, and a tool what a
// file is. It returns the errors Load returns for a damaged structure.
func Describe(src io.Reader) (*Contents, error) {
	const op = "Describe"
	if src == nil {
		return nil, fail(op, -1, "", ErrRegistry, "the io.Reader must not be nil", nil)
	}
	f, ft, err := read(op, src)
	if err != nil {
		return nil, err
	}
	c := &Contents{Format: ft, Version: Version, Storage: f.ents == entNone}
	for _, v := range f.state.Slots {
		if v&ecs.SlotAlive != 0 {
			c.Entities++
		}
	}
	for _, s := range f.sections {
		c.Types = append(c.Types, TypeCount{Name: s.name, Unique: s.unique, Count: s.n})
	}
	return c, nil
}

// Load reads a save (either format: it tells them apart by their first
// bytes) from src into a new world, and returns it. See
// [Registry.LoadInto].
func (r *Registry) Load(src io.Reader, opts *LoadOptions) (*ecs.World, error) {
	w := ecs.NewWorld()
	if err := r.loadInto("Load", w, src, opts); err != nil {
		return nil, err
	}
	return w, nil
}

// LoadInto reads a save from src into w, which must never have had an
// entity: a world fresh from [ecs.NewWorld], given its workloads, hooks or
// uniques beforehand if need be. Every entity gets its saved id, the free
// list its saved order (so the next ids created are the saved world's
// next ones), each storage its saved components in their saved order,
// and each saved unique its value (replacing one w has).
//
// Loading is all or nothing. The whole save is read, checked and decoded
// before w changes; if anything is wrong (see the sentinel errors: a
// newer version, an unknown type, a truncated input, a corrupt length or
// checksum, a duplicate or dead id, a value its codec refuses) the error
// is an [*Error] naming what and where (byte offset, type, entity), and
// w is unchanged. If adding the decoded state to w fails (a component
// hook returns an error or panics), w is put back as it was, and the
// error is returned or the panic goes on.
//
// Components are added as [ecs.BulkAddComponent1] adds them, so hooks on
// their types run, and tracked types record insertions. Entity hooks do
// not run: entities are restored, not created.
func (r *Registry) LoadInto(w *ecs.World, src io.Reader, opts *LoadOptions) error {
	return r.loadInto("LoadInto", w, src, opts)
}

func (r *Registry) loadInto(op string, w *ecs.World, src io.Reader, opts *LoadOptions) (err error) {
	if r == nil || w == nil || src == nil {
		return fail(op, -1, "", ErrRegistry, "the *Registry, the *World and the io.Reader must not be nil", nil)
	}
	var o LoadOptions
	if opts != nil {
		o = *opts
	}
	f, ft, err := read(op, src)
	if err != nil {
		return err
	}
	if f.ents == entNone {
		return fail(op, 0, "", ErrFormat, "the save holds one storage alone (SaveStorage): load it with LoadStorage", nil)
	}
	applies, err := r.prepare(op, f, ft, o)
	if err != nil {
		return err
	}
	var st ecs.EntitiesState
	if err := w.EntitiesState(&st); err != nil {
		return fail(op, -1, "", ErrBusy, "cannot read the target world", err)
	}
	if len(st.Slots) != 0 {
		return fail(op, -1, "", ErrNotEmpty, "the target world has had entities; load into a world fresh from ecs.NewWorld", nil)
	}

	// Apply, and put w back as it was on failure or panic.
	var before ecs.Snapshot
	if err := w.SnapshotTo(&before); err != nil {
		return fail(op, -1, "", ErrBusy, "cannot take a snapshot of the target world", err)
	}
	done := false
	defer func() {
		if !done {
			if rerr := w.Restore(&before); rerr != nil && err != nil {
				err = errors.Join(err, rerr)
			}
		}
	}()
	if f.ents == entFull {
		if err := w.SetEntitiesState(f.state); err != nil {
			return fail(op, f.entsAt, "", busyOr(err, ErrCorrupt), "the entities section is inconsistent", err)
		}
	}
	for i, apply := range applies {
		if apply == nil {
			continue // skipped
		}
		if err := apply(w); err != nil {
			s := f.sections[i]
			return fail(op, s.at, s.name, busyOr(err, ErrCorrupt), "cannot add the section to the world", err)
		}
	}
	done = true
	return nil
}

// LoadStorage reads a save of one storage ([SaveStorage]) from src and
// gives its components to w's entities, replacing components of the same
// type they have. Every id must be a live entity of w, and no id may be
// listed twice; otherwise it returns an [*Error] naming the entity, and
// w is unchanged.
func (r *Registry) LoadStorage(w *ecs.World, src io.Reader) error {
	const op = "LoadStorage"
	if r == nil || w == nil || src == nil {
		return fail(op, -1, "", ErrRegistry, "the *Registry, the *World and the io.Reader must not be nil", nil)
	}
	f, ft, err := read(op, src)
	if err != nil {
		return err
	}
	if f.ents != entNone || len(f.sections) != 1 || f.sections[0].unique {
		return fail(op, 0, "", ErrFormat, "not a save of one storage alone (SaveStorage); load a world's save with Load", nil)
	}
	s := f.sections[0]
	var st ecs.EntitiesState
	if err := w.EntitiesState(&st); err != nil {
		return fail(op, -1, "", ErrBusy, "cannot read the target world", err)
	}
	seen := make(map[ecs.EntityID]struct{}, len(s.ids))
	for _, id := range s.ids {
		if _, dup := seen[id]; dup {
			return &Error{Op: op, Offset: s.at, Type: s.name, Entity: id, Reason: "the entity is listed twice", Kind: ErrDuplicateID}
		}
		seen[id] = struct{}{}
		if !st.IsAlive(id) {
			return &Error{Op: op, Offset: s.at, Type: s.name, Entity: id, Reason: "the target world has no such live entity", Kind: ErrDeadEntity}
		}
	}
	applies, err := r.prepare(op, f, ft, LoadOptions{})
	if err != nil {
		return err
	}
	if err := applies[0](w); err != nil {
		return fail(op, s.at, s.name, busyOr(err, ErrCorrupt), "cannot add the components", err)
	}
	return nil
}

// prepare checks f's sections against r and the entities f holds, and
// decodes their values: what adds each section to a world, nil for one
// skipped.
func (r *Registry) prepare(op string, f *file, ft Format, o LoadOptions) ([]func(*ecs.World) error, error) {
	// alive tells whether a component's id is an entity of the save; dup
	// whether it was met before in the section (marks are per section).
	var alive func(ecs.EntityID) bool
	var mark func(ecs.EntityID) bool
	var reset func()
	switch f.ents {
	case entFull:
		alive = f.state.IsAlive
		seen := make([]uint64, (len(f.state.Slots)+63)/64)
		mark = func(id ecs.EntityID) bool {
			i := id.Index()
			dup := seen[i/64]&(1<<(i%64)) != 0
			seen[i/64] |= 1 << (i % 64)
			return dup
		}
		reset = func() { clear(seen) }
	default: // one storage alone: its ids are checked against the target
		alive = func(ecs.EntityID) bool { return true }
		mark = func(ecs.EntityID) bool { return false }
		reset = func() {}
	}
	if o.RequireAll {
		saved := make(map[string]bool, len(f.sections))
		for _, s := range f.sections {
			saved[s.name] = true
		}
		for _, e := range r.entries() {
			if !saved[e.name] {
				return nil, fail(op, -1, e.name, ErrMissingType, "LoadOptions.RequireAll is set and the save has no section of this type", nil)
			}
		}
	}
	applies := make([]func(*ecs.World) error, len(f.sections))
	for i, s := range f.sections {
		e := r.lookup(s.name)
		if e == nil {
			if o.SkipUnknown {
				continue
			}
			return nil, fail(op, s.at, s.name, ErrUnknownType, "no type is registered under this name (register it, or set LoadOptions.SkipUnknown)", nil)
		}
		if e.unique != s.unique {
			return nil, fail(op, s.at, s.name, ErrCorrupt, "saved as a "+kindWord(s.unique)+", registered as a "+kindWord(e.unique), nil)
		}
		if !s.unique {
			reset()
			for _, id := range s.ids {
				if !alive(id) {
					return nil, &Error{Op: op, Offset: s.at, Type: s.name, Entity: id, Reason: "a component of an entity the save does not hold alive", Kind: ErrDeadEntity}
				}
				if mark(id) {
					return nil, &Error{Op: op, Offset: s.at, Type: s.name, Entity: id, Reason: "the entity has two components in the section", Kind: ErrDuplicateID}
				}
			}
		}
		apply, err := e.decode(ft, s.ids, s.n, s.raw)
		if err != nil {
			return nil, fail(op, s.rawAt, s.name, ErrCorrupt, "the "+ft.String()+" codec refuses the values", err)
		}
		applies[i] = apply
	}
	return applies, nil
}

func kindWord(unique bool) string {
	if unique {
		return "unique"
	}
	return "component"
}

// read reads a save from src and parses it.
func read(op string, src io.Reader) (*file, Format, error) {
	data, err := io.ReadAll(src)
	if err != nil {
		return nil, JSON, fail(op, -1, "", ErrIO, "cannot read the save", err)
	}
	return parse(op, data)
}

// parse tells the format of data by its first bytes and decodes it.
func parse(op string, data []byte) (*file, Format, error) {
	if bytes.HasPrefix(data, []byte(magic)) {
		f, err := parseBinary(op, data)
		return f, Binary, err
	}
	if len(data) < len(magic) && bytes.HasPrefix([]byte(magic), data) {
		return nil, Binary, fail(op, int64(len(data)), "", ErrTruncated, "the input ends inside the binary format's magic", nil)
	}
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		f, err := parseJSON(op, data)
		return f, JSON, err
	}
	if len(data) == 0 {
		return nil, JSON, fail(op, 0, "", ErrTruncated, "the input is empty", nil)
	}
	return nil, JSON, fail(op, 0, "", ErrFormat, "the input starts with neither "+strconv.Quote(magic)+" nor a JSON object", nil)
}
