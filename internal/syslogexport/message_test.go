package syslogexport

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/activity"
)

var src = Source{Host: "dev box", PID: 4242}

func sample() activity.Record {
	return activity.Record{ID: 7, Time: time.Date(2026, 11, 27, 13, 0, 0, 123456000, time.UTC), Type: activity.TypeToolCall,
		Session: "s-1", Server: "mail", Tool: "send", Method: "tools/call", Verdict: "block", Decision: "deny",
		Reason: `sent "secret" \ to [x]=y|z` + "\nnext", RiskLevel: "high", FlowType: "internal→external",
		Details: json.RawMessage(`{"rule":"sensitive_data_external","flow":{}}`), ChainSeq: 7, PrevHash: "ab12", Hash: "cd34"}
}

func TestRFC5424(t *testing.T) {
	r := sample()
	msg := string(RFC5424(nil, &r, src, true))
	m, err := parse5424(msg)
	require.NoError(t, err, msg)
	assert.Equal(t, "<108>1", m.pri) // log audit (13) * 8 + warning (4): denied
	assert.Equal(t, "2026-11-27T13:00:00.123456Z", m.time)
	assert.Equal(t, "devbox", m.host) // no space in a header field
	assert.Equal(t, "flowd 4242 tool_call", m.app+" "+m.procid+" "+m.msgid)
	assert.Equal(t, SDID, m.sdid)
	assert.Equal(t, map[string]string{"id": "7", "chain_seq": "7", "hash": "cd34", "prev_hash": "ab12", "decision": "deny",
		"verdict": "block", "rule": "sensitive_data_external", "risk": "high", "flow_type": "internal→external",
		"server": "mail", "tool": "send", "method": "tools/call", "session": "s-1", "reason": r.Reason}, m.params)
	assert.Contains(t, msg, `reason="sent \"secret\" \\ to [x\]=y|z`)
	// The message is the record's JSON, hash included: what a SIEM
	// verifies the chain with.
	var back activity.Record
	require.NoError(t, json.Unmarshal([]byte(m.msg), &back))
	assert.Equal(t, r, back)

	short := string(RFC5424(nil, &r, src, false))
	m, err = parse5424(short)
	require.NoError(t, err)
	assert.Equal(t, "details", m.params["truncated"])
	assert.NotContains(t, m.msg, "details")

	bare := activity.Record{Type: "shim_connect", Time: r.Time}
	m, err = parse5424(string(RFC5424(nil, &bare, Source{}, true)))
	require.NoError(t, err)
	assert.Equal(t, "<110>1", m.pri)
	assert.Equal(t, "-", m.host)
	assert.Empty(t, m.params)
}

func TestCEF(t *testing.T) {
	r := sample()
	msg := string(CEF(nil, &r, src, "1.2|3"))
	_, cef, ok := strings.Cut(msg, " - CEF:")
	require.True(t, ok, msg)
	hdr, ext := splitCEF(t, "CEF:"+cef)
	assert.Equal(t, []string{"CEF:0", "flowd", "flowd", `1.2\|3`, "tool_call", "tool_call deny", "8"}, hdr)
	assert.Equal(t, `sent "secret" \\ to [x]\=y|z\nnext`, ext["reason"])
	assert.Equal(t, "server", ext["cs1Label"])
	assert.Equal(t, "mail", ext["cs1"])
	assert.Equal(t, "sensitive_data_external", ext["cs5"])
	assert.Equal(t, "cd34", ext["cs6"])
	assert.Equal(t, "7", ext["cn1"])
	assert.Equal(t, "high", ext["flexString1"])
	assert.Equal(t, strconv.FormatInt(r.Time.UnixMilli(), 10), ext["rt"])
	assert.NotContains(t, msg, "\n", "a line break would split the event")
}

// splitCEF splits a CEF event at its unescaped separators: seven header
// fields, then key=value pairs whose values end where the next key starts.
func splitCEF(t *testing.T, s string) ([]string, map[string]string) {
	var hdr []string
	start := 0
	for i := 0; i < len(s) && len(hdr) < 7; i++ {
		switch s[i] {
		case '\\':
			i++
		case '|':
			hdr = append(hdr, s[start:i])
			start = i + 1
		}
	}
	require.Len(t, hdr, 7)
	ext := map[string]string{}
	rest, key := s[start:], ""
	for rest != "" {
		// the next unescaped '=' ends a key; the key starts after the
		// last space before it.
		eq := -1
		for i := 0; i < len(rest); i++ {
			if rest[i] == '\\' {
				i++
				continue
			}
			if rest[i] == '=' {
				eq = i
				break
			}
		}
		if eq < 0 {
			ext[key] = rest
			break
		}
		sp := strings.LastIndexByte(rest[:eq], ' ')
		if key != "" {
			ext[key] = rest[:max(sp, 0)]
		}
		key, rest = rest[sp+1:eq], rest[eq+1:]
	}
	return hdr, ext
}

type message5424 struct {
	pri, time, host, app, procid, msgid string
	sdid                                string
	params                              map[string]string
	msg                                 string
}

// parse5424 reads an RFC 5424 message with one SD element, unescaping
// its values as a receiver does, and fails on a malformed one.
func parse5424(s string) (message5424, error) {
	var m message5424
	f := strings.SplitN(s, " ", 7)
	if len(f) < 7 {
		return m, errf("too few header fields: %q", s)
	}
	m.pri, m.time, m.host, m.app, m.procid, m.msgid = f[0], f[1], f[2], f[3], f[4], f[5]
	if _, err := time.Parse(time.RFC3339Nano, m.time); err != nil {
		return m, err
	}
	rest := f[6]
	if !strings.HasPrefix(rest, "[") {
		return m, errf("no SD element: %q", rest)
	}
	end := strings.IndexAny(rest, " ]")
	m.sdid, rest = rest[1:end], rest[end:]
	m.params = map[string]string{}
	for strings.HasPrefix(rest, " ") {
		eq := strings.Index(rest, `="`)
		if eq < 0 {
			return m, errf("param without value: %q", rest)
		}
		name := rest[1:eq]
		var v strings.Builder
		i := eq + 2
		for ; i < len(rest) && rest[i] != '"'; i++ {
			if rest[i] == '\\' {
				i++
				if c := rest[i]; c != '"' && c != '\\' && c != ']' {
					return m, errf("bad escape \\%c", c)
				}
			} else if rest[i] == ']' {
				return m, errf("unescaped ] in %s", name)
			}
			v.WriteByte(rest[i])
		}
		if i == len(rest) {
			return m, errf("unterminated value of %s", name)
		}
		m.params[name] = v.String()
		rest = rest[i+1:]
	}
	if !strings.HasPrefix(rest, "] "+bom) {
		return m, errf("SD element not closed, or no BOM: %q", rest)
	}
	m.msg = rest[len("] "+bom):]
	return m, nil
}
