package snapshot_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
	"github.com/slipway-ecs/slipway/snapshot"
)

// fuzzSeeds are the test suite's saves: worlds whole, of some types, of
// some entities, a storage alone, in both formats.
func fuzzSeeds(t testing.TB, r *snapshot.Registry) [][]byte {
	var seeds [][]byte
	w := buildWorld(t)
	st := stateOf(t, w)
	for _, f := range formats {
		seeds = append(seeds,
			save(t, r, w, &snapshot.SaveOptions{Format: f}),
			save(t, r, ecs.NewWorld(), &snapshot.SaveOptions{Format: f}),
			save(t, r, w, &snapshot.SaveOptions{Format: f, Types: []string{"big", "score"}}),
			save(t, r, w, &snapshot.SaveOptions{Format: f, Entities: st.Link.IDs}))
		var b bytes.Buffer
		must(t, snapshot.SaveStorage[Name](r, w, &b, f))
		seeds = append(seeds, b.Bytes())
		for seed := range 3 {
			rng := rand.New(rand.NewPCG(uint64(seed), 7))
			rw, _ := randomWorld(t, rng, 60)
			seeds = append(seeds, save(t, r, rw, &snapshot.SaveOptions{Format: f}))
		}
	}
	return seeds
}

// FuzzLoad feeds the loader damaged saves. It must never panic, never
// allocate much more than the input's size, leave the target unchanged
// when it refuses, and load what it accepts as a save of the loaded world
// loads back. Binary inputs are tried as they are and with their checksum
// made right, so that the fuzzer reaches past the checksum.
func FuzzLoad(f *testing.F) {
	r := newRegistry(f)
	for _, s := range fuzzSeeds(f, r) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		inputs := [][]byte{data}
		if bytes.HasPrefix(data, []byte("SLPWSAVE")) && len(data) >= 12 {
			inputs = append(inputs, fixCRC(bytes.Clone(data)))
		}
		for _, in := range inputs {
			fuzzLoadOne(t, r, in)
		}
	})
}

// allocBound is what a load may allocate for n bytes of input: the world's
// fixed costs, plus a small multiple of what the input holds (a slot of
// four bytes becomes four in the file's state, four in the world's, and
// four in its snapshot; a JSON slot of two bytes, the same).
func allocBound(n int) uint64 { return 64*uint64(n) + 4<<20 }

func fuzzLoadOne(t *testing.T, r *snapshot.Registry, in []byte) {
	target := loadTarget(t)
	before := stateOf(t, target)
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	err := r.LoadInto(target, bytes.NewReader(in), nil)
	runtime.ReadMemStats(&m1)
	if a := m1.TotalAlloc - m0.TotalAlloc; a > allocBound(len(in)) {
		t.Fatalf("loading %d bytes allocated %d bytes", len(in), a)
	}
	if err != nil {
		var se *snapshot.Error
		if !errors.As(err, &se) {
			t.Fatalf("the error is no *snapshot.Error: %v", err)
		}
		sameState(t, "target after a refused load", stateOf(t, target), before)
	} else {
		// What loaded saves and loads back the same in the binary format.
		// JSON strings are UTF-8 (encoding/json writes U+FFFD for invalid
		// bytes), so a JSON save of what loaded is a fixed point from its
		// second round on.
		got := stateOf(t, target)
		w2, err := r.Load(bytes.NewReader(save(t, r, target, &snapshot.SaveOptions{Format: snapshot.Binary})), nil)
		if err != nil {
			t.Fatalf("a loaded world's binary save does not load: %v", err)
		}
		sameState(t, "saved again", stateOf(t, w2), got)
		jsonFixedPoint(t, r, target)
	}
	// The same input as a storage alone, into a world with entities.
	w := buildWorld(t)
	before = stateOf(t, w)
	if err := r.LoadStorage(w, bytes.NewReader(in)); err != nil {
		var se *snapshot.Error
		if !errors.As(err, &se) {
			t.Fatalf("LoadStorage: the error is no *snapshot.Error: %v", err)
		}
		sameState(t, "world after a refused LoadStorage", stateOf(t, w), before)
	}
}

// The seeds load (or, for the storage alone, are refused as a world's
// save) within the allocation bound.
func TestFuzzSeedsLoad(t *testing.T) {
	r := newRegistry(t)
	for i, s := range fuzzSeeds(t, r) {
		_, err := r.Load(bytes.NewReader(s), nil)
		if err != nil && !errors.Is(err, snapshot.ErrFormat) {
			t.Fatalf("seed %d: %v", i, err)
		}
		fuzzLoadOne(t, r, s)
	}
}

// A length field of 2^40 does not allocate 2^40 bytes.
func TestHugeCountsDoNotAllocate(t *testing.T) {
	r := newRegistry(t)
	huge := []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x20} // 2^40, uvarint
	for _, in := range [][]byte{
		append([]byte("SLPWSAVE\x01\x01"), huge...),              // type count
		append([]byte("SLPWSAVE\x01\x01\x00"), huge...),          // slot count
		append([]byte("SLPWSAVE\x01\x00\x01\x00\x01p"), huge...), // section length
	} {
		in = append(in, make([]byte, 64)...)
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		_, err := r.Load(bytes.NewReader(in), nil)
		runtime.ReadMemStats(&m1)
		errorsIs(t, err, snapshot.ErrTruncated)
		if a := m1.TotalAlloc - m0.TotalAlloc; a > 1<<20 {
			t.Fatalf("%q: allocated %d bytes", in, a)
		}
	}
}

// jsonFixedPoint checks that w's JSON save loads, and that the world it
// loads saves and loads back the same. A NaN, which JSON cannot hold,
// fails the save with ErrCodec, and nothing more is checked.
func jsonFixedPoint(t *testing.T, r *snapshot.Registry, w *ecs.World) {
	var jb bytes.Buffer
	if err := r.Save(w, &jb, nil); errors.Is(err, snapshot.ErrCodec) {
		return
	} else if err != nil {
		t.Fatal(err)
	}
	j1, err := r.Load(&jb, nil)
	if err != nil {
		t.Fatalf("a loaded world's JSON save does not load: %v", err)
	}
	j2, err := r.Load(bytes.NewReader(save(t, r, j1, nil)), nil)
	if err != nil {
		t.Fatalf("a JSON save loaded and saved again does not load: %v", err)
	}
	sameState(t, "saved again in JSON", stateOf(t, j2), stateOf(t, j1))
}
