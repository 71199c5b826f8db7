package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestServe(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		``,
		`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"bytes","arguments":{"n":5}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"bytes","arguments":{"n":5}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"bytes","arguments":{"n":-1}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/list"}`,
	}, "\n") // the last line has no newline: EOF ends it
	var out bytes.Buffer
	require.NoError(t, serve(strings.NewReader(in), &out))

	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	require.Len(t, lines, 6, out.String())
	type response struct {
		ID     json.RawMessage `json:"id"`
		Result *struct {
			ServerInfo struct{ Name string } `json:"serverInfo"`
			Content    []struct{ Type, Text string }
			IsError    bool `json:"isError"`
		} `json:"result"`
		Error *struct{ Code int } `json:"error"`
	}
	var r [6]response
	for i, l := range lines {
		require.NoError(t, json.Unmarshal([]byte(l), &r[i]), l)
	}
	assert.Equal(t, "flowd-bench-raw", r[0].Result.ServerInfo.Name)
	for i, id := range []string{`"a"`, `3`} {
		assert.Equal(t, id, string(r[1+i].ID))
		require.NotNil(t, r[1+i].Result)
		assert.Equal(t, []struct{ Type, Text string }{{"text", "xxxxx"}}, r[1+i].Result.Content)
	}
	for i, code := range []int{-32602, -32602, -32601} {
		require.NotNil(t, r[3+i].Error, lines[3+i])
		assert.Equal(t, code, r[3+i].Error.Code)
	}
}

func TestServeRejectsWhatIsNotJSONRPC(t *testing.T) {
	err := serve(strings.NewReader("hello\n"), &bytes.Buffer{})
	assert.ErrorContains(t, err, "not JSON-RPC")
}
