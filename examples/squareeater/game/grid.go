package game

// friendGrid is a unique holding moveFriends' scratch space: a uniform grid
// over the window that buckets friends by the cell of their centre, so that
// a friend meets only the friends of the 3×3 cells around its own instead of
// all friends. A cell is at least as wide as the largest neighbour radius
// (MaxSize/√1.5 ≈ 20.4), so no neighbour is missed. The friends are copied
// in cell order, so neighbouring cells of a row are one contiguous run of
// memory, and each pair of friends is looked at once. The slices are reused
// from frame to frame.
type friendGrid struct {
	start []int32 // the friends of cell c are sorted[start[c]:start[c+1]]
	cell  []int32 // the cell of each friend, by friend index
	// sorted holds the friends in cell order (by index within a cell).
	sorted []gridEntry
	push   []vec // the neighbour push of each friend, by friend index
	dirs   []vec // moveFriends' directions, by friend index
}

type gridEntry struct {
	cx, cy float64 // centre
	x, y   float64 // top-left corner
	r2     float64 // squared neighbour radius: Size²/1.5
	idx    int     // friend index
}

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
		g.sorted[g.start[c+1]] = gridEntry{cx: cx, cy: cy, x: f.X, y: f.Y, r2: f.Size * f.Size / 1.5, idx: i}
	}
	copy(g.start[:len(g.start)-1], g.start[1:])
	g.start[len(g.start)-1] = int32(n)
}

// pushAll sets g.push[i], for every friend i, to the sum of (f - neighbour)
// over the friends whose centre is closer to friend i's than its
// size/√1.5: the guide's neighbour_dir, which keeps friends apart. Each pair
// is looked at once, from the friend that comes first in cell order: with
// the rest of its own cell and the next cell of its row (contiguous), and
// with the three cells below.
func (g *friendGrid) pushAll() {
	n := len(g.sorted)
	g.push = resize(g.push, n)
	clear(g.push)
	push, sorted := g.push, g.sorted
	for c := range gridCols * gridRows {
		lo, hi := g.start[c], g.start[c+1]
		if lo == hi {
			continue
		}
		gx, gy := c%gridCols, c/gridCols
		right := g.start[c+1]
		if gx+1 < gridCols {
			right = g.start[c+2]
		}
		var below []gridEntry
		if gy+1 < gridRows {
			row := (gy + 1) * gridCols
			below = sorted[g.start[row+max(gx-1, 0)]:g.start[row+min(gx+1, gridCols-1)+1]]
		}
		for k := lo; k < hi; k++ {
			a := &sorted[k]
			pa := &push[a.idx]
			for _, part := range [2][]gridEntry{sorted[k+1 : right], below} {
				for j := range part {
					b := &part[j]
					dx, dy := a.cx-b.cx, a.cy-b.cy
					d2 := dx*dx + dy*dy
					if d2 < a.r2 {
						pa.x += a.x - b.x
						pa.y += a.y - b.y
					}
					if d2 < b.r2 {
						pb := &push[b.idx]
						pb.x += b.x - a.x
						pb.y += b.y - a.y
					}
				}
			}
		}
	}
}

// resize returns s with length n, reusing its array when it is big enough.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}
