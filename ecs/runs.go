package ecs

import "slices"

// runChunk is how many ids alignedPrefix compares at once.
const runChunk = 128

// alignedPrefix returns the end of the run of aligned positions of a join
// from position from of the driving storage's ids: the first j ≥ from at
// which some storage of others does not hold ids[j] at j (or has fewer
// than j+1 entities), or len(ids) if there is none. The callers pass the
// ids from where a run starts in each storage. Entities given their
// components together (AddEntity2, bulk adds) follow one another in each
// storage, and a join reads their components by position there, as in a
// packed group, with no look-up in the sparse pages. The comparison runs a
// chunk of ids at a time, at the speed of a memory comparison.
func alignedPrefix(ids []EntityID, from int, others [][]EntityID) int {
	n := len(ids)
	for _, d := range others {
		n = min(n, len(d))
	}
	j := max(from, 0)
	if j < n && !alignedAt(ids, others, j) {
		return j
	}
	for ; j+runChunk <= n; j += runChunk {
		if !chunkAligned(ids[j:j+runChunk], others, j) {
			break
		}
	}
	for ; j < n; j++ {
		if !alignedAt(ids, others, j) {
			return j
		}
	}
	return max(n, from)
}

// alignedAt reports whether every storage of others holds ids[j] at j.
func alignedAt(ids []EntityID, others [][]EntityID, j int) bool {
	for _, d := range others {
		if d[j] != ids[j] {
			return false
		}
	}
	return true
}

// chunkAligned reports whether every storage of others holds chunk (the
// ids from position j on) at the same positions.
func chunkAligned(chunk []EntityID, others [][]EntityID, j int) bool {
	for _, d := range others {
		if !slices.Equal(chunk, d[j:j+len(chunk)]) {
			return false
		}
	}
	return true
}
