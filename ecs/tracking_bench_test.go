//go:build unix

package ecs_test

// Benchmarks of change tracking (issue 4, "How fast"), beside the same work
// on an untracked type and a plain-Go loop, in the same run:
//
//	go test ./ecs -run '^$' -bench 'Track' -benchmem -count 6 > /tmp/bench_track.txt
//	go run golang.org/x/perf/cmd/benchstat@latest /tmp/bench_track.txt
//
// The helpers (cbStart, cbData, cbBorrow...) are bench_test.go's.

import (
	"math/rand/v2"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// tbPos is cbPos with modification tracking.
type tbPos struct{ X, Y float64 }

func (tbPos) Tracking() ecs.Tracking { return ecs.TrackModification }

// tbAll is cbPos with every kind of tracking.
type tbAll struct{ X, Y float64 }

func (tbAll) Tracking() ecs.Tracking { return ecs.TrackAll }

// BenchmarkTrackIterate adds Y to X in every component of N entities
// through ViewMut.All, for an untracked type and for a type tracking
// modification (each component handed out is marked), and through a Join2
// of a tracked ViewMut with an untracked View. The difference between
// "tracked-all" and "untracked-all" is the cost of marking (target ≤ 1 ns
// per entity).
func BenchmarkTrackIterate(b *testing.B) {
	n := cbMillion
	b.Run(cbName("plain", n), func(b *testing.B) {
		data, _ := cbData(n)
		clk := cbStart(b)
		for b.Loop() {
			cbIterPlain(data)
		}
		clk.report(n)
	})
	b.Run(cbName("untracked-all", n), func(b *testing.B) {
		w, _ := cbWorld(b, n, false)
		var pos ecs.ViewMut[cbPos]
		cbBorrow(b, w, &pos)
		clk := cbStart(b)
		for b.Loop() {
			cbIterAll(pos)
		}
		clk.report(n)
	})
	b.Run(cbName("tracked-all", n), func(b *testing.B) {
		pos := tbTrackedWorld(b, n)
		clk := cbStart(b)
		for b.Loop() {
			tbIterAll(pos)
		}
		clk.report(n)
	})
	b.Run(cbName("tracked-slice", n), func(b *testing.B) {
		pos := tbTrackedWorld(b, n)
		clk := cbStart(b)
		for b.Loop() {
			tbIterSlice(pos)
		}
		clk.report(n)
	})
	b.Run(cbName("untracked-join2", n), func(b *testing.B) {
		ps, _ := cbData(n)
		pos, vel := tbJoinViews(b, ps)
		clk := cbStart(b)
		for b.Loop() {
			cbJoinAll(pos, vel)
		}
		clk.report(n)
	})
	b.Run(cbName("tracked-join2", n), func(b *testing.B) {
		pos, vel := tbJoinViews(b, tbData(n))
		clk := cbStart(b)
		for b.Loop() {
			tbJoin2(pos, vel)
		}
		clk.report(n)
	})
}

// tbJoinViews returns the views of a world of len(ps) entities, each with
// a P from ps and a cbVel, borrowed for the whole benchmark.
func tbJoinViews[P any](b *testing.B, ps []P) (ecs.ViewMut[P], ecs.View[cbVel]) {
	b.Helper()
	w := ecs.NewWorld()
	_, vs := cbData(len(ps))
	_, err := ecs.BulkAddEntity2(w, ps, vs)
	cbCheck(b, err)
	var pos ecs.ViewMut[P]
	var vel ecs.View[cbVel]
	cbBorrow(b, w, &pos, &vel)
	return pos, vel
}

// tbData returns cbData's positions as tracked components.
func tbData(n int) []tbPos {
	ps, _ := cbData(n)
	tps := make([]tbPos, n)
	for i, p := range ps {
		tps[i] = tbPos(p)
	}
	return tps
}

func tbTrackedWorld(b *testing.B, n int) ecs.ViewMut[tbPos] {
	b.Helper()
	w := ecs.NewWorld()
	_, err := ecs.BulkAddEntity1(w, tbData(n))
	cbCheck(b, err)
	var pos ecs.ViewMut[tbPos]
	cbBorrow(b, w, &pos)
	return pos
}

//go:noinline
func tbIterAll(pos ecs.ViewMut[tbPos]) {
	for p := range pos.All() {
		p.X += p.Y
	}
}

//go:noinline
func tbIterSlice(pos ecs.ViewMut[tbPos]) {
	s := pos.Slice()
	for i := range s {
		s[i].X += s[i].Y
	}
}

//go:noinline
func tbJoin2(pos ecs.ViewMut[tbPos], vel ecs.View[cbVel]) {
	for p, v := range ecs.Join2(pos, vel).All() {
		p.X += v.X
		p.Y += v.Y
	}
}

// BenchmarkTrackModified iterates Modified() over N entities of which 1%
// were modified since the last clear (target ≤ 1.5 ns per entity scanned),
// summing a field of each (reading the 1% scattered over the storage
// misses the cache), counting them only (the scan alone), and, for
// comparison, summing the whole storage. Between rounds (untimed) the
// modifications are cleared and a new random 1% is marked through
// ViewMut.Get.
func BenchmarkTrackModified(b *testing.B) {
	n := cbMillion
	for _, impl := range []struct {
		name string
		fn   func(ecs.View[tbPos]) float64
	}{
		{"modified-1pct", tbSumModified},
		{"modified-1pct-count", tbCountModified},
		{"all", tbSumAll},
	} {
		b.Run(cbName(impl.name, n), func(b *testing.B) {
			w := ecs.NewWorld()
			ids, err := ecs.BulkAddEntity1(w, tbData(n))
			cbCheck(b, err)
			rng := rand.New(rand.NewPCG(1, 2))
			touch := func() {
				var pos ecs.ViewMut[tbPos]
				release, err := w.Borrow(&pos)
				cbCheck(b, err)
				pos.ClearAllModified()
				for range n / 100 {
					p, _ := pos.Get(ids[rng.IntN(n)])
					p.X++
				}
				release()
			}
			touch()
			var pos ecs.View[tbPos]
			release, err := w.Borrow(&pos)
			cbCheck(b, err)
			clk := cbStart(b)
			for range b.N { // not b.Loop: see cbClock
				cbSink += impl.fn(pos)
				clk.stop()
				release()
				touch()
				release, err = w.Borrow(&pos)
				cbCheck(b, err)
				clk.start()
			}
			clk.report(n)
			release()
		})
	}
}

//go:noinline
func tbSumModified(pos ecs.View[tbPos]) float64 {
	mod, err := pos.Modified()
	if err != nil {
		panic(err)
	}
	s := 0.0
	for p := range mod.All() {
		s += p.X
	}
	return s
}

// tbCountModified scans for the modified components without reading
// them: the cost of the scan alone.
//
//go:noinline
func tbCountModified(pos ecs.View[tbPos]) float64 {
	mod, err := pos.Modified()
	if err != nil {
		panic(err)
	}
	return float64(mod.Count())
}

//go:noinline
func tbSumAll(pos ecs.View[tbPos]) float64 {
	s := 0.0
	for p := range pos.All() {
		s += p.X
	}
	return s
}

// BenchmarkTrackAddDelete creates N entities and deletes them again, for an
// untracked type and for a type tracking everything (insertion timestamps,
// the deletion log, cleared every round): the cost tracking adds to
// storage changes.
func BenchmarkTrackAddDelete(b *testing.B) {
	n := 100_000
	b.Run(cbName("untracked", n), func(b *testing.B) {
		w := ecs.NewWorld()
		ps, _ := cbData(n)
		clk := cbStart(b)
		for b.Loop() {
			tbAddDelete(b, w, ps)
		}
		clk.report(n)
	})
	b.Run(cbName("tracked", n), func(b *testing.B) {
		w := ecs.NewWorld()
		ps, _ := cbData(n)
		tps := make([]tbAll, n)
		for i, p := range ps {
			tps[i] = tbAll(p)
		}
		clk := cbStart(b)
		for b.Loop() {
			tbAddDelete(b, w, tps)
			var v ecs.ViewMut[tbAll]
			release, err := w.Borrow(&v)
			cbCheck(b, err)
			v.ClearAllRemovedAndDeleted()
			release()
		}
		clk.report(n)
	})
}

func tbAddDelete[T any](b *testing.B, w *ecs.World, vals []T) {
	var ents ecs.EntitiesViewMut
	var v ecs.ViewMut[T]
	release, err := w.Borrow(&ents, &v)
	cbCheck(b, err)
	ids := make([]ecs.EntityID, len(vals))
	for i, c := range vals {
		ids[i] = v.AddEntity(ents, c)
	}
	for _, id := range ids {
		v.Delete(id)
		ents.DeleteUnchecked(id)
	}
	release()
}

// BenchmarkTrackRefs compares the handles of ViewMut.Refs, which mark only
// what is written, with today's pointer iteration (ViewMut.WithID and
// ViewMut.All, which mark all they hand out), over a type tracking
// modification, every component written (issue 53, item 7: at most 1.3×):
//
//	go test ./ecs -run '^$' -bench 'TrackRefs' -count 5 > /tmp/bench_refs.txt
func BenchmarkTrackRefs(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		b.Run(cbName("ptr-withid", n), func(b *testing.B) {
			pos := tbTrackedWorld(b, n)
			clk := cbStart(b)
			for b.Loop() {
				tbIterWithID(pos)
			}
			clk.report(n)
		})
		b.Run(cbName("ptr-all", n), func(b *testing.B) {
			pos := tbTrackedWorld(b, n)
			clk := cbStart(b)
			for b.Loop() {
				tbIterAll(pos)
			}
			clk.report(n)
		})
		b.Run(cbName("ref-set", n), func(b *testing.B) {
			pos := tbTrackedWorld(b, n)
			clk := cbStart(b)
			for b.Loop() {
				tbRefsSet(pos)
			}
			clk.report(n)
		})
		b.Run(cbName("ref-ptr", n), func(b *testing.B) {
			pos := tbTrackedWorld(b, n)
			clk := cbStart(b)
			for b.Loop() {
				tbRefsPtr(pos)
			}
			clk.report(n)
		})
	}
}

//go:noinline
func tbIterWithID(pos ecs.ViewMut[tbPos]) {
	for _, p := range pos.WithID() {
		p.X += p.Y
	}
}

//go:noinline
func tbRefsSet(pos ecs.ViewMut[tbPos]) {
	for _, r := range pos.Refs() {
		p := r.Get()
		p.X += p.Y
		r.Set(p)
	}
}

//go:noinline
func tbRefsPtr(pos ecs.ViewMut[tbPos]) {
	for _, r := range pos.Refs() {
		p := r.Ptr()
		p.X += p.Y
	}
}
