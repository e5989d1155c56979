package ecs

import "testing"

type (
	bpA     struct{ X float64 }
	bpB     struct{ X float64 }
	bpTrack struct{ X float64 }
)

func (bpTrack) Tracking() Tracking { return TrackModification }

// bulkParallel lets a bulk operation work on storages at once only when
// they are distinct and need no bookkeeping, with ids enough.
func TestBulkParallelWhen(t *testing.T) {
	w := NewWorld()
	a, b, tr := storageFor[bpA](w), storageFor[bpB](w), storageFor[bpTrack](w)
	gw := NewWorld()
	if err := AddGroup2[bpA, bpB](gw); err != nil {
		t.Fatal(err)
	}
	ga, gb := storageFor[bpA](gw), storageFor[bpB](gw)
	n := bulkParallelMin
	for _, c := range []struct {
		name string
		n    int
		sts  []storage
		want bool
	}{
		{"two distinct storages", n, []storage{a, b}, true},
		{"too few ids", n - 1, []storage{a, b}, false},
		{"one storage", n, []storage{a}, false},
		{"a storage twice", n, []storage{a, b, a}, false},
		{"a tracked storage", n, []storage{a, tr}, false},
		{"grouped storages", n, []storage{ga, gb}, false},
	} {
		if got := bulkParallel(c.n, c.sts...); got != c.want {
			t.Errorf("%s: bulkParallel = %v, want %v", c.name, got, c.want)
		}
	}
}
