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

// FuzzWorldModel is a differential test: the fuzz input decodes into a
// sequence of operations applied both to an ecs.World and to fzModel, the
// simplest correct ECS there is (a map per component type and a set of live
// ids, like the tiny-ECS tutorial's Vec<Option<T>> per type). After every
// step the world's observable contents must equal the model's.
//
// Each operation goes through one of the several API paths that do the same
// thing (World functions, views in a system, views from World.Borrow,
// AllStoragesViewMut), chosen by the input, and is as likely to name a dead,
// never-issued or null id as a live one.
//
// The components EntitiesViewMut.DeleteUnchecked leaves behind are in the
// model too, as its doc comment says: under their dead id, seen by joins
// and views' look-ups, until a World-level change or the borrow of an
// AllStoragesViewMut purges them, or a new entity of their index takes
// their place.
//
// An input whose first byte is fzFinalizerByte runs in finalizer mode:
// fzC is declared a finalizer (ecs.SetFinalizer) first, and the model
// marks terminating the holders of a C that the world's deletions spare,
// refuses them a new C, and deletes them at the sync point after their C
// goes (see fzFinalizerByte and fzRun.finSync).
//
// An input whose first byte is fzRequireByte runs in requirement mode:
// fzA requires fzB (ecs.Require, with fzReqB as the B), and the model
// gives every live entity that got an A and has no B the B fzReqB at the
// next sync point, and refuses (error or panic, as the path has) the
// removals of a B from an entity, live or left behind by
// DeleteUnchecked, that still has an A (see fzRequireByte and
// fzRun.reqSync).
//
// An input whose first byte is fzInitByte runs in initializer mode: fzB
// has an initializer made from fzA (ecs.SetInitializer1, fzInitB), and
// the model gives every entity created since the last sync point that
// is alive, has an A and no B there, the B fzInitB of its A (see
// fzInitByte and fzRun.initSync).
//
// An input whose first byte is fzIsoByte runs in isotope mode: the world
// and the model keep isotopes of fzA under three discriminants of fzDisc
// (fzModel.isos, by discriminant and id), and four more operations,
// fzOpIsoAdd to fzOpIsoInSystem, add, remove and change them through
// every path (ecs.AddIsotope and ecs.RemoveIsotope on the world and on an
// AllStoragesViewMut, the Of of full and partial writes in a system and
// from World.Borrow, reads joined with ordinary views); every step
// compares them (fzRun.compareIso), and every deletion of an entity,
// Strip, purge and DeleteUnchecked treats them as the components they
// are. A mode of sync-point work may follow the byte: the second byte
// then says which, as the first would. The mode is a first byte of its
// own, rather than new op codes, so that every input written before
// isotopes (the seeds and the corpus in testdata, none of which begins
// with it) keeps its meaning, and with it every count TestWorldModelSeeds
// checks: op bytes are taken modulo fzOpCount but in isotope mode, where
// they are taken modulo fzOpIsoEnd, and the model's other changes for
// isotopes are no-ops for an input that makes none. (New op codes
// would have changed the modulus, and so every input's operations.)
//
// Run it with a short -fuzzminimizetime:
//
//	go test ./ecs -run '^$' -fuzz '^FuzzWorldModel$' -fuzzminimizetime 2s
//
// The fuzzer minimizes every input that reaches new code, for up to a
// minute by default, and runs no new input meanwhile: it then reports
// "execs: … (0/sec)" with both workers busy, which looks like a hang.
func FuzzWorldModel(f *testing.F) {
	for _, seed := range fzSeeds() {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		runModel(t, data, false)
	})
}

// fzSeeds is the seed corpus: hand-written programs that reach every
// operation and path, including reuse of deleted slots and stale ids.
func fzSeeds() [][]byte {
	return [][]byte{
		{},
		// add entities with every mask, then look at them through every join
		{fzOpAdd, 0, 0, 1, fzOpAdd, 1, 1, 2, fzOpAdd, 2, 2, 3, fzOpAdd, 3, 3, 4,
			fzOpAdd, 4, 4, 5, fzOpAdd, 5, 5, 6, fzOpAdd, 6, 6, 7, fzOpAdd, 7, 7, 8,
			fzOpJoin, 1, 0, 0, fzOpJoin, 3, 4, 1, fzOpJoin, 7, 0, 2, fzOpJoin, 2, 5, 3, fzOpJoin, 6, 1, 4, fzOpJoin, 5, 2, 5},
		// delete then re-add: the slot is reused with a new generation, and the
		// old id is used in every operation
		{fzOpAdd, 3, 0, 9, fzOpAdd, 5, 1, 9, fzOpDelete, 0, 0, fzOpAdd, 7, 2, 4,
			fzOpAddComp, 0, 1, 0, 5, fzOpAddComp, 0, 4, 1, 5, fzOpRemove, 0, 0, 0, fzOpRemove, 0, 1, 1,
			fzOpDeleteComp, 0, 2, 0, fzOpStrip, 0, 0, fzOpDelete, 0, 1, fzOpJoin, 1, 0, 0},
		// bulk adds, modification through joins, DeleteAny, Clear
		{fzOpBulk, 5, 3, 0, fzOpBulk, 4, 6, 1, fzOpBulk, 3, 0, 2, fzOpBulk, 2, 7, 3,
			fzOpModify, 0, 3, fzOpModify, 1, 5, fzOpModify, 2, 0, fzOpModify, 3, 0, fzOpJoin, 3, 4, 0,
			fzOpDeleteAny, 1, 0, fzOpJoin, 7, 0, 0, fzOpAdd, 1, 0, 1, fzOpDeleteAny, 4, 1, fzOpClear, 2, fzOpJoin, 2, 5, 1},
		// every path of every operation on a few entities
		{fzOpAdd, 7, 0, 1, fzOpAdd, 7, 1, 2, fzOpAdd, 3, 2, 3, fzOpAdd, 6, 3, 4,
			fzOpRemove, 1, 0, 1, fzOpRemove, 2, 1, 2, fzOpDeleteComp, 1, 2, 0, fzOpDeleteComp, 3, 0, 1,
			fzOpStrip, 2, 0, fzOpStrip, 3, 1, fzOpStrip, 2, 2,
			fzOpAddComp, 2, 7, 0, 8, fzOpAddComp, 2, 3, 1, 9, fzOpAddComp, 1, 5, 2, 10, fzOpAddComp, 0, 6, 3, 11,
			fzOpDelete, 1, 1, fzOpDelete, 2, 2, fzOpDelete, 3, 3, fzOpAdd, 7, 4, 12, fzOpAdd, 7, 5, 13,
			fzOpJoin, 7, 0, 6, fzOpJoin, 1, 6, 7},
		// never-issued and null ids (selector bytes beyond the issued ids)
		{fzOpAdd, 1, 0, 1, fzOpAddComp, 200, 1, 0, 1, fzOpAddComp, 255, 1, 1, 1, fzOpRemove, 201, 0, 0,
			fzOpDeleteComp, 254, 1, 1, fzOpStrip, 202, 0, fzOpDelete, 255, 1, fzOpDelete, 203, 2, fzOpDelete, 253, 3},
		// many adds and deletes so that slots are reused several times
		slices.Repeat([]byte{fzOpAdd, 7, 0, 3, fzOpAdd, 1, 1, 4, fzOpDelete, 0, 3, fzOpBulk, 3, 2, 1, fzOpDeleteAny, 0, 0, fzOpJoin, 3, 4, 2}, 6),
		// the bulk calls on existing entities: repeats, dead ids among
		// live ones, every mask and path
		{fzOpBulk, 8, 7, 0, fzOpBulk, 6, 1, 1, fzOpBulk, 5, 0, 0, fzOpDelete, 2, 0,
			fzOpBulkAddComp, 4, 1, 0, 9, 0, 1, 0, 3,
			fzOpBulkAddComp, 3, 5, 1, 4, 5, 2, 7,
			fzOpBulkAddComp, 2, 6, 0, 1, 2, 5, // a dead id: refused
			fzOpBulkAddComp, 5, 6, 1, 8, 14, 15, 16, 17, 14,
			fzOpBulkAddComp, 4, 2, 0, 2, 18, 19, 9, 10,
			fzOpBulkDeleteComp, 4, 0, 0, 0, 1, 0, 3,
			fzOpBulkDeleteComp, 3, 1, 1, 14, 2, 15, // a dead id: refused
			fzOpBulkDeleteComp, 5, 2, 1, 14, 15, 16, 14, 17,
			fzOpJoin, 3, 4, 1,
			fzOpDeleteMany, 3, 0, 0, 1, 0,
			fzOpDeleteMany, 2, 1, 3, 1, // a dead id: refused
			fzOpDeleteMany, 4, 2, 8, 9, 10, 9,
			fzOpDeleteMany, 1, 1, 255, // NullID: refused
			fzOpBulk, 7, 7, 1, fzOpDeleteMany, 5, 0, 20, 21, 22, 23, 24, fzOpJoin, 7, 0, 0},
		// several calls in one system holding an AllStoragesViewMut:
		// deletions followed by every other call, slots reused in the
		// same system, a repeated deletion, deleting everything
		{fzOpAdd, 7, 0, 1, fzOpAdd, 3, 0, 2, fzOpAdd, 5, 0, 3, fzOpAdd, 1, 0, 4,
			fzOpInSystem, 7, 0, 0, 0, 2, 0, 5, 1, 4, 0, 6, 0, 0, 3, 4, 9, 7, 0, 0, 1, 2, 0, 5, 0, 0,
			fzOpInSystem, 5, 0, 1, 0, 3, 1, 7, 4, 2, 0, 0, 2, 0, 5, 0, 0,
			fzOpInSystem, 4, 0, 3, 0, 0, 3, 0, 2, 0, 8, 6, 0, 0,
			fzOpInSystem, 8, 0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 4, 0, 0, 5, 0, 0, 6, 0, 0, 7, 0, 7, 0, 0,
			fzOpJoin, 1, 0, 0,
			// Each deleting what it hands out, then calls that must not see it
			fzOpAdd, 1, 0, 5, fzOpAdd, 3, 0, 6, fzOpAdd, 1, 0, 7, fzOpAdd, 7, 0, 9,
			fzOpInSystem, 4, 6, 0, 1, 1, 4, 0, 6, 0, 0, 2, 0, 11,
			fzOpInSystem, 2, 6, 0, 3, 7, 6, 0},
		// Each deleting the odd As, then after a deletion each kind of
		// call through all (selector 0..5) before changing the next A
		{fzOpAdd, 7, 0, 1, fzOpAdd, 3, 0, 2, fzOpAdd, 5, 0, 3, fzOpAdd, 1, 0, 4, fzOpAdd, 7, 0, 5, fzOpAdd, 7, 0, 6,
			fzOpInSystem, 0, 6, 0, 1, fzOpInSystem, 0, 6, 1, 1, fzOpInSystem, 0, 6, 2, 1,
			fzOpBulk, 8, 7, 0, fzOpModify, 0, 1,
			fzOpInSystem, 0, 6, 3, 1, fzOpInSystem, 0, 6, 4, 1, fzOpInSystem, 0, 6, 5, 1, fzOpJoin, 7, 0, 0},
		// DeleteEntities given a slice of a storage's own id array, from
		// each storage, after churn has put them out of step
		{fzOpBulk, 8, 7, 0, fzOpBulk, 6, 3, 1, fzOpBulk, 4, 5, 0, fzOpRemove, 1, 1, 0, fzOpDelete, 4, 0,
			fzOpDeleteMany, 3, 3, 0, 0, 0, 0, fzOpDeleteMany, 4, 3, 0, 0, 0, 0, 1,
			fzOpDeleteMany, 2, 3, 0, 0, 2, fzOpJoin, 7, 0, 0},
		// the bulk calls on their parallel paths: NullID, the largest
		// index, never-issued and dead ids, repeats, then real deletions
		{fzOpParallel, 1, fzOpBulk, 8, 7, 0, fzOpBulk, 8, 3, 1, fzOpBulk, 6, 5, 0, fzOpDelete, 3, 0,
			fzOpDeleteMany, 3, 0, 0, 1, 255, fzOpDeleteMany, 3, 1, 249, 2, 4,
			fzOpDeleteMany, 4, 2, 5, 6, 3, 7, fzOpDeleteMany, 3, 0, 8, 241, 9,
			fzOpBulkDeleteComp, 3, 0, 0, 10, 255, 11, fzOpBulkAddComp, 3, 3, 1, 5, 12, 249, 13,
			fzOpDeleteMany, 5, 0, 10, 11, 12, 13, 10, fzOpDeleteMany, 3, 3, 0, 0, 0, 1,
			fzOpBulkAddComp, 4, 7, 0, 6, 14, 15, 16, 17, fzOpBulkDeleteComp, 4, 1, 1, 14, 15, 16, 14,
			fzOpDeleteAny, 2, 0, fzOpBulk, 8, 7, 1, fzOpJoin, 7, 0, 0, fzOpParallel, 0, fzOpDeleteMany, 2, 0, 18, 19},
		// a deletion right before each other kind of call
		{fzOpAdd, 7, 0, 1, fzOpAdd, 7, 0, 3, fzOpAdd, 7, 0, 5, fzOpAdd, 7, 0, 7, fzOpAdd, 7, 0, 9, fzOpAdd, 7, 0, 11, fzOpAdd, 7, 0, 13,
			fzOpInSystem, 2, 0, 0, 0, 1, 1, 0,
			fzOpInSystem, 2, 0, 1, 0, 2, 0, 4,
			fzOpInSystem, 2, 0, 2, 0, 3, 2, 6,
			fzOpInSystem, 2, 0, 3, 0, 4, 4, 0,
			fzOpInSystem, 2, 0, 4, 0, 5, 0, 0,
			fzOpInSystem, 2, 0, 5, 0, 6, 0, 0,
			fzOpInSystem, 2, 0, 6, 0, 7, 6, 0},
		// sort, retain and drain each type, by each form and path, with
		// DeleteUnchecked's leftovers among the components
		{fzOpBulk, 8, 7, 0, fzOpAdd, 3, 0, 5, fzOpAdd, 1, 0, 250, fzOpRemove, 2, 1, 0,
			fzOpSort, 0, 0, 0, fzOpSort, 0, 1, 1, fzOpSort, 1, 2, 0, fzOpSort, 1, 3, 1, fzOpSort, 2, 0, 0,
			fzOpDeleteUnchecked, 0, 0, 0, 0, 3, 0, fzOpSort, 0, 2, 1, fzOpJoin, 3, 0, 0,
			fzOpRetain, 0, 1, 1, 0, fzOpRetain, 1, 0, 0, 1, fzOpRetain, 2, 2, 1, 0, fzOpJoin, 7, 0, 0,
			fzOpSort, 0, 3, 0, fzOpAdd, 7, 0, 9, fzOpRetain, 0, 0, 1, 1,
			fzOpDrain, 0, 0, fzOpDrain, 1, 1, fzOpDrain, 1, 0, fzOpAdd, 7, 1, 4, fzOpDrain, 2, 1, fzOpJoin, 7, 0, 0},
		// storages put out of order (B removed and added again), joins
		// that re-align them, and SortAs in several pairs
		{fzOpBulk, 8, 7, 0, fzOpBulk, 8, 3, 1, fzOpRemove, 2, 1, 0, fzOpRemove, 5, 1, 1, fzOpRemove, 9, 0, 0,
			fzOpAddComp, 2, 2, 0, 7, fzOpAddComp, 5, 2, 1, 8, fzOpAddComp, 9, 1, 0, 3,
			fzOpJoin, 3, 0, 0, fzOpJoin, 3, 0, 1, fzOpSortAs, 0, 1, fzOpSortAs, 1, 0, fzOpSortAs, 2, 2,
			fzOpSortAs, 2, 0, fzOpJoin, 7, 0, 2},
		// DeleteUnchecked's leftovers: seen by joins, view look-ups and
		// changes through World.Run and World.Borrow, which do not purge
		// them; then purged by each kind of trigger, a refused World-level
		// change first, each after a new DeleteUnchecked (through World.Run,
		// World.Borrow and World.RunWorkload)
		{fzOpAdd, 7, 0, 1, fzOpAdd, 7, 0, 2, fzOpAdd, 7, 1, 3, fzOpAdd, 7, 0, 4, fzOpAdd, 3, 0, 5, fzOpAdd, 5, 0, 6,
			fzOpDeleteUnchecked, 0, 0, 0, 0, 0, 0,
			fzOpJoin, 7, 0, 0, fzOpJoin, 3, 4, 1, fzOpModify, 0, 1, fzOpModify, 3, 0, fzOpModify, 1, 2, fzOpJoin, 1, 0, 3,
			fzOpAddComp, 0, 1, 0, 5, // refused, and purges
			fzOpDeleteUnchecked, 1, 1, 1, 0, 1, 1, 2, 0, // then MemoryUsage
			fzOpDeleteUnchecked, 0, 2, 2, 0, 3, 0, // then ShrinkToFit
			fzOpDeleteUnchecked, 0, 0, 3, 0, 4, 0, // then an AllStoragesViewMut from Borrow
			fzOpBulk, 6, 7, 0,
			fzOpDeleteUnchecked, 0, 0, 0, 0, 6, 0, fzOpStrip, 7, 0,
			fzOpDeleteUnchecked, 0, 1, 0, 0, 8, 2, fzOpDelete, 9, 0,
			fzOpDeleteUnchecked, 0, 2, 0, 0, 10, 0, fzOpSortAs, 0, 0,
			fzOpDeleteUnchecked, 0, 0, 0, 0, 11, 0, fzOpModify, 2, 0,
			fzOpBulk, 8, 7, 0,
			fzOpDeleteUnchecked, 0, 0, 0, 0, 12, 0, fzOpInSystem, 0, 7, 13, 0,
			fzOpDeleteUnchecked, 0, 0, 0, 0, 14, 0, fzOpDeleteAny, 2, 0,
			fzOpBulk, 6, 7, 1,
			fzOpDeleteUnchecked, 0, 0, 0, 0, 20, 0, fzOpDeleteMany, 2, 0, 21, 22,
			fzOpDeleteUnchecked, 0, 0, 0, 0, 23, 0, fzOpBulkDeleteComp, 1, 0, 1, 24,
			fzOpDeleteUnchecked, 0, 0, 0, 0, 25, 0, fzOpJoin, 7, 0, 0, fzOpAdd, 7, 3, 9},
		// a new entity in a leftover's slot, in the same system or a later
		// one, takes its place in the storages it gets a component of:
		// joins and look-ups see the rest under the dead id
		{fzOpAdd, 7, 0, 1, fzOpAdd, 3, 0, 2, fzOpAdd, 1, 0, 3,
			fzOpDeleteUnchecked, 0, 0, 4, 7, 0, 0,
			fzOpJoin, 7, 0, 0, fzOpJoin, 4, 0, 0, fzOpJoin, 1, 4, 1, fzOpJoin, 6, 0, 2,
			fzOpDeleteUnchecked, 0, 1, 0, 0, 1, 0,
			fzOpAdd, 2, 2, 5, fzOpJoin, 3, 0, 2, fzOpJoin, 2, 1, 3, fzOpJoin, 3, 0, 9,
			fzOpRemove, 1, 0, 1,
			fzOpDeleteUnchecked, 1, 2, 0, 0, 2, 0, 3, 4,
			fzOpBulk, 3, 1, 1, fzOpAddComp, 5, 2, 1, 9, fzOpJoin, 3, 0, 0, fzOpJoin, 7, 0, 10,
			fzOpDeleteMany, 2, 3, 0, 0, 0, fzOpJoin, 7, 0, 0},
		// several DeleteUnchecked in one system (a repeat, NullID, a
		// never-issued id), then the fast delete, Clear and ViewMut.Delete
		// taking leftovers away without a purge
		{fzOpBulk, 5, 7, 0,
			fzOpDeleteUnchecked, 2, 0, 0, 0, 0, 0, 0, 1, 255, 0,
			fzOpDelete, 0, 3,
			fzOpDeleteUnchecked, 1, 1, 0, 0, 1, 0, 245, 0,
			fzOpClear, 1, fzOpJoin, 1, 6, 0, fzOpJoin, 5, 0, 1,
			fzOpInSystem, 0, 2, 0, 5,
			fzOpDeleteUnchecked, 0, 0, 4, 3, 2, 0,
			fzOpDeleteComp, 2, 2, 1, fzOpRemove, 3, 0, 0, fzOpJoin, 7, 0, 0},
		// deletions of runs of ids (entities created together, in either
		// order), from storages they take whole (every holder of A holds
		// B and C, and nothing else does), from one they sweep in part
		// (B, whose identity prefix they cover but for one entity),
		// through DeleteAny, DeleteEntities (one at a time too), and on
		// the parallel paths; new entities then take the slots back in
		// storage order, into identity prefixes the next deletions take
		// whole at once
		{fzOpBulk, 8, 7, 0, fzOpDeleteAny, 0, 0, fzOpJoin, 7, 0, 0,
			fzOpBulk, 8, 7, 0, fzOpDeleteAny, 2, 1, fzOpJoin, 7, 0, 0,
			fzOpBulk, 4, 7, 0, fzOpBulk, 2, 1, 0, fzOpAdd, 2, 0, 9,
			fzOpDeleteMany, 5, 0, 16, 17, 18, 19, 20, fzOpJoin, 3, 0, 1,
			fzOpDeleteMany, 2, 1, 21, 22, fzOpJoin, 7, 0, 0,
			fzOpBulk, 5, 7, 1, fzOpInSystem, 4, 0, 23, 0, 0, 24, 0, 0, 25, 0, 0, 26, 0, 0, 27, 0,
			fzOpParallel, 1, fzOpBulk, 6, 7, 0, fzOpBulk, 2, 3, 0, fzOpDeleteAny, 1, 0,
			fzOpBulk, 5, 7, 0, fzOpDeleteMany, 5, 1, 40, 39, 38, 37, 36, fzOpParallel, 0, fzOpJoin, 7, 0, 0},
		// spawn at ids: past the slots, on a live index, on a freed one at
		// older and newer generations, NullID, the alive bit; then
		// creations fill the gap; add-if-different on live and dead ids
		{fzOpAdd, 3, 0, 1, fzOpAdd, 1, 0, 2, fzOpDelete, 1, 0,
			fzOpSpawnAt, 245, 1, 0, fzOpSpawnAt, 0, 0, 1, fzOpSpawnAt, 1, 0, 0, fzOpSpawnAt, 1, 1, 1,
			fzOpSpawnAt, 255, 0, 0, fzOpSpawnAt, 0, 3, 0, fzOpSpawnAt, 249, 2, 1,
			fzOpAdd, 7, 0, 3, fzOpBulk, 4, 3, 0, fzOpJoin, 7, 0, 0,
			fzOpAddDistinct, 0, 0, 0, 1, fzOpAddDistinct, 0, 0, 1, 2, fzOpAddDistinct, 0, 1, 1, 2,
			fzOpAddDistinct, 0, 1, 0, 2, fzOpAddDistinct, 1, 0, 0, 3, fzOpAddDistinct, 3, 1, 1, 0,
			fzOpDelete, 3, 0, fzOpSpawnAt, 3, 2, 0, fzOpAddDistinct, 3, 0, 1, 1},
		// several components at once through views: every set of views,
		// on live, dead, leftover and null ids, and the same view twice
		{fzOpAdd, 1, 0, 1, fzOpAdd, 0, 0, 2, fzOpAdd, 6, 0, 3, fzOpAdd, 7, 0, 4,
			fzOpAddTo, 0, 0, 0, 5, fzOpAddTo, 1, 1, 1, 6, fzOpAddTo, 2, 2, 0, 7, fzOpAddTo, 3, 3, 1, 8,
			fzOpAddTo, 0, 4, 0, 9, fzOpAddTo, 255, 0, 1, 10, fzOpDelete, 1, 0, fzOpAddTo, 1, 3, 0, 11,
			fzOpJoin, 7, 0, 0,
			fzOpRemoveFrom, 0, 0, 0, fzOpRemoveFrom, 2, 1, 1, fzOpRemoveFrom, 3, 2, 0, fzOpRemoveFrom, 3, 4, 1,
			fzOpRemoveFrom, 1, 3, 0, fzOpRemoveFrom, 255, 3, 1, fzOpRemoveFrom, 2, 3, 0,
			fzOpDeleteUnchecked, 0, 1, 0, 0, 0, 0, fzOpRemoveFrom, 0, 3, 1, fzOpAddTo, 0, 0, 1, 12,
			fzOpAdd, 7, 0, 13, fzOpAddTo, 4, 3, 0, 14, fzOpJoin, 7, 0, 0},
		// hooks on, then every kind of change, bulk ones and purges
		// included; then commands (creations, additions to the new
		// entities and to dead ones, deletions, removals), hooks off and
		// on again
		{fzOpAdd, 7, 0, 1, fzOpAdd, 3, 0, 2, fzOpHooks, 0,
			fzOpAdd, 5, 1, 3, fzOpAddComp, 1, 4, 0, 4, fzOpAddComp, 0, 1, 1, 5,
			fzOpRemove, 0, 0, 0, fzOpDeleteComp, 1, 1, 1, fzOpStrip, 2, 0, fzOpDelete, 0, 0,
			fzOpBulk, 4, 7, 0, fzOpDeleteAny, 1, 0, fzOpClear, 2, fzOpRetain, 0, 2, 1, 0, fzOpDrain, 1, 0,
			fzOpDeleteUnchecked, 1, 0, 0, 0, 3, 0, fzOpAdd, 7, 0, 6,
			fzOpCommands, 7, 0, 0, 0, 1, 0, 9, 2, 0, 10, 1, 1, 11, 3, 2, 0, 4, 3, 0, 5, 4, 0,
			fzOpDelete, 1, 0, fzOpCommands, 4, 1, 1, 12, 2, 1, 13, 0, 0, 0, 3, 0, 0,
			fzOpHooks, 1, fzOpBulk, 3, 7, 0, fzOpHooks, 0, fzOpCommands, 3, 0, 0, 0, 5, 0, 0, 3, 4, 0},
		// finalizer mode (fzC a finalizer): deletions through each World
		// and AllStoragesViewMut path mark the holders of a C, delete
		// the others, and change nothing the second time; a held C is
		// replaced, other components added; the C's removal (World,
		// ViewMut), bulk deletion, Clear delete the terminating; bulk
		// deletions and DeleteAny mark; Strip takes one back
		{fzFinalizerByte,
			fzOpAdd, 4, 0, 1, fzOpAdd, 7, 1, 2, fzOpAdd, 5, 2, 3, fzOpAdd, 3, 3, 4, fzOpAdd, 6, 0, 5, fzOpAdd, 7, 0, 6,
			fzOpDelete, 0, 0, fzOpDelete, 1, 1, fzOpDelete, 3, 2, fzOpDelete, 0, 0, fzOpJoin, 7, 0, 0,
			fzOpAddComp, 0, 3, 0, 7, fzOpAddComp, 1, 2, 1, 8,
			fzOpRemove, 0, 2, 0, fzOpDeleteComp, 1, 2, 1,
			fzOpDeleteMany, 2, 0, 2, 4, fzOpDeleteAny, 2, 0, fzOpStrip, 5, 0,
			fzOpBulkAddComp, 1, 3, 0, 0, 2, fzOpBulkDeleteComp, 1, 2, 0, 2, fzOpJoin, 7, 0, 0,
			fzOpClear, 2, fzOpJoin, 7, 0, 0},
		// finalizer mode, with hooks: in one system, a deletion marks, the
		// C's removal leaves the entity terminating (deleted when the
		// system returns) and refuses a new C; commands mark; the fast
		// delete kills a holder; changes through views from World.Borrow
		// (RemoveFrom, Retain, Drain) wait for the next sync point; an
		// Each marks the odd As and removes Cs after; DeleteUnchecked of
		// a holder in a workload
		{fzFinalizerByte,
			fzOpBulk, 6, 7, 0, fzOpAdd, 1, 0, 9, fzOpHooks, 0,
			fzOpInSystem, 5, 0, 0, 0, 1, 0, 1, 3, 0, 1, 3, 1, 2, 0, 6, 0, 4, 2, 0,
			fzOpCommands, 3, 3, 3, 0, 3, 4, 0, 4, 3, 0,
			fzOpDelete, 5, 3, fzOpRemoveFrom, 3, 2, 1, fzOpJoin, 7, 0, 0,
			fzOpBulk, 4, 7, 0, fzOpDelete, 9, 0, fzOpRetain, 2, 0, 0, 1, fzOpJoin, 7, 0, 0,
			fzOpBulk, 4, 7, 0, fzOpInSystem, 1, 6, 4, 1, 5, 0, 0, fzOpJoin, 7, 0, 0,
			fzOpBulk, 3, 7, 0, fzOpDelete, 14, 0, fzOpDrain, 2, 1, fzOpJoin, 7, 0, 0,
			fzOpBulk, 2, 7, 0, fzOpDeleteUnchecked, 0, 2, 0, 0, 17, 0, fzOpDelete, 18, 0,
			fzOpDeleteUnchecked, 0, 1, 0, 0, 18, 4, fzOpJoin, 7, 0, 0},
		// requirement mode (fzA requires fzB): As added by every World
		// path, through a system's views and an AllStoragesViewMut, at
		// creation and later, to entities with a B and without; then
		// removals of a required B by each path, refused (a dead id
		// first where there is one); RemoveFrom of A and B together,
		// and the A's removal, allowing the B's; Strip, deletions
		{fzRequireByte,
			fzOpAdd, 1, 0, 5, fzOpAdd, 1, 2, 6, fzOpAdd, 1, 3, 7, fzOpAdd, 3, 1, 8, fzOpAdd, 0, 0, 0, fzOpAdd, 2, 0, 9,
			fzOpAddComp, 4, 0, 0, 10, fzOpAddComp, 5, 0, 1, 11,
			fzOpBulk, 3, 1, 0, fzOpBulk, 2, 5, 1, fzOpAdd, 0, 0, 0, fzOpAdd, 4, 0, 0,
			fzOpBulkAddComp, 2, 0, 0, 3, 11, 12, fzOpBulkAddComp, 2, 2, 1, 4, 11, 4, fzOpJoin, 3, 0, 0,
			fzOpRemove, 0, 1, 0, fzOpDeleteComp, 1, 1, 0, fzOpRemove, 2, 1, 1, fzOpDeleteComp, 3, 1, 1,
			fzOpBulkDeleteComp, 2, 1, 0, 6, 7, fzOpBulkDeleteComp, 3, 1, 1, 5, 8, 9, fzOpBulkDeleteComp, 2, 1, 0, 245, 6,
			fzOpClear, 1, fzOpRetain, 1, 0, 1, 0, fzOpRetain, 1, 0, 1, 1, fzOpDrain, 1, 0, fzOpDrain, 1, 1,
			fzOpRemoveFrom, 0, 2, 0, fzOpRemoveFrom, 6, 2, 1,
			fzOpRemoveFrom, 1, 0, 0, fzOpRemoveFrom, 2, 3, 1, fzOpRemove, 3, 0, 0, fzOpRemove, 3, 1, 0,
			fzOpRetain, 1, 0, 0, 0, fzOpJoin, 7, 0, 0,
			fzOpStrip, 4, 0, fzOpDelete, 5, 0, fzOpDeleteAny, 1, 0, fzOpJoin, 7, 0, 0},
		// requirement mode, with hooks: an A through views from
		// World.Borrow (its B at the next step's sync point), through
		// AddDistinct and commands; a command's removal of a required B
		// refused, allowed after the A's; an AllStoragesViewMut's
		// additions in one system; DeleteUnchecked of an entity whose B
		// its view refuses to delete, in a system (the new entity's A,
		// filled, purges the leftovers), from World.Borrow and in a
		// workload (the leftovers stay, and removals of their B, by a
		// view and by Clear, are refused); views from World.Borrow
		// beside a ViewMut of the other type
		{fzRequireByte, fzOpHooks, 0,
			fzOpBulk, 4, 0, 0, fzOpAddTo, 0, 1, 1, 5, fzOpJoin, 3, 0, 0,
			fzOpAddTo, 1, 0, 0, 6, fzOpAddDistinct, 2, 0, 0, 1, fzOpAddDistinct, 3, 0, 1, 2,
			fzOpCommands, 3, 0, 0, 0, 1, 0, 9, 5, 1, 0,
			fzOpCommands, 2, 4, 1, 0, 5, 1, 0,
			fzOpInSystem, 2, 2, 0, 7, 2, 0, 8, 7, 5, 0, fzOpJoin, 7, 0, 0,
			fzOpDeleteUnchecked, 0, 0, 4, 7, 2, 2, fzOpJoin, 7, 0, 0,
			fzOpDeleteUnchecked, 0, 1, 4, 8, 3, 2, fzOpJoin, 7, 0, 0,
			fzOpDeleteUnchecked, 0, 2, 0, 0, 0, 2, fzOpJoin, 3, 0, 0,
			fzOpRemove, 0, 1, 1, fzOpClear, 1, fzOpRemoveFrom, 0, 0, 0,
			fzOpSort, 1, 0, 1, fzOpSort, 0, 1, 1, fzOpDeleteMany, 3, 0, 4, 5, 6, fzOpJoin, 7, 0, 0},
		// initializer mode (fzB made from fzA): entities created with an
		// A by every World path, through a system's views and an
		// AllStoragesViewMut, in bulk both ways, by commands, with a B
		// of their own, and without an A; As given later, which bring
		// no B; an A changed in the creating system before its sync
		// point; SpawnAt; creations by DeleteUnchecked's systems
		// through World.Borrow (at the next step's sync point), in a
		// system and in a workload (the initializers' change purges)
		{fzInitByte,
			fzOpAdd, 1, 0, 5, fzOpAdd, 1, 2, 6, fzOpAdd, 1, 3, 7, fzOpAdd, 3, 1, 8, fzOpAdd, 4, 0, 0, fzOpAdd, 0, 2, 0,
			fzOpAddComp, 5, 0, 0, 3, fzOpAddComp, 4, 0, 1, 4,
			fzOpBulk, 3, 5, 0, fzOpBulk, 3, 1, 1, fzOpBulk, 2, 4, 0,
			fzOpCommands, 4, 0, 0, 0, 1, 0, 4, 0, 0, 0, 2, 0, 9,
			fzOpInSystem, 2, 2, 0, 3, 6, 0, 2, 7, 0, 0, fzOpJoin, 7, 0, 0,
			fzOpDelete, 12, 0, fzOpSpawnAt, 12, 1, 0, fzOpDelete, 13, 0, fzOpSpawnAt, 13, 1, 1,
			fzOpAddTo, 17, 1, 0, 7, fzOpJoin, 7, 0, 0,
			fzOpDeleteUnchecked, 0, 1, 4, 9, 0, 0, fzOpJoin, 7, 0, 0,
			fzOpDeleteUnchecked, 0, 0, 4, 10, 1, 1,
			fzOpDeleteUnchecked, 0, 2, 4, 11, 2, 2, fzOpJoin, 7, 0, 0},
		// isotope mode: isotopes added by every path to live entities
		// (the storages made in the order 1, 2, 0), and refused for
		// NullID, an index past the slots and a future generation by
		// every path; every form of change; removals by every path
		// that find one, then some that find none and some of dead ids;
		// the Clear of a discriminant
		{fzIsoByte,
			fzOpAdd, 7, 0, 1, fzOpAdd, 3, 0, 2, fzOpAdd, 1, 0, 3, fzOpAdd, 0, 0, 0, fzOpAdd, 2, 0, 5,
			fzOpIsoAdd, 1, 1, 1, 11, fzOpIsoAdd, 0, 2, 5, 15, fzOpIsoAdd, 0, 0, 0, 10, fzOpIsoAdd, 2, 2, 2, 12,
			fzOpIsoAdd, 3, 0, 3, 13, fzOpIsoAdd, 4, 1, 4, 14, fzOpIsoAdd, 1, 0, 3, 16, fzOpIsoAdd, 4, 2, 2, 17,
			fzOpIsoAdd, 0, 0, 0, 18,
			fzOpIsoAdd, 255, 0, 0, 1, fzOpIsoAdd, 245, 1, 1, 1, fzOpIsoAdd, 251, 2, 2, 1,
			fzOpIsoAdd, 255, 0, 3, 1, fzOpIsoAdd, 245, 1, 4, 1, fzOpIsoAdd, 251, 1, 5, 1,
			fzOpJoin, 1, 0, 0,
			fzOpIsoModify, 0, 1, 3, fzOpIsoModify, 1, 0, 0, fzOpIsoModify, 2, 2, 0, fzOpIsoModify, 3, 0, 7,
			fzOpIsoModify, 5, 0, 0, fzOpIsoModify, 2, 0, 0, fzOpIsoModify, 5, 1, 0,
			fzOpIsoRemove, 0, 0, 0, fzOpIsoRemove, 1, 1, 1, fzOpIsoRemove, 2, 2, 2, fzOpIsoRemove, 3, 0, 3,
			fzOpIsoRemove, 4, 1, 4, fzOpIsoRemove, 0, 2, 5,
			fzOpIsoRemove, 0, 0, 0, fzOpIsoRemove, 255, 0, 0, fzOpIsoRemove, 245, 1, 1, fzOpIsoRemove, 251, 2, 2,
			fzOpIsoRemove, 255, 1, 5, fzOpIsoModify, 4, 0, 0, fzOpJoin, 3, 0, 0},
		// isotope mode, calls in one system holding an
		// AllStoragesViewMut: isotopes added, the entity deleted, then
		// refused an isotope and a removal; a new entity (in its slot)
		// given one; a Strip taking them; removals
		{fzIsoByte,
			fzOpAdd, 3, 0, 1, fzOpAdd, 1, 0, 2, fzOpAdd, 0, 0, 3,
			fzOpIsoInSystem, 7, 1, 0, 3, 1, 1, 4, 0, 0, 0, 1, 0, 5, 2, 0, 6, 3, 0, 0, 1, 3, 6, 4, 1, 0,
			fzOpIsoInSystem, 2, 2, 3, 6, 2, 2, 7, 0, 2, 0},
		// isotope mode, DeleteUnchecked's leftovers: the fast delete
		// leaves an entity's isotopes under its dead id, DeleteUnchecked
		// all its components; joins, look-ups, Isotopes and a removal
		// through a view see them; a new entity's isotope takes the
		// place of one; a refused World-level removal purges the rest
		{fzIsoByte,
			fzOpAdd, 3, 0, 1, fzOpAdd, 3, 0, 2, fzOpAdd, 1, 0, 3,
			fzOpIsoAdd, 0, 0, 0, 5, fzOpIsoAdd, 0, 1, 0, 6, fzOpIsoAdd, 1, 0, 0, 7, fzOpIsoAdd, 1, 1, 0, 8, fzOpIsoAdd, 2, 2, 0, 9,
			fzOpDelete, 0, 3, fzOpJoin, 1, 0, 0, fzOpIsoModify, 1, 0, 0,
			fzOpDeleteUnchecked, 0, 0, 4, 9, 1, 0, fzOpJoin, 3, 0, 0,
			fzOpIsoAdd, 3, 0, 2, 20, fzOpIsoAdd, 3, 1, 4, 21, fzOpIsoModify, 0, 0, 1,
			fzOpIsoRemove, 1, 1, 4, fzOpIsoRemove, 0, 0, 0, fzOpJoin, 1, 0, 0},
		// isotope mode: entities with isotopes deleted by every kind of
		// deletion; DeleteAny[fzA] spares an entity whose only fzA is an
		// isotope; a command deletes it
		{fzIsoByte,
			fzOpBulk, 8, 7, 0, fzOpAdd, 0, 0, 0,
			fzOpIsoInSystem, 7, 1, 0, 0, 1, 1, 1, 1, 2, 2, 1, 3, 3, 1, 4, 4, 1, 5, 5, 1, 6, 6, 1, 7, 7,
			fzOpIsoAdd, 8, 0, 0, 9, fzOpIsoAdd, 7, 2, 3, 9,
			fzOpDelete, 0, 0, fzOpDelete, 1, 1, fzOpDelete, 2, 2, fzOpStrip, 3, 0, fzOpStrip, 4, 2,
			fzOpDeleteMany, 2, 0, 5, 6, fzOpDeleteAny, 0, 0, fzOpJoin, 7, 0, 0,
			fzOpCommands, 1, 3, 8, 0, fzOpIsoModify, 3, 0, 1},
		// isotope and finalizer modes: an entity holding a C and
		// isotopes, deleted, is terminating and keeps them, takes one
		// more; its C's removal deletes it with them
		{fzIsoByte, fzFinalizerByte,
			fzOpAdd, 7, 0, 1, fzOpAdd, 3, 0, 2,
			fzOpIsoAdd, 0, 0, 0, 5, fzOpIsoAdd, 1, 1, 1, 6,
			fzOpDelete, 0, 0, fzOpIsoAdd, 0, 2, 2, 7, fzOpIsoModify, 1, 0, 0,
			fzOpRemove, 0, 2, 0, fzOpDelete, 1, 0, fzOpJoin, 7, 0, 0},
		// isotope and requirement modes, hooks on: an isotope of fzA
		// brings no B, and a B goes from an entity with one; hooks see
		// no isotope
		{fzIsoByte, fzRequireByte, fzOpHooks, 0,
			fzOpAdd, 0, 0, 0, fzOpAdd, 2, 0, 1,
			fzOpIsoAdd, 0, 0, 0, 5, fzOpIsoAdd, 0, 1, 2, 6, fzOpIsoAdd, 1, 0, 4, 7,
			fzOpRemove, 1, 1, 0, fzOpIsoAdd, 0, 2, 3, 8, fzOpIsoRemove, 0, 2, 5,
			fzOpDelete, 0, 0, fzOpJoin, 1, 0, 0},
		// isotope and initializer modes: entities created in one system
		// holding an AllStoragesViewMut, one given an isotope there, get
		// no B; one created with an A gets its B
		{fzIsoByte, fzInitByte,
			fzOpIsoInSystem, 2, 3, 0, 0, 1, 0, 3, 3, 0, 0,
			fzOpAdd, 1, 0, 4, fzOpIsoAdd, 2, 1, 0, 5, fzOpJoin, 3, 0, 0},
	}
}

// TestWorldModelSeeds runs the seed corpus with the model's own sanity
// checks: each seed must reach the operations it was written for.
func TestWorldModelSeeds(t *testing.T) {
	var total fzStats
	for i, seed := range fzSeeds() {
		st := runModel(t, seed, false)
		if len(seed) > 0 && st.ops == 0 {
			t.Errorf("seed %d ran no operation", i)
		}
		total.add(st)
	}
	// The corpus must exercise dead ids, id reuse and every operation.
	isTrue(t, total.deadRejected > 10, "seeds rejected only %d dead ids", total.deadRejected)
	isTrue(t, total.reused > 0, "seeds never reused a slot")
	isTrue(t, total.aliased > 0, "seeds never deleted through an aliased id slice")
	isTrue(t, total.parallel > 0, "seeds never took the bulk calls' parallel paths")
	isTrue(t, total.callsInEach > 0, "seeds made no call through all after a deletion inside Each")
	isTrue(t, total.left > 0, "seeds left no component behind with DeleteUnchecked")
	isTrue(t, total.joinsWithLeftovers > 0, "no join of the seeds yielded DeleteUnchecked's leftovers")
	isTrue(t, total.replaced > 0, "no new entity of the seeds took a leftover's place")
	isTrue(t, total.purged > 0, "seeds never purged DeleteUnchecked's leftovers")
	isTrue(t, total.purgedOnRefusal > 0, "no refused World-level change of the seeds purged leftovers")
	isTrue(t, total.wholeRuns > 0, "no deletion of the seeds took a storage whole by a run of ids")
	isTrue(t, total.partRuns > 0, "no deletion of the seeds swept a storage in part by a run of ids")
	for op := range fzOpCount {
		isTrue(t, total.perOp[op] > 0, "seeds never ran operation %d", op)
	}
	// Finalizer mode.
	isTrue(t, total.marked > 0, "no deletion of the seeds marked an entity terminating")
	isTrue(t, total.finRefused > 0, "seeds never gave a terminating entity a new C")
	isTrue(t, total.finalized > 0, "no terminating entity of the seeds was deleted at a sync point")
	isTrue(t, total.finDeferred > 0, "no deletion of the seeds waited for a sync point after a World.Borrow")
	t.Logf("finalizer mode: %d marked, %d additions refused, %d finalized (%d deferred)", total.marked, total.finRefused, total.finalized, total.finDeferred)
	// Requirement mode.
	isTrue(t, total.reqFilled > 0, "no A the seeds added was given its B")
	isTrue(t, total.reqDeferred > 0, "no B of the seeds waited for the sync point after a World.Borrow")
	isTrue(t, total.reqErrs > 0, "no removal of a required B by the seeds returned a *RequiredError")
	isTrue(t, total.reqPanics > 0, "no removal of a required B by the seeds' views panicked")
	isTrue(t, total.reqBoth > 0, "no RemoveFrom of the seeds took an A and its B together")
	isTrue(t, total.reqFrames > 0, "no borrow of the seeds was refused for a ViewMut[fzB]'s borrow of A")
	t.Logf("requirement mode: %d Bs given (%d deferred), %d removals refused with an error, %d with a panic, %d A and B removed together, %d borrows refused",
		total.reqFilled, total.reqDeferred, total.reqErrs, total.reqPanics, total.reqBoth, total.reqFrames)
	// Initializer mode.
	isTrue(t, total.initFilled > 0, "no entity the seeds created was given its B by the initializer")
	isTrue(t, total.initDeferred > 0, "no initializer of the seeds waited for the sync point after a World.Borrow")
	isTrue(t, total.initNoInput > 0, "the seeds created no entity without an A in initializer mode")
	isTrue(t, total.initLater > 0, "the seeds gave no A to an entity after its creation in initializer mode")
	t.Logf("initializer mode: %d Bs made (%d deferred), %d new entities without an A, %d As given later", total.initFilled, total.initDeferred, total.initNoInput, total.initLater)
	// Isotope mode.
	for op := range fzOpIsoEnd - fzOpCount {
		isTrue(t, total.isoPerOp[op] > 0, "seeds never ran isotope operation %d", fzOpCount+op)
	}
	for p := range fzIsoPaths {
		isTrue(t, total.isoAdds[p] > 0, "no isotope of the seeds was added by path %d", p)
		isTrue(t, total.isoRemoves[p] > 0, "no isotope of the seeds was removed by path %d", p)
		isTrue(t, total.isoModifies[p] > 0, "seeds never changed isotopes by form %d", p)
	}
	for k := range fzIsoKinds {
		isTrue(t, total.isoSys[k] > 0, "seeds made no call of kind %d in an isotope system", k)
	}
	isTrue(t, total.isoDead >= 10, "isotope operations of the seeds refused only %d dead ids", total.isoDead)
	isTrue(t, total.isoOutside > 0, "no partial view of the seeds refused a discriminant outside its set")
	isTrue(t, total.isoGone > total.isoPurged, "no isotope of the seeds went with its entity but by purges")
	isTrue(t, total.isoLeft > 0, "seeds left no isotope behind with DeleteUnchecked")
	isTrue(t, total.isoPurged > 0, "seeds never purged an isotope left behind")
	isTrue(t, total.isoReplaced > 0, "no isotope of the seeds took the place of a leftover")
	for f := range total.isoJoins {
		isTrue(t, total.isoJoins[f] > 0, "no isotope join of form %d of the seeds yielded anything", f)
	}
	isTrue(t, total.isoModes >= 3, "seeds ran isotope mode with %d other modes", total.isoModes)
	t.Logf("isotope mode: added %v, removed %v, changed %v, in systems %v; %d dead ids refused, %d outside a set; %d gone with their entity (%d left behind, %d purged, %d replaced); joins %v",
		total.isoAdds, total.isoRemoves, total.isoModifies, total.isoSys, total.isoDead, total.isoOutside, total.isoGone, total.isoLeft, total.isoPurged, total.isoReplaced, total.isoJoins)
}

// The component types of the model: two with values and a tag.
type fzA struct{ V int32 }
type fzB struct{ V uint8 }
type fzC struct{}

const (
	mA = 1 << iota
	mB
	mC
)

// Operation codes: the first byte of each step, modulo fzOpCount.
const (
	fzOpAdd             = iota // mask, path, value
	fzOpAddComp                // id, mask, path, value
	fzOpRemove                 // id, type, path
	fzOpDeleteComp             // id, type, path
	fzOpStrip                  // id, path
	fzOpDelete                 // id, path
	fzOpBulk                   // n, mask, path
	fzOpDeleteAny              // type, path
	fzOpJoin                   // selection mask, not mask, form
	fzOpModify                 // form, delta
	fzOpClear                  // type
	fzOpBulkAddComp            // n, mask, path, value, n ids
	fzOpDeleteMany             // n, path, n ids
	fzOpBulkDeleteComp         // n, type, path, n ids
	fzOpInSystem               // n, then n times: kind, id, value
	fzOpSortAs                 // follower type, leader type
	fzOpParallel               // on: whether the bulk calls take their parallel paths
	fzOpDeleteUnchecked        // n, path, after, value, then n times: id, mask deleted first
	// Whole-storage operations through a ViewMut (sparse_set_sort.go).
	fzOpSort   // type, form, path
	fzOpRetain // type, modulus, remainder, path
	fzOpDrain  // type, path
	// Spawn at an id and add-if-different (issue 53, items 4 and 5).
	fzOpSpawnAt     // id, generation step, path
	fzOpAddDistinct // id, type, path, value
	// Several components at once through views (issue 53, item 10).
	fzOpAddTo      // id, views, path, value
	fzOpRemoveFrom // id, views, path
	// Hooks and commands (issue 54).
	fzOpHooks    // on: set hooks on every type and the entities, or remove them
	fzOpCommands // n, then n times: kind, id, value
	fzOpCount
)

// fzRow is everything an entity has, for comparison.
type fzRow struct {
	HasA, HasB, HasC bool
	A                int32
	B                uint8
}

// fzModel is the oracle.
//
// The components EntitiesViewMut.DeleteUnchecked leaves behind stay in a,
// b and c under their dead id, as in the world, until a purge (see
// fzRun.purge): the ids they are under are in unpurged, and only those
// dead ids have components.
type fzModel struct {
	live     map[ecs.EntityID]bool
	a        map[ecs.EntityID]int32
	b        map[ecs.EntityID]uint8
	c        map[ecs.EntityID]bool
	issued   []ecs.EntityID    // every id ever returned, live or dead, in order
	gens     map[uint32]uint32 // the last generation issued for each slot
	unpurged []ecs.EntityID    // killed by DeleteUnchecked since the last purge
	replaced int               // leftovers takePlace deleted
	// Finalizer mode (see fzFinalizerByte): fzC is a finalizer. term is
	// the set of live entities deleted while they held a C (the world's
	// Terminating storage, but for what DeleteUnchecked leaves behind,
	// which is not compared); cGone is set when a C goes, by any means,
	// from any id: the world then has a Removed or Deleted event of fzC
	// waiting for the finalizer's observers, which run at the next sync
	// point (see fzRun.finSync).
	fin   bool
	term  map[ecs.EntityID]bool
	cGone bool
	// Requirement mode (see fzRequireByte): fzA requires fzB. insA is
	// the ids given an A they did not have, by any means, since the last
	// sync point, in order: the insertions the world fills at the next
	// one (see fzRun.reqSync).
	req  bool
	insA []ecs.EntityID
	// Initializer mode (see fzInitByte): fzB has an initializer reading
	// fzA. fresh is the ids created since the last sync point, in order
	// (see fzRun.initSync).
	init  bool
	fresh []ecs.EntityID
	later int // As given to entities past their creation's sync point
	// Isotope mode (see fzIsoByte): isos holds the isotopes of fzA by
	// discriminant and id, those DeleteUnchecked left under dead ids
	// included (a purge strips them, as the rest); discs the
	// discriminants with a storage in the world, in the order the world
	// created them. isoGone counts the isotopes strip deleted, and
	// isoReplaced those a new entity's isotope took the place of (see
	// putIso).
	iso                  bool
	isos                 map[fzIsoKey]int32
	discs                []fzDisc
	isoGone, isoReplaced int
}

// modal reports whether a mode with sync-point work is on: finalizer,
// requirement or initializer mode.
func (m *fzModel) modal() bool { return m.fin || m.req || m.init }

// putA gives id the A v, noting an insertion (id had none) for
// requirement mode.
func (m *fzModel) putA(id ecs.EntityID, v int32) {
	if _, had := m.a[id]; !had {
		if m.req {
			m.insA = append(m.insA, id)
		}
		if m.init && m.live[id] && !slices.Contains(m.fresh, id) {
			m.later++
		}
	}
	m.a[id] = v
}

// hasAB reports whether an id, live or dead, has both an A and a B: the
// world refuses, in requirement mode, to empty B's storage.
func (m *fzModel) hasAB() bool {
	for id := range m.a {
		if _, ok := m.b[id]; ok {
			return true
		}
	}
	return false
}

// keepsB reports whether requirement mode refuses to remove id's B: id
// (live, or dead with what DeleteUnchecked left) has an A and a B.
func (m *fzModel) keepsB(id ecs.EntityID) bool {
	_, hasA := m.a[id]
	_, hasB := m.b[id]
	return m.req && hasA && hasB
}

// fzMaxIDs bounds the ids one input may create, and fzMaxSteps its steps,
// so that the fuzzer spends its time on many short sequences rather than a
// few long ones (compare is linear in the ids, run once per step).
const (
	fzMaxIDs   = 200
	fzMaxSteps = 150
)

func (m *fzModel) row(id ecs.EntityID) fzRow {
	a, hasA := m.a[id]
	b, hasB := m.b[id]
	return fzRow{HasA: hasA, HasB: hasB, HasC: m.c[id], A: a, B: b}
}

func (m *fzModel) set(id ecs.EntityID, mask byte, v int32) {
	m.takePlace(id, mask)
	if mask&mA != 0 {
		m.putA(id, v)
	}
	if mask&mB != 0 {
		m.b[id] = uint8(v)
	}
	if mask&mC != 0 {
		m.c[id] = true
	}
}

func (m *fzModel) strip(id ecs.EntityID) {
	delete(m.a, id)
	delete(m.b, id)
	m.delC(id)
	delete(m.term, id) // World.Strip removes Terminating too
	m.stripIso(id)     // isotope storages are storages of the world too
}

// delC deletes id's C, noting the event the world raises for it.
func (m *fzModel) delC(id ecs.EntityID) {
	if m.c[id] {
		delete(m.c, id)
		m.cGone = true
	}
}

// clearC deletes every C, noting the events.
func (m *fzModel) clearC() {
	if len(m.c) != 0 {
		m.cGone = true
	}
	clear(m.c)
}

// kill deletes the live entity id with its components.
func (m *fzModel) kill(id ecs.EntityID) {
	delete(m.live, id)
	m.strip(id)
}

// doom is a deletion of the live entity id by a call that honours
// finalizers: in finalizer mode an entity holding a C is marked
// terminating instead (once: marking it again changes nothing). It
// reports whether id was deleted.
func (m *fzModel) doom(id ecs.EntityID) bool {
	if m.fin && m.c[id] {
		m.term[id] = true
		return false
	}
	m.kill(id)
	return true
}

// refusesC reports whether giving id a C is refused: finalizer mode, id
// terminating, and without a C (replacing the one it holds is allowed).
func (m *fzModel) refusesC(id ecs.EntityID) bool {
	return m.fin && m.term[id] && !m.c[id]
}

// stripMask deletes id's components of the types in mask.
func (m *fzModel) stripMask(id ecs.EntityID, mask byte) {
	if mask&mA != 0 {
		delete(m.a, id)
	}
	if mask&mB != 0 {
		delete(m.b, id)
	}
	if mask&mC != 0 {
		m.delC(id)
	}
}

// takePlace is what giving id components of the types in mask does to
// the leftovers of DeleteUnchecked: a leftover of one of those types under
// another id of id's index goes (a storage holds one entry per index, and
// the new component takes the leftover's place).
func (m *fzModel) takePlace(id ecs.EntityID, mask byte) {
	for _, u := range m.unpurged {
		if u.Index() != id.Index() || u == id {
			continue
		}
		m.replaced += bits(fzMask(m.row(u)) & mask)
		m.stripMask(u, mask)
	}
}

// leftovers returns how many components of the types in mask the ids
// killed by DeleteUnchecked still have.
func (m *fzModel) leftovers(mask byte) int {
	n := 0
	for _, u := range m.unpurged {
		n += bits(fzMask(m.row(u)) & mask)
	}
	return n
}

func bits(mask byte) int {
	return int(mask&mA) + int(mask&mB)>>1 + int(mask&mC)>>2
}

type fzStats struct {
	ops, deadRejected, reused int
	aliased, callsInEach      int
	parallel                  int
	perOp                     [fzOpCount]int
	// The leftovers of DeleteUnchecked: components left behind, those
	// purged (and purged by a change that then refused an id), those a
	// new entity's component replaced, and joins that yielded some.
	left, purged, purgedOnRefusal, replaced, joinsWithLeftovers int
	// Deletions of ids that form a run (consecutive indices of one
	// generation): storages they took whole, and storages they swept in
	// part, both by the run's entries rather than by the ids (see
	// runSweeps).
	wholeRuns, partRuns int
	// Finalizer mode: entities marked terminating, additions of a C
	// refused, terminating entities deleted at a sync point when their C
	// went, and of those, deletions that waited for the sync point
	// after changes through views from World.Borrow.
	marked, finRefused, finalized, finDeferred int
	// Requirement mode: Bs given at a sync point (and of those, fills
	// that waited for the sync point after changes through views from
	// World.Borrow); removals of a required B refused with an error, and
	// with a panic (views); removals of an A and its B together that
	// RemoveFrom2 allowed; borrows refused because a ViewMut[fzB] reads
	// A's storage (or a ViewMut[fzA] is held while one asks).
	reqFilled, reqDeferred, reqErrs, reqPanics, reqBoth, reqFrames int
	// Initializer mode: entities given their B by the initializer at a
	// sync point (and of those, fills that waited for the sync point
	// after a creation through views from World.Borrow); new entities
	// without an A there, which get none; entities given an A after the
	// sync point of their creation, which get none either.
	initFilled, initDeferred, initNoInput, initLater int
	// Isotope mode: each isotope operation (isoPerOp, by code less
	// fzOpCount); isotopes added by each path of fzOpIsoAdd, found and
	// removed by each path of fzOpIsoRemove; fzOpIsoModify's forms and
	// the calls of fzOpIsoInSystem by kind; dead ids the isotope
	// operations refused; panics of partial views asked for a
	// discriminant outside their set; isotopes that went with their
	// entity (deleted, stripped or purged: isoGone), those
	// DeleteUnchecked left behind, those purged, those a new entity's
	// isotope took the place of; compare's joins of each form that
	// yielded something; runs in isotope mode with another mode.
	isoPerOp                                 [fzOpIsoEnd - fzOpCount]int
	isoAdds, isoRemoves, isoModifies         [fzIsoPaths]int
	isoSys                                   [fzIsoKinds]int
	isoDead, isoOutside                      int
	isoGone, isoLeft, isoPurged, isoReplaced int
	isoJoins                                 [3]int
	isoModes                                 int
}

func (s *fzStats) add(o fzStats) {
	s.ops += o.ops
	s.deadRejected += o.deadRejected
	s.reused += o.reused
	s.aliased += o.aliased
	s.callsInEach += o.callsInEach
	s.parallel += o.parallel
	s.left += o.left
	s.purged += o.purged
	s.purgedOnRefusal += o.purgedOnRefusal
	s.replaced += o.replaced
	s.joinsWithLeftovers += o.joinsWithLeftovers
	s.wholeRuns += o.wholeRuns
	s.partRuns += o.partRuns
	s.marked += o.marked
	s.finRefused += o.finRefused
	s.finalized += o.finalized
	s.finDeferred += o.finDeferred
	s.reqFilled += o.reqFilled
	s.reqDeferred += o.reqDeferred
	s.reqErrs += o.reqErrs
	s.reqPanics += o.reqPanics
	s.reqBoth += o.reqBoth
	s.reqFrames += o.reqFrames
	s.initFilled += o.initFilled
	s.initDeferred += o.initDeferred
	s.initNoInput += o.initNoInput
	s.initLater += o.initLater
	for i := range s.perOp {
		s.perOp[i] += o.perOp[i]
	}
	for i := range s.isoPerOp {
		s.isoPerOp[i] += o.isoPerOp[i]
	}
	for i := range fzIsoPaths {
		s.isoAdds[i] += o.isoAdds[i]
		s.isoRemoves[i] += o.isoRemoves[i]
		s.isoModifies[i] += o.isoModifies[i]
	}
	for i := range s.isoSys {
		s.isoSys[i] += o.isoSys[i]
	}
	for i := range s.isoJoins {
		s.isoJoins[i] += o.isoJoins[i]
	}
	s.isoDead += o.isoDead
	s.isoOutside += o.isoOutside
	s.isoGone += o.isoGone
	s.isoLeft += o.isoLeft
	s.isoPurged += o.isoPurged
	s.isoReplaced += o.isoReplaced
	s.isoModes += o.isoModes
}

// fzReader hands out the input's bytes, then zeros.
type fzReader struct {
	data []byte
	i    int
}

func (r *fzReader) more() bool { return r.i < len(r.data) }

// peek returns the next byte without handing it out (0 at the end).
func (r *fzReader) peek() byte {
	if r.i >= len(r.data) {
		return 0
	}
	return r.data[r.i]
}

func (r *fzReader) next() byte {
	if r.i >= len(r.data) {
		return 0
	}
	b := r.data[r.i]
	r.i++
	return b
}

// fzRun holds one run of the differential test.
type fzRun struct {
	t     *testing.T
	par   bool // bulk calls take their parallel paths (fzOpParallel)
	w     *ecs.World
	m     *fzModel
	st    fzStats
	step  int
	trace []string
	// stepPurged: this step's purge deleted leftovers.
	stepPurged bool
	// workload is what the workload fzDeleteUnchecked's system does, set
	// before each run of it (added at the first).
	workload func(ecs.EntitiesViewMut, ecs.ViewMut[fzA], ecs.ViewMut[fzB], ecs.ViewMut[fzC])
	// hooks, when not nil, is what the hooks (fzOpHooks) saw: it must
	// match the storages and the live entities after every step.
	hooks *fzHookMirror
	// deferSync: in finalizer, requirement or initializer mode, this
	// step changed storages through views from World.Borrow only, whose
	// release is no sync point (see fzFinalizerByte). syncNext: a C went
	// in this step, and the world may have its events waiting still; the
	// next step begins with a sync point.
	deferSync, syncNext bool
}

// fzHookMirror is the world as the lifecycle hooks tell it: which
// entities have a component of each type (live ones, and those left
// behind by dead entities) and which entities are alive. Values are not
// compared: writes through pointers change them without a hook. A hook
// told of something that contradicts it (a second insertion, the removal
// of what is not there) records an error.
type fzHookMirror struct {
	a, b, c map[ecs.EntityID]bool
	live    map[ecs.EntityID]bool
	errs    []string
}

// mirrorHooks returns hooks of T that keep the set m in step.
func mirrorHooks[T any](h *fzHookMirror, m map[ecs.EntityID]bool) ecs.ComponentHooks[T] {
	return ecs.ComponentHooks[T]{
		OnInsert: func(id ecs.EntityID, c *T) {
			if m[id] {
				h.errs = append(h.errs, fmt.Sprintf("OnInsert %v, which has one", id))
			}
			m[id] = true
		},
		OnReplace: func(id ecs.EntityID, old T, c *T) {
			if !m[id] {
				h.errs = append(h.errs, fmt.Sprintf("OnReplace %v, which hooks did not see", id))
			}
		},
		OnRemove: func(id ecs.EntityID, c T) { h.gone("OnRemove", m, id) },
		OnDelete: func(id ecs.EntityID, c T) { h.gone("OnDelete", m, id) },
	}
}

func (h *fzHookMirror) gone(hook string, m map[ecs.EntityID]bool, id ecs.EntityID) {
	if !m[id] {
		h.errs = append(h.errs, fmt.Sprintf("%s %v, which hooks did not see", hook, id))
	}
	delete(m, id)
}

// keySet returns the set of m's keys.
func keySet[V any](m map[ecs.EntityID]V) map[ecs.EntityID]bool {
	s := make(map[ecs.EntityID]bool, len(m))
	for id := range m {
		s[id] = true
	}
	return s
}

// setHooks sets (on) or removes the hooks of every type and of the
// entities; set, they start from the model's world.
func (r *fzRun) setHooks(on bool) {
	// SetHooks is a World-level change: the first, of fzA, purges
	// DeleteUnchecked's leftovers, and the hook calls the purge queued
	// (if hooks were set) run when it ends, with the hooks set then (see
	// ecs.SetHooks): fzA's new hooks are told of the purge of A's
	// leftovers, fzB's and fzC's old ones of theirs.
	hooked, leftA := r.hooks != nil, keySet(r.m.a)
	r.purge()
	if !hooked { // no hooks: the purge queued no call
		leftA = keySet(r.m.a)
	}
	if !on {
		r.hooks = nil
		r.noErr("SetHooks", ecs.SetHooks(r.w, ecs.ComponentHooks[fzA]{}))
		r.noErr("SetHooks", ecs.SetHooks(r.w, ecs.ComponentHooks[fzB]{}))
		r.noErr("SetHooks", ecs.SetHooks(r.w, ecs.ComponentHooks[fzC]{}))
		r.noErr("SetEntityHooks", r.w.SetEntityHooks(ecs.EntityHooks{}))
		return
	}
	h := &fzHookMirror{a: leftA, b: keySet(r.m.b), c: keySet(r.m.c), live: maps.Clone(r.m.live)}
	r.hooks = h
	r.noErr("SetHooks", ecs.SetHooks(r.w, mirrorHooks[fzA](h, h.a)))
	r.noErr("SetHooks", ecs.SetHooks(r.w, mirrorHooks[fzB](h, h.b)))
	r.noErr("SetHooks", ecs.SetHooks(r.w, mirrorHooks[fzC](h, h.c)))
	r.noErr("SetEntityHooks", r.w.SetEntityHooks(ecs.EntityHooks{
		OnCreate: func(id ecs.EntityID) {
			if h.live[id] {
				h.errs = append(h.errs, fmt.Sprintf("OnCreate %v, alive already", id))
			}
			h.live[id] = true
		},
		OnDelete: func(id ecs.EntityID) {
			if !h.live[id] {
				h.errs = append(h.errs, fmt.Sprintf("OnDelete %v, not alive", id))
			}
			delete(h.live, id)
		},
	}))
}

// compareHooks checks that the hooks saw what the model holds.
func (r *fzRun) compareHooks() {
	h := r.hooks
	if h == nil {
		return
	}
	for _, e := range h.errs {
		r.t.Errorf("hooks: %s", e)
	}
	h.errs = nil
	if !maps.Equal(h.a, keySet(r.m.a)) || !maps.Equal(h.b, keySet(r.m.b)) || !maps.Equal(h.c, r.m.c) {
		r.t.Errorf("hooks saw A %v B %v C %v, model A %v B %v C %v", h.a, h.b, h.c, r.m.a, r.m.b, r.m.c)
	}
	if !maps.Equal(h.live, r.m.live) {
		r.t.Errorf("entity hooks saw %v alive, model %v", h.live, r.m.live)
	}
}

// commands records n commands through a Commands view in one system run,
// then checks what applying them did against the model, which applies
// them in order at the end of the run: creations (the ids reserved),
// additions (refused for an entity dead by then), entity deletions and
// component removals (no-ops for what is gone; in requirement mode, the
// deletion of a B refused while the entity has an A).
func (r *fzRun) commands(in *fzReader) {
	n := int(in.next() % 8)
	type rec struct {
		kind byte
		id   ecs.EntityID
		ref  int // the command that creates id, or -1
		v    int32
	}
	var recs []rec
	for range n {
		kind, sel, v := in.next()%6, in.next(), int32(int8(in.next()))
		c := rec{kind: kind, ref: -1, v: v}
		if kind != 0 && sel%2 == 0 { // the entity of an earlier creation, if any
			for k := len(recs) - 1; k >= 0; k-- {
				if recs[k].kind == 0 {
					c.ref = k
					break
				}
			}
		}
		if c.ref < 0 {
			c.id = r.pickID(sel)
		}
		recs = append(recs, c)
	}
	created := 0
	for _, c := range recs {
		if c.kind == 0 {
			created++
		}
	}
	if len(r.m.issued)+created > fzMaxIDs {
		r.logf("commands: skipped, %d ids issued", len(r.m.issued))
		return
	}
	err := r.w.Run(func(cmds ecs.Commands) {
		a, b := ecs.CommandsFor[fzA](cmds), ecs.CommandsFor[fzB](cmds)
		for i := range recs {
			c := &recs[i]
			if c.ref >= 0 {
				c.id = recs[c.ref].id
			}
			switch c.kind {
			case 0:
				c.id = cmds.AddEntity()
			case 1:
				a.Add(c.id, fzA{c.v})
			case 2:
				b.Add(c.id, fzB{uint8(c.v)})
			case 3:
				cmds.DeleteEntity(c.id)
			case 4:
				a.Remove(c.id)
			case 5:
				b.Delete(c.id)
			}
		}
	})
	r.logf("commands %v", recs)
	if len(recs) > 0 {
		r.purge() // the apply is a World-level change; nothing recorded, no apply
	}
	// The reserved entities come alive as the apply starts, before any
	// command applies: a command recorded earlier may name them too.
	for _, c := range recs {
		if c.kind == 0 {
			r.issue(c.id)
		}
	}
	failed, first, dead := 0, -1, 0
	var firstKind error // what the first failure wraps
	fail := func(i int, kind error) {
		if first < 0 {
			first, firstKind = i, kind
		}
		failed++
	}
	for i, c := range recs {
		switch c.kind {
		case 0:
		case 1, 2:
			if !r.m.live[c.id] {
				fail(i, ecs.ErrDeadEntity)
				dead++
				continue
			}
			if c.kind == 1 {
				r.m.putA(c.id, c.v)
			} else {
				r.m.b[c.id] = uint8(c.v)
			}
		case 3:
			if r.m.live[c.id] {
				r.doom(c.id)
			}
		case 4:
			if r.m.live[c.id] {
				delete(r.m.a, c.id)
			}
		case 5:
			if r.m.keepsB(c.id) && r.m.live[c.id] { // requirement mode: refused
				fail(i, ecs.ErrRequired)
				r.st.reqErrs++
				continue
			}
			if r.m.live[c.id] {
				delete(r.m.b, c.id)
			}
		}
	}
	if first < 0 {
		r.noErr("commands", err)
		return
	}
	var ce *ecs.CommandError
	if !errors.As(err, &ce) || !errors.Is(err, firstKind) || ce.Index != first || ce.More != failed-1 || ce.ID != recs[first].id {
		r.t.Errorf("commands: error %v, want a *CommandError wrapping %v for command %d (%d failed)", err, firstKind, first, failed)
	}
	if firstKind == ecs.ErrRequired {
		var re *ecs.RequiredError
		if !errors.As(err, &re) || re.Op != "DeleteComponent" || re.ID != recs[first].id {
			r.t.Errorf("commands: error %v, want a *RequiredError of DeleteComponent for %v", err, recs[first].id)
		}
	}
	r.st.deadRejected += dead
}

// purge is the model of a World-level change (once it has its borrow,
// whatever it then does) or of the borrow of an AllStoragesViewMut: the
// components DeleteUnchecked left behind go. Call it where the world
// would purge, before the model checks what the call saw.
func (r *fzRun) purge() {
	n := r.m.leftovers(mA | mB | mC)
	for _, id := range r.m.unpurged {
		r.st.isoPurged += r.m.isoCount(id)
		r.m.strip(id)
	}
	r.m.unpurged = r.m.unpurged[:0]
	if n > 0 {
		r.st.purged += n
		r.stepPurged = true
	}
}

// fzFinalizerByte, as the input's first byte, turns finalizer mode on:
// the run declares fzC a finalizer (ecs.SetFinalizer) before its first
// step, and the steps start at the next byte. Other inputs, those of the
// corpus written before finalizers included, keep their meaning.
//
// In finalizer mode the model marks an entity holding a C terminating
// where the world would delete it (World.DeleteEntity,
// AllStoragesViewMut.DeleteEntity, DeleteEntities, DeleteAny, commands),
// refuses additions of a C to a terminating entity that has none, and
// deletes a terminating entity once its C has gone, at the next sync
// point (fzRun.finSync). Every operation of the harness ends at a sync
// point (the end of a World-level call or of World.Run), but for those
// that change storages only through views from World.Borrow, whose
// release is none: the model then leaves the deletions (and the purge
// the finalizer's observers make, see finSync) waiting, compare checks
// that the world did too, and the next step begins with a sync point of
// its own, an empty World.Run. (Which World-level call is the next sync
// point depends on whether it raises events itself: the model does not
// follow that.)
const fzFinalizerByte = 255

// finSync is the model of a sync point in finalizer mode: the observers
// of the finalizer's Removed and Deleted events run if a C went since the
// last one, and each borrows an AllStoragesViewMut (which purges
// DeleteUnchecked's leftovers) to delete the entities that are
// terminating and hold no C any more.
func (r *fzRun) finSync() {
	m := r.m
	if !m.fin {
		return
	}
	for m.cGone { // a purge may delete leftover Cs: more events
		m.cGone = false
		r.syncNext = true
		r.purge()
	}
	for id := range m.term {
		if !m.c[id] {
			if !m.live[id] {
				r.t.Errorf("model: %v terminating but dead", id)
			}
			m.kill(id)
			r.st.finalized++
		}
	}
}

// fzRequireByte, as the input's first byte, turns requirement mode on:
// the run declares that fzA requires fzB (ecs.Require, with fzReqB as
// the B) before its first step, and the steps start at the next byte.
//
// In requirement mode the model notes every insertion of an A (into an
// id that had none, by any path: fzModel.putA), and at the next sync
// point gives each of those ids that is alive, has its A still and no B,
// the B fzReqB (fzRun.reqSync). The fill is a World-level change of its
// own, which purges DeleteUnchecked's leftovers. Sync points are those of
// finalizer mode (see fzFinalizerByte): the end of every step, but for
// those that add through views from World.Borrow, whose release is none;
// the next step then begins with an empty World.Run.
//
// Removing a B from an id that has an A too is refused, changing
// nothing: with a *RequiredError from Remove, DeleteComponent,
// BulkDeleteComponent (after their refusal of dead ids), Retain and the
// Commands that call them; with a panic of one from ViewMut.Remove,
// Delete, Clear, Drain and RemoveFrom2 (which may take the A and the B
// together). Views do not check liveness: a dead id with both, left by
// DeleteUnchecked, is refused too. Deleting entities and Strip are never
// refused. A ViewMut[fzB] borrows A's storage shared: from World.Borrow,
// it keeps another ViewMut[fzA] from being borrowed, and is not borrowed
// beside one (fzRun.frames).
const fzRequireByte = 254

// fzReqB is the B of requirement mode's fills.
func fzReqB() fzB { return fzB{V: 0xA5} }

// fzInitByte, as the input's first byte, turns initializer mode on: the
// run gives fzB the initializer fzInitB, reading fzA
// (ecs.SetInitializer1), before its first step, and the steps start at
// the next byte.
//
// In initializer mode the model notes every entity created (fzRun.issue:
// AddEntity*, the bulk creations, Commands.AddEntity, creations through
// views and AllStoragesViewMut, SpawnAt), and at the next sync point
// gives each of them that is alive, has an A and no B the B fzInitB of
// its A then (fzRun.initSync). Entities given an A after that sync point
// get no B from it. At the end of World.Run (and of a workload's run) the
// initializers run in a World-level change, which purges
// DeleteUnchecked's leftovers. Sync points are those of requirement mode.
const fzInitByte = 253

// fzInitB is initializer mode's initializer of fzB.
func fzInitB(a fzA) fzB { return fzB{V: uint8(a.V*3 + 1)} }

// sync is the model of a sync point: that of the run's mode.
func (r *fzRun) sync() {
	r.finSync()
	r.reqSync()
	r.initSync()
}

// reqSync is the model of a sync point in requirement mode: if As were
// inserted since the last one, the world fills them in a World-level
// change (which purges DeleteUnchecked's leftovers first), giving each
// of their ids that is alive, has an A and no B, the B fzReqB.
func (r *fzRun) reqSync() {
	m := r.m
	if !m.req || len(m.insA) == 0 {
		return
	}
	ids := m.insA
	m.insA = nil
	r.purge()
	for _, id := range ids {
		if _, hasA := m.a[id]; !m.live[id] || !hasA {
			continue
		}
		if _, hasB := m.b[id]; hasB {
			continue
		}
		m.b[id] = fzReqB().V
		r.st.reqFilled++
	}
}

// initSync is the model of a sync point in initializer mode: if
// entities were created since the last one, the initializer gives each
// of them that is alive, has an A and no B, the B fzInitB of its A. At
// the end of World.Run it runs in a World-level change, which purges
// DeleteUnchecked's leftovers first (a World-level call has purged them
// already as it began).
func (r *fzRun) initSync() {
	m := r.m
	if !m.init || len(m.fresh) == 0 {
		return
	}
	ids := m.fresh
	m.fresh = nil
	r.purge()
	for _, id := range ids {
		if !m.live[id] {
			continue
		}
		a, hasA := m.a[id]
		if _, hasB := m.b[id]; hasB {
			continue
		}
		if !hasA {
			r.st.initNoInput++
			continue
		}
		m.b[id] = fzInitB(fzA{a}).V
		r.st.initFilled++
	}
}

// runModel decodes data into operations and applies them to a world and to
// the model, comparing after every step.
func runModel(t *testing.T, data []byte, verbose bool) fzStats {
	t.Helper()
	r := &fzRun{t: t, w: ecs.NewWorld(), m: &fzModel{
		live: map[ecs.EntityID]bool{}, gens: map[uint32]uint32{}, a: map[ecs.EntityID]int32{}, b: map[ecs.EntityID]uint8{}, c: map[ecs.EntityID]bool{},
		term: map[ecs.EntityID]bool{}, isos: map[fzIsoKey]int32{},
	}}
	// Joins re-align the storages at the next sync point from a few
	// misses: the model's small worlds reach re-alignment.
	ecs.SetAlignMinMisses(r.w, 1)
	in := &fzReader{data: data}
	if in.peek() == fzIsoByte {
		in.next()
		r.m.iso = true
		r.logf("isotope mode: isotopes of fzA by fzDisc")
		if p := in.peek(); p == fzFinalizerByte || p == fzRequireByte || p == fzInitByte {
			r.st.isoModes++
		}
	}
	// Inputs of another first byte decode as before isotope mode: the
	// mode bytes below are their first.
	if in.peek() == fzFinalizerByte {
		in.next()
		r.m.fin = true
		r.logf("finalizer mode: fzC is a finalizer")
		r.noErr("SetFinalizer", ecs.SetFinalizer[fzC](r.w))
		if err := r.w.Run(func(ecs.ViewMut[ecs.Terminating]) {}); !errors.Is(err, ecs.ErrInvalidView) {
			t.Errorf("ViewMut[ecs.Terminating]: %v, want ErrInvalidView", err)
		}
	}
	if in.peek() == fzRequireByte {
		in.next()
		r.m.req = true
		r.logf("requirement mode: fzA requires fzB")
		r.noErr("Require", ecs.Require[fzA](r.w, fzReqB))
	}
	if in.peek() == fzInitByte {
		in.next()
		r.m.init = true
		r.logf("initializer mode: fzB is made from fzA")
		r.noErr("SetInitializer1", ecs.SetInitializer1(r.w, fzInitB))
	}
	// Bound the work per input: the fuzzer should explore sequences, not
	// spend its time on huge ones.
	for r.step = 0; in.more() && r.step < fzMaxSteps; r.step++ {
		if r.deferSync || r.syncNext {
			// The changes of the last step through views from
			// World.Borrow wait for a sync point, and events of C
			// raised by calls that are none (a purge by a World-level
			// call that raises no event itself) may still wait: make
			// one.
			deferred := r.deferSync
			r.deferSync, r.syncNext = false, false
			if deferred {
				r.logf("sync point (an empty World.Run)")
			}
			before, reqBefore, initBefore := r.st.finalized, r.st.reqFilled, r.st.initFilled
			r.run("sync", func() {})
			r.sync()
			if deferred {
				r.st.finDeferred += r.st.finalized - before
				r.st.reqDeferred += r.st.reqFilled - reqBefore
				r.st.initDeferred += r.st.initFilled - initBefore
			}
		}
		ops := fzOpCount
		if r.m.iso {
			ops = fzOpIsoEnd
		}
		op := int(in.next()) % ops
		r.stepPurged = false
		r.st.ops++
		if op < fzOpCount {
			r.st.perOp[op]++
		} else {
			r.st.isoPerOp[op-fzOpCount]++
		}
		if r.par {
			// Bulk calls over two ids or more take the paths that
			// real worlds take from 65,536 ids.
			restore := ecs.SetBulkParallelMin(2)
			r.apply(op, in)
			restore()
		} else {
			r.apply(op, in)
		}
		if !r.deferSync {
			r.sync()
		}
		if verbose {
			t.Log(r.trace[len(r.trace)-1])
		}
		r.compare()
		if t.Failed() {
			t.Fatalf("after step %d; steps so far:\n%s", r.step, joinLines(r.trace))
		}
	}
	r.st.replaced = r.m.replaced
	r.st.initLater = r.m.later
	r.st.isoGone = r.m.isoGone
	r.st.isoReplaced = r.m.isoReplaced
	return r.st
}

func joinLines(s []string) string {
	out := ""
	for i, l := range s {
		out += fmt.Sprintf("  %3d %s\n", i, l)
	}
	return out
}

func (r *fzRun) logf(format string, args ...any) {
	r.trace = append(r.trace, fmt.Sprintf(format, args...))
}

// pickID turns a selector byte into an id: most often one of the ids issued
// so far (live or dead), else a never-issued id (an index past every slot, or
// a live slot with a future generation), or NullID.
func (r *fzRun) pickID(sel byte) ecs.EntityID {
	n := len(r.m.issued)
	switch {
	case sel == 255:
		return ecs.NullID
	case sel == 249: // the largest index but NullID's
		return fzForge(math.MaxUint32-1, 0)
	case sel >= 250 && n > 0: // a generation not issued yet for a used slot
		id := r.m.issued[int(sel)%n]
		return fzForge(id.Index(), id.Generation()+7)
	case sel >= 240:
		return fzForge(uint32(n+int(sel)), 0) // past every slot
	case n == 0:
		return fzForge(uint32(sel), 0)
	default:
		return r.m.issued[int(sel)%n]
	}
}

// fzForge builds an id from its parts, as a forger (or a bug) would: ids
// are only ever issued by a world, so this is how tests get never-issued
// ones.
func fzForge(index, gen uint32) ecs.EntityID {
	return ecs.EntityID(uint64(gen)<<32 | uint64(index))
}

// issue records a new id from the world, checking it is live-new: never
// issued before (a deleted entity's id is never handed out again).
func (r *fzRun) issue(id ecs.EntityID) {
	if gen, used := r.m.gens[id.Index()]; used {
		r.st.reused++
		if gen >= id.Generation() {
			r.t.Errorf("slot %d reused with generation %d after %d: %v issued again", id.Index(), id.Generation(), gen, id)
		}
	}
	if id.IsNull() {
		r.t.Errorf("NullID issued")
	}
	r.m.gens[id.Index()] = id.Generation()
	r.m.issued = append(r.m.issued, id)
	r.m.live[id] = true
	if r.m.init {
		r.m.fresh = append(r.m.fresh, id)
	}
}

// dead checks that err reports id as not alive.
func (r *fzRun) dead(op string, id ecs.EntityID, err error) {
	r.t.Helper()
	var ee *ecs.EntityError
	if !errors.Is(err, ecs.ErrDeadEntity) || !errors.As(err, &ee) || ee.ID != id {
		r.t.Errorf("%s(%v) on a dead id: got error %v, want an *EntityError for it", op, id, err)
		return
	}
	r.st.deadRejected++
	if r.stepPurged {
		r.st.purgedOnRefusal++
	}
}

func (r *fzRun) noErr(op string, err error) {
	r.t.Helper()
	if err != nil {
		r.t.Errorf("%s: unexpected error %v", op, err)
	}
}

// run runs a system, failing on any error.
func (r *fzRun) run(op string, sys any) {
	r.t.Helper()
	r.noErr(op, r.w.Run(sys))
}

func (r *fzRun) apply(op int, in *fzReader) {
	switch op {
	case fzOpIsoAdd:
		r.isoAdd(r.pickID(in.next()), fzDisc(in.next()%fzDiscs), in.next()%fzIsoPaths, int32(int8(in.next())))
	case fzOpIsoRemove:
		r.isoRemove(r.pickID(in.next()), fzDisc(in.next()%fzDiscs), in.next()%fzIsoPaths)
	case fzOpIsoModify:
		r.isoModify(in.next()%fzIsoPaths, fzDisc(in.next()%fzDiscs), int32(int8(in.next())))
	case fzOpIsoInSystem:
		r.isoInSystem(in, int(in.next()%8)+1)
	case fzOpHooks:
		on := in.next()%2 == 0
		r.logf("hooks on=%v", on)
		r.setHooks(on)
	case fzOpCommands:
		r.commands(in)
	case fzOpAdd:
		mask, path, v := in.next()%8, in.next(), int32(int8(in.next()))
		if len(r.m.issued) >= fzMaxIDs {
			r.logf("add: skipped, %d ids issued", fzMaxIDs)
			return
		}
		id := r.addEntity(mask, path, v)
		r.logf("add mask=%03b path=%d v=%d -> %v", mask, path%4, v, id)
		r.issue(id)
		r.m.set(id, mask, v)
	case fzOpAddComp:
		id, mask, path, v := r.pickID(in.next()), in.next()%7+1, in.next(), int32(int8(in.next()))
		r.logf("addComponent %v mask=%03b path=%d v=%d", id, mask, path%2, v)
		err := r.addComponent(id, mask, path, v)
		if !r.m.live[id] {
			r.dead("AddComponent", id, err)
			return
		}
		if mask&mC != 0 && r.m.refusesC(id) {
			r.finRefused("AddComponent", id, err)
			if path%2 == 1 { // views, one at a time: A and B were added
				r.m.set(id, mask&^mC, v)
			}
			return
		}
		r.noErr("AddComponent", err)
		r.m.set(id, mask, v)
	case fzOpRemove, fzOpDeleteComp:
		id, typ, path := r.pickID(in.next()), in.next()%3, in.next()%2
		r.logf("%s %v type=%d path=%d", map[bool]string{true: "remove", false: "deleteComponent"}[op == fzOpRemove], id, typ, path)
		r.removeOrDelete(op == fzOpRemove, id, typ, path)
	case fzOpStrip:
		id, path := r.pickID(in.next()), in.next()%3
		r.logf("strip %v path=%d", id, path)
		r.purge() // a World-level change, or an AllStoragesViewMut
		var err error
		switch path {
		case 0:
			err = r.w.Strip(id)
		case 1:
			err = ecs.Strip(r.w, id)
		default:
			r.run("strip", func(all ecs.AllStoragesViewMut) { err = all.Strip(id) })
		}
		if !r.m.live[id] {
			r.dead("Strip", id, err)
			return
		}
		r.noErr("Strip", err)
		r.m.strip(id)
	case fzOpDelete:
		id, path := r.pickID(in.next()), in.next()%4
		r.logf("delete %v path=%d", id, path)
		r.deleteEntity(id, path)
	case fzOpBulk:
		n, mask, path := int(in.next()%9), in.next()%8, in.next()%2
		n = min(n, fzMaxIDs-len(r.m.issued))
		r.logf("bulk n=%d mask=%03b path=%d", n, mask, path)
		r.bulk(n, mask, path)
	case fzOpDeleteAny:
		typ, path := in.next()%3, in.next()%2
		r.logf("deleteAny type=%d path=%d", typ, path)
		r.purge() // a World-level change, or an AllStoragesViewMut
		r.deleteAny(typ, path)
	case fzOpJoin:
		sel, not, form := in.next()%8, in.next()%8, in.next()
		if sel == 0 {
			sel = mA
		}
		not &^= sel
		r.logf("join sel=%03b not=%03b form=%d", sel, not, form%8)
		r.join(sel, not, form)
	case fzOpModify:
		form, delta := in.next()%4, int32(int8(in.next()))
		r.logf("modify form=%d delta=%d", form, delta)
		r.modify(form, delta)
	case fzOpBulkAddComp:
		n, mask, path, v := int(in.next()%6), in.next()%7+1, in.next()%2, int32(int8(in.next()))
		ids := r.pickIDs(in, n)
		r.logf("bulkAddComponent %v mask=%03b path=%d v=%d", ids, mask, path, v)
		r.purge() // a World-level change, or an AllStoragesViewMut
		r.bulkAddComponent(ids, mask, path, v)
	case fzOpDeleteMany:
		n, path := int(in.next()%6), in.next()%4
		ids := r.pickIDs(in, n)
		if path == 3 {
			r.deleteAliased(n, in.next()%3)
			return
		}
		r.logf("deleteEntities %v path=%d", ids, path)
		r.purge() // a World-level change, or an AllStoragesViewMut
		r.deleteEntities(ids, path)
	case fzOpBulkDeleteComp:
		n, typ, path := int(in.next()%6), in.next()%3, in.next()%2
		ids := r.pickIDs(in, n)
		r.logf("bulkDeleteComponent %v type=%d path=%d", ids, typ, path)
		r.purge() // a World-level change, or an AllStoragesViewMut
		r.bulkDeleteComponent(ids, typ, path)
	case fzOpInSystem:
		r.inSystem(in, int(in.next()%8)+1)
	case fzOpDeleteUnchecked:
		n, path, after, v := int(in.next()%3)+1, in.next()%3, in.next()%8, int32(int8(in.next()))
		r.deleteUnchecked(in, n, path, after, v)
	case fzOpSpawnAt:
		r.spawnAt(r.pickID(in.next()), in.next()%4, in.next()%2)
	case fzOpAddDistinct:
		r.addDistinct(r.pickID(in.next()), in.next()%2, in.next()%2, int32(int8(in.next()%4)))
	case fzOpAddTo:
		r.addTo(r.pickID(in.next()), in.next()%5, in.next()%2, int32(int8(in.next())))
	case fzOpRemoveFrom:
		r.removeFrom(r.pickID(in.next()), in.next()%5, in.next()%2)
	case fzOpSortAs:
		f, l := in.next()%3, in.next()%3
		r.logf("sortAs follower=%d leader=%d", f, l)
		r.sortAs(f, l)
	case fzOpSort:
		typ, form, path := in.next()%3, in.next()%4, in.next()%2
		r.logf("sort type=%d form=%d path=%d", typ, form, path)
		r.sortStorage(typ, form, path)
	case fzOpRetain:
		typ, mod, rem, path := in.next()%3, int32(in.next()%4)+2, int32(in.next()), in.next()%2
		r.logf("retain type=%d mod=%d rem=%d path=%d", typ, mod, rem%mod, path)
		r.retain(typ, mod, rem%mod, path)
	case fzOpDrain:
		typ, path := in.next()%3, in.next()%2
		r.logf("drain type=%d path=%d", typ, path)
		r.drain(typ, path)
	case fzOpParallel:
		r.par = in.next()%2 == 1
		r.logf("parallel bulk paths: %v", r.par)
		if r.par {
			r.st.parallel++
		}
	case fzOpClear:
		typ := in.next() % 3
		r.logf("clear type=%d", typ)
		// Clear in a system empties the storage, leftovers included,
		// without a purge. In requirement mode B's is refused, with a
		// panic, while an id has both an A and a B.
		var p any
		r.run("clear", func(va ecs.ViewMut[fzA], vb ecs.ViewMut[fzB], vc ecs.ViewMut[fzC]) {
			p = vmPanicValue(func() {
				switch typ {
				case 0:
					va.Clear()
				case 1:
					vb.Clear()
				default:
					vc.Clear()
				}
			})
		})
		if typ == 1 && r.m.req && r.m.hasAB() {
			r.requiredPanic("ViewMut[ecs_test.fzB].Clear", ecs.NullID, p)
			return
		}
		if p != nil {
			r.t.Errorf("Clear of type %d panicked with %v", typ, p)
			return
		}
		switch typ {
		case 0:
			clear(r.m.a)
		case 1:
			clear(r.m.b)
		default:
			r.m.clearC()
		}
	}
}

// addEntity creates an entity with the components in mask, through one of
// four paths: the World's AddEntityN (in two argument orders), a system with
// EntitiesViewMut and ViewMut.AddEntity / AddComponentUnchecked, or an
// AllStoragesViewMut.
func (r *fzRun) addEntity(mask byte, path byte, v int32) ecs.EntityID {
	a, b, c := fzA{v}, fzB{uint8(v)}, fzC{}
	var id ecs.EntityID
	var err error
	if path%4 != 2 { // a World-level change, or an AllStoragesViewMut
		r.purge()
	}
	switch path % 4 {
	case 0, 1:
		rev := path%4 == 1
		switch mask {
		case 0:
			id, err = r.w.AddEntity()
		case mA:
			id, err = ecs.AddEntity1(r.w, a)
		case mB:
			id, err = ecs.AddEntity1(r.w, b)
		case mC:
			id, err = ecs.AddEntity1(r.w, c)
		case mA | mB:
			if rev {
				id, err = ecs.AddEntity2(r.w, b, a)
			} else {
				id, err = ecs.AddEntity2(r.w, a, b)
			}
		case mA | mC:
			if rev {
				id, err = ecs.AddEntity2(r.w, c, a)
			} else {
				id, err = ecs.AddEntity2(r.w, a, c)
			}
		case mB | mC:
			if rev {
				id, err = ecs.AddEntity2(r.w, c, b)
			} else {
				id, err = ecs.AddEntity2(r.w, b, c)
			}
		default:
			if rev {
				id, err = ecs.AddEntity3(r.w, c, a, b)
			} else {
				id, err = ecs.AddEntity3(r.w, a, b, c)
			}
		}
	case 2:
		r.run("addEntity", func(ents ecs.EntitiesViewMut, va ecs.ViewMut[fzA], vb ecs.ViewMut[fzB], vc ecs.ViewMut[fzC]) {
			// The first component through ViewMut.AddEntity, the others
			// unchecked: the entity is known to be alive.
			first := true
			add := func(bit byte, withEntity func() ecs.EntityID, unchecked func() error) {
				if mask&bit == 0 {
					return
				}
				if first {
					id, first = withEntity(), false
					return
				}
				if e := unchecked(); e != nil {
					err = e
				}
			}
			add(mA, func() ecs.EntityID { return va.AddEntity(ents, a) }, func() error { return va.AddComponentUnchecked(id, a) })
			add(mB, func() ecs.EntityID { return vb.AddEntity(ents, b) }, func() error { return vb.AddComponentUnchecked(id, b) })
			add(mC, func() ecs.EntityID { return vc.AddEntity(ents, c) }, func() error { return vc.AddComponentUnchecked(id, c) })
			if first {
				id = ents.AddEntity()
			}
		})
	default:
		r.run("addEntity", func(all ecs.AllStoragesViewMut) {
			id = all.AddEntity()
			if mask&mA != 0 {
				err = errors.Join(err, ecs.AddComponent1(all, id, a))
			}
			if mask&mB != 0 {
				err = errors.Join(err, ecs.AddComponent1(all, id, b))
			}
			if mask&mC != 0 {
				err = errors.Join(err, ecs.AddComponent1(all, id, c))
			}
		})
	}
	r.noErr("addEntity", err)
	return id
}

// addComponent adds the components in mask to id through the World's
// AddComponentN, or through ViewMut.AddComponent with an EntitiesView.
func (r *fzRun) addComponent(id ecs.EntityID, mask, path byte, v int32) error {
	a, b, c := fzA{v}, fzB{uint8(v)}, fzC{}
	if path%2 == 0 {
		r.purge() // a World-level change: it purges, then refuses a dead id
		switch mask {
		case mA:
			return ecs.AddComponent1(r.w, id, a)
		case mB:
			return ecs.AddComponent1(r.w, id, b)
		case mC:
			return ecs.AddComponent1(r.w, id, c)
		case mA | mB:
			return ecs.AddComponent2(r.w, id, b, a)
		case mA | mC:
			return ecs.AddComponent2(r.w, id, a, c)
		case mB | mC:
			return ecs.AddComponent2(r.w, id, c, b)
		default:
			return ecs.AddComponent3(r.w, id, b, c, a)
		}
	}
	var err error
	r.run("addComponent", func(ents ecs.EntitiesView, va ecs.ViewMut[fzA], vb ecs.ViewMut[fzB], vc ecs.ViewMut[fzC]) {
		if mask&mA != 0 {
			err = firstErr(err, va.AddComponent(ents, id, a))
		}
		if mask&mB != 0 {
			err = firstErr(err, vb.AddComponent(ents, id, b))
		}
		if mask&mC != 0 {
			err = firstErr(err, vc.AddComponent(ents, id, c))
		}
	})
	return err
}

func firstErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// removeOrDelete removes (returning it) or deletes id's component of one
// type, through the World's Remove/DeleteComponent or a ViewMut.
func (r *fzRun) removeOrDelete(remove bool, id ecs.EntityID, typ, path byte) {
	if path == 0 {
		r.purge() // a World-level change: it purges, then refuses a dead id
	}
	alive := r.m.live[id]
	row := r.m.row(id)
	var had bool
	var gotA int32
	var gotB uint8
	var err error
	if path == 0 {
		switch typ {
		case 0:
			if remove {
				var v fzA
				v, had, err = ecs.Remove[fzA](r.w, id)
				gotA = v.V
			} else {
				had, err = ecs.DeleteComponent[fzA](r.w, id)
			}
		case 1:
			if remove {
				var v fzB
				v, had, err = ecs.Remove[fzB](r.w, id)
				gotB = v.V
			} else {
				had, err = ecs.DeleteComponent[fzB](r.w, id)
			}
		default:
			if remove {
				_, had, err = ecs.Remove[fzC](r.w, id)
			} else {
				had, err = ecs.DeleteComponent[fzC](r.w, id)
			}
		}
		if !alive {
			r.dead("Remove/DeleteComponent", id, err)
			if had {
				r.t.Errorf("Remove/DeleteComponent of dead %v reported a component", id)
			}
			return
		}
		if typ == 1 && r.m.keepsB(id) {
			r.required(map[bool]string{true: "Remove", false: "DeleteComponent"}[remove], id, err)
			if had {
				r.t.Errorf("Remove/DeleteComponent of %v's required B reported a component", id)
			}
			return
		}
		r.noErr("Remove/DeleteComponent", err)
	} else {
		// Views do not check liveness: a dead id has no component, but
		// for what DeleteUnchecked left behind under it.
		var p any
		r.run("removeOrDelete", func(va ecs.ViewMut[fzA], vb ecs.ViewMut[fzB], vc ecs.ViewMut[fzC]) {
			p = vmPanicValue(func() { removeOrDeleteIn(remove, id, typ, va, vb, vc, &had, &gotA, &gotB) })
		})
		if typ == 1 && r.m.keepsB(id) {
			r.requiredPanic(map[bool]string{true: "ViewMut[ecs_test.fzB].Remove", false: "ViewMut[ecs_test.fzB].Delete"}[remove], id, p)
			if had {
				r.t.Errorf("ViewMut.Remove/Delete of %v's required B reported a component", id)
			}
			return
		}
		if p != nil {
			r.t.Errorf("ViewMut.Remove/Delete of type %d of %v panicked with %v", typ, id, p)
			return
		}
	}
	want := [3]bool{row.HasA, row.HasB, row.HasC}[typ]
	if had != want {
		r.t.Errorf("remove/delete type %d of %v: reported %v, model has %v", typ, id, had, want)
	}
	if remove && had {
		switch typ {
		case 0:
			equal(r.t, "removed A", gotA, row.A)
		case 1:
			equal(r.t, "removed B", gotB, row.B)
		}
	}
	switch typ {
	case 0:
		delete(r.m.a, id)
	case 1:
		delete(r.m.b, id)
	default:
		r.m.delC(id)
	}
}

// removeOrDeleteIn is removeOrDelete's removal through views.
func removeOrDeleteIn(remove bool, id ecs.EntityID, typ byte, va ecs.ViewMut[fzA], vb ecs.ViewMut[fzB], vc ecs.ViewMut[fzC], had *bool, gotA *int32, gotB *uint8) {
	switch typ {
	case 0:
		if remove {
			var v fzA
			v, *had = va.Remove(id)
			*gotA = v.V
		} else {
			*had = va.Delete(id)
		}
	case 1:
		if remove {
			var v fzB
			v, *had = vb.Remove(id)
			*gotB = v.V
		} else {
			*had = vb.Delete(id)
		}
	default:
		if remove {
			_, *had = vc.Remove(id)
		} else {
			*had = vc.Delete(id)
		}
	}
}

// deleteEntity deletes id through World.DeleteEntity, ecs.DeleteEntity with
// an AllStoragesViewMut, or the guide's fast path (delete from the storages
// it may use, then EntitiesViewMut.DeleteUnchecked).
func (r *fzRun) deleteEntity(id ecs.EntityID, path byte) {
	if path < 3 { // a World-level change, or an AllStoragesViewMut
		r.purge()
	}
	alive := r.m.live[id]
	var err error
	switch path {
	case 0:
		err = r.w.DeleteEntity(id)
	case 1:
		r.run("delete", func(all ecs.AllStoragesViewMut) { err = all.DeleteEntity(id) })
	case 2:
		r.run("delete", func(all ecs.AllStoragesViewMut) { err = ecs.DeleteEntity(all, id) })
	default:
		var had [3]bool
		var wasAlive bool
		r.run("delete", func(ents ecs.EntitiesViewMut, va ecs.ViewMut[fzA], vb ecs.ViewMut[fzB], vc ecs.ViewMut[fzC]) {
			had = [3]bool{va.Delete(id), vb.Delete(id), vc.Delete(id)}
			wasAlive = ents.DeleteUnchecked(id)
		})
		row := r.m.row(id)
		deepEqual(r.t, "fast delete: components found", had, [3]bool{row.HasA, row.HasB, row.HasC})
		equal(r.t, "fast delete: was alive", wasAlive, alive)
		if !alive {
			r.st.deadRejected++
		}
		// The views deleted what a dead id had left too, but for its
		// isotopes, which DeleteUnchecked leaves behind as the rest.
		r.m.stripMask(id, mA|mB|mC)
	}
	if path < 3 {
		if !alive {
			r.dead("DeleteEntity", id, err)
			return
		}
		r.noErr("DeleteEntity", err)
	}
	if alive {
		if path < 3 {
			r.doom(id)
		} else {
			// DeleteUnchecked ignores finalizers.
			delete(r.m.live, id)
			delete(r.m.term, id)
			if n := r.m.isoCount(id); n > 0 {
				r.m.unpurged = append(r.m.unpurged, id)
				r.st.isoLeft += n
			}
		}
	}
}

// deletedInSystem checks the error of deleting the live entity id through
// an AllStoragesViewMut, and dooms it in the model: it reports whether the
// entity went at once (false: it is terminating, held by a finalizer).
func (r *fzRun) deletedInSystem(id ecs.EntityID, err error) bool {
	r.noErr("DeleteEntity", err)
	return r.doom(id)
}

// doom is fzModel.doom, counting the entities marked terminating.
func (r *fzRun) doom(id ecs.EntityID) bool {
	if r.m.doom(id) {
		return true
	}
	r.st.marked++
	return false
}

// finRefused checks that err is the refusal of giving the terminating
// entity id a C it does not have.
func (r *fzRun) finRefused(op string, id ecs.EntityID, err error) {
	r.t.Helper()
	var fe *ecs.FinalizerError
	if !errors.Is(err, ecs.ErrTerminating) || !errors.As(err, &fe) || fe.ID != id || fe.Type != "ecs_test.fzC" {
		r.t.Errorf("%s: giving terminating %v a C: error %v, want a *FinalizerError for it", op, id, err)
	}
	r.st.finRefused++
}

// required checks that err is requirement mode's refusal, by op, of
// removing the B of id, which has an A (or, for id NullID, of some id
// that has both, as emptying the storage names), and counts it.
func (r *fzRun) required(op string, id ecs.EntityID, err error) {
	r.t.Helper()
	var re *ecs.RequiredError
	if !errors.Is(err, ecs.ErrRequired) || !errors.As(err, &re) || re.Op != op || re.Type != "ecs_test.fzB" || re.By != "ecs_test.fzA" ||
		(id != ecs.NullID && re.ID != id) || (id == ecs.NullID && !r.m.keepsB(re.ID)) {
		r.t.Errorf("%s: removing the B of %v, which has an A: error %v, want a *RequiredError for it", op, id, err)
	}
	r.st.reqErrs++
}

// requiredPanic is required for the value p a view's method panicked
// with.
func (r *fzRun) requiredPanic(op string, id ecs.EntityID, p any) {
	r.t.Helper()
	err, _ := p.(error)
	if err == nil {
		r.t.Errorf("%s: removing the B of %v, which has an A: panicked with %v, want a *RequiredError", op, id, p)
	}
	r.required(op, id, err)
	r.st.reqErrs--
	r.st.reqPanics++
}

// frames borrows, from World.Borrow beside held (a view from
// World.Borrow), the views of the other of fzA and fzB that requirement
// mode makes conflict with it: a ViewMut[fzB] borrows A's storage shared,
// so a ViewMut[fzA] cannot be borrowed beside it (a View[fzA] can), and
// it cannot be borrowed beside a ViewMut[fzA]. Other modes refuse
// neither.
func (r *fzRun) frames(held any) {
	r.t.Helper()
	try := func(what string, conflict bool, view any) {
		release, err := r.w.Borrow(view)
		if err == nil {
			release()
		}
		if !conflict {
			r.noErr("Borrow("+what+") beside a view from World.Borrow", err)
			return
		}
		var be *ecs.BorrowError
		if !errors.As(err, &be) || !errors.Is(err, ecs.ErrBorrowConflict) || be.Resource != "ecs_test.fzA" {
			r.t.Errorf("Borrow(%s) in requirement mode: error %v, want a *BorrowError of fzA's storage", what, err)
			return
		}
		r.st.reqFrames++
	}
	switch held.(type) {
	case ecs.ViewMut[fzB]:
		try("ViewMut[fzA]", r.m.req, new(ecs.ViewMut[fzA]))
		try("View[fzA]", false, new(ecs.View[fzA]))
	case ecs.ViewMut[fzA]:
		try("ViewMut[fzB]", r.m.req, new(ecs.ViewMut[fzB]))
		try("View[fzB]", false, new(ecs.View[fzB]))
	}
}

// bulk creates n entities with the components in mask.
func (r *fzRun) bulk(n int, mask, path byte) {
	as, bs, cs := make([]fzA, n), make([]fzB, n), make([]fzC, n)
	for i := range n {
		as[i], bs[i] = fzA{int32(i*3 - 7)}, fzB{uint8(i * 5)}
	}
	var ids []ecs.EntityID
	var err error
	if path == 0 && mask != 0 {
		r.purge() // a World-level change
		switch mask {
		case mA:
			ids, err = ecs.BulkAddEntity1(r.w, as)
		case mB:
			ids, err = ecs.BulkAddEntity1(r.w, bs)
		case mC:
			ids, err = ecs.BulkAddEntity1(r.w, cs)
		case mA | mB:
			ids, err = ecs.BulkAddEntity2(r.w, as, bs)
		case mA | mC:
			ids, err = ecs.BulkAddEntity2(r.w, cs, as)
		case mB | mC:
			ids, err = ecs.BulkAddEntity2(r.w, bs, cs)
		default:
			ids, err = ecs.BulkAddEntity3(r.w, bs, as, cs)
		}
		r.noErr("bulk", err)
	} else {
		r.run("bulk", func(ents ecs.EntitiesViewMut, va ecs.ViewMut[fzA], vb ecs.ViewMut[fzB], vc ecs.ViewMut[fzC]) {
			prefix := []ecs.EntityID{ecs.NullID} // BulkAddEntity appends to dst
			all := ents.BulkAddEntity(prefix, n)
			if all[0] != ecs.NullID {
				r.t.Errorf("EntitiesViewMut.BulkAddEntity overwrote dst[0]: %v", all[0])
			}
			ids = all[1:]
			if len(ids) != n {
				r.t.Errorf("EntitiesViewMut.BulkAddEntity(n=%d) gave %d ids", n, len(ids))
			}
			for i, id := range ids {
				if mask&mA != 0 {
					err = firstErr(err, va.AddComponentUnchecked(id, as[i]))
				}
				if mask&mB != 0 {
					err = firstErr(err, vb.AddComponentUnchecked(id, bs[i]))
				}
				if mask&mC != 0 {
					err = firstErr(err, vc.AddComponentUnchecked(id, cs[i]))
				}
			}
		})
		r.noErr("bulk", err)
	}
	if len(ids) != n {
		r.t.Fatalf("bulk add of %d gave %d ids", n, len(ids))
	}
	for _, id := range ids {
		r.issue(id)
	}
	r.modelPut(ids, mask, as, bs)
}

// pickIDs reads n id selectors.
func (r *fzRun) pickIDs(in *fzReader, n int) []ecs.EntityID {
	ids := make([]ecs.EntityID, n)
	for i := range ids {
		ids[i] = r.pickID(in.next())
	}
	return ids
}

// firstDead returns the position of the first id of ids the model does
// not have alive, or -1.
func (r *fzRun) firstDead(ids []ecs.EntityID) int {
	for i, id := range ids {
		if !r.m.live[id] {
			return i
		}
	}
	return -1
}

// bulkRefused checks that err is the refusal of a bulk call for ids[at],
// and reports whether there was one to check (at >= 0).
func (r *fzRun) bulkRefused(op string, ids []ecs.EntityID, at int, err error) bool {
	r.t.Helper()
	if at < 0 {
		r.noErr(op, err)
		return false
	}
	r.dead(op, ids[at], err)
	var be *ecs.BulkError
	if !errors.As(err, &be) || be.Index != at || be.Op != op {
		r.t.Errorf("%s: got %v, want a *BulkError for ids[%d]", op, err, at)
	}
	return true
}

// onStorages calls do with the world, or with an AllStoragesViewMut in a
// system (path 1).
func (r *fzRun) onStorages(path byte, do func(ecs.Storages)) {
	if path == 0 {
		do(r.w)
		return
	}
	r.run("bulk", func(all ecs.AllStoragesViewMut) { do(all) })
}

// bulkAddComponent gives ids[i] the components in mask, with values from
// v and i, through BulkAddComponentN in several argument orders.
func (r *fzRun) bulkAddComponent(ids []ecs.EntityID, mask, path byte, v int32) {
	n := len(ids)
	as, bs, cs := make([]fzA, n), make([]fzB, n), make([]fzC, n)
	for i := range n {
		as[i], bs[i] = fzA{v + int32(i)}, fzB{uint8(v) + uint8(3*i)}
	}
	var err error
	var op string
	r.onStorages(path, func(s ecs.Storages) {
		switch mask {
		case mA:
			op, err = "BulkAddComponent1", ecs.BulkAddComponent1(s, ids, as)
		case mB:
			op, err = "BulkAddComponent1", ecs.BulkAddComponent1(s, ids, bs)
		case mC:
			op, err = "BulkAddComponent1", ecs.BulkAddComponent1(s, ids, cs)
		case mA | mB:
			op, err = "BulkAddComponent2", ecs.BulkAddComponent2(s, ids, bs, as)
		case mA | mC:
			op, err = "BulkAddComponent2", ecs.BulkAddComponent2(s, ids, as, cs)
		case mB | mC:
			op, err = "BulkAddComponent2", ecs.BulkAddComponent2(s, ids, cs, bs)
		default:
			op, err = "BulkAddComponent3", ecs.BulkAddComponent3(s, ids, cs, as, bs)
		}
	})
	at := r.firstDead(ids)
	if at < 0 && mask&mC != 0 {
		for _, id := range ids {
			if r.m.refusesC(id) { // all or nothing
				r.finRefused(op, id, err)
				return
			}
		}
	}
	if r.bulkRefused(op, ids, at, err) {
		return
	}
	r.modelPut(ids, mask, as, bs)
}

// modelPut gives ids[i] the model's components of mask, with the values
// as[i] and bs[i]: what a bulk addition did. A repeated id ends with its
// last values.
func (r *fzRun) modelPut(ids []ecs.EntityID, mask byte, as []fzA, bs []fzB) {
	for i, id := range ids {
		r.m.takePlace(id, mask)
		if mask&mA != 0 {
			r.m.putA(id, as[i].V)
		}
		if mask&mB != 0 {
			r.m.b[id] = bs[i].V
		}
		if mask&mC != 0 {
			r.m.c[id] = true
		}
	}
}

// deleteEntities deletes ids through World.DeleteEntities,
// ecs.DeleteEntities or AllStoragesViewMut.DeleteEntities.
func (r *fzRun) deleteEntities(ids []ecs.EntityID, path byte) {
	var err error
	switch path {
	case 0:
		err = r.w.DeleteEntities(ids...)
	case 1:
		err = ecs.DeleteEntities(r.w, ids...)
	default:
		r.run("deleteEntities", func(all ecs.AllStoragesViewMut) { err = all.DeleteEntities(ids...) })
	}
	if r.bulkRefused("DeleteEntities", ids, r.firstDead(ids), err) {
		return
	}
	r.runSweeps(ids)
	for _, id := range ids { // a repeated id is deleted once
		if r.m.live[id] {
			r.doom(id)
		}
	}
}

// deleteAliased deletes the first n entities of a storage (of fzA, fzB or
// fzC, as typ says) through DeleteEntities, passing a slice of the
// storage's own id array (View.IDs, the view released): deleting from
// each storage changes that array, and the call must read the ids as
// they were.
func (r *fzRun) deleteAliased(n int, typ byte) {
	var ids []ecs.EntityID
	switch typ {
	case 0:
		withView(r.t, r.w, func(v ecs.View[fzA]) { ids = v.IDs() })
	case 1:
		withView(r.t, r.w, func(v ecs.View[fzB]) { ids = v.IDs() })
	default:
		withView(r.t, r.w, func(v ecs.View[fzC]) { ids = v.IDs() })
	}
	ids = ids[:min(n, len(ids))]
	want := slices.Clone(ids) // the storage may hold dead ids' components
	r.logf("deleteEntities aliasing storage %d: %v", typ, want)
	// The View's borrow did not purge the leftovers of DeleteUnchecked:
	// ids may name them. DeleteEntities purges them first, then refuses
	// their (dead) ids, as the caller passed them.
	r.purge()
	err := r.w.DeleteEntities(ids...)
	if r.bulkRefused("DeleteEntities", want, r.firstDead(want), err) {
		return
	}
	r.st.aliased++
	for _, id := range want {
		if r.m.live[id] {
			r.doom(id)
		}
	}
}

// bulkDeleteComponent deletes the component of one type from ids and
// checks the count.
func (r *fzRun) bulkDeleteComponent(ids []ecs.EntityID, typ, path byte) {
	var n int
	var err error
	r.onStorages(path, func(s ecs.Storages) {
		switch typ {
		case 0:
			n, err = ecs.BulkDeleteComponent[fzA](s, ids...)
		case 1:
			n, err = ecs.BulkDeleteComponent[fzB](s, ids...)
		default:
			n, err = ecs.BulkDeleteComponent[fzC](s, ids...)
		}
	})
	at := r.firstDead(ids)
	if at < 0 && typ == 1 {
		// Requirement mode: refused for the first id that has an A,
		// after the refusal of dead ids.
		for _, id := range ids {
			if r.m.keepsB(id) {
				r.required("BulkDeleteComponent", id, err)
				return
			}
		}
	}
	if r.bulkRefused("BulkDeleteComponent", ids, at, err) {
		return
	}
	had := map[ecs.EntityID]bool{}
	for _, id := range ids {
		row := r.m.row(id)
		if [3]bool{row.HasA, row.HasB, row.HasC}[typ] {
			had[id] = true
		}
		switch typ {
		case 0:
			delete(r.m.a, id)
		case 1:
			delete(r.m.b, id)
		default:
			r.m.delC(id)
		}
	}
	equal(r.t, "BulkDeleteComponent count", n, len(had))
}

// deleteAny deletes every entity with a component of the given type.
func (r *fzRun) deleteAny(typ, path byte) {
	var n int
	var err error
	do := func(s ecs.Storages) {
		switch typ {
		case 0:
			n, err = ecs.DeleteAny[fzA](s)
		case 1:
			n, err = ecs.DeleteAny[fzB](s)
		default:
			n, err = ecs.DeleteAny[fzC](s)
		}
	}
	var order []ecs.EntityID // the storage's ids, which DeleteAny deletes last first
	switch typ {
	case 0:
		order = ecs.OrderOf[fzA](r.w)
	case 1:
		order = ecs.OrderOf[fzB](r.w)
	default:
		order = ecs.OrderOf[fzC](r.w)
	}
	if path == 0 {
		do(r.w)
	} else {
		r.run("deleteAny", func(all ecs.AllStoragesViewMut) { do(all) })
	}
	r.noErr("DeleteAny", err)
	r.runSweeps(order)
	var doomed []ecs.EntityID
	for id := range r.m.live {
		row := r.m.row(id)
		if [3]bool{row.HasA, row.HasB, row.HasC}[typ] {
			doomed = append(doomed, id)
		}
	}
	deleted := 0 // in finalizer mode, those with a C are marked instead
	for _, id := range doomed {
		if r.doom(id) {
			deleted++
		}
	}
	equal(r.t, "DeleteAny count", n, deleted)
}

// runSweeps counts, for a deletion of ids (in the order the world reads
// them) that form a run, consecutive indices of one generation either
// way, the storages it takes whole (every component goes) and those it
// sweeps in part (some go, and the storage holds no more components than
// there are ids): the storages that free the run's sparse entries rather
// than look each id up (sparseSet.vacateRun). Call it before the model
// deletes the ids.
func (r *fzRun) runSweeps(ids []ecs.EntityID) {
	if len(ids) == 0 {
		return
	}
	for k, id := range ids {
		up, down := ids[0]+ecs.EntityID(k), ids[0]-ecs.EntityID(k)
		if id != up && id != down || k > 0 && (ids[1] == ids[0]+1) != (id == up) {
			return
		}
		if id.Generation() != ids[0].Generation() {
			return
		}
	}
	doomed := map[ecs.EntityID]bool{}
	for _, id := range ids {
		doomed[id] = true
	}
	holders := [3][]ecs.EntityID{}
	for id := range r.m.a {
		holders[0] = append(holders[0], id)
	}
	for id := range r.m.b {
		holders[1] = append(holders[1], id)
	}
	for id := range r.m.c {
		holders[2] = append(holders[2], id)
	}
	for _, hs := range holders {
		gone := 0
		for _, id := range hs {
			if doomed[id] {
				gone++
			}
		}
		switch {
		case gone == 0 || len(hs) > len(ids):
		case gone == len(hs):
			r.st.wholeRuns++
		default:
			r.st.partRuns++
		}
	}
}

// deleteUnchecked kills entities with EntitiesViewMut.DeleteUnchecked (n
// of them, read from in, possibly repeated, dead or never issued), each
// after deleting its components of the types in its mask with
// ViewMut.Delete: what is left stays under the dead id until the next
// purge (see fzRun.purge). The system runs through World.Run, views from
// World.Borrow or World.RunWorkload (path), none of which purges. after
// chooses what follows: bit 2, a new entity with an A and a B in the same
// system, most likely in a slot just freed, taking the place of its
// leftovers; bits 0-1, nothing or a purge by World.MemoryUsage,
// World.ShrinkToFit or the borrow of an AllStoragesViewMut from
// World.Borrow.
//
// In requirement and initializer modes the new entity has an A only,
// for the sync point to give it its B; in requirement mode, the deletion
// of a B from an id that keeps its A (its mask has no A) panics with a
// *RequiredError, deleting nothing, and the entity dies with both.
func (r *fzRun) deleteUnchecked(in *fzReader, n int, path, after byte, v int32) {
	type victim struct {
		id   ecs.EntityID
		mask byte
	}
	vs := make([]victim, n)
	for i := range vs {
		vs[i] = victim{r.pickID(in.next()), in.next() % 8}
	}
	addNew := after&4 != 0 && len(r.m.issued) < fzMaxIDs
	var names []string
	for _, x := range vs {
		names = append(names, fmt.Sprintf("%v mask=%03b", x.id, x.mask))
	}
	r.logf("deleteUnchecked %v path=%d after=%d v=%d", names, path, after, v)
	var had [][3]bool
	var wasAlive []bool
	var refusals []any // the panic of each victim's deletion of a B
	var nid ecs.EntityID
	var err error
	newB := !r.m.req && !r.m.init
	sys := func(ents ecs.EntitiesViewMut, va ecs.ViewMut[fzA], vb ecs.ViewMut[fzB], vc ecs.ViewMut[fzC]) {
		for _, x := range vs {
			var h [3]bool
			var p any
			if x.mask&mA != 0 {
				h[0] = va.Delete(x.id)
			}
			if x.mask&mB != 0 {
				p = vmPanicValue(func() { h[1] = vb.Delete(x.id) })
			}
			refusals = append(refusals, p)
			if x.mask&mC != 0 {
				h[2] = vc.Delete(x.id)
			}
			had = append(had, h)
			wasAlive = append(wasAlive, ents.DeleteUnchecked(x.id))
		}
		if addNew {
			nid = va.AddEntity(ents, fzA{v})
			if newB {
				err = vb.AddComponentUnchecked(nid, fzB{uint8(v)})
			}
		}
	}
	switch path {
	case 0:
		r.run("deleteUnchecked", sys)
	case 1:
		var ents ecs.EntitiesViewMut
		var va ecs.ViewMut[fzA]
		var vb ecs.ViewMut[fzB]
		var vc ecs.ViewMut[fzC]
		release, err := r.w.Borrow(&ents, &va, &vb, &vc)
		if err != nil {
			r.t.Fatalf("Borrow: %v", err)
		}
		sys(ents, va, vb, vc)
		release()
	default:
		if r.workload == nil {
			r.noErr("AddWorkload", r.w.AddWorkload("fzDeleteUnchecked",
				func(ents ecs.EntitiesViewMut, va ecs.ViewMut[fzA], vb ecs.ViewMut[fzB], vc ecs.ViewMut[fzC]) {
					r.workload(ents, va, vb, vc)
				}))
		}
		r.workload = sys
		r.noErr("RunWorkload", r.w.RunWorkload("fzDeleteUnchecked"))
	}
	if len(had) != n {
		r.t.Fatalf("the system ran %d of %d deletions", len(had), n)
	}
	for i, x := range vs {
		row := r.m.row(x.id)
		mask := x.mask
		if mask&(mA|mB) == mB && r.m.keepsB(x.id) {
			r.requiredPanic("ViewMut[ecs_test.fzB].Delete", x.id, refusals[i])
			mask &^= mB
		} else if refusals[i] != nil {
			r.t.Errorf("deleteUnchecked %v: ViewMut[fzB].Delete panicked with %v", x.id, refusals[i])
		}
		want := [3]bool{row.HasA && mask&mA != 0, row.HasB && mask&mB != 0, row.HasC && mask&mC != 0}
		deepEqual(r.t, fmt.Sprintf("deleteUnchecked %v: components deleted first", x.id), had[i], want)
		r.m.stripMask(x.id, mask)
		alive := r.m.live[x.id]
		equal(r.t, fmt.Sprintf("DeleteUnchecked(%v) reported alive", x.id), wasAlive[i], alive)
		if !alive {
			r.st.deadRejected++
			continue
		}
		delete(r.m.live, x.id)
		delete(r.m.term, x.id) // DeleteUnchecked ignores finalizers
		r.m.unpurged = append(r.m.unpurged, x.id)
		r.st.left += bits(fzMask(r.m.row(x.id)))
		r.st.isoLeft += r.m.isoCount(x.id)
	}
	if addNew {
		r.noErr("AddComponentUnchecked", err)
		r.issue(nid)
		if newB {
			r.m.set(nid, mA|mB, v)
		} else {
			r.m.set(nid, mA, v)
		}
	}
	if path != 1 {
		r.sync() // the end of World.Run or of the workload's run
	} else if r.m.modal() {
		r.deferSync = true
	}
	switch after % 4 {
	case 1:
		_, err := r.w.MemoryUsage()
		r.noErr("MemoryUsage", err)
		r.purge()
	case 2:
		r.noErr("ShrinkToFit", r.w.ShrinkToFit())
		r.purge()
	case 3:
		var all ecs.AllStoragesViewMut
		release, err := r.w.Borrow(&all)
		if err != nil {
			r.t.Fatalf("Borrow(AllStoragesViewMut): %v", err)
		}
		release()
		r.purge()
	}
}

// inSystem makes n calls in one system holding an AllStoragesViewMut,
// checking each against the model as it goes. Deletions there leave the
// components in place until the next call looks at the storages (see
// AllStoragesViewMut.deleteLater), so the calls after a deletion check that every way
// in sees the entity gone: a new entity taking its slot, components added
// to it, DeleteAny, Each, Strip, Get, Contains.
func (r *fzRun) inSystem(in *fzReader, n int) {
	type step struct{ kind, sel, v byte }
	steps := make([]step, n)
	for i := range steps {
		steps[i] = step{in.next() % 8, in.next(), in.next()}
	}
	r.logf("inSystem %v", steps)
	r.purge() // at the AllStoragesViewMut's borrow, before the first call
	r.run("inSystem", func(all ecs.AllStoragesViewMut) {
		for _, s := range steps {
			id, v := r.pickID(s.sel), int32(int8(s.v))
			alive, row := r.m.live[id], r.m.row(id)
			switch s.kind {
			case 0: // delete, through both forms
				var err error
				if s.v%2 == 0 {
					err = all.DeleteEntity(id)
				} else {
					err = ecs.DeleteEntity(all, id)
				}
				if !alive {
					r.dead("DeleteEntity", id, err)
					continue
				}
				deleted := r.deletedInSystem(id, err)
				equal(r.t, "IsAlive after DeleteEntity", all.IsAlive(id), !deleted)
				if r.m.fin {
					term, err := ecs.Contains[ecs.Terminating](all, id)
					r.noErr("Contains[Terminating]", err)
					equal(r.t, "Contains[Terminating] after DeleteEntity", term, r.m.term[id])
				}
			case 1:
				if r.m.fin && s.v%2 == 1 {
					// Finalizer mode: take the C out (a terminating
					// entity is deleted when the system returns).
					_, had, err := ecs.Remove[fzC](all, id)
					if !alive {
						r.dead("Remove[fzC]", id, err)
						continue
					}
					r.noErr("Remove[fzC]", err)
					equal(r.t, fmt.Sprintf("Remove[fzC](%v) found one", id), had, row.HasC)
					r.m.delC(id)
					continue
				}
				got, err := ecs.Get[fzA](all, id)
				if alive && row.HasA {
					r.noErr("Get", err)
					equal(r.t, "Get", got.V, row.A)
				} else if err == nil {
					r.t.Errorf("Get[fzA](%v) = %v, want an error (alive %v)", id, got, alive)
				}
			case 2: // a new entity, most likely in a slot just freed
				if len(r.m.issued) >= fzMaxIDs {
					continue
				}
				nid, err := ecs.AddEntity2(all, fzA{v}, fzC{})
				r.noErr("AddEntity2", err)
				r.issue(nid)
				r.m.set(nid, mA|mC, v)
			case 3:
				if r.m.fin && s.v%2 == 1 {
					// Finalizer mode: give it a C, refused if it is
					// terminating without one (its C went in this
					// system).
					err := ecs.AddComponent1(all, id, fzC{})
					switch {
					case !alive:
						r.dead("AddComponent1", id, err)
					case r.m.refusesC(id):
						r.finRefused("AddComponent1", id, err)
					default:
						r.noErr("AddComponent1", err)
						r.m.set(id, mC, v)
					}
					continue
				}
				err := ecs.AddComponent1(all, id, fzB{uint8(v)})
				if !alive {
					r.dead("AddComponent1", id, err)
					continue
				}
				r.noErr("AddComponent1", err)
				r.m.set(id, mB, v)
			case 4:
				err := all.Strip(id)
				if !alive {
					r.dead("Strip", id, err)
					continue
				}
				r.noErr("Strip", err)
				r.m.strip(id)
			case 5:
				got, err := ecs.DeleteAny[fzC](all)
				r.noErr("DeleteAny", err)
				want := 0
				for id := range r.m.c {
					if r.m.live[id] && r.doom(id) {
						want++
					}
				}
				equal(r.t, "DeleteAny[fzC] count", got, want)
			case 6: // Each, deleting the entities handed out with an odd A if v is odd
				// and, after a deletion, reaching the storages through
				// all (as s.sel chooses) before adding 1 to each A it
				// keeps: no update may be lost.
				got := map[ecs.EntityID]int32{}
				var deleted []ecs.EntityID
				r.noErr("Each1", ecs.Each1(all, func(id ecs.EntityID, a *fzA) {
					if _, seen := got[id]; seen {
						r.t.Errorf("Each1 handed out %v twice", id)
					}
					got[id] = a.V
					if s.v%2 == 1 && a.V%2 != 0 {
						r.noErr("DeleteEntity in Each1", all.DeleteEntity(id))
						deleted = append(deleted, id)
						return
					}
					if len(deleted) > 0 {
						r.callInEach(all, id, s.sel)
					}
					a.V++
				}))
				want := map[ecs.EntityID]int32{}
				for id, a := range r.m.a {
					if r.m.live[id] {
						want[id] = a
					}
				}
				deepEqual(r.t, "Each1[fzA]", got, want)
				gone := map[ecs.EntityID]bool{}
				for _, id := range deleted {
					gone[id] = true
					r.doom(id) // in finalizer mode, kept if it holds a C
				}
				for id := range want {
					if r.m.live[id] && !gone[id] {
						r.m.a[id]++
					}
				}
			default:
				got, err := ecs.Contains[fzB](all, id)
				r.noErr("Contains", err)
				equal(r.t, "Contains[fzB]", got, alive && row.HasB)
			}
		}
	})
}

// callInEach makes one call through all, chosen by sel, from inside an
// Each over fzA that has deleted entities through all: each reaches the
// storages, and none may move the components the Each is still to hand
// out. It checks the call's answer against the model, which the Each
// has not updated yet for its deletions; id is the entity the Each is
// on, alive and with an A.
func (r *fzRun) callInEach(all ecs.AllStoragesViewMut, id ecs.EntityID, sel byte) {
	r.st.callsInEach++
	row := r.m.row(id)
	switch sel % 6 {
	case 0:
		b, err := ecs.Get[fzB](all, id)
		if row.HasB {
			r.noErr("Get in Each1", err)
			equal(r.t, "Get in Each1", b.V, row.B)
		} else if err == nil {
			r.t.Errorf("Get[fzB](%v) in Each1 = %v, want an error", id, b)
		}
	case 1:
		has, err := ecs.Contains[fzB](all, id)
		r.noErr("Contains in Each1", err)
		equal(r.t, "Contains in Each1", has, row.HasB)
	case 2:
		if len(r.m.issued) >= fzMaxIDs {
			return
		}
		nid := all.AddEntity()
		r.issue(nid)
	case 3:
		r.noErr("AddComponent1 in Each1", ecs.AddComponent1(all, id, fzB{uint8(sel)}))
		r.m.set(id, mB, int32(int8(sel)))
	case 4:
		// A type that is not iterated: its storage may change.
		_, _, err := ecs.Remove[fzC](all, id)
		r.noErr("Remove in Each1", err)
		r.m.delC(id)
	default:
		equal(r.t, "IsAlive in Each1", all.IsAlive(id), true)
		_, err := ecs.Get[fzA](all, id)
		r.noErr("Get[fzA] in Each1", err)
	}
}

// fzJoined is the result of a join: each matched entity's joined components.
type fzJoined map[ecs.EntityID]fzRow

// join iterates a join of the views in sel, excluding those in not, through
// the form chosen by the input, and compares with the model. Every form of
// the same join must agree.
func (r *fzRun) join(sel, not, form byte) {
	// Every id with components, the leftovers of DeleteUnchecked's dead
	// ids included: joins yield them until the purge.
	want := fzJoined{}
	leftovers := false
	for _, ids := range [][]ecs.EntityID{slices.Collect(maps.Keys(r.m.a)), slices.Collect(maps.Keys(r.m.b)), slices.Collect(maps.Keys(r.m.c))} {
		for _, id := range ids {
			row := r.m.row(id)
			has := fzMask(row)
			if has&sel == sel && has&not == 0 {
				want[id] = fzProject(row, sel)
				leftovers = leftovers || !r.m.live[id]
			}
		}
	}
	if leftovers {
		r.st.joinsWithLeftovers++
	}
	var va ecs.View[fzA]
	var vb ecs.View[fzB]
	var vc ecs.View[fzC]
	release, err := r.w.Borrow(&va, &vb, &vc)
	if err != nil {
		r.t.Fatalf("Borrow: %v", err)
	}
	defer release()
	var filters []ecs.Filter
	for bit, f := range map[byte]ecs.Filter{mA: va, mB: vb, mC: vc} {
		if not&bit != 0 {
			filters = append(filters, f)
		}
	}
	got := fzJoined{}
	count, values := -1, []fzRow(nil)
	put := func(id ecs.EntityID, row fzRow) {
		if _, dup := got[id]; dup {
			r.t.Errorf("join visited %v twice", id)
		}
		got[id] = row
	}
	var get func(ecs.EntityID) (fzRow, bool)
	rev := form&8 != 0 // join the views in another order
	switch sel {
	case mA:
		it := ecs.Join1(va).Not(filters...)
		switch form % 4 {
		case 0:
			for cur := it; cur.Next(); { // a copy: Next consumes the iterator
				put(cur.ID(), fzRow{HasA: true, A: cur.Values().V})
			}
		case 1:
			for id, a := range it.WithID() {
				put(id, fzRow{HasA: true, A: a.V})
			}
		case 2:
			it.EachWithID(func(id ecs.EntityID, a *fzA) { put(id, fzRow{HasA: true, A: a.V}) })
		default:
			for id, a := range va.WithID() {
				if !fzExcluded(filters, id) {
					put(id, fzRow{HasA: true, A: a.V})
				}
			}
		}
		count = it.Count()
		for a := range it.All() {
			values = append(values, fzRow{HasA: true, A: a.V})
		}
		get = func(id ecs.EntityID) (fzRow, bool) {
			a, ok := it.Get(id)
			if !ok {
				return fzRow{}, false
			}
			return fzRow{HasA: true, A: a.V}, true
		}
	case mB:
		it := ecs.Join1(vb).Not(filters...)
		it.EachWithID(func(id ecs.EntityID, b *fzB) { put(id, fzRow{HasB: true, B: b.V}) })
		count = it.Count()
		it.Each(func(b *fzB) { values = append(values, fzRow{HasB: true, B: b.V}) })
		get = func(id ecs.EntityID) (fzRow, bool) {
			b, ok := it.Get(id)
			return fzRow{HasB: ok, B: deref(b).V}, ok
		}
	case mC:
		it := ecs.Join1(vc).Not(filters...)
		for cur := it; cur.Next(); { // a copy: Next consumes the iterator
			put(cur.ID(), fzRow{HasC: true})
		}
		count = it.Count()
		for range it.All() {
			values = append(values, fzRow{HasC: true})
		}
		get = func(id ecs.EntityID) (fzRow, bool) {
			_, ok := it.Get(id)
			return fzRow{HasC: ok}, ok
		}
	case mA | mB:
		mk := func(a *fzA, b *fzB) fzRow { return fzRow{HasA: true, HasB: true, A: a.V, B: b.V} }
		if rev {
			it := ecs.Join2(vb, va).Not(filters...)
			fzJoinForms2(it, form, put, func(b *fzB, a *fzA) fzRow { return mk(a, b) }, &count, &values)
			get = func(id ecs.EntityID) (fzRow, bool) {
				b, a, ok := it.Get(id)
				if !ok {
					return fzRow{}, false
				}
				return mk(a, b), true
			}
		} else {
			it := ecs.Join2(va, vb).Not(filters...)
			fzJoinForms2(it, form, put, mk, &count, &values)
			get = func(id ecs.EntityID) (fzRow, bool) {
				a, b, ok := it.Get(id)
				if !ok {
					return fzRow{}, false
				}
				return mk(a, b), true
			}
		}
	case mA | mC:
		mk := func(a *fzA, _ *fzC) fzRow { return fzRow{HasA: true, HasC: true, A: a.V} }
		it := ecs.Join2(va, vc).Not(filters...)
		fzJoinForms2(it, form, put, mk, &count, &values)
		get = func(id ecs.EntityID) (fzRow, bool) {
			a, c, ok := it.Get(id)
			if !ok {
				return fzRow{}, false
			}
			return mk(a, c), true
		}
	case mB | mC:
		mk := func(c *fzC, b *fzB) fzRow { return fzRow{HasB: true, HasC: true, B: b.V} }
		it := ecs.Join2(vc, vb).Not(filters...)
		fzJoinForms2(it, form, put, mk, &count, &values)
		get = func(id ecs.EntityID) (fzRow, bool) {
			c, b, ok := it.Get(id)
			if !ok {
				return fzRow{}, false
			}
			return mk(c, b), true
		}
	default:
		mk := func(a *fzA, b *fzB, _ *fzC) fzRow {
			return fzRow{HasA: true, HasB: true, HasC: true, A: a.V, B: b.V}
		}
		var it ecs.Iter3[fzA, fzB, fzC]
		if rev {
			it3 := ecs.Join3(vc, vb, va)
			// Same join, other order: compare its result too.
			other := fzJoined{}
			for id, row := range it3.WithID() {
				other[id] = mk(row.C, row.B, row.A)
			}
			want3 := fzJoined{}
			for id, row := range want {
				want3[id] = row
			}
			if len(filters) == 0 && !maps.Equal(other, want3) {
				r.t.Errorf("Join3(c, b, a) differs from the model:\n got  %v\n want %v", other, want3)
			}
		}
		it = ecs.Join3(va, vb, vc).Not(filters...)
		switch form % 4 {
		case 0:
			for cur := it; cur.Next(); { // a copy: Next consumes the iterator
				a, b, c := cur.Values()
				put(cur.ID(), mk(a, b, c))
			}
		case 1:
			for id, row := range it.WithID() {
				put(id, mk(row.A, row.B, row.C))
			}
		case 2:
			for run := range it.Runs() {
				if len(run.A) != len(run.IDs) || len(run.B) != len(run.IDs) || len(run.C) != len(run.IDs) {
					r.t.Fatalf("Join3 run of %d ids has %d, %d, %d components", len(run.IDs), len(run.A), len(run.B), len(run.C))
				}
				for i, id := range run.IDs {
					put(id, mk(&run.A[i], &run.B[i], &run.C[i]))
				}
			}
		default:
			it.EachWithID(func(id ecs.EntityID, a *fzA, b *fzB, c *fzC) { put(id, mk(a, b, c)) })
		}
		count = it.Count()
		it.Each(func(a *fzA, b *fzB, c *fzC) { values = append(values, mk(a, b, c)) })
		get = func(id ecs.EntityID) (fzRow, bool) {
			a, b, c, ok := it.Get(id)
			if !ok {
				return fzRow{}, false
			}
			return mk(a, b, c), true
		}
	}
	if !maps.Equal(got, want) {
		r.t.Errorf("join sel=%03b not=%03b form=%d:\n got  %v\n want %v", sel, not, form, got, want)
	}
	equal(r.t, "join Count", count, len(want))
	wantValues := slices.Collect(maps.Values(want))
	fzSortRows(values)
	fzSortRows(wantValues)
	if !slices.Equal(values, wantValues) {
		r.t.Errorf("join values (no ids) sel=%03b not=%03b:\n got  %v\n want %v", sel, not, values, wantValues)
	}
	for _, id := range append(slices.Clone(r.m.issued), ecs.NullID) {
		row, ok := get(id)
		wrow, wok := want[id]
		if ok != wok || row != wrow {
			r.t.Errorf("join Get(%v) = %v, %v; want %v, %v", id, row, ok, wrow, wok)
		}
	}
}

func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

// fzJoinForms2 collects a join of two views with the form chosen by the
// input: cursor, WithID, Runs or EachWithID; then Count and All.
func fzJoinForms2[T1, T2 any](it ecs.Iter2[T1, T2], form byte, put func(ecs.EntityID, fzRow), mk func(*T1, *T2) fzRow, count *int, values *[]fzRow) {
	switch form % 4 {
	case 0:
		for cur := it; cur.Next(); { // a copy: Next consumes the iterator
			put(cur.ID(), mk(cur.Values()))
		}
	case 1:
		for id, row := range it.WithID() {
			put(id, mk(row.A, row.B))
		}
	case 2:
		for run := range it.Runs() {
			if len(run.A) != len(run.IDs) || len(run.B) != len(run.IDs) {
				panic(fmt.Sprintf("Join2 run of %d ids has %d and %d components", len(run.IDs), len(run.A), len(run.B)))
			}
			for i, id := range run.IDs {
				put(id, mk(&run.A[i], &run.B[i]))
			}
		}
	default:
		it.EachWithID(func(id ecs.EntityID, a *T1, b *T2) { put(id, mk(a, b)) })
	}
	*count = it.Count()
	for a, b := range it.All() {
		*values = append(*values, mk(a, b))
	}
}

func fzExcluded(filters []ecs.Filter, id ecs.EntityID) bool {
	for _, f := range filters {
		if f.Contains(id) {
			return true
		}
	}
	return false
}

func fzMask(row fzRow) byte {
	var m byte
	if row.HasA {
		m |= mA
	}
	if row.HasB {
		m |= mB
	}
	if row.HasC {
		m |= mC
	}
	return m
}

// fzProject keeps the components of row that are in sel.
func fzProject(row fzRow, sel byte) fzRow {
	var out fzRow
	if sel&mA != 0 {
		out.HasA, out.A = true, row.A
	}
	if sel&mB != 0 {
		out.HasB, out.B = true, row.B
	}
	if sel&mC != 0 {
		out.HasC = true
	}
	return out
}

func fzSortRows(rows []fzRow) {
	slices.SortFunc(rows, func(x, y fzRow) int {
		return cmpRow(x) - cmpRow(y)
	})
}

func cmpRow(r fzRow) int {
	return int(r.A)<<12 | int(r.B)<<4 | int(fzMask(r))
}

// modify changes components in place through pointers from joins (ViewMut
// in a system, ViewMut from World.Borrow, EachN on the world, and
// ViewMut.Get), applying the same change to the model.
func (r *fzRun) modify(form byte, delta int32) {
	switch form {
	case 0: // A += B + delta for entities with A and B, in a system
		r.run("modify", func(va ecs.ViewMut[fzA], vb ecs.View[fzB]) {
			for a, b := range ecs.Join2(va, vb).All() {
				a.V += int32(b.V) + delta
			}
		})
		for id, a := range r.m.a {
			if b, ok := r.m.b[id]; ok {
				r.m.a[id] = a + int32(b) + delta
			}
		}
	case 1: // B += delta for entities with B but no C, from World.Borrow
		var vb ecs.ViewMut[fzB]
		var vc ecs.View[fzC]
		release, err := r.w.Borrow(&vb, &vc)
		if err != nil {
			r.t.Fatalf("Borrow: %v", err)
		}
		it := ecs.Join1(vb).Not(vc)
		for it.Next() {
			it.Values().V += uint8(delta)
		}
		release()
		for id, b := range r.m.b {
			if !r.m.c[id] {
				r.m.b[id] = b + uint8(delta)
			}
		}
	case 2: // A = -A for entities with A, B and C, with Each3 on the world
		r.purge() // a World-level change
		must(r.t, ecs.Each3(r.w, func(_ ecs.EntityID, a *fzA, _ *fzB, _ *fzC) { a.V = -a.V }))
		for id, a := range r.m.a {
			if _, ok := r.m.b[id]; ok && r.m.c[id] {
				r.m.a[id] = -a
			}
		}
	default: // A *= 2 for every issued id that has one, through ViewMut.Get
		r.run("modify", func(va ecs.ViewMut[fzA]) {
			for _, id := range r.m.issued {
				if p, ok := va.Get(id); ok {
					p.V *= 2
				}
			}
		})
		for id, a := range r.m.a {
			r.m.a[id] = a * 2
		}
	}
}

// compare checks every observable of the world against the model.
func (r *fzRun) compare() {
	t, w, m := r.t, r.w, r.m
	r.compareHooks()
	if err := ecs.CheckLayouts(w); err != nil {
		t.Fatal(err)
	}
	equal(t, "EntityCount", w.EntityCount(), len(m.live))
	var ents ecs.EntitiesView
	var va ecs.View[fzA]
	var vb ecs.View[fzB]
	var vc ecs.View[fzC]
	release, err := w.Borrow(&ents, &va, &vb, &vc)
	if err != nil {
		t.Fatalf("Borrow: %v", err)
	}
	equal(t, "EntitiesView.Len", ents.Len(), len(m.live))
	liveIDs := slices.Collect(ents.All())
	if !maps.Equal(setOf(liveIDs), m.live) || len(liveIDs) != len(m.live) {
		t.Errorf("EntitiesView.All = %v, want %v", liveIDs, slices.Collect(maps.Keys(m.live)))
	}
	equal(t, "Len A", va.Len(), len(m.a))
	equal(t, "Len B", vb.Len(), len(m.b))
	equal(t, "Len C", vc.Len(), len(m.c))
	equal(t, "IsEmpty A", va.IsEmpty(), len(m.a) == 0)
	// Slice and IDs line up, and hold exactly the model's components.
	gotA := map[ecs.EntityID]int32{}
	for i, id := range va.IDs() {
		gotA[id] = va.Slice()[i].V
	}
	if !maps.Equal(gotA, m.a) {
		t.Errorf("storage A = %v, want %v", gotA, m.a)
	}
	gotB := map[ecs.EntityID]uint8{}
	for id, b := range vb.WithID() {
		gotB[id] = b.V
	}
	if !maps.Equal(gotB, m.b) {
		t.Errorf("storage B = %v, want %v", gotB, m.b)
	}
	gotC := map[ecs.EntityID]bool{}
	for _, id := range vc.IDs() {
		gotC[id] = true
	}
	if !maps.Equal(gotC, m.c) {
		t.Errorf("storage C = %v, want %v", gotC, m.c)
	}
	// Per id, through views: Contains and Get agree with the model for
	// live and dead ids alike.
	probe := append(slices.Clone(m.issued), ecs.NullID, fzForge(uint32(len(m.issued)+5), 0))
	if n := len(m.issued); n > 0 { // a generation the last slot has not reached
		probe = append(probe, fzForge(m.issued[n-1].Index(), m.issued[n-1].Generation()+3))
	}
	for _, id := range probe {
		row := m.row(id)
		equal(t, fmt.Sprintf("IsAlive(%v)", id), ents.IsAlive(id), m.live[id])
		equal(t, fmt.Sprintf("View[A].Contains(%v)", id), va.Contains(id), row.HasA)
		equal(t, fmt.Sprintf("View[B].Contains(%v)", id), vb.Contains(id), row.HasB)
		equal(t, fmt.Sprintf("View[C].Contains(%v)", id), vc.Contains(id), row.HasC)
		if p, ok := va.Get(id); ok != row.HasA || (ok && p.V != row.A) {
			t.Errorf("View[A].Get(%v) = %v, %v; model %v", id, p, ok, row)
		}
	}
	// Lookup over the same ids (twice over, so that some repeat): those
	// with a component, in order, with the model's values.
	probe2 := append(slices.Clone(probe), probe...)
	var wantA, gotAs []string
	var wantB, gotBs []string
	for _, id := range probe2 {
		if row := m.row(id); row.HasA {
			wantA = append(wantA, fmt.Sprint(id, row.A))
		}
		if row := m.row(id); row.HasB {
			wantB = append(wantB, fmt.Sprint(id, row.B))
		}
	}
	for id, a := range va.Lookup(probe2) {
		gotAs = append(gotAs, fmt.Sprint(id, a.V))
	}
	for id, b := range vb.Lookup(probe2) {
		gotBs = append(gotBs, fmt.Sprint(id, b.V))
	}
	if !slices.Equal(gotAs, wantA) {
		t.Errorf("View[A].Lookup = %v, want %v", gotAs, wantA)
	}
	if !slices.Equal(gotBs, wantB) {
		t.Errorf("View[B].Lookup = %v, want %v", gotBs, wantB)
	}
	release()
	r.compareTerminating(probe)
	r.compareIso(probe)
	if m.req && !r.deferSync {
		// After a sync point every live A has its B (a model check: the
		// world's storages equal the model's).
		for id := range m.a {
			if _, hasB := m.b[id]; m.live[id] && !hasB {
				t.Errorf("model: live %v has an A and no B after the sync point", id)
			}
		}
	}
	// Through the World functions, which check liveness first.
	for _, id := range probe {
		row := m.row(id)
		equal(t, "World.IsAlive", w.IsAlive(id), m.live[id])
		a, err := ecs.Get[fzA](w, id)
		switch {
		case !m.live[id]:
			errIs(t, err, ecs.ErrDeadEntity)
		case row.HasA:
			if err != nil || a.V != row.A {
				t.Errorf("Get[A](%v) = %v, %v; model %v", id, a, err, row)
			}
		default:
			errIs(t, err, ecs.ErrMissingComponent)
		}
		has, err := ecs.Contains[fzB](w, id)
		must(t, err)
		equal(t, fmt.Sprintf("Contains[B](%v)", id), has, m.live[id] && row.HasB)
		if m.live[id] && row.HasA && row.HasB && row.HasC {
			a, b, _, err := ecs.Get3[fzA, fzB, fzC](w, id)
			if err != nil || a.V != row.A || b.V != row.B {
				t.Errorf("Get3(%v) = %v, %v, %v; model %v", id, a, b, err, row)
			}
		}
	}
}

// compareTerminating checks, in finalizer mode, that the live entities
// of the world's Terminating storage are the model's terminating ones,
// through a View[ecs.Terminating] and ecs.Contains. (The storage may
// also hold what DeleteUnchecked left behind under dead ids: the model
// does not follow those.)
func (r *fzRun) compareTerminating(probe []ecs.EntityID) {
	t, m := r.t, r.m
	if !m.fin {
		return
	}
	var vt ecs.View[ecs.Terminating]
	release, err := r.w.Borrow(&vt)
	if err != nil {
		t.Fatalf("Borrow(View[Terminating]): %v", err)
	}
	got := map[ecs.EntityID]bool{}
	for _, id := range vt.IDs() {
		if m.live[id] {
			got[id] = true
		}
	}
	for _, id := range probe {
		if m.live[id] {
			equal(t, fmt.Sprintf("View[Terminating].Contains(%v)", id), vt.Contains(id), m.term[id])
		}
	}
	release()
	if !maps.Equal(got, m.term) {
		t.Errorf("live Terminating entities %v, model %v", got, m.term)
	}
	for id := range m.term {
		if !m.c[id] && !r.deferSync { // else waiting for the sync point
			t.Errorf("model: terminating %v has no C after the step", id)
		}
	}
	for _, id := range probe {
		has, err := ecs.Contains[ecs.Terminating](r.w, id)
		if m.live[id] {
			r.noErr("Contains[Terminating]", err)
			equal(t, fmt.Sprintf("Contains[Terminating](%v)", id), has, m.term[id])
		}
	}
}

func setOf(ids []ecs.EntityID) map[ecs.EntityID]bool {
	s := make(map[ecs.EntityID]bool, len(ids))
	for _, id := range ids {
		s[id] = true
	}
	return s
}

// sortAs sorts the storage of type f (0: fzA, 1: fzB, 2: fzC) in the
// order of l's, and checks the outcome: refused for one type, and
// otherwise the entities of both first in f's storage, in l's order. The
// model does not change: compare checks that every entity kept its
// components.
func (r *fzRun) sortAs(f, l byte) {
	sorts := [3][3]func(ecs.Storages) (int, error){
		{ecs.SortAs[fzA, fzA], ecs.SortAs[fzA, fzB], ecs.SortAs[fzA, fzC]},
		{ecs.SortAs[fzB, fzA], ecs.SortAs[fzB, fzB], ecs.SortAs[fzB, fzC]},
		{ecs.SortAs[fzC, fzA], ecs.SortAs[fzC, fzB], ecs.SortAs[fzC, fzC]},
	}
	orders := [3]func(*ecs.World) []ecs.EntityID{ecs.OrderOf[fzA], ecs.OrderOf[fzB], ecs.OrderOf[fzC]}
	before := orders[f](r.w)
	// SortAs purges the leftovers of DeleteUnchecked first, even when it
	// then refuses: the order it leaves is the purge's.
	left := r.m.leftovers(1 << f)
	r.purge()
	moved, err := sorts[f][l](r.w)
	after := orders[f](r.w)
	if f == l {
		if !errors.Is(err, ecs.ErrSortRefused) || moved != 0 || (left == 0 && !slices.Equal(before, after)) {
			r.t.Errorf("SortAs of a type as itself: moved %d, err %v, order %v -> %v", moved, err, before, after)
		}
		return
	}
	r.noErr("SortAs", err)
	in := map[ecs.EntityID]bool{}
	for _, id := range after {
		in[id] = true
	}
	var want []ecs.EntityID
	for _, id := range orders[l](r.w) {
		if in[id] {
			want = append(want, id)
		}
	}
	if !slices.Equal(after[:len(want)], want) {
		r.t.Errorf("after SortAs, the storage starts %v, want %v (the leader's order)", after[:len(want)], want)
	}
}

// onViewMut runs do with a ViewMut of T, in a system (path 0) or through
// World.Borrow (path 1); neither purges DeleteUnchecked's leftovers.
func onViewMut[T any](r *fzRun, op string, path byte, do func(ecs.ViewMut[T])) {
	r.t.Helper()
	if path == 0 {
		r.run(op, func(vm ecs.ViewMut[T]) { do(vm) })
		return
	}
	var vm ecs.ViewMut[T]
	release, err := r.w.Borrow(&vm)
	if err != nil {
		r.t.Errorf("%s: Borrow: %v", op, err)
		return
	}
	defer release()
	r.deferSync = r.m.modal()
	r.frames(vm)
	do(vm)
}

// fzKeyOf returns the sort key of each type's component in the model: its
// value (C has none: every key is equal, and a sort moves nothing).
func (r *fzRun) fzKeyOf(typ byte) func(ecs.EntityID) int {
	switch typ {
	case 0:
		return func(id ecs.EntityID) int { return int(r.m.a[id]) }
	case 1:
		return func(id ecs.EntityID) int { return int(r.m.b[id]) }
	default:
		return func(ecs.EntityID) int { return 0 }
	}
}

// sortStorage sorts the storage of type typ by its values, ascending or
// descending (form bit 0), by SortFunc or SortByKey (form bit 1), and
// checks the order: the storage's old order, sorted stably. Contents do
// not change; compare checks them after the step.
func (r *fzRun) sortStorage(typ, form, path byte) {
	key := r.fzKeyOf(typ)
	sign := 1
	if form&1 != 0 {
		sign = -1
	}
	byKey := form&2 != 0
	check := func(before, after []ecs.EntityID, err error) {
		r.noErr("sort", err)
		want := slices.Clone(before)
		slices.SortStableFunc(want, func(x, y ecs.EntityID) int { return sign * (key(x) - key(y)) })
		if !slices.Equal(after, want) {
			r.t.Errorf("sort: order %v, want %v", after, want)
		}
	}
	switch typ {
	case 0:
		onViewMut(r, "sort", path, func(vm ecs.ViewMut[fzA]) {
			before := slices.Clone(vm.IDs())
			var err error
			if byKey {
				err = ecs.SortByKey(vm, func(c *fzA) int { return sign * int(c.V) })
			} else {
				err = vm.SortFunc(func(x, y *fzA) int { return sign * (int(x.V) - int(y.V)) })
			}
			check(before, vm.IDs(), err)
		})
	case 1:
		onViewMut(r, "sort", path, func(vm ecs.ViewMut[fzB]) {
			before := slices.Clone(vm.IDs())
			var err error
			if byKey {
				err = ecs.SortByKey(vm, func(c *fzB) int { return sign * int(c.V) })
			} else {
				err = vm.SortFunc(func(x, y *fzB) int { return sign * (int(x.V) - int(y.V)) })
			}
			check(before, vm.IDs(), err)
		})
	default:
		onViewMut(r, "sort", path, func(vm ecs.ViewMut[fzC]) {
			before := slices.Clone(vm.IDs())
			var err error
			if byKey {
				err = ecs.SortByKey(vm, func(*fzC) int { return 0 })
			} else {
				err = vm.SortFunc(func(x, y *fzC) int { return 0 })
			}
			check(before, vm.IDs(), err)
		})
	}
}

// retain keeps the components of type typ whose value (A, B) or index
// (C) is not rem modulo mod, checks the count and that the kept keep
// their order, and deletes the others from the model. In requirement
// mode, Retain of B returns the *RequiredError of the first B to go (in
// storage order) whose id has an A, deleting nothing.
func (r *fzRun) retain(typ byte, mod, rem int32, path byte) {
	var drop func(ecs.EntityID) bool
	var model map[ecs.EntityID]bool
	switch typ {
	case 0:
		drop = func(id ecs.EntityID) bool { return r.m.a[id]%mod == rem || -r.m.a[id]%mod == rem }
	case 1:
		drop = func(id ecs.EntityID) bool { return int32(r.m.b[id])%mod == rem }
	default:
		drop = func(id ecs.EntityID) bool { return int32(id.Index()%uint32(mod)) == rem }
	}
	model = map[ecs.EntityID]bool{}
	check := func(before, after []ecs.EntityID, n int, err error) {
		if typ == 1 {
			if i := slices.IndexFunc(before, func(id ecs.EntityID) bool { return drop(id) && r.m.keepsB(id) }); i >= 0 {
				r.required("ViewMut[ecs_test.fzB].Retain", before[i], err)
				if n != 0 || !slices.Equal(after, before) {
					r.t.Errorf("refused retain: deleted %d, order %v -> %v", n, before, after)
				}
				return
			}
		}
		r.noErr("retain", err)
		want := slices.DeleteFunc(slices.Clone(before), drop)
		if n != len(before)-len(want) {
			r.t.Errorf("retain: deleted %d, want %d", n, len(before)-len(want))
		}
		if !slices.Equal(after, want) {
			r.t.Errorf("retain: order %v, want %v", after, want)
		}
		for _, id := range before {
			model[id] = drop(id)
		}
	}
	switch typ {
	case 0:
		onViewMut(r, "retain", path, func(vm ecs.ViewMut[fzA]) {
			before := slices.Clone(vm.IDs())
			n, err := vm.Retain(func(id ecs.EntityID, c *fzA) bool { return c.V%mod != rem && -c.V%mod != rem })
			check(before, vm.IDs(), n, err)
		})
	case 1:
		onViewMut(r, "retain", path, func(vm ecs.ViewMut[fzB]) {
			before := slices.Clone(vm.IDs())
			n, err := vm.Retain(func(id ecs.EntityID, c *fzB) bool { return int32(c.V)%mod != rem })
			check(before, vm.IDs(), n, err)
		})
	default:
		onViewMut(r, "retain", path, func(vm ecs.ViewMut[fzC]) {
			before := slices.Clone(vm.IDs())
			n, err := vm.Retain(func(id ecs.EntityID, _ *fzC) bool { return int32(id.Index()%uint32(mod)) != rem })
			check(before, vm.IDs(), n, err)
		})
	}
	for id, gone := range model {
		if gone {
			r.m.stripMask(id, 1<<typ)
		}
	}
}

// drain takes every component of type typ out, checks that Drain
// returned the storage's contents in its order and left it empty, and
// empties the model's map. In requirement mode, draining B panics with a
// *RequiredError, taking nothing, while an id has both an A and a B.
func (r *fzRun) drain(typ, path byte) {
	check := func(before, ids []ecs.EntityID, n, left int, val func(int) int) {
		if !slices.Equal(ids, before) || n != len(ids) || left != 0 {
			r.t.Errorf("drain: got %v (%d values), %d left, want %v", ids, n, left, before)
			return
		}
		key := r.fzKeyOf(typ)
		for i, id := range ids {
			if val(i) != key(id) {
				r.t.Errorf("drain: %v came with %d, want %d", id, val(i), key(id))
			}
		}
	}
	switch typ {
	case 0:
		onViewMut(r, "drain", path, func(vm ecs.ViewMut[fzA]) {
			before := slices.Clone(vm.IDs())
			ids, vals := vm.Drain()
			check(before, ids, len(vals), vm.Len(), func(i int) int { return int(vals[i].V) })
		})
		clear(r.m.a)
	case 1:
		refused := r.m.req && r.m.hasAB()
		var p any
		onViewMut(r, "drain", path, func(vm ecs.ViewMut[fzB]) {
			before := slices.Clone(vm.IDs())
			var ids []ecs.EntityID
			var vals []fzB
			if p = vmPanicValue(func() { ids, vals = vm.DrainInto(nil, nil) }); p == nil {
				check(before, ids, len(vals), vm.Len(), func(i int) int { return int(vals[i].V) })
			}
		})
		if refused {
			r.requiredPanic("ViewMut[ecs_test.fzB].Drain", ecs.NullID, p)
			return
		}
		if p != nil {
			r.t.Errorf("drain of B panicked with %v", p)
		}
		clear(r.m.b)
	default:
		onViewMut(r, "drain", path, func(vm ecs.ViewMut[fzC]) {
			before := slices.Clone(vm.IDs())
			ids, vals := vm.Drain()
			check(before, ids, len(vals), vm.Len(), func(int) int { return 0 })
		})
		r.m.clearC()
	}
}

// spawnAt spawns an entity at base's index with base's generation plus
// step (step 3: a generation that can never be alive), through
// World.SpawnAt (path 0) or EntitiesViewMut.SpawnAt, and checks the
// outcome against the model: refused for NullID, a reserved index or
// generation, a live index (naming the live entity), or a generation at
// or below the last one issued for the index; spawned otherwise.
func (r *fzRun) spawnAt(base ecs.EntityID, step, path byte) {
	id := base
	if !base.IsNull() {
		g := base.Generation() + uint32(step)
		if step == 3 {
			g = 1 << 31
		}
		id = fzForge(base.Index(), g)
	}
	if len(r.m.issued) >= fzMaxIDs {
		r.logf("spawnAt: skipped, %d ids issued", fzMaxIDs)
		return
	}
	var err error
	if path == 0 {
		r.purge()
		err = r.w.SpawnAt(id)
	} else {
		r.run("spawnAt", func(e ecs.EntitiesViewMut) { err = e.SpawnAt(id) })
	}
	r.logf("spawnAt %v path=%d -> %v", id, path, err)
	valid := !id.IsNull() && id.Index() < math.MaxUint32 && id.Generation() < 1<<31
	live := ecs.NullID // the live entity at id's index, named only for a valid id
	for l := range r.m.live {
		if valid && r.m.live[l] && l.Index() == id.Index() {
			live = l
		}
	}
	slots := 0 // the world's slots: one past the highest index issued
	for i := range r.m.gens {
		slots = max(slots, int(i)+1)
	}
	// SpawnAt reaches at most 1<<24 indices past the last slot.
	valid = valid && uint64(id.Index()) < uint64(slots)+1<<24
	last, used := r.m.gens[id.Index()]
	ok := valid && live.IsNull() && (!used || id.Generation() > last)
	if !ok {
		var se *ecs.SpawnError
		if !errors.As(err, &se) || !errors.Is(err, ecs.ErrSpawnRefused) || se.ID != id || se.Live != live {
			r.t.Errorf("spawnAt(%v): got %v, want a *SpawnError naming live entity %v", id, err, live)
		}
		return
	}
	r.noErr("spawnAt", err)
	r.issue(id)
}

// addDistinct gives id a component of type A (typ 0) or B unless it has
// an equal one, through AddComponentDistinct (path 0) or AddDistinct, and
// checks the changed flag against the model.
func (r *fzRun) addDistinct(id ecs.EntityID, typ, path byte, v int32) {
	if path == 0 {
		r.purge()
	}
	var changed bool
	var err error
	switch {
	case path == 0 && typ == 0:
		changed, err = ecs.AddComponentDistinct(r.w, id, fzA{v})
	case path == 0:
		changed, err = ecs.AddComponentDistinct(r.w, id, fzB{uint8(v)})
	default:
		r.run("addDistinct", func(e ecs.EntitiesView, va ecs.ViewMut[fzA], vb ecs.ViewMut[fzB]) {
			if typ == 0 {
				changed, err = ecs.AddDistinct(va, e, id, fzA{v})
			} else {
				changed, err = ecs.AddDistinct(vb, e, id, fzB{uint8(v)})
			}
		})
	}
	r.logf("addDistinct %v type=%d path=%d v=%d -> %v %v", id, typ, path, v, changed, err)
	if !r.m.live[id] {
		r.dead("addDistinct", id, err)
		if changed {
			r.t.Errorf("addDistinct(%v): changed on a dead id", id)
		}
		return
	}
	r.noErr("addDistinct", err)
	row := r.m.row(id)
	want := true
	if typ == 0 {
		want = !row.HasA || row.A != v
		r.m.set(id, mA, v)
	} else {
		want = !row.HasB || row.B != uint8(v)
		r.m.set(id, mB, v)
	}
	if changed != want {
		r.t.Errorf("addDistinct(%v) type %d value %d: changed %v, want %v (row %+v)", id, typ, v, changed, want, row)
	}
}

// fzViewSets are the views of addTo and removeFrom: which types, in
// which order (A is 0, B 1, C 2). The last set names B twice: a refused
// call.
var fzViewSets = [5][]byte{{0, 1}, {2, 0}, {1, 2}, {1, 2, 0}, {1, 1}}

// fzTypeMask returns the mask of the types of set.
func fzTypeMask(set []byte) byte {
	var m byte
	for _, k := range set {
		m |= 1 << k
	}
	return m
}

// onViews runs do with views of every type and an entities view, in a
// system (path 0) or from World.Borrow.
func (r *fzRun) onViews(op string, path byte, do func(e ecs.AliveChecker, va ecs.ViewMut[fzA], vb ecs.ViewMut[fzB], vc ecs.ViewMut[fzC])) {
	r.t.Helper()
	if path == 0 {
		r.run(op, func(e ecs.EntitiesView, va ecs.ViewMut[fzA], vb ecs.ViewMut[fzB], vc ecs.ViewMut[fzC]) {
			do(e, va, vb, vc)
		})
		return
	}
	var e ecs.EntitiesViewMut
	var va ecs.ViewMut[fzA]
	var vb ecs.ViewMut[fzB]
	var vc ecs.ViewMut[fzC]
	release, err := r.w.Borrow(&e, &va, &vb, &vc)
	if err != nil {
		r.t.Errorf("%s: Borrow: %v", op, err)
		return
	}
	defer release()
	r.deferSync = r.m.modal()
	do(e, va, vb, vc)
}

// addTo gives id components of the types of the view set sel through
// AddTo2 or AddTo3, in a system (path 0) or through views from
// World.Borrow: refused for a dead id, and for the set naming B twice
// (then with a *ViewsError, even for a dead id), changing nothing.
func (r *fzRun) addTo(id ecs.EntityID, sel, path byte, v int32) {
	a, b, c := fzA{v}, fzB{uint8(v)}, fzC{}
	var err error
	r.onViews("addTo", path, func(e ecs.AliveChecker, va ecs.ViewMut[fzA], vb ecs.ViewMut[fzB], vc ecs.ViewMut[fzC]) {
		switch sel {
		case 0:
			err = ecs.AddTo2(e, id, va, vb, a, b)
		case 1:
			err = ecs.AddTo2(e, id, vc, va, c, a)
		case 2:
			err = ecs.AddTo2(e, id, vb, vc, b, c)
		case 3:
			err = ecs.AddTo3(e, id, vb, vc, va, b, c, a)
		default:
			err = ecs.AddTo2(e, id, vb, vb, b, fzB{uint8(v + 1)})
		}
	})
	r.logf("addTo %v views=%v path=%d v=%d -> %v", id, fzViewSets[sel], path, v, err)
	if sel == 4 {
		var ve *ecs.ViewsError
		if !errors.As(err, &ve) || !errors.Is(err, ecs.ErrSameStorage) || ve.Arg != 2 || ve.Same != 1 {
			r.t.Errorf("addTo(%v) through B twice: %v, want a *ViewsError wrapping ErrSameStorage", id, err)
		}
		return
	}
	if !r.m.live[id] {
		r.dead("AddTo", id, err)
		return
	}
	if fzTypeMask(fzViewSets[sel])&mC != 0 && r.m.refusesC(id) { // all or nothing
		r.finRefused("AddTo", id, err)
		return
	}
	r.noErr("AddTo", err)
	r.m.set(id, fzTypeMask(fzViewSets[sel]), v)
}

// removeFrom takes id's components of the types of the view set sel out
// through RemoveFrom2 or RemoveFrom3, in a system (path 0) or through
// views from World.Borrow, and checks what each view gave back against
// the model: views do not check liveness, so a dead id gives what
// DeleteUnchecked left under it, if anything. The set naming B twice
// panics with a *ViewsError and changes nothing. In requirement mode a
// set that takes the B of an id that has an A, and not the A, panics
// with a *RequiredError and changes nothing.
func (r *fzRun) removeFrom(id ecs.EntityID, sel, path byte) {
	row := r.m.row(id)
	var ta ecs.Taken[fzA]
	var tb ecs.Taken[fzB]
	var tc ecs.Taken[fzC]
	var p any
	r.onViews("removeFrom", path, func(_ ecs.AliveChecker, va ecs.ViewMut[fzA], vb ecs.ViewMut[fzB], vc ecs.ViewMut[fzC]) {
		p = vmPanicValue(func() {
			switch sel {
			case 0:
				ta, tb = ecs.RemoveFrom2(id, va, vb)
			case 1:
				tc, ta = ecs.RemoveFrom2(id, vc, va)
			case 2:
				tb, tc = ecs.RemoveFrom2(id, vb, vc)
			case 3:
				tb, tc, ta = ecs.RemoveFrom3(id, vb, vc, va)
			default:
				tb, _ = ecs.RemoveFrom2(id, vb, vb)
			}
		})
	})
	r.logf("removeFrom %v views=%v path=%d -> %v %v %v (panic %v)", id, fzViewSets[sel], path, ta, tb, tc, p)
	if sel == 4 {
		err, _ := p.(error)
		var ve *ecs.ViewsError
		if !errors.As(err, &ve) || !errors.Is(err, ecs.ErrSameStorage) {
			r.t.Errorf("removeFrom(%v) through B twice: panicked with %v, want a *ViewsError wrapping ErrSameStorage", id, p)
		}
		return
	}
	mask := fzTypeMask(fzViewSets[sel])
	if mask&(mA|mB) == mB && r.m.keepsB(id) {
		// Requirement mode: the B goes only with the A.
		r.requiredPanic(map[bool]string{true: "RemoveFrom2", false: "RemoveFrom3"}[len(fzViewSets[sel]) == 2], id, p)
		return
	}
	if p != nil {
		r.t.Errorf("removeFrom(%v): panicked with %v", id, p)
		return
	}
	if mask&(mA|mB) == mA|mB && r.m.keepsB(id) {
		r.st.reqBoth++
	}
	want := func(typ byte, has bool) bool { return mask&(1<<typ) != 0 && has }
	if ta.OK != want(0, row.HasA) || tb.OK != want(1, row.HasB) || tc.OK != want(2, row.HasC) {
		r.t.Errorf("removeFrom(%v) views %v: got %v %v %v, model row %+v", id, fzViewSets[sel], ta, tb, tc, row)
	}
	if ta.OK {
		equal(r.t, "removeFrom A", ta.Value.V, row.A)
	}
	if tb.OK {
		equal(r.t, "removeFrom B", tb.Value.V, row.B)
	}
	r.m.stripMask(id, mask)
}

// Isotope mode (see fzIsoByte): the model's isotopes are fzA components
// under the discriminants fzDisc(0), fzDisc(1) and fzDisc(2), apart from
// the ordinary fzA storage.

// fzIsoByte, as the input's first byte, turns isotope mode on: the
// steps start at the next byte (or the one after it, when that names
// another mode: finalizer, requirement or initializer mode then run
// too), and each op byte is taken modulo fzOpIsoEnd rather than
// fzOpCount, so that the isotope operations, fzOpCount and up, can be
// decoded. An input of another first byte decodes as it always did.
const fzIsoByte = 252

// fzDisc is isotope mode's discriminant type, of fzDiscs values.
type fzDisc uint8

const fzDiscs = 3

// fzIsoOne and fzIsoTwo are the discriminant sets of isotope mode's
// partial views: fzIsoTwo lists 2 before 1, and 2 twice (a repeat counts
// once), so its borrow creates 2's storage first.
type fzIsoOne struct{}

func (fzIsoOne) Discriminants() []fzDisc { return []fzDisc{0} }

type fzIsoTwo struct{}

func (fzIsoTwo) Discriminants() []fzDisc { return []fzDisc{2, 1, 2} }

// fzIsoKey keys the model's isotopes.
type fzIsoKey struct {
	d  fzDisc
	id ecs.EntityID
}

// Isotope operations, reached in isotope mode only.
const (
	fzOpIsoAdd      = fzOpCount + iota // id, disc, path, value
	fzOpIsoRemove                      // id, disc, path
	fzOpIsoModify                      // form, disc, delta
	fzOpIsoInSystem                    // n, then n times: kind, id, value
	fzOpIsoEnd
)

// fzIsoPaths is the number of paths of fzOpIsoAdd and fzOpIsoRemove, and
// of forms of fzOpIsoModify; fzIsoKinds of the calls of fzOpIsoInSystem.
const (
	fzIsoPaths = 6
	fzIsoKinds = 5
)

// touch notes that d's storage exists in the world: its creation order
// is IsoView.Discriminants' order.
func (m *fzModel) touch(ds ...fzDisc) {
	for _, d := range ds {
		if !slices.Contains(m.discs, d) {
			m.discs = append(m.discs, d)
		}
	}
}

// isoCount returns how many isotopes id has.
func (m *fzModel) isoCount(id ecs.EntityID) int {
	n := 0
	for d := range fzDisc(fzDiscs) {
		if _, ok := m.isos[fzIsoKey{d, id}]; ok {
			n++
		}
	}
	return n
}

// stripIso deletes id's isotopes.
func (m *fzModel) stripIso(id ecs.EntityID) {
	if len(m.isos) == 0 {
		return
	}
	for d := range fzDisc(fzDiscs) {
		if _, ok := m.isos[fzIsoKey{d, id}]; ok {
			delete(m.isos, fzIsoKey{d, id})
			m.isoGone++
		}
	}
}

// putIso gives id the isotope v under d. A leftover of DeleteUnchecked
// under d at id's index, under another id, goes: the new component
// takes its place in d's storage (as takePlace).
func (m *fzModel) putIso(id ecs.EntityID, d fzDisc, v int32) {
	for _, u := range m.unpurged {
		if u.Index() != id.Index() || u == id {
			continue
		}
		if _, ok := m.isos[fzIsoKey{d, u}]; ok {
			delete(m.isos, fzIsoKey{d, u})
			m.isoReplaced++
		}
	}
	m.isos[fzIsoKey{d, id}] = v
}

// isoOf returns the model's isotopes under d, by id.
func (m *fzModel) isoOf(d fzDisc) map[ecs.EntityID]int32 {
	out := map[ecs.EntityID]int32{}
	for k, v := range m.isos {
		if k.d == d {
			out[k.id] = v
		}
	}
	return out
}

// isoSets returns the discriminants of S, in its order, without repeats.
func isoSets[S ecs.IsoSet[fzDisc]]() []fzDisc {
	var s S
	var out []fzDisc
	for _, d := range s.Discriminants() {
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// fzIsoMut is what the isotope operations use of a write to the
// isotopes, full (IsoViewMut) or partial (IsoSubViewMut).
type fzIsoMut struct {
	of       func(fzDisc) ecs.ViewMut[fzA]
	get      func(ecs.EntityID, fzDisc) (*fzA, bool)
	isotopes func(ecs.EntityID) iter.Seq2[fzDisc, *fzA]
	discs    func() []fzDisc
}

// onIsoMut runs do with an EntitiesView, a ViewMut[fzB] and a write to
// the isotopes: full or partial (sub), in a system or from World.Borrow
// (borrow). The partial write is of a set holding d: fzIsoOne for 0,
// fzIsoTwo for the others. None of them purges DeleteUnchecked's
// leftovers. A full write's Of creates the storage it names; a partial
// write's borrow creates its set's (the model's touch, by do for the
// full write, here for the partial one).
func (r *fzRun) onIsoMut(op string, sub, borrow bool, d fzDisc, do func(ecs.EntitiesView, ecs.ViewMut[fzB], fzIsoMut)) {
	r.t.Helper()
	switch {
	case !sub:
		body := func(e ecs.EntitiesView, vb ecs.ViewMut[fzB], v ecs.IsoViewMut[fzDisc, fzA]) {
			do(e, vb, fzIsoMut{of: v.Of, get: v.Get, isotopes: v.Isotopes, discs: v.Discriminants})
		}
		if !borrow {
			r.run(op, body)
			return
		}
		var e ecs.EntitiesView
		var vb ecs.ViewMut[fzB]
		var v ecs.IsoViewMut[fzDisc, fzA]
		release, err := r.w.Borrow(&e, &vb, &v)
		if err != nil {
			r.t.Fatalf("%s: Borrow: %v", op, err)
		}
		defer release()
		body(e, vb, v)
	case d == 0:
		onIsoSubMut[fzIsoOne](r, op, borrow, 1+fzDisc(r.step%2), do)
	default:
		onIsoSubMut[fzIsoTwo](r, op, borrow, 0, do)
	}
}

// onIsoSubMut is onIsoMut's partial write of the set S. After do, it
// asks the view for out, a discriminant outside S, which must panic
// with an *ecs.IsotopeError.
func onIsoSubMut[S ecs.IsoSet[fzDisc]](r *fzRun, op string, borrow bool, out fzDisc, do func(ecs.EntitiesView, ecs.ViewMut[fzB], fzIsoMut)) {
	r.t.Helper()
	r.m.touch(isoSets[S]()...)
	var p any
	body := func(e ecs.EntitiesView, vb ecs.ViewMut[fzB], v ecs.IsoSubViewMut[fzDisc, fzA, S]) {
		do(e, vb, fzIsoMut{of: v.Of, get: v.Get, isotopes: v.Isotopes, discs: v.Discriminants})
		if got := v.Discriminants(); !slices.Equal(got, isoSets[S]()) {
			r.t.Errorf("%s: IsoSubViewMut.Discriminants = %v, want %v", op, got, isoSets[S]())
		}
		p = vmPanicValue(func() {
			if r.step%2 == 0 {
				v.Of(out)
			} else {
				v.Get(ecs.NullID, out)
			}
		})
	}
	if !borrow {
		r.run(op, body)
	} else {
		var e ecs.EntitiesView
		var vb ecs.ViewMut[fzB]
		var v ecs.IsoSubViewMut[fzDisc, fzA, S]
		release, err := r.w.Borrow(&e, &vb, &v)
		if err != nil {
			r.t.Fatalf("%s: Borrow: %v", op, err)
		}
		body(e, vb, v)
		release()
	}
	r.outside(op, out, p)
}

// outside checks that p, what a partial view asked for the
// discriminant out panicked with, is an *ecs.IsotopeError naming it.
func (r *fzRun) outside(op string, out fzDisc, p any) {
	r.t.Helper()
	err, _ := p.(error)
	var ie *ecs.IsotopeError
	if !errors.As(err, &ie) || !errors.Is(err, ecs.ErrIsotope) || ie.Type != "ecs_test.fzA" || ie.Discriminant != fmt.Sprint(out) {
		r.t.Errorf("%s: a partial view asked for %v outside its set panicked with %v, want an *ecs.IsotopeError", op, out, p)
		return
	}
	r.st.isoOutside++
}

// isoAdd gives id the isotope v under d, through one of six paths:
// ecs.AddIsotope on the world (0) or on an AllStoragesViewMut (1), both
// purging DeleteUnchecked's leftovers first and creating d's storage
// only for a live id; ViewMut.AddComponent on the Of(d) of a full write
// (2: in a system, 4: from World.Borrow) or of a partial one (3, 5).
// Every path refuses a dead id with an *ecs.EntityError, changing
// nothing (but for the storage Of creates).
func (r *fzRun) isoAdd(id ecs.EntityID, d fzDisc, path byte, v int32) {
	r.logf("isoAdd %v disc=%d path=%d v=%d", id, d, path, v)
	alive := r.m.live[id]
	var err error
	switch path {
	case 0:
		r.purge()
		err = ecs.AddIsotope(r.w, id, d, fzA{v})
	case 1:
		r.purge() // the AllStoragesViewMut's borrow
		r.run("isoAdd", func(all ecs.AllStoragesViewMut) { err = ecs.AddIsotope(all, id, d, fzA{v}) })
	default:
		r.onIsoMut("isoAdd", path == 3 || path == 5, path >= 4, d, func(e ecs.EntitiesView, _ ecs.ViewMut[fzB], iso fzIsoMut) {
			err = iso.of(d).AddComponent(e, id, fzA{v})
		})
		r.m.touch(d)
	}
	if r.isoAdded(alive, id, d, v, err) {
		r.st.isoAdds[path]++
	}
}

// isoAdded checks the result err of giving id the isotope fzA{v} under d,
// and puts it in the model: an error for a dead id, none for a live one.
// It reports whether the isotope was added.
func (r *fzRun) isoAdded(alive bool, id ecs.EntityID, d fzDisc, v int32, err error) bool {
	if !alive {
		r.dead("AddIsotope", id, err)
		r.st.isoDead++
		return false
	}
	r.noErr("AddIsotope", err)
	r.m.touch(d)
	r.m.putIso(id, d, v)
	return true
}

// isoRemove takes id's isotope under d out, through ecs.RemoveIsotope
// on the world (0) or an AllStoragesViewMut (1), which purge first and
// refuse a dead id with an *ecs.EntityError; or through the Of(d) of a
// full write (2: Remove in a system, 4: Remove from World.Borrow) or of
// a partial one (3: Delete in a system, 5: Remove from World.Borrow),
// which do not check liveness: a dead id gives what DeleteUnchecked
// left under it.
func (r *fzRun) isoRemove(id ecs.EntityID, d fzDisc, path byte) {
	r.logf("isoRemove %v disc=%d path=%d", id, d, path)
	var got fzA
	var ok bool
	var err error
	switch path {
	case 0:
		r.purge()
		got, ok, err = ecs.RemoveIsotope[fzDisc, fzA](r.w, id, d)
	case 1:
		r.purge()
		r.run("isoRemove", func(all ecs.AllStoragesViewMut) { got, ok, err = ecs.RemoveIsotope[fzDisc, fzA](all, id, d) })
	default:
		r.onIsoMut("isoRemove", path == 3 || path == 5, path >= 4, d, func(_ ecs.EntitiesView, _ ecs.ViewMut[fzB], iso fzIsoMut) {
			if path == 3 {
				ok = iso.of(d).Delete(id)
				got.V = r.m.isos[fzIsoKey{d, id}]
			} else {
				got, ok = iso.of(d).Remove(id)
			}
		})
		r.m.touch(d)
	}
	if path < 2 && !r.m.live[id] {
		r.dead("RemoveIsotope", id, err)
		r.st.isoDead++
		if ok {
			r.t.Errorf("RemoveIsotope(%v) of a dead id reported a component", id)
		}
		return
	}
	r.noErr("RemoveIsotope", err)
	want, has := r.m.isos[fzIsoKey{d, id}]
	if ok != has || ok && got.V != want {
		r.t.Errorf("isoRemove %v disc %d path %d: got %v, %v; model %v, %v", id, d, path, got, ok, want, has)
	}
	if has {
		delete(r.m.isos, fzIsoKey{d, id})
		r.st.isoRemoves[path]++
	}
}

// isoModify changes isotopes in place, by form: 0, A += B + delta under d
// for the holders of a B (a join of a full write's Of(d) with a
// ViewMut[fzB], in a system); 1, every isotope of every issued id
// negated through a full write's Isotopes; 2, B += A for the holders of
// a B and of an isotope under d (a join of a ViewMut[fzB] with a partial
// read's Of(d), whose Isotopes and Discriminants are checked); 3, every
// isotope += delta, through a full write from World.Borrow; 4, Clear of
// d's storage through a partial write; 5, the isotopes under d doubled
// through a partial write's Get.
func (r *fzRun) isoModify(form byte, d fzDisc, delta int32) {
	r.logf("isoModify form=%d disc=%d delta=%d", form, d, delta)
	m := r.m
	switch form {
	case 0:
		r.onIsoMut("isoModify", false, false, d, func(_ ecs.EntitiesView, vb ecs.ViewMut[fzB], iso fzIsoMut) {
			for a, b := range ecs.Join2(iso.of(d), vb).All() {
				a.V += int32(b.V) + delta
			}
		})
		m.touch(d)
		for k, a := range m.isos {
			if b, ok := m.b[k.id]; ok && k.d == d {
				m.isos[k] = a + int32(b) + delta
			}
		}
	case 1:
		r.onIsoMut("isoModify", false, false, d, func(_ ecs.EntitiesView, _ ecs.ViewMut[fzB], iso fzIsoMut) {
			for _, id := range m.issued {
				var seen []fzDisc
				for dd, a := range iso.isotopes(id) {
					seen = append(seen, dd)
					a.V = -a.V
				}
				var want []fzDisc
				for _, dd := range m.discs {
					if _, ok := m.isos[fzIsoKey{dd, id}]; ok {
						want = append(want, dd)
					}
				}
				if !slices.Equal(seen, want) {
					r.t.Errorf("IsoViewMut.Isotopes(%v) gave %v, want %v", id, seen, want)
				}
			}
		})
		for k, a := range m.isos {
			m.isos[k] = -a
		}
	case 2:
		if d == 0 {
			onIsoSubRead[fzIsoOne](r, d, 1)
		} else {
			onIsoSubRead[fzIsoTwo](r, d, 0)
		}
	case 3:
		r.onIsoMut("isoModify", false, true, d, func(_ ecs.EntitiesView, _ ecs.ViewMut[fzB], iso fzIsoMut) {
			for _, dd := range iso.discs() {
				for a := range iso.of(dd).All() {
					a.V += delta
				}
			}
		})
		for k, a := range m.isos {
			m.isos[k] = a + delta
		}
	case 4:
		r.onIsoMut("isoModify", true, false, d, func(_ ecs.EntitiesView, _ ecs.ViewMut[fzB], iso fzIsoMut) {
			iso.of(d).Clear()
		})
		for k := range m.isos {
			if k.d == d {
				delete(m.isos, k)
			}
		}
	default:
		r.onIsoMut("isoModify", true, false, d, func(_ ecs.EntitiesView, _ ecs.ViewMut[fzB], iso fzIsoMut) {
			for _, id := range append(slices.Clone(m.issued), ecs.NullID) {
				a, ok := iso.get(id, d)
				want, has := m.isos[fzIsoKey{d, id}]
				if ok != has || ok && a.V != want {
					r.t.Errorf("IsoSubViewMut.Get(%v, %d) = %v, %v; model %v, %v", id, d, a, ok, want, has)
				}
				if ok {
					a.V *= 2
				}
			}
		})
		for k, a := range m.isos {
			if k.d == d {
				m.isos[k] = a * 2
			}
		}
	}
	r.st.isoModifies[form]++
}

// onIsoSubRead is isoModify's form 2, with a partial read of the set S
// (holding d), in a system beside a ViewMut[fzB]: B += A under d for
// the entities with both, then Isotopes of every issued id against the
// model, restricted to S, and a panic for out, outside S.
func onIsoSubRead[S ecs.IsoSet[fzDisc]](r *fzRun, d, out fzDisc) {
	m := r.m
	m.touch(isoSets[S]()...) // the borrow creates the set's storages
	var p any
	r.run("isoModify", func(vb ecs.ViewMut[fzB], v ecs.IsoSubView[fzDisc, fzA, S]) {
		ecs.Join2(vb, v.Of(d)).EachWithID(func(id ecs.EntityID, b *fzB, a *fzA) { b.V += uint8(a.V) })
		if got := v.Discriminants(); !slices.Equal(got, isoSets[S]()) {
			r.t.Errorf("IsoSubView.Discriminants = %v, want %v", got, isoSets[S]())
		}
		for _, id := range m.issued {
			var got, want []string
			for dd, a := range v.Isotopes(id) {
				got = append(got, fmt.Sprint(dd, "=", a.V))
			}
			for _, dd := range isoSets[S]() {
				if a, ok := m.isos[fzIsoKey{dd, id}]; ok {
					want = append(want, fmt.Sprint(dd, "=", a))
				}
			}
			if !slices.Equal(got, want) {
				r.t.Errorf("IsoSubView.Isotopes(%v) = %v, want %v", id, got, want)
			}
		}
		p = vmPanicValue(func() { v.Get(ecs.NullID, out) })
	})
	r.outside("isoModify", out, p)
	for id, b := range m.b {
		if a, ok := m.isos[fzIsoKey{d, id}]; ok {
			m.b[id] = b + uint8(a)
		}
	}
}

// isoInSystem makes n calls in one system holding an
// AllStoragesViewMut, each checked against the model as it goes:
// deletions (whose components, isotopes included, stay in place until
// the next call that reaches the storages), AddIsotope and RemoveIsotope
// (which refuse the entities just deleted), new entities (most likely in
// a slot just freed) and Strip.
func (r *fzRun) isoInSystem(in *fzReader, n int) {
	type step struct{ kind, sel, v byte }
	steps := make([]step, n)
	for i := range steps {
		steps[i] = step{in.next() % fzIsoKinds, in.next(), in.next()}
	}
	r.logf("isoInSystem %v", steps)
	r.purge()
	r.run("isoInSystem", func(all ecs.AllStoragesViewMut) {
		for _, s := range steps {
			id, d, v := r.pickID(s.sel), fzDisc(s.v%fzDiscs), int32(int8(s.v))
			alive := r.m.live[id]
			switch s.kind {
			case 0:
				err := all.DeleteEntity(id)
				if !alive {
					r.dead("DeleteEntity", id, err)
					continue
				}
				r.deletedInSystem(id, err)
			case 1:
				r.isoAdded(alive, id, d, v, ecs.AddIsotope(all, id, d, fzA{v}))
			case 2:
				got, ok, err := ecs.RemoveIsotope[fzDisc, fzA](all, id, d)
				if !alive {
					r.dead("RemoveIsotope", id, err)
					r.st.isoDead++
					continue
				}
				r.noErr("RemoveIsotope", err)
				want, has := r.m.isos[fzIsoKey{d, id}]
				if ok != has || ok && got.V != want {
					r.t.Errorf("RemoveIsotope(%v, %d) in a system = %v, %v; model %v, %v", id, d, got, ok, want, has)
				}
				delete(r.m.isos, fzIsoKey{d, id})
			case 3:
				if len(r.m.issued) >= fzMaxIDs {
					continue
				}
				r.issue(all.AddEntity())
			default:
				err := all.Strip(id)
				if !alive {
					r.dead("Strip", id, err)
					continue
				}
				r.noErr("Strip", err)
				r.m.strip(id)
			}
			r.st.isoSys[s.kind]++
		}
	})
}

// compareIso checks, in isotope mode, the world's isotopes against the
// model's through an IsoView (which creates no storage here: it reads
// only the discriminants the model says exist, and looks the others up
// with Get, which creates none): Discriminants and their order, each
// discriminant's ids and values (WithID, or IDs and Slice) and look-ups,
// each entity's Isotopes, and a join of one discriminant with an
// ordinary view (fzB, fzA's own storage, or a Not of fzC).
func (r *fzRun) compareIso(probe []ecs.EntityID) {
	t, m := r.t, r.m
	if !m.iso {
		return
	}
	var iv ecs.IsoView[fzDisc, fzA]
	var va ecs.View[fzA]
	var vb ecs.View[fzB]
	var vc ecs.View[fzC]
	release, err := r.w.Borrow(&iv, &va, &vb, &vc)
	if err != nil {
		t.Fatalf("Borrow(IsoView): %v", err)
	}
	defer release()
	if got := iv.Discriminants(); !slices.Equal(got, m.discs) {
		t.Errorf("IsoView.Discriminants = %v, want %v", got, m.discs)
	}
	for d := range fzDisc(fzDiscs) {
		want := m.isoOf(d)
		if !slices.Contains(m.discs, d) {
			if len(want) != 0 {
				t.Errorf("model: isotopes %v under %d, which has no storage", want, d)
			}
			for _, id := range probe {
				if a, ok := iv.Get(id, d); ok {
					t.Errorf("IsoView.Get(%v, %d) = %v with no storage", id, d, a)
				}
			}
			continue
		}
		v := iv.Of(d)
		got := map[ecs.EntityID]int32{}
		if r.step%2 == 0 {
			for id, a := range v.WithID() {
				got[id] = a.V
			}
		} else {
			ids, vals := v.IDs(), v.Slice()
			if len(ids) != len(vals) {
				t.Errorf("isotopes under %d: %d ids, %d values", d, len(ids), len(vals))
			}
			for i, id := range ids {
				got[id] = vals[i].V
			}
		}
		if !maps.Equal(got, want) {
			t.Errorf("isotopes under %d = %v, want %v", d, got, want)
		}
		equal(t, fmt.Sprintf("isotopes under %d: Len", d), v.Len(), len(want))
		for _, id := range probe {
			w, has := want[id]
			a, ok := v.Get(id)
			b, ok2 := iv.Get(id, d)
			if ok != has || ok2 != has || has && (a.V != w || b.V != w) || v.Contains(id) != has {
				t.Errorf("isotope %v under %d: Get %v, %v, IsoView.Get %v, %v; model %v, %v", id, d, a, ok, b, ok2, w, has)
			}
		}
	}
	if got := iv.Discriminants(); !slices.Equal(got, m.discs) { // Get created none
		t.Errorf("IsoView.Discriminants after Get = %v, want %v", got, m.discs)
	}
	for _, id := range probe {
		var got, want []string
		for d, a := range iv.Isotopes(id) {
			got = append(got, fmt.Sprint(d, "=", a.V))
		}
		for _, d := range m.discs {
			if a, ok := m.isos[fzIsoKey{d, id}]; ok {
				want = append(want, fmt.Sprint(d, "=", a))
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("IsoView.Isotopes(%v) = %v, want %v", id, got, want)
		}
	}
	if len(m.discs) == 0 {
		return
	}
	d := m.discs[r.step%len(m.discs)]
	of := iv.Of(d)
	got, want := map[ecs.EntityID][2]int32{}, map[ecs.EntityID][2]int32{}
	var count int
	var get func(ecs.EntityID) ([2]int32, bool)
	switch form := r.step / 3 % 3; form {
	case 0:
		it := ecs.Join2(of, vb)
		for id, row := range it.WithID() {
			got[id] = [2]int32{row.A.V, int32(row.B.V)}
		}
		count = it.Count()
		get = func(id ecs.EntityID) ([2]int32, bool) {
			a, b, ok := it.Get(id)
			if !ok {
				return [2]int32{}, false
			}
			return [2]int32{a.V, int32(b.V)}, true
		}
		for id, a := range m.isoOf(d) {
			if b, ok := m.b[id]; ok {
				want[id] = [2]int32{a, int32(b)}
			}
		}
	case 1:
		it := ecs.Join2(va, of)
		it.EachWithID(func(id ecs.EntityID, a, i *fzA) { got[id] = [2]int32{a.V, i.V} })
		count = it.Count()
		get = func(id ecs.EntityID) ([2]int32, bool) {
			a, i, ok := it.Get(id)
			if !ok {
				return [2]int32{}, false
			}
			return [2]int32{a.V, i.V}, true
		}
		for id, i := range m.isoOf(d) {
			if a, ok := m.a[id]; ok {
				want[id] = [2]int32{a, i}
			}
		}
	default:
		it := ecs.Join1(of).Not(vc)
		for cur := it; cur.Next(); {
			got[cur.ID()] = [2]int32{cur.Values().V}
		}
		count = it.Count()
		get = func(id ecs.EntityID) ([2]int32, bool) {
			a, ok := it.Get(id)
			if !ok {
				return [2]int32{}, false
			}
			return [2]int32{a.V}, true
		}
		for id, a := range m.isoOf(d) {
			if !m.c[id] {
				want[id] = [2]int32{a}
			}
		}
	}
	if !maps.Equal(got, want) {
		t.Errorf("join of isotopes under %d (form %d): got %v, want %v", d, r.step/3%3, got, want)
	}
	equal(t, "isotope join Count", count, len(want))
	for _, id := range probe {
		row, ok := get(id)
		wrow, wok := want[id]
		if ok != wok || row != wrow {
			t.Errorf("isotope join Get(%v) = %v, %v; want %v, %v", id, row, ok, wrow, wok)
		}
	}
	if len(want) > 0 {
		r.st.isoJoins[r.step/3%3]++
	}
}
