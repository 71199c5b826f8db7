package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

const configApplyUsage = `usage: flowd config apply [--socket PATH]

Applies the config that flowd held back because it lowers protection (a
reload or a start with a config file that allows more than the config in
force), after you read what it changes and type your approval passphrase.
An agent running as you can edit the config file; it cannot type your
passphrase.`

// configApply shows the held config's changes and applies it with the
// passphrase typed at the terminal.
func configApply(args []string, out io.Writer, open tty) error {
	fl := newFlags("flowd config apply")
	fl.Usage = func() { fmt.Fprintln(fl.Output(), configApplyUsage) }
	socket := clientSocket(fl)
	if err := noArgs(fl, args); err != nil {
		return err
	}
	c := askingClient(socket.Path(), 30*time.Second) // the check hashes for a while
	h, err := c.HeldConfig()
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "flowd held back a config on %s because it lowers protection:\n", h.Since.Local().Format(time.DateTime))
	for _, ch := range h.Changes {
		fmt.Fprintf(&b, "  - %s\n", ch)
	}
	b.WriteString("Apply it only if you made these changes yourself.")
	pass, err := askPassphrase(open, b.String(), "Approval passphrase: ")
	if err != nil {
		return err
	}
	if _, err := c.ApplyConfig(h.Digest, pass); err != nil {
		return err
	}
	fmt.Fprintf(out, "applied: the config file is in force (%d changes that lower protection)\n", len(h.Changes))
	return nil
}
