package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestArchitectureListsEveryFile checks architecture.md's table of files
// against ecs/: every source file is listed once, every file listed
// exists, the layer diagram names the same files, and each source file
// has unit tests beside it (X_test.go, X_internal_test.go or
// X_topic_test.go).
func TestArchitectureListsEveryFile(t *testing.T) {
	page, err := os.ReadFile("architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Join("..", "ecs"))
	if err != nil {
		t.Fatal(err)
	}
	var sources, tests []string
	for _, e := range entries {
		name := e.Name()
		switch {
		case e.IsDir() || !strings.HasSuffix(name, ".go"):
		case strings.HasSuffix(name, "_test.go"):
			tests = append(tests, name)
		default:
			sources = append(sources, name)
		}
	}

	text := string(page)
	table := section(t, text, "## Files by layer", "### Tests")
	row := regexp.MustCompile("(?m)^\\|[^|]*\\| `([a-z_]+\\.go)`")
	listed := map[string]int{}
	for _, m := range row.FindAllStringSubmatch(table, -1) {
		listed[m[1]]++
	}
	diagram := section(t, text, "```text", "## Files by layer")
	inDiagram := map[string]bool{}
	for _, f := range regexp.MustCompile(`[a-z_]+\.go`).FindAllString(diagram, -1) {
		inDiagram[f] = true
	}
	for _, f := range sources {
		switch n := listed[f]; {
		case n == 0:
			t.Errorf("ecs/%s is not in architecture.md's table of files", f)
		case n > 1:
			t.Errorf("ecs/%s is in architecture.md's table of files %d times", f, n)
		}
		if !inDiagram[f] {
			t.Errorf("ecs/%s is not in architecture.md's layer diagram", f)
		}
		if strings.HasSuffix(f, "_gen.go") || f == "doc.go" || f == "gen.go" {
			continue // generated (their tests are generated beside them), or no code to test
		}
		base := strings.TrimSuffix(f, ".go")
		if !slices.ContainsFunc(tests, func(x string) bool { return strings.HasPrefix(x, base+"_") }) {
			t.Errorf("ecs/%s has no test file beside it (%s_test.go, %s_internal_test.go or %s_topic_test.go)", f, base, base, base)
		}
	}
	for f := range listed {
		if !slices.Contains(sources, f) {
			t.Errorf("architecture.md's table lists %s, which is not a source file of ecs/", f)
		}
	}
	for f := range inDiagram {
		if !slices.Contains(sources, f) {
			t.Errorf("architecture.md's layer diagram names %s, which is not a source file of ecs/", f)
		}
	}
}

// section returns the part of text from the line starting with from to
// the line starting with to.
func section(t *testing.T, text, from, to string) string {
	t.Helper()
	i := strings.Index(text, "\n"+from)
	j := strings.Index(text, "\n"+to)
	if i < 0 || j < i {
		t.Fatalf("architecture.md has no %q followed by %q", from, to)
	}
	return text[i:j]
}
