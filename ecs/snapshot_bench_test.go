package ecs_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// Snapshot and restore against the floor: copying the same data as plain
// slices (the ids and the three component slices) into reused slices.
// Each family has, per size, world (entities created in order: every
// storage is an identity prefix, so no sparse entry is written), scattered
// (components added in reverse order: every storage keeps sparse entries,
// which a restore rebuilds) and slices (the floor). Each reports
// ns/entity; compare world and scattered with slices.

type benchPos struct{ X, Y float64 }
type benchVel struct{ X, Y float64 }
type benchHealth struct{ HP, Max int32 }

var benchSnapSizes = []int{10_000, 1_000_000}

// benchSnapWorld returns a world of n entities, each with the three
// components; scattered adds them in reverse order of the entities.
func benchSnapWorld(b *testing.B, n int, scattered bool) *ecs.World {
	b.Helper()
	pos, vel, hp := benchSnapData(n)
	w := ecs.NewWorld()
	if !scattered {
		if _, err := ecs.BulkAddEntity3(w, pos, vel, hp); err != nil {
			b.Fatal(err)
		}
		return w
	}
	ids := make([]ecs.EntityID, n)
	for i := range ids {
		ids[i], _ = w.AddEntity()
	}
	slices.Reverse(ids)
	if err := ecs.BulkAddComponent3(w, ids, pos, vel, hp); err != nil {
		b.Fatal(err)
	}
	return w
}

func benchSnapData(n int) ([]benchPos, []benchVel, []benchHealth) {
	pos, vel, hp := make([]benchPos, n), make([]benchVel, n), make([]benchHealth, n)
	for i := range n {
		pos[i] = benchPos{float64(i), float64(-i)}
		vel[i] = benchVel{1, 0.5}
		hp[i] = benchHealth{int32(i % 100), 100}
	}
	return pos, vel, hp
}

// benchSlices is the floor: the ids and the three slices, and their
// reused copies.
type benchSlices struct {
	ids, ids2 []ecs.EntityID
	pos, pos2 []benchPos
	vel, vel2 []benchVel
	hp, hp2   []benchHealth
}

func newBenchSlices(n int) *benchSlices {
	s := &benchSlices{ids: make([]ecs.EntityID, n)}
	for i := range s.ids {
		s.ids[i] = ecs.NewEntityID(uint32(i), 0)
	}
	s.pos, s.vel, s.hp = benchSnapData(n)
	s.ids2 = make([]ecs.EntityID, n)
	s.pos2, s.vel2, s.hp2 = make([]benchPos, n), make([]benchVel, n), make([]benchHealth, n)
	return s
}

// copyOut copies the slices into their copies (a snapshot's work);
// copyBack the copies into the slices (a restore's).
func (s *benchSlices) copyOut() {
	s.ids2 = append(s.ids2[:0], s.ids...)
	s.pos2 = append(s.pos2[:0], s.pos...)
	s.vel2 = append(s.vel2[:0], s.vel...)
	s.hp2 = append(s.hp2[:0], s.hp...)
}

func (s *benchSlices) copyBack() {
	s.ids = append(s.ids[:0], s.ids2...)
	s.pos = append(s.pos[:0], s.pos2...)
	s.vel = append(s.vel[:0], s.vel2...)
	s.hp = append(s.hp[:0], s.hp2...)
}

func reportPerEntity(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
}

// BenchmarkSnapshot measures World.SnapshotTo into a reused Snapshot,
// beside copying the same data as plain slices (copyOut).
func BenchmarkSnapshot(b *testing.B) {
	benchSnapOp(b, func(w *ecs.World, s *ecs.Snapshot) error { return w.SnapshotTo(s) }, (*benchSlices).copyOut)
}

// BenchmarkRestore measures World.Restore from a Snapshot, beside copying
// the same data back as plain slices (copyBack).
func BenchmarkRestore(b *testing.B) {
	benchSnapOp(b, func(w *ecs.World, s *ecs.Snapshot) error { return w.Restore(s) }, (*benchSlices).copyBack)
}

// benchSnapOp runs op on a world of n entities (created in order, or
// scattered) whose snapshot is s, and base on plain slices of the same
// data, for every size, reporting ns per entity.
func benchSnapOp(b *testing.B, op func(*ecs.World, *ecs.Snapshot) error, base func(*benchSlices)) {
	for _, n := range benchSnapSizes {
		for _, scattered := range []bool{false, true} {
			name := "world"
			if scattered {
				name = "scattered"
			}
			b.Run(fmt.Sprintf("n=%d/%s", n, name), func(b *testing.B) {
				w := benchSnapWorld(b, n, scattered)
				var s ecs.Snapshot
				if err := w.SnapshotTo(&s); err != nil {
					b.Fatal(err)
				}
				if err := op(w, &s); err != nil { // warm: buffers grown
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if err := op(w, &s); err != nil {
						b.Fatal(err)
					}
				}
				reportPerEntity(b, n)
			})
		}
		b.Run(fmt.Sprintf("n=%d/slices", n), func(b *testing.B) {
			s := newBenchSlices(n)
			s.copyOut()
			b.ReportAllocs()
			for b.Loop() {
				base(s)
			}
			reportPerEntity(b, n)
		})
	}
}
