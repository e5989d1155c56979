package bench

import (
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// SharedJoins: joins that share a storage and want it in different orders.
// A workload of two systems, as a new user writes them with the default
// join: move (Position and Velocity) and count (Position and Tag). Velocity
// drives move, since a few entities hold Position alone; Tag drives count.
// Both want Position in their driver's order. SharedJoins3 adds a third
// system over Position and Mark.

// sharedExtras is how many entities hold Position alone: a handful is
// enough to make Velocity the shorter storage of move.
const sharedExtras = 15

type (
	sharedTag  struct{}
	sharedMark struct{ N int32 }
)

// sharedFrame is the world and workload of SharedJoins for one impl.
type sharedFrame struct {
	w       *ecs.World
	counted int // what count saw in the last frame
	marked  int // what the third system saw in the last frame
}

// newSharedFrame builds n movers (Position, Velocity), every fourth
// tagged, every third marked if three, then extras entities with Position
// alone, and a workload "frame" of the two (or three) systems.
func newSharedFrame(tb testing.TB, n, extras int, align, three bool) *sharedFrame {
	tb.Helper()
	f := &sharedFrame{w: ecs.NewWorld()}
	w := f.w
	w.SetAutoAlign(align)
	for i := range n {
		id, err := ecs.AddEntity2(w, Position{float64(i), 0}, Velocity{1, 0})
		check(tb, err)
		if i%4 == 0 {
			check(tb, ecs.AddComponent1(w, id, sharedTag{}))
		}
		if three && i%3 == 0 {
			check(tb, ecs.AddComponent1(w, id, sharedMark{1}))
		}
	}
	for range extras {
		_, err := ecs.AddEntity1(w, Position{-1, 0})
		check(tb, err)
	}
	moveAll := func(pos ecs.ViewMut[Position], vel ecs.View[Velocity]) {
		for p, v := range ecs.Join2(pos, vel).All() {
			p.X += v.X
			p.Y += v.Y
		}
	}
	count := func(pos ecs.View[Position], tag ecs.View[sharedTag]) {
		f.counted = 0
		for p := range ecs.Join2(pos, tag).All() {
			if p.X >= 0 {
				f.counted++
			}
		}
	}
	mark := func(pos ecs.View[Position], mark ecs.View[sharedMark]) {
		f.marked = 0
		for p, m := range ecs.Join2(pos, mark).All() {
			if p.X >= 0 {
				f.marked += int(m.N)
			}
		}
	}
	items := []any{ecs.System(moveAll).Named("move"), ecs.System(count).Named("count")}
	if three {
		items = append(items, ecs.System(mark).Named("mark"))
	}
	check(tb, w.AddWorkload("frame", items...))
	return f
}

// sharedWarmUp is how many untimed frames run first: the world settles
// the storages' orders within the first few.
const sharedWarmUp = 10

func benchSharedJoins(b *testing.B, three bool) {
	slipway := func(extras int, align bool) func(b *testing.B, n int) {
		return func(b *testing.B, n int) {
			f := newSharedFrame(b, n, extras, align, three)
			for range sharedWarmUp {
				check(b, f.w.RunWorkload("frame"))
			}
			measure(b, n, func() { check(b, f.w.RunWorkload("frame")) })
			if f.counted != (n+3)/4 {
				b.Fatalf("count saw %d tagged movers, want %d", f.counted, (n+3)/4)
			}
		}
	}
	runImpls(b,
		impl{"plain", func(b *testing.B, n int) { benchSharedPlain(b, n, three) }},
		impl{"slipway", slipway(sharedExtras, true)},
		impl{"slipway-noalign", slipway(sharedExtras, false)},
		impl{"slipway-noextras", slipway(0, true)},
	)
}

// benchSharedPlain is the plain-Go frame: the movers in a slice of
// structs, the tagged and marked ones as lists of indices into it.
func benchSharedPlain(b *testing.B, n int, three bool) {
	movers := make([]mover, n)
	var tagged, marked []int32
	for i := range movers {
		movers[i] = mover{Position{float64(i), 0}, Velocity{1, 0}}
		if i%4 == 0 {
			tagged = append(tagged, int32(i))
		}
		if three && i%3 == 0 {
			marked = append(marked, int32(i))
		}
	}
	counted, sum := 0, 0
	measure(b, n, func() {
		for i := range movers {
			m := &movers[i]
			m.P.X += m.V.X
			m.P.Y += m.V.Y
		}
		counted = 0
		for _, i := range tagged {
			if movers[i].P.X >= 0 {
				counted++
			}
		}
		sum = 0
		for _, i := range marked {
			if movers[i].P.X >= 0 {
				sum++
			}
		}
	})
	if counted != len(tagged) || sum != len(marked) {
		b.Fatalf("plain counted %d and %d, want %d and %d", counted, sum, len(tagged), len(marked))
	}
}

func BenchmarkSharedJoins(b *testing.B)  { benchSharedJoins(b, false) }
func BenchmarkSharedJoins3(b *testing.B) { benchSharedJoins(b, true) }

// TestSharedJoinsDoTheirWork checks what the frames of SharedJoins compute,
// and that the world stops sorting once it settled.
func TestSharedJoinsDoTheirWork(t *testing.T) {
	for _, three := range []bool{false, true} {
		for _, extras := range []int{0, sharedExtras} {
			f := newSharedFrame(t, 300, extras, true, three)
			for range sharedWarmUp {
				check(t, f.w.RunWorkload("frame"))
			}
			sorts := func() (n int) {
				for _, st := range f.w.AlignStats() {
					n += st.Sorts
				}
				return n
			}
			before := sorts()
			for range 5 {
				check(t, f.w.RunWorkload("frame"))
			}
			equal(t, "sorts after the warm-up", sorts(), before)
			equal(t, "tagged movers counted", f.counted, 75)
			if three {
				equal(t, "marked movers counted", f.marked, 100)
			}
			moved := 0
			for _, p := range snapshot(t, f.w) {
				if p.X >= 0 {
					moved++
				}
			}
			equal(t, "movers", moved, 300)
		}
	}
}
