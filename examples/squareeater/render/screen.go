package render

import (
	"image"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/slipway-ecs/slipway/examples/squareeater/render/scene"
)

// ScreenPainter is a [scene.Painter] that paints on an Ebitengine image
// with filled rectangles and the Go Regular font.
//
// Texts are rasterised on the CPU with golang.org/x/image/font/opentype
// and kept as Ebitengine images, white on transparent, tinted when drawn.
// (Ebitengine's text/v2 package would do the same with a shaping engine
// that doubles the size of the WebAssembly build and of its compile time;
// the game needs neither.)
type ScreenPainter struct {
	// Target is the image painted on; set it before drawing.
	Target *ebiten.Image
	font   *opentype.Font
	faces  map[float64]font.Face
	texts  map[textKey]*ebiten.Image
}

type textKey struct {
	s    string
	size float64
}

// maxTexts bounds the cache of rendered texts: the HUD's numbers change
// every few frames, so old ones are dropped now and then.
const maxTexts = 256

// NewScreenPainter loads the font and returns a painter with no target.
func NewScreenPainter() (*ScreenPainter, error) {
	f, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return nil, err
	}
	return &ScreenPainter{font: f, faces: map[float64]font.Face{}, texts: map[textKey]*ebiten.Image{}}, nil
}

// Fill paints the whole target with c.
func (s *ScreenPainter) Fill(c color.RGBA) { s.Target.Fill(c) }

// Rect paints a filled rectangle.
func (s *ScreenPainter) Rect(x, y, w, h float64, c color.RGBA) {
	vector.DrawFilledRect(s.Target, float32(x), float32(y), float32(w), float32(h), c, false)
}

// Text paints str with its line's top at y, aligned on x.
func (s *ScreenPainter) Text(str string, x, y, size float64, c color.RGBA, align scene.Align) {
	img, err := s.text(str, size)
	if err != nil || img == nil {
		return // a face that cannot be made at this size: nothing to show
	}
	w := float64(img.Bounds().Dx())
	switch align {
	case scene.AlignCenter:
		x -= w / 2
	case scene.AlignRight:
		x -= w
	}
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Translate(float64(int(x)), float64(int(y)))
	op.ColorScale.ScaleWithColor(c)
	s.Target.DrawImage(img, op)
}

// text returns str rendered white at size, from the cache or new.
func (s *ScreenPainter) text(str string, size float64) (*ebiten.Image, error) {
	key := textKey{str, size}
	if img, ok := s.texts[key]; ok {
		return img, nil
	}
	face, ok := s.faces[size]
	if !ok {
		var err error
		face, err = opentype.NewFace(s.font, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			return nil, err
		}
		s.faces[size] = face
	}
	m := face.Metrics()
	w := font.MeasureString(face, str).Ceil()
	h := (m.Ascent + m.Descent).Ceil()
	if w == 0 || h == 0 {
		return nil, nil
	}
	rgba := image.NewRGBA(image.Rect(0, 0, w, h))
	d := font.Drawer{Dst: rgba, Src: image.White, Face: face, Dot: fixed.Point26_6{Y: m.Ascent}}
	d.DrawString(str)
	if len(s.texts) >= maxTexts {
		for k, img := range s.texts {
			img.Deallocate()
			delete(s.texts, k)
		}
	}
	img := ebiten.NewImageFromImage(rgba)
	s.texts[key] = img
	return img, nil
}
