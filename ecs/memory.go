package ecs

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// StorageMemory is the memory one storage uses.
type StorageMemory struct {
	Type       string // the component type, e.g. "main.Pos"
	Components int    // how many components it holds
	Pages      int    // sparse pages allocated (each maps 1024 entity indices)
	// UsedBytes is what the components need: their data and ids in the dense
	// arrays, the sparse pages in use, and the tracking information (the
	// timestamps and the deletion and removal logs) of a tracked type. For
	// a component storage it is the sum of the four fields below, which
	// the entities storage leaves at zero.
	UsedBytes int
	// DataBytes is the components themselves: Components times the size
	// of the type.
	DataBytes int
	// IDBytes is the dense array of entity ids: 8 bytes per component.
	IDBytes int
	// PageBytes is the sparse pages: 8 KiB for each page, which maps
	// 1,024 entity indices.
	PageBytes int
	// TrackingBytes is the tracking information of a tracked type, 0 for
	// others.
	TrackingBytes int
	// AllocatedBytes is what is allocated: dense arrays at their capacity,
	// every allocated page, and the page table.
	AllocatedBytes int
}

// MemoryReport is the memory a world's storages use: see
// [World.MemoryUsage].
type MemoryReport struct {
	Storages []StorageMemory // sorted by type name
	// Entities is the entities storage: live and free slots, and the
	// memory of the list of ids [EntitiesViewMut.DeleteUnchecked] killed
	// (empty here: the report's borrow purges it first).
	Entities StorageMemory
	// UsedBytes and AllocatedBytes add up the storages and the entities.
	UsedBytes, AllocatedBytes int
}

// String prints the report as a table.
func (r MemoryReport) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-32s %12s %6s %14s %14s\n", "storage", "components", "pages", "used bytes", "allocated")
	for _, s := range append(slices.Clone(r.Storages), r.Entities) {
		fmt.Fprintf(&b, "%-32s %12d %6d %14d %14d\n", s.Type, s.Components, s.Pages, s.UsedBytes, s.AllocatedBytes)
	}
	fmt.Fprintf(&b, "%-32s %12s %6s %14d %14d\n", "total", "", "", r.UsedBytes, r.AllocatedBytes)
	return b.String()
}

// MemoryUsage reports, per storage, how much memory is used and how much is
// allocated. It borrows all storages for the call, like a World-level change
// (and so purges first what [EntitiesViewMut.DeleteUnchecked] left behind).
func (w *World) MemoryUsage() (MemoryReport, error) {
	w, locked, err := beginWrite(w)
	if err != nil {
		return MemoryReport{}, err
	}
	defer endWrite(w, locked)
	var r MemoryReport
	for _, s := range w.comps.all() {
		m := s.memory()
		r.Storages = append(r.Storages, m)
		r.UsedBytes += m.UsedBytes
		r.AllocatedBytes += m.AllocatedBytes
	}
	slices.SortFunc(r.Storages, func(a, b StorageMemory) int { return strings.Compare(a.Type, b.Type) })
	e := &w.ents
	r.Entities = StorageMemory{
		Type:           "entities",
		Components:     e.live,
		UsedBytes:      len(e.slots)*4 + len(e.free)*4,
		AllocatedBytes: cap(e.slots)*4 + cap(e.free)*4 + cap(e.unpurged)*8,
	}
	r.UsedBytes += r.Entities.UsedBytes
	r.AllocatedBytes += r.Entities.AllocatedBytes
	return r, nil
}

// ShrinkToFit releases memory the world holds but does not use: spare
// capacity of every storage's arrays, sparse pages that no longer map any
// entity, spare capacity of the entities storage, and the working memory
// of the bulk operations. Storages then grow
// again as needed. It borrows all storages for the call.
func (w *World) ShrinkToFit() error {
	w, locked, err := beginWrite(w)
	if err != nil {
		return err
	}
	defer endWrite(w, locked)
	for _, s := range w.comps.all() {
		s.shrink()
	}
	e := &w.ents
	e.slots = fit(e.slots)
	e.free = fit(e.free)
	e.unpurged = fit(e.unpurged) // empty: beginWrite purged it
	w.scratch = bulkScratch{}    // the bulk operations' working memory
	return nil
}

// pageBytes is the size of a sparse page, and wordBytes of a pointer.
var (
	pageBytes = int(reflect.TypeFor[sparsePage]().Size())
	wordBytes = int(reflect.TypeFor[*sparsePage]().Size())
)
