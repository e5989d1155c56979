package bench

// The churned workloads: Query2Comp, Query256Arch and Random on a world
// that went through the changes a game makes between frames (the churn,
// untimed), and FrameChurn, a whole frame of such changes followed by the
// query.
//
// The churn (the issue tracker's definition), one entity at a time:
//
//   - a random fifth of the queried entities lose one of their queried
//     components (ViewMut.Remove), then get it back with the same value
//     (ViewMut.AddComponentUnchecked), in another random order;
//   - a random tenth of the other entities are deleted
//     (AllStoragesViewMut.DeleteEntity), and as many created
//     (ViewMut.AddEntity, then AddComponentUnchecked), each with the
//     components and the Position of one deleted.
//
// A fresh set-up has every storage in creation order: the movers' Position
// and Velocity line up, and a storage filled in index order keeps its
// identity prefix. The churn breaks both, as a running game does: removal
// swaps a storage's last component into the hole, and a component given
// back is appended.
//
// Which entities churn comes from newChurnRand, a fixed seed, and from the
// entities in index order: every run, and every layout of a workload,
// churns the same entities in the same order.

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// The shares of the churn.
const (
	churnQueriedDiv = 5  // a fifth of the queried entities lose a component and get it back
	churnOthersDiv  = 10 // a tenth of the others are deleted and as many created
)

// newChurnRand returns the churn's random source: a fixed seed, other than
// newRand's, so that which entities churn does not follow the choices the
// set-up made with newRand (Query256Arch's component subsets).
func newChurnRand() *rand.Rand { return rand.New(rand.NewPCG(0xc4a2, 0x5eed)) }

// The queried components an entity can lose.
const (
	losePosition = iota
	loseVelocity
)

// churnSpec says how a set-up churns.
type churnSpec struct {
	// lose are the components a queried entity can lose: one of them, at
	// random, for each entity that churns.
	lose []int
	// cs: the others may have components among C1..C<cs>; an entity
	// created in a deleted one's place gets the same ones.
	cs int
	// all: every entity with a Position is both queried and one of the
	// others (Random). Otherwise the queried entities are those with
	// Position and Velocity, the others those with Position only.
	all bool
}

var (
	// Query2Comp: the movers lose Velocity; the others have Position only.
	query2CompChurn = churnSpec{lose: []int{loseVelocity}}
	// Query256Arch: the movers lose Position or Velocity, half and half
	// on average; the others have Position and a subset of C1..C8.
	query256ArchChurn = churnSpec{lose: []int{losePosition, loseVelocity}, cs: 8}
	// Random: every entity is looked up; they lose their Position, and a
	// tenth of them are deleted and replaced.
	randomChurn = churnSpec{lose: []int{losePosition}, all: true}
)

// churnLog is what churnWorld did, for the tests.
type churnLog struct {
	lost    []ecs.EntityID // the queried entities that lost a component, in that order
	kinds   []int          // the component each lost
	deleted []ecs.EntityID // the others deleted, in that order
	like    []ecs.EntityID // the same entities in index order
	created []ecs.EntityID // created[i] has like[i]'s components and Position
}

// BenchmarkQuery2CompChurned: Query2Comp after the churn (a fifth of the
// movers lose Velocity and get it back, a tenth of the 10N others are
// replaced). The same implementations as Query2Comp; the plain baseline is
// Query2Comp's, since an array of structs has no storage order to lose.
func BenchmarkQuery2CompChurned(b *testing.B) { benchQuery(b, buildQuery2CompChurned) }

// BenchmarkQuery256ArchChurned: Query256Arch after the churn (a fifth of
// the movers lose Position or Velocity and get it back, a tenth of the 4N
// others are replaced by entities with the same components). The plain
// baseline is Query256Arch's.
func BenchmarkQuery256ArchChurned(b *testing.B) { benchQuery(b, buildQuery256ArchChurned) }

// BenchmarkRandomChurned: Random after the churn (a fifth of the entities
// lose their Position and get it back, a tenth are replaced); the round
// looks up every live entity, in a shuffled order. The plain baseline is
// Random's: a slice indexed with shuffled indices has nothing to churn.
func BenchmarkRandomChurned(b *testing.B) { runImpls(b, randomImpls(buildRandomChurned)...) }

// buildQuery2CompChurned is buildQuery2Comp, then the churn.
func buildQuery2CompChurned(tb testing.TB, w *ecs.World, n int) {
	tb.Helper()
	buildQuery2Comp(tb, w, n)
	churnWorld(tb, w, query2CompChurn)
}

// buildQuery256ArchChurned is buildQuery256Arch, then the churn.
func buildQuery256ArchChurned(tb testing.TB, w *ecs.World, n int) {
	tb.Helper()
	buildQuery256Arch(tb, w, n)
	churnWorld(tb, w, query256ArchChurn)
}

// buildRandomChurned is buildRandom, then the churn; the ids are those of
// the n live entities after it, in a shuffled order.
func buildRandomChurned(tb testing.TB, n int) (*ecs.World, []ecs.EntityID) {
	tb.Helper()
	w, _ := buildRandom(tb, n)
	churnWorld(tb, w, randomChurn)
	var pos ecs.View[Position]
	release, err := w.Borrow(&pos)
	check(tb, err)
	ids := slices.Clone(pos.IDs())
	release()
	newRand().Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	return w, ids
}

// churnWorld churns w as spec says, one entity at a time, and returns what
// it did.
func churnWorld(tb testing.TB, w *ecs.World, spec churnSpec) churnLog {
	tb.Helper()
	rng := newChurnRand()
	queried, others := churnSplit(tb, w, spec)
	var log churnLog
	for _, i := range pickDistinct(rng, len(queried), len(queried)/churnQueriedDiv) {
		log.lost = append(log.lost, queried[i])
		log.kinds = append(log.kinds, spec.lose[rng.IntN(len(spec.lose))])
	}
	back := rng.Perm(len(log.lost))
	check(tb, w.Run(func(pos ecs.ViewMut[Position], vel ecs.ViewMut[Velocity]) error {
		vals := make([]pair, len(log.lost))
		for i, id := range log.lost {
			ok := false
			switch log.kinds[i] {
			case losePosition:
				var p Position
				p, ok = pos.Remove(id)
				vals[i] = pair(p)
			case loseVelocity:
				var v Velocity
				v, ok = vel.Remove(id)
				vals[i] = pair(v)
			}
			if !ok {
				return fmt.Errorf("churn: %v has no component %d to lose", id, log.kinds[i])
			}
		}
		for _, i := range back {
			var err error
			switch log.kinds[i] {
			case losePosition:
				err = pos.AddComponentUnchecked(log.lost[i], Position(vals[i]))
			case loseVelocity:
				err = vel.AddComponentUnchecked(log.lost[i], Velocity(vals[i]))
			}
			if err != nil {
				return err
			}
		}
		return nil
	}))

	picks := pickDistinct(rng, len(others), len(others)/churnOthersDiv)
	for _, i := range picks {
		log.deleted = append(log.deleted, others[i])
	}
	// What they hold is read, and given to the new entities, in index
	// order (others is in index order): reading it in the order of
	// deletion would wait on memory for each of their components.
	slices.Sort(picks)
	for _, i := range picks {
		log.like = append(log.like, others[i])
	}
	sv, release := borrowShapes(tb, w, spec.cs)
	masks, vals := make([]uint8, len(log.like)), make([]Position, len(log.like))
	for i, id := range log.like {
		vals[i] = *sv.pos.MustGet(id)
		for k, c := range sv.cs {
			if c.has(id) {
				masks[i] |= 1 << k
			}
		}
	}
	release()
	check(tb, w.Run(deleteSystem(&log.deleted)))
	sv, release = borrowShapes(tb, w, spec.cs)
	defer release()
	for i, m := range masks {
		id := sv.pos.AddEntity(sv.ents, vals[i])
		for k, c := range sv.cs {
			if m&(1<<k) != 0 {
				check(tb, c.add(id))
			}
		}
		log.created = append(log.created, id)
	}
	return log
}

// churnSplit returns the queried entities and the others of w (see
// churnSpec.all), in index order.
func churnSplit(tb testing.TB, w *ecs.World, spec churnSpec) (queried, others []ecs.EntityID) {
	tb.Helper()
	var ents ecs.EntitiesView
	var pos ecs.View[Position]
	var vel ecs.View[Velocity]
	release, err := w.Borrow(&ents, &pos, &vel)
	check(tb, err)
	defer release()
	queried = make([]ecs.EntityID, 0, vel.Len())
	if !spec.all {
		others = make([]ecs.EntityID, 0, pos.Len()-vel.Len())
	}
	for id := range ents.All() {
		switch {
		case !pos.Contains(id):
		case spec.all:
			queried = append(queried, id)
		case vel.Contains(id):
			queried = append(queried, id)
		default:
			others = append(others, id)
		}
	}
	if spec.all {
		others = queried
	}
	return queried, others
}

// pickDistinct returns k distinct numbers of [0, m) in a random order.
func pickDistinct(rng *rand.Rand, m, k int) []int {
	if 2*k > m {
		return rng.Perm(m)[:k]
	}
	taken := make([]uint64, (m+63)/64)
	picks := make([]int, 0, k)
	for len(picks) < k {
		i := rng.IntN(m)
		if bit := uint64(1) << (i % 64); taken[i/64]&bit == 0 {
			taken[i/64] |= bit
			picks = append(picks, i)
		}
	}
	return picks
}

// shapeViews are the views that read and give an entity of the churned
// set-ups its components: the entities, Position and C1..C<len(cs)>.
type shapeViews struct {
	ents ecs.EntitiesViewMut
	pos  ecs.ViewMut[Position]
	cs   []cOps
}

// cOps are the operations of the churn on one of C1..C8.
type cOps struct {
	has func(ecs.EntityID) bool
	add func(ecs.EntityID) error // gives the entity {1, 2}, as addTo does
}

// cViewOf returns a view of T to borrow and the operations on it, valid
// once it is borrowed.
func cViewOf[T ~pair]() (any, cOps) {
	v := new(ecs.ViewMut[T])
	return v, cOps{
		has: func(id ecs.EntityID) bool { return v.Contains(id) },
		add: func(id ecs.EntityID) error { return v.AddComponentUnchecked(id, T(pair{1, 2})) },
	}
}

// cViews[k] is cViewOf for C<k+1>.
var cViews = [...]func() (any, cOps){
	cViewOf[C1], cViewOf[C2], cViewOf[C3], cViewOf[C4],
	cViewOf[C5], cViewOf[C6], cViewOf[C7], cViewOf[C8],
}

// borrowShapes borrows the shape views of w with C1..C<cs>.
func borrowShapes(tb testing.TB, w *ecs.World, cs int) (shapeViews, func()) {
	tb.Helper()
	var sv shapeViews
	views := []any{&sv.ents, &sv.pos}
	for _, c := range cViews[:cs] {
		v, ops := c()
		views = append(views, v)
		sv.cs = append(sv.cs, ops)
	}
	release, err := w.Borrow(views...)
	check(tb, err)
	return sv, release
}

// BenchmarkFrameChurn: Query2Comp's world after the churn, mixed (see
// mixVelocities); every round is a frame: 1% of the world's 11N entities
// change, one entity at a time and in the proportions of the churn (per
// mover that loses its Velocity and gets it back, five others deleted and
// replaced: 0.22N calls), then the move system runs over the world.
// ns/entity is the frame's time per entity the query visits (N: every
// Velocity taken away in a frame is given back before the query).
// The plain baseline (churn_plain_test.go) makes the same changes to two
// tables of slices.
func BenchmarkFrameChurn(b *testing.B) {
	impls := []impl{plainFrameChurnImpl}
	for _, l := range queryLayouts {
		impls = append(impls, impl{l.name, func(b *testing.B, n int) {
			w := buildFrameChurn(b, l, n)
			f := newFrameChurn(b, w, n)
			// Frames before measure's warm-up one: the first few still
			// grow what deleting and creating entities use (at 1M, tens
			// of allocations, which over the few rounds a second holds
			// would read as allocations per frame).
			for range frameWarmUp {
				check(b, f.frame(w))
			}
			measure(b, n, func() { check(b, f.frame(w)) })
			if got := f.matched(b, w); got != n {
				b.Fatalf("the last frame's query visited %d entities, want %d", got, n)
			}
		}})
	}
	runImpls(b, impls...)
}

// frameWarmUp is how many untimed frames FrameChurn runs besides
// measure's warm-up round.
const frameWarmUp = 3

// buildFrameChurn returns the world of FrameChurn in layout l:
// buildQuery2CompChurned's, then mixVelocities.
func buildFrameChurn(tb testing.TB, l layout, n int) *ecs.World {
	tb.Helper()
	w := l.newWorld(tb)
	buildQuery2CompChurned(tb, w, n)
	mixVelocities(tb, w)
	return w
}

// mixVelocities takes every Velocity away and gives them back in a random
// order, one at a time: the order that frame after frame of churn leads
// to (each Velocity taken away lets the storage's last fill its place,
// and comes back at the end), reached at once. A world that had only the
// churn of the set-ups would go on mixing during the timed frames, and
// the figure would depend on how many frames ran.
func mixVelocities(tb testing.TB, w *ecs.World) {
	tb.Helper()
	movers, _ := churnSplit(tb, w, query2CompChurn)
	order := newChurnRand().Perm(len(movers))
	check(tb, w.Run(func(vel ecs.ViewMut[Velocity]) error {
		vs := make([]Velocity, len(movers))
		for i, id := range movers {
			vs[i], _ = vel.Remove(id)
		}
		for _, i := range order {
			if err := vel.AddComponentUnchecked(movers[i], vs[i]); err != nil {
				return err
			}
		}
		return nil
	}))
}

// frameShares returns how many movers lose their Velocity (and get it
// back) and how many others are replaced in a frame of FrameChurn over n
// movers and 10n others: 1% of the 11n entities, a sixth of them movers,
// as in the churn (n/5 movers against n others).
func frameShares(n int) (movers, others int) {
	touched := 11 * n / 100
	movers = touched / 6
	return movers, touched - movers
}

// frameChurn is the state of FrameChurn: who can churn, and the systems of
// a frame, made once.
type frameChurn struct {
	rng    *rand.Rand
	movers []ecs.EntityID // the entities with Position and Velocity: their ids do not change
	others []ecs.EntityID // the entities with Position only, updated as they are replaced
	km, ko int

	lost   []ecs.EntityID // the movers that lost their Velocity this frame
	doomed []int          // the indices in others of the entities deleted this frame
	dead   []ecs.EntityID // their ids
	taken  []uint64       // a set of indices in others, so that doomed has no repeats

	// The systems of a frame. They return no error, which World.Run
	// would have to box: the first one goes to err.
	lose    func(ecs.ViewMut[Velocity])
	delete  func(ecs.AllStoragesViewMut)
	replace func(ecs.EntitiesViewMut, ecs.ViewMut[Position], ecs.ViewMut[Velocity])
	err     error
}

func newFrameChurn(tb testing.TB, w *ecs.World, n int) *frameChurn {
	tb.Helper()
	movers, others := churnSplit(tb, w, query2CompChurn)
	f := &frameChurn{rng: newChurnRand(), movers: movers, others: others, taken: make([]uint64, (len(others)+63)/64)}
	f.km, f.ko = frameShares(n)
	f.lost, f.doomed = make([]ecs.EntityID, 0, f.km), make([]int, 0, f.ko)
	f.dead = make([]ecs.EntityID, 0, f.ko)
	f.lose = f.loseVelocities
	f.delete = f.deleteOthers
	f.replace = f.replaceOthers
	return f
}

// frame runs one frame on w: the changes, in three systems (velocities
// taken away and the entities to replace chosen; those deleted, with
// AllStoragesViewMut as the guide advises for many; their replacements
// created and the velocities given back), then the query.
func (f *frameChurn) frame(w *ecs.World) error {
	if err := w.Run(f.lose); err != nil {
		return err
	}
	if err := w.Run(f.delete); err != nil {
		return err
	}
	if err := w.Run(f.replace); err != nil {
		return err
	}
	if f.err != nil {
		return f.err
	}
	return w.Run(move)
}

// loseVelocities takes the Velocity of km movers drawn at random (a mover
// drawn twice loses it once), then draws ko distinct others to replace.
func (f *frameChurn) loseVelocities(vel ecs.ViewMut[Velocity]) {
	f.lost = f.lost[:0]
	for range f.km {
		if id := f.movers[f.rng.IntN(len(f.movers))]; vel.Delete(id) {
			f.lost = append(f.lost, id)
		}
	}
	f.doomed, f.dead = f.doomed[:0], f.dead[:0]
	for len(f.doomed) < f.ko {
		i := f.rng.IntN(len(f.others))
		if bit := uint64(1) << (i % 64); f.taken[i/64]&bit == 0 {
			f.taken[i/64] |= bit
			f.doomed, f.dead = append(f.doomed, i), append(f.dead, f.others[i])
		}
	}
}

// deleteOthers deletes the others drawn, one at a time.
func (f *frameChurn) deleteOthers(all ecs.AllStoragesViewMut) {
	for _, id := range f.dead {
		if err := all.DeleteEntity(id); err != nil {
			f.err = cmp.Or(f.err, err)
		}
	}
}

// replaceOthers creates an entity with the Position {1, 1} in the place
// of each one deleted, then gives the movers their Velocity back, in the
// reverse order.
func (f *frameChurn) replaceOthers(ents ecs.EntitiesViewMut, pos ecs.ViewMut[Position], vel ecs.ViewMut[Velocity]) {
	for _, i := range f.doomed {
		f.others[i] = pos.AddEntity(ents, Position{1, 1})
		f.taken[i/64] = 0
	}
	for i := len(f.lost) - 1; i >= 0; i-- {
		if err := vel.AddComponentUnchecked(f.lost[i], Velocity{1, 2}); err != nil {
			f.err = cmp.Or(f.err, err)
		}
	}
}

// matched returns how many entities the query of a frame visits now.
func (f *frameChurn) matched(tb testing.TB, w *ecs.World) int {
	tb.Helper()
	pos, vel, release := borrowMovers(tb, w)
	defer release()
	return ecs.Join2(pos, vel).Count()
}
