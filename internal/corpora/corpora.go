// Package corpora finds the labelled third-party data that detection tests
// measure themselves on: ../shared/corpora beside the repository root. The
// data is not part of the product and is never copied into the repository.
package corpora

import (
	"fmt"
	"os"
	"path/filepath"
)

// Dir returns the corpora directory, found from the working directory (a
// test runs in its package's directory) by walking up to go.mod.
func Dir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared", "corpora"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}
