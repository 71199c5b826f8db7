//go:build unix

package e2e

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// bins are the binaries TestMain builds for this run of the test binary,
// and the files they were built from.
var bins struct {
	shim, flowd, hook, testserver string
	sources                       []string
}

var binPackages = []string{
	"github.com/flowd-dev/flowd/cmd/shim",
	"github.com/flowd-dev/flowd/cmd/flowd",
	"github.com/flowd-dev/flowd/cmd/hook",
	"github.com/flowd-dev/flowd/internal/testserver",
}

// helperEnv makes the test binary act as a tiny upstream server (see
// runUpstreamHelper) instead of running tests: the shim needs children
// whose every byte and signal the test controls.
const helperEnv = "FLOWD_E2E_UPSTREAM"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(runUpstreamHelper(mode))
	}
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	dir, err := os.MkdirTemp("", "flowd-e2e-bin-")
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e: create binary dir: %v\n", err)
		return 1
	}
	defer os.RemoveAll(dir)
	args := []string{"build", "-o", dir + string(os.PathSeparator)}
	if raceEnabled {
		// The shim and flowd then run under the race detector too, so a data
		// race in them under real traffic ends their run with exit code 66.
		args = append(args, "-race")
	}
	args = append(args, binPackages...)
	// go test puts its own toolchain first on PATH, so this is the same go.
	build := exec.Command("go", args...)
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: go %v: %v\n", args, err)
		return 1
	}
	bins.shim = filepath.Join(dir, "shim")
	bins.flowd = filepath.Join(dir, "flowd")
	bins.hook = filepath.Join(dir, "hook")
	bins.testserver = filepath.Join(dir, "testserver")
	if bins.sources, err = sources(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: %v\n", err)
		return 1
	}
	return m.Run()
}

// sources lists the module's files the binaries are built from.
func sources() ([]string, error) {
	const format = `{{if and .Module .Module.Main}}{{.Module.GoMod}}
{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}
{{end}}{{range .EmbedFiles}}{{$d}}/{{.}}
{{end}}{{end}}`
	out, err := exec.Command("go", append([]string{"list", "-deps", "-f", format}, binPackages...)...).Output()
	if err != nil {
		return nil, fmt.Errorf("go list the sources of %v: %w", binPackages, err)
	}
	var files []string
	for _, f := range strings.Split(string(out), "\n") {
		if f != "" && !slices.Contains(files, f) {
			files = append(files, f)
		}
	}
	if len(files) > 0 && strings.HasSuffix(files[0], "go.mod") {
		files = append(files, strings.TrimSuffix(files[0], "mod")+"sum")
	}
	return files, nil
}

var declareOnce sync.Once

// declareSources stats the files the binaries were built from. go test
// caches a passing result until the test binary, or a file or environment
// variable the test itself used, changes; the binaries are built from
// packages this one does not import, so without this a change to the shim
// would replay a cached pass. (TestMain runs before go test's logging of
// those uses starts, hence a call from the tests.)
func declareSources() {
	declareOnce.Do(func() {
		for _, f := range bins.sources {
			os.Stat(f)
		}
	})
}

// upstream returns the command line and environment entry that run this
// test binary as an upstream server in the given mode.
func upstream(mode string) (argv []string, env string) {
	self, err := os.Executable()
	if err != nil {
		self = os.Args[0]
	}
	return []string{self}, helperEnv + "=" + mode
}

// Upstream helper modes.
const (
	// modeEcho writes helperStderr to stderr, then its pid as a line to
	// stdout, then copies stdin to stdout until EOF and exits 0.
	modeEcho = "echo"
	// modeTrapSignals prints "ready", waits for SIGTERM, SIGINT or SIGHUP,
	// prints "got " and the signal's name, and exits 7.
	modeTrapSignals = "trap-signals"
	// modeScript is a raw MCP server a test scripts through its own
	// messages (see runScripted).
	modeScript = "script"
)

// helperStderr is what modeEcho writes to stderr before anything else:
// no newline at the end, a CR and non-ASCII, to see it passed untouched.
const helperStderr = "upstream stderr: ünïcödé ✓\r\nno newline at the end"

func runUpstreamHelper(mode string) int {
	switch mode {
	case modeEcho:
		os.Stderr.WriteString(helperStderr)
		fmt.Printf("pid %d\n", os.Getpid())
		if _, err := io.Copy(os.Stdout, bufio.NewReader(os.Stdin)); err != nil {
			fmt.Fprintln(os.Stderr, "echo:", err)
			return 1
		}
		return 0
	case modeTrapSignals:
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
		fmt.Println("ready")
		fmt.Println("got", <-sig)
		return 7
	case modeScript:
		return runScripted(os.Stdin, os.Stdout)
	}
	fmt.Fprintf(os.Stderr, "unknown %s mode %q\n", helperEnv, mode)
	return 2
}
