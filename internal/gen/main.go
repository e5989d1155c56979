// Command gen writes the arity variants of Slipway's generic API (joins of
// 1 to 8 views, World-level operations on 1 to 8 component types) from the
// templates in this directory. Run it with go generate in ecs/.
package main

import (
	"bytes"
	"embed"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"path/filepath"
	"strings"
	"text/template"
)

//go:embed *.tmpl
var templates embed.FS

// MaxArity is the largest number of views in a join, and of component types
// in a World-level call.
const MaxArity = 8

// Arity describes one variant: N types T1..TN.
type Arity struct{ N int }

// Ks returns 1..N.
func (a Arity) Ks() []int {
	ks := make([]int, a.N)
	for i := range ks {
		ks[i] = i + 1
	}
	return ks
}

// List joins format for k in 1..N with sep, with k in place of each # and
// k-1 in place of each @.
func (a Arity) List(sep, format string) string {
	parts := make([]string, a.N)
	for i := range parts {
		parts[i] = strings.NewReplacer("#", fmt.Sprint(i+1), "@", fmt.Sprint(i)).Replace(format)
	}
	return strings.Join(parts, sep)
}

// Skip1 is List over k in 2..N.
func (a Arity) Skip1(sep, format string) string {
	parts := strings.Split(a.List("\x00", format), "\x00")
	return strings.Join(parts[1:], sep)
}

// TypeParams is "T1, T2 any".
func (a Arity) TypeParams() string { return a.List(", ", "T#") + " any" }

// TypeArgs is "T1, T2".
func (a Arity) TypeArgs() string { return a.List(", ", "T#") }

// Letter returns the row field name of the k-th view: A, B, C...
func Letter(k int) string { return string(rune('A' + k - 1)) }

// Plural returns the "s" of a plural noun counted by n: "" for 1, "s"
// otherwise, so that a template writes "{{$n}} type{{s $n}}".
func Plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Generate renders the template named name for arities 1..MaxArity into a
// gofmt-ed Go file.
func Generate(name string) ([]byte, error) {
	t, err := template.New(name).Funcs(template.FuncMap{"letter": Letter, "dec": func(k int) int { return k - 1 }, "inc": func(k int) int { return k + 1 }, "sum": func(k int) int { return k * (k + 1) / 2 }, "s": Plural}).ParseFS(templates, name)
	if err != nil {
		return nil, err
	}
	var arities []Arity
	for n := 1; n <= MaxArity; n++ {
		arities = append(arities, Arity{N: n})
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, arities); err != nil {
		return nil, err
	}
	out, err := format.Source(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("%s: %v\n%s", name, err, buf.Bytes())
	}
	return out, nil
}

func main() {
	dir := flag.String("dir", ".", "directory to write the generated files to")
	flag.Parse()
	for _, name := range []string{"join_gen.go.tmpl", "world_gen.go.tmpl", "group_gen.go.tmpl", "system_gen.go.tmpl", "system_gen_test.go.tmpl", "join_gen_test.go.tmpl", "world_gen_test.go.tmpl", "group_gen_test.go.tmpl", "view_multi_gen.go.tmpl", "view_multi_gen_test.go.tmpl", "initializers_gen.go.tmpl", "initializers_gen_test.go.tmpl"} {
		out, err := Generate(name)
		if err != nil {
			log.Fatal(err)
		}
		path := filepath.Join(*dir, strings.TrimSuffix(name, ".tmpl"))
		if err := os.WriteFile(path, out, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
