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

// group is a packed owning group over two or more storages (DESIGN.md §8):
// the n entities that have a component in every member storage sit at
// positions 0..n-1 of each member, in the same order. A join over exactly
// the member types is then a loop over aligned slices, with no probe per
// entity.
//
// Membership is kept by the storages' insertion and removal paths: an
// entity that gains its last member component is swapped to position n of
// every member (n grows); an entity losing a member component while in the
// group is swapped to position n-1 of every other member (n shrinks), and
// leaves the losing member by two moves there (deletePacked) or, if that
// member is tracked, by the same swap followed by a swap-remove (leave).
// Both are O(number of members).
type group struct {
	name    string
	members []groupMember
	// index[k] is members[k]'s type-free part (see sparseIndex): the
	// group reads its sparse pages to find an entity's position there
	// with no call.
	index [maxGroup]*sparseIndex
	n     int
}

// groupMember is the face a storage shows its group.
type groupMember interface {
	typeName() string
	pos(EntityID) int
	swapPos(i, j int)
	ids() []EntityID
	length() int
	typeFree() *sparseIndex
	noIdent()
	groupOf() *group
	setGroup(g *group, k int) // the storage is g.members[k]
	borrowLock() *borrowState
	accessKey() typeKey // the key of its type in Access values (keyOf)
}

// joined is called by member self after id gained its component there:
// if id now has every member component, every other member moves it to
// the group's end n, n grows, and joined returns n and true. The caller
// then moves its own component to n (it knows its position, and a typed
// call to its own storage costs less than a call through groupMember).
// A component already at the group's end is not swapped (adding to
// entities in storage order never swaps).
func (g *group) joined(self int, id EntityID) (int, bool) {
	n := g.n
	if len(g.members) == 2 { // the usual group, without the loops
		o := 1 - self
		p := posIn(g.index[o].pages, id)
		if p < 0 {
			return 0, false
		}
		if p != n {
			g.swap(o, p, n)
		}
		g.n = n + 1
		return n, true
	}
	var at [maxGroup]int // id's position in each other member
	for k := range g.members {
		if k != self {
			if at[k] = posIn(g.index[k].pages, id); at[k] < 0 {
				return 0, false
			}
		}
	}
	for k := range g.members {
		if k != self && at[k] != n {
			g.swap(k, at[k], n)
		}
	}
	g.n = n + 1
	return n, true
}

// reader returns a member other than self that a View reads in a frame
// that also changes self (sparseIndex.readers), or -1: adding or removing
// self's components would move the reader's under that View.
func (g *group) reader(self int) int {
	for k := range g.members {
		if k != self && g.index[k].readers > 0 {
			return k
		}
	}
	return -1
}

// moveError is the error of the call op of a ViewMut of member self
// ("AddComponent"), doing ("adding") what would move the components of
// member k, which a View of the same frame reads.
func (g *group) moveError(self, k int, op, doing string) *GroupError {
	m, r := g.members[self].typeName(), g.members[k].typeName()
	return &GroupError{
		Group: g.name,
		Op:    "ViewMut[" + m + "]." + op,
		View:  "View[" + r + "]",
		Reason: doing + " a " + m + " component could move the " + r + " components of " + g.name +
			", which a View[" + r + "] of the same system (or World.Borrow) is reading: take " + r +
			" as a ViewMut[" + r + "] there instead, or make the change in another system",
	}
}

// maxGroup is the most member types a group can have (AddGroup2 …
// AddGroup8).
const maxGroup = 8

// leave is called by a member before the component at position x leaves
// it, when its entity is in the group (x below n): the entity moves out of
// the packed range of every member. It sits at position x in every member,
// since the packed ranges hold the same entities in the same order, so no
// member is searched.
func (g *group) leave(x int) {
	g.n--
	if x == g.n {
		return
	}
	for k := range g.members {
		g.swap(k, x, g.n)
	}
}

// swap swaps the components at positions i and j of members[k], with
// their entities, sparse entries and tracking timestamps.
func (g *group) swap(k, i, j int) { g.members[k].swapPos(i, j) }

// addGroup declares the group over members, packing the entities that
// already have all of them.
func (w *World) addGroup(name string, members []groupMember) error {
	for i, m := range members {
		for _, o := range members[:i] {
			if o == m {
				return &GroupError{Group: name, Reason: m.typeName() + " appears twice"}
			}
		}
		if g := m.groupOf(); g != nil {
			return &GroupError{Group: name, Reason: m.typeName() + " is already owned by " + g.name + "; a type can be owned by one group only"}
		}
		if err := refuseWalked("AddGroup"+strconv.Itoa(len(members)), "pack the "+m.typeName()+" storage into "+name, m.typeFree(), m.typeName()); err != nil {
			return err
		}
	}
	g := &group{name: name, members: members}
	driver := 0 // the shortest member
	for k, m := range members {
		m.noIdent() // a member keeps no identity prefix: the group reads its entries
		g.index[k] = m.typeFree()
		if m.length() < members[driver].length() {
			driver = k
		}
	}
	// Scanning the driver in order is safe while packing: a swap moves
	// the entity at position n (n ≤ the scan position, already looked at)
	// to the scan position.
	ids := members[driver].ids()
	for i := 0; i < len(ids); i++ {
		if n, ok := g.joined(driver, ids[i]); ok && i != n {
			g.swap(driver, i, n)
		}
	}
	for k, m := range members {
		m.setGroup(g, k)
	}
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
	held  []typeKey     // members in locks that the frame's own Views read too: they take no borrow
	locks []partnerLock // the members the frame borrows exclusively
}

// partnerLock is an exclusive borrow a frame takes of a group member
// because it holds a ViewMut of another member.
type partnerLock struct {
	lock     *borrowState
	resource string
	b        borrower
}

// frameGroupBorrows returns what a frame with params, borrowing for by,
// borrows because of w's groups at generation gen.
func frameGroupBorrows(w *World, gen uint64, by string, params []viewParam) groupBorrows {
	gb := groupBorrows{w: w, gen: gen, by: by}
	var a accessSet
	for _, p := range params {
		p.access(&a)
	}
	w.workMu.Lock()
	groups := w.groups
	w.workMu.Unlock()
	eachPartner(a.list, groups, func(writer Access, g *group, m groupMember) {
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
	return gb
}

// partners returns list with an exclusive access added for every other
// member of a group that an exclusive access in list is to: what a system
// with the accesses list borrows at run time in a world with these groups
// (see frameGroupBorrows). It returns list itself when nothing is added.
func partners(list []Access, groups []*group) []Access {
	out := list
	eachPartner(list, groups, func(writer Access, g *group, m groupMember) {
		if len(out) == len(list) {
			out = slices.Clip(out)
		}
		out = append(out, Access{Kind: ComponentStorage, Type: m.typeName(), Exclusive: true, View: movesName(writer, g, m), key: m.accessKey()})
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
			self := slices.IndexFunc(g.members, func(m groupMember) bool { return m.accessKey() == a.key })
			if self < 0 {
				continue
			}
			for k, m := range g.members {
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
	if g := st.group; g != nil {
		if !locked { // through an AllStoragesViewMut, maybe inside an Each
			return g.n - w.doomedInGroup(g), true, nil
		}
		return g.n, true, nil
	}
	return 0, false, nil
}

// The methods below make *sparseSet[T] a groupMember.

func (s *sparseSet[T]) groupOf() *group          { return s.group }
func (s *sparseSet[T]) setGroup(g *group, k int) { s.group, s.member = g, k }
func (s *sparseSet[T]) borrowLock() *borrowState { return &s.lock }
func (s *sparseSet[T]) accessKey() typeKey       { return keyOf(s.typ) }

// swapPos swaps the components at positions i and j, with their entities,
// sparse entries and tracking timestamps.
func (s *sparseSet[T]) swapPos(i, j int) {
	if i == j {
		return
	}
	s.cutIdent(min(i, j))
	a, b := s.dense[i], s.dense[j]
	s.dense[i], s.dense[j] = b, a
	s.data[i], s.data[j] = s.data[j], s.data[i]
	s.pages[a.Index()>>pageShift][a.Index()&pageMask] = sparseEntry(a, j)
	s.pages[b.Index()>>pageShift][b.Index()&pageMask] = sparseEntry(b, i)
	if t := s.track; t != nil {
		if t.kinds&TrackInsertion != 0 {
			x := t.insertedAt
			x[i], x[j] = x[j], x[i]
		}
		if t.kinds&TrackModification != 0 {
			x := t.modifiedAt
			xi, xj := x[i], x[j]
			t.setModified(i, xj)
			t.setModified(j, xi)
		}
	}
}
