//go:build race

package game

// raceEnabled is true when the tests run under the race detector, which
// makes the game about ten times slower: the soak test shortens then.
const raceEnabled = true
