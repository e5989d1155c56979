package game

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGridFindsEveryNeighbour compares moveFriends' grid with the guide's
// loop over every pair, on random friends: sparse and crowded, at the
// window's edges, of every size. It also checks, to the last bit, that the
// grid sums the pushes in the order of a plain walk over its pairs
// (pushInCellOrder), which keeps the game the same whatever pushAll does
// to find the neighbours faster.
func TestGridFindsEveryNeighbour(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var g friendGrid
	for round := range 200 {
		n := 1 + r.IntN(300)
		spread := []float64{1, 0.3, 0.05}[round%3] // crowd them sometimes
		data := make([]Friend, n)
		for i := range data {
			size := InitSize + r.Float64()*(MaxSize-InitSize)
			if r.IntN(4) == 0 {
				size = MaxSize
			}
			x := clamp((0.5+(r.Float64()-0.5)*spread)*Width-size/2, 0, Width-size)
			y := clamp((0.5+(r.Float64()-0.5)*spread)*Height-size/2, 0, Height-size)
			if r.IntN(10) == 0 { // against an edge
				x = []float64{0, Width - size}[r.IntN(2)]
			}
			data[i] = Friend{Square{X: x, Y: y, Size: size}}
		}
		g.build(data)
		g.pushAll()
		want := pushInCellOrder(&g)
		for i := range data {
			f := data[i]
			cx, cy := f.Center()
			var wx, wy float64
			for _, o := range data {
				ox, oy := o.Center()
				if (cx-ox)*(cx-ox)+(cy-oy)*(cy-oy) < f.Size*f.Size/1.5 {
					wx += f.X - o.X
					wy += f.Y - o.Y
				}
			}
			gx, gy := g.push[i].x, g.push[i].y
			if math.Abs(gx-wx) > 1e-6 || math.Abs(gy-wy) > 1e-6 {
				t.Fatalf("round %d, friend %d of %d at %+v: grid push (%v, %v), every pair gives (%v, %v)", round, i, n, f.Square, gx, gy, wx, wy)
			}
			if g.push[i] != want[i] {
				t.Fatalf("round %d, friend %d of %d at %+v: grid push %v, walking the pairs in cell order gives %v", round, i, n, f.Square, g.push[i], want[i])
			}
		}
	}
}

// pushInCellOrder returns the pushes pushAll must find, to the last bit:
// it walks the pairs of g's friends in the same order, each pair once from
// the friend that comes first in cell order (the rest of its cell and the
// next one of its row, then the three cells below), and adds the push of
// each pair that are neighbours as it meets them.
func pushInCellOrder(g *friendGrid) []vec {
	push := make([]vec, len(g.sorted))
	for k, a := range g.sorted {
		c := int(g.cell[a.idx])
		gx, gy := c%gridCols, c/gridCols
		var pairs []gridEntry
		pairs = append(pairs, g.sorted[k+1:g.start[c+1]]...)
		if gx+1 < gridCols {
			pairs = append(pairs, g.sorted[g.start[c+1]:g.start[c+2]]...)
		}
		if gy+1 < gridRows {
			row := (gy + 1) * gridCols
			pairs = append(pairs, g.sorted[g.start[row+max(gx-1, 0)]:g.start[row+min(gx+1, gridCols-1)+1]]...)
		}
		for _, b := range pairs {
			dx, dy := a.cx-b.cx, a.cy-b.cy
			d2 := dx*dx + dy*dy
			if d2 < a.r2 {
				push[a.idx].x += a.x - b.x
				push[a.idx].y += a.y - b.y
			}
			if d2 < b.r2 {
				push[b.idx].x += b.x - a.x
				push[b.idx].y += b.y - a.y
			}
		}
	}
	return push
}
