package main

import (
	"bytes"
	"crypto/ed25519"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/flowd-dev/flowd/internal/attackprint"
	"github.com/flowd-dev/flowd/internal/auditkey"
)

const fingerprintsUsage = `usage: flowd fingerprints list [--json]
       flowd fingerprints key             (print this machine's feed signing key, to trust on others)
       flowd fingerprints export FILE     (write every print as a feed signed with that key; - for stdout)
       flowd fingerprints import FILE     (add a feed's prints; its signer must be in injection.known_attacks.trusted_keys)`

func cmdFingerprints(args []string, out io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, fingerprintsUsage)
		return exitError(2)
	}
	if isHelp(args[0]) {
		fmt.Fprintln(out, fingerprintsUsage)
		return nil
	}
	cmd, err := parseStoreCommand("flowd fingerprints "+args[0], args[1:], "read the prints directly when flowd is not running; the signing key is kept there")
	if err != nil {
		return err
	}
	list := func() ([]attackprint.Print, error) {
		ps, err := cmd.client.AttackPrints()
		if err == nil || answered(err) {
			return ps, err
		}
		return readPrints(filepath.Join(cmd.dataDir, "attacks.db"))
	}
	switch {
	case args[0] == "list" && len(cmd.pos) == 0:
		ps, err := list()
		if err != nil {
			return err
		}
		if cmd.json {
			return printJSON(out, ps)
		}
		return printPrints(out, ps)
	case args[0] == "key" && len(cmd.pos) == 0:
		k, err := auditkey.LoadOrCreate(cmd.dataDir)
		if err != nil {
			return err
		}
		fmt.Fprintln(out, attackprint.PublicKey(k.Public().(ed25519.PublicKey)))
		return nil
	case args[0] == "export" && len(cmd.pos) == 1:
		ps, err := list()
		if err != nil {
			return err
		}
		k, err := auditkey.LoadOrCreate(cmd.dataDir)
		if err != nil {
			return err
		}
		var feed bytes.Buffer
		if err := attackprint.WriteFeed(&feed, ps, k, time.Now()); err != nil {
			return err
		}
		if cmd.arg(0) == "-" {
			_, err := out.Write(feed.Bytes())
			return err
		}
		if err := os.WriteFile(cmd.arg(0), feed.Bytes(), 0o644); err != nil {
			return fmt.Errorf("write feed: %w", err)
		}
		fmt.Fprintf(out, "wrote %d prints to %s, signed with %s\n", len(ps), cmd.arg(0), attackprint.PublicKey(k.Public().(ed25519.PublicKey)))
		return nil
	case args[0] == "import" && len(cmd.pos) == 1:
		feed, err := readFeedFile(cmd.arg(0))
		if err != nil {
			return err
		}
		res, err := cmd.client.ImportFeed(feed)
		if err != nil {
			if !answered(err) {
				return fmt.Errorf("%w\nimport needs flowd running: it checks the feed's signer against the config in force", err)
			}
			return err
		}
		fmt.Fprintf(out, "imported %d prints (%d new, %d not usable); flowd knows %d attacks\n", res.Prints, res.Added, res.Skipped, res.Total)
		return nil
	}
	fmt.Fprintln(os.Stderr, fingerprintsUsage)
	return exitError(2)
}

func readFeedFile(name string) ([]byte, error) {
	var r io.Reader = os.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("open feed: %w", err)
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, attackprint.MaxFeedBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read feed: %w", err)
	}
	if len(b) > attackprint.MaxFeedBytes {
		return nil, fmt.Errorf("feed %s is larger than %d MB", name, attackprint.MaxFeedBytes>>20)
	}
	return b, nil
}

// readPrints reads the file when flowd, which holds it, is not running.
func readPrints(path string) ([]attackprint.Print, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, nil // flowd never ran, so it caught nothing yet
	}
	s, err := attackprint.Open(path, attackprint.Options{})
	if err != nil {
		return nil, offline(err)
	}
	defer s.Close()
	return s.All(), nil
}

func printPrints(out io.Writer, ps []attackprint.Print) error {
	if len(ps) == 0 {
		fmt.Fprintln(out, "no attack prints yet: flowd makes one for each attack it flags, redacts or blocks in an external result")
		return nil
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PRINT\tACTION\tRISK\tPHRASES\tKEYS\tFIRST SEEN\tSOURCE\tRULES")
	for _, p := range ps {
		src := p.Source
		if src == "" {
			src = "local"
		}
		fmt.Fprintf(tw, "%s\t%s\t%.2f\t%d\t%d\t%s\t%s\t%s\n", p.ID, p.Action, p.Risk, len(p.Content), len(p.Keys),
			p.Seen.Local().Format("2006-01-02"), short(src, 24), short(strings.Join(p.Rules, ","), 40))
	}
	return tw.Flush()
}
