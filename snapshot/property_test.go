package snapshot_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/snapshot"
)

// model is the simple model the random worlds are checked against: which
// entities are alive, and each type's components as a map.
type model struct {
	alive []ecs.EntityID
	pos   map[ecs.EntityID]Pos
	name  map[ecs.EntityID]Name
	tag   map[ecs.EntityID]Tag
	link  map[ecs.EntityID]Link
	big   map[ecs.EntityID]Big
	score *Score
}

// randomWorld applies n random operations to a new world and to the
// model, and returns both.
func randomWorld(t testing.TB, rng *rand.Rand, n int) (*ecs.World, *model) {
	w := ecs.NewWorld()
	m := &model{pos: map[ecs.EntityID]Pos{}, name: map[ecs.EntityID]Name{}, tag: map[ecs.EntityID]Tag{},
		link: map[ecs.EntityID]Link{}, big: map[ecs.EntityID]Big{}}
	pick := func() (ecs.EntityID, bool) {
		if len(m.alive) == 0 {
			return 0, false
		}
		return m.alive[rng.IntN(len(m.alive))], true
	}
	for range n {
		switch op := rng.IntN(12); {
		case op < 3:
			id, err := w.AddEntity()
			must(t, err)
			m.alive = append(m.alive, id)
		case op < 5:
			id, ok := pick()
			if !ok {
				continue
			}
			must(t, w.DeleteEntity(id))
			for i, a := range m.alive {
				if a == id {
					m.alive = append(m.alive[:i], m.alive[i+1:]...)
					break
				}
			}
			delete(m.pos, id)
			delete(m.name, id)
			delete(m.tag, id)
			delete(m.link, id)
			delete(m.big, id)
		case op < 10:
			id, ok := pick()
			if !ok {
				continue
			}
			remove := rng.IntN(4) == 0
			switch rng.IntN(5) {
			case 0:
				v := Pos{rng.NormFloat64(), float64(rng.IntN(100))}
				addOrRemove(t, w, m.pos, id, v, remove)
			case 1:
				addOrRemove(t, w, m.name, id, Name(fmt.Sprint(rng.Uint64())), remove)
			case 2:
				addOrRemove(t, w, m.tag, id, Tag{}, remove)
			case 3:
				to, _ := pick()
				addOrRemove(t, w, m.link, id, Link{To: to, Note: "→"}, remove)
			case 4:
				v := Big{A: [3]int32{rng.Int32(), -1, 0}, C: rng.IntN(2) == 0, D: rng.IntN(1000) - 500}
				for range rng.IntN(4) {
					v.B = append(v.B, uint16(rng.Uint32()))
				}
				addOrRemove(t, w, m.big, id, v, remove)
			}
		case op < 11:
			s := Score{Points: rng.IntN(1000), Lives: rng.IntN(5)}
			must(t, ecs.AddUnique(w, s))
			m.score = &s
		default:
			if m.score != nil {
				if _, err := ecs.RemoveUnique[Score](w); err != nil {
					t.Fatal(err)
				}
				m.score = nil
			}
		}
	}
	return w, m
}

func addOrRemove[T any](t testing.TB, w *ecs.World, m map[ecs.EntityID]T, id ecs.EntityID, v T, remove bool) {
	t.Helper()
	if remove {
		if _, err := ecs.DeleteComponent[T](w, id); err != nil {
			t.Fatal(err)
		}
		delete(m, id)
		return
	}
	must(t, ecs.AddComponent1(w, id, v))
	m[id] = v
}

// checkModel fails t unless the state s holds what m does.
func checkModel(t testing.TB, what string, s state, m *model) {
	t.Helper()
	live := 0
	for i := range s.Ents.Slots {
		if _, ok := s.Ents.ID(i); ok {
			live++
		}
	}
	if live != len(m.alive) {
		t.Fatalf("%s: %d live entities, the model %d", what, live, len(m.alive))
	}
	for _, id := range m.alive {
		if !s.Ents.IsAlive(id) {
			t.Fatalf("%s: %v is not alive", what, id)
		}
	}
	sameMap(t, what+": pos", s.Pos, m.pos)
	sameMap(t, what+": name", s.Name, m.name)
	sameMap(t, what+": tag", s.Tag, m.tag)
	sameMap(t, what+": link", s.Link, m.link)
	sameMap(t, what+": big", s.Big, m.big)
	if (s.Score == nil) != (m.score == nil) || s.Score != nil && *s.Score != *m.score {
		t.Fatalf("%s: score %v, the model %v", what, s.Score, m.score)
	}
}

func sameMap[T any](t testing.TB, what string, s storageOf[T], m map[ecs.EntityID]T) {
	t.Helper()
	if len(s.IDs) != len(m) {
		t.Fatalf("%s: %d components, the model %d", what, len(s.IDs), len(m))
	}
	for i, id := range s.IDs {
		want, ok := m[id]
		if !ok || fmt.Sprint(want) != fmt.Sprint(s.Vals[i]) {
			t.Fatalf("%s: %v has %v, the model %v (%v)", what, id, s.Vals[i], want, ok)
		}
	}
}

// Random worlds, saved and loaded in both formats, come back identical:
// contents and their order, ids, generations, free list, the unique and
// the next ids created; both the saved and the loaded world match the
// model.
func TestRoundTripProperty(t *testing.T) {
	r := newRegistry(t)
	seeds := 200
	if testing.Short() {
		seeds = 40
	}
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 56))
		w, m := randomWorld(t, rng, rng.IntN(400))
		want := stateOf(t, w)
		checkModel(t, fmt.Sprintf("seed %d: saved world", seed), want, m)
		for _, f := range formats {
			data := save(t, r, w, &snapshot.SaveOptions{Format: f})
			w2, err := r.Load(bytes.NewReader(data), nil)
			if err != nil {
				t.Fatalf("seed %d, %v: %v", seed, f, err)
			}
			got := stateOf(t, w2)
			sameState(t, fmt.Sprintf("seed %d, %v", seed, f), got, want)
			checkModel(t, fmt.Sprintf("seed %d, %v: loaded world", seed, f), got, m)
			// Saving the loaded world gives the same bytes.
			if again := save(t, r, w2, &snapshot.SaveOptions{Format: f}); !bytes.Equal(again, data) {
				t.Fatalf("seed %d, %v: the loaded world saves differently", seed, f)
			}
		}
	}
}
