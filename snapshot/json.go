package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strconv"

	"github.com/slipway-ecs/slipway/ecs"
)

// The JSON format is one object:
//
//	{"format": "slipway-save", "version": 1,
//	 "types": [{"name": "pos", "kind": "component"}, …],
//	 "entities": {"slots": […], "free": […]},   (absent for one storage alone)
//	 "sections": [
//	  {"type": "pos", "ids": [ids], "values": [values]},
//	  {"type": "score", "values": [value]}, …]}
//
// Ids are EntityIDs as numbers (index + generation<<32); slots are
// generations, plus 2147483648 for a live entity (ecs.EntitiesState). Each
// section sits on a line of its own.

const jsonFormat = "slipway-save"

type jsonType struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
}

type jsonEnts struct {
	Slots *[]uint32 `json:"slots"`
	Free  *[]uint32 `json:"free"`
}

type jsonSection struct {
	Type   string          `json:"type"`
	IDs    []ecs.EntityID  `json:"ids,omitempty"`
	Values json.RawMessage `json:"values"`
}

type jsonFile struct {
	Format   string        `json:"format"`
	Version  json.Number   `json:"version"`
	Types    []jsonType    `json:"types"`
	Entities *jsonEnts     `json:"entities"`
	Sections []jsonSection `json:"sections"`
}

func appendJSON(b []byte, f *file) ([]byte, error) {
	// The size, closely: numbers of up to 10 digits for the slots, 20
	// for ids, and a comma each.
	size := 256 + 11*len(f.state.Slots) + 11*len(f.state.Free)
	for _, s := range f.sections {
		size += 64 + 2*len(s.name) + 21*len(s.ids) + len(s.raw)
	}
	b = slices.Grow(b, size)
	b = append(b, `{"format":"slipway-save","version":`...)
	b = strconv.AppendInt(b, Version, 10)
	b = append(b, ",\n\"types\":["...)
	for i, s := range f.sections {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":`...)
		b = strconv.AppendQuote(b, s.name)
		b = append(b, `,"kind":"`...)
		b = append(b, kindWord(s.unique)...)
		b = append(b, `"}`...)
	}
	b = append(b, ']')
	if f.ents == entFull {
		b = append(b, ",\n\"entities\":{\"slots\":"...)
		b = appendNums(b, f.state.Slots)
		b = append(b, `,"free":`...)
		b = appendNums(b, f.state.Free)
		b = append(b, '}')
	}
	b = append(b, ",\n\"sections\":["...)
	for i, s := range f.sections {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n{\"type\":"...)
		b = strconv.AppendQuote(b, s.name)
		if !s.unique {
			b = append(b, `,"ids":`...)
			b = appendNums(b, s.ids)
		}
		if s.check && !json.Valid(s.raw) {
			return nil, errors.New("the values of " + strconv.Quote(s.name) + " are not one JSON value")
		}
		b = append(b, `,"values":`...)
		b = append(b, s.raw...)
		b = append(b, '}')
	}
	return append(b, "]}\n"...), nil
}

// appendNums appends vs as a JSON array of numbers: slots, free indices
// or ids.
func appendNums[N uint32 | ecs.EntityID](b []byte, vs []N) []byte {
	b = append(b, '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendUint(b, uint64(v), 10)
	}
	return append(b, ']')
}

// jsonError words an encoding/json error with its offset.
func jsonError(op string, data []byte, err error) *Error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		if syn.Offset >= int64(len(bytes.TrimRight(data, " \t\r\n"))) {
			return fail(op, syn.Offset, "", ErrTruncated, "the JSON document ends early", err)
		}
		return fail(op, syn.Offset, "", ErrCorrupt, "invalid JSON", err)
	case errors.As(err, &typ):
		return fail(op, typ.Offset, "", ErrCorrupt, "field "+strconv.Quote(typ.Field)+" holds a JSON "+typ.Value+" where a "+typ.Type.String()+" belongs", err)
	}
	return fail(op, -1, "", ErrCorrupt, "invalid JSON", err)
}

func parseJSON(op string, data []byte) (*file, error) {
	// One pass reads the document, the values of each section kept as
	// they are for their codec.
	var jf jsonFile
	uerr := json.Unmarshal(data, &jf)
	if uerr != nil {
		var syn *json.SyntaxError
		if errors.As(uerr, &syn) {
			return nil, jsonError(op, data, uerr)
		}
		// A newer version may be laid out otherwise: its version, if it
		// can be read, is the better error.
		var head struct {
			Format  string      `json:"format"`
			Version json.Number `json:"version"`
		}
		if json.Unmarshal(data, &head) != nil {
			return nil, jsonError(op, data, uerr)
		}
		jf.Format, jf.Version = head.Format, head.Version
	}
	if jf.Format != jsonFormat {
		return nil, fail(op, 0, "", ErrFormat, `"format" is `+strconv.Quote(jf.Format)+", not "+strconv.Quote(jsonFormat), nil)
	}
	v, err := strconv.ParseUint(string(jf.Version), 10, 64)
	switch {
	case err != nil || v == 0:
		return nil, fail(op, 0, "", ErrFormat, `"version" is `+strconv.Quote(string(jf.Version))+", not a version number", nil)
	case v > Version:
		return nil, fail(op, 0, "", ErrVersion, "format version "+strconv.FormatUint(v, 10)+" is newer than this package reads ("+strconv.Itoa(Version)+")", nil)
	case uerr != nil:
		return nil, jsonError(op, data, uerr)
	}
	f := &file{ents: entNone, entsAt: -1}
	if e := jf.Entities; e != nil {
		if e.Slots == nil || e.Free == nil {
			return nil, fail(op, -1, "", ErrCorrupt, `"entities" must hold "slots" and "free"`, nil)
		}
		f.ents, f.state.Slots, f.state.Free = entFull, *e.Slots, *e.Free
	}
	if len(jf.Types) != len(jf.Sections) {
		return nil, fail(op, -1, "", ErrCorrupt, strconv.Itoa(len(jf.Types))+" types in the header, "+strconv.Itoa(len(jf.Sections))+" sections", nil)
	}
	names := make(map[string]bool, len(jf.Types))
	f.sections = make([]section, len(jf.Types))
	for i, t := range jf.Types {
		s, js := &f.sections[i], jf.Sections[i]
		s.name, s.at, s.rawAt = t.Name, -1, -1
		switch {
		case t.Kind == "unique":
			s.unique = true
		case t.Kind != "component":
			return nil, fail(op, -1, t.Name, ErrCorrupt, "kind "+strconv.Quote(t.Kind)+` ("component" or "unique")`, nil)
		}
		if why := validName(t.Name); why != "" {
			return nil, fail(op, -1, t.Name, ErrCorrupt, "type name: "+why, nil)
		}
		if names[t.Name] {
			return nil, fail(op, -1, t.Name, ErrCorrupt, "the type is listed twice", nil)
		}
		names[t.Name] = true
		if js.Type != t.Name {
			return nil, fail(op, -1, t.Name, ErrCorrupt, "section "+strconv.Itoa(i)+" is of type "+strconv.Quote(js.Type)+", where the header lists this type", nil)
		}
		if s.unique {
			if js.IDs != nil {
				return nil, fail(op, -1, t.Name, ErrCorrupt, "a unique's section has ids", nil)
			}
			s.n = 1
		} else {
			s.ids, s.n = js.IDs, len(js.IDs)
		}
		if len(js.Values) == 0 {
			return nil, fail(op, -1, t.Name, ErrCorrupt, `the section has no "values"`, nil)
		}
		s.raw = js.Values
	}
	return f, nil
}
