package snapshot_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/snapshot"
)

// The component and unique types of the tests: numbers, a string, a tag,
// an id inside a component, arrays and slices, and a unique.
type (
	Pos  struct{ X, Y float64 }
	Name string
	Tag  struct{}
	Link struct {
		To   ecs.EntityID
		Note string
	}
	Big struct {
		A [3]int32
		B []uint16
		C bool
		D int
	}
	Score struct{ Points, Lives int }
)

// newRegistry registers the test types.
func newRegistry(t testing.TB) *snapshot.Registry {
	t.Helper()
	var r snapshot.Registry
	for _, err := range []error{
		snapshot.Register[Pos](&r, "pos"),
		snapshot.Register[Name](&r, "name"),
		snapshot.Register[Tag](&r, "tag"),
		snapshot.Register[Link](&r, "link"),
		snapshot.Register[Big](&r, "big"),
		snapshot.RegisterUnique[Score](&r, "score"),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return &r
}

// state is everything a save keeps of a world, for comparisons: the
// entities storage, each storage's ids and components in order, the
// unique, and the ids the next creations return (taken from a clone, so
// the world itself is left alone).
type state struct {
	Ents  ecs.EntitiesState
	Pos   storageOf[Pos]
	Name  storageOf[Name]
	Tag   storageOf[Tag]
	Link  storageOf[Link]
	Big   storageOf[Big]
	Score *Score
	Next  []ecs.EntityID
}

type storageOf[T any] struct {
	IDs  []ecs.EntityID
	Vals []T
}

func readStorage[T any](t testing.TB, w *ecs.World) storageOf[T] {
	t.Helper()
	var v ecs.View[T]
	release, err := w.Borrow(&v)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	return storageOf[T]{slices.Clone(v.IDs()), slices.Clone(v.Slice())}
}

func stateOf(t testing.TB, w *ecs.World) state {
	t.Helper()
	var s state
	if err := w.EntitiesState(&s.Ents); err != nil {
		t.Fatal(err)
	}
	s.Pos, s.Name, s.Tag = readStorage[Pos](t, w), readStorage[Name](t, w), readStorage[Tag](t, w)
	s.Link, s.Big = readStorage[Link](t, w), readStorage[Big](t, w)
	if sc, err := ecs.GetUnique[Score](w); err == nil {
		s.Score = &sc
	}
	c, err := w.Clone()
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		id, err := c.AddEntity()
		if err != nil {
			t.Fatal(err)
		}
		s.Next = append(s.Next, id)
	}
	return s
}

// sameState fails t if a and b differ.
func sameState(t testing.TB, what string, a, b state) {
	t.Helper()
	if (a.Score == nil) != (b.Score == nil) || a.Score != nil && *a.Score != *b.Score {
		t.Fatalf("%s: score %v, want %v", what, a.Score, b.Score)
	}
	a.Score, b.Score = nil, nil
	// Printed, floats show every bit that matters (-0 included), and a
	// NaN equals a NaN.
	if sa, sb := fmt.Sprintf("%+v", a), fmt.Sprintf("%+v", b); sa != sb {
		t.Fatalf("%s: states differ:\n got %s\nwant %s", what, sa, sb)
	}
}

// buildWorld makes a world with every test type, deletions (so the free
// list holds indices) and ids stored in components.
func buildWorld(t testing.TB) *ecs.World {
	t.Helper()
	w := ecs.NewWorld()
	var ids []ecs.EntityID
	for i := range 10 {
		id, err := w.AddEntity()
		must(t, err)
		ids = append(ids, id)
		must(t, ecs.AddComponent1(w, id, Pos{float64(i), -float64(i) / 3}))
		if i%2 == 0 {
			must(t, ecs.AddComponent1(w, id, Name(fmt.Sprintf("n%d \"quoted\" ü", i))))
		}
		if i%3 == 0 {
			must(t, ecs.AddComponent1(w, id, Tag{}))
		}
	}
	must(t, ecs.AddComponent1(w, ids[1], Link{To: ids[7], Note: "seven"}))
	must(t, ecs.AddComponent1(w, ids[4], Big{A: [3]int32{1, -2, 3}, B: []uint16{9, 8}, C: true, D: -5}))
	must(t, w.DeleteEntity(ids[2]))
	must(t, w.DeleteEntity(ids[5]))
	must(t, ecs.AddUnique(w, Score{Points: 12, Lives: 3}))
	return w
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func save(t testing.TB, r *snapshot.Registry, w *ecs.World, o *snapshot.SaveOptions) []byte {
	t.Helper()
	var b bytes.Buffer
	must(t, r.Save(w, &b, o))
	return b.Bytes()
}

var formats = []snapshot.Format{snapshot.JSON, snapshot.Binary}

func TestSaveLoadRoundTrip(t *testing.T) {
	r := newRegistry(t)
	for _, f := range formats {
		t.Run(f.String(), func(t *testing.T) {
			w := buildWorld(t)
			want := stateOf(t, w)
			data := save(t, r, w, &snapshot.SaveOptions{Format: f})
			w2, err := r.Load(bytes.NewReader(data), nil)
			must(t, err)
			sameState(t, "loaded", stateOf(t, w2), want)
			// The next ids are the saved world's next ids.
			for i := 0; i < 3; i++ {
				a, _ := w.AddEntity()
				b, _ := w2.AddEntity()
				if a != b {
					t.Fatalf("creation %d after load: %v, the saved world gives %v", i, b, a)
				}
			}
		})
	}
}

// errorsIs fails t unless err wraps kind and is an *snapshot.Error.
func errorsIs(t testing.TB, err, kind error) *snapshot.Error {
	t.Helper()
	var se *snapshot.Error
	if !errors.Is(err, kind) || !errors.As(err, &se) {
		t.Fatalf("error %v, want an *snapshot.Error wrapping %v", err, kind)
	}
	return se
}

var _ = rand.New
