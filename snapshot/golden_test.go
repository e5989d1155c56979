package snapshot_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/slipway-ecs/slipway/snapshot"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// The saves of the test world, byte for byte: the JSON one is the
// format's readable example, and both fail this test if the layout
// changes without a new Version. The golden files load into the world
// they were saved from, so old saves keep loading.
func TestGoldenSaves(t *testing.T) {
	r := newRegistry(t)
	w := buildWorld(t)
	for _, c := range []struct {
		file string
		f    snapshot.Format
	}{{"world.json", snapshot.JSON}, {"world.bin", snapshot.Binary}} {
		got := save(t, r, w, &snapshot.SaveOptions{Format: c.f})
		path := filepath.Join("testdata", c.file)
		if *update {
			must(t, os.WriteFile(path, got, 0o644))
		}
		want, err := os.ReadFile(path)
		must(t, err)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the save differs from the golden file (go test -update rewrites it):\n%s", c.file, got)
		}
		w2, err := r.Load(bytes.NewReader(want), nil)
		must(t, err)
		sameState(t, c.file, stateOf(t, w2), stateOf(t, w))
	}
}
