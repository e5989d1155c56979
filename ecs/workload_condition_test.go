package ecs_test

// The tracking windows of run conditions: a system's conditions see the
// system's window, and a nested workload's conditions see the workload's
// own, so that a condition on a workload behaves as it would on the
// system the workload holds.

import (
	"errors"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// cwOther is a second tracked type, for a group added between runs.
type cwOther struct{ V int }

func (cwOther) Tracking() ecs.Tracking { return ecs.TrackAll }

// cwWorld returns a world with two entities holding a trLife, and a
// system that modifies, at each frame, the entities poke lists for it
// (frames count from 1; the system reads *frame).
func cwWorld(t *testing.T, frame *int, poke map[int][]int) (*ecs.World, func(ecs.ViewMut[trLife])) {
	t.Helper()
	w := ecs.NewWorld()
	var ids []ecs.EntityID
	for range 2 {
		id, err := ecs.AddEntity2(w, trLife{}, cwOther{})
		must(t, err)
		ids = append(ids, id)
	}
	return w, func(l ecs.ViewMut[trLife]) {
		for _, e := range poke[*frame] {
			l.MustGet(ids[e]).HP++
		}
	}
}

// modifiedAtLeast returns a run condition that holds when at least n
// trLife components are modified in its window.
func modifiedAtLeast(t *testing.T, n int) func(ecs.View[trLife]) bool {
	return func(l ecs.View[trLife]) bool {
		m, err := l.Modified()
		if err != nil {
			t.Error(err)
			return false
		}
		return m.Count() >= n
	}
}

// TestWorkloadConditionSeesItsOwnWindow: a condition on a nested workload
// sees what changed since that workload last ran, exactly as the same
// condition on a system sees what changed since the system last ran. Each
// scenario runs the condition on a system, on a nested workload, on a
// workload nested twice, and on both levels of a nesting, over six
// frames, and each form must run in the same frames.
func TestWorkloadConditionSeesItsOwnWindow(t *testing.T) {
	type form struct {
		name  string
		items func(poke, body any, cond func(ecs.View[trLife]) bool, skip bool) []any
	}
	sys := func(body any, cond any, skip bool) *ecs.SystemSpec {
		if skip {
			return ecs.System(body).SkipIf(cond)
		}
		return ecs.System(body).RunIf(cond)
	}
	wl := func(name string, cond any, skip bool, items ...any) *ecs.WorkloadSpec {
		if skip {
			return ecs.Workload(name, items...).SkipIf(cond)
		}
		return ecs.Workload(name, items...).RunIf(cond)
	}
	forms := []form{
		{"on the system", func(poke, body any, cond func(ecs.View[trLife]) bool, skip bool) []any {
			return []any{poke, sys(body, cond, skip)}
		}},
		{"on a nested workload", func(poke, body any, cond func(ecs.View[trLife]) bool, skip bool) []any {
			return []any{poke, wl("nested", cond, skip, body)}
		}},
		{"on a workload nested twice", func(poke, body any, cond func(ecs.View[trLife]) bool, skip bool) []any {
			return []any{poke, ecs.Workload("outer", wl("nested", cond, skip, body))}
		}},
		{"on a workload in a workload with the same condition", func(poke, body any, cond func(ecs.View[trLife]) bool, skip bool) []any {
			return []any{poke, wl("outer", cond, skip, wl("nested", cond, skip, body))}
		}},
		{"on a workload of two systems", func(poke, body any, cond func(ecs.View[trLife]) bool, skip bool) []any {
			return []any{poke, wl("nested", cond, skip, func() {}, body)}
		}},
	}
	scenarios := []struct {
		name     string
		poke     map[int][]int // the entities modified at each frame, before the condition
		atLeast  int           // the condition: at least this many modified in its window
		skip     bool          // SkipIf instead of RunIf
		bodyPoke bool          // the guarded system modifies entity 1 itself
		want     []int         // the frames in which the guarded system runs
	}{
		{"a change in frame 2 only", map[int][]int{2: {0}}, 1, false, false, []int{2}},
		{"changes in frames 2 and 5", map[int][]int{2: {0}, 5: {1}}, 1, false, false, []int{2, 5}},
		// The window of a condition that does not hold goes on growing
		// until the guarded system runs: two changes in different frames
		// add up.
		{"changes that add up", map[int][]int{1: {0}, 2: {1}, 3: {0}, 5: {1}, 6: {0, 1}}, 2, false, false, []int{2, 5, 6}},
		// What the guarded system changes itself is not news at its next
		// run.
		{"its own changes", map[int][]int{2: {0}}, 1, false, true, []int{2}},
		// SkipIf: a skipped system keeps its window, so once something
		// changed it is skipped for good, on a system as on a workload.
		{"SkipIf", map[int][]int{3: {0}}, 1, true, false, []int{1, 2}},
	}
	for _, sc := range scenarios {
		for _, f := range forms {
			t.Run(sc.name+"/"+f.name, func(t *testing.T) {
				frame := 0
				w, poke := cwWorld(t, &frame, sc.poke)
				var ran []int
				var body any = func() { ran = append(ran, frame) }
				if sc.bodyPoke {
					body = func(l ecs.ViewMut[trLife]) {
						ran = append(ran, frame)
						for id := range l.WithID() {
							if id.Index() == 1 {
								l.MustGet(id).HP++
							}
						}
					}
				}
				must(t, w.AddWorkload("w", f.items(poke, body, modifiedAtLeast(t, sc.atLeast), sc.skip)...))
				for frame = 1; frame <= 6; frame++ {
					must(t, w.RunWorkload("w"))
				}
				deepEqual(t, "frames it ran", ran, sc.want)
				nothingHeld(t, w)
			})
		}
	}
}

// TestWorkloadConditionWindowIsPerWorkload: the same condition function on
// two nested workloads, or on workloads of the world run at different
// rates, gives each its own window; a nested workload whose enclosing
// workload's condition does not hold keeps its window until it is
// evaluated again; ordering a plan again (a group added) keeps the
// windows.
func TestWorkloadConditionWindowIsPerWorkload(t *testing.T) {
	t.Run("two nested workloads", func(t *testing.T) {
		frame := 0
		w, poke := cwWorld(t, &frame, map[int][]int{2: {0}, 7: {1}})
		changed := modifiedAtLeast(t, 1)
		var a, b []int
		must(t, w.AddWorkload("w",
			poke,
			ecs.Workload("a", func() { a = append(a, frame) }).RunIf(changed),
			ecs.Workload("every third",
				ecs.Workload("b", func() { b = append(b, frame) }).RunIf(changed),
			).RunIf(func() bool { return frame%3 == 0 }),
		))
		for frame = 1; frame <= 9; frame++ {
			must(t, w.RunWorkload("w"))
		}
		deepEqual(t, "a ran", a, []int{2, 7})
		deepEqual(t, "b ran", b, []int{3, 9})
	})
	t.Run("two workloads of the world", func(t *testing.T) {
		frame := 0
		w, poke := cwWorld(t, &frame, map[int][]int{2: {0}, 4: {1}})
		changed := modifiedAtLeast(t, 1)
		var fast, slow []int
		must(t, w.AddWorkload("fast", ecs.Workload("a", func() { fast = append(fast, frame) }).RunIf(changed)))
		must(t, w.AddWorkload("slow", ecs.Workload("b", func() { slow = append(slow, frame) }).RunIf(changed)))
		for frame = 1; frame <= 8; frame++ {
			must(t, w.Run(poke))
			must(t, w.RunWorkload("fast"))
			if frame%3 == 0 {
				must(t, w.RunWorkload("slow"))
			}
		}
		deepEqual(t, "fast ran", fast, []int{2, 4})
		deepEqual(t, "slow ran", slow, []int{3, 6})
	})
	t.Run("a plan ordered again", func(t *testing.T) {
		frame := 0
		w, poke := cwWorld(t, &frame, map[int][]int{2: {0}})
		var ran []int
		must(t, w.AddWorkload("w", poke,
			ecs.Workload("nested", func(ecs.View[cwOther]) { ran = append(ran, frame) }).RunIf(modifiedAtLeast(t, 1))))
		for frame = 1; frame <= 5; frame++ {
			if frame == 3 {
				must(t, ecs.AddGroup2[trLife, cwOther](w))
			}
			must(t, w.RunWorkload("w"))
		}
		deepEqual(t, "frames it ran", ran, []int{2})
	})
}

// TestWorkloadConditionWindowAfterFailures: a condition that panics
// leaves its workload's window where it was, and a run stopped by an
// error of one of the workload's systems counts as a run of the workload.
func TestWorkloadConditionWindowAfterFailures(t *testing.T) {
	frame := 0
	w, poke := cwWorld(t, &frame, map[int][]int{2: {0}, 5: {1}})
	changed := modifiedAtLeast(t, 1)
	var ran []int
	must(t, w.AddWorkload("w", poke,
		ecs.Workload("nested", func() error {
			ran = append(ran, frame)
			if frame == 5 {
				return errors.New("failed at frame 5")
			}
			return nil
		}).RunIf(func(l ecs.View[trLife]) bool {
			if frame == 2 {
				panic("condition failed")
			}
			return true
		}).RunIf(changed)))
	for frame = 1; frame <= 7; frame++ {
		var err error
		func() {
			defer func() {
				if r := recover(); r != nil {
					err = errAs[*ecs.SystemPanic](t, r.(error))
				}
			}()
			err = w.RunWorkload("w")
		}()
		switch frame {
		case 2:
			errHas(t, err, "condition failed")
		case 5:
			errHas(t, err, "failed at frame 5")
		default:
			must(t, err)
		}
	}
	// Frame 2's change is seen in frame 3; frame 5's in frame 5 only.
	deepEqual(t, "frames it ran", ran, []int{3, 5})
	nothingHeld(t, w)
}
