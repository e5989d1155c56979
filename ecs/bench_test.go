//go:build unix

package ecs_test

// Benchmarks of the core operations (issue 2, "How fast"), each beside a
// plain-Go baseline doing the same work over slices, so that ratios come
// from the same run on the same machine. Components are structs of two
// float64. Every benchmark reports ns/entity (the figure the targets are
// stated in) and allocations; run them with
//
//	go test ./ecs -run '^$' -bench . -benchmem -count 5 > /tmp/bench_core.txt
//	go run golang.org/x/perf/cmd/benchstat@latest /tmp/bench_core.txt
//
// Names follow Benchmark<Workload>/<impl>/n=<N>; impl "plain" is the
// baseline. Besides ns/entity (wall time, what the targets are stated in)
// each benchmark reports cpu-ns/entity: the process's CPU time over the same
// timed part, which stays meaningful when other processes compete for the
// CPUs and stretch wall time (hence the unix build constraint: it reads
// getrusage). The timed work of each round sits in a //go:noinline function
// called once per round from the b.Loop body, so the compiler treats the
// per-entity loop of Slipway and of the baseline alike (the b.Loop body
// itself keeps its variables alive, which would otherwise differ between
// them).

import (
	"math/rand/v2"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/slipway-ecs/slipway/ecs"
)

type cbPos struct{ X, Y float64 }
type cbVel struct{ X, Y float64 }

const cbMillion = 1_000_000

// cbSink keeps results alive so the work that produced them is not removed.
var cbSink float64

func cbName(impl string, n int) string { return impl + "/n=" + strconv.Itoa(n) }

// cbClock times the timed part of a benchmark in process CPU time, beside
// the wall time the testing package measures. Start it right before the
// benchmark loop, bracket untimed work with stop and start (in place of
// b.StopTimer and b.StartTimer), and call report after the loop. A loop
// that stops the timer counts to b.N rather than calling b.Loop: b.Loop
// with the timer stopped never ends under Go 1.24.0 and 1.24.1
// (golang/go#72922), which go.mod admits.
type cbClock struct {
	b         *testing.B
	cpu, mark time.Duration
}

func cbStart(b *testing.B) *cbClock {
	b.ReportAllocs()
	b.ResetTimer() // a b.N loop, unlike b.Loop, times what came before it
	return &cbClock{b: b, mark: cbCPUNow()}
}

func (c *cbClock) stop() {
	c.b.StopTimer()
	c.cpu += cbCPUNow() - c.mark
}

func (c *cbClock) start() {
	c.mark = cbCPUNow()
	c.b.StartTimer()
}

// report reports the time per entity of rounds over n entities: wall time
// as ns/entity, CPU time as cpu-ns/entity.
func (c *cbClock) report(n int) {
	c.cpu += cbCPUNow() - c.mark
	per := float64(c.b.N) * float64(n)
	c.b.ReportMetric(float64(c.b.Elapsed().Nanoseconds())/per, "ns/entity")
	c.b.ReportMetric(float64(c.cpu.Nanoseconds())/per, "cpu-ns/entity")
}

// cbCPUNow returns the CPU time the process has used so far.
func cbCPUNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func cbCheck(b *testing.B, err error) {
	b.Helper()
	if err != nil {
		b.Fatal(err)
	}
}

// cbBorrow borrows views for the whole benchmark and releases them at its
// end: the body of one long-running system.
func cbBorrow(b *testing.B, w *ecs.World, views ...any) {
	b.Helper()
	release, err := w.Borrow(views...)
	cbCheck(b, err)
	b.Cleanup(release)
}

// cbWorld returns a world with n entities having a cbPos (and a cbVel when
// withVel), created in one bulk call, and their ids.
func cbWorld(b *testing.B, n int, withVel bool) (*ecs.World, []ecs.EntityID) {
	b.Helper()
	w := ecs.NewWorld()
	ps, vs := cbData(n)
	var ids []ecs.EntityID
	var err error
	if withVel {
		ids, err = ecs.BulkAddEntity2(w, ps, vs)
	} else {
		ids, err = ecs.BulkAddEntity1(w, ps)
	}
	cbCheck(b, err)
	return w, ids
}

func cbData(n int) ([]cbPos, []cbVel) {
	ps, vs := make([]cbPos, n), make([]cbVel, n)
	for i := range ps {
		ps[i] = cbPos{float64(i), 1}
		vs[i] = cbVel{1, 2}
	}
	return ps, vs
}

// ---- Get by id, ids shuffled ----

// BenchmarkGetShuffled sums Pos.X looking up each of n entities by id, in a
// shuffled order. The baseline indexes a plain slice with the same shuffled
// indices.
func BenchmarkGetShuffled(b *testing.B) {
	for _, n := range []int{1000, cbMillion} {
		b.Run(cbName("plain", n), func(b *testing.B) {
			data, _ := cbData(n)
			idx := rand.New(rand.NewPCG(1, 2)).Perm(n)
			clk := cbStart(b)
			for b.Loop() {
				cbSink = cbGetPlain(data, idx)
			}
			clk.report(n)
		})
		b.Run(cbName("slipway", n), func(b *testing.B) {
			w, ids := cbWorld(b, n, false)
			cbShuffle(ids)
			var pos ecs.View[cbPos]
			cbBorrow(b, w, &pos)
			clk := cbStart(b)
			for b.Loop() {
				cbSink = cbGetView(pos, ids)
			}
			clk.report(n)
		})
		b.Run(cbName("slipway-must", n), func(b *testing.B) {
			w, ids := cbWorld(b, n, false)
			cbShuffle(ids)
			var pos ecs.View[cbPos]
			cbBorrow(b, w, &pos)
			clk := cbStart(b)
			for b.Loop() {
				cbSink = cbMustGetView(pos, ids)
			}
			clk.report(n)
		})
		b.Run(cbName("slipway-run", n), func(b *testing.B) {
			// The same lookups as a system run by World.Run every round:
			// analysis cache, borrow and release included.
			w, ids := cbWorld(b, n, false)
			cbShuffle(ids)
			sys := func(pos ecs.View[cbPos]) { cbSink = cbGetView(pos, ids) }
			clk := cbStart(b)
			for b.Loop() {
				cbCheck(b, w.Run(sys))
			}
			clk.report(n)
		})
	}
}

func cbShuffle(ids []ecs.EntityID) {
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
}

//go:noinline
func cbGetPlain(data []cbPos, idx []int) float64 {
	var sum float64
	for _, i := range idx {
		sum += data[i].X
	}
	return sum
}

//go:noinline
func cbGetView(pos ecs.View[cbPos], ids []ecs.EntityID) float64 {
	var sum float64
	for _, id := range ids {
		if p, ok := pos.Get(id); ok {
			sum += p.X
		}
	}
	return sum
}

//go:noinline
func cbMustGetView(pos ecs.View[cbPos], ids []ecs.EntityID) float64 {
	var sum float64
	for _, id := range ids {
		sum += pos.MustGet(id).X
	}
	return sum
}

// ---- Add + remove one component ----

// BenchmarkAddRemove adds a Vel to each of N entities that have a Pos, then
// removes it from each (one warm-up round first, so storages are at
// capacity). ns/entity is per add+remove pair. The baselines keep the
// component in a slice indexed by entity with a presence flag ("plain"), or
// in a map ("plain-map").
func BenchmarkAddRemove(b *testing.B) {
	n := cbMillion
	b.Run(cbName("plain", n), func(b *testing.B) {
		vel, has := make([]cbVel, n), make([]bool, n)
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		cbAddRemovePlain(vel, has, idx)
		clk := cbStart(b)
		for b.Loop() {
			cbSink = cbAddRemovePlain(vel, has, idx)
		}
		clk.report(n)
	})
	b.Run(cbName("plain-map", n), func(b *testing.B) {
		m := make(map[int]cbVel, n)
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		cbAddRemoveMap(m, idx)
		clk := cbStart(b)
		for b.Loop() {
			cbSink = cbAddRemoveMap(m, idx)
		}
		clk.report(n)
	})
	b.Run(cbName("slipway", n), func(b *testing.B) {
		w, ids := cbWorld(b, n, false)
		var ents ecs.EntitiesView
		var vel ecs.ViewMut[cbVel]
		cbBorrow(b, w, &ents, &vel)
		cbCheck(b, cbAddRemoveViews(ents, vel, ids))
		clk := cbStart(b)
		for b.Loop() {
			cbCheck(b, cbAddRemoveViews(ents, vel, ids))
		}
		clk.report(n)
	})
	b.Run(cbName("slipway-unchecked", n), func(b *testing.B) {
		w, ids := cbWorld(b, n, false)
		var vel ecs.ViewMut[cbVel]
		cbBorrow(b, w, &vel)
		cbCheck(b, cbAddRemoveUnchecked(vel, ids))
		clk := cbStart(b)
		for b.Loop() {
			cbCheck(b, cbAddRemoveUnchecked(vel, ids))
		}
		clk.report(n)
	})
	b.Run(cbName("slipway-world", n), func(b *testing.B) {
		w, ids := cbWorld(b, n, false)
		cbCheck(b, cbAddRemoveWorld(w, ids))
		clk := cbStart(b)
		for b.Loop() {
			cbCheck(b, cbAddRemoveWorld(w, ids))
		}
		clk.report(n)
	})
	b.Run(cbName("slipway-bulk", n), func(b *testing.B) {
		// BulkAddComponent1, then BulkDeleteComponent.
		w, ids := cbWorld(b, n, false)
		_, vs := cbData(n)
		cbCheck(b, cbAddRemoveBulk(w, ids, vs))
		clk := cbStart(b)
		for b.Loop() {
			cbCheck(b, cbAddRemoveBulk(w, ids, vs))
		}
		clk.report(n)
	})
}

//go:noinline
func cbAddRemoveBulk(w *ecs.World, ids []ecs.EntityID, vs []cbVel) error {
	if err := ecs.BulkAddComponent1(w, ids, vs); err != nil {
		return err
	}
	_, err := ecs.BulkDeleteComponent[cbVel](w, ids...)
	return err
}

//go:noinline
func cbAddRemovePlain(vel []cbVel, has []bool, idx []int) float64 {
	for _, i := range idx {
		vel[i], has[i] = cbVel{1, 2}, true
	}
	var sum float64
	for _, i := range idx {
		if has[i] {
			sum += vel[i].X
			vel[i], has[i] = cbVel{}, false
		}
	}
	return sum
}

//go:noinline
func cbAddRemoveMap(m map[int]cbVel, idx []int) float64 {
	for _, i := range idx {
		m[i] = cbVel{1, 2}
	}
	var sum float64
	for _, i := range idx {
		if v, ok := m[i]; ok {
			sum += v.X
			delete(m, i)
		}
	}
	return sum
}

//go:noinline
func cbAddRemoveViews(ents ecs.EntitiesView, vel ecs.ViewMut[cbVel], ids []ecs.EntityID) error {
	for _, id := range ids {
		if err := vel.AddComponent(ents, id, cbVel{1, 2}); err != nil {
			return err
		}
	}
	var sum float64
	for _, id := range ids {
		if v, ok := vel.Remove(id); ok {
			sum += v.X
		}
	}
	cbSink = sum
	return nil
}

//go:noinline
func cbAddRemoveUnchecked(vel ecs.ViewMut[cbVel], ids []ecs.EntityID) error {
	for _, id := range ids {
		if err := vel.AddComponentUnchecked(id, cbVel{1, 2}); err != nil {
			return err
		}
	}
	var sum float64
	for _, id := range ids {
		if v, ok := vel.Remove(id); ok {
			sum += v.X
		}
	}
	cbSink = sum
	return nil
}

//go:noinline
func cbAddRemoveWorld(w *ecs.World, ids []ecs.EntityID) error {
	for _, id := range ids {
		if err := ecs.AddComponent1(w, id, cbVel{1, 2}); err != nil {
			return err
		}
	}
	var sum float64
	for _, id := range ids {
		v, ok, err := ecs.Remove[cbVel](w, id)
		if err != nil {
			return err
		}
		if ok {
			sum += v.X
		}
	}
	cbSink = sum
	return nil
}

// ---- Create an entity with 2 components ----

// BenchmarkCreate2 creates N entities with a Pos and a Vel in a world where
// N such entities were created and deleted before (so the timed part
// allocates nothing but what the API returns, BulkAddEntity2's id slice,
// and the two closures that share its work with the worker pool).
// Deleting them again after each round is not timed. The baseline appends
// ids and both components to slices with room for them.
func BenchmarkCreate2(b *testing.B) {
	n := cbMillion
	ps, vs := cbData(n)
	b.Run(cbName("plain", n), func(b *testing.B) {
		ids := make([]uint64, 0, n)
		pos, vel := make([]cbPos, 0, n), make([]cbVel, 0, n)
		clk := cbStart(b)
		for b.Loop() {
			ids, pos, vel = cbCreatePlain(ids[:0], pos[:0], vel[:0], ps, vs)
		}
		clk.report(n)
	})
	// recycle deletes every entity of w (between rounds, untimed).
	recycle := func(b *testing.B, w *ecs.World) {
		_, err := ecs.DeleteAny[cbPos](w)
		cbCheck(b, err)
	}
	b.Run(cbName("slipway", n), func(b *testing.B) {
		w, _ := cbWorld(b, n, true)
		recycle(b, w)
		clk := cbStart(b)
		for range b.N {
			cbCheck(b, cbCreateWorld(w, ps, vs))
			clk.stop()
			recycle(b, w)
			clk.start()
		}
		clk.report(n)
	})
	b.Run(cbName("slipway-views", n), func(b *testing.B) {
		w, _ := cbWorld(b, n, true)
		recycle(b, w)
		var ents ecs.EntitiesViewMut
		var pos ecs.ViewMut[cbPos]
		var vel ecs.ViewMut[cbVel]
		clk := cbStart(b)
		for range b.N {
			release, err := w.Borrow(&ents, &pos, &vel)
			cbCheck(b, err)
			err = cbCreateViews(ents, pos, vel, ps, vs)
			release()
			cbCheck(b, err)
			clk.stop()
			recycle(b, w)
			clk.start()
		}
		clk.report(n)
	})
	b.Run(cbName("slipway-bulk", n), func(b *testing.B) {
		w, _ := cbWorld(b, n, true)
		recycle(b, w)
		clk := cbStart(b)
		for range b.N {
			_, err := ecs.BulkAddEntity2(w, ps, vs)
			cbCheck(b, err)
			clk.stop()
			recycle(b, w)
			clk.start()
		}
		clk.report(n)
	})
}

//go:noinline
func cbCreatePlain(ids []uint64, pos []cbPos, vel []cbVel, ps []cbPos, vs []cbVel) ([]uint64, []cbPos, []cbVel) {
	for i := range ps {
		ids = append(ids, uint64(len(ids)))
		pos = append(pos, ps[i])
		vel = append(vel, vs[i])
	}
	return ids, pos, vel
}

//go:noinline
func cbCreateWorld(w *ecs.World, ps []cbPos, vs []cbVel) error {
	for i := range ps {
		if _, err := ecs.AddEntity2(w, ps[i], vs[i]); err != nil {
			return err
		}
	}
	return nil
}

//go:noinline
func cbCreateViews(ents ecs.EntitiesViewMut, pos ecs.ViewMut[cbPos], vel ecs.ViewMut[cbVel], ps []cbPos, vs []cbVel) error {
	for i := range ps {
		id := ents.AddEntity()
		if err := pos.AddComponentUnchecked(id, ps[i]); err != nil {
			return err
		}
		if err := vel.AddComponentUnchecked(id, vs[i]); err != nil {
			return err
		}
	}
	return nil
}

// ---- Delete an entity with 2 components ----

// BenchmarkDelete2 deletes N entities that have a Pos and a Vel, in the
// order they were created, in a world where N such entities were created
// and deleted before; recreating them between rounds is not timed.
// The baseline clears both components in slices indexed by entity, marks
// the entity dead and pushes its index on a free list.
func BenchmarkDelete2(b *testing.B) {
	n := cbMillion
	ps, vs := cbData(n)
	b.Run(cbName("plain", n), func(b *testing.B) {
		pos, vel := make([]cbPos, n), make([]cbVel, n)
		alive, free := make([]bool, n), make([]int, 0, n)
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		clk := cbStart(b)
		for range b.N {
			clk.stop()
			copy(pos, ps)
			copy(vel, vs)
			for i := range alive {
				alive[i] = true
			}
			free = free[:0]
			clk.start()
			free = cbDeletePlain(pos, vel, alive, free, idx)
		}
		clk.report(n)
	})
	// refill creates the N entities again, untimed, and returns their ids.
	refill := func(b *testing.B, w *ecs.World, clk *cbClock) []ecs.EntityID {
		clk.stop()
		ids, err := ecs.BulkAddEntity2(w, ps, vs)
		cbCheck(b, err)
		clk.start()
		return ids
	}
	// warm returns a world where N such entities were created and deleted
	// once, so that the free list has its capacity before timing starts.
	warm := func(b *testing.B) *ecs.World {
		w, ids := cbWorld(b, n, true)
		cbCheck(b, cbDeleteWorld(w, ids))
		return w
	}
	b.Run(cbName("slipway", n), func(b *testing.B) {
		w := warm(b)
		clk := cbStart(b)
		for range b.N {
			ids := refill(b, w, clk)
			cbCheck(b, cbDeleteWorld(w, ids))
		}
		clk.report(n)
	})
	b.Run(cbName("slipway-all", n), func(b *testing.B) {
		// Inside a system holding an AllStoragesViewMut.
		w := warm(b)
		var all ecs.AllStoragesViewMut
		clk := cbStart(b)
		for range b.N {
			ids := refill(b, w, clk)
			release, err := w.Borrow(&all)
			cbCheck(b, err)
			err = cbDeleteAll(all, ids)
			release()
			cbCheck(b, err)
		}
		clk.report(n)
	})
	b.Run(cbName("slipway-bulk", n), func(b *testing.B) {
		w := warm(b)
		clk := cbStart(b)
		for range b.N {
			ids := refill(b, w, clk)
			cbCheck(b, w.DeleteEntities(ids...))
		}
		clk.report(n)
	})
	b.Run(cbName("slipway-views", n), func(b *testing.B) {
		// The guide's fast path: delete from the storages the entity is
		// known to use, then from the entities storage only.
		w := warm(b)
		var ents ecs.EntitiesViewMut
		var pos ecs.ViewMut[cbPos]
		var vel ecs.ViewMut[cbVel]
		clk := cbStart(b)
		for range b.N {
			ids := refill(b, w, clk)
			release, err := w.Borrow(&ents, &pos, &vel)
			cbCheck(b, err)
			cbDeleteViews(ents, pos, vel, ids)
			release()
		}
		clk.report(n)
	})
}

//go:noinline
func cbDeletePlain(pos []cbPos, vel []cbVel, alive []bool, free, idx []int) []int {
	for _, i := range idx {
		if alive[i] {
			pos[i], vel[i], alive[i] = cbPos{}, cbVel{}, false
			free = append(free, i)
		}
	}
	return free
}

//go:noinline
func cbDeleteWorld(w *ecs.World, ids []ecs.EntityID) error {
	for _, id := range ids {
		if err := w.DeleteEntity(id); err != nil {
			return err
		}
	}
	return nil
}

//go:noinline
func cbDeleteAll(all ecs.AllStoragesViewMut, ids []ecs.EntityID) error {
	for _, id := range ids {
		if err := all.DeleteEntity(id); err != nil {
			return err
		}
	}
	return nil
}

//go:noinline
func cbDeleteViews(ents ecs.EntitiesViewMut, pos ecs.ViewMut[cbPos], vel ecs.ViewMut[cbVel], ids []ecs.EntityID) {
	for _, id := range ids {
		pos.Delete(id)
		vel.Delete(id)
		ents.DeleteUnchecked(id)
	}
}

// ---- Iterate one storage ----

// BenchmarkIterate adds Y to X in every Pos of N entities: through
// ViewMut.All (range over func), a loop over ViewMut.Slice, and a Join1
// cursor; the baseline is `for i := range slice` over the same values.
func BenchmarkIterate(b *testing.B) {
	n := cbMillion
	b.Run(cbName("plain", n), func(b *testing.B) {
		data, _ := cbData(n)
		clk := cbStart(b)
		for b.Loop() {
			cbIterPlain(data)
		}
		clk.report(n)
	})
	impls := []struct {
		name string
		fn   func(ecs.ViewMut[cbPos])
	}{
		{"slipway-all", cbIterAll},
		{"slipway-slice", cbIterSlice},
		{"slipway-join1", cbIterJoin1},
	}
	for _, impl := range impls {
		b.Run(cbName(impl.name, n), func(b *testing.B) {
			w, _ := cbWorld(b, n, false)
			var pos ecs.ViewMut[cbPos]
			cbBorrow(b, w, &pos)
			clk := cbStart(b)
			for b.Loop() {
				impl.fn(pos)
			}
			clk.report(n)
		})
	}
}

//go:noinline
func cbIterPlain(data []cbPos) {
	for i := range data {
		data[i].X += data[i].Y
	}
}

//go:noinline
func cbIterAll(pos ecs.ViewMut[cbPos]) {
	for p := range pos.All() {
		p.X += p.Y
	}
}

//go:noinline
func cbIterSlice(pos ecs.ViewMut[cbPos]) {
	s := pos.Slice()
	for i := range s {
		s[i].X += s[i].Y
	}
}

//go:noinline
func cbIterJoin1(pos ecs.ViewMut[cbPos]) {
	it := ecs.Join1(pos)
	for it.Next() {
		p := it.Values()
		p.X += p.Y
	}
}

// ---- Join of 2 ----

// BenchmarkJoin2 adds Vel to Pos for every entity that has both, in a world
// of N entities with Pos and Vel and 10N with Pos only; ns/entity is per
// matched entity (N). The baseline loops over two aligned slices of N. The
// layout (see cbJoinWorld) is the order the entities were created in:
// "first" (the default, no suffix) creates the N with both first, "after"
// last, and "interleaved" mixes them, so the probes into Pos are strided
// rather than in order.
func BenchmarkJoin2(b *testing.B) {
	n := cbMillion
	b.Run(cbName("plain", n), func(b *testing.B) {
		ps, vs := cbData(n)
		clk := cbStart(b)
		for b.Loop() {
			cbJoinPlain(ps, vs)
		}
		clk.report(n)
	})
	impls := []struct {
		name   string
		fn     func(ecs.ViewMut[cbPos], ecs.View[cbVel])
		layout string
	}{
		{"slipway-cursor", cbJoinCursor, "first"},
		{"slipway-all", cbJoinAll, "first"},
		{"slipway-each", cbJoinEach, "first"},
		{"slipway-runs", cbJoinRuns, "first"},
		{"slipway-all-after", cbJoinAll, "after"},
		{"slipway-runs-after", cbJoinRuns, "after"},
		{"slipway-cursor-interleaved", cbJoinCursor, "interleaved"},
		{"slipway-runs-interleaved", cbJoinRuns, "interleaved"},
	}
	for _, impl := range impls {
		b.Run(cbName(impl.name, n), func(b *testing.B) {
			w := cbJoinWorld(b, n, impl.layout)
			var pos ecs.ViewMut[cbPos]
			var vel ecs.View[cbVel]
			cbBorrow(b, w, &pos, &vel)
			clk := cbStart(b)
			for b.Loop() {
				impl.fn(pos, vel)
			}
			clk.report(n)
		})
	}
}

// cbJoinWorld returns a world of n entities with Pos and Vel and 10n with
// Pos only, created in bulk, those with both first or after the others
// (layout "first" or "after"), or one by one and mixed ("interleaved":
// each entity with both followed by ten with Pos only).
func cbJoinWorld(b *testing.B, n int, layout string) *ecs.World {
	b.Helper()
	w := ecs.NewWorld()
	ps, vs := cbData(n)
	both := func() {
		_, err := ecs.BulkAddEntity2(w, ps, vs)
		cbCheck(b, err)
	}
	posOnly := func() {
		for range 10 {
			_, err := ecs.BulkAddEntity1(w, ps)
			cbCheck(b, err)
		}
	}
	switch layout {
	case "first":
		both()
		posOnly()
	case "after":
		posOnly()
		both()
	case "interleaved":
		for i := range n {
			_, err := ecs.AddEntity2(w, ps[i], vs[i])
			cbCheck(b, err)
			for range 10 {
				_, err := ecs.AddEntity1(w, ps[i])
				cbCheck(b, err)
			}
		}
	default:
		b.Fatalf("unknown layout %q", layout)
	}
	return w
}

//go:noinline
func cbJoinPlain(ps []cbPos, vs []cbVel) {
	vs = vs[:len(ps)]
	for i := range ps {
		ps[i].X += vs[i].X
		ps[i].Y += vs[i].Y
	}
}

//go:noinline
func cbJoinCursor(pos ecs.ViewMut[cbPos], vel ecs.View[cbVel]) {
	it := ecs.Join2(pos, vel)
	for it.Next() {
		p, v := it.Values()
		p.X += v.X
		p.Y += v.Y
	}
}

//go:noinline
func cbJoinAll(pos ecs.ViewMut[cbPos], vel ecs.View[cbVel]) {
	for p, v := range ecs.Join2(pos, vel).All() {
		p.X += v.X
		p.Y += v.Y
	}
}

//go:noinline
func cbJoinRuns(pos ecs.ViewMut[cbPos], vel ecs.View[cbVel]) {
	for r := range ecs.Join2(pos, vel).Runs() {
		ps, vs := r.A, r.B[:len(r.A)]
		for i := range ps {
			ps[i].X += vs[i].X
			ps[i].Y += vs[i].Y
		}
	}
}

//go:noinline
func cbJoinEach(pos ecs.ViewMut[cbPos], vel ecs.View[cbVel]) {
	ecs.Join2(pos, vel).Each(func(p *cbPos, v *cbVel) {
		p.X += v.X
		p.Y += v.Y
	})
}

// BenchmarkJoinStart measures what making a join and starting an iteration
// costs, apart from the entities: Join2 ranged over with All and with
// Runs, over 0 and 16 entities with both components (ns/op: per join gone
// through). Each iteration reads the join's views again (see Iter2), which
// matters to systems that go through many small joins.
func BenchmarkJoinStart(b *testing.B) {
	for _, n := range []int{0, 16} {
		w := ecs.NewWorld()
		for range n {
			_, err := ecs.AddEntity2(w, cbPos{}, cbVel{1, 1})
			cbCheck(b, err)
		}
		var pos ecs.ViewMut[cbPos]
		var vel ecs.View[cbVel]
		cbBorrow(b, w, &pos, &vel)
		for _, impl := range []struct {
			name string
			fn   func(ecs.ViewMut[cbPos], ecs.View[cbVel])
		}{{"slipway-all", cbJoinAll}, {"slipway-runs", cbJoinRuns}} {
			b.Run(impl.name+"/n="+strconv.Itoa(n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					impl.fn(pos, vel)
				}
			})
		}
	}
}
