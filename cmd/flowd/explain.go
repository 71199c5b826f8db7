package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/explain"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/paths"
)

// cmdExplain shows why flowd decided what it did about one activity
// record: the decision's rule and, for prompt injection, each rule that
// fired, on what text, and the waiver that would silence it.
func cmdExplain(args []string, out io.Writer) error {
	fl := newFlags("flowd explain")
	socket := clientSocket(fl)
	dataDir := fl.String("data-dir", paths.DataDir(), "read the store directly when flowd is not running (env FLOWD_DATA_DIR)")
	asJSON := fl.Bool("json", false, "print the record as JSON, its details included")
	fl.Usage = func() {
		fmt.Fprintln(fl.Output(), "usage: flowd explain ACTIVITY_ID [--json]   (ACTIVITY_ID: the ID column of flowd activity)")
		fl.PrintDefaults()
	}
	pos, err := parseArgs(fl, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError(fl, "want one activity ID, got %d arguments", len(pos))
	}
	id, err := strconv.ParseUint(pos[0], 10, 64)
	if err != nil {
		return fmt.Errorf("activity ID %q is not a number (the ID column of flowd activity)", pos[0])
	}
	rec, err := flowdclient.NewClient(socket.Path(), 5*time.Second).Record(id)
	if err != nil && !answered(err) {
		rec, err = readRecord(filepath.Join(*dataDir, paths.ActivityStore), id)
	}
	if err != nil {
		return err
	}
	rec = rec.Shown() // as flowd's API shows it; the store read directly does not
	if *asJSON {
		return printJSON(out, rec)
	}
	explain.Write(out, rec)
	return nil
}

func readRecord(path string, id uint64) (activity.Record, error) {
	if _, err := os.Stat(path); err != nil {
		return activity.Record{}, fmt.Errorf("no activity yet: flowd is not running and %s does not exist", path)
	}
	s, err := activity.Open(path, activity.Options{})
	if err != nil {
		return activity.Record{}, offline(err)
	}
	defer s.Close()
	r, ok, err := s.Get(id)
	if err == nil && !ok {
		err = fmt.Errorf("no activity record %d (it may have been pruned)", id)
	}
	return r, err
}
