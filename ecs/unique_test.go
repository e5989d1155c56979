package ecs_test

import (
	"errors"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

func TestUpdateUnique(t *testing.T) {
	w := ecs.NewWorld()
	err := ecs.UpdateUnique(w, func(c *wClock) { c.Ticks++ })
	if err == nil || !errors.Is(err, ecs.ErrMissingUnique) {
		t.Fatalf("missing unique: %v", err)
	}
	noErr(t, ecs.AddUnique(w, wClock{Ticks: 1}))
	// Works while a component storage is borrowed elsewhere...
	var pos ecs.ViewMut[wPos]
	release, err := w.Borrow(&pos)
	noErr(t, err)
	noErr(t, ecs.UpdateUnique(w, func(c *wClock) { c.Ticks += 10 }))
	release()
	c, err := ecs.GetUnique[wClock](w)
	noErr(t, err)
	if c.Ticks != 11 {
		t.Fatalf("ticks = %d", c.Ticks)
	}
	// ...but not while the unique itself is.
	var clock ecs.UniqueView[wClock]
	release, err = w.Borrow(&clock)
	noErr(t, err)
	defer release()
	err = ecs.UpdateUnique(w, func(c *wClock) { c.Ticks++ })
	var be *ecs.BorrowError
	if !errors.As(err, &be) || be.Resource != "unique ecs_test.wClock" {
		t.Fatalf("err = %v", err)
	}
}

func TestUniqueBorrowDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop frames on purpose")
	}
	w := ecs.NewWorld()
	noErr(t, ecs.AddUnique(w, wClock{}))
	sys := func(c ecs.UniqueViewMut[wClock]) { c.Get().Ticks++ }
	noErr(t, w.Run(sys))
	if n := testing.AllocsPerRun(100, func() { _ = w.Run(sys) }); n != 0 {
		t.Fatalf("%v allocations per run of a unique system", n)
	}
}
