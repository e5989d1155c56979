package ecs_test

// The "Unique" chapter: unique components (resources) for data there is
// exactly one of, added with AddUnique and reached with UniqueView and
// UniqueViewMut.

import (
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

type Camera struct{ X, Y, Zoom float32 }

// TestBookUnique follows the snippet: add a Camera, then run a system that
// borrows it.
func TestBookUnique(t *testing.T) {
	w := ecs.NewWorld()
	must(t, ecs.AddUnique(w, Camera{Zoom: 1}))
	ran := false
	must(t, w.Run(func(camera ecs.UniqueView[Camera]) {
		ran = true
		equal(t, "camera", camera.Get(), Camera{Zoom: 1})
	}))
	isTrue(t, ran, "system did not run")
	// A unique is not attached to an entity.
	equal(t, "EntityCount", w.EntityCount(), 0)
}

// TestBookUniqueMut: UniqueViewMut changes the unique in place; the change
// is seen by later systems and by GetUnique.
func TestBookUniqueMut(t *testing.T) {
	w := ecs.NewWorld()
	must(t, ecs.AddUnique(w, Camera{Zoom: 1}))
	must(t, w.Run(func(camera ecs.UniqueViewMut[Camera]) {
		c := camera.Get()
		c.X, c.Zoom = 5, 2
	}))
	got, err := ecs.GetUnique[Camera](w)
	must(t, err)
	equal(t, "camera after the system", got, Camera{X: 5, Zoom: 2})
	// GetUnique returns a copy.
	got.X = 100
	again, err := ecs.GetUnique[Camera](w)
	must(t, err)
	equal(t, "camera after changing the copy", again.X, float32(5))
	// UniqueView.Get returns a copy too.
	must(t, w.Run(func(camera ecs.UniqueView[Camera]) {
		c := camera.Get()
		c.X = 100
		equal(t, "through the view", camera.Get().X, float32(5))
	}))
}

// TestBookUniqueMissing: a system asking for a unique that was never added
// does not run; the error names the type and says what to do.
func TestBookUniqueMissing(t *testing.T) {
	w := ecs.NewWorld()
	err := w.Run(func(_ ecs.View[Pos], _ ecs.UniqueView[Camera]) { t.Error("system ran without its unique") })
	errIs(t, err, ecs.ErrMissingUnique)
	ue := errAs[*ecs.UniqueError](t, err)
	equal(t, "UniqueError.Type", ue.Type, "ecs_test.Camera")
	hasAll(t, err.Error(), "ecs_test.Camera", "AddUnique")
	errAs[*ecs.SystemFailure](t, err)

	_, err = ecs.GetUnique[Camera](w)
	errIs(t, err, ecs.ErrMissingUnique)
	_, err = ecs.RemoveUnique[Camera](w)
	errIs(t, err, ecs.ErrMissingUnique)

	// Nothing stays borrowed after the failed system: an exclusive borrow
	// of the storage borrowed before the unique works.
	var vm ecs.ViewMut[Pos]
	release, err := w.Borrow(&vm)
	must(t, err)
	release()
	// Neither after a failed World.Borrow.
	var camera ecs.UniqueView[Camera]
	var pos ecs.View[Pos]
	_, err = w.Borrow(&pos, &camera)
	errIs(t, err, ecs.ErrMissingUnique)
	release, err = w.Borrow(&vm)
	must(t, err)
	release()
}

// TestBookUniqueReplaceRemove: AddUnique replaces; RemoveUnique takes the
// value out, after which the unique is missing until added again.
func TestBookUniqueReplaceRemove(t *testing.T) {
	w := ecs.NewWorld()
	must(t, ecs.AddUnique(w, Camera{Zoom: 1}))
	must(t, ecs.AddUnique(w, Camera{Zoom: 3}))
	got, err := ecs.GetUnique[Camera](w)
	must(t, err)
	equal(t, "replaced camera", got.Zoom, float32(3))

	removed, err := ecs.RemoveUnique[Camera](w)
	must(t, err)
	equal(t, "removed camera", removed.Zoom, float32(3))
	_, err = ecs.GetUnique[Camera](w)
	errIs(t, err, ecs.ErrMissingUnique)
	errIs(t, w.Run(func(ecs.UniqueView[Camera]) {}), ecs.ErrMissingUnique)

	must(t, ecs.AddUnique(w, Camera{Zoom: 4}))
	must(t, w.Run(func(c ecs.UniqueView[Camera]) { equal(t, "re-added", c.Get().Zoom, float32(4)) }))

	// Uniques of different types are independent; a pointer type is a
	// unique of its own.
	must(t, ecs.AddUnique(w, 42))
	must(t, ecs.AddUnique(w, &Camera{Zoom: 9}))
	n, err := ecs.GetUnique[int](w)
	must(t, err)
	equal(t, "int unique", n, 42)
	p, err := ecs.GetUnique[*Camera](w)
	must(t, err)
	equal(t, "*Camera unique", p.Zoom, float32(9))
	got, err = ecs.GetUnique[Camera](w)
	must(t, err)
	equal(t, "Camera unique", got.Zoom, float32(4))
}

// TestBookUniqueBorrowRules: a unique follows the borrow rules of any
// storage, and the World functions are refused while it is exclusively
// borrowed.
func TestBookUniqueBorrowRules(t *testing.T) {
	w := ecs.NewWorld()
	must(t, ecs.AddUnique(w, Camera{Zoom: 1}))
	var cm ecs.UniqueViewMut[Camera]
	release, err := w.Borrow(&cm)
	must(t, err)
	_, err = ecs.GetUnique[Camera](w)
	errIs(t, err, ecs.ErrBorrowConflict)
	err = ecs.AddUnique(w, Camera{Zoom: 7})
	errIs(t, err, ecs.ErrBorrowConflict)
	_, err = ecs.RemoveUnique[Camera](w)
	errIs(t, err, ecs.ErrBorrowConflict)
	err = w.Run(func(ecs.UniqueView[Camera]) {})
	be := errAs[*ecs.BorrowError](t, err)
	equal(t, "held", be.HeldAccess, "UniqueViewMut[ecs_test.Camera]")
	equal(t, "asked", be.Access, "UniqueView[ecs_test.Camera]")
	cm.Get().Zoom = 2
	release()

	got, err := ecs.GetUnique[Camera](w)
	must(t, err)
	equal(t, "camera: the refused AddUnique changed nothing", got.Zoom, float32(2))
}

// TestBookUniquePlayer is the Square Eater's use: the player is a unique,
// moved by one system and read by another along with the friends.
func TestBookUniquePlayer(t *testing.T) {
	w := ecs.NewWorld()
	must(t, ecs.AddUnique(w, bookPlayer{bookSquare{0, 0, 15}}))
	_, err := ecs.BulkAddEntity1(w, []bookFriend{{bookSquare{1, 1, 5}}, {bookSquare{2, 2, 25}}})
	must(t, err)
	movePlayer := func(player ecs.UniqueViewMut[bookPlayer]) {
		p := player.Get()
		p.X = min(max(300, 0), 200-p.Size) // mouse at 300 in a 200-wide window
		p.Y = min(max(-5, 0), 100-p.Size)
	}
	var bigger int
	render := func(player ecs.UniqueView[bookPlayer], vFriend ecs.View[bookFriend]) {
		for f := range vFriend.All() {
			if f.Size > player.Get().Size {
				bigger++
			}
		}
	}
	must(t, w.Run(movePlayer))
	must(t, w.Run(render))
	p, err := ecs.GetUnique[bookPlayer](w)
	must(t, err)
	equal(t, "player clamped", p.bookSquare, bookSquare{185, 0, 15})
	equal(t, "friends bigger than the player", bigger, 1)
}

// TestBookUniqueThroughAllStorages: the unique functions take any Storages.
func TestBookUniqueThroughAllStorages(t *testing.T) {
	w := ecs.NewWorld()
	must(t, w.Run(func(all ecs.AllStoragesViewMut) {
		must(t, ecs.AddUnique(all, Camera{Zoom: 5}))
		c, err := ecs.GetUnique[Camera](all)
		must(t, err)
		equal(t, "camera inside the system", c.Zoom, float32(5))
	}))
	c, err := ecs.GetUnique[Camera](w)
	must(t, err)
	equal(t, "camera after the system", c.Zoom, float32(5))
}

// bookFrames is the snippet's frame counter: ready at its zero value.
type bookFrames struct{ N int }

// bookRng is the snippet's random source, seeded once.
type bookRng struct{ Seed int64 }

// TestBookUniqueOrDefault follows "Uniques that add themselves": the first
// borrow adds the zero value, with no AddUnique, through the read view as
// well as the write view; a present unique is left as it is.
func TestBookUniqueOrDefault(t *testing.T) {
	w := ecs.NewWorld()
	var seen []int
	report := func(frames ecs.UniqueOrDefault[bookFrames]) { seen = append(seen, frames.Get().N) }
	tick := func(frames ecs.UniqueOrDefaultMut[bookFrames]) { frames.Get().N++ }
	must(t, w.Run(report))
	must(t, w.Run(tick))
	must(t, w.Run(tick))
	must(t, w.Run(report))
	deepEqual(t, "frames seen", seen, []int{0, 2})
	got, err := ecs.GetUnique[bookFrames](w)
	must(t, err)
	equal(t, "frames", got.N, 2)
	// Added by hand first: the views keep the value.
	must(t, ecs.AddUnique(w, bookFrames{N: 40}))
	must(t, w.Run(tick))
	must(t, w.Run(report))
	deepEqual(t, "frames seen", seen, []int{0, 2, 41})
	// Removed: the next borrow adds it again.
	_, err = ecs.RemoveUnique[bookFrames](w)
	must(t, err)
	must(t, w.Run(report))
	deepEqual(t, "frames seen", seen, []int{0, 2, 41, 0})
}

// TestBookUniqueOrInit follows the seeded source: init runs once, only
// when the unique is missing, and captures the caller's seed.
func TestBookUniqueOrInit(t *testing.T) {
	w := ecs.NewWorld()
	seed, inits := int64(42), 0
	spawn := func(rng ecs.UniqueOrInitMut[bookRng]) error {
		r, err := rng.GetOrInit(func() bookRng { inits++; return bookRng{Seed: seed} })
		if err != nil {
			return err
		}
		r.Seed++
		return nil
	}
	must(t, w.Run(spawn))
	must(t, w.Run(spawn))
	equal(t, "inits", inits, 1)
	must(t, w.Run(func(rng ecs.UniqueOrInitMut[bookRng]) {
		r, ok := rng.Get()
		isTrue(t, ok && r.Seed == 44, "Get: %v %v", r, ok)
	}))
	// A system that returns GetOrInit's error: a nil init.
	err := w.Run(func(rng ecs.UniqueOrInitMut[bookFrames]) error {
		_, err := rng.GetOrInit(nil)
		return err
	})
	errIs(t, err, ecs.ErrNilFunc)
	errAs[*ecs.SystemFailure](t, err)
	_, err = ecs.GetUnique[bookFrames](w)
	errIs(t, err, ecs.ErrMissingUnique)
}

// TestBookUniqueOrWorkload follows the plan snippet: a UniqueOrDefault is a
// writer of its unique, so a UniqueView of it goes to the next batch, and
// two of them in one workload add the unique once, in declared order.
func TestBookUniqueOrWorkload(t *testing.T) {
	w := ecs.NewWorld()
	read1 := func(s ecs.UniqueOrDefault[bookFrames]) {}
	read2 := func(s ecs.UniqueView[bookFrames]) {}
	must(t, w.AddWorkload("frame", read1, read2))
	plan, err := w.WorkloadPlan("frame")
	must(t, err)
	equal(t, "batches", len(plan.Batches), 2)
	equal(t, "reason", plan.Systems[1].Reason,
		"conflict: UniqueView[ecs_test.bookFrames] vs UniqueOrDefault[ecs_test.bookFrames] on unique ecs_test.bookFrames")
	must(t, w.RunWorkload("frame"))

	// The read view runs beside systems on other storages.
	w2 := ecs.NewWorld()
	other := func(v ecs.View[Pos]) {}
	must(t, w2.AddWorkload("frame", read1, other))
	plan, err = w2.WorkloadPlan("frame")
	must(t, err)
	equal(t, "batches beside another storage", len(plan.Batches), 1)
}
