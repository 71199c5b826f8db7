package main

import (
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/auditkey"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/paths"
)

const auditUsage = `usage: flowd audit verify [--from ID] [--json] [--key FILE]   check the activity log's hash chain and signed checkpoints
       flowd audit key                                       print the public key that verifies them (PEM)
`

// cmdAudit checks the activity log's audit chain, or prints its key.
// verify exits 1 when the log was tampered with.
func cmdAudit(args []string, out io.Writer) error {
	sub := ""
	if len(args) > 0 {
		sub, args = args[0], args[1:]
	}
	switch {
	case sub == "verify":
		return auditVerify(args, out)
	case sub == "key":
		return auditKey(args, out)
	case isHelp(sub):
		fmt.Fprint(out, auditUsage)
		return nil
	}
	fmt.Fprintf(os.Stderr, "flowd audit: unknown or missing subcommand %q\n%s", sub, auditUsage)
	return exitError(2)
}

func auditVerify(args []string, out io.Writer) error {
	fl := newFlags("flowd audit verify")
	socket := clientSocket(fl)
	dataDir := fl.String("data-dir", paths.DataDir(), "read the store directly when flowd is not running (env FLOWD_DATA_DIR)")
	from := fl.Uint64("from", 0, "check from this activity ID on, trusting the chain up to it")
	keyFile := fl.String("key", "", "verify against this public key (PEM, as flowd audit key prints it) instead of the one in the data dir")
	asJSON := fl.Bool("json", false, "print the report as JSON")
	if err := noArgs(fl, args); err != nil {
		return err
	}
	var pub ed25519.PublicKey
	if *keyFile != "" {
		b, err := os.ReadFile(*keyFile)
		if err != nil {
			return fmt.Errorf("read the audit public key: %w", err)
		}
		if pub, err = auditkey.ParsePublic(b); err != nil {
			return usageError(fl, "--key %s: %v", *keyFile, err)
		}
	}
	rep, err := flowdclient.NewClient(socket.Path(), 5*time.Minute).AuditVerify(*from, pub)
	if err != nil && !answered(err) {
		// flowd holds the store open while it runs; without it, read the file.
		rep, err = verifyStore(*dataDir, *from, pub)
	}
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		printVerify(out, rep)
	}
	if !rep.OK() {
		return exitError(1)
	}
	return nil
}

func verifyStore(dataDir string, from uint64, pub ed25519.PublicKey) (activity.Report, error) {
	path := filepath.Join(dataDir, paths.ActivityStore)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return activity.Report{}, fmt.Errorf("no activity yet: flowd is not running and %s does not exist", path)
	}
	if pub == nil {
		var err error
		if pub, err = auditkey.LoadPublic(dataDir); err != nil {
			return activity.Report{}, err
		}
	}
	// Opened without the key: a reader neither prunes nor signs.
	s, err := activity.Open(path, activity.Options{})
	if err != nil {
		return activity.Report{}, offline(err)
	}
	defer s.Close()
	return s.Verify(pub, activity.VerifyOptions{From: from})
}

func printVerify(out io.Writer, rep activity.Report) {
	if !rep.OK() {
		p := rep.FirstBad()
		fmt.Fprintf(out, "TAMPERED: the activity log's audit chain does not verify.\nfirst bad: %s\n", describeProblem(*p))
		if len(rep.Problems) > 1 {
			fmt.Fprintf(out, "all %d problems:\n", len(rep.Problems))
			for _, p := range rep.Problems {
				fmt.Fprintf(out, "  %s\n", describeProblem(p))
			}
		}
	} else {
		fmt.Fprintf(out, "verified: %d chained records", rep.Records)
		if rep.ChainStart != 0 {
			fmt.Fprintf(out, " from #%d", rep.ChainStart)
		}
		fmt.Fprintf(out, ", signed through chain position %d by %d checkpoints", rep.SignedThrough, rep.Checkpoints)
		if rep.Unsigned > 0 {
			fmt.Fprintf(out, "; %d records after it are chained, not yet signed (flowd signs every 1,000 records, every minute and when it stops)", rep.Unsigned)
		}
		fmt.Fprintln(out)
	}
	if rep.Anchor != nil {
		fmt.Fprintf(out, "retention pruned records up to chain position %d (#%d); a signed anchor stands for them\n", rep.Anchor.Seq, rep.Anchor.ID)
	}
	if rep.Holes > 0 {
		fmt.Fprintf(out, "retention pruned routine records around notable ones it kept; %d signed checkpoint(s) stand for the holes\n", rep.Holes)
	}
	if rep.Pruned.Total() > 0 {
		fmt.Fprintf(out, "retention pruned %s%s\n", rep.Pruned, earlyNote(rep.Pruned))
	}
	if rep.Legacy > 0 {
		fmt.Fprintf(out, "%d older records were written before flowd kept a hash chain: the chain starts at #%d, and nothing covers those before it\n", rep.Legacy, rep.ChainStart)
	}
}

// earlyNote warns of notable records pruned by count: they went before
// max_age because more notable records came than the budget holds, a
// flood of them perhaps.
func earlyNote(p activity.PruneCounts) string {
	if p.NotableByCount == 0 {
		return ""
	}
	return " (NOTABLE records pruned by count went before max_age: more came than activity.max_notable_records holds)"
}

func describeProblem(p activity.Problem) string {
	where := ""
	switch {
	case p.ID != 0:
		where = fmt.Sprintf("record #%d", p.ID)
		if p.Seq != 0 {
			where += fmt.Sprintf(" (chain position %d)", p.Seq)
		}
	case p.Seq != 0:
		where = fmt.Sprintf("chain position %d", p.Seq)
	default:
		where = "the log"
	}
	return fmt.Sprintf("%s %s: %s", where, p.Kind, p.Detail)
}

func auditKey(args []string, out io.Writer) error {
	fl := newFlags("flowd audit key")
	dataDir := fl.String("data-dir", paths.DataDir(), "flowd's data directory (env FLOWD_DATA_DIR)")
	if err := noArgs(fl, args); err != nil {
		return err
	}
	pub, err := auditkey.LoadPublic(*dataDir)
	if err != nil {
		return err
	}
	_, err = out.Write(auditkey.EncodePublic(pub))
	return err
}

// auditLine is flowd status's line on the chain check at start.
func auditLine(a *flowdclient.AuditCheck) string {
	switch {
	case a == nil:
		return ""
	case a.Report == nil:
		return "audit    NOT CHECKED at start: " + a.Error
	case !a.Report.OK():
		return "audit    TAMPERED: the activity log's chain did not verify at start: " + describeProblem(*a.Report.FirstBad()) + " (flowd audit verify)"
	}
	line := fmt.Sprintf("audit    chain verified at start (%d records since the last checkpoint)", a.Report.Records)
	if a.Error != "" {
		line += "; NOT SIGNING: " + a.Error
	}
	return line
}
