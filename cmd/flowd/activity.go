package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/injection"
	"github.com/flowd-dev/flowd/internal/paths"
)

func cmdActivity(args []string) error {
	fl := newFlags("flowd activity")
	socket := clientSocket(fl)
	dataDir := fl.String("data-dir", paths.DataDir(), "read the store directly when flowd is not running (env FLOWD_DATA_DIR)")
	var f activity.Filter
	fl.StringVar(&f.Type, "type", "", "record type: "+strings.Join(activity.Types, ", "))
	fl.StringVar(&f.Session, "session", "", "session ID")
	fl.StringVar(&f.Server, "server", "", "server name")
	fl.StringVar(&f.RiskLevel, "risk-level", "", "at least this risk: low, medium, high, critical")
	fl.StringVar(&f.FlowType, "flow-type", "", "flow type: "+strings.Join(activity.FlowTypes, ", ")+" (-> for →)")
	fl.StringVar(&f.Tool, "tool", "", "tool name")
	fl.Func("since", "records from this time on: RFC 3339 (2026-11-27T09:00:00Z) or a duration back from now (2h)", timeFlag(&f.Since))
	fl.Func("until", "records up to this time: RFC 3339 or a duration back from now", timeFlag(&f.Until))
	fl.Uint64Var(&f.Before, "before", 0, "records older than this activity ID (the next page after it)")
	fl.IntVar(&f.Limit, "limit", 50, "most recent N records (0: the default)")
	asJSON := fl.Bool("json", false, "print JSON")
	export := fl.String("export", "", "write every matching record, oldest first, as jsonl or csv (no limit)")
	flows := fl.Bool("include-flows", false, "with --export: include each record's details (its flow evidence)")
	if err := noArgs(fl, args); err != nil {
		return err
	}
	f, err := f.Check()
	if err != nil {
		return usageError(fl, "%v", err)
	}
	if *export != "" {
		return exportActivity(os.Stdout, socket.Path(), filepath.Join(*dataDir, paths.ActivityStore), f, *export, *flows, fl)
	}
	recs, err := flowdclient.NewClient(socket.Path(), 5*time.Second).Activity(f)
	if err != nil && !answered(err) {
		// flowd holds the store open while it runs; without it, read the file.
		recs, err = readStore(filepath.Join(*dataDir, paths.ActivityStore), f)
	}
	if err != nil {
		return err
	}
	return printActivity(os.Stdout, recs, *asJSON)
}

// printActivity prints records as a table, or as JSON with asJSON.
func printActivity(w io.Writer, recs []activity.Record, asJSON bool) error {
	// flowd's API shows records so; the store read directly does not.
	for i := range recs {
		recs[i] = recs[i].Shown()
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(recs)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTIME\tTYPE\tSESSION\tSERVER\tTOOL\tVERDICT\tDECISION\tRISK\tREASON")
	for _, r := range recs {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Time.Local().Format("15:04:05.000"), r.Type,
			short(r.Session, 20), r.Server, r.Tool, r.Verdict, r.Decision, r.RiskLevel, short(reason(r), 100))
	}
	return tw.Flush()
}

// exportActivity writes every record f selects to w, from flowd or, when
// it is not running, from the store file.
func exportActivity(w io.Writer, socket, store string, f activity.Filter, format string, flows bool, fl *flag.FlagSet) error {
	f.Limit = 0
	if _, _, err := activity.Exporter(io.Discard, format, flows); err != nil {
		return usageError(fl, "%v", err)
	}
	err := flowdclient.NewClient(socket, 5*time.Second).Export(f, format, flows, w)
	if err == nil || answered(err) {
		return err
	}
	if _, serr := os.Stat(store); serr != nil {
		return fmt.Errorf("no activity yet: flowd is not running and %s does not exist", store)
	}
	s, err := activity.Open(store, activity.Options{})
	if err != nil {
		return offline(err)
	}
	defer s.Close()
	out := bufio.NewWriter(w)
	if err := s.ExportTo(out, f, format, flows); err != nil {
		return err
	}
	return out.Flush()
}

// timeFlag parses a time given as RFC 3339 or as a duration back from now.
func timeFlag(t *time.Time) func(string) error {
	return func(s string) error {
		if d, err := time.ParseDuration(s); err == nil {
			*t = time.Now().Add(-d)
			return nil
		}
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return fmt.Errorf("want RFC 3339 (2026-11-27T09:00:00Z) or a duration (2h), not %q", s)
		}
		*t = v
		return nil
	}
}

// reason is a record's REASON column: its reason, after a note when the
// prompt-injection scan of its result was cut short, so that a result
// that passed unscanned in part does not look like one that passed whole.
func reason(r activity.Record) string {
	if !bytes.Contains(r.Details, []byte(`"scan":`)) {
		return r.Reason
	}
	var det struct {
		Injection *flowdclient.Injection `json:"injection"`
	}
	if json.Unmarshal(r.Details, &det) != nil || det.Injection == nil || det.Injection.Scan == nil {
		return r.Reason
	}
	c := det.Injection.Scan
	note := fmt.Sprintf("scan cut short by its %s: %d of %d bytes scanned", boundName(c.Truncated), c.Scanned, c.Total)
	if r.Reason == "" {
		return note
	}
	return note + "; " + r.Reason
}

func boundName(b injection.Bound) string {
	switch b {
	case injection.BoundBudget:
		return "time budget"
	case injection.BoundMedia:
		return "media it cannot read"
	}
	return "size limits"
}

func readStore(path string, f activity.Filter) ([]activity.Record, error) {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("no activity yet: flowd is not running and %s does not exist", path)
	}
	s, err := activity.Open(path, activity.Options{})
	if err != nil {
		return nil, offline(err)
	}
	defer s.Close()
	recs, err := s.Query(f)
	if n := s.Stats().Unreadable; n > 0 {
		fmt.Fprintf(os.Stderr, "flowd: skipped %d record(s) of %s that cannot be decoded\n", n, path)
	}
	return recs, err
}

func short(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	// Cut at a character: a byte cut splits a multi-byte one and prints
	// an invalid sequence.
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
