package main

import (
	"bufio"
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// binaries are the programs the benchmark runs.
type binaries struct{ shim, flowd, hook, testserver, rawserver, verdictd string }

func binariesIn(dir string) (binaries, error) {
	b := binaries{shim: filepath.Join(dir, "shim"), flowd: filepath.Join(dir, "flowd"), hook: filepath.Join(dir, "hook"),
		testserver: filepath.Join(dir, "testserver"), rawserver: filepath.Join(dir, "rawserver"), verdictd: filepath.Join(dir, "verdictd")}
	for _, p := range []string{b.shim, b.flowd, b.hook, b.testserver, b.rawserver, b.verdictd} {
		if _, err := os.Stat(p); err != nil {
			return b, fmt.Errorf("binary %s: %w (build with: go build -ldflags='-s -w' -trimpath -o DIR/ ./cmd/shim ./cmd/flowd ./internal/testserver ./bench/rawserver ./bench/verdictd"+
				" && CGO_ENABLED=0 go build -ldflags='-s -w' -trimpath -o DIR/ ./cmd/hook)", p, err)
		}
	}
	return b, nil
}

// buildFlags are the release flags the size target is about.
var buildFlags = []string{"-ldflags=-s -w", "-trimpath"}

// hookBuildEnv is added to the hook's build: a static binary starts
// without the dynamic loader, and the hook starts once per tool call.
const hookBuildEnv = "CGO_ENABLED=0"

// build compiles the binaries from the module that contains the working
// directory, the way a release would, into dir.
func build(dir string) (binaries, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return binaries{}, fmt.Errorf("find the flowd module (go env GOMOD): %w; or pass prebuilt binaries with -bin DIR", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return binaries{}, errors.New("not inside the flowd module: run from the repository, or pass prebuilt binaries with -bin DIR")
	}
	goBuild := func(env []string, pkgs ...string) error {
		args := append([]string{"build"}, buildFlags...)
		args = append(append(args, "-o", dir+string(filepath.Separator)), pkgs...)
		cmd := exec.Command("go", args...)
		cmd.Dir = filepath.Dir(mod)
		cmd.Env = append(os.Environ(), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s go %s: %w\n%s", strings.Join(env, " "), strings.Join(args, " "), err, out)
		}
		return nil
	}
	if err := goBuild(nil, "./cmd/shim", "./cmd/flowd", "./internal/testserver", "./bench/rawserver", "./bench/verdictd"); err != nil {
		return binaries{}, err
	}
	if err := goBuild([]string{hookBuildEnv}, "./cmd/hook"); err != nil {
		return binaries{}, err
	}
	return binariesIn(dir)
}

// binariesFrom returns the prebuilt binaries in binDir, or, when binDir
// is empty, builds them into tmp/bin after calling building.
func binariesFrom(binDir, tmp string, building func()) (binaries, error) {
	if binDir != "" {
		return binariesIn(binDir)
	}
	building()
	return build(filepath.Join(tmp, "bin"))
}

// stripped reports whether an ELF binary lacks a symbol table; ok is false
// for other formats, where the benchmark does not tell.
func stripped(path string) (isStripped, ok bool) {
	f, err := elf.Open(path)
	if err != nil {
		return false, false
	}
	defer f.Close()
	return f.Section(".symtab") == nil, true
}

// flowdProc is a flowd run in the foreground for the benchmark.
type flowdProc struct {
	cmd    *exec.Cmd
	stderr *readyWatch
	exited chan error
}

// readyWatch keeps flowd's log and signals the line that says it serves.
type readyWatch struct {
	tailBuffer
	ready chan struct{}
	seen  bool
}

func (r *readyWatch) Write(p []byte) (int, error) {
	r.tailBuffer.Write(p)
	// slog writes one record per Write, so the marker is never split.
	if !r.seen && bytes.Contains(p, []byte("flowd ready")) {
		r.seen = true
		close(r.ready)
	}
	return len(p), nil
}

// flowdPatience bounds flowd's start and stop: a race-built flowd on a
// two-core machine loaded by fifty shims starting at once (-only contact)
// took longer than 15 s to stop.
const flowdPatience = time.Minute

func startFlowd(bin, socket, dataDir, config string, env []string) (*flowdProc, error) {
	cmd := exec.Command(bin, "run", "--socket", socket, "--data-dir", dataDir, "--config", config)
	cmd.Env = env
	f := &flowdProc{cmd: cmd, stderr: &readyWatch{ready: make(chan struct{})}, exited: make(chan error, 1)}
	cmd.Stderr = f.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start flowd: %w", err)
	}
	go func() { f.exited <- cmd.Wait() }()
	select {
	case <-f.stderr.ready:
		return f, nil
	case err := <-f.exited:
		return nil, fmt.Errorf("flowd exited before it was ready (%v): %s", err, f.stderr.String())
	case <-time.After(flowdPatience):
		cmd.Process.Kill()
		<-f.exited
		return nil, fmt.Errorf("flowd not ready within %v; killed: %s", flowdPatience, f.stderr.String())
	}
}

func (f *flowdProc) pid() int { return f.cmd.Process.Pid }

// stop asks flowd to stop as a service manager would, and reports a
// shutdown that failed or hung.
func (f *flowdProc) stop() error {
	f.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-f.exited:
		if err != nil {
			return fmt.Errorf("flowd stopped badly (%v): %s", err, f.stderr.String())
		}
		return nil
	case <-time.After(flowdPatience):
		f.cmd.Process.Kill()
		<-f.exited
		return fmt.Errorf("flowd did not stop within %v of SIGTERM; killed: %s", flowdPatience, f.stderr.String())
	}
}

// Memory is one reading of a process's resident set.
type Memory struct {
	Process string `json:"process"`
	When    string `json:"when"`
	RSS     int64  `json:"rss_bytes"` // VmRSS
	HWM     int64  `json:"hwm_bytes"` // VmHWM, the peak of VmRSS
}

// errNoProc means this system has no /proc to read memory from.
var errNoProc = errors.New("memory is read from /proc, which only Linux has")

func readMemory(pid int, process, when string) (Memory, error) {
	if runtime.GOOS != "linux" {
		return Memory{}, errNoProc
	}
	path := "/proc/" + strconv.Itoa(pid) + "/status"
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Memory{}, fmt.Errorf("read %s memory: process %d is gone", process, pid)
	}
	if err != nil {
		return Memory{}, fmt.Errorf("read %s memory: %w", process, err)
	}
	m, err := parseStatus(b)
	if err != nil {
		return Memory{}, fmt.Errorf("read %s memory from %s: %w", process, path, err)
	}
	m.Process, m.When = process, when
	return m, nil
}

// parseStatus reads VmRSS and VmHWM from /proc/PID/status, whose "kB" are
// KiB.
func parseStatus(b []byte) (Memory, error) {
	var m Memory
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok || (key != "VmRSS" && key != "VmHWM") {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(val), " kB"), 10, 64)
		if err != nil {
			return m, fmt.Errorf("bad %s line %q", key, sc.Text())
		}
		if key == "VmRSS" {
			m.RSS = kb << 10
		} else {
			m.HWM = kb << 10
		}
	}
	if m.RSS == 0 || m.HWM == 0 {
		return m, errors.New("no VmRSS/VmHWM lines")
	}
	return m, nil
}

// verdictdProc is bench/verdictd serving a socket; closing its stdin
// stops it.
type verdictdProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	socket string
}

// besideFlowd makes dir hold the shim and verdictd under flowd's name:
// a shim asks only the flowd binary installed beside it
// (localsock.DialFlowd), and verdictd stands in for flowd.
func besideFlowd(dir, shim, verdictd string) (shimPath, flowdPath string, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", fmt.Errorf("make %s: %w", dir, err)
	}
	shimPath, flowdPath = filepath.Join(dir, filepath.Base(shim)), filepath.Join(dir, "flowd"+filepath.Ext(verdictd))
	for from, to := range map[string]string{shim: shimPath, verdictd: flowdPath} {
		if err := os.Link(from, to); err == nil {
			continue
		}
		b, err := os.ReadFile(from)
		if err == nil {
			err = os.WriteFile(to, b, 0o755)
		}
		if err != nil {
			return "", "", fmt.Errorf("put %s beside the shim as %s: %w", from, to, err)
		}
	}
	return shimPath, flowdPath, nil
}

func startVerdictd(bin, socket string, env []string) (*verdictdProc, error) {
	cmd := exec.Command(bin, socket)
	cmd.Env = env
	stderr := &tailBuffer{}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("verdictd stdin: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("verdictd stdout: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start verdictd: %w", err)
	}
	out := bufio.NewReader(stdout)
	if line, err := out.ReadString('\n'); err != nil || line != "ready\n" {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, fmt.Errorf("verdictd did not start (%v): %s", err, stderr.String())
	}
	return &verdictdProc{cmd: cmd, stdin: stdin, stdout: out, socket: socket}, nil
}

// passed is how many messages verdictd has passed so far.
func (v *verdictdProc) passed() (int, error) {
	if _, err := io.WriteString(v.stdin, "\n"); err != nil {
		return 0, fmt.Errorf("ask verdictd: %w", err)
	}
	line, err := v.stdout.ReadString('\n')
	if err != nil {
		return 0, fmt.Errorf("ask verdictd: %w", err)
	}
	return strconv.Atoi(strings.TrimSpace(line))
}

func (v *verdictdProc) stop() error {
	v.stdin.Close()
	if err := v.cmd.Wait(); err != nil {
		return fmt.Errorf("verdictd stopped badly: %w", err)
	}
	return nil
}

// processCPU is the CPU time process pid has run so far, all its threads
// together, from /proc (the first field of each task's schedstat, in
// nanoseconds); errNoProc off Linux.
func processCPU(pid int) (time.Duration, error) {
	cpu, _, err := processSched(pid)
	return cpu, err
}

// processSched is processCPU and the times a thread of process pid was
// put on a CPU so far (the third field of each task's schedstat): each
// is a wake-up of a sleeping thread or a return after preemption, which
// on a VM costs tens of µs a time.
func processSched(pid int) (cpu time.Duration, runs int64, err error) {
	if runtime.GOOS != "linux" {
		return 0, 0, errNoProc
	}
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return 0, 0, fmt.Errorf("read CPU time of process %d: %w", pid, err)
	}
	for _, t := range tasks {
		b, err := os.ReadFile(filepath.Join(dir, t.Name(), "schedstat"))
		if errors.Is(err, fs.ErrNotExist) {
			continue // the thread ended meanwhile
		}
		if err != nil {
			return 0, 0, fmt.Errorf("read CPU time of process %d: %w", pid, err)
		}
		f := strings.Fields(string(b))
		if len(f) < 3 {
			return 0, 0, fmt.Errorf("read CPU time of process %d: %s/%s/schedstat has %d fields, not 3", pid, dir, t.Name(), len(f))
		}
		ns, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("read CPU time of process %d: %w", pid, err)
		}
		n, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("read CPU time of process %d: %w", pid, err)
		}
		cpu, runs = cpu+time.Duration(ns), runs+n
	}
	return cpu, runs, nil
}
