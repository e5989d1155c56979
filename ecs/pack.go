package ecs

// pack is the storage layer's part of a packed owning group (DESIGN.md
// §8, group.go): the layout its member storages keep together. The n
// entities that have a component in every member storage sit at
// positions 0..n-1 of each member, in the same order. A join over exactly
// the member types is then a loop over aligned slices, with no probe per
// entity. The storages know their pack (sparseSet.pack) and nothing else
// of groups: what a group means for borrows, plans and the World API is
// group.go's.
//
// Membership is kept by the storages' insertion and removal paths: an
// entity that gains its last member component is swapped to position n of
// every member (n grows); an entity losing a member component while in the
// pack is swapped to position n-1 of every other member (n shrinks), and
// leaves the losing member by two moves there (deletePacked) or, if that
// member is tracked, by the same swap followed by a swap-remove (leave).
// Both are O(number of members).
//
// The layer above pins members: sparseIndex.readers counts the Views that
// read a member in a frame that also changes another one. While a member
// other than self is pinned, a change of self that could move the pinned
// components is refused (reader), with the error moveError builds.
type pack struct {
	name    string // the group's, e.g. "Group[main.Pos, main.Vel]"
	members []packMember
	// index[k] is members[k]'s type-free part (see sparseIndex): the
	// pack reads its sparse pages to find an entity's position there
	// with no call.
	index [maxGroup]*sparseIndex
	n     int
	// pins is the sum of the members' pins (sparseIndex.readers), kept
	// by pin and unpin: while it is zero, as it is outside frames that
	// read one member and change another, reader answers with one test.
	pins int
}

// packMember is the face a storage shows its pack.
type packMember interface {
	typeName() string
	pos(EntityID) int
	swapPos(i, j int)
	permute(from []int) // the packed range in another member's new order (sparse_set_sort.go)
	ids() []EntityID
	length() int
	typeFree() *sparseIndex
	noIdent()
	packOf() *pack
	setPack(p *pack, k int) // the storage is p.members[k]
}

// newPack packs members under name: it moves the entities that already
// have all of them to the front of each, and gives each member the pack.
// The caller has checked that no member is in a pack, or given twice.
func newPack(name string, members []packMember) *pack {
	p := &pack{name: name, members: members}
	driver := 0 // the shortest member
	for k, m := range members {
		m.noIdent() // a member keeps no identity prefix: the pack reads its entries
		p.index[k] = m.typeFree()
		if m.length() < members[driver].length() {
			driver = k
		}
	}
	// Scanning the driver in order is safe while packing: a swap moves
	// the entity at position n (n ≤ the scan position, already looked at)
	// to the scan position.
	ids := members[driver].ids()
	for i := 0; i < len(ids); i++ {
		if n, ok := p.joined(driver, ids[i]); ok && i != n {
			p.swap(driver, i, n)
		}
	}
	for k, m := range members {
		m.setPack(p, k)
	}
	return p
}

// joined is called by member self after id gained its component there:
// if id now has every member component, every other member moves it to
// the group's end n, n grows, and joined returns n and true. The caller
// then moves its own component to n (it knows its position, and a typed
// call to its own storage costs less than a call through packMember).
// A component already at the group's end is not swapped (adding to
// entities in storage order never swaps).
func (g *pack) joined(self int, id EntityID) (int, bool) {
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
func (g *pack) reader(self int) int {
	if g.pins == 0 {
		return -1
	}
	for k := range g.members {
		if k != self && g.index[k].readers > 0 {
			return k
		}
	}
	return -1
}

// pin counts one more View reading member k in a frame that also
// changes another member (see reader); unpin counts one fewer. The layer
// above calls them, holding every member exclusively (group.go), so no
// two frames pin members of one pack at once.
func (g *pack) pin(k int) {
	g.index[k].readers++
	g.pins++
}

func (g *pack) unpin(k int) {
	g.index[k].readers--
	g.pins--
}

// moveError is the error of the call op of a ViewMut of member self
// ("AddComponent"), doing ("adding") what would move the components of
// member k, which a View of the same frame reads.
func (g *pack) moveError(self, k int, op, doing string) *GroupError {
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
func (g *pack) leave(x int) {
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
func (g *pack) swap(k, i, j int) { g.members[k].swapPos(i, j) }
