package game

import (
	"math"
	"slices"
)

// friendGrid is a unique holding moveFriends' scratch space: a uniform grid
// over the window that buckets friends by the cell of their centre, so that
// a friend meets only the friends of the 3×3 cells around its own instead of
// all friends. A cell is at least as wide as the largest neighbour radius
// (MaxSize/√1.5 ≈ 20.4), so no neighbour is missed. The friends are copied
// in cell order, so neighbouring cells of a row are one contiguous run of
// memory, and each pair of friends is looked at once. The slices are reused
// from frame to frame.
type friendGrid struct {
	// start[c] is where the friends of cell c begin in sorted, for every
	// cell up to a row and two cells past the last that holds friends
	// (start[c+1] is where they end).
	start []int32
	cells []int32 // the cells that hold friends, in order
	cell  []int32 // the cell of each friend, by friend index
	// sorted holds the friends in cell order (by index within a cell).
	sorted []gridEntry
	maxR2  float64  // the largest r2 in sorted
	pairs  []uint64 // pushAll's pairs that may be neighbours: a<<32 | b
	push   []vec    // the neighbour push of each friend, by friend index
}

// gridEntry is a friend as pushAll needs it, with its push being summed.
type gridEntry struct {
	cx, cy float64 // centre
	x, y   float64 // top-left corner
	r2     float64 // squared neighbour radius: Size²/1.5
	px, py float64 // the push summed so far
	idx    int     // friend index
}

const (
	gridCell  = 21.0
	gridCols  = 39 // ⌊Width/gridCell⌋ + 1: centres go up to Width
	gridRows  = 29 // ⌊Height/gridCell⌋ + 1
	gridCells = gridCols * gridRows
)

func gridCoord(v float64, n int) int { return min(max(int(v/gridCell), 0), n-1) }

// build buckets data by cell with a counting sort.
func (g *friendGrid) build(data []Friend) {
	n := len(data)
	cell := resize(g.cell, n)
	sorted := resize(g.sorted, n)
	start := resize(g.start, gridCells+1)
	cells := resize(g.cells, gridCells)
	clear(start)
	first, last := int32(gridCells), int32(0) // the cells that hold friends are in [first, last]
	for i := range data {
		x, y := data[i].Center()
		c := int32(gridCoord(y, gridRows)*gridCols + gridCoord(x, gridCols))
		cell[i] = c
		start[c]++
		first, last = min(first, c), max(last, c)
	}
	// Sum the counts up: start[c] becomes the end of cell c. List the cells
	// that hold friends on the way, without branching on it. pushAll reads
	// start up to a row and two cells past the last cell with friends; the
	// cells before the first hold 0, their end.
	sum, m := int32(0), 0
	upto := min(int(last)+gridCols+2, gridCells)
	for c := int(first); c < upto; c++ {
		k := start[c]
		sum += k
		start[c] = sum
		cells[m] = int32(c)
		m += int(uint32(-k) >> 31) // 1 if k > 0
	}
	start[upto] = sum
	// Fill each cell from its end, walking friends backwards, so a cell
	// lists its friends by increasing index; start[c] ends at the beginning
	// of cell c.
	maxR2 := 0.0
	for i := n - 1; i >= 0; i-- {
		c := cell[i]
		start[c]--
		f := &data[i]
		r2 := f.Size * f.Size / 1.5
		maxR2 = max(maxR2, r2)
		e := &sorted[start[c]]
		e.cx, e.cy = f.Center()
		e.x, e.y, e.r2, e.px, e.py, e.idx = f.X, f.Y, r2, 0, 0, i
	}
	g.start, g.cells, g.cell, g.sorted, g.maxR2 = start, cells[:m], cell, sorted, maxR2
}

// pushAll sets g.push[i], for every friend i, to the sum of (f - neighbour)
// over the friends whose centre is closer to friend i's than its
// size/√1.5: the guide's neighbour_dir, which keeps friends apart. Each pair
// is looked at once, from the friend that comes first in cell order: with
// the rest of its own cell and the next cell of its row (contiguous), and
// with the three cells below.
//
// In a crowd, about one pair looked at in three are neighbours, at random:
// a loop that branched on each distance would mispredict often. So a first
// pass, which does not branch on distances, lists the pairs closer than the
// largest neighbour radius (g.pairs, in the order they are looked at); a
// second checks each friend's own radius and adds the pushes of the
// neighbours, in that same order, so every sum is the one a single walk
// over the pairs makes, to the last bit.
func (g *friendGrid) pushAll() {
	sorted, start := g.sorted, g.start
	// Pairs closer than lim may be neighbours (the margin covers any
	// rounding difference in how the first pass computes distances).
	lim := g.maxR2 * (1 + 1e-9)
	pairs := g.pairs[:0]
	for _, c := range g.cells {
		gx, gy := int(c)%gridCols, int(c)/gridCols
		lo, hi := start[c], start[c+1]
		right := hi // the rest of the cell and the next one of its row
		if gx+1 < gridCols {
			right = start[c+2]
		}
		var blo, bhi int32 // the three cells below
		if gy+1 < gridRows {
			row := (gy + 1) * gridCols
			blo, bhi = start[row+max(gx-1, 0)], start[row+min(gx+1, gridCols-1)+1]
		}
		h := int(hi - lo)
		pairs = slices.Grow(pairs, h*(h-1)/2+h*int(right-hi+bhi-blo))
		for a := lo; a < hi; a++ {
			out := pairs[len(pairs):cap(pairs)]
			ax, ay := sorted[a].cx, sorted[a].cy
			m := closer(out, sorted[a+1:right], ax, ay, lim, uint64(a)<<32|uint64(a+1))
			m += closer(out[m:], sorted[blo:bhi], ax, ay, lim, uint64(a)<<32|uint64(blo))
			pairs = pairs[:len(pairs)+m]
		}
	}
	g.pairs = pairs
	for _, p := range pairs {
		a, b := &sorted[p>>32], &sorted[uint32(p)]
		dx, dy := a.cx-b.cx, a.cy-b.cy
		d2 := dx*dx + dy*dy
		if d2 < a.r2 {
			a.px += a.x - b.x
			a.py += a.y - b.y
		}
		if d2 < b.r2 {
			b.px += b.x - a.x
			b.py += b.y - a.y
		}
	}
	g.push = resize(g.push, len(sorted))
	for k := range sorted {
		e := &sorted[k]
		g.push[e.idx] = vec{e.px, e.py}
	}
}

// closer writes to out, in order, the pair base+j for every cand[j] whose
// centre is closer to (ax, ay) than √lim, and returns how many it wrote. It
// does not branch on distances. out must be at least as long as cand.
func closer(out []uint64, cand []gridEntry, ax, ay, lim float64, base uint64) int {
	out = out[:len(cand)]
	m := 0
	for j := range cand {
		b := &cand[j]
		dx, dy := b.cx-ax, b.cy-ay
		out[m] = base + uint64(j)
		m += int(math.Float64bits(dx*dx+dy*dy-lim) >> 63) // the sign bit: 1 if closer
	}
	return m
}

// resize returns s with length n, reusing its array when it is big enough.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}
