// Package game is the logic of Square Eater, the game the Shipyard guide
// builds chapter by chapter ("A lone square" to "True victory"), finished
// with the floors and the shop the guide leaves as a mission. It imports no
// graphics: a renderer reads the world between frames.
//
// # How it uses Slipway
//
// As the guide uses Shipyard: [Friend], [PowerPellet] and [ToDelete] are
// components; [Player], [State], [Rules], [Spawner], [Score], [Shop],
// [FriendBonuses], the frame's [Input] and the rewind's [History] are
// uniques. The systems are plain
// functions whose parameters are views — movePlayer, moveFriends, grow,
// counters, spawn, collision, cleanUp and checkGameOver — assembled in
// that order as the workload [MainLoop] ("main_loop"), which keeps the
// order between any two that touch the same data and could run the rest in
// parallel (grow and counters). counters is marked OnCaller, so that batch
// runs on the calling goroutine: waking a worker for it cost more than both
// systems. spawn records the new friends and pellets as commands
// (ecs.Commands), applied at an ecs.ApplyCommands item right after it;
// collision flags what is eaten with ToDelete, and cleanUp records their
// deletion, applied at the ApplyCommands before checkGameOver. checkGameOver returns a [GameOver] error (Defeat or
// Victory) that [Game.Update] finds with errors.As through the workload's
// error. A floor's first friends are added with ecs.BulkAddEntity1.
//
// # Rules
//
// The guide's, with its constants: the player's square is centred on the
// mouse (the guide puts its corner there), clamped to the arena: the window
// below the HUD's strip, from [ArenaTop] down. Friends and pellets spawn and
// move in the arena too, so the HUD hides nothing playable. Friends
// grow from their centre by [GrowthRate] a frame up to [MaxSize]; those
// bigger than the player move toward the player at [Speed] (away while the
// player is powered up), steered away from neighbours closer than
// size/√1.5. A full-grown friend touching the player is eaten if the player
// is powered up, does nothing if the player is invincible, and otherwise
// takes 2.5 off the player's size and makes them invincible for
// [InvincibleFrames] frames (45; the guide's 5, [GuideInvincibleFrames],
// with [GuideOptions]: see [InvincibleFrames] for why the default differs).
// A friend no bigger than the player is eaten:
// the player grows by 2.5, capped at [PlayerMaxSize] (MaxSize-0.01). A power pellet spawns with
// one chance in [PowerPelletSpawnRate] per frame (twice as often when there
// is none) and powers the player up for [PowerUpFrames] frames. The floor is
// lost when the player is smaller than [InitSize], won when no friend is
// left and none is left to spawn.
//
// # Floors and shop
//
// On floor n, (n+1)×2 friends spawn in total (+3 per "number" bonus): half
// of them, rounded up, at once when the floor starts, the others one at a
// time with [FriendSpawnRate] chances in 100 per frame. Winning a floor
// leads to the next one; losing it costs one of [Lives] lives and leads back
// to the same floor. Either way the shop comes first, where the player
// picks one [Upgrade] (keys '1' to '5' or a click inside its option's Rect, see [ShopOption]);
// a maxed upgrade cannot be picked, and when all are maxed space or a click
// continues. Each new floor reached (beyond the first, once per floor)
// gives the friends one [Bonus] drawn at random when the floor before it is
// cleared, so that the shop shows it before the pick ([FriendBonuses].Next).
//
// What the mission leaves open is decided so:
//   - Friends' "spawn rate +4" adds 4 to the spawn chance in hundredths per
//     frame: the guide's one chance in 25 is 4, so it makes friends spawn
//     faster.
//   - The player's "power-up spawn rate +10" takes 10 off the pellet
//     spawn rate's one-in-N (150 down to 50 at the cap), so pellets spawn
//     more often.
//   - "Defense +0.4" takes 0.4 off the 2.5 a hit costs (0.5 at the cap).
//   - "Start size +3.0" is added to the player's size at each floor's start
//     (15 up to 24, under MaxSize); "size on eat +0.5" to the 2.5 gained per
//     friend eaten, and it keeps up to 1.0 per level of what eating adds
//     beyond the cap as a reserve ([Player].Reserve) that hits take before
//     the size, so that it is worth something once the start size is
//     maxed (the first friend eaten then reaches the cap);
//     "power-up duration +10" to the 120 frames of power-up.
//   - A run ends in victory when floor [FinalFloor] is cleared, in defeat
//     when the last of the [Lives] lives is lost; the game-over screen then
//     waits for space or a click, which starts a new run at once.
//
// # Rewind
//
// Holding Backspace (in the window or the browser: [Input].Rewind) rewinds
// the game: each logic frame steps one frame back, up to [RewindSeconds]
// (5) back, where it stays; the HUD shows "REWIND", a bar and the seconds
// of history left. Released, the game plays on from the frame restored,
// and the frames rewound are forgotten. Every scene rewinds, the shop and
// the game-over screen included (back into the floor that was lost).
//
// It is built on Slipway's in-memory snapshots: after every frame it plays,
// [Game.Update] copies the world into the next ecs.Snapshot of a ring of
// [RewindFrames]+1, reused lap after lap (ecs.World.SnapshotTo allocates
// nothing once a snapshot has grown to the world's size), and a rewinding
// Update restores the one before (ecs.World.Restore: the same entities
// under the same ids, generations and free list, the same components and
// uniques). The snapshots cover the game's components and the uniques a
// frame reads or writes (ecs.SnapshotComponent, ecs.SnapshotUnique), the
// RNG's state among them, so the same inputs after a rewind replay the
// same frames; not moveFriends' scratch grid, the [History] unique, nor
// the renderer's canvas. The ring belongs to the [Game], beside its world.
//
// # Saving and resuming
//
// [Game.Save] writes the run in progress (a floor or the shop; on the
// start and game-over screens it returns [ErrNoRun]) to a stream, in the
// binary format of Slipway's snapshot package, and [Resume] reads it back
// into a new Game that plays on exactly as the saved one would have with
// the same inputs. The save holds what a rewind's snapshots hold (every
// entity with its id, the components, the uniques, the RNG's state among
// them, through a codec of its own since its fields are unexported) and
// the run's seed and options; not the rewind history, which a resumed
// game starts afresh. A stream that is not such a save, or one whose state
// the game could not have reached, gives an error wrapping [ErrBadSave],
// never a panic. The desktop build saves when the player quits (the
// browser build every two seconds, to localStorage) and offers the run on
// the next start screen; where saves are kept is its business, not this
// package's.
//
// # Determinism
//
// All randomness comes from one PCG source, a unique seeded by [New]; no
// map is iterated and no clock is read by the game. The same seed and the
// same inputs play the same game, whatever GOMAXPROCS: systems that run in
// parallel touch disjoint data. The generator's state is a plain value in
// its unique, so a rewind puts it back with the rest. (Across architectures the game may differ:
// Go may fuse a multiply and an add into one rounding on arm64 and not on
// amd64.) [RunHeadless] plays with the built-in [Bot], which picks its
// upgrades with [BotUpgrade].
package game
