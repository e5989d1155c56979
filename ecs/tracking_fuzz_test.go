package ecs_test

import (
	"errors"
	"fmt"
	"iter"
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/slipway-ecs/slipway/ecs"
)

// FuzzTracking is a differential test of change tracking: the fuzz input
// decodes into operations applied to an ecs.World and to ftModel, which
// keeps the same information the simplest way: a counter of events for a
// clock, the event number of each component's insertion and last
// modification, the deletion and removal logs with their event numbers,
// the event number of the last clears, and for each workload system the
// event number at the end of its previous run. After every step, what
// views report outside workloads must equal what the model computes;
// inside the workload, each system's observations must equal its window
// in the model.
//
// The operations go through the several API paths that do the same thing
// (World functions, views in World.Run or from World.Borrow,
// AllStoragesViewMut, joins, cursors, Changed views), chosen by the input.
// The first byte picks where the world's clock starts (at zero, or just
// before it wraps), so windows are also checked across the wrap.
//
// As for FuzzWorldModel, pass a short -fuzzminimizetime (say 2s).
func FuzzTracking(f *testing.F) {
	for _, seed := range ftSeeds() {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		runTracking(t, data, false)
	})
}

// TestTrackingModelSeeds runs the seed corpus and checks that together the
// seeds reach every operation and path the model knows.
func TestTrackingModelSeeds(t *testing.T) {
	var total ftStats
	for i, seed := range ftSeeds() {
		st := runTracking(t, seed, false)
		if len(seed) > 1 && st.ops == 0 {
			t.Errorf("seed %d ran no operation", i)
		}
		total.add(st)
	}
	for op := range ftOpCount {
		isTrue(t, total.perOp[op] > 0, "seeds never ran operation %d", op)
	}
	for _, k := range []string{"workload R0", "workload W", "workload R2", "W act 0", "W act 1", "W act 2", "W act 3", "W act 4", "W act 5"} {
		isTrue(t, total.reached[k] > 0, "seeds never reached %q", k)
	}
	isTrue(t, total.reached["wrapped"] > 0, "no seed wrapped the clock")
	isTrue(t, total.reached["window not empty"] > 0, "no seed made a workload system see something")
	isTrue(t, total.reached["stopped by a panic"] > 0, "no seed stopped a loop by a panic")
	isTrue(t, total.reached["shrunk empty"] > 0, "no seed shrank an empty storage")
}

// The component types: a tracked value, and an untracked tag to join with.
type ftV struct{ V int32 }

func (ftV) Tracking() ecs.Tracking { return ecs.TrackAll }

type ftTag struct{}

// Operation codes: the first byte of each step, modulo ftOpCount.
const (
	ftOpAdd          = iota // v, tagged, path
	ftOpAddComp             // id, v, path
	ftOpModify              // id, path
	ftOpIterate             // k, path
	ftOpRemove              // id, path
	ftOpDeleteComp          // id, path
	ftOpDeleteEntity        // id, path
	ftOpClearStorage        // path
	ftOpClear               // kind, id
	ftOpSave                // path
	ftOpWorkload            // flags, act, target, k, v
	ftOpSortAs              // which storage follows the other
	ftOpShrink              // (none)
	ftOpCount
)

const (
	ftMaxIDs   = 120
	ftMaxSteps = 120
)

// The workload's systems, in declared order: R0 (a reader before the
// writer), W (the writer), R1 (a reader after it, always run) and R2 (a
// reader after it). Flags bits 0, 1, 2 run R0, W, R2.
const (
	ftR0 = iota
	ftW
	ftR1
	ftR2
	ftSystems
)

var ftSystemNames = [ftSystems]string{"R0", "W", "R1", "R2"}

// ftModel is the oracle.
type ftModel struct {
	seq          int // the event counter
	comp         map[ecs.EntityID]int32
	tag          map[ecs.EntityID]bool
	live         map[ecs.EntityID]bool
	insAt, modAt map[ecs.EntityID]int // of the present component; no modAt: never modified
	dels         []ftDel
	rems         []ftRem
	insClear     int
	modClear     int
	saved        int
	cursor       [ftSystems]int // 0: never ran, sees everything
	issued       []ecs.EntityID
}

// ftDel is a logged deletion. The deletions of one operation share seq;
// their order among themselves is the storage's, unspecified.
type ftDel struct {
	id  ecs.EntityID
	v   int32
	seq int
}

type ftRem struct {
	id  ecs.EntityID
	seq int
}

// ftObs is what a view reports for a window.
type ftObs struct {
	ran       bool
	ins, mod  []ecs.EntityID // sorted
	modTagged []ecs.EntityID // Join2(Modified, tag), sorted
	dels      []ftDel        // seq unused
	rems      []ecs.EntityID
	rod       []ecs.EntityID // RemovedOrDeleted
}

func newFtModel() *ftModel {
	return &ftModel{
		comp: map[ecs.EntityID]int32{}, tag: map[ecs.EntityID]bool{}, live: map[ecs.EntityID]bool{},
		insAt: map[ecs.EntityID]int{}, modAt: map[ecs.EntityID]int{},
	}
}

func (m *ftModel) tick() int {
	m.seq++
	return m.seq
}

func (m *ftModel) insert(id ecs.EntityID, v int32) {
	m.comp[id] = v
	m.insAt[id] = m.tick()
	delete(m.modAt, id)
}

// put gives id the value v: a replacement (modification) if it has one.
func (m *ftModel) put(id ecs.EntityID, v int32) {
	if _, ok := m.comp[id]; ok {
		m.comp[id] = v
		m.modAt[id] = m.tick()
		return
	}
	m.insert(id, v)
}

func (m *ftModel) mark(id ecs.EntityID) {
	if _, ok := m.comp[id]; ok {
		m.modAt[id] = m.tick()
	}
}

func (m *ftModel) forget(id ecs.EntityID) {
	delete(m.comp, id)
	delete(m.insAt, id)
	delete(m.modAt, id)
}

// remove takes id's component out, logging a removal.
func (m *ftModel) remove(id ecs.EntityID) (int32, bool) {
	v, ok := m.comp[id]
	if ok {
		m.rems = append(m.rems, ftRem{id, m.tick()})
		m.forget(id)
	}
	return v, ok
}

// deleteAll deletes the components of ids as one operation.
func (m *ftModel) deleteAll(ids ...ecs.EntityID) {
	seq := m.tick()
	for _, id := range ids {
		if v, ok := m.comp[id]; ok {
			m.dels = append(m.dels, ftDel{id, v, seq})
			m.forget(id)
		}
	}
}

// window returns what a view whose window starts after ins (insertions),
// mod (modifications) and logs (deletions and removals) reports.
func (m *ftModel) window(ins, mod, logs int) ftObs {
	o := ftObs{ran: true}
	for id := range m.comp {
		if m.insAt[id] > ins {
			o.ins = append(o.ins, id)
		}
		if at, ok := m.modAt[id]; ok && at > mod {
			o.mod = append(o.mod, id)
			if m.tag[id] {
				o.modTagged = append(o.modTagged, id)
			}
		}
	}
	slices.Sort(o.ins)
	slices.Sort(o.mod)
	slices.Sort(o.modTagged)
	for _, r := range m.rems {
		if r.seq > logs {
			o.rems = append(o.rems, r.id)
			o.rod = append(o.rod, r.id)
		}
	}
	for _, d := range m.dels {
		if d.seq > logs {
			o.dels = append(o.dels, d)
			o.rod = append(o.rod, d.id)
		}
	}
	return o
}

func (m *ftModel) outside() ftObs           { return m.window(m.insClear, m.modClear, 0) }
func (m *ftModel) system(s int) ftObs       { c := m.cursor[s]; return m.window(c, c, c) }
func (m *ftModel) has(id ecs.EntityID) bool { _, ok := m.comp[id]; return ok }

type ftStats struct {
	ops     int
	perOp   [ftOpCount]int
	reached map[string]int
}

func (s *ftStats) add(o ftStats) {
	s.ops += o.ops
	for i := range s.perOp {
		s.perOp[i] += o.perOp[i]
	}
	if s.reached == nil {
		s.reached = map[string]int{}
	}
	for k, n := range o.reached {
		s.reached[k] += n
	}
}

// ftRun holds one run of the differential test.
type ftRun struct {
	t     *testing.T
	w     *ecs.World
	m     *ftModel
	st    ftStats
	step  int
	trace []string

	// The workload's inputs, set before each run, and its outputs.
	flags  byte
	act    byte
	target ecs.EntityID
	live   bool // target is alive (for W's AddComponentUnchecked)
	k      int
	v      int32
	probe  []ecs.EntityID
	obs    [ftSystems]ftObs
	wrote  ftWrite

	savedTS uint64 // the timestamp ftOpSave read last
}

// ftWrite is what W did, for the model to replay.
type ftWrite struct {
	found   bool
	value   ftV
	visited []ecs.EntityID // what an iteration handed out
	err     error
}

// ftClocks are the clock starts the first byte picks from.
var ftClocks = []uint64{0, math.MaxUint64 - 6, math.MaxUint64 - 40, math.MaxInt64 - 10}

func runTracking(t *testing.T, data []byte, verbose bool) ftStats {
	t.Helper()
	r := &ftRun{t: t, w: ecs.NewWorld(), m: newFtModel(), st: ftStats{reached: map[string]int{}}}
	ecs.SetAlignMinMisses(r.w, 1) // joins re-align the model's small worlds too
	in := &fzReader{data: data}
	start := ftClocks[int(in.next())%len(ftClocks)]
	if start != 0 {
		ecs.SetTrackingClock(r.w, start)
	}
	// Until the input saves one, the saved timestamp is the clock's start:
	// before every change (0 would not be, once the clock wraps).
	r.savedTS = r.w.TrackingTimestamp()
	r.build()
	for r.step = 0; in.more() && r.step < ftMaxSteps; r.step++ {
		op := int(in.next()) % ftOpCount
		r.st.ops++
		r.st.perOp[op]++
		r.apply(op, in)
		if verbose {
			t.Log(r.trace[len(r.trace)-1])
		}
		r.compare()
		if t.Failed() {
			t.Fatalf("clock from %d, after step %d; steps so far:\n%s", start, r.step, joinLines(r.trace))
		}
	}
	if start != 0 && r.w.TrackingTimestamp() < start {
		r.st.reached["wrapped"]++
	}
	return r.st
}

func (r *ftRun) logf(format string, args ...any) {
	r.trace = append(r.trace, fmt.Sprintf(format, args...))
}

// pickID turns a selector byte into an id: one of the ids issued so far
// (live or dead), or NullID.
func (r *ftRun) pickID(sel byte) ecs.EntityID {
	if n := len(r.m.issued); n > 0 && sel != 255 {
		return r.m.issued[int(sel)%n]
	}
	return ecs.NullID
}

func (r *ftRun) issue(id ecs.EntityID) {
	r.m.issued = append(r.m.issued, id)
	r.m.live[id] = true
}

func (r *ftRun) noErr(op string, err error) {
	r.t.Helper()
	if err != nil {
		r.t.Errorf("%s: unexpected error %v", op, err)
	}
}

// deadOr checks err: an ErrDeadEntity when id is not alive, nil otherwise.
func (r *ftRun) deadOr(op string, id ecs.EntityID, err error) bool {
	r.t.Helper()
	if !r.m.live[id] {
		if !errors.Is(err, ecs.ErrDeadEntity) {
			r.t.Errorf("%s(%v) on a dead id: got %v, want ErrDeadEntity", op, id, err)
		}
		return false
	}
	r.noErr(op, err)
	return true
}

func (r *ftRun) run(op string, sys any) {
	r.t.Helper()
	r.noErr(op, r.w.Run(sys))
}

// borrow borrows a ViewMut[ftV] (and the tag's ViewMut, and the entities)
// from World.Borrow and calls fn.
func (r *ftRun) borrow(fn func(vm ecs.ViewMut[ftV], tag ecs.ViewMut[ftTag], ents ecs.EntitiesViewMut)) {
	var vm ecs.ViewMut[ftV]
	var tag ecs.ViewMut[ftTag]
	var ents ecs.EntitiesViewMut
	release, err := r.w.Borrow(&vm, &tag, &ents)
	if err != nil {
		r.t.Fatalf("Borrow: %v", err)
	}
	defer release()
	fn(vm, tag, ents)
}

// mutate runs fn with the views in a system (path even) or from
// World.Borrow (path odd).
func (r *ftRun) mutate(path byte, fn func(vm ecs.ViewMut[ftV], tag ecs.ViewMut[ftTag], ents ecs.EntitiesViewMut)) {
	if path%2 == 0 {
		r.run("system", fn)
		return
	}
	r.borrow(fn)
}

func (r *ftRun) apply(op int, in *fzReader) {
	m := r.m
	switch op {
	case ftOpAdd:
		v, tagged, path := int32(int8(in.next())), in.next()%2 == 1, in.next()%4
		if len(m.issued) >= ftMaxIDs {
			r.logf("add: skipped, %d ids", ftMaxIDs)
			return
		}
		var ids []ecs.EntityID
		switch path {
		case 0:
			var id ecs.EntityID
			var err error
			if tagged {
				id, err = ecs.AddEntity2(r.w, ftV{v}, ftTag{})
			} else {
				id, err = ecs.AddEntity1(r.w, ftV{v})
			}
			r.noErr("AddEntity", err)
			ids = append(ids, id)
		case 1, 2:
			r.mutate(path, func(vm ecs.ViewMut[ftV], tag ecs.ViewMut[ftTag], ents ecs.EntitiesViewMut) {
				id := vm.AddEntity(ents, ftV{v})
				if tagged {
					r.noErr("tag", tag.AddComponentUnchecked(id, ftTag{}))
				}
				ids = append(ids, id)
			})
		default:
			vals := []ftV{{v}, {v + 1}, {v + 2}}
			got, err := ecs.BulkAddEntity1(r.w, vals[:1+int(uint8(v))%3])
			r.noErr("BulkAddEntity1", err)
			ids = got
			tagged = false
		}
		r.logf("add v=%d tagged=%v path=%d -> %v", v, tagged, path, ids)
		for i, id := range ids {
			r.issue(id)
			m.insert(id, v+int32(i))
			if tagged {
				m.tag[id] = true
			}
		}
	case ftOpAddComp:
		id, v, path := r.pickID(in.next()), int32(int8(in.next())), in.next()%3
		r.logf("addComponent %v v=%d path=%d", id, v, path)
		var err error
		switch path {
		case 0:
			err = ecs.AddComponent1(r.w, id, ftV{v})
		default:
			r.mutate(path, func(vm ecs.ViewMut[ftV], _ ecs.ViewMut[ftTag], ents ecs.EntitiesViewMut) {
				err = vm.AddComponent(ents, id, ftV{v})
			})
		}
		if r.deadOr("AddComponent", id, err) {
			m.put(id, v)
		}
	case ftOpModify:
		id, path := r.pickID(in.next()), in.next()%5
		r.logf("modify %v path=%d", id, path)
		found := false
		var before []ecs.EntityID // what a cursor visited
		switch path {
		case 0, 1:
			r.mutate(path, func(vm ecs.ViewMut[ftV], _ ecs.ViewMut[ftTag], _ ecs.EntitiesViewMut) {
				if p, ok := vm.Get(id); ok {
					p.V++
					found = true
				}
			})
		case 2:
			r.mutate(path, func(vm ecs.ViewMut[ftV], _ ecs.ViewMut[ftTag], _ ecs.EntitiesViewMut) {
				if vm.Contains(id) {
					vm.MustGet(id).V++
					found = true
				}
			})
		case 3: // through a join's Get: only when id has the tag too
			r.mutate(path, func(vm ecs.ViewMut[ftV], tag ecs.ViewMut[ftTag], _ ecs.EntitiesViewMut) {
				if p, _, ok := ecs.Join2(vm, tag).Get(id); ok {
					p.V++
					found = true
				}
			})
		default: // a cursor, stopped at id: it hands out what comes before
			r.mutate(path, func(vm ecs.ViewMut[ftV], _ ecs.ViewMut[ftTag], _ ecs.EntitiesViewMut) {
				it := ecs.Join1(vm)
				for it.Next() {
					before = append(before, it.ID())
					if it.ID() == id {
						it.Values().V++
						found = true
						break
					}
				}
			})
		}
		want := m.has(id) && (path != 3 || m.tag[id])
		if found != want {
			r.t.Errorf("modify %v path %d: found %v, model %v", id, path, found, want)
		}
		if found {
			m.comp[id]++
			m.mark(id)
		}
		for _, b := range before {
			if b != id {
				m.mark(b)
			}
		}
	case ftOpIterate:
		k, path := int(in.next()%8), in.next()%16
		r.logf("iterate k=%d path=%d", k, path)
		r.iterate(k, path)
	case ftOpRemove:
		id, path := r.pickID(in.next()), in.next()%2
		r.logf("remove %v path=%d", id, path)
		var got ftV
		var ok bool
		if path == 0 {
			var err error
			got, ok, err = ecs.Remove[ftV](r.w, id)
			if !r.deadOr("Remove", id, err) {
				return
			}
		} else {
			r.borrow(func(vm ecs.ViewMut[ftV], _ ecs.ViewMut[ftTag], _ ecs.EntitiesViewMut) { got, ok = vm.Remove(id) })
		}
		v, want := m.remove(id)
		if ok != want || got.V != v {
			r.t.Errorf("remove %v: got %v, %v; model %v, %v", id, got, ok, v, want)
		}
	case ftOpDeleteComp:
		id, path := r.pickID(in.next()), in.next()%3
		r.logf("deleteComponent %v path=%d", id, path)
		var ok bool
		switch path {
		case 0:
			var err error
			ok, err = ecs.DeleteComponent[ftV](r.w, id)
			if !r.deadOr("DeleteComponent", id, err) {
				return
			}
		case 1:
			r.borrow(func(vm ecs.ViewMut[ftV], _ ecs.ViewMut[ftTag], _ ecs.EntitiesViewMut) { ok = vm.Delete(id) })
		default: // with the tag, at once
			r.run("DeleteFrom", func(vm ecs.ViewMut[ftV], tag ecs.ViewMut[ftTag]) {
				hadTag := tag.Contains(id)
				n := ecs.DeleteFrom(id, tag, vm)
				ok = n > 0 && (n == 2 || !hadTag)
			})
			delete(m.tag, id)
		}
		if ok != m.has(id) {
			r.t.Errorf("deleteComponent %v: got %v, model %v", id, ok, m.has(id))
		}
		m.deleteAll(id)
	case ftOpDeleteEntity:
		id, path := r.pickID(in.next()), in.next()%4
		r.logf("deleteEntity %v path=%d", id, path)
		var err error
		switch path {
		case 0:
			err = r.w.DeleteEntity(id)
		case 1:
			r.run("DeleteEntity", func(all ecs.AllStoragesViewMut) { err = all.DeleteEntity(id) })
		case 2:
			err = r.w.Strip(id)
		default:
			r.run("Strip", func(all ecs.AllStoragesViewMut) { err = all.Strip(id) })
		}
		if !r.deadOr("DeleteEntity", id, err) {
			return
		}
		m.deleteAll(id)
		delete(m.tag, id)
		if path < 2 {
			delete(m.live, id)
		}
	case ftOpClearStorage:
		path := in.next() % 2
		r.logf("clearStorage path=%d", path)
		if path == 0 {
			r.borrow(func(vm ecs.ViewMut[ftV], _ ecs.ViewMut[ftTag], _ ecs.EntitiesViewMut) { vm.Clear() })
			m.deleteAll(slices.Collect(maps.Keys(m.comp))...)
			return
		}
		n, err := ecs.DeleteAny[ftTag](r.w)
		r.noErr("DeleteAny", err)
		var gone []ecs.EntityID
		for id := range m.tag {
			gone = append(gone, id)
			delete(m.live, id)
		}
		equal(r.t, "DeleteAny", n, len(gone))
		clear(m.tag)
		m.deleteAll(gone...)
	case ftOpClear:
		kind, id, path := in.next()%11, r.pickID(in.next()), in.next()
		r.logf("clear kind=%d id=%v path=%d", kind, id, path%2)
		r.mutate(path, func(vm ecs.ViewMut[ftV], _ ecs.ViewMut[ftTag], _ ecs.EntitiesViewMut) {
			switch kind {
			case 0:
				vm.ClearAllInserted()
			case 1:
				vm.ClearAllModified()
			case 2:
				vm.ClearAllInsertedAndModified()
			case 3:
				vm.ClearAllDeleted()
			case 4:
				vm.ClearAllRemoved()
			case 5:
				vm.ClearAllRemovedAndDeleted()
			case 6:
				vm.ClearAllDeletedOlderThan(r.savedTS)
			case 7:
				vm.ClearAllRemovedOlderThan(r.savedTS)
			case 8:
				vm.ClearAllRemovedAndDeletedOlderThan(r.savedTS)
			case 9: // clear, then change in the same borrow: the change is seen
				vm.ClearAllModified()
				if p, ok := vm.Get(id); ok {
					p.V++
				}
			default: // change, then clear in the same borrow: it is not
				if p, ok := vm.Get(id); ok {
					p.V++
				}
				vm.ClearAllInsertedAndModified()
			}
		})
		clearIns := func() { m.insClear = m.tick() }
		clearMod := func() { m.modClear = m.tick() }
		keepDels := func(keep func(ftDel) bool) {
			m.dels = slices.DeleteFunc(m.dels, func(d ftDel) bool { return !keep(d) })
		}
		keepRems := func(keep func(ftRem) bool) {
			m.rems = slices.DeleteFunc(m.rems, func(r ftRem) bool { return !keep(r) })
		}
		switch kind {
		case 0:
			clearIns()
		case 1:
			clearMod()
		case 2:
			clearIns()
			clearMod()
		case 3:
			m.dels = nil
		case 4:
			m.rems = nil
		case 5:
			m.dels, m.rems = nil, nil
		case 6:
			keepDels(func(d ftDel) bool { return d.seq > m.saved })
		case 7:
			keepRems(func(r ftRem) bool { return r.seq > m.saved })
		case 8:
			keepDels(func(d ftDel) bool { return d.seq > m.saved })
			keepRems(func(r ftRem) bool { return r.seq > m.saved })
		case 9:
			clearMod()
			if m.has(id) {
				m.comp[id]++
				m.mark(id)
			}
		default:
			if m.has(id) {
				m.comp[id]++
				m.mark(id)
			}
			clearIns()
			clearMod()
		}
	case ftOpSave:
		path := in.next() % 2
		if path == 0 {
			r.savedTS = r.w.TrackingTimestamp()
		} else {
			r.run("save", func(all ecs.AllStoragesViewMut) { r.savedTS = all.TrackingTimestamp() })
		}
		m.saved = m.seq
		r.logf("save path=%d -> %d", path, r.savedTS)
	case ftOpSortAs:
		// Re-ordering a storage changes no window: every timestamp moves
		// with its component (compare checks it).
		tagFirst := in.next()%2 == 0
		r.logf("sortAs tagFirst=%v", tagFirst)
		var err error
		if tagFirst {
			_, err = ecs.SortAs[ftTag, ftV](r.w)
		} else {
			_, err = ecs.SortAs[ftV, ftTag](r.w)
		}
		r.noErr("SortAs", err)
	case ftOpShrink:
		// Giving memory back changes nothing that tracking reports, even
		// for an empty storage whose timestamp arrays go.
		r.logf("shrinkToFit (%d components)", len(m.comp))
		if len(m.comp) == 0 {
			r.st.reached["shrunk empty"]++
		}
		r.noErr("ShrinkToFit", r.w.ShrinkToFit())
	case ftOpWorkload:
		r.flags, r.act, r.target, r.k, r.v = in.next(), in.next()%6, r.pickID(in.next()), int(in.next()%6), int32(int8(in.next()))
		r.logf("workload flags=%03b act=%d target=%v k=%d v=%d", r.flags&7, r.act, r.target, r.k, r.v)
		r.workload()
	}
}

// iterate hands components out through a ViewMut's iteration, stopping
// after k of them where the path can stop, and tells the model which.
//
// From path 8 on, the paths that can stop (All, WithID and the join) stop
// by panicking out of the loop instead of breaking, and the panic is
// recovered outside the system or borrow: the world must come out of it
// exactly as from a break.
func (r *ftRun) iterate(k int, path byte) {
	var visited []ecs.EntityID
	panics := path >= 8
	path %= 8
	stop := func() bool {
		if panics {
			panic(ftStop{})
		}
		return true
	}
	r.recoverStop(func() {
		r.mutate(path, func(vm ecs.ViewMut[ftV], tag ecs.ViewMut[ftTag], _ ecs.EntitiesViewMut) {
			r.iterateOn(vm, tag, k, path, stop, &visited)
		})
	})
	r.iterated(visited, path)
}

// ftStop is the panic that stops a loop of iterate's.
type ftStop struct{}

// recoverStop calls fn and recovers an ftStop panic, as it comes out of
// World.Run or a function holding borrowed views; any other panic goes on.
func (r *ftRun) recoverStop(fn func()) {
	defer func() {
		if v := recover(); v != nil {
			if _, ok := v.(ftStop); !ok {
				panic(v)
			}
			r.st.reached["stopped by a panic"]++
		}
	}()
	fn()
}

// iterateOn is iterate's loop over the borrowed views: it appends what it
// hands out to visited, and calls stop where a loop ends early.
func (r *ftRun) iterateOn(vm ecs.ViewMut[ftV], tag ecs.ViewMut[ftTag], k int, path byte, stop func() bool, visited *[]ecs.EntityID) {
	switch path {
	case 0: // All, in storage order (the order of IDs)
		// The component All handed out when the loop stopped counts
		// too: it was handed out. Known before the loop, since a panic
		// leaves it.
		*visited = slices.Clone(vm.IDs()[:min(k+1, vm.Len())])
		n := 0
		for p := range vm.All() {
			if n == k && stop() {
				break
			}
			p.V++
			n++
		}
	case 1:
		for id, p := range vm.WithID() {
			*visited = append(*visited, id)
			if len(*visited) > k && stop() {
				break
			}
			p.V++
		}
	case 2:
		_ = vm.Slice()
		*visited = slices.Clone(vm.IDs())
	case 3:
		vm.ParEachMin(2, func(p *ftV) { p.V++ })
		*visited = slices.Clone(vm.IDs())
	case 4: // a join with the tag: only the tagged
		for id, row := range ecs.Join2(vm, tag).WithID() {
			*visited = append(*visited, id)
			if len(*visited) > k && stop() {
				break
			}
			row.A.V++
		}
	case 5: // a Changed view from the ViewMut: its window, marked again
		c, err := vm.InsertedOrModified()
		r.noErr("InsertedOrModified", err)
		for id, p := range c.WithID() {
			*visited = append(*visited, id)
			p.V++
		}
	case 6: // Not the tag
		ecs.Join1(vm).Not(tag).EachWithID(func(id ecs.EntityID, p *ftV) {
			*visited = append(*visited, id)
			p.V++
		})
	default: // a cursor
		it := ecs.Join1(vm)
		for len(*visited) <= k && it.Next() {
			*visited = append(*visited, it.ID())
		}
	}
}

// iterated tells the model what iterate handed out, and reads the values
// back.
func (r *ftRun) iterated(visited []ecs.EntityID, path byte) {
	m := r.m
	if path == 5 {
		want := m.outside()
		sameSet(r.t, "InsertedOrModified from a ViewMut", visited, slices.Compact(sorted(append(slices.Clone(want.ins), want.mod...))))
	}
	for _, id := range visited {
		if !m.has(id) {
			r.t.Errorf("iterate path %d handed out %v, which the model does not have", path, id)
		}
		m.mark(id)
	}
	// The values: every path but Slice and the cursor wrote some of them;
	// read them back rather than replay which.
	withView(r.t, r.w, func(v ecs.View[ftV]) {
		for id, p := range v.WithID() {
			m.comp[id] = p.V
		}
	})
}

// build adds the workload: R0, W, R1, R2.
func (r *ftRun) build() {
	reader := func(s int) func(v ecs.View[ftV], tag ecs.View[ftTag]) error {
		return func(v ecs.View[ftV], tag ecs.View[ftTag]) error {
			o, err := ftObserve(v, tag)
			r.obs[s] = o
			return err
		}
	}
	writer := func(ents ecs.EntitiesView, vm ecs.ViewMut[ftV]) error {
		w := &r.wrote
		*w = ftWrite{}
		switch r.act {
		case 0:
			if p, ok := vm.Get(r.target); ok {
				p.V += 10
				w.found = true
			}
		case 1:
			if p, ok := vm.Get(r.target); ok {
				w.value = *p
			}
			w.found = vm.Delete(r.target)
		case 2:
			w.value, w.found = vm.Remove(r.target)
		case 3:
			if r.live {
				w.err = vm.AddComponent(ents, r.target, ftV{r.v})
			}
		case 4:
			mod, err := vm.Modified()
			if err != nil {
				return err
			}
			for id, p := range mod.WithID() {
				w.visited = append(w.visited, id)
				p.V += 100
			}
		default:
			for range vm.All() {
				if len(w.visited) == r.k {
					break
				}
				w.visited = append(w.visited, vm.IDs()[len(w.visited)])
			}
			if r.k < vm.Len() { // stopped: the last one handed out counts
				w.visited = append(w.visited, vm.IDs()[r.k])
			}
		}
		// What it sees now, without marking anything more: Contains.
		o := ftObs{ran: true}
		ins, err := vm.Inserted()
		if err != nil {
			return err
		}
		mod, err := vm.Modified()
		if err != nil {
			return err
		}
		for _, id := range r.probe {
			if ins.Contains(id) {
				o.ins = append(o.ins, id)
			}
			if mod.Contains(id) {
				o.mod = append(o.mod, id)
			}
		}
		slices.Sort(o.ins)
		slices.Sort(o.mod)
		o.dels, o.rems, o.rod, err = ftLogs(vm.Deleted, vm.Removed, vm.RemovedOrDeleted)
		r.obs[ftW] = o
		return err
	}
	must(r.t, r.w.AddWorkload("frame",
		ecs.System(reader(ftR0)).Named("R0").RunIf(func() bool { return r.flags&1 != 0 }),
		ecs.System(writer).Named("W").RunIf(func() bool { return r.flags&2 != 0 }),
		ecs.System(reader(ftR1)).Named("R1"),
		ecs.System(reader(ftR2)).Named("R2").RunIf(func() bool { return r.flags&4 != 0 }),
	))
}

// ftObserve reports what v sees in its window (it never marks).
func ftObserve(v ecs.View[ftV], tag ecs.View[ftTag]) (ftObs, error) {
	o := ftObs{ran: true}
	ins, err := v.Inserted()
	if err != nil {
		return o, err
	}
	mod, err := v.Modified()
	if err != nil {
		return o, err
	}
	for id := range ins.WithID() {
		o.ins = append(o.ins, id)
	}
	for id := range mod.WithID() {
		o.mod = append(o.mod, id)
	}
	for id := range ecs.Join2(mod, tag).WithID() {
		o.modTagged = append(o.modTagged, id)
	}
	slices.Sort(o.ins)
	slices.Sort(o.mod)
	slices.Sort(o.modTagged)
	o.dels, o.rems, o.rod, err = ftLogs(v.Deleted, v.Removed, v.RemovedOrDeleted)
	return o, err
}

func ftLogs(deleted func() (iter.Seq2[ecs.EntityID, ftV], error),
	removed, removedOrDeleted func() (iter.Seq[ecs.EntityID], error)) (dels []ftDel, rems, rod []ecs.EntityID, err error) {
	d, err := deleted()
	if err != nil {
		return nil, nil, nil, err
	}
	for id, c := range d {
		dels = append(dels, ftDel{id: id, v: c.V})
	}
	rm, err := removed()
	if err != nil {
		return nil, nil, nil, err
	}
	rems = slices.Collect(rm)
	both, err := removedOrDeleted()
	if err != nil {
		return nil, nil, nil, err
	}
	return dels, rems, slices.Collect(both), nil
}

// workload runs the workload once and replays it on the model, system by
// system in declared order, checking each system's observations against
// its window.
func (r *ftRun) workload() {
	m := r.m
	r.obs = [ftSystems]ftObs{}
	r.probe = append(slices.Clone(m.issued), ecs.NullID)
	r.live = m.live[r.target]
	must(r.t, r.w.RunWorkload("frame"))
	ran := [ftSystems]bool{r.flags&1 != 0, r.flags&2 != 0, true, r.flags&4 != 0}
	for s := range ftSystems {
		if r.obs[s].ran != ran[s] {
			r.t.Fatalf("system %s ran: %v, want %v", ftSystemNames[s], r.obs[s].ran, ran[s])
		}
		if !ran[s] {
			continue
		}
		r.st.reached["workload "+ftSystemNames[s]]++
		if s == ftW {
			r.st.reached[fmt.Sprintf("W act %d", r.act)]++
			r.replayWrite()
		}
		want := m.system(s)
		if s == ftW { // W observes through Contains: no join
			want.modTagged = nil
		}
		if len(want.ins)+len(want.mod)+len(want.dels)+len(want.rems) > 0 && r.step > 0 {
			r.st.reached["window not empty"]++
		}
		r.sameObs("workload system "+ftSystemNames[s], r.obs[s], want)
		m.cursor[s] = m.tick()
	}
}

// replayWrite applies to the model what W did.
func (r *ftRun) replayWrite() {
	m, w, id := r.m, &r.wrote, r.target
	switch r.act {
	case 0:
		if w.found != m.has(id) {
			r.t.Errorf("W Get(%v): found %v, model %v", id, w.found, m.has(id))
		}
		if w.found {
			m.comp[id] += 10
			m.mark(id)
		}
	case 1:
		if w.found != m.has(id) || (w.found && w.value.V != m.comp[id]) {
			r.t.Errorf("W Delete(%v): %v %v, model %v %v", id, w.found, w.value, m.has(id), m.comp[id])
		}
		m.deleteAll(id)
	case 2:
		v, ok := m.remove(id)
		if w.found != ok || w.value.V != v {
			r.t.Errorf("W Remove(%v): %v %v, model %v %v", id, w.value, w.found, v, ok)
		}
	case 3:
		if r.live {
			r.noErr("W AddComponent", w.err)
			m.put(id, r.v)
		}
	case 4:
		want := m.system(ftW).mod
		sameSet(r.t, "W's Modified iteration", w.visited, want)
		for _, id := range w.visited {
			m.comp[id] += 100
			m.mark(id)
		}
	default:
		for _, id := range w.visited {
			m.mark(id)
		}
	}
}

// sameObs compares observations. Deletions of one operation may come in
// any order: the model's entries with the same seq are compared as sets.
func (r *ftRun) sameObs(who string, got, want ftObs) {
	t := r.t
	t.Helper()
	sameSeq(t, who+": Inserted", got.ins, want.ins)
	sameSeq(t, who+": Modified", got.mod, want.mod)
	sameSeq(t, who+": Join2(Modified, tag)", got.modTagged, want.modTagged)
	sameSeq(t, who+": Removed", got.rems, want.rems)
	if !ftSameDels(got.dels, want.dels) {
		t.Errorf("%s: Deleted:\n got  %v\n want %v", who, got.dels, want.dels)
	}
	nr := len(want.rems)
	if len(got.rod) != nr+len(want.dels) || !slices.Equal(got.rod[:nr], want.rod[:nr]) ||
		!ftSameDels(idsAsDels(got.rod[nr:]), idsAsDels(want.rod[nr:]), want.dels...) {
		t.Errorf("%s: RemovedOrDeleted:\n got  %v\n want %v", who, got.rod, want.rod)
	}
}

func idsAsDels(ids []ecs.EntityID) []ftDel {
	out := make([]ftDel, len(ids))
	for i, id := range ids {
		out[i].id = id
	}
	return out
}

// ftSameDels reports whether got equals want up to the order within each
// run of entries with the same seq (of want, or of groups when given).
func ftSameDels(got, want []ftDel, groups ...ftDel) bool {
	if len(got) != len(want) {
		return false
	}
	if groups == nil {
		groups = want
	}
	key := func(d ftDel) string { return fmt.Sprint(d.id, d.v) }
	for i := 0; i < len(want); {
		j := i
		for j < len(want) && groups[j].seq == groups[i].seq {
			j++
		}
		g, w := make([]string, 0, j-i), make([]string, 0, j-i)
		for k := i; k < j; k++ {
			g, w = append(g, key(got[k])), append(w, key(want[k]))
		}
		slices.Sort(g)
		slices.Sort(w)
		if !slices.Equal(g, w) {
			return false
		}
		i = j
	}
	return true
}

// compare checks what views report outside workloads against the model.
func (r *ftRun) compare() {
	t, w, m := r.t, r.w, r.m
	if err := ecs.CheckLayouts(w); err != nil {
		t.Fatal(err)
	}
	var v ecs.View[ftV]
	var tag ecs.View[ftTag]
	release, err := w.Borrow(&v, &tag)
	if err != nil {
		t.Fatalf("Borrow: %v", err)
	}
	defer release()
	got, err := ftObserve(v, tag)
	r.noErr("observe", err)
	want := m.outside()
	r.sameObs("outside", got, want)
	// The storage's contents.
	vals := map[ecs.EntityID]int32{}
	for id, p := range v.WithID() {
		vals[id] = p.V
	}
	if !maps.Equal(vals, m.comp) {
		t.Errorf("storage = %v, want %v", vals, m.comp)
	}
	// Per id: Contains of each Changed, and the counts.
	ins, err := v.Inserted()
	r.noErr("Inserted", err)
	mod, err := v.Modified()
	r.noErr("Modified", err)
	both, err := v.InsertedOrModified()
	r.noErr("InsertedOrModified", err)
	for _, id := range append(slices.Clone(m.issued), ecs.NullID) {
		_, wi := slices.BinarySearch(want.ins, id)
		_, wm := slices.BinarySearch(want.mod, id)
		if ins.Contains(id) != wi || mod.Contains(id) != wm || both.Contains(id) != (wi || wm) {
			t.Errorf("Contains(%v): inserted %v, modified %v, either %v; model %v, %v",
				id, ins.Contains(id), mod.Contains(id), both.Contains(id), wi, wm)
		}
	}
	equal(t, "Inserted.Count", ins.Count(), len(want.ins))
	equal(t, "Modified.Count", mod.Count(), len(want.mod))
	equal(t, "InsertedOrModified.Count", both.Count(), len(slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(want.ins), want.mod...))))))
	// Tagged entities whose component did not change, through Not.
	var notChanged []ecs.EntityID
	for id := range ecs.Join2(tag, v).Not(both).WithID() {
		notChanged = append(notChanged, id)
	}
	var wantNot []ecs.EntityID
	for id := range m.tag {
		_, wi := slices.BinarySearch(want.ins, id)
		_, wm := slices.BinarySearch(want.mod, id)
		if m.has(id) && !wi && !wm {
			wantNot = append(wantNot, id)
		}
	}
	sameSet(t, "Join2(tag, v).Not(InsertedOrModified)", notChanged, wantNot)
}

// ftSeeds is the seed corpus: hand-written programs reaching every
// operation, path and writer action, with the clock at zero and about to
// wrap.
func ftSeeds() [][]byte {
	const (
		add, addC, mod, iter, rem, delC, delE, clr, clear, save, wl, sortAs, shrink = ftOpAdd, ftOpAddComp, ftOpModify, ftOpIterate, ftOpRemove, ftOpDeleteComp, ftOpDeleteEntity, ftOpClearStorage, ftOpClear, ftOpSave, ftOpWorkload, ftOpSortAs, ftOpShrink
	)
	setup := []byte{add, 1, 1, 0, add, 2, 0, 1, add, 3, 1, 2, add, 4, 0, 3, add, 5, 1, 0, add, 6, 0, 1}
	seeds := [][]byte{
		{0},
		// modifications, then the storages sorted in each other's order
		append([]byte{0}, append(slices.Clone(setup), mod, 0, 0, mod, 3, 1, rem, 1, 0, addC, 1, 5, 0,
			sortAs, 0, iter, 0, 0, sortAs, 1, iter, 1, 1, mod, 2, 2, sortAs, 0)...),
		// adds by every path, then the workload with every system
		append([]byte{0}, append(slices.Clone(setup), wl, 7, 5, 0, 2, 0, wl, 7, 0, 1, 0, 0, wl, 3, 1, 2, 0, 0, wl, 5, 2, 3, 0, 0)...),
		// every modification path, clears, replacements
		append([]byte{1}, append(slices.Clone(setup),
			mod, 0, 0, mod, 1, 1, mod, 2, 2, mod, 0, 3, mod, 4, 4, addC, 1, 9, 0, addC, 2, 8, 1, addC, 3, 7, 2,
			clear, 0, 0, 0, clear, 1, 0, 1, mod, 3, 0, clear, 9, 2, 0, clear, 10, 3, 1, clear, 2, 0, 0)...),
		// every iteration path
		append([]byte{2}, append(slices.Clone(setup),
			iter, 1, 0, iter, 2, 1, iter, 0, 2, iter, 0, 3, iter, 1, 4, clear, 1, 0, 0, iter, 0, 5, iter, 0, 6, iter, 2, 7,
			iter, 9, 0, iter, 9, 1)...),
		// loops stopped by a panic, on a system and on borrowed views,
		// then marks after them
		append([]byte{2}, append(slices.Clone(setup),
			iter, 2, 8, iter, 1, 9, iter, 2, 12, iter, 0, 9, mod, 4, 0, iter, 3, 10, iter, 1, 13, mod, 5, 1)...),
		// memory given back from a full storage and from an emptied
		// one, then every kind of change tracked again
		append([]byte{1}, append(slices.Clone(setup),
			shrink, mod, 0, 0, clr, 0, shrink, add, 7, 1, 0, add, 8, 0, 1, mod, 7, 0, iter, 1, 1, rem, 8, 0,
			clr, 0, shrink, addC, 1, 3, 0, mod, 1, 1, delE, 1, 0)...),
		// removals and deletions by every path, then the clears of the logs
		append([]byte{1}, append(slices.Clone(setup),
			rem, 0, 0, rem, 1, 1, delC, 2, 0, delC, 3, 1, delC, 4, 2, delE, 5, 0, add, 7, 1, 0, delE, 6, 1,
			add, 8, 0, 0, delE, 6, 2, delE, 7, 3, save, 0, rem, 7, 0, delC, 8, 0,
			clear, 6, 0, 0, clear, 7, 0, 1, save, 1, clear, 8, 0, 0, clear, 3, 0, 0, clear, 4, 0, 1, clear, 5, 0, 0,
			clr, 0, add, 1, 1, 0, add, 2, 1, 1, clr, 1)...),
		// a workload around every kind of change, readers at different
		// rates, the writer's every action
		append([]byte{3}, append(slices.Clone(setup),
			wl, 7, 0, 0, 0, 0, mod, 0, 0, wl, 3, 1, 1, 0, 0, rem, 2, 0, wl, 2, 2, 3, 0, 0, delE, 4, 0,
			wl, 6, 3, 0, 0, 5, add, 9, 1, 0, wl, 7, 4, 0, 0, 0, wl, 2, 5, 0, 2, 0, wl, 5, 0, 1, 0, 0, wl, 1, 0, 0, 0, 0,
			save, 1, wl, 7, 1, 5, 0, 0, clear, 8, 0, 0, wl, 7, 5, 0, 9, 0)...),
	}
	// Long churn with periodic clears, across the wrap.
	churn := []byte{1}
	for i := range 12 {
		churn = append(churn, add, byte(i), byte(i%2), byte(i%3), wl, byte(1+i%7), byte(i%6), byte(i), byte(i%4), byte(i),
			delE, byte(i*3), byte(i%4), mod, byte(i*5), byte(i%5))
		if i%4 == 3 {
			churn = append(churn, save, byte(i%2), clear, 8, 0, byte(i))
		}
	}
	return append(seeds, churn)
}
