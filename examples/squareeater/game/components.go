package game

// The guide's constants. Sizes and distances are in logical pixels, rates and
// durations in logic frames (60 per second).
const (
	// Width and Height are the size of the logical screen.
	Width, Height = 800.0, 600.0
	// ArenaTop is the top of the arena, where the game is played: the strip
	// of the screen above it holds the heads-up display. The player, the
	// friends and the pellets stay between ArenaTop and Height, so that the
	// HUD never hides any of them.
	ArenaTop = 28.0
	// MaxSize is the size at which a friend is full-grown (and red). The
	// player never grows to it: eating caps the player at [PlayerMaxSize].
	MaxSize = 25.0
	// PlayerMaxSize is the player's largest size, just under MaxSize, so
	// that a full-grown friend is always bigger than the player.
	PlayerMaxSize = MaxSize - 0.01
	// InitSize is a newly spawned friend's size; the player starts at three
	// times it and is defeated below it.
	InitSize = 5.0
	// GrowthRate is how much a friend grows each frame.
	GrowthRate = 0.15
	// Speed is how far a friend bigger than the player moves each frame.
	Speed = 1.5
	// PowerPelletSpawnRate is the guide's pellet spawn rate: a pellet appears
	// with one chance in PowerPelletSpawnRate each frame, one in half of it
	// when there is no pellet. Shop upgrades lower it (see [Upgrade]).
	PowerPelletSpawnRate = 150
	// FriendSpawnRate is the chance, in hundredths, that a friend spawns in a
	// frame while the floor still has friends to spawn: 4 is the guide's one
	// chance in 25. The friends' "spawn rate +4" bonus adds to it.
	FriendSpawnRate = 4
	// PowerUpFrames is how long a power pellet powers the player up.
	PowerUpFrames = 120
	// InvincibleFrames is how long the player is invincible after a hit,
	// by default: three quarters of a second. The guide's value is
	// [GuideInvincibleFrames]; [Options] chooses another.
	//
	// With the guide's 5 frames, a hit costing 2.5 and a red friend
	// chasing the player, one red friend shrinks a player of 15 below 5 in
	// about a quarter of a second. Measured over 200 seeds with scripted
	// players (game/measure_test.go), a slow mouse player cleared floor 1
	// on the first try 32% of the time with 5 frames, 61% with 30, 68%
	// with 45 and 70% with 60; a steadier one 90% with 5 and 97% from 30
	// on; the Bot 99% with any.
	InvincibleFrames = 45
	// GuideInvincibleFrames is the Shipyard guide's invincibility after a
	// hit, 5 frames: Options{InvincibleFrames: GuideInvincibleFrames}
	// plays with it.
	GuideInvincibleFrames = 5
)

// Square is what everything in the game is: a square with its top-left corner
// at (X, Y).
type Square struct{ X, Y, Size float64 }

// Center returns the centre of the square.
func (s Square) Center() (x, y float64) { return s.X + s.Size/2, s.Y + s.Size/2 }

// Collide reports whether s and o touch or overlap (touching edges count, as
// in the guide).
func (s Square) Collide(o Square) bool {
	return s.X+s.Size >= o.X && s.X <= o.X+o.Size &&
		s.Y+s.Size >= o.Y && s.Y <= o.Y+o.Size
}

// Friend is a component: a square that grows, chases the player when it is
// bigger than them, and hurts them once full-grown.
type Friend struct{ Square }

// FullGrown reports whether the friend reached [MaxSize]: it is red and
// hurts the player.
func (f Friend) FullGrown() bool { return f.Size == MaxSize }

// PowerPellet is a component: touching one powers the player up.
type PowerPellet struct{ Square }

// ToDelete is a tag component: [cleanUp] deletes every entity that has one at
// the end of the frame.
type ToDelete struct{}

// Player is a unique: the player's square and timers.
type Player struct {
	Square
	// PelletCounter is the number of frames the player stays powered up.
	PelletCounter int
	// ICounter is the number of frames the player stays invincible.
	ICounter int
	// Reserve is size eaten beyond the cap ([PlayerMaxSize]), kept up to
	// Rules.ReserveMax (which the "size on eat" upgrade raises from 0): a
	// hit takes it before the player's size. It is 0 when a floor starts.
	Reserve float64
}

// PoweredUp reports whether a power pellet is in effect: friends flee and
// full-grown ones can be eaten.
func (p Player) PoweredUp() bool { return p.PelletCounter > 0 }

// Capped reports whether the player reached [PlayerMaxSize]: eating no
// longer makes them grow.
func (p Player) Capped() bool { return p.Size >= PlayerMaxSize }

// Invincible reports whether the player was hit in the last
// Rules.InvincibleFrames frames ([InvincibleFrames] by default) and cannot
// be hit again yet.
func (p Player) Invincible() bool { return p.ICounter > 0 }

// CanEat reports whether the player eats f on contact: f is no bigger than
// the player, or f is full-grown and the player is powered up.
func (p Player) CanEat(f Friend) bool {
	return p.Size >= f.Size || (f.FullGrown() && p.PoweredUp())
}

// Input is one frame of player input, given to [Game.Update] and stored as a
// unique for the systems.
type Input struct {
	// MouseX and MouseY are the mouse position in logical pixels.
	MouseX, MouseY float64
	// Clicked is true on the frame the mouse button is pressed.
	Clicked bool
	// Key is the key pressed this frame: 0 for none, '1' to '5' for a shop
	// choice, ' ' to start or continue.
	Key rune
	// Rewind is true while the rewind key (Backspace) is held: the frame
	// steps the game one frame back instead of playing (see [Game.Update]).
	Rewind bool
}
