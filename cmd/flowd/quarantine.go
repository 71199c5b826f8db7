package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/paths"
	"github.com/flowd-dev/flowd/internal/quarantine"
)

const quarantineUsage = `usage: flowd quarantine list [--json]
       flowd quarantine show ID [--json]    (asks for your approval passphrase at the terminal)
       flowd quarantine release ID          (asks for your approval passphrase at the terminal)`

func cmdQuarantine(args []string, out io.Writer, open tty) error {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, quarantineUsage)
		return exitError(2)
	}
	if isHelp(args[0]) {
		fmt.Fprintln(out, quarantineUsage)
		return nil
	}
	cmd, err := parseStoreCommand("flowd quarantine "+args[0], args[1:], "read the quarantine directly when flowd is not running")
	if err != nil {
		return err
	}
	pos, arg, c := cmd.pos, cmd.arg, cmd.client
	file := filepath.Join(cmd.dataDir, paths.QuarantineStore)
	switch {
	case args[0] == "list" && len(pos) == 0:
		items, err := c.Quarantine()
		if err != nil {
			items, err = readQuarantine(file, func(s *quarantine.Store) ([]quarantine.Item, error) { return s.List(0) }, err)
			if err != nil {
				return err
			}
			// The same as flowd's answer: what the items say is for show.
			for i := range items {
				items[i] = items[i].Metadata()
			}
		}
		if cmd.json {
			return printJSON(out, items)
		}
		return printQuarantine(out, items)
	case args[0] == "show" && len(pos) == 1:
		return show(c, arg(0), file, cmd.json, out, open)
	case args[0] == "release" && len(pos) == 1:
		return release(c, arg(0), out, open)
	}
	fmt.Fprintln(os.Stderr, quarantineUsage)
	return exitError(2)
}

// readQuarantine reads the file when flowd, which holds it, is not
// running; apiErr is why asking flowd failed.
func readQuarantine(path string, read func(*quarantine.Store) ([]quarantine.Item, error), apiErr error) ([]quarantine.Item, error) {
	if answered(apiErr) {
		return nil, apiErr
	}
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("nothing quarantined: flowd is not running and %s does not exist", path)
	}
	s, err := quarantine.Open(path, quarantine.Options{})
	if err != nil {
		return nil, offline(err)
	}
	defer s.Close()
	items, err := read(s)
	// As flowd's API shows them.
	for i := range items {
		items[i] = items[i].Shown()
	}
	return items, err
}

func printQuarantine(out io.Writer, items []quarantine.Item) error {
	if len(items) == 0 {
		fmt.Fprintln(out, "nothing quarantined")
		return nil
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTIME\tSERVER\tTOOL\tSCORE\tRULES\tRELEASED")
	for _, it := range items {
		released := ""
		if !it.Released.IsZero() {
			released = it.Released.Local().Format("2006-01-02 15:04")
		}
		rules := ruleList(it)
		if it.Unreadable != "" {
			rules = "cannot be read: " + it.Unreadable
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.2f\t%s\t%s\n", it.ID, it.Time.Local().Format("2006-01-02 15:04:05"),
			it.Server, it.Tool, it.Score, short(rules, 60), released)
	}
	return tw.Flush()
}

func ruleList(it quarantine.Item) string {
	var rules []string
	for _, d := range it.Detections {
		if !slices.Contains(rules, d.Rule) {
			rules = append(rules, d.Rule)
		}
	}
	return strings.Join(rules, ", ")
}

// showItem prints an item; content, when set, prints what was withheld.
func showItem(out io.Writer, it quarantine.Item, content bool) {
	fmt.Fprintf(out, "quarantined %s  %s\n", it.ID, it.Time.Local().Format(time.RFC3339))
	fmt.Fprintf(out, "from         %s (%s)\n", sourceLabel(it.Server, it.Tool), it.Method)
	if it.Session != "" {
		fmt.Fprintf(out, "session      %s\n", it.Session)
	}
	fmt.Fprintf(out, "score        %.2f\n", it.Score)
	fmt.Fprintf(out, "sha256       %s (%d bytes)\n", it.SHA256, it.Size)
	if !it.Released.IsZero() {
		fmt.Fprintf(out, "released     %s\n", it.Released.Local().Format(time.RFC3339))
	}
	fmt.Fprintln(out, "detections:")
	for _, d := range it.Detections {
		if d.Excerpt == "" { // metadata only
			fmt.Fprintf(out, "  %-22s %.2f  %s\n", d.Rule, d.Severity, d.Field)
			continue
		}
		fmt.Fprintf(out, "  %-22s %.2f  %s: %s\n", d.Rule, d.Severity, d.Field, d.Excerpt)
	}
	if content {
		fmt.Fprintf(out, "content (its text, control and invisible characters escaped; do not paste it into an agent):\n%s\n", it.Content)
	}
}

func sourceLabel(server, tool string) string {
	if tool == "" || tool == server {
		return server
	}
	return server + "/" + tool
}

// show prints a quarantined result, its content after the user typed
// their approval passphrase at the terminal: the text was withheld from
// the model, and a command that printed it to whoever runs it would hand
// it to an agent's shell. Without flowd, the file gives the metadata only.
func show(c *flowdclient.Client, id, file string, asJSON bool, out io.Writer, open tty) error {
	it, err := c.QuarantineItem(id)
	if err != nil {
		items, rerr := readQuarantine(file, func(s *quarantine.Store) ([]quarantine.Item, error) {
			it, err := s.Get(id)
			return []quarantine.Item{it}, err
		}, err)
		if rerr != nil {
			return rerr
		}
		it = items[0].Metadata()
		if asJSON {
			return printJSON(out, it)
		}
		showItem(out, it, false)
		fmt.Fprintln(out, "content: not shown: flowd is not running, and only flowd shows it, after your approval passphrase (start it with flowd start, then run this again)")
		return nil
	}
	var b strings.Builder
	showItem(&b, it, false)
	b.WriteString("Showing prints the withheld text on this terminal. Do not paste it into an agent.")
	pass, err := askPassphrase(open, b.String(), "Approval passphrase: ")
	if err != nil {
		return err
	}
	it, err = c.QuarantineContent(id, pass)
	if err != nil {
		return err
	}
	if asJSON {
		return printJSON(out, it)
	}
	showItem(out, it, true)
	return nil
}

// release lets a user release quarantined content after typing their
// approval passphrase at the terminal.
func release(c *flowdclient.Client, id string, out io.Writer, open tty) error {
	it, err := c.QuarantineItem(id)
	if err != nil {
		return err
	}
	if !it.Released.IsZero() {
		fmt.Fprintf(out, "%s was already released on %s\n", it.ID, it.Released.Local().Format(time.RFC3339))
		return nil
	}
	var b strings.Builder
	showItem(&b, it, false)
	b.WriteString("Releasing lets this exact content from " + it.Server +
		" reach the model unscanned from now on. Do it only if you read it (flowd quarantine show " + it.ID + ") and trust it.")
	pass, err := askPassphrase(open, b.String(), "Approval passphrase: ")
	if err != nil {
		return err
	}
	it, err = c.Release(it.ID, pass)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "released %s: the same content from %s now passes\n", it.ID, it.Server)
	return nil
}

func printJSON(out io.Writer, v any) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
