package ecs_test

import (
	"strconv"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// BenchmarkCommandRecord measures recording one command through a
// Commands view: an Add of a component (through a TypedCommands got once
// per run), a Delete of an entity, and an AddEntity (an id reserved).
// The buffer is applied between batches of b.N commands, outside the
// timer; ns/op is per command.
func BenchmarkCommandRecord(b *testing.B) {
	const batch = 4096
	for _, kind := range []string{"Add", "DeleteEntity", "AddEntity"} {
		b.Run(kind, func(b *testing.B) {
			w := ecs.NewWorld()
			ids := ok(ecs.BulkAddEntity1(w, make([]cmdPos, batch)))
			b.ReportAllocs()
			b.ResetTimer()
			b.StopTimer() // only the recording loops are timed
			for done := 0; done < b.N; {
				n := min(batch, b.N-done)
				err := w.Run(func(c ecs.Commands) {
					p := ecs.CommandsFor[cmdPos](c)
					b.StartTimer()
					switch kind {
					case "Add":
						for i := range n {
							p.Add(ids[i], cmdPos{i})
						}
					case "DeleteEntity":
						for i := range n {
							c.DeleteEntity(ids[i])
						}
					case "AddEntity":
						for range n {
							c.AddEntity()
						}
					}
					b.StopTimer()
				})
				if err != nil {
					b.Fatal(err)
				}
				if kind == "DeleteEntity" {
					ids = ok(ecs.BulkAddEntity1(w, make([]cmdPos, batch)))
				}
				done += n
			}
		})
	}
}

// BenchmarkCommandDeletes compares applying n entity deletions recorded
// through Commands with DeleteEntities of the same ids (2 components
// each): ns per entity, setup and recording outside the timer (the
// system records with the timer stopped; World.Run then applies).
func BenchmarkCommandDeletes(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		for _, how := range []string{"DeleteEntities", "Commands"} {
			b.Run("n="+strconv.Itoa(n)+"/"+how, func(b *testing.B) {
				pos, tag := make([]cmdPos, n), make([]cmdScore, n)
				b.ReportAllocs()
				var total float64
				for range b.N {
					b.StopTimer()
					w := ecs.NewWorld()
					ids := ok(ecs.BulkAddEntity2(w, pos, tag))
					b.StartTimer()
					switch how {
					case "DeleteEntities":
						ok(0, ecs.DeleteEntities(w, ids...))
					case "Commands":
						ok(0, w.Run(func(c ecs.Commands) {
							b.StopTimer()
							for _, id := range ids {
								c.DeleteEntity(id)
							}
							b.StartTimer()
						}))
					}
					b.StopTimer()
					if w.EntityCount() != 0 {
						b.Fatal("entities left")
					}
					total += float64(n)
					b.StartTimer()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/total, "ns/entity")
			})
		}
	}
}
