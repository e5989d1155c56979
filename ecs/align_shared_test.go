package ecs_test

// Joins that share a storage (align.go): move over Pos and Vel, count over
// Pos and a tag. The world must settle on one order for each storage, in
// a few sync points, and then stop sorting: the sorts are counted through
// World.AlignStats.

import (
	"fmt"
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

type (
	shTag  struct{}
	shMark struct{ N int }
)

// sharedWorld builds the frame: movers with Pos and Vel, every
// fourth tagged, every third marked if three, and extras entities with
// Pos alone, placed at the end, among the movers, or first. It returns
// the world, the systems in the order given, and the results of the last
// count and mark.
type sharedWorld struct {
	w                *ecs.World
	systems          []any
	counted, marked  int
	movers, tagged   int
	markedWant, runs int
}

func newSharedWorld(t *testing.T, movers, extras int, where string, three bool) *sharedWorld {
	t.Helper()
	s := &sharedWorld{w: ecs.NewWorld(), movers: movers}
	w := s.w
	addExtra := func() {
		_, err := ecs.AddEntity1(w, Pos{-1, 0})
		must(t, err)
	}
	if where == "first" {
		for range extras {
			addExtra()
		}
	}
	for i := range movers {
		id, err := ecs.AddEntity2(w, Pos{0, 0}, Vel{1, 0})
		must(t, err)
		if i%4 == 0 {
			must(t, ecs.AddComponent1(w, id, shTag{}))
			s.tagged++
		}
		if three && i%3 == 0 {
			must(t, ecs.AddComponent1(w, id, shMark{1}))
			s.markedWant++
		}
		if where == "among" && extras > 0 && i%(movers/extras) == 1 {
			addExtra()
		}
	}
	if where == "end" {
		for range extras {
			addExtra()
		}
	}
	move := func(pos ecs.ViewMut[Pos], vel ecs.View[Vel]) {
		for p, v := range ecs.Join2(pos, vel).All() {
			p.X += v.X
		}
	}
	count := func(pos ecs.View[Pos], tag ecs.View[shTag]) {
		s.counted = 0
		for p := range ecs.Join2(pos, tag).All() {
			if p.X >= 0 {
				s.counted++
			}
		}
	}
	mark := func(pos ecs.View[Pos], mark ecs.View[shMark]) {
		s.marked = 0
		for p, m := range ecs.Join2(pos, mark).All() {
			if p.X >= 0 {
				s.marked += m.N
			}
		}
	}
	s.systems = []any{move, count}
	if three {
		s.systems = append(s.systems, mark)
	}
	return s
}

// frame runs the systems once, as a workload or one World.Run each.
func (s *sharedWorld) frame(t *testing.T, workload bool) {
	t.Helper()
	if workload {
		if !slices.Contains(s.w.Workloads(), "frame") {
			must(t, s.w.AddWorkload("frame", s.systems...))
		}
		must(t, s.w.RunWorkload("frame"))
	} else {
		for _, sys := range s.systems {
			must(t, s.w.Run(sys))
		}
	}
	s.runs++
}

// sorts returns how many sorts the world has made, and how many requests
// waited.
func sorts(w *ecs.World) (n, waits int) {
	for _, st := range w.AlignStats() {
		n += st.Sorts
		waits += st.Waits
	}
	return n, waits
}

func TestJoinsSharingAStorageSettle(t *testing.T) {
	for _, three := range []bool{false, true} {
		for _, where := range []string{"end", "among", "first"} {
			for _, workload := range []bool{true, false} {
				for _, countFirst := range []bool{false, true} {
					name := fmt.Sprintf("three=%v/extras %s/workload=%v/count first=%v", three, where, workload, countFirst)
					t.Run(name, func(t *testing.T) {
						s := newSharedWorld(t, 2000, 15, where, three)
						if countFirst {
							s.systems[0], s.systems[1] = s.systems[1], s.systems[0]
						}
						for range 6 {
							s.frame(t, workload)
						}
						settled, _ := sorts(s.w)
						if settled == 0 {
							t.Fatal("the world never re-aligned")
						}
						for range 20 {
							s.frame(t, workload)
						}
						n, waits := sorts(s.w)
						if n != settled || waits != 0 {
							t.Fatalf("after settling: %d sorts more and %d waits, want none: %+v", n-settled, waits, s.w.AlignStats())
						}
						// Pos starts with the smallest driver's entities, in
						// its order; Vel (and Mark) follow Pos.
						pos := ecs.OrderOf[Pos](s.w)
						isTrue(t, leads(pos, ecs.OrderOf[shTag](s.w)), "Pos does not follow shTag")
						isTrue(t, leads(ecs.OrderOf[Vel](s.w), pos), "Vel does not follow Pos")
						if three {
							isTrue(t, leads(ecs.OrderOf[shMark](s.w), pos), "shMark does not follow Pos")
						}
						equal(t, "tagged counted", s.counted, s.tagged)
						if three {
							equal(t, "marked counted", s.marked, s.markedWant)
						}
						var moved int
						must(t, ecs.Each1(s.w, func(_ ecs.EntityID, p *Pos) {
							if p.X >= 0 {
								equal(t, "Pos.X", p.X, float32(s.runs))
								moved++
							}
						}))
						equal(t, "movers", moved, s.movers)
					})
				}
			}
		}
	}
}

// TestAlignStats checks the statistics: sorts by SortAs and at sync
// points, with the components they moved, and requests that wait because
// neither storage can follow the other (a packed group's member keeps its
// order).
func TestAlignStats(t *testing.T) {
	t.Run("SortAs and sync points", func(t *testing.T) {
		w, _ := churned(t, 500)
		deepEqual(t, "stats of a new world", len(w.AlignStats()), 0)
		moved, err := ecs.SortAs[Pos, Vel](w)
		must(t, err)
		st := w.AlignStats()
		deepEqual(t, "after SortAs", st, []ecs.AlignStat{{Storage: "ecs_test.Pos", Lead: "ecs_test.Vel", Sorts: 1, Moved: moved, Time: st[0].Time}})
		again, err := ecs.SortAs[Pos, Vel](w)
		must(t, err)
		equal(t, "moved by a second SortAs", again, 0)
		equal(t, "sorts", w.AlignStats()[0].Sorts, 2)
	})
	t.Run("a packed driver cannot follow", func(t *testing.T) {
		s := newSharedWorld(t, 2000, 15, "end", false)
		must(t, ecs.AddGroup2[Vel, shMark](s.w)) // Vel drives move, and keeps the group's order
		for range 10 {
			s.frame(t, false)
		}
		_, waits := sorts(s.w)
		isTrue(t, waits > 0, "no request waited")
		equal(t, "tagged counted", s.counted, s.tagged)
	})
	t.Run("orders that would loop", func(t *testing.T) {
		w, want := churned(t, 500)
		_, err := ecs.SortAs[Vel, Pos](w)
		must(t, err)
		_, err = ecs.SortAs[Pos, Vel](w) // Vel followed Pos: that link goes
		must(t, err)
		for range 5 {
			must(t, w.Run(moveAll))
		}
		samePos(t, w, want, 5)
		isTrue(t, leads(ecs.OrderOf[Pos](w), ecs.OrderOf[Vel](w)), "Pos does not follow Vel")
	})
}
