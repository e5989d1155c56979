// Command serve builds Square Eater to WebAssembly and serves it to a
// browser on the local machine. Run it from the repository root:
//
//	go run -C examples/squareeater ./cmd/serve
//
// It needs only the Go toolchain: it runs `go build` with GOOS=js
// GOARCH=wasm, copies wasm_exec.js from the toolchain, writes an index.html
// beside them and serves the three files. It binds its address first, so
// that a port already in use fails at once rather than after the build,
// then says that it builds (the first build takes a while), and prints the
// URL to open once the site is ready.
//
// By default it serves on 127.0.0.1:8080, which only this machine can
// reach. Flag -addr changes that: -addr 127.0.0.1:8081 for another port,
// -addr 0.0.0.0:8080 to serve on every interface (other machines of the
// network can then play, and reach nothing else: the site is three files).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"time"
)

// gamePackage is the import path of the game's main package.
const gamePackage = "github.com/slipway-ecs/slipway/examples/squareeater"

// defaultAddr is where the site is served unless -addr says otherwise: the
// loopback interface only.
const defaultAddr = "127.0.0.1:8080"

func main() {
	addr := flag.String("addr", defaultAddr, "address to serve on (host:port; port 0 picks a free one; 0.0.0.0:8080 serves on every interface)")
	out := flag.String("out", "", "directory to write the site to (default: a temporary directory, removed on exit)")
	flag.Parse()
	logger := log.New(os.Stderr, "serve: ", 0)

	dir := *out
	if dir == "" {
		tmp, err := os.MkdirTemp("", "squareeater-site-")
		if err != nil {
			logger.Fatal(err)
		}
		dir = tmp
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, *addr, dir, buildSite, os.Stdout, logger)
	stop()
	if *out == "" {
		os.RemoveAll(dir)
	}
	if err != nil {
		logger.Print(err)
		os.Exit(1)
	}
}

// run binds addr, builds the site into dir with build, prints the URL to
// stdout and serves dir until ctx is done. Progress goes to logger. When
// addr cannot be bound, it fails before building, with an error that
// names the -addr flag.
func run(ctx context.Context, addr, dir string, build func(dir string) error, stdout io.Writer, logger *log.Logger) error {
	ln, err := listen(addr)
	if err != nil {
		return err
	}
	defer ln.Close()

	logger.Printf("building game.wasm (GOOS=js GOARCH=wasm go build; the first build takes a minute or so)…")
	start := time.Now()
	if err := build(dir); err != nil {
		return err
	}
	logger.Printf("built game.wasm in %.1fs", time.Since(start).Seconds())

	host, port, err := net.SplitHostPort(ln.Addr().String())
	if err != nil {
		return err
	}
	url := "http://" + net.JoinHostPort(host, port) + "/"
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		// Served on every interface: this machine reaches it on loopback.
		url = "http://" + net.JoinHostPort("127.0.0.1", port) + "/ (and on this machine's other addresses, port " + port + ")"
	}
	fmt.Fprintln(stdout, "Square Eater is served at "+url)

	srv := &http.Server{Handler: siteHandler(dir), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
		case <-done:
			return
		}
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// listen binds addr. Its error says what to do: pick another address with
// the -addr flag.
func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("cannot serve on %s: %w\n"+
			"pick another address with the -addr flag, for example:\n"+
			"\tgo run -C examples/squareeater ./cmd/serve -addr 127.0.0.1:8081\n"+
			"(-addr 127.0.0.1:0 picks a free port)", addr, err)
	}
	return ln, nil
}

// buildSite writes game.wasm, wasm_exec.js and index.html into dir.
func buildSite(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	modDir, err := goEnv("GOMOD")
	if err != nil {
		return err
	}
	if modDir == "" || modDir == os.DevNull {
		return errors.New("run from inside the game's module: go run -C examples/squareeater ./cmd/serve")
	}
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "game.wasm"), gamePackage)
	build.Dir = filepath.Dir(modDir)
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("go build for GOOS=js GOARCH=wasm: %w", err)
	}

	goroot, err := goEnv("GOROOT")
	if err != nil {
		return err
	}
	// Go 1.24 moved wasm_exec.js from misc/wasm to lib/wasm.
	var copyErr error
	for _, sub := range []string{"lib/wasm", "misc/wasm"} {
		copyErr = copyFile(filepath.Join(goroot, sub, "wasm_exec.js"), filepath.Join(dir, "wasm_exec.js"))
		if copyErr == nil {
			break
		}
	}
	if copyErr != nil {
		return fmt.Errorf("wasm_exec.js not found in %s/lib/wasm or %s/misc/wasm: %w", goroot, goroot, copyErr)
	}
	return os.WriteFile(filepath.Join(dir, "index.html"), []byte(indexHTML), 0o644)
}

func goEnv(name string) (string, error) {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %w", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

// siteHandler serves the site's files with caching off, so that a rebuilt
// game is picked up on reload.
func siteHandler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if strings.HasSuffix(r.URL.Path, ".wasm") {
			w.Header().Set("Content-Type", "application/wasm")
		}
		files.ServeHTTP(w, r)
	})
}

const indexHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Square Eater</title>
<style>
html, body { margin: 0; padding: 0; height: 100%; background: #fff; overflow: hidden; }
#status { position: absolute; top: 45%; width: 100%; text-align: center; font: 20px sans-serif; color: #333; }
</style>
</head>
<body>
<div id="status">Loading Square Eater…</div>
<script src="wasm_exec.js"></script>
<script>
"use strict";
const go = new Go();
const status = document.getElementById("status");
// Load timings, in ms since the page started loading (the game adds
// firstFrameMs to window.squareEater when it draws its first frame).
window.squareEaterLoad = { scriptMs: performance.now() };
async function start() {
  const resp = fetch("game.wasm");
  let result;
  if (WebAssembly.instantiateStreaming) {
    result = await WebAssembly.instantiateStreaming(resp, go.importObject);
  } else {
    const bytes = await (await resp).arrayBuffer();
    result = await WebAssembly.instantiate(bytes, go.importObject);
  }
  window.squareEaterLoad.instantiatedMs = performance.now();
  status.remove();
  await go.run(result.instance);
}
start().catch((err) => {
  status.textContent = "Square Eater failed to start: " + err;
  console.error(err);
});
</script>
</body>
</html>
`
