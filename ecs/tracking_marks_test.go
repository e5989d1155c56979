package ecs_test

import (
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// errStopLoop is what a loop body of TestTrackingLoopEndKeepsMarks panics
// with.
var errStopLoop = errors.New("loop body panicked")

// TestTrackingLoopEndKeepsMarks: however a loop that marks modifications
// ends (normally, by break, or by a panic in its body, recovered inside
// the system or by the caller of World.Run), the world reports exactly the
// components it handed out as modified, by every path (the summaries of a
// Changed view, Count, a join's filter), and goes on recording marks
// correctly afterwards.
func TestTrackingLoopEndKeepsMarks(t *testing.T) {
	// The loop stops in the second block of 8: at the 11th of 20
	// components, or the 7th tagged one (the 13th component).
	const n = 20
	// A case ranges over the components of a system's views; its body
	// calls visit with each component handed out, and stops when visit
	// returns true (break). visit panics instead in the panic modes.
	type loop func(vm ecs.ViewMut[trLife], tag ecs.View[trTag], visit func(*trLife) bool)
	// reinsert gives every entity its trLife again, so that they all
	// count as inserted (and none as modified).
	reinsert := func(t *testing.T, w *ecs.World, ids []ecs.EntityID) {
		for _, id := range ids {
			l, _, err := ecs.Remove[trLife](w, id)
			must(t, err)
			must(t, ecs.AddComponent1(w, id, l))
		}
	}
	cases := []struct {
		name   string
		tagged bool // visits only the tagged entities (a join with tag)
		all    bool // marks every component it would visit, whatever it handed out
		prep   func(t *testing.T, w *ecs.World, ids []ecs.EntityID)
		fn     loop
	}{
		{"ViewMut.All", false, false, nil, func(vm ecs.ViewMut[trLife], _ ecs.View[trTag], visit func(*trLife) bool) {
			for l := range vm.All() {
				if visit(l) {
					break
				}
			}
		}},
		{"ViewMut.WithID", false, false, nil, func(vm ecs.ViewMut[trLife], _ ecs.View[trTag], visit func(*trLife) bool) {
			for _, l := range vm.WithID() {
				if visit(l) {
					break
				}
			}
		}},
		{"ViewMut.Lookup", false, false, nil, func(vm ecs.ViewMut[trLife], _ ecs.View[trTag], visit func(*trLife) bool) {
			for _, l := range vm.Lookup(vm.IDs()) {
				if visit(l) {
					break
				}
			}
		}},
		{"ViewMut.Inserted().All", false, false, reinsert, func(vm ecs.ViewMut[trLife], _ ecs.View[trTag], visit func(*trLife) bool) {
			ins, err := vm.Inserted()
			if err != nil {
				panic(err)
			}
			for l := range ins.All() {
				if visit(l) {
					break
				}
			}
		}},
		{"ViewMut.ParEach", false, true, nil, func(vm ecs.ViewMut[trLife], _ ecs.View[trTag], visit func(*trLife) bool) {
			vm.ParEachMin(1, func(l *trLife) { visit(l) })
		}},
		{"Join1.All", false, false, nil, func(vm ecs.ViewMut[trLife], _ ecs.View[trTag], visit func(*trLife) bool) {
			for l := range ecs.Join1(vm).All() {
				if visit(l) {
					break
				}
			}
		}},
		{"Join2.All", true, false, nil, func(vm ecs.ViewMut[trLife], tag ecs.View[trTag], visit func(*trLife) bool) {
			for l := range ecs.Join2(vm, tag).All() {
				if visit(l) {
					break
				}
			}
		}},
		{"Join2.WithID", true, false, nil, func(vm ecs.ViewMut[trLife], tag ecs.View[trTag], visit func(*trLife) bool) {
			for _, r := range ecs.Join2(vm, tag).WithID() {
				if visit(r.A) {
					break
				}
			}
		}},
		{"Join2.Runs", true, false, nil, func(vm ecs.ViewMut[trLife], tag ecs.View[trTag], visit func(*trLife) bool) {
			for r := range ecs.Join2(vm, tag).Runs() {
				if visit(&r.A[0]) {
					break
				}
			}
		}},
		{"Join2.Each", true, false, nil, func(vm ecs.ViewMut[trLife], tag ecs.View[trTag], visit func(*trLife) bool) {
			ecs.Join2(vm, tag).Each(func(l *trLife, _ *trTag) { visit(l) })
		}},
		{"Join2.ParEach", true, true, nil, func(vm ecs.ViewMut[trLife], tag ecs.View[trTag], visit func(*trLife) bool) {
			ecs.Join2(vm, tag).ParEachMin(1, func(l *trLife, _ *trTag) { visit(l) })
		}},
		{"Join2 cursor", true, false, nil, func(vm ecs.ViewMut[trLife], tag ecs.View[trTag], visit func(*trLife) bool) {
			it := ecs.Join2(vm, tag)
			for it.Next() {
				if l, _ := it.Values(); visit(l) {
					break
				}
			}
		}},
	}
	modes := []string{"break", "panic recovered in the system", "panic through World.Run"}
	for _, c := range cases {
		for _, mode := range modes {
			if c.name == "ViewMut.ParEach" || c.name == "Join2.Each" || c.name == "Join2.ParEach" {
				if mode == "break" {
					continue // no way to stop early but a panic
				}
			}
			t.Run(c.name+", "+mode, func(t *testing.T) {
				w, ids := clearedWorld(t, n)
				if c.prep != nil {
					c.prep(t, w, ids)
				}
				stopAt := 11
				if c.tagged {
					stopAt = 7
				}
				var seen []ecs.EntityID
				stopped := false
				var mu sync.Mutex // ParEach visits on several goroutines
				visit := func(l *trLife) bool {
					mu.Lock()
					defer mu.Unlock()
					if stopped {
						return true // ParEach's other chunks
					}
					seen = append(seen, ids[l.HP])
					if len(seen) < stopAt {
						return false
					}
					stopped = true
					if mode == "break" {
						return true
					}
					panic(errStopLoop)
				}
				system := func(vm ecs.ViewMut[trLife], tag ecs.View[trTag]) {
					if mode == "panic recovered in the system" {
						defer func() {
							if r := recover(); r != nil && r != errStopLoop {
								panic(r)
							}
						}()
					}
					c.fn(vm, tag, visit)
				}
				if mode == "panic through World.Run" {
					r := mustPanic(t, func() { _ = w.Run(system) })
					isTrue(t, r == errStopLoop || errors.Is(asError(r), errStopLoop), "World.Run panicked with %v", r)
				} else {
					must(t, w.Run(system))
				}
				isTrue(t, stopped, "the loop handed out %d components, not %d", len(seen), stopAt)
				nothingHeld(t, w)

				want := seen
				if c.all {
					want = ids
				}
				if c.tagged {
					want = slices.DeleteFunc(slices.Clone(want), func(id ecs.EntityID) bool { return id.Index()%2 != ids[0].Index()%2 })
					isTrue(t, c.all || len(want) == len(seen), "the join handed out untagged entities: %v", seen)
				}
				checkModified(t, w, "after the loop", want)

				// A later mark, of a component the loop did not hand
				// out, adds to what was marked.
				other := ids[n-1]
				if slices.Contains(want, other) {
					return
				}
				must(t, w.Run(func(vm ecs.ViewMut[trLife]) { vm.MustGet(other).HP++ }))
				checkModified(t, w, "after a later mark", append(slices.Clone(want), other))
			})
		}
	}
}

// checkModified fails the test unless every way of asking which trLife
// components were modified (outside workloads) answers want.
func checkModified(t *testing.T, w *ecs.World, when string, want []ecs.EntityID) {
	t.Helper()
	sameSet(t, when+": Modified", modifiedIDs[trLife](t, w), want)
	withView(t, w, func(v ecs.View[trLife]) {
		mod, err := v.Modified()
		must(t, err)
		equal(t, when+": Modified().Count()", mod.Count(), len(want))
		var joined []ecs.EntityID
		for id := range ecs.Join2(mod, v).WithID() {
			joined = append(joined, id)
		}
		sameSet(t, when+": a join of Modified()", joined, want)
		for _, id := range want {
			isTrue(t, mod.Contains(id), "%s: Modified().Contains(%v) is false", when, id)
		}
	})
}

func asError(r any) error {
	err, _ := r.(error)
	return err
}
