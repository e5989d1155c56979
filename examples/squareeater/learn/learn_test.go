// Package learn holds the programs of the guide's "Learn by example"
// chapters (docs/learn/*.md), one directory per step, and the test that
// plays them as the chapters say:
//
//   - every ```sh block that runs a program (go run ./learn/3-spark
//     -seed 1 -frames 600) is followed by an ```output block, and the
//     program, built and run by the test, prints exactly that;
//   - every program under learn/ is run by its chapter.
//
// That every ```go block of a chapter is a verbatim excerpt of the file
// its fence names is checked by the docs package's test (go test ./docs,
// TestLearnExcerpts), which needs no Ebitengine.
//
// The programs open a window, so the test runs them under Xvfb when no
// display is set; without xvfb-run it only checks the excerpts (in CI it
// fails instead). Their outputs are those of amd64: elsewhere the
// compiler may fuse floating-point operations, the games play a little
// differently, and the outputs are not compared.
package learn

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// chaptersDir holds the chapters, relative to this directory.
const chaptersDir = "../../../docs/learn"

// block is a fenced code block of a chapter.
type block struct {
	info string   // the fence's info string: "sh", "output"
	line int      // line of the opening fence (1-based)
	text []string // the lines inside
}

var fenceRE = regexp.MustCompile("^```+[ \t]*(.*?)[ \t]*$")

// parseBlocks returns the fenced code blocks of a chapter.
func parseBlocks(name, src string) ([]block, error) {
	var blocks []block
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		m := fenceRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		b := block{info: m[1], line: i + 1}
		for i++; ; i++ {
			if i == len(lines) {
				return nil, fmt.Errorf("%s:%d: code block is never closed", name, b.line)
			}
			if strings.HasPrefix(lines[i], "```") {
				break
			}
			b.text = append(b.text, lines[i])
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

// run is a program a chapter runs, and what it must print.
type run struct {
	where string   // file:line of the sh block
	dir   string   // the program's directory: learn/3-spark
	args  []string // its arguments
	want  string
}

// chapter is what a chapter runs.
type chapter struct {
	name string
	runs []run
}

var goRunRE = regexp.MustCompile(`^go run \./(learn/[a-z0-9-]+)((?: -[a-z]+(?: [0-9]+)?)*)$`)

// readChapter parses the chapter at path.
func readChapter(path string) (chapter, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return chapter{}, err
	}
	c := chapter{name: "docs/learn/" + filepath.Base(path)}
	blocks, err := parseBlocks(c.name, string(src))
	if err != nil {
		return c, err
	}
	for i, b := range blocks {
		if b.info != "sh" || len(b.text) != 1 || !goRunRE.MatchString(b.text[0]) {
			continue
		}
		m := goRunRE.FindStringSubmatch(b.text[0])
		if i+1 == len(blocks) || blocks[i+1].info != "output" {
			return c, fmt.Errorf("%s:%d: %q must be followed by an ```output block", c.name, b.line, b.text[0])
		}
		c.runs = append(c.runs, run{
			where: fmt.Sprintf("%s:%d", c.name, b.line),
			dir:   m[1],
			args:  strings.Fields(m[2]),
			want:  strings.Join(blocks[i+1].text, "\n") + "\n",
		})
	}
	return c, nil
}

// chapters reads every chapter.
func chapters(t *testing.T) []chapter {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(chaptersDir, "*.md"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no chapters in %s (%v)", chaptersDir, err)
	}
	var cs []chapter
	for _, p := range paths {
		c, err := readChapter(p)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	return cs
}

func TestReadChapterErrors(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"```sh\ngo run ./learn/1-lone-square -frames 9\n```\n", "must be followed by an ```output block"},
		{"```sh\ngo run ./learn/1-lone-square\n", "never closed"},
	} {
		path := filepath.Join(t.TempDir(), "c.md")
		if err := os.WriteFile(path, []byte(tt.src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := readChapter(path)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("readChapter(%q) = %v, want an error saying %q", tt.src, err, tt.want)
		}
	}
}

// TestChaptersPlay builds every program under learn/ and runs each as its
// chapter says, comparing what it prints.
func TestChaptersPlay(t *testing.T) {
	var runs []run
	for _, c := range chapters(t) {
		runs = append(runs, c.runs...)
	}
	dirs, err := filepath.Glob("[0-9]*-*")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !slices.ContainsFunc(runs, func(r run) bool { return r.dir == "learn/"+d }) {
			t.Errorf("no chapter runs learn/%s: add a ```sh block with `go run ./learn/%s …` and its ```output", d, d)
		}
	}

	var wrap []string // the command that gives the programs a display
	if os.Getenv("DISPLAY") == "" {
		if _, err := exec.LookPath("xvfb-run"); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("xvfb-run is missing in CI: install xvfb (%v)", err)
			}
			t.Skipf("skipping: no display, and no xvfb-run to make one (%v)", err)
		}
		wrap = []string{"xvfb-run", "-a"}
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", bin+string(filepath.Separator), "./...")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./learn/...: %v\n%s", err, out)
	}
	for _, r := range runs {
		name := strings.Join(append([]string{filepath.Base(r.dir)}, r.args...), " ")
		// One at a time: two xvfb-run -a started together can pick the
		// same display number, and one of them then fails.
		t.Run(name, func(t *testing.T) {
			args := append(slices.Clone(wrap), filepath.Join(bin, filepath.Base(r.dir)))
			cmd := exec.Command(args[0], append(args[1:], r.args...)...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s: %v\n%s", r.where, err, stderr.Bytes())
			}
			if runtime.GOARCH != "amd64" {
				t.Skipf("%s ran; its output is compared on amd64 only", r.where)
			}
			if string(out) != r.want {
				t.Errorf("%s: the program printed\n%s\nthe output block says\n%s", r.where, out, r.want)
			}
		})
	}
}
