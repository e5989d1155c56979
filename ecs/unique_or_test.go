package ecs_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

type orScore struct{ Points int }

type orCfg struct {
	Seed int
	Name string
}

// uniqueFree fails t unless the unique T of w is borrowed by no one: an
// UpdateUnique (which needs it exclusively) must not conflict.
func uniqueFree[T any](t *testing.T, w *ecs.World) {
	t.Helper()
	var held bool
	var ve ecs.UniqueOrInitMut[T] // exclusive, and adds nothing
	release, err := w.Borrow(&ve)
	if err != nil {
		t.Errorf("unique %T is still borrowed: %v", *new(T), err)
		held = true
	} else {
		release()
	}
	if !held {
		nothingHeld(t, w)
	}
}

// TestUniqueOrBorrowEdges: what each view does with a missing unique, a
// present one, and one borrowed elsewhere: a refused borrow changes
// nothing and leaves nothing borrowed.
func TestUniqueOrBorrowEdges(t *testing.T) {
	cases := []struct {
		name    string
		present bool
		held    string // "", "shared" or "excl": how a Borrow holds the unique meanwhile
		run     func(w *ecs.World) error
		want    orScore
		wantOK  bool   // the unique is there after the run
		wantErr string // the refused BorrowError's Access, or ""
	}{
		{"default/missing", false, "", runDefault, orScore{}, true, ""},
		{"default/present", true, "", runDefault, orScore{7}, true, ""},
		{"default/present/held shared", true, "shared", runDefault, orScore{7}, true, ""},
		{"default/present/held excl", true, "excl", runDefault, orScore{7}, true, "UniqueOrDefault[ecs_test.orScore]"},
		{"default/missing/held excl", false, "excl", runDefault, orScore{}, false, "UniqueOrDefault[ecs_test.orScore]"},
		{"defaultMut/missing", false, "", runDefaultMut, orScore{1}, true, ""},
		{"defaultMut/present", true, "", runDefaultMut, orScore{8}, true, ""},
		{"defaultMut/present/held shared", true, "shared", runDefaultMut, orScore{7}, true, "UniqueOrDefaultMut[ecs_test.orScore]"},
		{"defaultMut/missing/held excl", false, "excl", runDefaultMut, orScore{}, false, "UniqueOrDefaultMut[ecs_test.orScore]"},
		{"init/missing", false, "", runInit, orScore{100}, true, ""},
		{"init/present", true, "", runInit, orScore{7}, true, ""},
		{"init/present/held shared", true, "shared", runInit, orScore{7}, true, "UniqueOrInitMut[ecs_test.orScore]"},
		{"init/missing/held excl", false, "excl", runInit, orScore{}, false, "UniqueOrInitMut[ecs_test.orScore]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := ecs.NewWorld()
			if c.present {
				must(t, ecs.AddUnique(w, orScore{7}))
			}
			release := func() {}
			var err error
			switch {
			case c.held == "shared":
				var uv ecs.UniqueView[orScore]
				release, err = w.Borrow(&uv)
			case c.held == "excl" && c.present:
				var uv ecs.UniqueViewMut[orScore]
				release, err = w.Borrow(&uv)
			case c.held == "excl": // the only way to hold a missing unique
				var uv ecs.UniqueOrInitMut[orScore]
				release, err = w.Borrow(&uv)
			}
			must(t, err)
			err = c.run(w)
			release()
			if c.wantErr != "" {
				be := errAs[*ecs.BorrowError](t, err)
				equal(t, "BorrowError.Access", be.Access, c.wantErr)
				equal(t, "BorrowError.Resource", be.Resource, "unique ecs_test.orScore")
				errAs[*ecs.SystemFailure](t, err)
			} else {
				must(t, err)
			}
			got, gerr := ecs.GetUnique[orScore](w)
			equal(t, "present after", gerr == nil, c.wantOK)
			if c.wantOK {
				equal(t, "value after", got, c.want)
			}
			uniqueFree[orScore](t, w)
		})
	}
}

func runDefault(w *ecs.World) error {
	return w.Run(func(s ecs.UniqueOrDefault[orScore]) { _ = s.Get() })
}

func runDefaultMut(w *ecs.World) error {
	return w.Run(func(s ecs.UniqueOrDefaultMut[orScore]) {
		if p := s.Get(); p.Points == 7 {
			p.Points = 8
		} else {
			p.Points++
		}
	})
}

func runInit(w *ecs.World) error {
	return w.Run(func(s ecs.UniqueOrInitMut[orScore]) {
		if _, err := s.GetOrInit(func() orScore { return orScore{100} }); err != nil {
			panic(err)
		}
	})
}

// TestUniqueOrInitGet: Get reports a missing unique without adding it;
// GetOrInit calls init only when the unique is missing, once.
func TestUniqueOrInitGet(t *testing.T) {
	w := ecs.NewWorld()
	calls := 0
	init := func() orCfg { calls++; return orCfg{Seed: 42, Name: "init"} }
	must(t, w.Run(func(c ecs.UniqueOrInitMut[orCfg]) {
		p, ok := c.Get()
		isTrue(t, p == nil && !ok, "Get of a missing unique: %v %v", p, ok)
		p, err := c.GetOrInit(init)
		must(t, err)
		equal(t, "after GetOrInit", *p, orCfg{42, "init"})
		p.Seed = 43
		q, err := c.GetOrInit(init)
		must(t, err)
		isTrue(t, p == q, "GetOrInit returned another pointer")
		q2, ok := c.Get()
		isTrue(t, ok && q2 == p, "Get after GetOrInit: %v %v", q2, ok)
	}))
	equal(t, "init calls", calls, 1)
	// A run that only reads does not add it.
	w2 := ecs.NewWorld()
	must(t, w2.Run(func(c ecs.UniqueOrInitMut[orCfg]) {
		_, ok := c.Get()
		isTrue(t, !ok, "present in a new world")
	}))
	_, err := ecs.GetUnique[orCfg](w2)
	errIs(t, err, ecs.ErrMissingUnique)

	got, err := ecs.GetUnique[orCfg](w)
	must(t, err)
	equal(t, "after the run", got, orCfg{43, "init"})
	// Present: init is not called.
	must(t, w.Run(func(c ecs.UniqueOrInitMut[orCfg]) {
		p, err := c.GetOrInit(init)
		must(t, err)
		equal(t, "present", p.Seed, 43)
	}))
	equal(t, "init calls", calls, 1)
}

// TestUniqueOrInitNilAndPanic: a nil init is an error that changes
// nothing; an init that panics leaves the unique missing and nothing
// borrowed.
func TestUniqueOrInitNilAndPanic(t *testing.T) {
	w := ecs.NewWorld()
	must(t, w.Run(func(c ecs.UniqueOrInitMut[orCfg]) {
		p, err := c.GetOrInit(nil)
		isTrue(t, p == nil, "pointer with a nil init")
		errIs(t, err, ecs.ErrNilFunc)
		errHas(t, err, "UniqueOrInitMut[ecs_test.orCfg].GetOrInit")
		_, ok := c.Get()
		isTrue(t, !ok, "a nil init added the unique")
	}))
	_, err := ecs.GetUnique[orCfg](w)
	errIs(t, err, ecs.ErrMissingUnique)

	r := mustPanic(t, func() {
		_ = w.Run(func(c ecs.UniqueOrInitMut[orCfg]) {
			_, _ = c.GetOrInit(func() orCfg { panic("init failed") })
		})
	})
	hasAll(t, fmt.Sprint(r), "init failed")
	_, err = ecs.GetUnique[orCfg](w)
	errIs(t, err, ecs.ErrMissingUnique)
	uniqueFree[orCfg](t, w)

	// With the unique present, a nil init is refused all the same.
	must(t, ecs.AddUnique(w, orCfg{Seed: 1}))
	must(t, w.Run(func(c ecs.UniqueOrInitMut[orCfg]) {
		_, err := c.GetOrInit(nil)
		errIs(t, err, ecs.ErrNilFunc)
	}))
}

// TestUniqueOrReleased: the views panic with ErrReleased once released,
// print that they are released, and a copy kept past a new borrow panics
// too.
func TestUniqueOrReleased(t *testing.T) {
	w := ecs.NewWorld()
	var d ecs.UniqueOrDefault[orScore]
	var dm ecs.UniqueOrDefaultMut[orCfg]
	var im ecs.UniqueOrInitMut[int]
	release, err := w.Borrow(&d, &dm, &im)
	must(t, err)
	oldD := d
	release()
	mustPanicReleased(t, map[string]func(){
		"UniqueOrDefault.Get":     func() { d.Get() },
		"UniqueOrDefaultMut.Get":  func() { dm.Get() },
		"UniqueOrInitMut.Get":     func() { im.Get() },
		"UniqueOrInitMut.GetInit": func() { _, _ = im.GetOrInit(func() int { return 1 }) },
		"zero UniqueOrDefault":    func() { var z ecs.UniqueOrDefault[orScore]; z.Get() },
	})
	equal(t, "released", fmt.Sprint(d), "UniqueOrDefault[ecs_test.orScore](released)")
	equal(t, "released", fmt.Sprintf("%+v", dm), "UniqueOrDefaultMut[ecs_test.orCfg](released)")
	equal(t, "released", fmt.Sprint(im), "UniqueOrInitMut[int](released)")
	// The int was never added: the release of an empty UniqueOrInitMut
	// leaves it missing.
	_, err = ecs.GetUnique[int](w)
	errIs(t, err, ecs.ErrMissingUnique)

	release, err = w.Borrow(&d)
	must(t, err)
	defer release()
	mustPanicReleased(t, map[string]func(){"copy of an older borrow": func() { oldD.Get() }})
	equal(t, "borrowed again", d.Get(), orScore{})
}

// TestUniqueOrFormat: the views print like UniqueView, with their own
// kind; an empty UniqueOrInitMut says the unique is missing.
func TestUniqueOrFormat(t *testing.T) {
	w := ecs.NewWorld()
	must(t, ecs.AddUnique(w, orCfg{Seed: 3, Name: "x"}))
	must(t, w.Run(func(d ecs.UniqueOrDefault[orCfg], dm ecs.UniqueOrDefaultMut[orScore], im ecs.UniqueOrInitMut[int]) {
		equal(t, "%v", fmt.Sprint(d), "{3 x}")
		equal(t, "%+v", fmt.Sprintf("%+v", d), "UniqueOrDefault[ecs_test.orCfg] {Seed:3 Name:x}")
		equal(t, "%+v", fmt.Sprintf("%+v", dm), "UniqueOrDefaultMut[ecs_test.orScore] {Points:0}")
		equal(t, "missing", fmt.Sprint(im), "UniqueOrInitMut[int](missing)")
		equal(t, "missing %+v", fmt.Sprintf("%+v", im), "UniqueOrInitMut[int](missing)")
		_, _ = im.GetOrInit(func() int { return 5 })
		equal(t, "after init", fmt.Sprintf("%+v", im), "UniqueOrInitMut[int] 5")
		equal(t, "after init %d", fmt.Sprintf("%03d", im), "005")
	}))
}

// TestUniqueOrAccess: the three views count as writers of their unique,
// so a system refuses one beside another view of the same unique, and a
// workload orders two systems that use one.
func TestUniqueOrAccess(t *testing.T) {
	w := ecs.NewWorld()
	cases := []struct {
		name string
		sys  any
	}{
		{"UniqueOrDefault beside UniqueView", func(ecs.UniqueOrDefault[orScore], ecs.UniqueView[orScore]) {}},
		{"UniqueOrDefault twice", func(ecs.UniqueOrDefault[orScore], ecs.UniqueOrDefault[orScore]) {}},
		{"UniqueOrDefaultMut beside UniqueOrInitMut", func(ecs.UniqueOrDefaultMut[orScore], ecs.UniqueOrInitMut[orScore]) {}},
		{"UniqueOrInitMut beside AllStoragesViewMut", func(ecs.UniqueOrInitMut[orScore], ecs.AllStoragesViewMut) {}},
	}
	for _, c := range cases {
		err := w.Run(c.sys)
		errIs(t, err, ecs.ErrInvalidSystem)
		errIs(t, err, ecs.ErrBorrowConflict)
		errHas(t, err, "ecs_test.orScore")
	}
	_, err := ecs.GetUnique[orScore](w)
	errIs(t, err, ecs.ErrMissingUnique) // no refused system added it

	readA := func(s ecs.UniqueOrDefault[orScore]) {}
	readB := func(s ecs.UniqueOrDefault[orScore]) {}
	other := func(ecs.UniqueView[orCfg]) {}
	must(t, ecs.AddUnique(w, orCfg{}))
	must(t, w.AddWorkload("w", readA, readB, other))
	p, err := w.WorkloadPlan("w")
	must(t, err)
	equal(t, "batches", len(p.Batches), 2)
	deepEqual(t, "accesses", p.Systems[0].Accesses, []string{"UniqueOrDefault[ecs_test.orScore]"})
	hasAll(t, p.Systems[1].Reason, "UniqueOrDefault[ecs_test.orScore]")
}

// TestUniqueOrWorkloadRace: two systems of one workload that both add the
// unique if it is missing, and one that reads it with a UniqueView after
// them, never race (run with -race) and never fail: the workload orders
// them, so the first adds the unique and the rest see it.
func TestUniqueOrWorkloadRace(t *testing.T) {
	for range 50 {
		w := ecs.NewWorld()
		newTestPool(t, w)
		var mu sync.Mutex
		var seen []int
		note := func(n int) { mu.Lock(); seen = append(seen, n); mu.Unlock() }
		addA := func(s ecs.UniqueOrDefaultMut[orScore]) { s.Get().Points++ }
		readB := func(s ecs.UniqueOrDefault[orScore]) { note(s.Get().Points) }
		initC := func(s ecs.UniqueOrInitMut[orScore]) {
			p, _ := s.GetOrInit(func() orScore { return orScore{-1} })
			p.Points += 10
		}
		readD := func(s ecs.UniqueView[orScore]) { note(s.Get().Points) }
		// Systems on other uniques, to be run beside them.
		busy := func(s ecs.UniqueOrDefaultMut[orCfg]) { s.Get().Seed++ }
		busy2 := func(s ecs.UniqueOrDefault[int]) { _ = s.Get() }
		must(t, w.AddWorkload("w", readB, addA, busy, initC, busy2, readD))
		must(t, w.RunWorkload("w"))
		must(t, w.RunWorkload("w"))
		deepEqual(t, "seen", seen, []int{0, 11, 11, 22})
	}
}

// TestUniqueOrConcurrentRuns: Runs on many goroutines that each read the
// unique through a UniqueOrDefault, starting from a world without it: all
// succeed or fail with a BorrowError, and the unique is added once.
func TestUniqueOrConcurrentRuns(t *testing.T) {
	for range 20 {
		w := ecs.NewWorld()
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = w.Run(func(s ecs.UniqueOrDefault[orScore]) {
					if s.Get() != (orScore{}) {
						panic("not the zero value")
					}
				})
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				errAs[*ecs.BorrowError](t, err)
			}
		}
		got, err := ecs.GetUnique[orScore](w)
		must(t, err)
		equal(t, "unique", got, orScore{})
		uniqueFree[orScore](t, w)
	}
}

// TestUniqueOrEverywhere: the views work in RunValue, in an
// AllStoragesViewMut's Borrow and Run, and in custom views.
func TestUniqueOrEverywhere(t *testing.T) {
	w := ecs.NewWorld()
	n, err := ecs.RunValue1(w, func(s ecs.UniqueOrDefaultMut[orScore]) int {
		s.Get().Points += 2
		return s.Get().Points
	})
	must(t, err)
	equal(t, "RunValue1", n, 2)

	type bundle struct {
		Score ecs.UniqueOrDefault[orScore]
		Cfg   ecs.UniqueOrInitMut[orCfg]
	}
	must(t, w.Run(func(all ecs.AllStoragesViewMut) {
		var b bundle
		release, err := all.Borrow(&b)
		must(t, err)
		equal(t, "score under all", b.Score.Get().Points, 2)
		p, err := b.Cfg.GetOrInit(func() orCfg { return orCfg{Name: "under"} })
		must(t, err)
		p.Seed = 9
		release()
		must(t, all.Run(func(c ecs.UniqueOrDefaultMut[orCfg], k ecs.UniqueOrDefault[int]) {
			equal(t, "cfg in all.Run", *c.Get(), orCfg{9, "under"})
			equal(t, "int added", k.Get(), 0)
		}))
	}))
	k, err := ecs.GetUnique[int](w)
	must(t, err)
	equal(t, "int added under AllStoragesViewMut", k, 0)
	uniqueFree[orCfg](t, w)
}
