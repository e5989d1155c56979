package main

import (
	"fmt"
	"strings"

	"github.com/slipway-ecs/slipway/ecs"
)

// memPos and memVel are the components of the memory table: two float64
// each, as in the benchmark suite.
type (
	memPos struct{ X, Y float64 }
	memVel struct{ X, Y float64 }
)

// memRow is one line of the memory table: how many bytes one component of
// memPos takes, per entity, in a world filled one way.
type memRow struct {
	how                               string
	data, ids, pages, used, allocated float64
}

// measureMemory fills worlds with n entities having memPos and memVel in
// the ways the table shows and reads World.MemoryUsage: the figures are a
// function of the code, not of the machine, so no run is timed.
func measureMemory(n int) ([]memRow, error) {
	var rows []memRow
	add := func(how string, w *ecs.World) error {
		r, err := w.MemoryUsage()
		if err != nil {
			return err
		}
		for _, s := range r.Storages {
			if s.Type == "main.memPos" {
				per := func(b int) float64 { return float64(b) / float64(n) }
				rows = append(rows, memRow{how, per(s.DataBytes), per(s.IDBytes), per(s.PageBytes), per(s.UsedBytes), per(s.AllocatedBytes)})
				return nil
			}
		}
		return fmt.Errorf("no main.memPos storage in the memory report:\n%s", r)
	}

	prefix := ecs.NewWorld()
	if _, err := ecs.BulkAddEntity2(prefix, make([]memPos, n), make([]memVel, n)); err != nil {
		return nil, err
	}
	if err := add("`BulkAddEntity2` in a new world (the identity prefix)", prefix); err != nil {
		return nil, err
	}

	// The other worlds' first entity has no component, so that the
	// others, from index 1 on, are out of the storages' identity
	// prefixes, and have sparse entries.
	bulk := ecs.NewWorld()
	if _, err := bulk.AddEntity(); err != nil {
		return nil, err
	}
	if _, err := ecs.BulkAddEntity2(bulk, make([]memPos, n), make([]memVel, n)); err != nil {
		return nil, err
	}
	if err := add("`BulkAddEntity2`", bulk); err != nil {
		return nil, err
	}

	one := ecs.NewWorld()
	if _, err := one.AddEntity(); err != nil {
		return nil, err
	}
	for range n {
		if _, err := ecs.AddEntity2(one, memPos{}, memVel{}); err != nil {
			return nil, err
		}
	}
	if err := add("`AddEntity2`, one at a time", one); err != nil {
		return nil, err
	}
	if err := one.ShrinkToFit(); err != nil {
		return nil, err
	}
	if err := add("the same after `ShrinkToFit`", one); err != nil {
		return nil, err
	}
	return rows, nil
}

// writeMemory writes the memory section of the page.
func writeMemory(b *strings.Builder, rows []memRow, n int) {
	if len(rows) == 0 {
		return
	}
	b.WriteString("## Memory\n\n")
	fmt.Fprintf(b, "Bytes per entity taken by one component type (two float64, 16 bytes) in a world of %s entities that have it and a second one, read from `World.MemoryUsage`. ", groupThousands(int64(n)))
	b.WriteString("**Used** is the components (data), their entity ids in the dense array, and the sparse pages that map entity indices to positions (8 KiB per 1,024 indices; none for the storage's identity prefix, the entities that were created in order with the component in a new or emptied world, which need no mapping); **allocated** adds the arrays' spare capacity and the page table. ")
	b.WriteString("A plain Go slice of the same structs takes 16 bytes per entity, plus up to a quarter more of spare capacity when it is grown one append at a time. ")
	b.WriteString("The report command computes this table itself, with the code it was built from: it depends on the code, not on the machine, and nothing in it is timed.\n\n")
	b.WriteString("| filled with | data | ids | sparse pages | used | allocated |\n| --- | ---: | ---: | ---: | ---: | ---: |\n")
	f := func(v float64) string { return fmt.Sprintf("%.2f", v) }
	for _, r := range rows {
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", r.how, f(r.data), f(r.ids), f(r.pages), f(r.used), f(r.allocated))
	}
	b.WriteString("\n")
}
