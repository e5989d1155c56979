// Package docs holds Slipway's user guide: the Markdown chapters in this
// directory, starting with README.md. It has no code of its own. Its test
// builds and runs every Go snippet of the guide and of the repository's
// README, and compares what each prints with the output block below it, so
// the guide cannot drift from the library.
package docs
