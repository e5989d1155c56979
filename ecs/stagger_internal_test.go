package ecs

import (
	"fmt"
	"slices"
	"testing"
	"unsafe"
)

func TestNextCap(t *testing.T) {
	for _, c := range []struct{ old, need, want int }{
		{0, 1, 1},
		{0, 5, 5},
		{1, 2, 2},
		{4, 5, 8},
		{100, 101, 200},
		{100, 300, 300}, // more than double: exactly what is needed
		{255, 256, 510},
		{256, 257, 256 + (256+768)/4},
		{1000, 1001, 1000 + (1000+768)/4},
		{1000, 1500, 1442 + (1442+768)/4}, // grows by steps until it fits
		{1 << 20, 3 << 20, 3 << 20},
	} {
		if got := nextCap(c.old, c.need); got != c.want {
			t.Errorf("nextCap(%d, %d) = %d, want %d", c.old, c.need, got, c.want)
		}
		if got := nextCap(c.old, c.need); got < c.need {
			t.Errorf("nextCap(%d, %d) = %d, less than needed", c.old, c.need, got)
		}
	}
}

func TestPadElems(t *testing.T) {
	for _, c := range []struct {
		n     int
		size  uintptr
		lines int
		want  int
	}{
		{n: 10, size: 8, lines: 3, want: 0},          // 80 bytes: too small to stagger
		{n: 511, size: 8, lines: 3, want: 0},         // 4,088 bytes: still too small
		{n: 512, size: 8, lines: 3, want: 24},        // 4,096 bytes: 3 lines of 8 ids each
		{n: 1 << 20, size: 0, lines: 3, want: 0},     // empty types take no room
		{n: 1 << 20, size: 8, lines: 0, want: 0},     // color 0
		{n: 1 << 20, size: 16, lines: 57, want: 228}, // 57 lines of 4 components
		{n: 1 << 20, size: 24, lines: 1, want: 3},    // a line is 2.67 components: round up
		{n: 1 << 20, size: 128, lines: 1, want: 1},   // a component larger than a line
		{n: 512, size: 8, lines: 17, want: 8},        // a quarter of 4 KiB is 16 lines: 17 wraps to 1
		{n: 1024, size: 8, lines: 57, want: 200},     // 8 KiB: 32 lines, 57 wraps to 25
	} {
		if got := padElems(c.n, c.size, c.lines); got != c.want {
			t.Errorf("padElems(%d, %d, %d) = %d, want %d", c.n, c.size, c.lines, got, c.want)
		}
		if pad := padElems(c.n, c.size, c.lines); pad*int(c.size) > c.n*int(c.size)/4+int(c.size) {
			t.Errorf("padElems(%d, %d, %d) = %d: more than a quarter of the array", c.n, c.size, c.lines, pad)
		}
	}
}

func TestStaggeredCopies(t *testing.T) {
	for _, lines := range []int{0, 1, 30, 57} {
		for _, n := range []int{0, 3, 600, 5000} {
			s := make([]int64, n, n+2)
			for i := range s {
				s[i] = int64(i * 7)
			}
			c := nextCap(cap(s), n+1)
			got := staggered(s, c, lines)
			pad := padElems(c, 8, lines)
			if len(got) != n || cap(got) != c || !slices.Equal(got, s) {
				t.Fatalf("lines %d, n %d: got len %d cap %d, want len %d cap %d and the same elements", lines, n, len(got), cap(got), n, c)
			}
			if n > 0 && &got[0] == &s[0] {
				t.Fatalf("lines %d, n %d: not a copy", lines, n)
			}
			if a := allocatedBytes(got, lines); a != (c+pad)*8 {
				t.Fatalf("lines %d, n %d: allocatedBytes %d, want %d", lines, n, a, (c+pad)*8)
			}
		}
	}
}

// stagger10 is a world whose ten storages each hold the components of the
// same n entities, created in order. The world's first entity has none,
// so that the others, from index 1 on, are not in the storages' identity
// prefixes: they have sparse entries, on pages.
func stagger10(n int) *World {
	w := NewWorld()
	w.ents.create()
	type (
		C0 struct{ X, Y float64 }
		C1 C0
		C2 C0
		C3 C0
		C4 C0
		C5 C0
		C6 C0
		C7 C0
		C8 C0
		C9 C0
	)
	for range n {
		id := w.ents.create()
		storageFor[C0](w).insert(id, C0{})
		storageFor[C1](w).insert(id, C1{})
		storageFor[C2](w).insert(id, C2{})
		storageFor[C3](w).insert(id, C3{})
		storageFor[C4](w).insert(id, C4{})
		storageFor[C5](w).insert(id, C5{})
		storageFor[C6](w).insert(id, C6{})
		storageFor[C7](w).insert(id, C7{})
		storageFor[C8](w).insert(id, C8{})
		storageFor[C9](w).insert(id, C9{})
	}
	return w
}

// starts returns the addresses of s's dense ids, components and first
// sparse page, and its color.
func (s *sparseSet[T]) starts() (dense, data, page uintptr, color uint8) {
	return uintptr(unsafe.Pointer(&s.dense[0])), uintptr(unsafe.Pointer(&s.data[0])), uintptr(unsafe.Pointer(s.pages[0])), s.color
}

// TestPagesStartAtTheirColor: whatever slot the allocator hands out, a
// sparse page starts at a line start whose number is its storage's color
// modulo pageColors. Allocations of the pages' size class in between
// (kept, so that their slots stay taken) shift the slots the pages get.
func TestPagesStartAtTheirColor(t *testing.T) {
	defer func() { sinkPages, sinkSpacers = nil, nil }()
	for k := range 2*pageColors + 3 {
		s := newSparseSet[struct{ X float64 }]()
		s.color = colorOf(k)
		for p := range 5 {
			sinkSpacers = append(sinkSpacers, make([]uint64, (pageAllocBytes/8)*(p%3)))
			page := s.newPage()
			sinkPages = append(sinkPages, page) // on the heap, as a storage's pages are
			addr := uintptr(unsafe.Pointer(page))
			if addr%lineBytes != 0 {
				t.Fatalf("storage %d, page %d: address %#x is not at a line start", k, p, addr)
			}
			if line := addr / lineBytes; line%pageColors != uintptr(s.color) {
				t.Fatalf("storage %d (color %d), page %d: starts at line %d, %d modulo %d", k, s.color, p, line, line%pageColors, pageColors)
			}
		}
	}
}

// sinkPages and sinkSpacers keep TestPagesStartAtTheirColor's allocations
// reachable from package variables: one that does not escape the test
// could be on the stack, which the allocator's slots say nothing about.
var (
	sinkPages   []*sparsePage
	sinkSpacers [][]uint64
)

// TestStorageArraysAreStaggered checks what staggering is for: the dense
// arrays, component arrays and sparse pages of storages created one after
// another start at different offsets modulo 4 KiB, so that the same
// position in each lands in a different cache set. Sparse pages always
// are (their address sets their offset: TestPagesStartAtTheirColor); the
// arrays are from 32 KiB, where the allocator places them at page
// starts and the stagger alone sets the offset (smaller arrays sit in the
// allocator's size classes, at offsets the stagger only adds to).
func TestStorageArraysAreStaggered(t *testing.T) {
	for _, n := range []int{1000, 5000, 100_000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			w := stagger10(n)
			var dense, data, pages []uintptr
			for k, st := range w.comps.all() {
				d, c, p, color := st.(interface {
					starts() (dense, data, page uintptr, color uint8)
				}).starts()
				if want := colorOf(k); color != want {
					t.Fatalf("storage %d: color %d, want %d", k, color, want)
				}
				dense = append(dense, d%4096)
				data = append(data, c%4096)
				pages = append(pages, p%4096)
			}
			distinct := func(what string, offs []uintptr) {
				sorted := slices.Clone(offs)
				slices.Sort(sorted)
				if len(slices.Compact(sorted)) != len(offs) {
					t.Errorf("%s of the ten storages start at offsets %v modulo 4096: some are equal", what, offs)
				}
			}
			distinct("sparse pages", pages)
			if n*8 >= 32<<10 {
				distinct("dense ids", dense)
			}
			if n*16 >= 32<<10 {
				distinct("components", data)
			}
		})
	}
}

// TestStaggerKeepsContent checks that growth into staggered arrays and a
// shrink keep every component with its entity.
func TestStaggerKeepsContent(t *testing.T) {
	w := NewWorld()
	type P struct{ X, Y float64 }
	s := storageFor[P](w)
	var ids []EntityID
	for i := range 20_000 {
		id := w.ents.create()
		ids = append(ids, id)
		s.insert(id, P{X: float64(i)})
	}
	for i, id := range ids[:15_000] {
		if i%2 == 0 {
			s.deleteID(id)
		}
	}
	s.shrink()
	if cap(s.dense) != len(s.dense) || cap(s.data) != len(s.data) {
		t.Fatalf("after shrink: len %d, caps %d and %d", len(s.dense), cap(s.dense), cap(s.data))
	}
	for i, id := range ids {
		v := s.get(id)
		if want := i >= 15_000 || i%2 == 1; (v != nil) != want || (v != nil && v.X != float64(i)) {
			t.Fatalf("entity %d: got %v, want present=%v with X=%d", i, v, want, i)
		}
	}
	if err := s.layoutError(); err != nil {
		t.Fatal(err)
	}
}
