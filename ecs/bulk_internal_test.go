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

// middlePage splits ids in index order (either way round) at the middle
// id's page, and picks the median of its three samples otherwise.
func TestMiddlePage(t *testing.T) {
	seq := func(from, n, step int) []EntityID {
		ids := make([]EntityID, n)
		for i := range ids {
			ids[i] = newEntityID(uint32(from+i*step), 0)
		}
		return ids
	}
	page := func(i int) uint32 { return uint32(i) >> pageShift }
	for _, c := range []struct {
		name string
		ids  []EntityID
		want uint32
	}{
		{"one id", seq(5000, 1, 1), page(5000)},
		{"one page", seq(0, pageSize, 1), 0},
		{"index order", seq(0, 100*pageSize, 1), 50},
		{"index order from far", seq(1000*pageSize, 100*pageSize, 1), 1050},
		{"reverse order", seq(100*pageSize-1, 100*pageSize, -1), 49},
		// Samples at pages 9 (n/4), 0 (n/2), 3 (3n/4): the median is 3.
		{"median of the samples", []EntityID{
			newEntityID(0, 0), newEntityID(0, 0), newEntityID(9*pageSize, 0),
			newEntityID(0, 0), newEntityID(0, 0), newEntityID(0, 0), newEntityID(3*pageSize, 0), newEntityID(0, 0),
		}, 3},
	} {
		if got := middlePage(c.ids); got != c.want {
			t.Errorf("%s: middlePage = %d, want %d", c.name, got, c.want)
		}
	}
}
