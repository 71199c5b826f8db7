// Command egress plays the public agent-egress-bench corpus through real
// shims, hooks and flowd, with flowd's default config, and prints the
// scoreboard: per category, attacks contained, benign cases blocked, cases
// not applicable (and why) and errors; then the corpus's summary line and
// the failed cases with flowd's reason.
//
//	go run ./bench/egress [-corpus DIR] [-bin DIR] [-jsonl FILE] [-v]
//
// MCP cases run through `shim --name TOOL` wrapping a scripted server that
// this program serves (`egress serve SCRIPT`); the agent's own requests
// (URL, header, body and response cases) are Claude Code hook events sent
// through the real `hook evaluate`. Each category gets a fresh flowd and
// each case a session of its own. verdict.go says how flowd's outcomes map
// to block and allow; corpus.go what flowd claims.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/flowd-dev/flowd/internal/version"
)

// serveIfAsked runs the scripted server and exits when this process was
// started as one (`egress serve SCRIPT`); the test binary calls it too,
// since it is then what the shims start.
func serveIfAsked() {
	if len(os.Args) != 3 || os.Args[1] != "serve" {
		return
	}
	if err := serve(os.Args[2], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "egress serve:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

func main() {
	serveIfAsked()
	corpus := flag.String("corpus", filepath.Join("..", "shared", "corpora", "public", "agent-egress-bench"), "the agent-egress-bench checkout")
	bin := flag.String("bin", "", "prebuilt shim, flowd and hook (default: build them)")
	jsonl := flag.String("jsonl", "", "also write one result line per case (RUNNER.md) to this file")
	verbose := flag.Bool("v", false, "print each case as it is played")
	flag.Parse()
	results, err := runCorpus(*corpus, *bin, *verbose)
	if err != nil {
		fmt.Fprintln(os.Stderr, "egress:", err)
		os.Exit(1)
	}
	if *jsonl != "" {
		if err := writeJSONL(*jsonl, results); err != nil {
			fmt.Fprintln(os.Stderr, "egress:", err)
			os.Exit(1)
		}
	}
	printScoreboard(os.Stdout, flowdProfile(version.Version), results)
}

// result is one case's line of RUNNER.md's output, plus what the
// scoreboard needs.
type result struct {
	CaseID   string `json:"case_id"`
	Tool     string `json:"tool"`
	Version  string `json:"tool_version"`
	Expected string `json:"expected_verdict"`
	Actual   string `json:"actual_verdict"`
	Score    string `json:"score"`
	Evidence struct {
		Steps []step `json:"steps,omitempty"`
	} `json:"evidence"`
	Notes string `json:"notes"`

	category string
	benign   bool
}

// verdictOf is the case's verdict from its steps: any step blocked blocks
// the case (a chain stopped anywhere is stopped; a benign workflow with
// any step refused is broken).
func verdictOf(steps []step) string {
	for _, s := range steps {
		if s.Blocked {
			return verdictBlock
		}
	}
	return verdictAllow
}

// reason is what flowd said about the case, for the list of failures.
func (r result) reason() string {
	var parts []string
	for _, s := range r.Evidence.Steps {
		if s.How != "passed" {
			parts = append(parts, fmt.Sprintf("%s: %s %s", s.What, s.How, firstLine(s.Reason)))
		}
	}
	if len(parts) == 0 && r.Notes != "" {
		return r.Notes
	}
	if len(parts) == 0 {
		return "passed without a finding"
	}
	return strings.Join(parts, "; ")
}

func runCorpus(dir, binDir string, verbose bool) ([]result, error) {
	cases, err := loadCorpus(dir)
	if err != nil {
		return nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find this program to serve the scripted servers: %w", err)
	}
	tmp, err := os.MkdirTemp("", "flowd-egress-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	var bins binaries
	if binDir == "" {
		bins, err = build(filepath.Join(tmp, "bin"))
	} else {
		bins, err = binariesIn(binDir)
	}
	if err != nil {
		return nil, err
	}
	prof := flowdProfile(version.Version)
	var results []result
	var p *player
	stop := func() error {
		if p == nil {
			return nil
		}
		err := p.d.stop()
		p = nil
		return err
	}
	defer stop()
	for i, c := range cases {
		r := result{CaseID: c.ID, Tool: prof.Tool, Version: prof.ToolVersion, Expected: c.Expected,
			category: c.Category, benign: c.Expected == verdictAllow}
		if i > 0 && cases[i-1].Category != c.Category {
			if err := stop(); err != nil {
				return nil, err
			}
		}
		if why := prof.notApplicable(c); why != "" {
			r.Actual, r.Notes = verdictNA, why
		} else {
			if p == nil {
				dir, err := os.MkdirTemp(tmp, c.Category+"-")
				if err != nil {
					return nil, err
				}
				d, err := startDaemon(bins, dir)
				if err != nil {
					return nil, err
				}
				p = &player{d: d, self: self, dir: dir}
			}
			steps, err := p.play(c)
			r.Evidence.Steps = steps
			r.Actual = verdictOf(steps)
			if err != nil {
				r.Actual, r.Notes = verdictError, err.Error()
			}
		}
		r.Score = score(r.Expected, r.Actual)
		if verbose {
			fmt.Fprintf(os.Stderr, "%-45s %-6s %-14s %s\n", c.ID, r.Expected, r.Score, r.reason())
		}
		results = append(results, r)
	}
	return results, stop()
}

func writeJSONL(path string, results []result) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, r := range results {
		if err := enc.Encode(r); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// tally is one row of the scoreboard.
type tally struct {
	attacks, contained, benign, benignBlocked, na, errors, pass, fail int
}

func (t *tally) add(r result) {
	switch r.Score {
	case scoreNA:
		t.na++
		return
	case scoreError:
		t.errors++
		return
	case scorePass:
		t.pass++
	case scoreFail:
		t.fail++
	}
	if r.benign {
		t.benign++
		if r.Actual == verdictBlock {
			t.benignBlocked++
		}
	} else {
		t.attacks++
		if r.Actual == verdictBlock {
			t.contained++
		}
	}
}

func printScoreboard(w io.Writer, prof profile, results []result) {
	fmt.Fprintf(w, "agent-egress-bench: %s %s, default config (blocklist seeded as RUNNER.md asks), through shim, hook evaluate and flowd\n", prof.Tool, prof.ToolVersion)
	fmt.Fprintf(w, "claims: %s\n\n", strings.Join(prof.Claims, ", "))
	var cats []string
	rows := map[string]*tally{}
	total := &tally{}
	for _, r := range results {
		if rows[r.category] == nil {
			rows[r.category] = &tally{}
			cats = append(cats, r.category)
		}
		rows[r.category].add(r)
		total.add(r)
	}
	fmt.Fprintf(w, "%-22s %12s %16s %6s %6s\n", "category", "contained", "benign blocked", "n/a", "errors")
	for _, c := range cats {
		t := rows[c]
		fmt.Fprintf(w, "%-22s %12s %16s %6d %6d\n", c, frac(t.contained, t.attacks), frac(t.benignBlocked, t.benign), t.na, t.errors)
	}
	fmt.Fprintf(w, "%-22s %12s %16s %6d %6d\n\n", "all", frac(total.contained, total.attacks), frac(total.benignBlocked, total.benign), total.na, total.errors)

	na := map[string][]string{}
	var naOrder []string
	for _, r := range results {
		if r.Score == scoreNA {
			if na[r.Notes] == nil {
				naOrder = append(naOrder, r.Notes)
			}
			na[r.Notes] = append(na[r.Notes], r.CaseID)
		}
	}
	if len(naOrder) > 0 {
		fmt.Fprintln(w, "not applicable (not played), why:")
		for _, why := range naOrder {
			fmt.Fprintf(w, "  %s: %d cases\n", why, len(na[why]))
		}
		fmt.Fprintln(w)
	}
	for _, kind := range []string{scoreFail, scoreError} {
		var lines []string
		for _, r := range results {
			if r.Score == kind {
				lines = append(lines, fmt.Sprintf("  %s (expected %s, got %s): %s", r.CaseID, r.Expected, r.Actual, r.reason()))
			}
		}
		if len(lines) > 0 {
			fmt.Fprintf(w, "%s:\n%s\n\n", map[string]string{scoreFail: "failed", scoreError: "errors"}[kind], strings.Join(lines, "\n"))
		}
	}
	fmt.Fprintf(w, "results: %d passed, %d failed, %d not_applicable, %d errors (%d total)\n",
		total.pass, total.fail, total.na, total.errors, len(results))
}

func frac(n, d int) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d", n, d)
}
