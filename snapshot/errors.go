package snapshot

import (
	"errors"
	"strconv"
	"strings"

	"github.com/slipway-ecs/slipway/ecs"
)

// Sentinel errors. Every error of this package wraps one of them, so that
// callers can test the kind of failure with [errors.Is] and read the
// details (where, which type, which entity) with [errors.As] on [*Error].
var (
	// ErrFormat: the input is not a Slipway save in either format (its
	// first bytes are neither the binary format's magic nor a JSON
	// object), or its header is malformed.
	ErrFormat = errors.New("not a Slipway save")
	// ErrVersion: the save's format version is newer than this package
	// reads ([Version]).
	ErrVersion = errors.New("unsupported format version")
	// ErrUnknownType: the save holds a type no [Register] call named, and
	// [LoadOptions.SkipUnknown] was not set; or Save was asked for a type
	// name not registered.
	ErrUnknownType = errors.New("unknown type")
	// ErrMissingType: [LoadOptions.RequireAll] is set, and the save lacks
	// a registered type.
	ErrMissingType = errors.New("type missing from the save")
	// ErrTruncated: the input ends before the save does.
	ErrTruncated = errors.New("truncated save")
	// ErrCorrupt: a length, a count, a value or the checksum is not what
	// the rest of the save says it must be.
	ErrCorrupt = errors.New("corrupt save")
	// ErrDuplicateID: an entity is listed twice where ids must be
	// distinct: twice in one component section, or twice among the
	// entities of a partial save.
	ErrDuplicateID = errors.New("duplicate entity id")
	// ErrDeadEntity: a component section names an entity the save's
	// entities section does not hold alive, or a save was asked for an
	// entity that is not alive.
	ErrDeadEntity = errors.New("entity is not alive")
	// ErrRegistry: a registration is refused (an empty or taken name, a
	// type registered twice, a type the default codecs cannot encode),
	// or a nil registry, world, reader or writer was given.
	ErrRegistry = errors.New("invalid registration or argument")
	// ErrNotEmpty: a load target world already has entities. Load into a
	// world fresh from [ecs.NewWorld].
	ErrNotEmpty = errors.New("target world is not empty")
	// ErrBusy: what a Save reads or a Load changes is borrowed elsewhere
	// (a system holds a ViewMut, a World-level change runs on another
	// goroutine). The error wraps the [*ecs.BorrowError] too.
	ErrBusy = errors.New("world borrowed elsewhere")
	// ErrCodec: a codec could not encode a value for a save: encoding/json
	// meets a NaN, or a codec of one's own returns an error. The error
	// wraps the codec's.
	ErrCodec = errors.New("cannot encode a value")
	// ErrIO: reading the input or writing the output failed. The error
	// wraps the io.Reader's or io.Writer's error.
	ErrIO = errors.New("read or write failed")
)

// Error is the error of a Save, Load or registration: what was wrong, and
// where. It wraps one of the sentinel errors above, and the underlying
// error (a codec's, or one of the ecs package's) when there is one.
type Error struct {
	Op     string       // "Save", "Load", "LoadStorage", "Register", …
	Offset int64        // byte offset in the input where the problem was found, or -1
	Type   string       // the registered name of the type concerned, or ""
	Entity ecs.EntityID // the entity concerned, or ecs.NullID
	Reason string       // what is wrong, in words
	Kind   error        // the sentinel error
	Err    error        // the underlying error, or nil
}

// Error formats e as "snapshot: Load: byte 120: type "pos": entity
// EntityID(3.0): reason: underlying error".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("snapshot: ")
	b.WriteString(e.Op)
	if e.Offset >= 0 {
		b.WriteString(": byte ")
		b.WriteString(strconv.FormatInt(e.Offset, 10))
	}
	if e.Type != "" {
		b.WriteString(": type ")
		b.WriteString(strconv.Quote(e.Type))
	}
	if e.Entity != ecs.NullID {
		b.WriteString(": entity ")
		b.WriteString(e.Entity.String())
	}
	b.WriteString(": ")
	b.WriteString(e.Reason)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the sentinel error and the underlying one.
func (e *Error) Unwrap() []error {
	if e.Err != nil {
		return []error{e.Kind, e.Err}
	}
	return []error{e.Kind}
}

// busyOr returns ErrBusy if err is a borrow conflict, and kind otherwise.
func busyOr(err, kind error) error {
	if errors.Is(err, ecs.ErrBorrowConflict) {
		return ErrBusy
	}
	return kind
}

// fail builds an *Error with no entity.
func fail(op string, off int64, typ string, kind error, reason string, err error) *Error {
	return &Error{Op: op, Offset: off, Type: typ, Entity: ecs.NullID, Reason: reason, Kind: kind, Err: err}
}
