package snapshot_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/snapshot"
)

// Saving and loading a world of n entities with two components, in both
// formats, against the floor: the same components as two plain slices
// encoded (decoded) with the same codecs into (from) a reused buffer.
// Each reports MB/s of the save and ns/entity; compare slipway with plain
// within one format.

type benchVel struct{ X, Y float64 }

var benchSizes = []int{10_000, 1_000_000}

func benchWorld(b *testing.B, n int) (*ecs.World, []Pos, []benchVel) {
	pos, vel := make([]Pos, n), make([]benchVel, n)
	for i := range pos {
		pos[i] = Pos{float64(i), float64(i) / 7}
		vel[i] = benchVel{1, -float64(i%13) / 3}
	}
	w := ecs.NewWorld()
	if _, err := ecs.BulkAddEntity2(w, pos, vel); err != nil {
		b.Fatal(err)
	}
	return w, pos, vel
}

func benchRegistry(b *testing.B) *snapshot.Registry {
	var r snapshot.Registry
	must(b, snapshot.Register[Pos](&r, "pos"))
	must(b, snapshot.Register[benchVel](&r, "vel"))
	return &r
}

// plainEncode encodes the two slices with the format's default codecs.
func plainEncode(b *testing.B, f snapshot.Format, dst []byte, pos []Pos, vel []benchVel) []byte {
	cp, cv := snapshot.JSONCodec[Pos](), snapshot.JSONCodec[benchVel]()
	if f == snapshot.Binary {
		cp, cv = snapshot.BinaryCodec[Pos](), snapshot.BinaryCodec[benchVel]()
	}
	dst, err := cp.Append(dst[:0], pos)
	must(b, err)
	dst, err = cv.Append(dst, vel)
	must(b, err)
	return dst
}

func BenchmarkSave(b *testing.B) {
	for _, f := range formats {
		for _, n := range benchSizes {
			w, pos, vel := benchWorld(b, n)
			r := benchRegistry(b)
			b.Run(fmt.Sprintf("%v/slipway/n=%d", f, n), func(b *testing.B) {
				var buf bytes.Buffer
				o := &snapshot.SaveOptions{Format: f}
				for b.Loop() {
					buf.Reset()
					must(b, r.Save(w, &buf, o))
				}
				b.SetBytes(int64(buf.Len()))
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
			})
			b.Run(fmt.Sprintf("%v/plain/n=%d", f, n), func(b *testing.B) {
				var buf []byte
				for b.Loop() {
					buf = plainEncode(b, f, buf, pos, vel)
				}
				b.SetBytes(int64(len(buf)))
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
			})
		}
	}
}

func BenchmarkLoad(b *testing.B) {
	for _, f := range formats {
		for _, n := range benchSizes {
			w, pos, vel := benchWorld(b, n)
			r := benchRegistry(b)
			var buf bytes.Buffer
			must(b, r.Save(w, &buf, &snapshot.SaveOptions{Format: f}))
			data := buf.Bytes()
			b.Run(fmt.Sprintf("%v/slipway/n=%d", f, n), func(b *testing.B) {
				for b.Loop() {
					if _, err := r.Load(bytes.NewReader(data), nil); err != nil {
						b.Fatal(err)
					}
				}
				b.SetBytes(int64(len(data)))
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
			})
			plain := plainEncode(b, f, nil, pos, vel)
			cp, cv := snapshot.JSONCodec[Pos](), snapshot.JSONCodec[benchVel]()
			if f == snapshot.Binary {
				cp, cv = snapshot.BinaryCodec[Pos](), snapshot.BinaryCodec[benchVel]()
			}
			first, err := cp.Append(nil, pos)
			must(b, err)
			split := len(first)
			b.Run(fmt.Sprintf("%v/plain/n=%d", f, n), func(b *testing.B) {
				for b.Loop() {
					// Decoding allocates its slices, as a load does.
					p, v := make([]Pos, n), make([]benchVel, n)
					must(b, cp.Decode(plain[:split], p))
					must(b, cv.Decode(plain[split:], v))
				}
				b.SetBytes(int64(len(plain)))
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
			})
		}
	}
}
