package docs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The learn-by-example chapters (docs/learn/*.md) show code of Ebitengine
// programs, which this module cannot build: it depends on the standard
// library only. So here every ```go block of a chapter must name, on its
// fence line, the file of the game's module (examples/squareeater) it is
// taken from, and be a verbatim excerpt of it: whole lines, in order. The
// game's module builds those programs and plays them as the chapters'
// ```sh blocks say, comparing the output (examples/squareeater/learn).

// learnModule is the game's module, relative to this directory.
const learnModule = "../examples/squareeater"

// learnFiles returns the learn-by-example chapters, as paths relative to
// the repository root.
func learnFiles(t *testing.T, root string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(root, "docs", "learn", "*.md"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no chapters in docs/learn (%v)", err)
	}
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = "docs/learn/" + filepath.Base(p)
	}
	return names
}

func TestLearnExcerpts(t *testing.T) {
	for _, name := range learnFiles(t, "..") {
		src, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		blocks, err := parseBlocks(name, string(src))
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range blocks {
			words := strings.Fields(b.info)
			if len(words) == 0 || words[0] != "go" {
				continue
			}
			if len(words) != 2 {
				t.Errorf("%s:%d: a go block names the file of %s it is taken from: ```go learn/1-lone-square/main.go", name, b.fence, learnModule)
				continue
			}
			file, err := os.ReadFile(filepath.Join(learnModule, filepath.FromSlash(words[1])))
			if err != nil {
				t.Errorf("%s:%d: the block is taken from %s: %v", name, b.fence, words[1], err)
				continue
			}
			if !excerptOf(strings.Split(strings.TrimSuffix(b.text, "\n"), "\n"), strings.Split(string(file), "\n")) {
				t.Errorf("%s:%d: the block is not a verbatim excerpt of examples/squareeater/%s: copy the lines again", name, b.fence, words[1])
			}
		}
	}
}

// excerptOf reports whether lines (leading blank lines aside) appear,
// whole and in a row, in the file's lines.
func excerptOf(lines, file []string) bool {
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	if len(lines) == 0 {
		return false
	}
	for i := 0; i+len(lines) <= len(file); i++ {
		if slices.Equal(lines, file[i:i+len(lines)]) {
			return true
		}
	}
	return false
}

func TestExcerptOf(t *testing.T) {
	file := []string{"a", "b", "", "c", "d"}
	for _, tt := range []struct {
		lines []string
		want  bool
	}{
		{[]string{"a", "b"}, true},
		{[]string{"", "c", "d"}, true},
		{[]string{"b", "", "c"}, true},
		{[]string{"a", "c"}, false},
		{[]string{"d", "e"}, false},
		{[]string{" a"}, false},
		{nil, false},
		{[]string{""}, false},
	} {
		if got := excerptOf(tt.lines, file); got != tt.want {
			t.Errorf("excerptOf(%q) = %v, want %v", tt.lines, got, tt.want)
		}
	}
}
