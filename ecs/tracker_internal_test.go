package ecs

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// sumLife tracks modification; sumOther shares a group with it, so group
// swaps move its timestamps too.
type sumLife struct{ V int }

func (sumLife) Tracking() Tracking { return TrackModification }

type sumOther struct{ V int }

// errLoopBody is what the loop bodies of TestModSummaryInvariant panic
// with.
var errLoopBody = errors.New("loop body panicked")

// TestModSummaryInvariant applies random changes to a storage tracking
// modification (marks through ViewMut.Get, All and WithID stopped early
// by a break or a panic in the loop body, Slice,
// replacement, removal, deletion, group swaps, takeover of a dead
// entity's slot) with the clock moving between them, and checks after
// each that every block summary is true to its timestamps, and that a
// modification scan from each recent timestamp finds exactly the
// components whose timestamp is newer.
func TestModSummaryInvariant(t *testing.T) {
	for _, start := range []uint64{1, math.MaxUint64 - 40} { // and across the wrap
		rng := rand.New(rand.NewPCG(start, 9))
		w := NewWorld()
		SetTrackingClock(w, start)
		if err := AddGroup2[sumLife, sumOther](w); err != nil {
			t.Fatal(err)
		}
		var ids []EntityID
		var seen []uint64 // timestamps to scan from
		for step := range 600 {
			seen = append(seen, w.TrackingTimestamp())
			op := rng.IntN(11)
			switch {
			case op == 0 || len(ids) < 4:
				var id EntityID
				var err error
				if rng.IntN(2) == 0 {
					id, err = AddEntity2(w, sumLife{step}, sumOther{step})
				} else {
					id, err = AddEntity1(w, sumLife{step})
				}
				if err != nil {
					t.Fatal(err)
				}
				ids = append(ids, id)
			case op == 1:
				k := rng.IntN(len(ids))
				if err := w.DeleteEntity(ids[k]); err != nil {
					t.Fatal(err)
				}
				ids = slices.Delete(ids, k, k+1)
			case op == 2:
				id := ids[rng.IntN(len(ids))]
				if _, _, err := Remove[sumOther](w, id); err != nil {
					t.Fatal(err)
				}
			case op == 3:
				id := ids[rng.IntN(len(ids))]
				if err := AddComponent1(w, id, sumOther{step}); err != nil {
					t.Fatal(err)
				}
			case op == 4:
				id := ids[rng.IntN(len(ids))]
				if err := AddComponent1(w, id, sumLife{-step}); err != nil { // replaces: a modification
					t.Fatal(err)
				}
			default:
				var life ViewMut[sumLife]
				release, err := w.Borrow(&life)
				if err != nil {
					t.Fatal(err)
				}
				switch op {
				case 5, 6:
					for range 1 + rng.IntN(3) {
						life.Get(ids[rng.IntN(len(ids))])
					}
				case 7:
					stop := rng.IntN(life.Len() + 1)
					n := 0
					for range life.All() {
						if n++; n > stop {
							break
						}
					}
				case 8:
					life.Slice()
				case 9, 10:
					// A loop stopped by a panic in its body, recovered,
					// or (WithID) by a break.
					stop, byPanic := rng.IntN(life.Len()), op == 9 || rng.IntN(2) == 0
					func() {
						defer func() {
							if r := recover(); r != nil && r != errLoopBody {
								panic(r)
							}
						}()
						n := 0
						visit := func() bool {
							if n++; n <= stop {
								return false
							}
							if byPanic {
								panic(errLoopBody)
							}
							return true
						}
						if op == 9 {
							for range life.All() {
								if visit() {
									break
								}
							}
						} else {
							for range life.WithID() {
								if visit() {
									break
								}
							}
						}
					}()
				}
				release()
			}
			checkModSummary(t, storageFor[sumLife](w), seen)
			if t.Failed() {
				t.Fatalf("start %d, step %d (op %d)", start, step, op)
			}
		}
	}
}

// checkModSummary checks s's block summaries against its modification
// timestamps, and the modification scan from every timestamp of seen
// (the recent ones) against a plain comparison.
func checkModSummary(t *testing.T, s *sparseSet[sumLife], seen []uint64) {
	t.Helper()
	tr := s.track
	mod := tr.modifiedAt
	if len(mod) != len(s.dense) || len(tr.modBlock) != blocks(len(mod)) {
		t.Fatalf("lengths: %d timestamps, %d blocks, %d components", len(mod), len(tr.modBlock), len(s.dense))
	}
	for i, ts := range mod {
		b := tr.modBlock[i>>3]
		if b.at&(1<<(i&7)) != 0 {
			if ts != b.max {
				t.Errorf("position %d: bit set, timestamp %d, block max %d", i, ts, b.max)
			}
		} else if newer(ts, b.rest) {
			t.Errorf("position %d: bit clear, timestamp %d newer than block rest %d", i, ts, b.rest)
		}
	}
	for _, since := range seen[max(0, len(seen)-12):] {
		p := changedPart[sumLife]{c: &viewCore[sumLife]{s: s}, op: opTrack{filter: TrackModification, mod: since}}
		var got, want []int
		p.scan(func(i int) bool {
			got = append(got, i)
			return true
		})
		for i, ts := range mod {
			if newer(ts, since) {
				want = append(want, i)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("scan since %d: positions %v, want %v", since, got, want)
		}
	}
}
