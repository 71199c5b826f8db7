package jsonrpc

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	tests := []struct {
		line   string
		kind   Kind
		id     string
		method string
		params string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`, Request, `1`, "tools/call", `{"name":"x"}`},
		{` {"method":"initialize" , "id" : "a\"b", "jsonrpc":"2.0"}` + "\r\n", Request, `"a\"b"`, "initialize", ``},
		{`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`, Notification, ``, "notifications/cancelled", `{"requestId":3}`},
		{`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"}]\\\""}]}}`, Response, `7`, "", ``},
		{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700}}`, Invalid, ``, "", ``},
		{`{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"nope"}}`, ErrorReply, `2`, "", ``},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, Batch, ``, "", ``},
		{`{"x":{"y":[1,2,{"z":"{"}]},"id":9,"result":{}}`, Response, `9`, "", ``},
		{`{}`, Invalid, ``, "", ``},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			e, err := Parse([]byte(tt.line))
			require.NoError(t, err)
			assert.Equal(t, tt.kind, e.Kind)
			assert.Equal(t, tt.id, string(e.ID))
			assert.Equal(t, tt.method, e.Method)
			if tt.params != "" {
				assert.Equal(t, tt.params, string(e.Params))
			}
		})
	}
}

func TestParseRejects(t *testing.T) {
	for _, line := range []string{
		``, `   `, `null`, `"str"`, `42`, "\x00\xff\xfe garbage",
		`{"id":1`, `{"id":1,}`, `{"id" 1}`, `{"id":1}}`, `{"a":"unterminated}`,
		`{"a":[1,2}`, `{1:2}`, `{"id":1} trailing`,
	} {
		_, err := Parse([]byte(line))
		assert.Error(t, err, "line %q", line)
	}
}

// JSON.parse reads 20,000 levels of nesting, so flowd must too: a message
// it cannot parse passes unjudged, and the arguments of a call are the
// model's to shape.
func TestParseDeepNesting(t *testing.T) {
	line := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete_file","arguments":{"pad":` +
		strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}}}`
	e, err := Parse([]byte(line))
	require.NoError(t, err)
	assert.Equal(t, "tools/call", e.Method)
	name, _, ok := ToolCall(e.Params)
	assert.True(t, ok)
	assert.Equal(t, "delete_file", name)
}

func TestBlockedToolResult(t *testing.T) {
	for _, modern := range []bool{false, true} {
		b := BlockedToolResult([]byte(`"req-1"`), `tool "delete" is denied by policy`, modern)
		require.True(t, bytes.HasSuffix(b, []byte("\n")))
		require.Equal(t, 1, bytes.Count(b, []byte("\n")), "one line")
		var msg struct {
			ID     string `json:"id"`
			Result struct {
				Content []struct {
					Type, Text string
				} `json:"content"`
				IsError           bool            `json:"isError"`
				ResultType        string          `json:"resultType"`
				StructuredContent json.RawMessage `json:"structuredContent"`
			} `json:"result"`
		}
		require.NoError(t, json.Unmarshal(b, &msg))
		assert.Equal(t, "req-1", msg.ID)
		assert.True(t, msg.Result.IsError)
		require.Len(t, msg.Result.Content, 1)
		assert.Equal(t, "text", msg.Result.Content[0].Type)
		assert.Equal(t, `flowd blocked: tool "delete" is denied by policy`, msg.Result.Content[0].Text)
		assert.Nil(t, msg.Result.StructuredContent)
		if modern {
			assert.Equal(t, "complete", msg.Result.ResultType)
		} else {
			assert.Empty(t, msg.Result.ResultType)
		}
	}
}

// FuzzParse checks that Parse never panics and agrees with encoding/json on
// the id, method and params of every well-formed object, escaped and
// repeated member names included: the peers on either side read them so.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`))
	f.Add([]byte(`{"id":"a\\\"","result":[{"t":"}"}]}`))
	f.Add([]byte(`[1,2]`))
	f.Add([]byte(`{"jsonrpc":"2.0","\u0069d":1,"method":"ping","method":"tools\/call","params":{}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		e, err := Parse(line)
		if err != nil || !json.Valid(line) {
			return
		}
		var ref map[string]json.RawMessage
		if json.Unmarshal(line, &ref) != nil {
			return // not an object
		}
		if id := ref["id"]; string(id) != "null" && len(id) > 0 && !bytes.Equal(bytes.TrimSpace(id), e.ID) {
			t.Fatalf("id %q, encoding/json %q", e.ID, id)
		}
		var method string
		if json.Unmarshal(ref["method"], &method) == nil && method != e.Method {
			t.Fatalf("method %q, encoding/json %q", e.Method, method)
		}
		if p := ref["params"]; len(p) > 0 && !bytes.Equal(bytes.TrimSpace(p), e.Params) {
			t.Fatalf("params %q, encoding/json %q", e.Params, p)
		}
	})
}

// A name given twice, or spelled with escapes, reads as a decoder reads it:
// a call must not show flowd one tool and the server another.
func TestMemberAsDecoded(t *testing.T) {
	tests := []struct {
		obj, key, want string
	}{
		{`{"name":"read_file","name":"send_message"}`, "name", `"send_message"`},
		{`{"n\u0061me":"send_message"}`, "name", `"send_message"`},
		{`{"name":"read_file","n\u0061me":"send_message"}`, "name", `"send_message"`},
		{`{"arguments":{"q":1},"x":2,"arguments":{"text":"secret"}}`, "arguments", `{"text":"secret"}`},
		{`{"name\"":"a","name":"b"}`, "name", `"b"`},
		{`{"id":7,"result":{"content":[{"type":"text","text":"cut sh`, "id", `7`}, // a truncated head
	}
	for _, tt := range tests {
		got, ok := Member([]byte(tt.obj), tt.key)
		assert.True(t, ok, tt.obj)
		assert.Equal(t, tt.want, string(got), tt.obj)
		if json.Valid([]byte(tt.obj)) {
			var ref map[string]json.RawMessage
			require.NoError(t, json.Unmarshal([]byte(tt.obj), &ref))
			assert.Equal(t, string(ref[tt.key]), string(got), "as encoding/json reads %s", tt.obj)
		}
	}
	e, err := Parse([]byte(`{"jsonrpc":"2.0","\u0069d":3,"m\u0065thod":"tools\/call","params":{}}`))
	require.NoError(t, err)
	assert.Equal(t, Request, e.Kind)
	assert.Equal(t, "tools/call", e.Method)
	assert.Equal(t, "3", string(e.ID))
	assert.Empty(t, e.Ambiguous)
}

// A member given twice, or in another case, could be read one way by the
// TypeScript SDK (the last exact one), another by a Go server (the last in
// any case, and never a null over a string): flowd flags it rather than
// pick a reading.
func TestAmbiguous(t *testing.T) {
	for line, want := range map[string]string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`:                          "",
		`{"jsonrpc":"2.0","id":1,"method":"ping","methods":"x","Id2":3}`:    "",
		`{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/call"}`:    "method",
		`{"jsonrpc":"2.0","id":1,"method":"ping","Method":"tools/call"}`:    "method",
		`{"jsonrpc":"2.0","id":1,"ID":2,"method":"ping"}`:                   "id",
		`{"jsonrpc":"2.0","\u0069d":1,"id":2,"method":"ping"}`:              "id",
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":{},"paramſ":{}}`:  "params", // ſ folds to s
		`{"jsonrpc":"2.0","id":1,"result":{"content":[]},"RESULT":{"a":1}}`: "result",
	} {
		e, err := Parse([]byte(line))
		require.NoError(t, err, line)
		assert.Equal(t, want, e.Ambiguous, line)
	}
	for params, ok := range map[string]bool{
		`{"name":"read_file","arguments":{"a":1}}`:                          true,
		`{"name":"read_file"}`:                                              true,
		`{"arguments":{}}`:                                                  true,
		`{"name":"read_file","names":["x"],"_meta":{"name":"y"}}`:           true,
		`{"name":"delete_file","arguments":{},"name":null}`:                 false,
		`{"name":null}`:                                                     false,
		`{"name":7}`:                                                        false,
		`{"name":"read_file","Name":"delete_file"}`:                         false,
		`{"name":"read_file","arguments":{},"argumentſ":{"text":"secret"}}`: false,
		`{"name":"read_file","arguments":{},"arguments":{"text":"secret"}}`: false,
		`{"n\u0061me":"read_file","name":"delete_file"}`:                    false,
	} {
		name, args, got := ToolCall([]byte(params))
		assert.Equal(t, ok, got, params)
		if !got {
			assert.Empty(t, name, params)
			assert.Nil(t, args, params)
		}
	}
}

func BenchmarkParse10MB(b *testing.B) {
	text := strings.Repeat("abcdefghij\\n\\\"", 10<<20/14)
	line := []byte(`{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"` + text + `"}]}}`)
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		if _, err := Parse(line); err != nil {
			b.Fatal(err)
		}
	}
}

func TestMember(t *testing.T) {
	obj := []byte(` {"content":[{"type":"text","text":"\"isError\":true"}], "isError" : true ,"n":{"a":1}}`)
	v, ok := Member(obj, "isError")
	require.True(t, ok)
	assert.Equal(t, "true", string(v))
	v, ok = Member(obj, "n")
	require.True(t, ok)
	assert.Equal(t, `{"a":1}`, string(v))
	_, ok = Member(obj, "text")
	assert.False(t, ok, "only top-level members")
	for _, bad := range []string{``, `[]`, `{"a":`, `{"a" 1}`, `{"a":1 "b":2}`} {
		_, ok = Member([]byte(bad), "b")
		assert.False(t, ok, bad)
	}
}

// A tool's name reads as a JSON decoder reads it, whether it takes the
// fast path or the decoder: policy names tools as the server sees them.
func TestToolCallNameAsDecoded(t *testing.T) {
	for _, raw := range []string{`"read_file"`, `"delete\u005frepo"`, `"caf\u00e9"`, `"café"`, "\"bad\xffbyte\"", `"tab\there"`, `"a/b c-d.e"`} {
		params := []byte(`{"name":` + raw + `,"arguments":{"x":1}}`)
		var want struct {
			Name string `json:"name"`
		}
		json.Unmarshal(params, &want)
		name, args, ok := ToolCall(params)
		assert.True(t, ok, raw)
		assert.Equal(t, want.Name, name, raw)
		assert.Equal(t, `{"x":1}`, string(args), raw)
	}
}

func TestWithoutArgument(t *testing.T) {
	tests := []struct {
		name, in, want string
		ok             bool
	}{
		{"first", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"send","arguments":{"why":"x","text":"hi"}}}` + "\n",
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"send","arguments":{"text":"hi"}}}` + "\n", true},
		{"last, spaced", `{"id":1,"params":{"arguments": {"text": "hi" , "why": {"a":[1,"}"]} } ,"name":"send"}}`,
			`{"id":1,"params":{"arguments": {"text": "hi"  } ,"name":"send"}}`, true},
		{"only", `{"params":{"arguments":{"why":"x"}}}`, `{"params":{"arguments":{}}}`, true},
		{"middle", `{"params":{"arguments":{"a":1,"why":"x","b":2}}}`, `{"params":{"arguments":{"a":1,"b":2}}}`, true},
		{"nested key of that name stays", `{"params":{"arguments":{"a":{"why":"x"}}}}`, "", false},
		{"absent", `{"params":{"arguments":{"a":1}}}`, "", false},
		{"no arguments", `{"params":{"name":"x"}}`, "", false},
		{"broken", `{"params":{"arguments":{"why":`, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := WithoutArgument([]byte(tt.in), "why")
			assert.Equal(t, tt.ok, ok)
			if ok {
				assert.Equal(t, tt.want, string(got))
				assert.True(t, json.Valid(got), "still JSON: %s", got)
			}
		})
	}
}

func TestTruncatedID(t *testing.T) {
	tests := []struct {
		name, head, tail, want string
	}{
		{"id first (Go SDKs)", `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"xxxx`, `xxxx"}]}}` + "\n", "7"},
		{"id last (TypeScript SDK)", `{"result":{"content":[{"type":"text","text":"xxxx`, `xxxx"}]},"jsonrpc":"2.0","id":"call-7"}` + "\n", `"call-7"`},
		{"spaced", `{"result":"xxx`, `xxx" , "id" : 12 }` + "\n", "12"},
		{"nested id is not the response's", `{"result":{"x":"xxx`, `xxx","meta":{"id":5}}}`, ""},
		{"an id in the text is escaped", `{"result":{"text":"xxx`, `xxx \"id\":5}"}}`, ""},
		{"neither", `{"result":{"text":"xxx`, `xxx"},"jsonrpc":"2.0"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, ok := TruncatedID([]byte(tt.head), []byte(tt.tail))
			assert.Equal(t, tt.want != "", ok)
			assert.Equal(t, tt.want, string(id))
		})
	}
}

// FuzzUnescaped checks the decoder of names and methods against
// encoding/json.
func FuzzUnescaped(f *testing.F) {
	for _, s := range []string{`abc`, `\u0061\/\n`, `\ud83d\ude00`, `\ud83d x`, `\udc00\ud800`, "caf\xe9", `\u00e9\"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var want string
		if json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &want) != nil {
			return
		}
		if got := unescaped(raw); got != want {
			t.Fatalf("unescaped(%q) = %q, encoding/json %q", raw, got, want)
		}
	})
}

func TestIDValue(t *testing.T) {
	for raw, want := range map[string]float64{`1`: 1, `1.0`: 1, `1e0`: 1, `"1"`: 1, `" 1 "`: 1, `"0x1"`: 1, `"0b11"`: 3, `"0o17"`: 15, `-2`: -2, `""`: 0, `0`: 0} {
		v, ok := IDValue([]byte(raw))
		assert.True(t, ok, raw)
		assert.Equal(t, want, v, raw)
	}
	for _, raw := range []string{`"abc"`, `null`, `"1_000"`, `"0xz"`, `"NaN"`, `{}`} {
		_, ok := IDValue([]byte(raw))
		assert.False(t, ok, raw)
	}
}

func TestRepeatedAndMemberFold(t *testing.T) {
	for obj, want := range map[string]string{
		`{"name":"add","description":"x"}`:        "",
		`{"name":"add","Name":"decoy"}`:           "Name",
		`{"tools":[],"nextCursor":"","tools":[]}`: "tools",
		`{"t\u006f\u006fls":[],"TOOLS":[]}`:       "TOOLS",
		`{"nameſ":1,"NAMES":2}`:                   "NAMES",
		`{"a":{"name":1,"name":2}}`:               "", // only the top level
	} {
		assert.Equal(t, want, Repeated([]byte(obj)), obj)
	}
	assert.True(t, MemberFold([]byte(`{"Tools":[]}`), "tools"))
	assert.True(t, MemberFold([]byte(`{"t\u006fols":[]}`), "tools"))
	assert.False(t, MemberFold([]byte(`{"content":[{"tools":1}]}`), "tools"))
}
