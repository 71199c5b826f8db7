package shim

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/jsonrpc"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

const heldCall = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"send","arguments":{"text":"roadmap"}}}` + "\n"

// askFlowd holds every tools/call to ask q and passes everything else.
func askFlowd(t *testing.T, sock string, q shimproto.Question) *fakeFlowd {
	data, err := json.Marshal(q)
	require.NoError(t, err)
	return startFake(t, sock, func(m shimproto.Message) []shimproto.Verdict {
		if m.Dir == shimproto.ClientToServer && bytes.Contains(m.Data, []byte(`"tools/call"`)) {
			return []shimproto.Verdict{{Seq: m.Seq, Action: shimproto.Ask, Data: data}}
		}
		return []shimproto.Verdict{{Seq: m.Seq}}
	})
}

func question(timeout time.Duration) shimproto.Question {
	return shimproto.Question{
		Elicitation: json.RawMessage(`{"message":"flowd: allow this tool call?","requestedSchema":{"type":"object","properties":{"allow":{"type":"boolean"}},"required":["allow"]}}`),
		DenyReason:  "Data from internal source (github) flowing to external destination (slack)",
		TimeoutMS:   timeout.Milliseconds(),
	}
}

// elicitation reads the shim's elicitation/create from the client's side
// and returns its id.
func (r *running) elicitation(t *testing.T) string {
	t.Helper()
	line := r.readLine(t)
	var req struct {
		ID     json.RawMessage
		Method string
		Params struct{ Message string }
	}
	require.NoError(t, json.Unmarshal([]byte(line), &req), line)
	require.Equal(t, "elicitation/create", req.Method, line)
	assert.Equal(t, "flowd: allow this tool call?", req.Params.Message)
	assert.Regexp(t, `^"flowd-ask-[0-9a-f]{32}"$`, string(req.ID), "an id nobody else can guess")
	return string(req.ID)
}

func blockedLine(t *testing.T, line string) string {
	t.Helper()
	e, err := jsonrpc.Parse([]byte(line))
	require.NoError(t, err, line)
	assert.Equal(t, "5", string(e.ID))
	require.True(t, jsonrpc.IsError(e.Result), "a blocked result: %s", line)
	var res struct{ Content []struct{ Text string } }
	require.NoError(t, json.Unmarshal(e.Result, &res))
	return res.Content[0].Text
}

func TestAskHoldsTheCallUntilTheUserAnswers(t *testing.T) {
	tests := []struct {
		name    string
		answer  string
		allowed bool
		outcome string
		refusal string
	}{
		{"allowed", `{"action":"accept","content":{"allow":true}}`, true, "accept", ""},
		{"accepted unchecked", `{"action":"accept","content":{"allow":false}}`, false, "accept", "the user did not allow it"},
		{"allow of the wrong type", `{"action":"accept","content":{"allow":"true"}}`, false, "accept", "the user did not allow it"},
		{"declined", `{"action":"decline"}`, false, "decline", "the user declined"},
		{"cancelled", `{"action":"cancel"}`, false, "cancel", "the user declined"},
		{"unknown action", `{"action":"sure"}`, false, "error", "the user could not be asked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sock := socketPath(t)
			f := askFlowd(t, sock, question(time.Minute))
			r := startShim(t, sock, "open")
			r.send(t, heldCall)
			id := r.elicitation(t)

			// Other messages flow while the user thinks.
			ping := `{"jsonrpc":"2.0","id":"p1","method":"ping"}` + "\n"
			r.send(t, ping)
			require.Equal(t, ping, r.readLine(t))

			r.send(t, `{"jsonrpc":"2.0","id":`+id+`,"result":`+tt.answer+`}`+"\n")
			got := r.readLine(t)
			if tt.allowed {
				assert.Equal(t, heldCall, got, "the call goes upstream as it was")
			} else {
				text := blockedLine(t, got)
				assert.Equal(t, "flowd blocked: "+question(0).DenyReason+"; "+tt.refusal, text)
			}
			a := <-f.answers
			assert.Equal(t, shimproto.Answer{Seq: a.Seq, Allowed: tt.allowed, Outcome: tt.outcome}, a)
			assert.Equal(t, 0, r.finish(t))
			f.mu.Lock()
			defer f.mu.Unlock()
			for _, seen := range f.seen {
				assert.NotContains(t, string(seen), "flowd-ask-", "the user's answer is not shown to flowd as traffic")
			}
			if tt.allowed {
				// cat sends the call back as its result: flowd must have the
				// user's answer before that result, or it records the call
				// as never asked.
				answer := slices.Index(f.frames, "answer")
				result := slices.Index(f.frames, shimproto.ServerToClient.String()+" "+heldCall)
				require.NotEqual(t, -1, result, "frames: %q", f.frames)
				assert.Less(t, answer, result, "frames: %q", f.frames)
			}
		})
	}
}

func TestAskSendsTheRewrittenCall(t *testing.T) {
	sock := socketPath(t)
	q := question(time.Minute)
	q.Forward = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"send","arguments":{}}}` + "\n"
	askFlowd(t, sock, q)
	r := startShim(t, sock, "open")
	r.send(t, heldCall)
	id := r.elicitation(t)
	r.send(t, `{"jsonrpc":"2.0","id":`+id+`,"result":{"action":"accept","content":{"allow":true}}}`+"\n")
	assert.Equal(t, q.Forward, r.readLine(t))
	assert.Equal(t, 0, r.finish(t))
}

func TestAskTimesOut(t *testing.T) {
	sock := socketPath(t)
	f := askFlowd(t, sock, question(50*time.Millisecond))
	r := startShim(t, sock, "open")
	r.send(t, heldCall)
	id := r.elicitation(t)
	cancel := r.readLine(t)
	assert.Equal(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`+id+`,"reason":"flowd: no answer in time; the call was refused"}}`+"\n", cancel)
	assert.True(t, strings.HasSuffix(blockedLine(t, r.readLine(t)), "the user did not answer within 50ms"))
	assert.Equal(t, "timeout", (<-f.answers).Outcome)

	// A late answer is the client's business no more: it goes nowhere.
	r.send(t, `{"jsonrpc":"2.0","id":`+id+`,"result":{"action":"accept","content":{"allow":true}}}`+"\n")
	assert.Equal(t, 0, r.finish(t))
}

func TestAskRefusedWhenTheClientLeaves(t *testing.T) {
	sock := socketPath(t)
	f := askFlowd(t, sock, question(time.Minute))
	r := startShim(t, sock, "open")
	r.send(t, heldCall)
	r.elicitation(t)
	r.in.Close()
	assert.Contains(t, blockedLine(t, r.readLine(t)), "the client went away before the user answered")
	assert.Equal(t, "closed", (<-f.answers).Outcome)
	assert.Equal(t, 0, r.finish(t))
}

// The client cancels a call while its user is being asked: the question
// is withdrawn, the call never goes upstream, and neither the cancel nor a
// reply is sent anywhere (the client wants no answer).
func TestAskWithdrawnWhenTheClientCancels(t *testing.T) {
	sock := socketPath(t)
	f := askFlowd(t, sock, question(time.Minute))
	r := startShim(t, sock, "open")
	r.send(t, heldCall)
	id := r.elicitation(t)
	r.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"user pressed Esc"}}`+"\n")
	assert.Equal(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`+id+`,"reason":"flowd: the call was cancelled"}}`+"\n", r.readLine(t))
	assert.Equal(t, "withdrawn", (<-f.answers).Outcome)
	// cat echoes whatever reaches the upstream: the next line out is the
	// ping, so neither the call nor its cancel got there.
	ping := `{"jsonrpc":"2.0","id":"p2","method":"ping"}` + "\n"
	r.send(t, ping)
	assert.Equal(t, ping, r.readLine(t))
	assert.Equal(t, 0, r.finish(t))
}
