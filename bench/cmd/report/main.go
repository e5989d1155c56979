// Command report runs Slipway's benchmark suite (package bench) and writes
// docs/benchmarks.md, a table per workload, and docs/benchmarks/<Workload>.svg,
// a chart per workload.
//
// Run it from anywhere inside the module:
//
//	go run ./bench/cmd/report [-count 5] [-benchtime 1s] [-short] [-bench regexp] [-raw file] [-out docs]
//
// It builds the suite's test binary (`go test -c ./bench`) and runs it
// -count times over the whole suite, each benchmark once per pass, as
// `bench.test -test.run '^$' -test.bench . -test.benchmem -test.count 1
// -test.timeout 0` in the bench directory (with -short, only N = 1,000 and
// 16,000: a quick check). Interleaving the runs this way spreads each
// benchmark's samples over the whole run, so that a burst of load on a
// shared machine lands in one sample of a benchmark rather than in all of
// them, as `go test -count N` would have it. It streams the output to
// stderr, takes the median of every metric over the passes and writes the
// page and the charts. -raw saves the output (with the run's details) to a
// file; -in reads such a file instead of running the suite. The page
// names the raw file when it lies inside the repository, so that the
// results committed there (docs/benchmarks/results.txt) make it again.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "report:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	count := fs.Int("count", 5, "passes over the suite, each running every benchmark once (the page shows medians)")
	benchtime := fs.String("benchtime", "", "passed to go test -benchtime (default: go test's, 1s)")
	short := fs.Bool("short", false, "quick check: only N = 1,000 and 16,000 (go test -short)")
	bench := fs.String("bench", ".", "passed to go test -bench: which benchmarks to run")
	out := fs.String("out", "docs", "directory of benchmarks.md (charts go to its benchmarks/ folder), relative to the module root")
	raw := fs.String("raw", "", "also save the benchmark output, with the run's details, to this file")
	in := fs.String("in", "", "read benchmark output saved with -raw instead of running the suite")
	if err := fs.Parse(args); err != nil {
		return err
	}
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	var text []byte
	if *in != "" {
		text, err = os.ReadFile(*in)
		if err != nil {
			return err
		}
	} else {
		if *count < 1 {
			return fmt.Errorf("-count %d: the suite must run at least once", *count)
		}
		testArgs := []string{"-test.run", "^$", "-test.bench", *bench, "-test.benchmem", "-test.count", "1", "-test.timeout", "0"}
		if *benchtime != "" {
			testArgs = append(testArgs, "-test.benchtime", *benchtime)
		}
		if *short {
			testArgs = append(testArgs, "-test.short")
		}
		text, err = runSuite(root, testArgs, shellJoin(append([]string{"go", "run", "./bench/cmd/report"}, args...)), *count)
		if err != nil {
			return err
		}
		if *raw != "" {
			if err := os.WriteFile(*raw, text, 0o644); err != nil {
				return err
			}
		}
	}
	o, err := parse(bytes.NewReader(text))
	if err != nil {
		return err
	}
	if len(o.samples) == 0 {
		return errors.New("no benchmark results in the output")
	}
	dir := *out
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	info := infoFrom(o.meta)
	// The page names the raw results it can be made again from, when
	// they are kept inside the repository.
	for _, f := range []string{*in, *raw} {
		if f == "" {
			continue
		}
		if rel, ok := insideRoot(root, f); ok {
			info.inFile = rel
			break
		}
	}
	info.memoryN = 1_000_000
	if *short {
		info.memoryN = 16_000
	}
	if info.memory, err = measureMemory(info.memoryN); err != nil {
		return err
	}
	return writeReport(dir, aggregate(o.samples), info)
}

// moduleRoot returns the directory of the go.mod of the current module.
func moduleRoot() (string, error) {
	b, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(b))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("not inside a Go module: run the report from the Slipway repository")
	}
	return filepath.Dir(mod), nil
}

// insideRoot returns path (relative to the working directory, or
// absolute) relative to root, with forward slashes, if it lies inside root.
func insideRoot(root, path string) (string, bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// runSuite builds the suite's test binary and runs it count times with
// testArgs in root's bench directory, streaming its output to stderr, and
// returns the output preceded by "# key: value" lines describing the run
// (machine, commands, time, load).
func runSuite(root string, testArgs []string, reportCmd string, count int) ([]byte, error) {
	tmp, err := os.MkdirTemp("", "slipway-report-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "bench.test")
	commit := gitCommit(root) // before go test builds the suite from the tree
	build := exec.Command("go", "test", "-c", "-o", bin, "./bench")
	build.Dir = root
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return nil, fmt.Errorf("building the benchmark suite: %w", err)
	}
	testCmd := "go test -c -o bench.test ./bench && cd bench && for pass in $(seq " + strconv.Itoa(count) + "); do ../" + shellJoin(append([]string{"bench.test"}, testArgs...)) + "; done"
	var buf bytes.Buffer
	loadBefore := loadAverage()
	start := time.Now()
	for pass := 1; pass <= count; pass++ {
		fmt.Fprintf(os.Stderr, "report: pass %d of %d: %s\n", pass, count, shellJoin(append([]string{"bench.test"}, testArgs...)))
		cmd := exec.Command(bin, testArgs...)
		cmd.Dir = filepath.Join(root, "bench")
		cmd.Stdout = io.MultiWriter(&buf, os.Stderr)
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("the benchmark suite failed in pass %d: %w", pass, err)
		}
	}
	took := time.Since(start).Round(time.Second)
	model, cores := cpuInfo()
	var head bytes.Buffer
	for _, kv := range [][2]string{
		{"report command", strings.TrimSpace(reportCmd)},
		{"test command", testCmd},
		{"cpu model", model},
		{"cores", cores},
		{"go version", goVersion()},
		{"commit", commit},
		{"date", start.UTC().Format("2006-01-02 15:04 MST")},
		{"duration", took.String()},
		{"load before", loadBefore},
		{"load after", loadAverage()},
		{"count", strconv.Itoa(count)},
	} {
		fmt.Fprintf(&head, "# %s: %s\n", kv[0], kv[1])
	}
	return append(head.Bytes(), buf.Bytes()...), nil
}

// shellJoin quotes the arguments that a POSIX shell would mangle.
func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, "^$*?[]{}()<>|&;'\"\\ \t") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}

// cpuInfo returns the CPU model and the number of logical cores from
// /proc/cpuinfo (falling back to runtime.NumCPU).
func cpuInfo() (model, cores string) {
	model, n := "unknown", 0
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.Lines(string(b)) {
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				continue
			}
			switch strings.TrimSpace(k) {
			case "model name":
				if model == "unknown" {
					model = strings.TrimSpace(v)
				}
			case "processor":
				n++
			}
		}
	}
	if n == 0 {
		n = runtime.NumCPU()
	}
	return model, strconv.Itoa(n)
}

// loadAverage returns the one-minute load average, or "unknown".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "unknown"
	}
	return f[0]
}

// gitCommit returns the commit the suite was built from, noting
// uncommitted changes to the library or the suite, or "unknown".
func gitCommit(root string) string {
	b, err := exec.Command("git", "-C", root, "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	c := strings.TrimSpace(string(b))
	if st, err := exec.Command("git", "-C", root, "status", "--porcelain", "--", "ecs", "bench").Output(); err == nil && len(bytes.TrimSpace(st)) > 0 {
		c += " (with uncommitted changes in ecs/ or bench/)"
	}
	return c
}

func goVersion() string {
	b, err := exec.Command("go", "version").Output()
	if err != nil {
		return runtime.Version()
	}
	return strings.TrimPrefix(strings.TrimSpace(string(b)), "go version ")
}

// infoFrom builds the page's run details from the "# key: value" lines.
func infoFrom(meta map[string]string) pageInfo {
	get := func(k, fallback string) string {
		if v, ok := meta[k]; ok && v != "" {
			return v
		}
		return fallback
	}
	return pageInfo{
		reportCommand: get("report command", "go run ./bench/cmd/report"),
		testCommand:   get("test command", "go test ./bench -run '^$' -bench . -benchmem"),
		cpu:           get("cpu model", get("cpu", "unknown")),
		cores:         get("cores", "unknown"),
		goVersion:     get("go version", "unknown"),
		commit:        get("commit", "unknown"),
		date:          get("date", "unknown"),
		duration:      get("duration", "unknown"),
		loadBefore:    get("load before", "unknown"),
		loadAfter:     get("load after", "unknown"),
		counts:        get("count", "several"),
		interleaved:   strings.Contains(get("test command", ""), "for pass in"),
		chartDir:      "benchmarks",
	}
}

// writeReport writes dir/benchmarks.md and a chart per workload in
// dir/benchmarks/.
func writeReport(dir string, rs []result, info pageInfo) error {
	charts := filepath.Join(dir, info.chartDir)
	if err := os.MkdirAll(charts, 0o755); err != nil {
		return err
	}
	for _, wl := range workloads(rs) {
		var b bytes.Buffer
		if err := chartFor(wl, rs).writeSVG(&b); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(charts, wl+".svg"), b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	var b bytes.Buffer
	if err := writePage(&b, rs, info); err != nil {
		return err
	}
	page := filepath.Join(dir, "benchmarks.md")
	if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "report: wrote %s and %d charts in %s\n", page, len(workloads(rs)), charts)
	return nil
}
