package main

import (
	"math"
	"strings"
	"testing"
)

func TestMeasureMemory(t *testing.T) {
	const n = 5000 // five sparse pages
	rows, err := measureMemory(n)
	check(t, err)
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 4 (the identity prefix, bulk, one at a time, shrunk)", len(rows))
	}
	for i, r := range rows {
		pages := 5 * 8192.0 / n
		if i == 0 {
			pages = 0 // the identity prefix has no sparse entries
		}
		if r.data != 16 || r.ids != 8 || r.pages != pages {
			t.Errorf("%s: data %v, ids %v, pages %v; want 16, 8, %v", r.how, r.data, r.ids, r.pages, pages)
		}
		if math.Abs(r.used-(r.data+r.ids+r.pages)) > 1e-9 {
			t.Errorf("%s: used %v is not data+ids+pages", r.how, r.used)
		}
		if r.allocated < r.used {
			t.Errorf("%s: allocated %v < used %v", r.how, r.allocated, r.used)
		}
	}
	bulk, one, shrunk := rows[1], rows[2], rows[3]
	if one.allocated <= bulk.allocated || shrunk.allocated >= one.allocated {
		t.Errorf("allocated: bulk %v, one at a time %v, shrunk %v: want growth slack only one at a time, and less after the shrink", bulk.allocated, one.allocated, shrunk.allocated)
	}

	var b strings.Builder
	writeMemory(&b, rows, n)
	page := b.String()
	for _, want := range []string{"## Memory", "5,000 entities", "| `BulkAddEntity2` in a new world (the identity prefix) | 16.00 | 8.00 | 0.00 | 24.00 |", "| `BulkAddEntity2` | 16.00 | 8.00 | 8.19 | 32.19 |"} {
		if !strings.Contains(page, want) {
			t.Errorf("the memory section lacks %q:\n%s", want, page)
		}
	}
	b.Reset()
	writeMemory(&b, nil, n)
	if b.Len() != 0 {
		t.Errorf("no rows: wrote %q, want nothing", b.String())
	}
}
