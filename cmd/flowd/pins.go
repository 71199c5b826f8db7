package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/paths"
	"github.com/flowd-dev/flowd/internal/pins"
)

const pinsUsage = `usage: flowd pins list [--json]
       flowd pins diff SERVER
       flowd pins approve SERVER [TOOL]   (asks for your approval passphrase at the terminal)`

func cmdPins(args []string, out io.Writer, open tty) error {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, pinsUsage)
		return exitError(2)
	}
	if isHelp(args[0]) {
		fmt.Fprintln(out, pinsUsage)
		return nil
	}
	cmd, err := parseStoreCommand("flowd pins "+args[0], args[1:], "read the pins directly when flowd is not running")
	if err != nil {
		return err
	}
	pos, arg, c := cmd.pos, cmd.arg, cmd.client
	list := func() ([]pins.Server, error) {
		servers, err := c.Pins()
		if err == nil || answered(err) {
			return servers, err
		}
		return readPins(filepath.Join(cmd.dataDir, paths.PinsStore))
	}
	switch {
	case args[0] == "list" && len(pos) == 0:
		servers, err := list()
		if err != nil {
			return err
		}
		if cmd.json {
			return printJSON(out, servers)
		}
		return printPins(out, servers)
	case args[0] == "diff" && len(pos) == 1:
		servers, err := list()
		if err != nil {
			return err
		}
		return printDiff(out, servers, arg(0), "")
	case args[0] == "approve" && (len(pos) == 1 || len(pos) == 2):
		return approve(c, arg(0), arg(1), out, open)
	}
	fmt.Fprintln(os.Stderr, pinsUsage)
	return exitError(2)
}

// readPins reads the file when flowd, which holds it, is not running.
func readPins(path string) ([]pins.Server, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("no tools pinned: flowd is not running and %s does not exist", path)
	}
	s, err := pins.Open(path, pins.Options{})
	if err != nil {
		return nil, offline(err)
	}
	defer s.Close()
	servers := s.List()
	for i := range servers {
		servers[i] = servers[i].Shown() // as flowd's API shows them
	}
	return servers, nil
}

func printPins(out io.Writer, servers []pins.Server) error {
	if len(servers) == 0 {
		fmt.Fprintln(out, "no tools pinned yet: flowd pins a server's tools the first time it lists them")
		return nil
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SERVER\tPINNED\tPENDING\tSINCE\tCOMMAND")
	for _, s := range servers {
		pending := "-"
		if len(s.Pending) > 0 {
			pending = strings.Join(sortedTools(s.Pending), ", ")
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", s.Name, len(s.Pinned), pending,
			s.Since.Local().Format("2006-01-02"), short(strings.Join(s.Command, " "), 60))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, s := range servers {
		if len(s.Pending) > 0 {
			fmt.Fprintf(out, "\npending tools are hidden from the model: review with flowd pins diff SERVER, then flowd pins approve SERVER [TOOL]\n")
			break
		}
	}
	printWithheld(out, servers)
	return nil
}

// printWithheld lists the tools whose definitions the scan found
// poisoned: hidden from the model, and calls to them refused, for as long
// as the server lists them so, whatever their pin.
func printWithheld(out io.Writer, servers []pins.Server) {
	header := false
	for _, s := range servers {
		for _, tool := range sortedKeys(s.Withheld) {
			if !header {
				fmt.Fprintf(out, "\nwithheld as poisoned (hidden from the model, calls refused, while the server lists them so):\n")
				header = true
			}
			fmt.Fprintf(out, "  %s %s: %s\n", s.Name, tool, s.Withheld[tool])
		}
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func sortedTools(m map[string]pins.Tool) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// printDiff shows the pending changes of the servers called name (one
// tool's, when tool is set) and returns an error when there are none.
func printDiff(out io.Writer, servers []pins.Server, name, tool string) error {
	n := 0
	for _, s := range servers {
		if s.Name != name {
			continue
		}
		for _, t := range sortedTools(s.Pending) {
			if tool != "" && t != tool {
				continue
			}
			n++
			now := s.Pending[t]
			pinned, ok := s.Pinned[t]
			if !ok {
				fmt.Fprintf(out, "%s: new tool %s (command %s)\n", name, t, strings.Join(s.Command, " "))
				for _, f := range pins.Fields(nil, now.Definition) {
					fmt.Fprintf(out, "  + %s: %s\n", f, field(now.Definition, f))
				}
				continue
			}
			fields := pins.Fields(pinned.Definition, now.Definition)
			fmt.Fprintf(out, "%s: tool %s changed (%s) since %s (command %s)\n", name, t, strings.Join(fields, ", "),
				pinned.Time.Local().Format("2006-01-02"), strings.Join(s.Command, " "))
			for _, f := range fields {
				fmt.Fprintf(out, "  %s:\n    - pinned: %s\n    + now:    %s\n", f, field(pinned.Definition, f), field(now.Definition, f))
			}
		}
	}
	if n == 0 {
		if tool != "" {
			return fmt.Errorf("server %q has no pending change to tool %q", name, tool)
		}
		return fmt.Errorf("server %q has no pending tool changes (flowd pins list shows every server)", name)
	}
	return nil
}

// field is one member of a canonical definition, as it is written there.
func field(def []byte, name string) string {
	var m map[string]json.RawMessage
	json.Unmarshal(def, &m)
	v, ok := m[name]
	if !ok {
		return "(none)"
	}
	var b bytes.Buffer
	if json.Indent(&b, v, "      ", "  ") != nil {
		return string(v)
	}
	return b.String()
}

// approve lets a user pin pending tools after seeing the change and
// typing their approval passphrase at the terminal.
func approve(c *flowdclient.Client, server, tool string, out io.Writer, open tty) error {
	servers, err := c.Pins()
	if err != nil {
		return err
	}
	var b strings.Builder
	if err := printDiff(&b, servers, server, tool); err != nil {
		return err
	}
	b.WriteString("Approving lets the model see and call these tools as they are now. Do it only if you trust the change.")
	pass, err := askPassphrase(open, b.String(), "Approval passphrase: ")
	if err != nil {
		return err
	}
	done, err := c.Approve(flowdclient.Approval{Server: server, Tool: tool, Passphrase: pass})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "approved %s of %s; ", strings.Join(done.Tools, ", "), server)
	if done.Told > 0 {
		fmt.Fprintf(out, "%d connected client(s) told to list its tools again\n", done.Told)
	} else {
		fmt.Fprintln(out, "clients see them at their next tools/list")
	}
	return nil
}
