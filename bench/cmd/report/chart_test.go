package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		check(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	check(t, err)
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run go test -update to accept):\n%s", path, got)
	}
}

// wellFormed fails the test unless svg is well-formed XML with an svg root.
func wellFormed(t *testing.T, svg []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(svg))
	root := ""
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		check(t, err)
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	equal(t, "root element", root, "svg")
}

func smallLineChart() lineChart {
	return lineChart{
		title: "Tiny <test> & chart", xLabel: "N", yLabel: "ns",
		series: []series{
			{name: "plain", color: "#6b6b6b", points: []point{{1000, 1.5}, {16000, 2}, {1e6, 3}}},
			{name: "slipway", color: "#1f77b4", dashed: true, points: []point{{1000, 4}, {16000, 0}, {1e6, 40}}},
		},
		legend: []legendEntry{{name: "plain", color: "#6b6b6b"}, {name: "slipway", color: "#1f77b4", dashed: true}},
	}
}

func TestLineChartGolden(t *testing.T) {
	var b bytes.Buffer
	check(t, smallLineChart().writeSVG(&b))
	wellFormed(t, b.Bytes())
	golden(t, "line.svg", b.Bytes())
	s := b.String()
	// Log axes: 1 and 100 bound the y range; the x ticks are the data's N.
	for _, want := range []string{">1k<", ">16k<", ">1M<", ">1<", ">10<", ">100<", "Tiny &lt;test&gt; &amp; chart", `stroke-dasharray="6 4"`} {
		if !strings.Contains(s, want) {
			t.Errorf("the chart lacks %q", want)
		}
	}
	// The point at y = 0 cannot sit on a log axis and is left out.
	equal(t, "circles", strings.Count(s, "<circle"), 5)
}

func TestBarChartGolden(t *testing.T) {
	c := barChart{title: "Bars", xLabel: "ns", bars: []bar{
		{label: "plain (wall)", value: 120, color: "#6b6b6b"},
		{label: "slipway (CPU)", value: 1234, color: "#1f77b4", faded: true},
	}}
	var b bytes.Buffer
	check(t, c.writeSVG(&b))
	wellFormed(t, b.Bytes())
	golden(t, "bar.svg", b.Bytes())
	s := b.String()
	for _, want := range []string{">1,234<", ">120<", ">2k<", `fill-opacity="0.4"`} {
		if !strings.Contains(s, want) {
			t.Errorf("the chart lacks %q", want)
		}
	}
}

func TestChartsRefuseNothingToDraw(t *testing.T) {
	var b bytes.Buffer
	if err := (lineChart{title: "empty", series: []series{{name: "x", points: []point{{0, 1}, {10, -1}}}}}).writeSVG(&b); err == nil {
		t.Error("a line chart with no plottable point was written")
	}
	if err := (barChart{title: "empty"}).writeSVG(&b); err == nil {
		t.Error("a bar chart with no bar was written")
	}
}

func TestAxisHelpers(t *testing.T) {
	for v, want := range map[float64]string{
		1000: "1k", 16000: "16k", 256000: "256k", 1e6: "1M", 2.5e6: "2.5M", 1500: "1.5k",
		0.5: "0.5", 2: "2", 100: "100", 0.01: "0.01",
	} {
		equal(t, "tickLabel", tickLabel(v), want)
	}
	lo, hi := logRange([]float64{1.7, 3, 42})
	equal(t, "lo", lo, 1.0)
	equal(t, "hi", hi, 100.0)
	lo, hi = logRange([]float64{10})
	equal(t, "single lo", lo, 10.0)
	equal(t, "single hi", hi, 100.0)
	for v, want := range map[float64]float64{0.7: 1, 3: 5, 7: 10, 10: 10, 12: 20, 4200: 5000} {
		equal(t, "niceMax", niceMax(v), want)
	}
}
