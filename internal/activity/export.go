package activity

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/flowd-dev/flowd/internal/untrusted"
)

// Export formats, for Exporter.
const (
	JSONL = "jsonl" // one JSON record per line
	CSV   = "csv"   // a header, then a row per record
)

// ExportColumns are the CSV columns; "details" follows with flows. The
// last three are the record's place in the audit chain, so a SIEM can
// check that none is missing or out of order (chain.go).
var ExportColumns = []string{"id", "time", "type", "session", "server", "tool", "method", "verdict", "decision",
	"risk_level", "flow_type", "reason", "args_bytes", "result_bytes", "latency_us", "chain_seq", "prev_hash", "hash"}

// Exporter writes records to w in format, each record's details (which
// hold its flow evidence) only with flows. JSON lines are the records as
// stored; CSV rows are the records as shown (Shown), for spreadsheets. Each carries its chain
// position, previous hash and hash; a JSON line with its details is the
// exact encoding its hash covers, less the final "hash" member. write takes one record; done
// writes what is buffered.
func Exporter(w io.Writer, format string, flows bool) (write func(Record) error, done func() error, err error) {
	switch format {
	case JSONL, "":
		enc := json.NewEncoder(w)
		return func(r Record) error {
			if !flows {
				r.Details = nil
			}
			return enc.Encode(r)
		}, func() error { return nil }, nil
	case CSV:
		cw := csv.NewWriter(w)
		head := ExportColumns
		if flows {
			head = append(head[:len(head):len(head)], "details")
		}
		if err := cw.Write(head); err != nil {
			return nil, nil, err
		}
		// A CSV file is opened in a spreadsheet: its text is the record as
		// shown (Shown), in cells no spreadsheet takes for a formula.
		return func(r Record) error {
				r = r.Shown()
				cell := untrusted.Cell
				row := []string{strconv.FormatUint(r.ID, 10), r.Time.UTC().Format(time.RFC3339Nano), cell(r.Type), cell(r.Session),
					cell(r.Server), cell(r.Tool), cell(r.Method), cell(r.Verdict), cell(r.Decision), cell(r.RiskLevel), cell(r.FlowType), cell(r.Reason),
					strconv.Itoa(r.ArgsBytes), strconv.Itoa(r.ResultBytes), strconv.FormatInt(r.LatencyMicros, 10),
					strconv.FormatUint(r.ChainSeq, 10), r.PrevHash, r.Hash}
				if flows {
					row = append(row, cell(string(r.Details)))
				}
				return cw.Write(row)
			}, func() error {
				cw.Flush()
				return cw.Error()
			}, nil
	}
	return nil, nil, fmt.Errorf("export format must be %s or %s, not %q", JSONL, CSV, format)
}
