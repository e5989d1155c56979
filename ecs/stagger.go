package ecs

import "unsafe"

// Staggered arrays.
//
// Go's allocator puts every array of 32 KiB or more at the start of a
// page, and a sparse page (8 KiB) in a slot of its own size, so the dense
// arrays of two storages, and their sparse pages, start at addresses that
// are equal modulo 4 KiB. A loop that touches several storages at the same
// position (creating an entity with ten components, a join) then reads and
// writes addresses that are equal in their low 12 bits: they fall in the
// same set of the first-level cache, which holds only a few lines per set,
// and the processor must check each load against the stores in flight to
// the same low bits (4K aliasing). With ten storages, thirty streams
// compete for one cache set: the bench suite's Create10Comp took 75 ns per
// entity at 1,000 entities and 93 at a million without staggering, 46 and
// 56 with it (docs/performance-tips.md, "Many storages at once").
//
// So each storage has a color, given in the order storages are created in
// a world, and its large arrays start a few cache lines past the start of
// their allocation, by an offset that depends on the color: dense arrays
// by 3×color lines, component arrays by 3×color+1. A sparse page starts at
// the line, among the first pageColors of its allocation, whose address is
// color modulo pageColors lines: the allocator's slots for pages start at
// varying offsets, so only the address itself says where the page lands.
// Storages created one after another then use different cache sets at the
// same position.

const (
	lineBytes = 64 // the cache line size of current x86-64 and arm64 chips

	// staggerMin is the smallest array, in bytes, that is staggered.
	// From 32 KiB the allocator places arrays at page starts, and the
	// stagger alone sets their offset modulo 4 KiB; from 4 KiB to 32 KiB
	// they come from size classes whose slots sit at a few offsets (two,
	// for the 10 KiB class), and the stagger spreads them further.
	staggerMin = 4096

	// pageColors is how many colors there are, and so how many page
	// offsets: the start of a page, counted in cache lines, is its
	// storage's color modulo pageColors. A power of two, so that pages of
	// different colors differ modulo 4 KiB (64 lines). A sparse page is
	// allocated in a buffer of pageAllocBytes (9,472: the allocator's
	// size class next to 8 KiB, 1,280 bytes more than the page, room for
	// pageColors-1 lines before it).
	pageColors     = 16
	pageAllocBytes = 9472
	pagePadWords   = (pageAllocBytes - pageBytes) / 8
)

// colorOf returns the color of a world's k-th storage.
func colorOf(k int) uint8 { return uint8(k % pageColors) }

// newPage allocates a sparse page whose address, in cache lines, is the
// storage's color modulo pageColors.
func (s *sparseSet[T]) newPage() *sparsePage {
	buf := make([]uint64, pageSize+pagePadWords)
	line := int(uintptr(unsafe.Pointer(unsafe.SliceData(buf))) / lineBytes)
	off := ((int(s.color) - line) & (pageColors - 1)) * (lineBytes / 8)
	return (*sparsePage)(buf[off : off+pageSize])
}

// padElems returns how many elements of size bytes go before an array of
// c elements staggered by lines cache lines: none for small arrays and
// empty types, and never more than a quarter of the array (the offset
// wraps around within that quarter, so small arrays of neighbouring colors
// still differ).
func padElems(c int, size uintptr, lines int) int {
	bytes := c * int(size)
	if size == 0 || bytes < staggerMin || lines == 0 {
		return 0
	}
	lines %= bytes / 4 / lineBytes
	return (lines*lineBytes + int(size) - 1) / int(size)
}

// staggered returns a copy of s with capacity c (at least len(s)), placed
// lines cache lines into its allocation when it is large enough for that to
// matter.
func staggered[E any](s []E, c, lines int) []E {
	var zero E
	pad := padElems(c, unsafe.Sizeof(zero), lines)
	if pad == 0 {
		// As append grows a slice: the new array is not cleared where s
		// is copied. Its capacity is cut to c, so that allocatedBytes
		// finds the same padding (none).
		return append(s[:len(s):len(s)], make([]E, c-len(s))...)[:len(s):c]
	}
	buf := make([]E, pad+c)
	ns := buf[pad : pad+len(s) : pad+c]
	copy(ns, s)
	return ns
}

// allocatedBytes returns the bytes allocated for an array of cap(s)
// elements staggered by lines, padding included.
func allocatedBytes[E any](s []E, lines int) int {
	var zero E
	size := unsafe.Sizeof(zero)
	return (cap(s) + padElems(cap(s), size, lines)) * int(size)
}

// nextCap returns the capacity a slice of capacity old grows to when it
// needs room for need elements: double up to 256 elements, then a quarter
// more each time (the growth of append), and at least need.
func nextCap(old, need int) int {
	c := old
	if need > 2*c {
		return need
	}
	if c < 256 {
		return max(2*c, need)
	}
	for c < need {
		c += (c + 3*256) / 4
	}
	return c
}

// denseLines and dataLines are the offsets of the storage's dense ids and
// components.
func (s *sparseSet[T]) denseLines() int { return 3 * int(s.color) }
func (s *sparseSet[T]) dataLines() int  { return 3*int(s.color) + 1 }

// reserve makes room for n more components in the dense arrays, growing
// both into staggered arrays if either is short of room.
func (s *sparseSet[T]) reserve(n int) {
	if cap(s.dense)-len(s.dense) >= n && cap(s.data)-len(s.data) >= n {
		return
	}
	c := nextCap(cap(s.dense), len(s.dense)+n)
	s.dense = staggered(s.dense, c, s.denseLines())
	s.data = staggered(s.data, c, s.dataLines())
}

// fitDense moves the dense arrays into arrays of exactly their length (but
// for the stagger), so that spare capacity can be garbage collected.
func (s *sparseSet[T]) fitDense() {
	if len(s.dense) == 0 {
		s.dense, s.data = nil, nil
		return
	}
	if cap(s.dense) != len(s.dense) {
		s.dense = staggered(s.dense, len(s.dense), s.denseLines())
	}
	if cap(s.data) != len(s.data) {
		s.data = staggered(s.data, len(s.data), s.dataLines())
	}
}
