package ecs

import "slices"

// How a storage's arrays grow and shrink.

// newPage allocates a sparse page, every entry empty (zero).
func (s *sparseSet[T]) newPage() *sparsePage { return new(sparsePage) }

// reserve makes room for n more components, growing dense and data
// together, as append does, so that they keep the same capacity.
func (s *sparseSet[T]) reserve(n int) {
	if cap(s.dense)-len(s.dense) >= n && cap(s.data)-len(s.data) >= n {
		return
	}
	s.dense = slices.Grow(s.dense, n)
	s.data = slices.Grow(s.data, cap(s.dense)-len(s.data))
}

// fitDense moves dense and data to arrays of exactly their length (none
// when empty), so that the spare capacity can be garbage collected.
func (s *sparseSet[T]) fitDense() {
	s.dense = fit(s.dense)
	s.data = fit(s.data)
}

// allocatedBytes returns the bytes of s's array, its elements being size
// bytes each.
func allocatedBytes[E any](s []E, size int) int { return cap(s) * size }
