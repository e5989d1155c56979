package pixels

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

func TestCountAndLoad(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 10, 10))
	blue := color.RGBA{0, 121, 241, 255}
	for y := range 3 {
		for x := range 4 {
			img.Set(x, y, blue)
		}
	}
	img.Set(9, 9, color.RGBA{5, 118, 250, 255}) // near blue
	img.Set(8, 9, color.RGBA{0, 228, 48, 255})  // green
	path := filepath.Join(t.TempDir(), "shot.png")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	f.Close()
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := Count(got, blue, 0); n != 12 {
		t.Errorf("exact blue pixels = %d, want 12", n)
	}
	if n := Count(got, blue, 10); n != 13 {
		t.Errorf("blue pixels within 10 = %d, want 13", n)
	}
	if n := Count(got, color.RGBA{0, 228, 48, 255}, 10); n != 1 {
		t.Errorf("green pixels = %d, want 1", n)
	}
	if n := CountIn(got, image.Rect(2, 1, 20, 2), blue, 0); n != 2 {
		t.Errorf("blue pixels in row 1 from x=2 = %d, want 2", n)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.png")); err == nil {
		t.Error("Load of a missing file: no error")
	}
}

func TestCentreIn(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 100, 80))
	blue := color.RGBA{0, 121, 241, 255}
	for y := 20; y < 30; y++ { // a 10×10 square from (40, 20): centre (45, 25)
		for x := 40; x < 50; x++ {
			img.Set(x, y, blue)
		}
	}
	img.Set(90, 5, blue) // outside the rectangle searched
	x, y, n := CentreIn(img, image.Rect(0, 10, 100, 80), blue, 5)
	if x != 45 || y != 25 || n != 100 {
		t.Errorf("CentreIn = (%v, %v), %d pixels; want (45, 25), 100", x, y, n)
	}
	if x, y, n := CentreIn(img, image.Rect(0, 40, 100, 80), blue, 5); n != 0 || x != 0 || y != 0 {
		t.Errorf("CentreIn of a rectangle without blue = (%v, %v), %d; want 0s", x, y, n)
	}
}
