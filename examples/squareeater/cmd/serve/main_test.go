package main

import (
	"bytes"
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPortTakenFailsBeforeBuilding: when the address is in use, run fails
// without building, and its error names the -addr flag.
func TestPortTakenFailsBeforeBuilding(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()

	var logs, stdout bytes.Buffer
	built := false
	build := func(string) error { built = true; return nil }
	err = run(context.Background(), taken.Addr().String(), t.TempDir(), build, &stdout, log.New(&logs, "serve: ", 0))
	if err == nil {
		t.Fatalf("serving on %s, which is taken: no error", taken.Addr())
	}
	if built {
		t.Error("the site was built before the address was checked")
	}
	for _, want := range []string{taken.Addr().String(), "-addr"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	if strings.Contains(logs.String(), "building") || stdout.Len() > 0 {
		t.Errorf("output before failing:\nlog: %s\nstdout: %s", logs.String(), stdout.String())
	}
}

// TestSaysBuildingBeforeTheBuild: the "building game.wasm" message is
// logged before the build starts, and the URL printed after it serves the
// site.
func TestSaysBuildingBeforeTheBuild(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	var logs bytes.Buffer
	outR, outW := io.Pipe()
	build := func(dir string) error {
		if !strings.Contains(logs.String(), "building game.wasm") {
			t.Errorf("the build started before the building message; log so far: %q", logs.String())
		}
		return os.WriteFile(filepath.Join(dir, "index.html"), []byte("hello"), 0o644)
	}
	errc := make(chan error, 1)
	go func() {
		errc <- run(ctx, "127.0.0.1:0", dir, build, outW, log.New(&logs, "serve: ", 0))
		outW.Close()
	}()

	line := make([]byte, 256)
	n, err := outR.Read(line)
	if err != nil {
		t.Fatalf("no URL printed: %v (log %q)", err, logs.String())
	}
	text := strings.TrimSpace(string(line[:n]))
	i := strings.Index(text, "http://127.0.0.1:")
	if i < 0 {
		t.Fatalf("printed %q, want a URL on 127.0.0.1", text)
	}
	go io.Copy(io.Discard, outR)
	resp, err := http.Get(text[i:])
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "hello" || resp.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("GET %s: %q, Cache-Control %q; want the built index.html, not cached", text[i:], body, resp.Header.Get("Cache-Control"))
	}

	cancel()
	if err := <-errc; err != nil {
		t.Errorf("run after cancel: %v", err)
	}
	if l := logs.String(); !strings.Contains(l, "building game.wasm") || strings.Index(l, "building") > strings.Index(l, "built game.wasm") {
		t.Errorf("log %q: want the building message, then the built one", l)
	}
}

// TestBuildFailureIsReported: a failing build ends run with its error.
func TestBuildFailureIsReported(t *testing.T) {
	var logs bytes.Buffer
	err := run(context.Background(), "127.0.0.1:0", t.TempDir(), func(string) error { return io.ErrUnexpectedEOF }, io.Discard, log.New(&logs, "", 0))
	if err != io.ErrUnexpectedEOF {
		t.Errorf("run with a failing build: %v, want its error", err)
	}
}
