package ecs_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

type (
	prPos    struct{ X, Y int }
	prName   string
	prPlayer struct{ HP int }
)

// prWorld returns a world of entities 0, 2 and 3 with a prPos (entity
// 1's deleted: storage order is 0, 3, 2 after the swap-remove), a prName
// on entity 2, and a unique prPlayer.
func prWorld(t *testing.T) *ecs.World {
	t.Helper()
	w := ecs.NewWorld()
	var ids []ecs.EntityID
	for i := range 4 {
		id, err := ecs.AddEntity1(w, prPos{i, -i})
		must(t, err)
		ids = append(ids, id)
	}
	must(t, ecs.AddComponent1(w, ids[2], prName("two")))
	_, err := ecs.DeleteComponent[prPos](w, ids[1])
	must(t, err)
	must(t, ecs.AddUnique(w, prPlayer{HP: 5}))
	return w
}

// checkGoldenText compares got with the golden file testdata/<name>, or
// rewrites it with -update.
func checkGoldenText(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *updateGolden {
		must(t, os.MkdirAll(filepath.Dir(path), 0o755))
		must(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	must(t, err)
	if string(want) != got {
		t.Errorf("%s differs from the golden file (run go test ./ecs -run %s -update to accept):\n--- got\n%s\n--- want\n%s", path, t.Name(), got, want)
	}
}

// TestViewPrintGolden prints every kind of view with several verbs and
// flags, borrowed, empty and released, against a golden file.
func TestViewPrintGolden(t *testing.T) {
	w := prWorld(t)
	var b strings.Builder
	pr := func(label, format string, v any) {
		fmt.Fprintf(&b, "%-28s "+format+"\n", label, v)
	}
	var (
		pos     ecs.View[prPos]
		posMut  ecs.ViewMut[prPos]
		names   ecs.View[prName]
		empty   ecs.View[prPlayer]
		player  ecs.UniqueView[prPlayer]
		kept    ecs.View[prPos]
		keptMut ecs.UniqueViewMut[prPlayer]
	)
	must(t, w.Run(func(p ecs.View[prPos], n ecs.View[prName], e ecs.View[prPlayer], u ecs.UniqueView[prPlayer]) {
		pos, names, empty, player = p, n, e, u
		for _, f := range []string{"%v", "%+v", "%#v", "%d", "%5d", "%s"} {
			pr("View "+f, f, pos)
		}
		pr("View[prName] %q", "%q", names)
		pr("View[prName] %v", "%v", names)
		pr("empty View %v", "%v", empty)
		pr("empty View %+v", "%+v", empty)
		for _, f := range []string{"%v", "%+v", "%#v"} {
			pr("UniqueView "+f, f, player)
		}
		pr("Sprint", "%s", fmt.Sprint(pos))
		pr("Sprintln", "%s", strings.TrimSuffix(fmt.Sprintln(player), "\n"))
		kept = p
	}))
	must(t, w.Run(func(p ecs.ViewMut[prPos], u ecs.UniqueViewMut[prPlayer]) {
		posMut = p
		pr("ViewMut %v", "%v", p)
		pr("ViewMut %+v", "%+v", p)
		pr("UniqueViewMut %+v", "%+v", u)
		keptMut = u
	}))
	// Released, kept past their systems, and never borrowed.
	pr("released View %v", "%v", kept)
	pr("released View %+v", "%+v", kept)
	pr("released ViewMut %d", "%d", posMut)
	pr("released UniqueViewMut %v", "%v", keptMut)
	pr("zero View %v", "%v", ecs.View[prPos]{})
	pr("zero ViewMut %v", "%v", ecs.ViewMut[prPos]{})
	pr("zero UniqueView %v", "%v", ecs.UniqueView[prPlayer]{})
	pr("zero UniqueViewMut %v", "%v", ecs.UniqueViewMut[prPlayer]{})
	checkGoldenText(t, "views/print.golden", b.String())
}

// TestViewPrintMarksNothing prints a ViewMut of a type that tracks
// modification: nothing is marked modified, while a read for writing is.
func TestViewPrintMarksNothing(t *testing.T) {
	w := prWorld(t)
	must(t, ecs.TrackComponent[prPos](w, ecs.TrackModification))
	modified := func() int {
		n := -1
		must(t, w.Run(func(p ecs.View[prPos]) {
			ch, err := p.Modified()
			must(t, err)
			n = ch.Count()
		}))
		return n
	}
	must(t, w.Run(func(p ecs.ViewMut[prPos]) {
		_ = fmt.Sprintf("%v %+v %#v %d", p, p, p, p)
	}))
	equal(t, "modified after printing", modified(), 0)
	must(t, w.Run(func(p ecs.ViewMut[prPos]) {
		for range p.All() {
		}
	}))
	equal(t, "modified after iterating for writing", modified(), 3)
}

// TestViewPrintFollowsOrder prints a view after its storage changed
// order: the pairs follow WithID.
func TestViewPrintFollowsOrder(t *testing.T) {
	w := prWorld(t)
	must(t, w.Run(func(p ecs.View[prPos]) {
		var want strings.Builder
		want.WriteString("[")
		first := true
		for id, c := range p.WithID() {
			if !first {
				want.WriteString(" ")
			}
			first = false
			fmt.Fprintf(&want, "(%v, %v)", id, *c)
		}
		want.WriteString("]")
		equal(t, "printed", fmt.Sprint(p), want.String())
	}))
}
