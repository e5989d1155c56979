package ecs

import (
	"errors"
	"slices"
	"strconv"
	"strings"
)

// ErrGroup is wrapped by the errors of groups: a group that cannot be
// declared, and a change a group refuses. See [GroupError].
var ErrGroup = errors.New("invalid group")

// GroupError reports a group that cannot be declared, or a change that a
// group refuses: in a system (or one [World.Borrow]) holding a [View] of
// one member and a [ViewMut] of another, adding or removing a component
// through the ViewMut would move the components under the View, so
// [ViewMut.AddComponent] and [ViewMut.AddComponentUnchecked] return a
// GroupError and change nothing, and the calls with no error result
// ([ViewMut.AddEntity], [ViewMut.Remove], [ViewMut.Delete]) panic with
// one. Replacing a component, changing values, and joins work as usual.
// It wraps [ErrGroup].
type GroupError struct {
	Group  string // the group, e.g. "Group[main.Pos, main.Vel]"
	Reason string // what is wrong, naming the types involved (and, for a refused change, what to do instead)
	// Op is the refused call, e.g. "ViewMut[main.Vel].AddComponent",
	// and View the view reading the components it would move, e.g.
	// "View[main.Pos]"; both are empty for a declaration.
	Op, View string
}

func (e *GroupError) Error() string {
	if e.Op != "" {
		return "ecs: " + e.Op + ": " + e.Reason
	}
	return "ecs: " + e.Group + ": " + e.Reason
}

// Unwrap returns [ErrGroup].
func (e *GroupError) Unwrap() error { return ErrGroup }

// group is a declared packed owning group: its pack, which the member
// storages keep in step (pack.go), and the members as the world sees them
// (their borrows and access keys), for the frames' group borrows and the
// plans (partners).
type group struct {
	*pack
	storages []groupMember // storages[k] is pack.members[k]
}

// groupMember is the face a storage shows the group layer.
type groupMember interface {
	packMember
	borrowLock() *borrowState
	accessKey() resKey // its key in Access values
}

// addGroup declares the group over members, packing the entities that
// already have all of them.
func (w *World) addGroup(name string, members []groupMember) error {
	for i, m := range members {
		for _, o := range members[:i] {
			if o == m {
				return &GroupError{Group: name, Reason: m.typeName() + " appears twice"}
			}
		}
		if p := m.packOf(); p != nil {
			return &GroupError{Group: name, Reason: m.typeName() + " is already owned by " + p.name + "; a type can be owned by one group only"}
		}
		if err := refuseWalked("AddGroup"+strconv.Itoa(len(members)), "pack the "+m.typeName()+" storage into "+name, m.typeFree(), m.typeName()); err != nil {
			return err
		}
	}
	packed := make([]packMember, len(members))
	for k, m := range members {
		packed[k] = m
	}
	g := &group{pack: newPack(name, packed), storages: members}
	w.workMu.Lock()
	w.groups = append(w.groups, g)
	w.groupGen.Add(1)
	w.workMu.Unlock()
	return nil
}

// Groups and borrowing. Adding or removing a component of one group
// member moves the components of every other member (joined, leave), so
// a ViewMut of one member writes all of them: a frame (a system's or a
// condition's views, or one World.Borrow) holding a ViewMut of a member
// also borrows every other member exclusively, before its views. Without
// this, a system reading another member could run beside the ViewMut's
// system and read the components while they move. Workload plans know
// it too (partners), so such systems are not put in the same batch.
//
// The frame's own Views of such a member take no borrow of their own
// (held): the frame's exclusive borrow covers them. They count as readers
// of the member's storage (sparseIndex.readers) while borrowed: adding or
// removing a component of another member would move the components they
// read (an iteration would visit an entity twice and miss another, a
// pointer would change entities), so it is refused (group.reader,
// sparseSet.groupRefuses) with a GroupError naming both, returned or, by
// the calls with no error result, panicked with. Changing values, and
// joins, work as usual.
//
// A group added while a frame borrows would leave its ViewMuts without
// those borrows: frame.borrow reads the group generation first and again
// once its views hold the all-storages borrow (shared), which a group's
// declaration needs exclusively, and starts over if it changed.

// groupBorrows is what a frame borrows because of groups, for one world
// and group generation.
type groupBorrows struct {
	w     *World
	gen   uint64
	by    string
	held  []resKey      // members in locks that the frame's own Views read too: they take no borrow
	locks []partnerLock // the members the frame borrows exclusively
}

// partnerLock is a borrow a frame takes because of its ViewMuts: an
// exclusive one of a group member because it holds a ViewMut of another
// member, or a shared one (shared) of a type requiring the type of one
// of its ViewMuts, which the ViewMut's removals read (requirements.go).
type partnerLock struct {
	lock     *borrowState
	resource string
	b        borrower
	shared   bool
}

// frameGroupBorrows returns what a frame with params, borrowing for by,
// borrows because of w's groups at generation gen.
func frameGroupBorrows(w *World, gen uint64, by string, params []viewParam) groupBorrows {
	gb := groupBorrows{w: w, gen: gen, by: by}
	var a accessSet
	for _, p := range params {
		p.access(&a)
	}
	lay := w.layoutNow()
	eachPartner(a.list, lay.groups, func(writer Access, g *group, m groupMember) {
		key := m.accessKey()
		if slices.ContainsFunc(a.list, func(x Access) bool { return x.Kind == ComponentStorage && x.key == key && x.Exclusive }) ||
			slices.ContainsFunc(gb.locks, func(e partnerLock) bool { return e.lock == m.borrowLock() }) {
			return // a ViewMut of the frame borrows it, or a lock is taken already
		}
		if slices.ContainsFunc(a.list, func(x Access) bool { return x.Kind == ComponentStorage && x.key == key }) {
			gb.held = append(gb.held, key)
		}
		gb.locks = append(gb.locks, partnerLock{
			lock:     m.borrowLock(),
			resource: m.typeName(),
			b:        borrower{kind: accViewMut, view: movesName(writer, g, m), by: by},
		})
	})
	eachRequirer(a.list, lay.reqs, func(writer Access, r storage) {
		lock := r.borrow()
		if slices.ContainsFunc(a.list, func(x Access) bool { return x.Kind == ComponentStorage && x.key == r.accessKey() }) ||
			slices.ContainsFunc(gb.locks, func(e partnerLock) bool { return e.lock == lock }) {
			return // a view of the frame borrows it, or a lock is taken already
		}
		gb.locks = append(gb.locks, partnerLock{
			lock:     lock,
			resource: r.typeName(),
			b:        borrower{kind: accView, view: checksName(writer, r), by: by},
			shared:   true,
		})
	})
	return gb
}

// layout is what, besides a system's own views, decides what it borrows
// at run time: the world's packed groups and its requirements.
type layout struct {
	groups []*group
	reqs   *requirements
}

// layoutNow returns w's layout.
func (w *World) layoutNow() layout {
	w.workMu.Lock()
	defer w.workMu.Unlock()
	return w.layoutHeld()
}

// layoutHeld returns w's layout; the caller holds workMu.
func (w *World) layoutHeld() layout { return layout{groups: w.groups, reqs: w.reqs} }

// eachRequirer calls fn for every exclusive component access in list to a
// required type, with the storage of each type that requires it.
func eachRequirer(list []Access, reqs *requirements, fn func(writer Access, r storage)) {
	if reqs == nil {
		return
	}
	for _, a := range list {
		if a.Kind != ComponentStorage || !a.Exclusive {
			continue
		}
		for _, r := range reqs.requirers(a.key) {
			fn(a, r)
		}
	}
}

// partners returns list with an exclusive access added for every other
// member of a group that an exclusive access in list is to, and a shared
// one for every type requiring the type of an exclusive access: what a
// system with the accesses list borrows at run time in a world with this
// layout (see frameGroupBorrows). It returns list itself when nothing is
// added.
func partners(list []Access, lay layout) []Access {
	out := list
	grow := func(a Access) {
		if len(out) == len(list) {
			out = slices.Clip(out)
		}
		out = append(out, a)
	}
	eachPartner(list, lay.groups, func(writer Access, g *group, m groupMember) {
		grow(Access{Kind: ComponentStorage, Type: m.typeName(), Exclusive: true, View: movesName(writer, g, m), key: m.accessKey()})
	})
	eachRequirer(list, lay.reqs, func(writer Access, r storage) {
		grow(Access{Kind: ComponentStorage, Type: r.typeName(), View: checksName(writer, r), key: r.accessKey()})
	})
	return out
}

// eachPartner calls fn for every exclusive component access in list to a
// member of one of groups, with each other member of that group.
func eachPartner(list []Access, groups []*group, fn func(writer Access, g *group, m groupMember)) {
	for _, a := range list {
		if a.Kind != ComponentStorage || !a.Exclusive {
			continue
		}
		for _, g := range groups {
			self := slices.IndexFunc(g.storages, func(m groupMember) bool { return m.accessKey() == a.key })
			if self < 0 {
				continue
			}
			for k, m := range g.storages {
				if k != self {
					fn(a, g, m)
				}
			}
		}
	}
}

// movesName names the access writer as it borrows m, a partner in g:
// "ViewMut[main.Vel] (which moves main.Pos: Group[main.Pos, main.Vel])".
func movesName(writer Access, g *group, m groupMember) string {
	return writer.View + " (which moves " + m.typeName() + ": " + g.name + ")"
}

// groupName returns "Group[A, B]" for the storages' types.
func groupName(members []groupMember) string {
	names := make([]string, len(members))
	for i, m := range members {
		names[i] = m.typeName()
	}
	return "Group[" + strings.Join(names, ", ") + "]"
}

// GroupLen returns the number of entities in the group that owns T (the
// entities having every type of the group), and false if no group owns T.
//
// Through a World it borrows T's storage shared for the call, so it
// returns a [*BorrowError] (with 0, false) while a ViewMut of a member of
// T's group is held elsewhere: the group may be changing then.
func GroupLen[T any](s Storages) (int, bool, error) {
	if err := checkWorld(s); err != nil {
		return 0, false, err
	}
	w, _ := s.world()
	st := storageFor[T](w)
	w, locked, err := beginRead(s, &st.lock, st.name)
	if err != nil {
		return 0, false, err
	}
	defer endRead(w, locked, &st.lock)
	if g := st.pack; g != nil {
		if !locked { // through an AllStoragesViewMut, maybe inside an Each
			return g.n - w.doomedInGroup(g), true, nil
		}
		return g.n, true, nil
	}
	return 0, false, nil
}

// The methods below make *sparseSet[T] a groupMember.
