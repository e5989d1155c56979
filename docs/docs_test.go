package docs

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	// The snippets import ecs, snapshot and inspect. Importing them here
	// as well makes the go command rerun this test, instead of reusing a
	// cached result, whenever one of them changes.
	_ "github.com/slipway-ecs/slipway/ecs"
	_ "github.com/slipway-ecs/slipway/inspect"
	_ "github.com/slipway-ecs/slipway/snapshot"
)

// How the guide's snippets are checked
//
// Every ```go block in docs/*.md and in the repository's README.md is a
// snippet, and must be followed (blank lines aside) by an ```output block
// holding exactly what it prints on standard output. A snippet is one of:
//
//   - a complete program: it starts with "package main";
//   - declarations with a func main: the prelude is put above them;
//   - statements: the prelude is put above, and the statements become the
//     body of a function that the program runs.
//
// The prelude is the one ```go prelude block of docs/README.md: the package
// clause, imports and the Pos and Vel components. Imports a wrapped snippet
// does not use are turned into blank imports, so that the prelude can offer
// fmt, errors and slices to every snippet.
//
// TestSnippets writes the snippets as main packages under docs/.cache/
// (inside this module, so that the ecs import resolves without a network):
// one package per snippet that declares things, and one package for all
// the snippets of statements, each a function of its own (see unit). It
// builds them all with one go build, runs each snippet in its own process
// and compares its output. //line directives map every line back to the
// Markdown file, so compiler errors and panics name the file and line of
// the snippet.

// docFiles returns the Markdown files whose snippets are checked, as paths
// relative to the repository root.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	chapters, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"README.md"}
	for _, c := range chapters {
		rel, err := filepath.Rel(root, c)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, filepath.ToSlash(rel))
	}
	return files
}

// block is a fenced code block of a Markdown file.
type block struct {
	info  string // the info string after the opening fence: "go", "output"
	fence int    // line of the opening fence (1-based)
	line  int    // line of the first content line
	end   int    // line of the closing fence
	text  string // the content, every line ending in "\n"
}

var fenceRE = regexp.MustCompile("^([ \t]*)(`{3,}|~{3,})[ \t]*([^`]*?)[ \t]*$")

// parseBlocks returns the fenced code blocks of a Markdown document. A
// fence may be indented (inside a list, say); the same indentation is
// removed from its content lines.
func parseBlocks(name, src string) ([]block, error) {
	lines := strings.Split(src, "\n")
	var blocks []block
	for i := 0; i < len(lines); i++ {
		m := fenceRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		indent, fence := len(m[1]), m[2]
		b := block{info: m[3], fence: i + 1, line: i + 2}
		var text strings.Builder
		closed := false
		for i++; i < len(lines); i++ {
			l := lines[i]
			if t := strings.TrimSpace(l); strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				closed = true
				break
			}
			for k := 0; k < indent && len(l) > 0 && (l[0] == ' ' || l[0] == '\t'); k++ {
				l = l[1:]
			}
			text.WriteString(l)
			text.WriteByte('\n')
		}
		if !closed {
			return nil, fmt.Errorf("%s:%d: code block is never closed", name, b.fence)
		}
		b.end = i + 1
		b.text = text.String()
		blocks = append(blocks, b)
	}
	return blocks, nil
}

// snippet is a Go snippet and the output it must print.
type snippet struct {
	file    string // path from the repository root, slash-separated
	line    int    // line of the snippet's first line of code
	code    string
	want    string // the expected standard output
	outLine int    // line of the output block's opening fence
	prelude bool
}

func (s snippet) where() string { return s.file + ":" + strconv.Itoa(s.line) }

// extract returns the snippets of a Markdown document, and the prelude if
// the document has one.
func extract(name, src string) (snips []snippet, prelude *snippet, err error) {
	blocks, err := parseBlocks(name, src)
	if err != nil {
		return nil, nil, err
	}
	lines := strings.Split(src, "\n")
	for i := 0; i < len(blocks); i++ {
		b := blocks[i]
		words := strings.Fields(b.info)
		lang := ""
		if len(words) > 0 {
			lang = words[0]
		}
		switch lang {
		case "go":
			s := snippet{file: name, line: b.line, code: b.text}
			if len(words) > 1 && words[1] == "prelude" {
				if prelude != nil {
					return nil, nil, fmt.Errorf("%s:%d: a second prelude (the first is at line %d)", name, b.fence, prelude.line)
				}
				s.prelude = true
				prelude = &s
				continue
			}
			if i+1 >= len(blocks) || blocks[i+1].info != "output" || !blankBetween(lines, b.end, blocks[i+1].fence) {
				return nil, nil, fmt.Errorf("%s:%d: a go snippet must be followed by an ```output block holding what it prints", name, b.fence)
			}
			i++
			s.want, s.outLine = blocks[i].text, blocks[i].fence
			snips = append(snips, s)
		case "output":
			return nil, nil, fmt.Errorf("%s:%d: an output block must follow a go snippet", name, b.fence)
		}
	}
	return snips, prelude, nil
}

// blankBetween reports whether the lines strictly between the 1-based
// lines a and b are all blank.
func blankBetween(lines []string, a, b int) bool {
	for l := a + 1; l < b; l++ {
		if strings.TrimSpace(lines[l-1]) != "" {
			return false
		}
	}
	return true
}

var (
	packageRE  = regexp.MustCompile(`(?m)^package\s`)
	funcMainRE = regexp.MustCompile(`(?m)^func main\(\)`)
)

// isBody reports whether code is a snippet of statements: neither a
// complete program nor declarations with their own func main.
func isBody(code string) bool {
	return !packageRE.MatchString(code) && !funcMainRE.MatchString(code)
}

// program returns the source of the main package that runs s: s itself if
// it is a complete program, or s wrapped with the prelude.
func program(s snippet, prelude *snippet) (string, error) {
	var b strings.Builder
	if packageRE.MatchString(s.code) {
		fmt.Fprintf(&b, "//line %s:%d:1\n%s", s.file, s.line, s.code)
		return b.String(), nil
	}
	if prelude == nil {
		return "", fmt.Errorf("%s: the snippet is not a complete program (package main) and there is no ```go prelude block to wrap it with", s.where())
	}
	fmt.Fprintf(&b, "//line %s:%d:1\n%s\n", prelude.file, prelude.line, prelude.code)
	if funcMainRE.MatchString(s.code) {
		fmt.Fprintf(&b, "//line %s:%d:1\n%s", s.file, s.line, s.code)
	} else {
		fmt.Fprintf(&b, "func main() {\n//line %s:%d:1\n%s}\n", s.file, s.line, s.code)
	}
	return blankUnusedImports(b.String()), nil
}

// blankUnusedImports turns the imports src does not use into blank
// imports. If src does not parse, it is returned unchanged: the compiler
// will report the error with the snippet's position.
func blankUnusedImports(src string) string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "main.go", src, parser.SkipObjectResolution)
	if err != nil {
		return src
	}
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	tf := fset.File(f.Pos())
	out := src
	// Edit from the last import to the first, so offsets stay valid.
	for _, spec := range slices.Backward(f.Imports) {
		path, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if spec.Name != nil {
			name = spec.Name.Name
		}
		if name == "_" || name == "." || used[name] {
			continue
		}
		start, end := tf.Offset(spec.Pos()), tf.Offset(spec.End())
		out = out[:start] + "_ " + spec.Path.Value + out[end:]
	}
	return out
}

// A unit is one main package of the build. Linking a binary costs far more
// than compiling a snippet, so the snippets made of statements share one
// unit: each becomes a function of the same program, and the program runs
// the one its argument names. Snippets that declare things, or whose
// output shows the name the compiler gives to closures in main (which
// would differ there), get a unit of their own.
type unit struct {
	snips []int             // the snippets it runs
	files map[string]string // file name -> source
}

// singleUnit returns the unit that builds snippet i alone.
func singleUnit(i int, s snippet, prelude *snippet) (unit, error) {
	src, err := program(s, prelude)
	if err != nil {
		return unit{}, err
	}
	return unit{snips: []int{i}, files: map[string]string{"main.go": src}}, nil
}

// sharedUnit returns the unit that runs the body snippets idx, as
// functions after the prelude. Its main is in a file of its own, so that
// it can import os without changing the prelude's lines.
func sharedUnit(idx []int, all []snippet, prelude *snippet) unit {
	var b, d strings.Builder
	fmt.Fprintf(&b, "//line %s:%d:1\n%s\n", prelude.file, prelude.line, prelude.code)
	d.WriteString("package main\n\nimport \"os\"\n\nvar snippets = map[string]func(){\n")
	for _, i := range idx {
		s := all[i]
		fmt.Fprintf(&b, "func snippet%d() {\n//line %s:%d:1\n%s}\n\n", i, s.file, s.line, s.code)
		fmt.Fprintf(&d, "\t%q: snippet%d,\n", strconv.Itoa(i), i)
	}
	d.WriteString("}\n\nfunc main() { snippets[os.Args[1]]() }\n")
	return unit{snips: idx, files: map[string]string{
		"main.go":     blankUnusedImports(b.String()),
		"dispatch.go": d.String(),
	}}
}

// args returns the arguments that make u's binary run snippet i.
func (u unit) args(i int) []string {
	if len(u.snips) == 1 {
		return nil
	}
	return []string{strconv.Itoa(i)}
}

// buildResult is what go build did with one unit.
type buildResult struct {
	bin    string // the binary, if it was built
	errors string // the compiler's messages for the unit's package
}

// buildAll writes each unit as a main package under a fresh directory in
// root/docs/.cache, builds them all with one go build into binDir, and
// returns what happened to each. It fails the test only if go build said
// something that belongs to no unit.
func buildAll(t *testing.T, root, binDir string, units []unit) []buildResult {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build the snippets: %v", err)
	}
	cache := filepath.Join(root, "docs", ".cache")
	if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := os.MkdirTemp(cache, "snippets-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(src) })

	args := []string{"build", "-buildvcs=false", "-ldflags=-s -w", "-o", binDir + string(filepath.Separator)}
	pkgName := func(i int) string { return fmt.Sprintf("unit%03d", i) }
	for i, u := range units {
		dir := filepath.Join(src, pkgName(i))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, text := range u.files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			t.Fatal(err)
		}
		args = append(args, "./"+filepath.ToSlash(rel))
	}
	cmd := exec.Command(goTool, args...)
	cmd.Dir = root
	out, buildErr := cmd.CombinedOutput()

	results := make([]buildResult, len(units))
	// go build prints "# import/path" before the messages of each package
	// that fails.
	var stray strings.Builder
	cur := -1
	for _, l := range strings.SplitAfter(string(out), "\n") {
		if strings.HasPrefix(l, "# ") {
			cur = -1
			pkg := strings.TrimSpace(l[2:])
			if i := strings.LastIndex(pkg, "/unit"); i >= 0 {
				if n, err := strconv.Atoi(pkg[i+len("/unit"):]); err == nil && n < len(units) {
					cur = n
					continue
				}
			}
		}
		if cur >= 0 {
			results[cur].errors += l
		} else {
			stray.WriteString(l)
		}
	}
	if s := strings.TrimSpace(stray.String()); s != "" {
		t.Fatalf("go build %s failed with messages that belong to no snippet:\n%s", strings.Join(args[1:], " "), s)
	}
	for i := range results {
		bin := filepath.Join(binDir, pkgName(i))
		if _, err := os.Stat(bin); err == nil {
			results[i].bin = bin
		} else if results[i].errors == "" {
			t.Fatalf("go build produced no binary for unit %d and no message about it (go build: %v)", i, buildErr)
		}
	}
	return results
}

var messageRE = regexp.MustCompile(`^([^:\s]+):(\d+)[:\s]`)

// messagesFor splits compiler output into messages (a message's
// continuation lines are indented) and returns those that point into s.
func messagesFor(s snippet, out string) string {
	var b strings.Builder
	mine := false
	for _, l := range strings.SplitAfter(out, "\n") {
		if l == "" {
			continue
		}
		if l[0] != ' ' && l[0] != '\t' {
			mine = pointsInto(s, l)
		}
		if mine {
			b.WriteString(l)
		}
	}
	return b.String()
}

// pointsInto reports whether the compiler message msg has a position
// inside snippet s.
func pointsInto(s snippet, msg string) bool {
	m := messageRE.FindStringSubmatch(msg)
	if m == nil || m[1] != s.file {
		return false
	}
	line, _ := strconv.Atoi(m[2])
	return line >= s.line && line < s.line+strings.Count(s.code, "\n")
}

// runBinary runs bin with args and returns its standard output, or an error
// saying how it failed.
func runBinary(bin string, args []string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		return stdout.String(), fmt.Errorf("did not finish within 30s\nstdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}
	if err != nil {
		return stdout.String(), fmt.Errorf("failed (%v)\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	if stderr.Len() > 0 {
		return stdout.String(), fmt.Errorf("wrote to standard error (snippets print their results on standard output only):\n%s", stderr.String())
	}
	return stdout.String(), nil
}

// checkSnippet compares what snippet i, built in unit u with result r, did
// with its output block.
func checkSnippet(i int, s snippet, u unit, r buildResult) error {
	if r.bin == "" {
		if len(u.snips) == 1 {
			return fmt.Errorf("%s: the snippet does not compile:\n%s", s.where(), r.errors)
		}
		if own := messagesFor(s, r.errors); own != "" {
			return fmt.Errorf("%s: the snippet does not compile:\n%s", s.where(), own)
		}
		return fmt.Errorf("%s: the snippet was not run: it is built into one program with other short snippets, and one of them does not compile (see its failure)", s.where())
	}
	got, err := runBinary(r.bin, u.args(i))
	if err != nil {
		return fmt.Errorf("%s: the snippet %w", s.where(), err)
	}
	if got != s.want {
		return fmt.Errorf("%s: the snippet printed\n%s\nbut its output block (%s:%d) says\n%s%s",
			s.where(), indent(got), s.file, s.outLine, indent(s.want), firstDifference(got, s.want))
	}
	return nil
}

func indent(s string) string {
	if s == "" {
		return "\t(nothing)\n"
	}
	return "\t" + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n\t") + "\n"
}

// firstDifference describes the first line where got and want differ.
func firstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl || i >= len(g) || i >= len(w) {
			return fmt.Sprintf("first difference at output line %d: got %q, want %q", i+1, gl, wl)
		}
	}
	return "the outputs differ"
}

// Where a self-check is built.
const (
	withGuide = iota // in the unit of the guide's short snippets
	alone            // in a unit of its own
	broken           // in a unit of short snippets, one of which does not compile
)

// selfChecks are snippets that must fail, built along with the guide's so
// that the test shows that it can fail, and how it reports each failure.
var selfChecks = []struct {
	s       snippet
	where   int
	wantErr []string // substrings of the error checkSnippet must return
}{
	{
		s: snippet{file: "docs/selfcheck-compile.md", line: 7, outLine: 10,
			code: "w := ecs.NewWorld()\nfmt.Println(w.NoSuchMethod())\n", want: "x\n"},
		where:   alone,
		wantErr: []string{"docs/selfcheck-compile.md:7: the snippet does not compile", "docs/selfcheck-compile.md:8:", "NoSuchMethod"},
	},
	{
		s: snippet{file: "docs/selfcheck-output.md", line: 3, outLine: 6,
			code: "fmt.Println(\"one\")\nfmt.Println(\"two\")\n", want: "one\nthree\n"},
		where:   withGuide,
		wantErr: []string{"docs/selfcheck-output.md:3: the snippet printed", "output block (docs/selfcheck-output.md:6)", `got "two", want "three"`},
	},
	{
		s: snippet{file: "docs/selfcheck-panic.md", line: 20, outLine: 30,
			code: "var v ecs.View[Pos]\nfmt.Println(v.Len())\n", want: "0\n"},
		where:   withGuide,
		wantErr: []string{"docs/selfcheck-panic.md:20: the snippet failed", "docs/selfcheck-panic.md:21"},
	},
	{
		s: snippet{file: "docs/selfcheck-shared.md", line: 40, outLine: 44,
			code: "x := 1\nfmt.Println(x)\nundefinedName()\n", want: "1\n"},
		where:   broken,
		wantErr: []string{"docs/selfcheck-shared.md:40: the snippet does not compile", "docs/selfcheck-shared.md:42:", "undefinedName"},
	},
	{
		s: snippet{file: "docs/selfcheck-shared.md", line: 50, outLine: 53,
			code: "fmt.Println(2)\n", want: "2\n"},
		where:   broken,
		wantErr: []string{"docs/selfcheck-shared.md:50: the snippet was not run", "one of them does not compile"},
	},
}

func TestSnippets(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	var snips []snippet
	var prelude *snippet
	for _, name := range docFiles(t, root) {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		s, p, err := extract(name, string(src))
		if err != nil {
			t.Fatal(err)
		}
		if p != nil {
			if name != "docs/README.md" {
				t.Fatalf("%s:%d: the prelude belongs in docs/README.md", name, p.line)
			}
			prelude = p
		}
		snips = append(snips, s...)
	}
	if prelude == nil {
		t.Fatal("docs/README.md has no ```go prelude block")
	}
	if len(snips) < 20 {
		t.Fatalf("found only %d snippets; the guide has more: is the extraction broken?", len(snips))
	}

	// all holds the guide's snippets, then the self-checks.
	all := slices.Clone(snips)
	var units []unit
	var shared, brokenShared []int
	for i, s := range snips {
		if isBody(s.code) && !strings.Contains(s.want, "main.main.") {
			shared = append(shared, i)
			continue
		}
		u, err := singleUnit(i, s, prelude)
		if err != nil {
			t.Fatal(err)
		}
		units = append(units, u)
	}
	for _, c := range selfChecks {
		i := len(all)
		all = append(all, c.s)
		switch c.where {
		case withGuide:
			shared = append(shared, i)
		case broken:
			brokenShared = append(brokenShared, i)
		default:
			u, err := singleUnit(i, c.s, prelude)
			if err != nil {
				t.Fatal(err)
			}
			units = append(units, u)
		}
	}
	units = append(units, sharedUnit(shared, all, prelude), sharedUnit(brokenShared, all, prelude))
	unitOf := make([]int, len(all))
	for ui, u := range units {
		for _, i := range u.snips {
			unitOf[i] = ui
		}
	}

	start := time.Now()
	results := buildAll(t, root, t.TempDir(), units)
	t.Logf("built %d snippets (and %d self-checks) as %d programs in %v", len(snips), len(selfChecks), len(units), time.Since(start).Round(time.Millisecond))

	// A shared unit that fails for a reason in no snippet (the prelude, say)
	// would leave every one of its snippets "not run" with no cause shown.
	for ui, u := range units {
		if results[ui].bin != "" || len(u.snips) == 1 {
			continue
		}
		var orphan strings.Builder
		for _, l := range strings.SplitAfter(results[ui].errors, "\n") {
			if l == "" || l[0] == ' ' || l[0] == '\t' {
				continue
			}
			if !slices.ContainsFunc(u.snips, func(i int) bool { return pointsInto(all[i], l) }) {
				orphan.WriteString(l)
			}
		}
		if orphan.Len() > 0 && !slices.Equal(u.snips, brokenShared) {
			t.Errorf("the program of short snippets does not compile, for reasons outside any snippet:\n%s", orphan.String())
		}
	}

	for i, s := range snips {
		t.Run(s.where(), func(t *testing.T) {
			t.Parallel()
			ui := unitOf[i]
			if err := checkSnippet(i, s, units[ui], results[ui]); err != nil {
				t.Error(err)
			}
		})
	}
	for j, c := range selfChecks {
		i := len(snips) + j
		t.Run("selfcheck/"+c.s.where(), func(t *testing.T) {
			t.Parallel()
			ui := unitOf[i]
			err := checkSnippet(i, c.s, units[ui], results[ui])
			if err == nil {
				t.Fatal("a snippet that must fail passed")
			}
			for _, want := range c.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the failure report does not mention %q:\n%v", want, err)
				}
			}
		})
	}
}

func TestExtract(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		want    []snippet // file, line, code, want, outLine
		prelude int       // line of the prelude's code, 0 for none
		wantErr string
	}{
		{
			name: "snippet and output",
			src:  "# T\n\n```go\nfmt.Println(1)\n```\n\n```output\n1\n```\n",
			want: []snippet{{line: 4, code: "fmt.Println(1)\n", want: "1\n", outLine: 7}},
		},
		{
			name: "empty output block",
			src:  "```go\nx := 1\n_ = x\n```\n```output\n```\n",
			want: []snippet{{line: 2, code: "x := 1\n_ = x\n", want: "", outLine: 5}},
		},
		{
			name: "indented fences in a list, other languages ignored",
			src:  "1. step\n\n   ```go\n   fmt.Println(2)\n   ```\n   ```output\n   2\n   ```\n\n```text\nnot go\n```\n",
			want: []snippet{{line: 4, code: "fmt.Println(2)\n", want: "2\n", outLine: 6}},
		},
		{
			name:    "prelude",
			src:     "```go prelude\npackage main\n```\n\n```go\nfmt.Println(3)\n```\n```output\n3\n```\n",
			want:    []snippet{{line: 6, code: "fmt.Println(3)\n", want: "3\n", outLine: 8}},
			prelude: 2,
		},
		{
			name:    "missing output block",
			src:     "```go\nfmt.Println(1)\n```\n",
			wantErr: "t.md:1: a go snippet must be followed by an ```output block",
		},
		{
			name:    "prose between snippet and output",
			src:     "```go\nfmt.Println(1)\n```\nIt prints:\n```output\n1\n```\n",
			wantErr: "t.md:1: a go snippet must be followed",
		},
		{
			name:    "orphan output block",
			src:     "text\n\n```output\n1\n```\n",
			wantErr: "t.md:3: an output block must follow a go snippet",
		},
		{
			name:    "unclosed fence",
			src:     "```go\nfmt.Println(1)\n",
			wantErr: "t.md:1: code block is never closed",
		},
		{
			name:    "two preludes",
			src:     "```go prelude\npackage main\n```\n```go prelude\npackage main\n```\n",
			wantErr: "t.md:4: a second prelude",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, prelude, err := extract("t.md", tt.src)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i := range tt.want {
				tt.want[i].file = "t.md"
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("snippets =\n%+v\nwant\n%+v", got, tt.want)
			}
			switch {
			case tt.prelude == 0 && prelude != nil:
				t.Errorf("found a prelude at line %d, want none", prelude.line)
			case tt.prelude != 0 && (prelude == nil || prelude.line != tt.prelude || !prelude.prelude):
				t.Errorf("prelude = %+v, want one at line %d", prelude, tt.prelude)
			}
		})
	}
}

func TestProgram(t *testing.T) {
	prelude := &snippet{file: "docs/README.md", line: 10, prelude: true,
		code: "package main\n\nimport (\n\t\"errors\"\n\t\"fmt\"\n)\n"}
	tests := []struct {
		name string
		code string
		want []string // substrings of the program, in order
	}{
		{
			name: "complete program kept as written",
			code: "package main\n\nfunc main() {}\n",
			want: []string{"//line docs/x.md:5:1\npackage main\n\nfunc main() {}\n"},
		},
		{
			name: "statements become main's body; unused errors blanked",
			code: "fmt.Println(1)\n",
			want: []string{"//line docs/README.md:10:1\npackage main", "_ \"errors\"", "\t\"fmt\"", "func main() {\n//line docs/x.md:5:1\nfmt.Println(1)\n}\n"},
		},
		{
			name: "declarations with main follow the prelude; both imports used",
			code: "var e = errors.New(\"e\")\n\nfunc main() { fmt.Println(e) }\n",
			want: []string{"\t\"errors\"", "\t\"fmt\"", ")\n\n//line docs/x.md:5:1\nvar e = errors.New"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := program(snippet{file: "docs/x.md", line: 5, code: tt.code}, prelude)
			if err != nil {
				t.Fatal(err)
			}
			rest := got
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("program lacks %q (in order):\n%s", w, got)
				}
				rest = rest[i+len(w):]
			}
		})
	}
	if _, err := program(snippet{file: "docs/x.md", line: 5, code: "fmt.Println(1)\n"}, nil); err == nil {
		t.Error("wrapping a snippet without a prelude succeeded")
	}
}

// fundamentals are the guide's chapters, in the order of its index.
var fundamentals = []string{
	"world.md", "views.md", "add-entity.md", "delete-entity.md",
	"add-components.md", "remove-components.md", "delete-components.md",
	"get-and-modify.md", "iterators.md", "uniques.md", "systems.md",
	"custom-views.md", "errors-and-borrowing.md", "performance-tips.md",
}

var (
	linkRE       = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	inlineCodeRE = regexp.MustCompile("`[^`]*`")
)

// prose returns src without its code: fenced blocks and inline code spans.
func prose(src string) string {
	var b strings.Builder
	var fence string
	for _, l := range strings.Split(src, "\n") {
		if m := fenceRE.FindStringSubmatch(l); m != nil {
			switch {
			case fence == "":
				fence = m[2]
			case strings.HasPrefix(m[2], fence) && m[3] == "":
				fence = ""
			}
			continue
		}
		if fence == "" {
			b.WriteString(inlineCodeRE.ReplaceAllString(l, ""))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// TestLinks checks that every relative link of the guide and the README
// leads to a file, and that the index lists the fundamentals in order.
func TestLinks(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	// The learn-by-example chapters have no snippets this module runs
	// (TestLearnExcerpts checks their code), but their links count too.
	files := append(docFiles(t, root), learnFiles(t, root)...)
	var indexed []string
	for _, name := range files {
		path := filepath.Join(root, filepath.FromSlash(name))
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range linkRE.FindAllStringSubmatch(prose(string(src)), -1) {
			target, _, _ := strings.Cut(m[1], "#")
			if target == "" || strings.Contains(target, ":") {
				continue // a link within the page, or to another site
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(path), filepath.FromSlash(target))); err != nil {
				t.Errorf("%s links %s, which does not exist", name, m[1])
			}
			if name == "docs/README.md" && slices.Contains(fundamentals, target) {
				indexed = append(indexed, target)
			}
		}
	}
	if !slices.Equal(indexed, fundamentals) {
		t.Errorf("docs/README.md lists the chapters\n%v\nwant\n%v", indexed, fundamentals)
	}
}

func TestProse(t *testing.T) {
	src := "See [a](a.md) and `f[T](x)`.\n\n```go\nDeleteAny[T](all)\n```\n\n````md\n```\n[b](b.md)\n```\n````\n[c](c.md)\n"
	got := linkRE.FindAllStringSubmatch(prose(src), -1)
	var targets []string
	for _, m := range got {
		targets = append(targets, m[1])
	}
	if want := []string{"a.md", "c.md"}; !slices.Equal(targets, want) {
		t.Errorf("links in prose = %v, want %v", targets, want)
	}
}
