package bench

// Shared pieces of the suite: the components, the sizes, naming, the
// metrics and the timed loop (with untimed resets for workloads whose rounds
// consume their state),
// and world-building helpers used by the setups (never timed).

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/slipway-ecs/slipway/ecs"
)

// The components. Every one is a struct of two float64, as the issue asks.
type (
	Position struct{ X, Y float64 }
	Velocity struct{ X, Y float64 }

	C1  struct{ X, Y float64 }
	C2  struct{ X, Y float64 }
	C3  struct{ X, Y float64 }
	C4  struct{ X, Y float64 }
	C5  struct{ X, Y float64 }
	C6  struct{ X, Y float64 }
	C7  struct{ X, Y float64 }
	C8  struct{ X, Y float64 }
	C9  struct{ X, Y float64 }
	C10 struct{ X, Y float64 }
)

// pair is the shape every component shares; generic helpers convert it.
type pair = struct{ X, Y float64 }

// sizes are the entity counts N of the main workloads. With -short only the
// first two run: a quick check that everything works.
var sizes = []int{1_000, 16_000, 256_000, 1_000_000}

func sizesFor() []int {
	if testing.Short() {
		return sizes[:2]
	}
	return sizes
}

// impl is one implementation of a workload: run sets up its state for n
// entities (untimed) and runs the timed rounds with measure or measureReset.
type impl struct {
	name string
	run  func(b *testing.B, n int)
}

// runImpls runs every impl at every size, as Benchmark<Workload>/<impl>/n=<N>.
// Sizes are the outer loop, so the implementations compared at one N run
// close together in time on this shared machine.
func runImpls(b *testing.B, impls ...impl) {
	runImplsAt(b, sizesFor(), impls...)
}

func runImplsAt(b *testing.B, ns []int, impls ...impl) {
	for _, n := range ns {
		for _, im := range impls {
			b.Run(benchName(im.name, n), func(b *testing.B) {
				b.ReportAllocs()
				im.run(b, n)
			})
		}
	}
}

func benchName(impl string, n int) string { return impl + "/n=" + strconv.Itoa(n) }

// measure runs the timed rounds of a workload over n entities and reports
// two metrics besides ns/op: ns/entity, the wall time of a round divided by
// n (the figure the targets are stated in), and cpu-ns/entity, the CPU time
// the process used over the same rounds divided by n. On a machine shared
// with other work the wall time includes the time this process waited for a
// core; the CPU time does not (it does include the garbage collector's
// background work). For workloads that run on several cores, cpu-ns/entity
// adds up the cores.
//
// One untimed round runs first, so that what happens once (a system's first
// analysis, a storage's growth, a free list's growth) is not counted: the
// figures are for the steady state.
func measure(b *testing.B, n int, round func()) {
	measureReset(b, n, 1, nil, func(int) { round() })
}

// measureReset is measure for a workload whose round consumes its state (it
// deletes every entity of a world, or fills a world that must be emptied
// again). There are states states; reset(i) prepares state i and round(i)
// uses it. Each state first gets an untimed warm-up round (reset, round),
// then all are prepared; once every one has been used they are all prepared
// again with the timer stopped (their CPU time left out too). Several states
// per batch keep the number of timer stops small when n is small. With
// reset nil, round(0) runs every time and nothing is prepared.
func measureReset(b *testing.B, n, states int, reset, round func(i int)) {
	for i := range states {
		if reset != nil {
			reset(i)
		}
		round(i)
	}
	if reset != nil {
		for i := range states {
			reset(i)
		}
	}
	next := 0
	var paused time.Duration
	// A b.N loop, not b.Loop: b.Loop with the timer stopped never ends
	// under Go 1.24.0 and 1.24.1 (golang/go#72922), which go.mod admits.
	b.ResetTimer()
	cpuStart := processCPU()
	for range b.N {
		if reset != nil && next == states {
			p := processCPU()
			b.StopTimer()
			for i := range states {
				reset(i)
			}
			b.StartTimer()
			paused += processCPU() - p
			next = 0
		}
		round(next)
		if reset != nil {
			next++
		}
	}
	cpu := processCPU() - cpuStart - paused
	rounds := float64(b.N) * float64(n)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/rounds, "ns/entity")
	b.ReportMetric(float64(cpu.Nanoseconds())/rounds, "cpu-ns/entity")
}

func check(tb testing.TB, err error) {
	if err != nil {
		// Helper only here: it walks the stack, and set-up loops call
		// check once per entity.
		tb.Helper()
		tb.Fatal(err)
	}
}

// resetBudget bounds the entities a batch of consumable states holds: see
// measureReset.
const resetBudget = 16_000

// batchFor returns how many states of n entities measureReset prepares at
// once.
func batchFor(n int) int { return max(1, resetBudget/n) }

// column returns n components of type T, component i being {i, 1}.
func column[T ~pair](n int) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = T(pair{float64(i), 1})
	}
	return s
}

// constColumn returns n copies of the component {x, y}.
func constColumn[T ~pair](n int, x, y float64) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = T(pair{x, y})
	}
	return s
}

// addTo gives each ids[i] for which keep(i) holds (every one if keep is nil)
// the component {1, 2} of type T, through a ViewMut borrowed for the call:
// the fast way to build a setup one storage at a time.
func addTo[T ~pair](tb testing.TB, w *ecs.World, ids []ecs.EntityID, keep func(i int) bool) {
	tb.Helper()
	var v ecs.ViewMut[T]
	release, err := w.Borrow(&v)
	check(tb, err)
	defer release()
	c := T(pair{1, 2})
	for i, id := range ids {
		if keep == nil || keep(i) {
			check(tb, v.AddComponentUnchecked(id, c))
		}
	}
}

// addC[k] is addTo for component C<k+1>.
var addC = [...]func(testing.TB, *ecs.World, []ecs.EntityID, func(int) bool){
	addTo[C1], addTo[C2], addTo[C3], addTo[C4], addTo[C5],
	addTo[C6], addTo[C7], addTo[C8], addTo[C9], addTo[C10],
}

// hasBit returns a keep function for addTo: entity i is kept when bit k of
// masks[i] is set.
func hasBit(masks []uint8, k int) func(int) bool {
	return func(i int) bool { return masks[i]&(1<<k) != 0 }
}

// newRand returns the suite's random source: fixed seeds, so every run
// builds the same worlds.
func newRand() *rand.Rand { return rand.New(rand.NewPCG(0x5119, 0x3a7)) }

// layout is how a Slipway world is prepared before a workload fills it.
// Every Slipway variant of a workload whose name is not "slipway-bulk" is
// a layout: the same setup and the same timed work, in a world prepared
// differently: groupLayout is one.
type layout struct {
	name    string
	prepare func(w *ecs.World) error // nil: nothing to prepare
}

// plainLayout is the default: storages as the world makes them.
var plainLayout = layout{name: "slipway"}

// groupLayout declares a packed owning group over Position and Velocity
// before the workload fills the world: queries over both run on aligned
// slices, and adding or removing Velocity moves the entity across the
// group's boundary.
var groupLayout = layout{name: "slipway-group", prepare: func(w *ecs.World) error { return ecs.AddGroup2[Position, Velocity](w) }}

// newWorld returns an empty world prepared by l.
func (l layout) newWorld(tb testing.TB) *ecs.World {
	tb.Helper()
	w := ecs.NewWorld()
	if l.prepare != nil {
		check(tb, l.prepare(w))
	}
	return w
}

// Sinks keep results alive so the work that produced them is not removed.
var (
	sinkF     float64
	sinkWorld *ecs.World
)

// borrowMovers borrows w's Position and Velocity storages for reading;
// the caller calls release when done.
func borrowMovers(tb testing.TB, w *ecs.World) (pos ecs.View[Position], vel ecs.View[Velocity], release func()) {
	tb.Helper()
	release, err := w.Borrow(&pos, &vel)
	check(tb, err)
	return pos, vel, release
}
