package render

import (
	"bytes"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
	"golang.org/x/image/font/gofont/goregular"

	"github.com/slipway-ecs/slipway/examples/squareeater/render/scene"
)

// ScreenPainter is a [scene.Painter] that paints on an Ebitengine image (the screen, in Draw) with
// filled rectangles and the Go Regular font.
type ScreenPainter struct {
	// Target is the image painted on; set it before drawing.
	Target *ebiten.Image
	source *text.GoTextFaceSource
	faces  map[float64]*text.GoTextFace
}

// NewScreenPainter loads the font and returns a painter with no target.
func NewScreenPainter() (*ScreenPainter, error) {
	src, err := text.NewGoTextFaceSource(bytes.NewReader(goregular.TTF))
	if err != nil {
		return nil, err
	}
	return &ScreenPainter{source: src, faces: map[float64]*text.GoTextFace{}}, nil
}

// Fill paints the whole target with c.
func (s *ScreenPainter) Fill(c color.RGBA) { s.Target.Fill(c) }

// Rect paints a filled rectangle.
func (s *ScreenPainter) Rect(x, y, w, h float64, c color.RGBA) {
	vector.DrawFilledRect(s.Target, float32(x), float32(y), float32(w), float32(h), c, false)
}

// Text paints str with its line's top at y, aligned on x.
func (s *ScreenPainter) Text(str string, x, y, size float64, c color.RGBA, align scene.Align) {
	face := s.faces[size]
	if face == nil {
		face = &text.GoTextFace{Source: s.source, Size: size}
		s.faces[size] = face
	}
	op := &text.DrawOptions{}
	op.GeoM.Translate(x, y)
	op.ColorScale.ScaleWithColor(c)
	switch align {
	case scene.AlignCenter:
		op.PrimaryAlign = text.AlignCenter
	case scene.AlignRight:
		op.PrimaryAlign = text.AlignEnd
	}
	text.Draw(s.Target, str, face, op)
}
