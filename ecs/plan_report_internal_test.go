package ecs

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// escapeInputs are names for the escapers: every ASCII character alone
// and after a backslash, and strings made of the characters the formats
// read.
func escapeInputs() []string {
	in := []string{
		"", `\`, `\\`, `\"`, `"\`, `a\`, `\\"`, `&amp;`, `&#35;`, `#35;`, `#quot;`, `\N`, `\n`, `\l`,
		"<br>", "a\nb", "a\r\nb", "`md`", "\"`md`\"", "style:#35;", "classDef x fill:#f9f;",
		"[x] | {y} (z) <b>", "é ü 漢字 😀", "\u2028\u2029\u0085\u00a0\u200b\ufeff", "\xff\xfe",
		"%2F/%25", "-->", "end", "subgraph", "a;b",
	}
	for r := rune(0); r < 0x80; r++ {
		in = append(in, string(r), `\`+string(r), string(r)+`"`)
	}
	return in
}

// shown is how a label shows s: control characters other than newlines
// as their Control Pictures symbols (see invisible).
func shown(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteRune(r)
		case r < ' ':
			b.WriteRune(0x2400 + r)
		case r == 0x7f:
			b.WriteRune(0x2421)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// dotShown is what Graphviz shows for the quoted string "e": its lexer
// turns \" into a quote and keeps every other character (a backslash
// too); then, in a label, \\ is a backslash, \n a line break and \x for
// another x is x, and "&amp;" and "&#N;" are character references. It
// fails the test if e would end the quoted string early.
func dotShown(t *testing.T, e string) string {
	t.Helper()
	var lexed []rune
	rs := []rune(e)
	for i := 0; i < len(rs); i++ {
		switch {
		case rs[i] == '"':
			t.Fatalf("%q: a bare quote ends the DOT string", e)
		case rs[i] == '\\' && i+1 < len(rs) && rs[i+1] == '"':
			lexed = append(lexed, '"')
			i++
		default:
			lexed = append(lexed, rs[i])
		}
	}
	if len(lexed) > 0 && lexed[len(lexed)-1] == '\\' {
		// an odd backslash before the closing quote escapes it
		n := 0
		for i := len(lexed) - 1; i >= 0 && lexed[i] == '\\'; i-- {
			n++
		}
		if n%2 == 1 {
			t.Fatalf("%q: a trailing backslash escapes the closing quote", e)
		}
	}
	var b strings.Builder
	for i := 0; i < len(lexed); i++ {
		r := lexed[i]
		switch {
		case r == '\\' && i+1 < len(lexed):
			i++
			if lexed[i] == 'n' {
				b.WriteRune('\n')
			} else {
				b.WriteRune(lexed[i])
			}
		case r == '&':
			rest := string(lexed[i:])
			if strings.HasPrefix(rest, "&amp;") {
				b.WriteRune('&')
				i += len("&amp;") - 1
			} else if m := charRef.FindStringSubmatch(rest); m != nil {
				n, _ := strconv.Atoi(m[1])
				b.WriteRune(rune(n))
				i += len([]rune(m[0])) - 1
			} else {
				t.Fatalf("%q: a bare & in a DOT label", e)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

var (
	charRef     = regexp.MustCompile(`^&#([0-9]+);`)
	mermaidCode = regexp.MustCompile(`#([0-9]+);`)
)

// mermaidShown is what Mermaid shows for the quoted label "e": its entity
// codes "#N;" are characters, <br> is a line break. It fails the test if
// e holds what Mermaid or HTML would read otherwise.
func mermaidShown(t *testing.T, e string) string {
	t.Helper()
	rest := mermaidCode.ReplaceAllString(strings.ReplaceAll(e, "<br>", ""), "")
	if i := strings.IndexAny(rest, "\"#&<>`[]|:\n\r"); i >= 0 {
		t.Fatalf("%q: %q is read by Mermaid or HTML", e, rest[i])
	}
	for _, r := range rest {
		if r != ' ' && !unicode.IsPrint(r) {
			t.Fatalf("%q: %U prints nothing", e, r)
		}
	}
	s := strings.ReplaceAll(e, "<br>", "\n")
	return mermaidCode.ReplaceAllStringFunc(s, func(c string) string {
		n, _ := strconv.Atoi(mermaidCode.FindStringSubmatch(c)[1])
		return string(rune(n))
	})
}

// TestDOTEscapeShowsTheName: what Graphviz shows for a label written by
// dotEscape is the name, control characters shown as symbols.
func TestDOTEscapeShowsTheName(t *testing.T) {
	for _, s := range escapeInputs() {
		e := dotEscape(s)
		for _, r := range e {
			if r < ' ' || r == 0x7f {
				t.Errorf("dotEscape(%q) = %q holds control character %U", s, e, r)
			}
		}
		if got, want := dotShown(t, e), shown(string([]rune(s))); got != want {
			t.Errorf("dotEscape(%q) = %q, shown as %q, want %q", s, e, got, want)
		}
	}
}

// TestMermaidEscapeShowsTheName: what Mermaid shows for a label written
// by mermaidEscape is the name, control characters shown as symbols.
func TestMermaidEscapeShowsTheName(t *testing.T) {
	for _, s := range escapeInputs() {
		e := mermaidEscape(s)
		if got, want := mermaidShown(t, e), shown(string([]rune(s))); got != want {
			t.Errorf("mermaidEscape(%q) = %q, shown as %q, want %q", s, e, got, want)
		}
	}
}

// TestPathNameReadsOneWay: a path of escaped names splits back into the
// names, whatever they hold.
func TestPathNameReadsOneWay(t *testing.T) {
	names := []string{"main", "phys/ics", "phys", "ics", "100%", "%2F", "/", "%", "a//b", "%25/%2F"}
	for _, a := range names {
		for _, b := range names {
			path := pathName(a) + "/" + pathName(b)
			parts := strings.Split(path, "/")
			if len(parts) != 2 {
				t.Fatalf("path %q of %q and %q splits in %d", path, a, b, len(parts))
			}
			for i, want := range []string{a, b} {
				got := strings.NewReplacer("%2F", "/", "%25", "%").Replace(parts[i])
				if got != want {
					t.Errorf("path %q: name %d reads %q, want %q", path, i, got, want)
				}
			}
		}
	}
}
