package activity

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

// JSON lines with details are written from the stored bytes; they are
// the very lines the decoded records encode to, hash included, whatever
// the filter, for chained records and for records from before the chain,
// and a stored value that is not JSON is skipped either way.
func TestExportToIsTheEncodedRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "activity.db")
	opts := quiet
	opts.Key = testKey
	s, err := Open(path, opts)
	require.NoError(t, err)
	for i, r := range []Record{
		{Type: TypeToolCall, Server: "fs", Tool: "read", Decision: "allow", RiskLevel: "none"},
		{Type: TypeToolCall, Server: "slack", Tool: "post", Decision: "deny", RiskLevel: "critical", FlowType: "internal→external",
			Reason: `<b>&"quoted"</b> \ ,"prev_hash":"`, Details: json.RawMessage(`{"flow":{"risk":"critical"},"x":{"chain_seq":9}}`)},
		{Type: TypeToolCall, Server: "web", Details: json.RawMessage(`{"s":"}]\\\"{,\"details\":","a":[1,{"b":"]"}],"n":null}`)},
		{Type: TypeMessage, Session: "s2", Reason: "ends in a number", LatencyMicros: 12},
	} {
		r.ArgsBytes = i
		s.Append(r)
	}
	require.NoError(t, s.Close())
	db, err := bolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketName)
		for id, v := range map[uint64]string{
			100: `{"id":100,"time":"2025-01-01T00:00:00Z","type":"tool_call","reason":"from before the chain"}`,
			101: `{not json`,
			102: `{"id":102,"time":"2025-01-01T00:00:00Z","type":"message","details":{"k":{"chain_seq":7}}}`,
			104: `{"id":104,"time":"2025-01-01T00:00:00Z","type":"message","risk_level":"low","details":[1,"}"]}`,
			103: `{"id":103,"time":"2025-01-01T00:00:00Z","type":"message","latency_us":5}`,
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
		for _, f := range []Filter{{}, {Type: TypeToolCall}, {After: 1, Before: 103}, {RiskLevel: "high"}} {
			var want, got bytes.Buffer
			write, done, err := Exporter(&want, JSONL, flows)
			require.NoError(t, err)
			require.NoError(t, s.Export(f, write))
			require.NoError(t, done())
			require.NoError(t, s.ExportTo(&got, f, JSONL, flows))
			assert.Equal(t, want.String(), got.String(), "flows %t, %+v", flows, f)
			assert.NotContains(t, got.String(), "not json")
		}
	}
	var all bytes.Buffer
	require.NoError(t, s.ExportTo(&all, Filter{}, JSONL, true))
	assert.Equal(t, 8, bytes.Count(all.Bytes(), []byte("\n")), "four chained, four from before the chain")
	assert.Equal(t, 4, bytes.Count(all.Bytes(), []byte(`"hash":"`)))
	all.Reset()
	require.NoError(t, s.ExportTo(&all, Filter{}, JSONL, false))
	assert.NotContains(t, all.String(), `"details"`)
	assert.Contains(t, all.String(), `"args_bytes":2,"chain_seq":3,"prev_hash":"`, "what follows the details is kept")
}
