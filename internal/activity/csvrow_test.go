package activity

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

// pieces are what varied test strings are made of: what CSV quotes,
// what Text escapes, what spreadsheets take for formulas, what JSON
// escapes, and invalid UTF-8.
var pieces = []string{"fs", "slack", "read_text_file", "a,b", `"q"`, "line\nbreak", "cr\rhere", " lead", "\tlead", "=1+2", "+x", "-y", "@z",
	`\.`, `\`, "<b>&</b>", "\x1b[31m", "\u202e", "\u2028", "é", "日本", "⟦x⟧", "\xff\xfe", "\xc3", "\x00", "\x7f", "😀", "\ufe0f", "\u200b",
	"excerpt", `"excerpt":`, ",", "", "  ", "\u00a0", "ok"}

func variedString(rng *rand.Rand) string {
	var b strings.Builder
	for range rng.IntN(4) {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.String()
}

func variedRecord(rng *rand.Rand, i int) Record {
	s := func() string {
		if rng.IntN(3) == 0 {
			return ""
		}
		return variedString(rng)
	}
	r := Record{Type: Types[rng.IntN(len(Types))], Session: s(), Server: s(), Tool: s(), Method: s(), RequestID: s(),
		Verdict: s(), Decision: s(), Reason: s(), RiskLevel: riskLevels[rng.IntN(len(riskLevels))], ArgsBytes: rng.IntN(3) * rng.IntN(1<<20),
		ResultBytes: rng.IntN(2) * i, LatencyMicros: int64(rng.IntN(2)) * rng.Int64N(1<<40)}
	if rng.IntN(4) == 0 {
		r.FlowType = FlowTypes[rng.IntN(len(FlowTypes))]
	}
	if rng.IntN(3) == 0 {
		r.Time = time.Date(2026, 11, 27, rng.IntN(24), 0, 0, rng.IntN(2)*rng.IntN(1e9), time.FixedZone("x", 3600*(rng.IntN(5)-2)))
	}
	switch rng.IntN(4) {
	case 0:
	case 1:
		r.Details = json.RawMessage(`{"flow":{"risk":"none","origins":[{"server":"fs","tool":"read","kind":"exact"}]}}`)
	default:
		d, err := json.Marshal(map[string]any{"injection": map[string]any{"excerpt": variedString(rng), "score": 0.9},
			variedString(rng): []any{variedString(rng), 1, nil, true}})
		if err != nil {
			panic(err)
		}
		r.Details = d
	}
	return r
}

// A CSV export written from the stored bytes is, byte for byte, what the
// decoded records' rows were, for thousands of varied records, for
// stored values in other forms (an older flowd's, hand-written ones) and
// for damaged ones, which are skipped.
func TestCSVExportIsTheDecodedRows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "activity.db")
	opts := quiet
	opts.Key = testKey
	s, err := Open(path, opts)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		s.Append(variedRecord(rng, i))
	}
	require.NoError(t, s.Close())
	db, err := bolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketName)
		for id, v := range map[uint64]string{
			5000: `{"id":5000,"time":"2025-01-01T00:00:00+02:00","type":"tool_call","reason":"from before the chain"}`,
			5001: `{not json`,
			5002: `{"id":5002, "time":"2025-01-01T00:00:00Z","type":"message"}`,
			5003: `{"id":5003,"time":"2025-01-01T00:00:00Z","type":"message","latency_us":5e1}`,
			5004: `{"id":5004,"time":"2025-01-01T00:00:00Z","Server":"cased","args_bytes":007}`,
			5005: `{"id":5005,"time":"2025-01-01T00:00:00Z","server":"a","server":"b","extra":1}`,
			5006: `{"id":5006,"time":"2025-01-01T00:00:00Z","server":null,"details":null}`,
			5007: `{"id":5007,"time":"2025-01-01T00:00:00Z","details":{"a":[1,2}}`,
			5008: `{"id":5008,"time":"2025-01-01T00:00:00Z","reason":"bad \q escape"}`,
			5009: `{"id":5009,"time":"2025-01-01T00:00:00Z","request_id":"bad \q escape"}`,
			5010: `{"id":5010,"time":"not a time"}`,
			5011: `{"id":5011,"time":"2025-01-01T00:00:00Z","args_bytes":-0,"chain_seq":0}`,
			5012: `{"id":5012,"time":"2025-01-01T00:00:00Z","type":"message","details":{"k":"v"}}trailing`,
			5013: `{"id":5013,"time":"2025-01-01T00:00:00Z","reason":"ctl ` + "\x01" + `"}`,
			5014: `{"id":5014,"time":"2025-01-01T00:00:00Z","reason":"\u003cb\u003e","args_bytes":12345678901}`,
			5015: `{"id":5015,"time":"2025-01-01T00:00:00Z","hash":"abc","prev_hash":"p\"q","chain_seq":3}`,
			5016: `{}`,
			5017: `{"id":5017,"time":"2025-01-01T00:00:00Z","details":{"s":"}]{[\"x"}}`,
		} {
			if err := b.Put(idKey(id), []byte(v)); err != nil {
				return err
			}
		}
		return nil
	}))
	require.NoError(t, db.Close())
	s = openStore(t, path, quiet)

	for _, flows := range []bool{true, false} {
		for _, f := range []Filter{{}, {Type: TypeToolCall}, {After: 100, Before: 5010}, {RiskLevel: "high"}} {
			var want, got bytes.Buffer
			write, done, err := Exporter(&want, CSV, flows)
			require.NoError(t, err)
			require.NoError(t, s.Export(f, write))
			require.NoError(t, done())
			require.NoError(t, s.ExportTo(&got, f, CSV, flows))
			require.Equal(t, want.String(), got.String(), "flows %t, %+v", flows, f)
			rows, err := csv.NewReader(&got).ReadAll()
			require.NoError(t, err, "the export is CSV")
			require.Greater(t, len(rows), 1)
		}
	}
	assert.Equal(t, uint64(9), s.Stats().Unreadable, "5001, 5003, 5004, 5007, 5008, 5009, 5010, 5012 and 5013 cannot be decoded; 5011 can")
}

// appendCSVRow takes the fast way for the records flowd writes, and
// wherever it takes it, it writes what decoding the record writes: for
// thousands of varied records and of damaged copies of them.
func TestAppendCSVRowAgreesWithDecoding(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	fast, agreed := 0, 0
	var row, stored []byte
	for i := range 4000 {
		r := variedRecord(rng, i)
		r.ID, r.ChainSeq = uint64(i+1), uint64(i*rng.IntN(2))
		if r.ChainSeq != 0 {
			r.PrevHash = strings.Repeat("ab", 32)
		}
		v, err := seal(&r)
		require.NoError(t, err)
		stored = append(stored[:0], v...)
		if i%2 == 1 { // damage it: flip, drop or repeat bytes
			for range 1 + rng.IntN(3) {
				j := rng.IntN(len(stored))
				switch rng.IntN(3) {
				case 0:
					stored[j] ^= 1 << rng.IntN(8)
				case 1:
					stored = append(stored[:j], stored[j+1:]...)
				default:
					stored = append(stored[:j+1], stored[j:]...)
				}
			}
		}
		flows := rng.IntN(2) == 0
		var ok bool
		row, ok = appendCSVRow(row[:0], stored, flows)
		if i%2 == 0 && r.LatencyMicros < 1e9 {
			assert.True(t, ok, "record %d as flowd stores it not read the fast way: %q", i, stored)
		}
		if !ok {
			continue
		}
		fast++
		var dec Record
		require.NoError(t, decodeRecord(stored, &dec), "record %d read the fast way but does not decode: %q", i, stored)
		var want bytes.Buffer
		cw := csv.NewWriter(&want)
		require.NoError(t, cw.Write(csvRow(dec, flows)))
		cw.Flush()
		require.Equal(t, want.String(), string(row), "record %d: %q", i, stored)
		agreed++
	}
	assert.Greater(t, fast, 1000, "the records as stored, and some damaged ones, take the fast way")
	t.Logf("%d of 4000 rows written the fast way, all as decoding writes them", agreed)
}
