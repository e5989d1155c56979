package inspect_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/inspect"
)

type Pos struct{ X, Y float64 }
type Vel struct{ X, Y float64 }

func move(pos ecs.ViewMut[Pos], vel ecs.View[Vel]) {
	for p, v := range ecs.Join2(pos, vel).All() {
		p.X += v.X
		p.Y += v.Y
	}
}

func report(pos ecs.View[Pos]) {}

// Write the page of a world's workloads after a few traced runs.
func ExampleWriteHTML() {
	w := ecs.NewWorld()
	for i := range 1000 {
		if _, err := ecs.AddEntity2(w, Pos{X: float64(i)}, Vel{X: 1}); err != nil {
			panic(err)
		}
	}
	if err := w.AddWorkload("frame", move, report); err != nil {
		panic(err)
	}
	w.SetTracing(true) // timings are collected while tracing is on
	for range 10 {
		if err := w.RunWorkload("frame"); err != nil {
			panic(err)
		}
	}
	path := filepath.Join(os.TempDir(), "slipway-workloads.html")
	f, err := os.Create(path)
	if err != nil {
		panic(err)
	}
	defer os.Remove(path)
	if err := inspect.WriteHTML(f, w); err != nil {
		panic(err)
	}
	if err := f.Close(); err != nil {
		panic(err)
	}
	page, _ := os.ReadFile(path)
	fmt.Println("systems drawn:", strings.Count(string(page), `class="system"`))
	fmt.Println("bars in the timeline:", strings.Count(string(page), `class="bar"`))
	// Output:
	// systems drawn: 2
	// bars in the timeline: 2
}
