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
