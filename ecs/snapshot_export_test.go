package ecs

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// What the snapshot tests (snapshot_test.go) see of a world's internals.
// SnapState dumps them independently of the Snapshot code, so that a
// state the snapshot forgot to copy shows up as a difference.

// SnapState is a world's state, as text per part: "entities", "clock",
// "C <type>" per component storage, "U <type>" per unique.
type SnapState map[string]string

// dumper is implemented by storages and uniques, here in the tests.
type dumper interface{ snapDump() string }

// snapDump writes everything a storage holds that a restore must bring
// back: its components in order, its identity prefix, its group length,
// its tracking state, and every sparse entry set (by index).
func (s *sparseSet[T]) snapDump() string {
	var b strings.Builder
	fmt.Fprintf(&b, "dense=%v data=%+v pre=%d/%#x", s.dense, s.data, s.pre.n, s.pre.gen)
	if s.pack != nil {
		fmt.Fprintf(&b, " pack.n=%d", s.pack.n)
	}
	if t := s.track; t != nil {
		fmt.Fprintf(&b, " kinds=%v ins=%v mod=%v blocks=%v dels=%+v rems=%+v clear=%d/%d",
			t.kinds, t.insertedAt, t.modifiedAt, t.modBlock, t.deletions, t.removals, t.insClear, t.modClear)
	}
	for p, page := range s.pages {
		if page == &emptyPage {
			continue
		}
		for i, e := range page {
			if e != 0 {
				fmt.Fprintf(&b, " e[%d]=%#x", p<<pageShift|i, e)
			}
		}
	}
	return b.String()
}

func (u *unique[T]) snapDump() string {
	if !u.present {
		return "absent"
	}
	return fmt.Sprintf("%+v", u.v)
}

// SnapStateOf returns w's state.
func SnapStateOf(w *World) SnapState {
	st := SnapState{
		"entities": fmt.Sprintf("slots=%v free=%v live=%d unpurged=%v", w.ents.slots, w.ents.free, w.ents.live, w.ents.unpurged),
		"clock":    fmt.Sprintf("tick=%d marked=%d allNow=%d", w.tick.Load(), w.marked.Load(), w.allNow),
	}
	for _, s := range w.comps.all() {
		st["C "+s.typeName()] = s.(dumper).snapDump()
	}
	for _, u := range w.uniques.all() {
		st["U "+u.typeName()] = u.(dumper).snapDump()
	}
	return st
}

// Diff returns the differences between want (taken at a snapshot) and
// got (after a restore), or "". A storage or unique got has and want
// has not must be empty (absent).
func (want SnapState) Diff(got SnapState) string {
	var b strings.Builder
	keys := make([]string, 0, len(got))
	for k := range got {
		keys = append(keys, k)
	}
	for k := range want {
		if _, ok := got[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		w, inWant := want[k]
		g, inGot := got[k]
		switch {
		case !inGot:
			fmt.Fprintf(&b, "%s: missing after restore\n", k)
		case !inWant:
			if !strings.HasPrefix(g, "dense=[] data=[]") && g != "absent" {
				fmt.Fprintf(&b, "%s: created after the snapshot, not empty after restore: %s\n", k, g)
			}
			if i := strings.Index(g, " e["); i >= 0 {
				fmt.Fprintf(&b, "%s: entries set after restore: %s\n", k, g[i:])
			}
		case w != g:
			fmt.Fprintf(&b, "%s:\n want %s\n  got %s\n", k, w, g)
		}
	}
	return b.String()
}

// SnapCheck fails t if w breaks an invariant of its storages (layouts,
// groups) or of its entities storage.
func SnapCheck(t *testing.T, w *World) {
	t.Helper()
	checkLayouts(t, w)
	for _, g := range w.groups {
		checkGroup(t, g.pack)
	}
	checkEntities(t, &w.ents)
}

// SetSnapshotDensePages sets how sparse a storage's pages may be for a
// snapshot to copy them (see copyPages): 1<<30 makes every snapshot copy
// the pages, 0 none. It returns what restores the default.
func SetSnapshotDensePages(n int) (restore func()) {
	old := densePages
	densePages = n
	return func() { densePages = old }
}
