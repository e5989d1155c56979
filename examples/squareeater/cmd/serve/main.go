// Command serve builds Square Eater to WebAssembly and serves it to a
// browser on the local machine. Run it from the repository root:
//
//	go run -C examples/squareeater ./cmd/serve
//
// It needs only the Go toolchain: it runs `go build` with GOOS=js
// GOARCH=wasm, copies wasm_exec.js from the toolchain, writes an index.html
// beside them and serves the three files on 127.0.0.1 (flag -addr). It
// prints the URL to open once the server listens.
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

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to serve on (host:port; port 0 picks a free one)")
	out := flag.String("out", "", "directory to write the site to (default: a temporary directory, removed on exit)")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("serve: ")

	dir := *out
	if dir == "" {
		tmp, err := os.MkdirTemp("", "squareeater-site-")
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	if err := run(*addr, dir); err != nil {
		log.Print(err)
		if *out == "" {
			os.RemoveAll(dir)
		}
		os.Exit(1)
	}
}

func run(addr, dir string) error {
	start := time.Now()
	if err := buildSite(dir); err != nil {
		return err
	}
	log.Printf("built game.wasm in %.1fs", time.Since(start).Seconds())

	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	host, port, err := net.SplitHostPort(ln.Addr().String())
	if err != nil {
		return err
	}
	url := "http://" + net.JoinHostPort(host, port) + "/"
	fmt.Println("Square Eater is served at " + url)

	srv := &http.Server{Handler: siteHandler(dir), ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
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
