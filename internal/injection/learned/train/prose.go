package main

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// goProse returns benign text that is already on any machine that builds
// flowd, pinned by versions: the comment paragraphs of the Go
// distribution's standard library ("go-docs"), and the README files and
// comment paragraphs of the modules go.mod requires, at the versions
// go.sum pins ("module-docs"). Technical prose full of "send", "call",
// "ignore", "token" and "password" that addresses no model.
func goProse() (map[string][]string, error) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("find the Go distribution (go env GOROOT): %w", err)
	}
	out := map[string][]string{}
	std, err := comments(filepath.Join(strings.TrimSpace(string(goroot)), "src"), 0)
	if err != nil {
		return nil, err
	}
	out["go-docs"] = std
	dirs, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "all").Output()
	if err != nil {
		return nil, fmt.Errorf("list the modules go.mod requires (go list -m all; run go mod download first): %w", err)
	}
	for _, dir := range strings.Fields(string(dirs)) {
		if mod, _ := filepath.Abs("."); dir == mod {
			continue // flowd itself: its docs quote attacks and change with every commit
		}
		cs, err := comments(dir, 400)
		if err != nil {
			return nil, err
		}
		out["module-docs"] = append(out["module-docs"], cs...)
		readmes, _ := filepath.Glob(filepath.Join(dir, "README*"))
		sort.Strings(readmes)
		for _, p := range readmes {
			b, err := os.ReadFile(p)
			if err != nil {
				return nil, fmt.Errorf("read %s: %w", p, err)
			}
			for _, para := range strings.Split(string(b), "\n\n") {
				if len(strings.Fields(para)) >= 6 {
					out["module-docs"] = append(out["module-docs"], para)
				}
			}
		}
	}
	return out, nil
}

// comments returns the comment paragraphs of at least ten words of the
// Go files under root (not tests, testdata, vendored code or commands),
// in a fixed order, at most limit of them (0: all).
func comments(root string, limit int) ([]string, error) {
	var files []string
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && (e.Name() == "testdata" || e.Name() == "vendor" || e.Name() == "cmd" || e.Name() == "internal" && p != root) {
			return filepath.SkipDir
		}
		if !e.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walk the Go sources at %s: %w", root, err)
	}
	sort.Strings(files)
	var out []string
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		var para []string
		flush := func() {
			if t := strings.Join(para, " "); len(strings.Fields(t)) >= 10 {
				out = append(out, t)
			}
			para = para[:0]
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if c, ok := strings.CutPrefix(line, "//"); ok && !strings.HasPrefix(c, "go:") && !strings.HasPrefix(c, " +build") {
				if c = strings.TrimSpace(c); c != "" {
					para = append(para, c)
					continue
				}
			}
			flush()
		}
		flush()
		f.Close()
		if limit > 0 && len(out) >= limit {
			return out[:limit], nil
		}
	}
	return out, nil
}
