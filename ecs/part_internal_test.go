package ecs

import "testing"

// TestPartOf: partOf reads the core and kind of every view a join takes,
// through the interface's data word (see partOf): a View and a Changed
// from their box, a ViewMut from the word itself. Should the compiler
// ever store one of them differently, the cores read here would be wrong.
func TestPartOf(t *testing.T) {
	c := &viewCore[int]{}
	for _, tc := range []struct {
		name string
		part Part[int]
		want partKey
	}{
		{"View", View[int]{c: c, identGen: 1 << 32}, partKey{}},
		{"ViewMut", ViewMut[int]{c: c}, partKey{mut: true}},
		{"Changed of a View", Changed[int]{c: c, kinds: TrackInsertion}, partKey{kinds: TrackInsertion}},
		{"Changed of a ViewMut", Changed[int]{c: c, kinds: TrackModification | TrackDeletion, mut: true}, partKey{mut: true, kinds: TrackModification | TrackDeletion}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, key := partOf(tc.part)
			if got != c || key != tc.want {
				t.Errorf("partOf = %p, %+v; want %p, %+v", got, key, c, tc.want)
			}
			if wc, wk := tc.part.joinView(); wc != got || wk != key {
				t.Errorf("joinView = %p, %+v; partOf disagrees: %p, %+v", wc, wk, got, key)
			}
		})
	}
	defer func() {
		if r := recover(); r == nil {
			t.Error("partOf(nil) did not panic")
		}
	}()
	partOf[int](nil)
}
