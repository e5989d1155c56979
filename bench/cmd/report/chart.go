package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The SVG charts of the report, written with fmt: a line chart on log-log
// axes (ns/entity against N, one line per implementation) and, for
// workloads measured at a single N, a horizontal bar chart.

type point struct{ x, y float64 }

// series is one line of a lineChart. Points must have x > 0 and y > 0 (the
// axes are logarithmic); others are left out.
type series struct {
	name   string
	color  string
	dashed bool
	dotted bool // a thinner dotted line with small points: a figure to compare with
	points []point
}

// legendEntry is one line of a chart's legend.
type legendEntry struct {
	name   string
	color  string
	dashed bool
	dotted bool
}

// strokeStyle returns the attributes of a line drawn dashed, dotted or
// solid.
func strokeStyle(dashed, dotted bool) string {
	switch {
	case dotted:
		return ` stroke-width="1.5" stroke-dasharray="1.5 3"`
	case dashed:
		return ` stroke-width="2" stroke-dasharray="6 4"`
	default:
		return ` stroke-width="2"`
	}
}

// lineChart plots series on log-log axes. The x axis is labelled at the x
// values of the points; the y axis at powers of ten (and at 2 and 5 times
// them when the range spans at most two decades).
type lineChart struct {
	title, xLabel, yLabel string
	series                []series
	legend                []legendEntry
}

const (
	chartW      = 720
	chartH      = 420
	chartLeft   = 72
	chartRight  = 180
	chartTop    = 44
	chartBottom = 56
)

// logRange returns the powers of ten enclosing vs.
func logRange(vs []float64) (lo, hi float64) {
	mn, mx := slices.Min(vs), slices.Max(vs)
	lo = math.Pow(10, math.Floor(math.Log10(mn)))
	hi = math.Pow(10, math.Ceil(math.Log10(mx)))
	if hi <= lo {
		hi = lo * 10
	}
	return lo, hi
}

// f1 formats a coordinate.
func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

func esc(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

// tickLabel formats an axis value compactly: 0.5, 2, 16k, 1M.
func tickLabel(v float64) string {
	switch {
	case v >= 1e6 && math.Mod(v, 1e5) == 0:
		return strconv.FormatFloat(v/1e6, 'f', -1, 64) + "M"
	case v >= 1e3 && math.Mod(v, 100) == 0:
		return strconv.FormatFloat(v/1e3, 'f', -1, 64) + "k"
	default:
		return strconv.FormatFloat(v, 'g', 4, 64)
	}
}

func writeHeader(w io.Writer, width, height int, title string) {
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	fmt.Fprintf(w, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(w, `<text x="%d" y="24" text-anchor="middle" font-size="15" font-weight="bold">%s</text>`+"\n", width/2, esc(title))
}

// writeSVG writes the chart. It fails if no series has a plottable point.
func (c lineChart) writeSVG(out io.Writer) error {
	var xs, ys []float64
	for _, s := range c.series {
		for _, p := range s.points {
			if p.x > 0 && p.y > 0 {
				xs, ys = append(xs, p.x), append(ys, p.y)
			}
		}
	}
	if len(xs) == 0 {
		return fmt.Errorf("chart %q: no point to plot", c.title)
	}
	var b strings.Builder
	x0, x1 := float64(chartLeft), float64(chartW-chartRight)
	y0, y1 := float64(chartTop), float64(chartH-chartBottom)
	xlo, xhi := slices.Min(xs), slices.Max(xs)
	if xhi == xlo {
		xlo, xhi = xlo/10, xhi*10
	}
	ylo, yhi := logRange(ys)
	xpos := func(v float64) float64 {
		return x0 + (math.Log10(v)-math.Log10(xlo))/(math.Log10(xhi)-math.Log10(xlo))*(x1-x0)
	}
	ypos := func(v float64) float64 {
		return y1 - (math.Log10(v)-math.Log10(ylo))/(math.Log10(yhi)-math.Log10(ylo))*(y1-y0)
	}

	writeHeader(&b, chartW, chartH, c.title)
	// Horizontal grid: every 1..9 × 10^k, labelled at powers of ten (and
	// at 2 and 5 on short ranges).
	decades := math.Round(math.Log10(yhi / ylo))
	for d := ylo; d < yhi*1.001; d *= 10 {
		for m := 1.0; m <= 9; m++ {
			v := d * m
			if v > yhi*1.001 {
				break
			}
			y := ypos(v)
			stroke := "#eeeeee"
			if m == 1 {
				stroke = "#cccccc"
			}
			fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`+"\n", f1(x0), f1(y), f1(x1), f1(y), stroke)
			if m == 1 || (decades <= 2 && (m == 2 || m == 5)) {
				fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="end">%s</text>`+"\n", f1(x0-6), f1(y+4), tickLabel(v))
			}
		}
	}
	// Vertical grid at the x values of the data.
	ticks := slices.Compact(slices.Sorted(slices.Values(xs)))
	for _, v := range ticks {
		x := xpos(v)
		fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#cccccc"/>`+"\n", f1(x), f1(y0), f1(x), f1(y1))
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle">%s</text>`+"\n", f1(x), f1(y1+16), tickLabel(v))
	}
	fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="#333333"/>`+"\n", f1(x0), f1(y0), f1(x1-x0), f1(y1-y0))
	fmt.Fprintf(&b, `<text x="%s" y="%d" text-anchor="middle">%s</text>`+"\n", f1((x0+x1)/2), chartH-14, esc(c.xLabel))
	fmt.Fprintf(&b, `<text transform="translate(18 %s) rotate(-90)" text-anchor="middle">%s</text>`+"\n", f1((y0+y1)/2), esc(c.yLabel))

	for _, s := range c.series {
		var pts []string
		for _, p := range s.points {
			if p.x > 0 && p.y > 0 {
				pts = append(pts, f1(xpos(p.x))+","+f1(ypos(p.y)))
			}
		}
		if len(pts) == 0 {
			continue
		}
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s"%s><title>%s</title></polyline>`+"\n", strings.Join(pts, " "), s.color, strokeStyle(s.dashed, s.dotted), esc(s.name))
		for _, p := range pts {
			x, y, _ := strings.Cut(p, ",")
			fill, r := s.color, "3"
			if s.dashed {
				fill = "white"
			}
			if s.dotted {
				r = "1.5"
			}
			fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="%s" fill="%s" stroke="%s"/>`+"\n", x, y, r, fill, s.color)
		}
	}
	writeLegend(&b, x1+16, y0+8, c.legend)
	b.WriteString("</svg>\n")
	_, err := io.WriteString(out, b.String())
	return err
}

func writeLegend(b *strings.Builder, x, y float64, entries []legendEntry) {
	for i, e := range entries {
		ly := y + float64(i)*20
		fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"%s/>`+"\n", f1(x), f1(ly), f1(x+24), f1(ly), e.color, strokeStyle(e.dashed, e.dotted))
		fmt.Fprintf(b, `<text x="%s" y="%s">%s</text>`+"\n", f1(x+30), f1(ly+4), esc(e.name))
	}
}

// bar is one bar of a barChart.
type bar struct {
	label string
	value float64
	color string
	faded bool // drawn lighter: a secondary measure of the bar above
}

// barChart draws horizontal bars on a linear axis starting at zero.
type barChart struct {
	title, xLabel string
	bars          []bar
}

const (
	barLabelW = 190
	barRow    = 24
)

// niceMax returns the smallest 1, 2 or 5 × 10^k at least v.
func niceMax(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// writeSVG writes the chart. It fails if there is no bar.
func (c barChart) writeSVG(out io.Writer) error {
	if len(c.bars) == 0 {
		return fmt.Errorf("chart %q: no bar to draw", c.title)
	}
	var b strings.Builder
	height := chartTop + len(c.bars)*barRow + chartBottom
	x0, x1 := float64(barLabelW), float64(chartW-90)
	y0, y1 := float64(chartTop), float64(chartTop+len(c.bars)*barRow)
	var mx float64
	for _, br := range c.bars {
		mx = max(mx, br.value)
	}
	top := niceMax(mx)
	xpos := func(v float64) float64 { return x0 + v/top*(x1-x0) }

	writeHeader(&b, chartW, height, c.title)
	for i := range 6 {
		v := top * float64(i) / 5
		x := xpos(v)
		fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#dddddd"/>`+"\n", f1(x), f1(y0), f1(x), f1(y1))
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle">%s</text>`+"\n", f1(x), f1(y1+16), tickLabel(v))
	}
	for i, br := range c.bars {
		y := y0 + float64(i*barRow)
		opacity := ""
		if br.faded {
			opacity = ` fill-opacity="0.4"`
		}
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="end">%s</text>`+"\n", f1(x0-8), f1(y+barRow/2+4), esc(br.label))
		fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%d" fill="%s"%s/>`+"\n", f1(x0), f1(y+3), f1(xpos(br.value)-x0), barRow-6, br.color, opacity)
		fmt.Fprintf(&b, `<text x="%s" y="%s">%s</text>`+"\n", f1(xpos(br.value)+6), f1(y+barRow/2+4), formatNs(br.value))
	}
	fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#333333"/>`+"\n", f1(x0), f1(y0), f1(x0), f1(y1))
	fmt.Fprintf(&b, `<text x="%s" y="%d" text-anchor="middle">%s</text>`+"\n", f1((x0+x1)/2), height-14, esc(c.xLabel))
	b.WriteString("</svg>\n")
	_, err := io.WriteString(out, b.String())
	return err
}
