// Package corpora finds the labelled third-party data that detection tests
// measure themselves on: ../shared/corpora beside the repository root. The
// data is not part of the product and is never copied into the repository.
package corpora

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
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

// BIPIASample is one line of BIPIA's training split (dev/bipia-train).
type BIPIASample struct {
	Task     string `json:"task"`
	Label    int    `json:"label"` // 1 attacked, 0 clean
	Category string `json:"attack_category"`
	Attack   string `json:"attack"`
	Encoding string `json:"encoding"`
	Text     string `json:"text"`
}

// BIPIAPath is where BIPIA's training split lies.
func BIPIAPath() (string, error) {
	dir, err := Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "dev", "bipia-train", "bipia_train.jsonl.gz"), nil
}

// BIPIA reads BIPIA's training split; it returns nil and no error when the
// corpus is absent.
func BIPIA() ([]BIPIASample, error) {
	p, err := BIPIAPath()
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open BIPIA corpus: %w", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("gunzip %s: %w", p, err)
	}
	var out []BIPIASample
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var s BIPIASample
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", p, len(out)+1, err)
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	return out, nil
}
