#!/usr/bin/env bash
# CI for the Square Eater example (examples/squareeater), for a fresh Debian
# machine, run as root: installs what Ebitengine, Xvfb and Chromium need,
# then vets and tests the game's module, plays it in headless Chromium and
# in an X window under Xvfb, and lets the bot play a headless game.
#
#   bash examples/squareeater/ci.sh
set -euo pipefail
cd "$(dirname "$0")"

step_start=$SECONDS
all_start=$SECONDS
step() {
	echo "== ci.sh: $1 (previous step $((SECONDS - step_start))s)"
	step_start=$SECONDS
}

step "install packages"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends \
	gcc libc6-dev pkg-config \
	libgl1-mesa-dev libxcursor-dev libxi-dev libxinerama-dev libxrandr-dev libxxf86vm-dev libasound2-dev \
	xvfb xauth libgl1-mesa-dri \
	chromium imagemagick

step "gofmt and go vet"
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
	echo "not gofmt-ed:"
	echo "$unformatted"
	exit 1
fi
go vet ./...

# Every package with tests, but the browser, desktop and learn-by-example
# tests, which run in their own steps below. (No package tested here imports Ebitengine: the
# race detector's build of it and its C code would only cost time.)
step "go test -race (game logic, rendering)"
go test -race $(go list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}' ./... | grep -v -e /browsertest -e /desktoptest -e /learn)

# The guide's learn-by-example chapters (docs/learn): their programs are
# built and played under Xvfb, and what they print is checked against the
# chapters (the root module's docs test checks the code the chapters show).
step "learn-by-example chapters (programs played under Xvfb)"
CI=${CI:-true} go test -count=1 -v ./learn

step "browser test (headless Chromium, WebAssembly build)"
CI=${CI:-true} go test -count=1 -v -run 'TestBrowserPlays|TestInspectorPage' ./browsertest

step "desktop smoke test (native build under Xvfb)"
CI=${CI:-true} go test -count=1 -v -run TestDesktopUnderXvfb ./desktoptest

# Ebitengine v2.8 opens the X display when the program starts, even for
# -headless, so this runs under Xvfb too.
step "headless game: go run . -headless -seed 1 -frames 20000"
xvfb-run -a go run . -headless -seed 1 -frames 20000

# cmd/headless does not link Ebitengine: it must run with no display at all.
step "headless game without a display: go run ./cmd/headless -seed 1 -frames 20000"
env -u DISPLAY go run ./cmd/headless -seed 1 -frames 20000

step "done"
echo "ci.sh: all passed in $((SECONDS - all_start))s"
