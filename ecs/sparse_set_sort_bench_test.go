package ecs_test

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// sbSprite is the component of the sort benchmarks: 24 bytes, with two
// independent random keys, so that each iteration sorts by the other key
// and finds the storage (or slice) out of order, with no setup to time.
type sbSprite struct {
	A, B int64
	X    float64
}

const sbN = 1 << 20

func sbSprites() []sbSprite {
	rng := rand.New(rand.NewPCG(1, 2))
	s := make([]sbSprite, sbN)
	for i := range s {
		s[i] = sbSprite{A: rng.Int64(), B: rng.Int64(), X: float64(i)}
	}
	return s
}

func sbCmp(i int) func(a, b *sbSprite) int {
	if i%2 == 0 {
		return func(a, b *sbSprite) int { return cmp.Compare(a.A, b.A) }
	}
	return func(a, b *sbSprite) int { return cmp.Compare(a.B, b.B) }
}

// BenchmarkSortPlainSlice is the baseline: slices.SortFunc over a plain
// slice of the same 1M structs.
func BenchmarkSortPlainSlice(b *testing.B) {
	s := sbSprites()
	i := 0
	for b.Loop() {
		c := sbCmp(i)
		slices.SortFunc(s, func(x, y sbSprite) int { return c(&x, &y) })
		i++
	}
}

// BenchmarkSortFunc sorts a storage of 1M components with
// ViewMut.SortFunc; BenchmarkSortByKey with SortByKey.
func BenchmarkSortFunc(b *testing.B) {
	w, vm, release := sbWorld(b)
	defer release()
	_ = w
	i := 0
	for b.Loop() {
		if err := vm.SortFunc(sbCmp(i)); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkSortByKey(b *testing.B) {
	_, vm, release := sbWorld(b)
	defer release()
	i := 0
	for b.Loop() {
		var err error
		if i%2 == 0 {
			err = ecs.SortByKey(vm, func(c *sbSprite) int64 { return c.A })
		} else {
			err = ecs.SortByKey(vm, func(c *sbSprite) int64 { return c.B })
		}
		if err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func sbWorld(b *testing.B) (*ecs.World, ecs.ViewMut[sbSprite], func()) {
	w := ecs.NewWorld()
	if _, err := ecs.BulkAddEntity1(w, sbSprites()); err != nil {
		b.Fatal(err)
	}
	var vm ecs.ViewMut[sbSprite]
	release, err := w.Borrow(&vm)
	if err != nil {
		b.Fatal(err)
	}
	return w, vm, release
}
