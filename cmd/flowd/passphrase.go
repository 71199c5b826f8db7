package main

import (
	"errors"
	"fmt"
	"io"
	"time"
)

const passphraseUsage = `usage: flowd passphrase set [--socket PATH]

Sets the approval passphrase that "flowd quarantine show", "flowd quarantine
release" and "flowd pins approve" ask for, or changes it (you type the
current one first). It is read at the terminal, unechoed; flowd keeps only a
salted hash. An agent running commands as you does not know it, so it cannot
approve its own way out. Set the first one before you start an agent: flowd
sets a first one only before any agent has run through it (if one has, it
says how to open the way). Choose at least 12 characters: a few words you
remember.`

func cmdPassphrase(args []string, out io.Writer, open tty) error {
	fl := newFlags("flowd passphrase")
	fl.Usage = func() { fmt.Fprintln(fl.Output(), passphraseUsage) }
	socket := clientSocket(fl)
	pos, err := parseArgs(fl, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || pos[0] != "set" {
		return usageError(fl, "the only subcommand is set")
	}
	c := askingClient(socket.Path(), 30*time.Second) // each check hashes for a while
	st, err := c.Status()
	if err != nil {
		return fmt.Errorf("setting the passphrase needs flowd running: %w", err)
	}
	t, err := open()
	if err != nil {
		return fmt.Errorf("this needs you at a terminal, and there is none (%v); run it yourself in a terminal", err)
	}
	defer t.Close()
	var old string
	if st.ApprovalPassphrase {
		if old, err = readSecret(t, "Current approval passphrase: "); err != nil {
			return err
		}
	}
	pass, err := readSecret(t, "New approval passphrase: ")
	if err != nil {
		return err
	}
	again, err := readSecret(t, "Type it again: ")
	if err != nil {
		return err
	}
	if pass != again {
		return errors.New("the two passphrases differ; nothing was changed")
	}
	if err := c.SetPassphrase(old, pass); err != nil {
		return err
	}
	fmt.Fprintln(out, "approval passphrase set: flowd quarantine release and flowd pins approve ask for it")
	return nil
}
