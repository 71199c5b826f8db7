package activity

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
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
		if err := cw.Write(csvHead(flows)); err != nil {
			return nil, nil, err
		}
		return func(r Record) error { return cw.Write(csvRow(r, flows)) }, func() error {
			cw.Flush()
			return cw.Error()
		}, nil
	}
	return nil, nil, fmt.Errorf("export format must be %s or %s, not %q", JSONL, CSV, format)
}

// csvRow is r's CSV row. A CSV file is opened in a spreadsheet: its text
// is the record as shown (Shown), in cells no spreadsheet takes for a
// formula.
func csvRow(r Record, flows bool) []string {
	r = r.Shown()
	cell := untrusted.Cell
	row := []string{strconv.FormatUint(r.ID, 10), r.Time.UTC().Format(time.RFC3339Nano), cell(r.Type), cell(r.Session),
		cell(r.Server), cell(r.Tool), cell(r.Method), cell(r.Verdict), cell(r.Decision), cell(r.RiskLevel), cell(r.FlowType), cell(r.Reason),
		strconv.Itoa(r.ArgsBytes), strconv.Itoa(r.ResultBytes), strconv.FormatInt(r.LatencyMicros, 10),
		strconv.FormatUint(r.ChainSeq, 10), r.PrevHash, r.Hash}
	if flows {
		row = append(row, cell(string(r.Details)))
	}
	return row
}

// csvHead is the CSV export's header row.
func csvHead(flows bool) []string {
	if flows {
		return append(ExportColumns[:len(ExportColumns):len(ExportColumns)], "details")
	}
	return ExportColumns
}

// appendCSV appends row as encoding/csv's Writer writes it.
func appendCSV(dst []byte, row []string) []byte {
	for i, field := range row {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendCSVField(dst, []byte(field))
	}
	return append(dst, '\n')
}

// ExportTo writes every committed record f selects to w in format, as
// Exporter writes them, oldest first. A JSON line is the record's stored
// JSON with its hash appended (chain.go), less its details unless flows,
// so JSON lines are written from the stored bytes: a record is not
// encoded again, nor decoded unless f needs its fields. (A record an
// older flowd stored keeps the order of members it was written in.) w
// gets one write per record: buffer it.
func (s *Store) ExportTo(w io.Writer, f Filter, format string, flows bool) error {
	switch format {
	case JSONL, "":
		var line []byte
		return s.scan(f, rawValid, func(_, v []byte, _ *Record) error {
			line = appendLine(line[:0], v, flows)
			_, err := w.Write(line)
			return err
		})
	case CSV:
		// Rows are written from the stored bytes too (appendCSVRow); a
		// record not in the form that reads is decoded, and skipped when
		// it cannot be.
		row := appendCSV(nil, csvHead(flows))
		if _, err := w.Write(row); err != nil {
			return err
		}
		return s.scan(f, rawUnchecked, func(k, v []byte, r *Record) error {
			var ok bool
			if row, ok = appendCSVRow(row[:0], v, flows); !ok {
				var rec Record
				if r != nil {
					rec = *r
				} else if err := decodeRecord(v, &rec); err != nil {
					s.skip(k, err)
					return nil
				}
				row = appendCSV(row[:0], csvRow(rec, flows))
			}
			_, err := w.Write(row)
			return err
		})
	}
	_, _, err := Exporter(w, format, flows)
	return err
}

// appendLine appends the JSON line of the record stored as v, valid
// JSON: as the decoded record encodes, v without its details unless
// flows, with "hash" as its last member when the record is chained.
func appendLine(dst, v []byte, flows bool) []byte {
	chained := inChain(v)
	body := v[:len(v)-1] // without the closing brace
	if !flows {
		// In a string a quote is escaped, so `,"details":` is a member,
		// and the first is the record's: the members before it are
		// strings and numbers.
		if i := bytes.Index(body, []byte(`,"details":`)); i >= 0 {
			end := valueEnd(body, i+len(`,"details":`))
			dst = append(dst, body[:i]...)
			body = body[end:]
		}
	}
	dst = append(dst, body...)
	if chained {
		dst = append(dst, `,"hash":"`...)
		sum := sha256.Sum256(v)
		dst = hex.AppendEncode(dst, sum[:])
		dst = append(dst, '"')
	}
	return append(dst, "}\n"...)
}

// valueEnd is where the JSON value that starts at i in valid JSON v
// ends.
func valueEnd(v []byte, i int) int {
	depth := 0
	for ; i < len(v); i++ {
		switch v[i] {
		case '"':
			for i++; v[i] != '"'; i++ {
				if v[i] == '\\' {
					i++
				}
			}
			if depth == 0 {
				return i + 1
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		case ',':
			if depth == 0 {
				return i
			}
		}
	}
	return i
}

// inChain reports whether v, a stored record, is in the audit chain, as
// decodeRecord tells by its chain_seq. seal writes chain_seq and
// prev_hash as its last members (the chain's first record has no
// prev_hash), and a record of before the chain ends with another: it
// suffices to read the end. In a string a quote is escaped, so
// `,"prev_hash":"` and `,"chain_seq":` there can only be members.
func inChain(v []byte) bool {
	if bytes.HasSuffix(v, []byte(`"}`)) {
		i := len(v) - len(`"}`) - 2*sha256.Size
		return i >= 0 && bytes.HasSuffix(v[:i], []byte(`,"prev_hash":"`)) && isHex(v[i:len(v)-len(`"}`)])
	}
	end := len(v) - len("}")
	i := end
	for i > 0 && v[i-1] >= '0' && v[i-1] <= '9' {
		i--
	}
	return i < end && v[i] != '0' && bytes.HasSuffix(v[:i], []byte(`,"chain_seq":`))
}

func isHex(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
