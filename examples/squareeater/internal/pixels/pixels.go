// Package pixels checks screenshots of the game: how many pixels show one
// of its colours.
package pixels

import (
	"image"
	"image/color"
	"image/png"
	"os"
)

// Count returns the number of pixels of img within tol (per channel, 0-255)
// of c. Alpha is ignored: screenshots are opaque.
func Count(img image.Image, c color.RGBA, tol int) int {
	return CountIn(img, img.Bounds(), c, tol)
}

// CountIn is [Count] within the rectangle r of img.
func CountIn(img image.Image, r image.Rectangle, c color.RGBA, tol int) int {
	b := r.Intersect(img.Bounds())
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if near(int(r>>8), int(c.R), tol) && near(int(g>>8), int(c.G), tol) && near(int(bl>>8), int(c.B), tol) {
				n++
			}
		}
	}
	return n
}

// CentreIn returns the centre of the pixels of img within r that are
// within tol of c (the mean of their coordinates, each pixel counted at
// its centre), and how many there are; (0, 0, 0) when there are none.
// For a lone square of colour c, that is the square's centre.
func CentreIn(img image.Image, r image.Rectangle, c color.RGBA, tol int) (x, y float64, n int) {
	b := r.Intersect(img.Bounds())
	var sx, sy float64
	for py := b.Min.Y; py < b.Max.Y; py++ {
		for px := b.Min.X; px < b.Max.X; px++ {
			cr, cg, cb, _ := img.At(px, py).RGBA()
			if near(int(cr>>8), int(c.R), tol) && near(int(cg>>8), int(c.G), tol) && near(int(cb>>8), int(c.B), tol) {
				sx += float64(px) + 0.5
				sy += float64(py) + 0.5
				n++
			}
		}
	}
	if n == 0 {
		return 0, 0, 0
	}
	return sx / float64(n), sy / float64(n), n
}

func near(a, b, tol int) bool { return a-b <= tol && b-a <= tol }

// Load decodes the PNG file at path.
func Load(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return png.Decode(f)
}
