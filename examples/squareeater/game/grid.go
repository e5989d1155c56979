package game

// friendGrid is a unique holding moveFriends' scratch space: a uniform grid
// over the window that buckets friends by the cell of their centre, so that
// each friend looks for neighbours in the 3×3 cells around its own instead
// of among all friends. A cell is at least as wide as the largest
// neighbour radius (MaxSize/√1.5 ≈ 20.4), so no neighbour is missed. The
// friends' coordinates are copied in cell order, so the 3 cells of a row are
// one contiguous run of memory. The slices are reused from frame to frame.
type friendGrid struct {
	start []int32 // the friends of cell c are sorted[start[c]:start[c+1]]
	cell  []int32 // the cell of each friend, by friend index
	// sorted holds the friends' centres and corners in cell order (by
	// friend index within a cell).
	sorted []gridEntry
	dirs   []vec // moveFriends' directions, by friend index
}

type gridEntry struct{ cx, cy, x, y float64 }

const (
	gridCell = 21.0
	gridCols = 39 // ⌊Width/gridCell⌋ + 1: centres go up to Width
	gridRows = 29 // ⌊Height/gridCell⌋ + 1
)

func gridCoord(v float64, n int) int { return min(max(int(v/gridCell), 0), n-1) }

// build buckets data by cell with a counting sort.
func (g *friendGrid) build(data []Friend) {
	n := len(data)
	g.cell = resize(g.cell, n)
	g.sorted = resize(g.sorted, n)
	g.start = resize(g.start, gridCols*gridRows+1)
	clear(g.start)
	for i := range data {
		x, y := data[i].Center()
		c := int32(gridCoord(y, gridRows)*gridCols + gridCoord(x, gridCols))
		g.cell[i] = c
		g.start[c+1]++
	}
	for c := 1; c < len(g.start); c++ {
		g.start[c] += g.start[c-1]
	}
	// start[c+1] is now the end of cell c. Fill each cell from its end,
	// walking friends backwards, so a cell lists its friends by increasing
	// index; start[c+1] ends at the beginning of cell c.
	for i := n - 1; i >= 0; i-- {
		c := g.cell[i]
		g.start[c+1]--
		f := &data[i]
		cx, cy := f.Center()
		g.sorted[g.start[c+1]] = gridEntry{cx, cy, f.X, f.Y}
	}
	copy(g.start[:len(g.start)-1], g.start[1:])
	g.start[len(g.start)-1] = int32(n)
}

// neighbourPush returns the sum of (f - neighbour) over the friends whose
// centre is closer to friend i's than its size/√1.5 (friend i included,
// adding nothing): the guide's neighbour_dir, which keeps friends apart.
func (g *friendGrid) neighbourPush(data []Friend, i int) (float64, float64) {
	f := &data[i]
	r2 := f.Size * f.Size / 1.5
	cx, cy := f.Center()
	c := int(g.cell[i])
	gx, gy := c%gridCols, c/gridCols
	x0, x1 := max(gx-1, 0), min(gx+1, gridCols-1)
	var nx, ny float64
	k := 0
	for y := max(gy-1, 0); y <= min(gy+1, gridRows-1); y++ {
		row := y * gridCols
		for _, e := range g.sorted[g.start[row+x0]:g.start[row+x1+1]] {
			dx, dy := cx-e.cx, cy-e.cy
			if dx*dx+dy*dy < r2 {
				nx += e.x
				ny += e.y
				k++
			}
		}
	}
	return float64(k)*f.X - nx, float64(k)*f.Y - ny
}

// resize returns s with length n, reusing its array when it is big enough.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}
