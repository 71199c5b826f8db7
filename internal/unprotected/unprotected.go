package unprotected

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/flowd-dev/flowd/internal/atomicfile"
	"github.com/flowd-dev/flowd/internal/paths"
)

// Shim is one shim that runs unprotected.
type Shim struct {
	PID    int       `json:"pid"`
	Server string    `json:"server"`
	Socket string    `json:"socket"` // where it looked for flowd
	Reason string    `json:"reason"`
	Since  time.Time `json:"since"`
}

// Dir is where the records live: beside the user's socket, whose place
// depends on nothing a client's environment can change, so a shim started
// with a reduced environment and the user's CLI agree on it.
func Dir() string { return filepath.Join(filepath.Dir(paths.UserSocket()), "unprotected") }

// Mark records s, replacing an earlier record of the same pid.
func Mark(dir string, s Shim) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(file(dir, s.PID), b, 0o600); err != nil {
		return fmt.Errorf("record unprotected shim: %w", err)
	}
	return nil
}

// Clear removes pid's record, if any.
func Clear(dir string, pid int) {
	os.Remove(file(dir, pid))
}

// List returns the records of shims still running, oldest first, and
// removes those of shims that are gone.
func List(dir string) ([]Shim, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", dir, err)
	}
	var out []Shim
	for _, e := range ents {
		pid, err := strconv.Atoi(strings.TrimSuffix(e.Name(), ".json"))
		if err != nil || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		var s Shim
		if err != nil || json.Unmarshal(b, &s) != nil || s.PID != pid || !running(pid) {
			Clear(dir, pid)
			continue
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Since.Before(out[j].Since) })
	return out, nil
}

func file(dir string, pid int) string { return filepath.Join(dir, strconv.Itoa(pid)+".json") }
