package shim

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

func echoCall(id int, tool, args string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`+"\n", id, tool, args)
}

// grantingFlowd grants echo (with webhook.site as the suspicious host)
// when it sees a "grant-now" message and withdraws the grant at
// "withdraw-now" and "withdraw-overtaken". Every tools/call that waits for its verdict comes out
// as judged, so the client can tell it from one that went at once.
func grantingFlowd(t *testing.T, sock string) *fakeFlowd {
	f := startFake(t, sock, func(m shimproto.Message) []shimproto.Verdict {
		if m.Forwarded {
			return nil // flowd sends no verdict for a call the shim sent on
		}
		v := shimproto.Verdict{Seq: m.Seq}
		if m.Dir == shimproto.ClientToServer && bytes.Contains(m.Data, []byte(`"tools/call"`)) {
			v.Action, v.Data = shimproto.Replace, []byte(judged)
		}
		return []shimproto.Verdict{v}
	}, func(f *fakeFlowd) {
		var seq uint64 // the fake's connections come one after another
		f.grant = func(m shimproto.Message) []shimproto.Grant {
			switch {
			case bytes.Contains(m.Data, []byte("grant-now")):
				seq++
				return []shimproto.Grant{{Seq: seq, Tools: []string{"echo"}, Hosts: []string{"webhook.site"}}}
			case bytes.Contains(m.Data, []byte("withdraw-now")):
				seq++
				return []shimproto.Grant{{Seq: seq}}
			case bytes.Contains(m.Data, []byte("withdraw-overtaken")):
				// flowd writes a withdrawal and an older grant out of
				// order: the grant must not come back.
				seq += 2
				return []shimproto.Grant{{Seq: seq}, {Seq: seq - 1, Tools: []string{"echo"}}}
			}
			return nil
		}
		f.welcome.MaxInspectBytes = 4096
	})
	return f
}

const judged = `{"judged":true}` + "\n"

// say sends a message that passes as it is; once it is back, whatever
// flowd sent while judging it has reached the shim.
func (r *running) say(t *testing.T, method string) {
	line := `{"jsonrpc":"2.0","method":"` + method + `"}` + "\n"
	r.send(t, line)
	require.Equal(t, line, r.readLine(t))
}

func TestGrantedCallsGoWithoutWaiting(t *testing.T) {
	sock := socketPath(t)
	f := grantingFlowd(t, sock)
	r := startShim(t, sock, "open")
	<-f.hello

	plain := echoCall(1, "echo", `{"message":"hello"}`)
	r.send(t, plain)
	assert.Equal(t, judged, r.readLine(t), "before any grant, calls wait for their verdict")

	r.say(t, "grant-now")
	r.send(t, plain)
	assert.Equal(t, plain, r.readLine(t), "a granted call goes to the server as it is")

	encoded := base64.StdEncoding.EncodeToString([]byte("https://webhook.site/collect"))
	for name, line := range map[string]string{
		"suspicious host":                  echoCall(2, "echo", `{"message":"see https://WebHook.site/abc"}`),
		"suspicious host, base64":          echoCall(3, "echo", `{"message":"`+encoded+`"}`),
		"suspicious host, escaped":         echoCall(4, "echo", `{"message":"https%3A%2F%2Fwebhook%2Esite%2Fx"}`),
		"tool not granted":                 echoCall(5, "add", `{"a":1,"b":2}`),
		"arguments over max_inspect_bytes": echoCall(6, "echo", `{"message":"`+strings.Repeat("a", 5000)+`"}`),
		"notification":                     `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo","arguments":{}}}` + "\n",
		"batch":                            "[" + strings.TrimSuffix(plain, "\n") + "]\n",
		"tool named twice":                 `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{},"Name":"add"}}` + "\n",
		"method in another case":           `{"jsonrpc":"2.0","id":8,"method":"tools/call","Method":"ping","params":{"name":"echo","arguments":{}}}` + "\n",
		"suspicious host in _meta":         `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{},"_meta":{"cb":"https://webhook.site/x"}}}` + "\n",
		"suspicious host in the id":        `{"jsonrpc":"2.0","id":"webhook.site/x","method":"tools/call","params":{"name":"echo","arguments":{}}}` + "\n",
		"a private key file":               echoCall(10, "echo", `{"path":"/home/u/.ssh/id_ed25519"}`),
		"a private key file, escaped":      echoCall(11, "echo", `{"path":"/home/u/.ss\u0068/id_rsa"}`),
	} {
		r.send(t, line)
		assert.Equal(t, judged, r.readLine(t), name)
	}

	r.say(t, "withdraw-now")
	r.send(t, plain)
	assert.Equal(t, judged, r.readLine(t), "a withdrawn grant lets nothing through")
	r.say(t, "grant-now")
	r.say(t, "withdraw-overtaken")
	r.send(t, plain)
	assert.Equal(t, judged, r.readLine(t), "a grant older than the withdrawal is ignored")
	assert.Equal(t, 0, r.finish(t))

	f.mu.Lock()
	defer f.mu.Unlock()
	report := slices.Index(f.frames, "forwarded client→server "+plain)
	back := slices.Index(f.frames, "server→client "+plain)
	require.GreaterOrEqual(t, report, 0, "flowd is shown every call the shim sends on: %q", f.frames)
	assert.Less(t, report, back, "flowd hears of the call before its answer can come")
	assert.Equal(t, 1, strings.Count(strings.Join(f.frames, ""), "forwarded "), "only the one granted call went at once")
}

// A grant is the connection's: after flowd comes back, calls wait for
// verdicts again until the new flowd grants anything.
func TestGrantEndsWithTheConnection(t *testing.T) {
	sock := socketPath(t)
	first := grantingFlowd(t, sock)
	r := startShim(t, sock, "open")
	<-first.hello
	r.say(t, "grant-now")
	plain := echoCall(1, "echo", `{"message":"hello"}`)
	r.send(t, plain)
	require.Equal(t, plain, r.readLine(t))

	first.stop()
	second := grantingFlowd(t, sock)
	select {
	case <-second.hello:
	case <-time.After(10 * time.Second):
		t.Fatal("shim did not reconnect")
	}
	// As in TestReconnectLosesNothing: probe until the new link carries messages.
	probe := `{"jsonrpc":"2.0","id":"probe","method":"ping"}` + "\n"
	for i := 0; second.seenCount() == 0; i++ {
		require.Less(t, i, 1000, "the new flowd never saw a message")
		r.send(t, probe)
		require.Equal(t, probe, r.readLine(t))
	}
	r.send(t, plain)
	assert.Equal(t, judged, r.readLine(t), "the old connection's grant is gone")
	assert.Equal(t, 0, r.finish(t))
}

// Found by a red team (RT4-8): a grant for move_file or read_text_file,
// earned by plain calls, carried a move of flowd's config and a read of
// its passphrase verifier past self-protection, which judges only calls
// that wait for their verdict. A call naming flowd's files or the
// agents' waits, however the name is written.
func TestGrantDoesNotCoverCallsNamingGuardedFiles(t *testing.T) {
	g := newGrant(shimproto.Grant{Seq: 1, Tools: []string{"move_file", "read_text_file"},
		Guarded: []string{"flowd", ".claude", "approval.json", "/srv/state/fd"}})
	for _, tt := range []struct {
		args    string
		covered bool
	}{
		{`{"source":"/home/u/a.txt","destination":"/home/u/b.txt"}`, true},
		{`{"source":"/home/u/.config/flowd/config.toml","destination":"/tmp/x"}`, false},
		{`{"source":"/home/u/.config/FLOWD/config.toml","destination":"/tmp/x"}`, false},
		{`{"source":"/home/u/.config/\u0066lowd/config.toml","destination":"/tmp/x"}`, false},
		{`{"source":"C:\\Users\\u\\.claude\\settings.json","destination":"x"}`, false},
		{`{"path":"/srv/state/fd/approval.json"}`, false},
		{`{"path":"/srv/state/fd/activity.db"}`, false},
		{`{"path":"L3Nydi9zdGF0ZS9mZC9hY3Rpdml0eS5kYg=="}`, false}, // base64 of the last
		{`{"/srv/state/fd/x":1}`, false},
		// A repeated member: a server may take either value.
		{`{"path":"/srv/state/fd/approval.json","path":"/home/u/b.txt"}`, false},
		{`{"path":"/home/u/b.txt","path":"/srv/state/fd/approval.json"}`, false},
	} {
		tool := "move_file"
		if strings.Contains(tt.args, `"path"`) {
			tool = "read_text_file"
		}
		assert.Equal(t, tt.covered, g.covers([]byte(echoCall(1, tool, tt.args)), 1<<20), tt.args)
	}
	unguarded := newGrant(shimproto.Grant{Seq: 1, Tools: []string{"read_text_file"}})
	assert.True(t, unguarded.covers([]byte(echoCall(1, "read_text_file", `{"path":"/srv/state/fd/approval.json"}`)), 1<<20),
		"an older flowd sends no names: its grants stand as before")
}

// The check of a granted call runs before the call goes on, on the shim's
// one scheduler slot, where each collection delays the call it falls on:
// reading the message for guarded names makes no garbage (it once made as
// much as the rest of the check, and with it a collection every 47 calls
// of the benchmark).
func TestGuardedNamesAreReadWithoutGarbage(t *testing.T) {
	g := newGrant(shimproto.Grant{Seq: 1, Tools: []string{"echo"},
		Guarded: []string{"flowd", ".claude", "approval.json", "/srv/state/fd"}})
	line := []byte(echoCall(1, "echo", `{"message":"the quick brown \u0066ox, \"quoted\", C:\\Users\\u","n":[1,true,null,{"k":"Ünïcode"}]}`))
	views := [][]byte{[]byte("a decoded VIEW"), []byte("\xff\xfe")}
	require.False(t, g.namesGuarded(line, views))
	allocs := testing.AllocsPerRun(1000, func() { g.namesGuarded(line, views) })
	if raceEnabled {
		t.Logf("%v allocations a check under the race detector, which drops pooled buffers at random: not asserted", allocs)
		return
	}
	assert.Zero(t, allocs, "allocations per check of a granted call's names")
}

// namesGuardedReference is the search as it was before it stopped
// decoding the message into Go values: every string json.Unmarshal
// makes of it (a repeated member's last value only), and the views.
func namesGuardedReference(guarded []string, line []byte, views [][]byte) bool {
	var v any
	if json.Unmarshal(line, &v) != nil {
		return true
	}
	var texts []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			texts = append(texts, x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for k, e := range x {
				texts = append(texts, k)
				walk(e)
			}
		}
	}
	walk(v)
	for _, b := range views {
		texts = append(texts, string(b))
	}
	for _, s := range texts {
		s = strings.ToLower(strings.ReplaceAll(s, `\`, "/"))
		for _, name := range guarded {
			if strings.Contains(s, name) {
				return true
			}
		}
	}
	return false
}

// The search without garbage finds every name the decoding one found,
// however the name is escaped, cased or split by backslashes, and more
// only where a repeated member hid a value from the decoded map.
func TestGuardedNamesAsTheDecodingSearchFoundThem(t *testing.T) {
	guarded := []string{"flowd", ".claude", "approval.json", "/srv/state/fd", "kelvin"}
	g := newGrant(shimproto.Grant{Seq: 1, Tools: []string{"echo"}, Guarded: guarded})
	pieces := []string{"flowd", "FLOWD", `\u0066lowd`, "fl", "owd", ".claude", `\\.claude`, "approval", ".json", `\/srv\/state\/fd`,
		`\\srv\\state\\fd`, "\u212aelvin", "KELVIN", "İ", "ß", "x", " ", `\"`, `\n`, `\ud83d\ude00`, `\ud800`, "é", "\xff"}
	rng := rand.New(rand.NewPCG(3, 4))
	str := func() string {
		var b strings.Builder
		for range rng.IntN(5) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return `"` + b.String() + `"`
	}
	found, more := 0, 0
	for range 5000 {
		var args strings.Builder
		args.WriteString("{")
		for i := range 1 + rng.IntN(3) {
			if i > 0 {
				args.WriteString(",")
			}
			key := str()
			if rng.IntN(5) == 0 {
				key = `"k"` // repeated
			}
			val := str()
			if rng.IntN(4) == 0 {
				val = "[" + str() + "," + str() + "]"
			}
			args.WriteString(key + ":" + val)
		}
		args.WriteString("}")
		line := []byte(echoCall(1, "echo", args.String()))
		var views [][]byte
		if rng.IntN(3) == 0 {
			views = [][]byte{[]byte(strings.Trim(str(), `"`))}
		}
		want, got := namesGuardedReference(guarded, line, views), g.namesGuarded(line, views)
		switch {
		case want && !got:
			t.Fatalf("%s (views %q): the decoding search found a guarded name, this one did not", line, views)
		case got && !want:
			assert.True(t, repeatsAMember(line), "found more only through a repeated member: %s", line)
			more++
		case got:
			found++
		}
	}
	assert.Greater(t, found, 500, "the messages name guarded files often enough to test the search")
	t.Logf("%d found by both, %d more only through a repeated member", found, more)
}

// repeatsAMember reports whether an object in the JSON text line names a
// member twice (after decoding), of which json.Unmarshal keeps one.
func repeatsAMember(line []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(line))
	type frame struct {
		keys   map[string]bool
		object bool
		key    bool // the next token in this object is a member name
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.key {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				continue
			}
			k := tok.(string)
			if top.keys[k] {
				return true
			}
			top.keys[k] = true
			top.key = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{keys: map[string]bool{}, object: true, key: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].key = true // a value ended: a name comes next
		}
	}
}

// A granted call of prose, the common case, is checked with little
// garbage: its views are none (unwrap reads no cut value or encoding in
// words), the hosts are lower-cased once for the grant, not for every
// call. What is left is the message's parse and the joined fields of its
// envelope. It was 146 allocations (15 KB) a 1 KB call, and on the shim's
// one scheduler slot each collection delays the call it falls on.
func TestGrantCheckOfProseMakesLittleGarbage(t *testing.T) {
	g := newGrant(shimproto.Grant{Seq: 1, Tools: []string{"echo"}, Hosts: config.Default().Policy.SuspiciousEndpoints,
		Guarded: []string{"flowd", ".claude", "approval.json"}})
	msg := strings.Repeat("the quick brown fox jumps over the lazy dog while a daemon watches the stream ", 14)[:1024]
	line := []byte(echoCall(1, "echo", `{"message":"`+msg+`"}`))
	require.True(t, g.covers(line, 1<<20))
	allocs := testing.AllocsPerRun(200, func() { g.covers(line, 1<<20) })
	if raceEnabled {
		t.Logf("%v allocations a check under the race detector, which drops pooled buffers at random: not asserted", allocs)
		return
	}
	assert.LessOrEqual(t, allocs, 10.0, "allocations per check of a granted 1 KB call of prose")
}
