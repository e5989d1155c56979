package bench

// Tests of the churned workloads (churn_test.go): the churn changes what
// it says and nothing else, the joins then visit exactly the entities a
// plain-Go model of the world says they should, and every implementation
// computes the same result.

import (
	"maps"
	"slices"
	"strconv"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// shape is what an entity of the churned set-ups holds: its components
// (bit 0 Position, bit 1 Velocity, bit 2+k C<k+1>) and its Position.
type shape struct {
	mask uint16
	pos  Position
}

const (
	hasPos = 1 << iota
	hasVel
)

// shapes returns every live entity of w with its shape: the plain-Go model
// of the world the churn tests compare against.
func shapes(t *testing.T, w *ecs.World) map[ecs.EntityID]shape {
	t.Helper()
	var ents ecs.EntitiesView
	var v tagViews
	release, err := w.Borrow(&ents, &v)
	check(t, err)
	defer release()
	pos, vel, cs := v.Pos, v.Vel, v.filters()
	m := map[ecs.EntityID]shape{}
	for id := range ents.All() {
		var s shape
		if p, ok := pos.Get(id); ok {
			s.mask |= hasPos
			s.pos = *p
		}
		if vel.Contains(id) {
			s.mask |= hasVel
		}
		for k, c := range cs {
			if c.Contains(id) {
				s.mask |= 4 << k
			}
		}
		m[id] = s
	}
	return m
}

// modelChurn applies log to the model before: the entities deleted are
// gone, those created have the deleted ones' shapes. Losing a component
// and getting it back changes no shape.
func modelChurn(t *testing.T, before map[ecs.EntityID]shape, log churnLog) map[ecs.EntityID]shape {
	t.Helper()
	m := maps.Clone(before)
	for _, id := range log.deleted {
		if _, ok := m[id]; !ok {
			t.Fatalf("the churn deleted %v, which was not alive or deleted twice", id)
		}
		delete(m, id)
	}
	like := slices.Clone(log.deleted)
	slices.Sort(like)
	if !slices.Equal(like, log.like) {
		t.Fatal("the new entities are not like the deleted ones")
	}
	for i, id := range log.created {
		if _, ok := m[id]; ok {
			t.Fatalf("the churn created %v, which was alive", id)
		}
		m[id] = before[log.like[i]]
	}
	return m
}

// sameShapes fails unless the world's shapes are the model's.
func sameShapes(t *testing.T, what string, got, want map[ecs.EntityID]shape) {
	t.Helper()
	equal(t, what+": entities", len(got), len(want))
	for id, s := range want {
		if got[id] != s {
			t.Fatalf("%s: %v is %+v, the model says %+v", what, id, got[id], s)
		}
	}
}

// joined returns the entities Join2(Position, Velocity) visits, failing
// on a repeat.
func joined(t *testing.T, w *ecs.World) map[ecs.EntityID]bool {
	t.Helper()
	pos, vel, release := borrowMovers(t, w)
	defer release()
	seen := map[ecs.EntityID]bool{}
	ecs.Join2(pos, vel).EachWithID(func(id ecs.EntityID, _ *Position, _ *Velocity) {
		if seen[id] {
			t.Fatalf("the join visits %v twice", id)
		}
		seen[id] = true
	})
	return seen
}

// movers returns the entities of the model with Position and Velocity.
func movers(m map[ecs.EntityID]shape) map[ecs.EntityID]bool {
	s := map[ecs.EntityID]bool{}
	for id, sh := range m {
		if sh.mask&(hasPos|hasVel) == hasPos|hasVel {
			s[id] = true
		}
	}
	return s
}

// outOfLine returns how many of the first n Positions do not belong to
// the entity whose Velocity is at the same place: 0 when the movers line
// up, as in a fresh set-up or a group.
func outOfLine(t *testing.T, w *ecs.World, n int) int {
	t.Helper()
	pos, vel, release := borrowMovers(t, w)
	defer release()
	k := 0
	for i, id := range vel.IDs()[:n] {
		if pos.IDs()[i] != id {
			k++
		}
	}
	return k
}

func TestChurnedQuerySetups(t *testing.T) {
	const n = 1500 // the others fill several sparse pages
	cases := []struct {
		name    string
		build   func(testing.TB, *ecs.World, int)
		spec    churnSpec
		fillers int
	}{
		{"Query2Comp", buildQuery2Comp, query2CompChurn, 10},
		{"Query256Arch", buildQuery256Arch, query256ArchChurn, 4},
	}
	for _, c := range cases {
		var logs []churnLog
		for _, l := range queryLayouts {
			t.Run(c.name+"/"+l.name, func(t *testing.T) {
				w := l.newWorld(t)
				c.build(t, w, n)
				before := shapes(t, w)
				log := churnWorld(t, w, c.spec)
				logs = append(logs, log)
				equal(t, "entities that lost a component", len(log.lost), n/churnQueriedDiv)
				equal(t, "entities replaced", len(log.deleted), c.fillers*n/churnOthersDiv)
				lostPos := 0
				for _, k := range log.kinds {
					if k == losePosition {
						lostPos++
					}
				}
				if len(c.spec.lose) == 2 && (lostPos < len(log.kinds)/3 || lostPos > 2*len(log.kinds)/3) {
					t.Errorf("%d of %d lost their Position, want about half", lostPos, len(log.kinds))
				}
				want := modelChurn(t, before, log)
				sameShapes(t, "after the churn", shapes(t, w), want)
				equal(t, "entity count", w.EntityCount(), n*(1+c.fillers))

				// The churn took the movers out of line, except in a group.
				if l.prepare == nil {
					if k := outOfLine(t, w, n); k < n/5 {
						t.Errorf("%d of %d movers out of line after the churn, want many", k, n)
					}
				} else {
					gn, _, err := ecs.GroupLen[Position](w)
					check(t, err)
					equal(t, "group members", gn, n)
					equal(t, "group members out of line", outOfLine(t, w, n), 0)
				}

				// The join visits exactly the model's movers, and the
				// round moves them and nothing else.
				wantMovers := movers(want)
				equal(t, "movers in the model", len(wantMovers), n)
				if got := joined(t, w); !maps.Equal(got, wantMovers) {
					t.Fatalf("the join visits %d entities, not the model's %d movers", len(got), len(wantMovers))
				}
				check(t, w.Run(move))
				after := snapshot(t, w)
				for id, s := range want {
					p := s.pos
					if wantMovers[id] {
						p = Position{p.X + 1, p.Y + 2}
					}
					if after[id] != p {
						t.Fatalf("%v: position %v after a round, want %v", id, after[id], p)
					}
				}
			})
		}
		// Every layout churns the same entities, the same way.
		for _, log := range logs[1:] {
			for what, s := range map[string][2][]ecs.EntityID{
				"lost": {log.lost, logs[0].lost}, "deleted": {log.deleted, logs[0].deleted}, "created": {log.created, logs[0].created},
			} {
				if !slices.Equal(s[0], s[1]) {
					t.Errorf("%s: the layouts churned different entities (%s)", c.name, what)
				}
			}
			if !slices.Equal(log.kinds, logs[0].kinds) {
				t.Errorf("%s: the layouts took different components", c.name)
			}
		}
	}
}

func TestChurnedRandomLooksUpEveryLiveEntity(t *testing.T) {
	const n = 3000
	want := float64(n * (n - 1) / 2)
	w, ids := buildRandomChurned(t, n)
	equal(t, "ids", len(ids), n)
	equal(t, "entities", w.EntityCount(), n)
	seen := map[ecs.EntityID]bool{}
	replaced := 0
	for _, id := range ids {
		if seen[id] || !w.IsAlive(id) {
			t.Fatalf("%v: repeated or dead", id)
		}
		seen[id] = true
		if id.Generation() > 0 {
			replaced++
		}
	}
	equal(t, "entities replaced by the churn", replaced, n/churnOthersDiv)
	// Every Position was kept or carried over, so the sum is Random's.
	equal(t, "plain", sumPlain(column[Position](n), newRand().Perm(n)), want)
	check(t, w.Run(func(pos ecs.View[Position]) {
		equal(t, "slipway", sumByID(pos, ids), want)
		equal(t, "slipway-bulk", sumLookup(pos, ids), want)
		inPlace := 0
		for i, id := range pos.IDs() {
			if id.Index() == uint32(i) && id.Generation() == 0 {
				inPlace++
			}
		}
		// The churn reorders the storage: much of it is no longer in
		// index order (Random's identity prefix).
		if inPlace > n*3/4 {
			t.Errorf("%d of %d Positions at their entity's index after the churn, want fewer", inPlace, n)
		}
	}))
	equal(t, "sparse", sumRef(refCopy[Position](t, w, 0), ids), want)
}

func TestFrameChurnChangesOnePercentAndMovesTheMovers(t *testing.T) {
	const n = 2000
	km, ko := frameShares(n)
	equal(t, "calls per frame", 2*(km+ko), 22*n/100)
	equal(t, "others per mover", ko/km, 5)
	for _, l := range queryLayouts {
		t.Run(l.name, func(t *testing.T) {
			w := l.newWorld(t)
			buildQuery2CompChurned(t, w, n)
			model := shapes(t, w)
			churnedOut := outOfLine(t, w, n)
			mixVelocities(t, w)
			sameShapes(t, "mixed", shapes(t, w), model)
			// The mix leaves nearly every mover out of line (but in a
			// group), more than the churn did.
			if mixedOut := outOfLine(t, w, n); l.prepare == nil && (mixedOut < n*9/10 || mixedOut <= churnedOut) {
				t.Errorf("%d of %d movers out of line after the mix (%d after the churn), want nearly all", mixedOut, n, churnedOut)
			}
			f := newFrameChurn(t, w, n)
			for frame := range 3 {
				oldOthers := slices.Clone(f.others)
				check(t, f.frame(w))
				equal(t, "velocities taken and given back", len(f.lost) > km*9/10, true)
				equal(t, "entities replaced", len(f.dead), ko)
				// The model: the replaced others are gone, their
				// replacements have the Position {1, 1}, and the movers
				// move.
				for _, i := range f.doomed {
					if model[oldOthers[i]].mask != hasPos {
						t.Fatalf("frame %d replaced %v, which is not one of the others", frame, oldOthers[i])
					}
					delete(model, oldOthers[i])
					model[f.others[i]] = shape{hasPos, Position{1, 1}}
				}
				for id, s := range model {
					if s.mask&hasVel != 0 {
						s.pos = Position{s.pos.X + 1, s.pos.Y + 2}
						model[id] = s
					}
				}
				sameShapes(t, "frame "+strconv.Itoa(frame), shapes(t, w), model)
				equal(t, "matched", f.matched(t, w), n)
				if l.prepare != nil {
					gn, _, err := ecs.GroupLen[Position](w)
					check(t, err)
					equal(t, "group members", gn, n)
				}
			}
		})
	}
}
