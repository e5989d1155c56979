package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slipway-ecs/slipway/examples/squareeater/game"
)

func TestWritePage(t *testing.T) {
	g := game.New(1)
	g.World().SetTracing(true)
	g.PlayBot(600)
	path := filepath.Join(t.TempDir(), "frame.html")
	if err := writePage(path, g); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, want := range []string{"<title>Square Eater, seed 1: logic frame 600, floor ", `Workload &#34;main_loop&#34;`, "game.moveFriends", `class="bar"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page has no %q", want)
		}
	}
	if err := writePage(filepath.Join(t.TempDir(), "no", "such", "dir.html"), g); err == nil {
		t.Error("no error writing into a directory that does not exist")
	}
}
