package game

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGridFindsEveryNeighbour compares moveFriends' grid with the guide's
// loop over every pair, on random friends: sparse and crowded, at the
// window's edges, of every size.
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
		}
	}
}
