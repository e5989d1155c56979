// Package snapshot saves Slipway worlds to files and loads them back,
// keeping every EntityID: ids stored inside components (hierarchy links,
// targets) stay valid, and the next ids a loaded world creates are those
// the saved world would have created.
//
// A [Registry] names what a save holds: each component type ([Register])
// and unique type ([RegisterUnique]) under a stable name of its own, so
// that renaming a Go type does not break old saves, with a codec per
// format. Types not registered are not saved; a save naming a type the
// loading registry does not know is refused ([ErrUnknownType]) unless
// [LoadOptions.SkipUnknown] is set.
//
//	var reg snapshot.Registry
//	snapshot.Register[Pos](&reg, "pos")
//	snapshot.RegisterUnique[Score](&reg, "score")
//	err := reg.Save(w, file, &snapshot.SaveOptions{Format: snapshot.Binary})
//	…
//	w2, err := reg.Load(file, nil)
//
// # Formats
//
// [JSON], the default, is a readable document; [Binary] is compact and
// checksummed. Both carry a header with the format [Version] and the list
// of types. Load tells them apart by their first bytes.
//
// Each type's values are encoded by its codec: by default encoding/json
// ([JSONCodec]) and a little-endian layout ([BinaryCodec]); a type can
// register its own ([Codecs]). Register refuses a type a default codec
// would not bring back intact (an unexported field, a map in the binary
// format, …) and names the field.
//
// # Partial saves
//
// [SaveOptions.Types] saves some types only, [SaveOptions.Entities] some
// entities only (recreated under their ids at load), and [SaveStorage]
// one storage alone with its ids, which [Registry.LoadStorage] gives to
// the live entities of a world.
//
// # Damage
//
// Loading is all or nothing, and never trusts the input: a newer version,
// an unknown type, a truncated input, a corrupt length or checksum, a
// duplicate or dead id, or a value a codec refuses each give an [*Error]
// naming what is wrong and where (byte offset, type, entity), and leave
// the target world unchanged. No length in a save makes the loader
// allocate more than the input's size justifies.
//
// # Rollback
//
// For snapshots kept in memory, every frame, with no codec, use
// [ecs.Snapshot] ([ecs.World.SnapshotTo], [ecs.World.Restore]) and
// [ecs.World.Clone].
package snapshot
