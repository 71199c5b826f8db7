//go:build unix

package e2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	flowRoadmap = "Quarterly roadmap: migrate the billing service to the new ledger schema before the March freeze."
	flowSecret  = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
)

// elicitor answers flowd's confirmations as a user of the client would,
// and counts them.
type elicitor struct {
	allow    bool
	asked    atomic.Int32
	messages chan string
}

func (e *elicitor) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	e.asked.Add(1)
	e.messages <- req.Params.Message
	if !e.allow {
		return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}, nil
	}
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{
		Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"allow": true}}}, nil
}

// flowClient is an mcp-go client on argv that speaks the 2025-11-25
// revision (where servers ask clients with elicitation/create) and, when e
// is not nil, declares elicitation and answers with e.
func flowClient(t *testing.T, argv []string, e *elicitor) *client.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	stderr := &syncBuffer{}
	tr := transport.NewStdioWithOptions(argv[0], nil, argv[1:], transport.WithCommandStderrWriter(stderr))
	require.NoError(t, tr.Start(ctx))
	var opts []client.ClientOption
	if e != nil {
		opts = append(opts, client.WithElicitationHandler(e))
	}
	c := client.NewClient(tr, opts...)
	t.Cleanup(func() {
		c.Close()
		noShimComplaints(t, stderr.String())
	})
	require.NoError(t, c.Start(ctx))
	var ir mcp.InitializeRequest
	ir.Params.ProtocolVersion = "2025-11-25"
	ir.Params.ClientInfo = mcp.Implementation{Name: "flowd-e2e-flow", Version: "1.0.0"}
	_, err := c.Initialize(ctx, ir)
	require.NoError(t, err, "initialize %v", argv)
	return c
}

func callTool(t *testing.T, c *client.Client, tool string, args map[string]any) (text string, isError bool) {
	t.Helper()
	var req mcp.CallToolRequest
	req.Params.Name, req.Params.Arguments = tool, args
	res, err := c.CallTool(context.Background(), req)
	require.NoError(t, err, "call %s", tool)
	require.NotEmpty(t, res.Content)
	tc, ok := res.Content[0].(mcp.TextContent)
	require.True(t, ok, "text content: %#v", res.Content[0])
	return tc.Text, res.IsError
}

// The acceptance scenarios, each through real shim processes and a
// real flowd, with mcp-go clients and test servers named like real ones:
// a document is read from an internal server, then sent out through
// another.
func TestFlowAcceptance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		config   string
		doc      string
		to       string // destination server
		tool     string
		elicitor *elicitor
		wantText string // exact text of the answer; "" when the server answers
		blocked  bool
		decision string // the recorded decision of the send
		asked    string // the recorded answer of the user, when asked
	}{
		{name: "secret to chat is denied", doc: "name,value\nprod,aws_secret_access_key = " + flowSecret + "\n",
			to: "slack-notifications", tool: "send_message", blocked: true, decision: "deny",
			wantText: "flowd blocked: Sensitive data (aws_secret_key) flowing from internal source (github) to external destination (slack-notifications)"},
		{name: "internal to external warns without hooks", doc: flowRoadmap,
			to: "slack-notifications", tool: "send_message", decision: "warn"},
		{name: "internal to internal is allowed", doc: flowRoadmap,
			to: "postgres-db", tool: "echo", decision: "allow"},
		{name: "an override makes a chat internal", config: "[classify.servers]\n\"my-private-slack\" = \"internal\"\n", doc: flowRoadmap,
			to: "my-private-slack", tool: "send_message", decision: "allow"},
		{name: "internal to external asks the user, who allows", doc: flowRoadmap,
			to: "slack-notifications", tool: "send_message", elicitor: &elicitor{allow: true}, decision: "ask", asked: "accept"},
		{name: "internal to external asks the user, who declines", doc: flowRoadmap,
			to: "slack-notifications", tool: "send_message", elicitor: &elicitor{}, blocked: true, decision: "ask", asked: "decline",
			wantText: "flowd blocked: Data from internal source (github) flowing to external destination (slack-notifications); the user declined"},
		{name: "asking switched off", config: "[policy]\nask_with_elicitation = false\n", doc: flowRoadmap,
			to: "slack-notifications", tool: "send_message", elicitor: &elicitor{allow: true}, decision: "warn"},
		{name: "a secret is denied without asking", doc: "token: " + flowSecret,
			to: "slack-notifications", tool: "send_message", elicitor: &elicitor{allow: true}, blocked: true, decision: "deny"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if tt.elicitor != nil {
				tt.elicitor.messages = make(chan string, 4)
			}
			f := startFlowd(t, tt.config)
			src := flowClient(t, f.shim(bins.testserver, "--name", "github", "--doc", tt.doc), nil)
			read, isErr := callTool(t, src, "read_document", nil)
			require.False(t, isErr)
			require.Equal(t, tt.doc, read)

			dst := flowClient(t, f.shim(bins.testserver, "--name", tt.to), tt.elicitor)
			args := map[string]any{"channel": "#general", "text": "FYI: " + read}
			if tt.tool == "echo" {
				args = map[string]any{"message": "FYI: " + read}
			}
			text, isErr := callTool(t, dst, tt.tool, args)
			assert.Equal(t, tt.blocked, isErr, "answer: %s", text)
			if tt.wantText != "" {
				assert.Equal(t, tt.wantText, text)
			} else if !tt.blocked {
				assert.NotContains(t, text, "flowd blocked", "the server answered")
			}

			var sent record
			require.Eventually(t, func() bool {
				for _, r := range f.activity(t, "tool_call") {
					if r.Server == tt.to && r.Tool == tt.tool {
						sent = r
						return true
					}
				}
				return false
			}, hangBound, 20*time.Millisecond, "flowd records the send")
			assert.Equal(t, tt.decision, sent.Decision, "reason: %s", sent.Reason)
			var d struct {
				Asked *struct{ Outcome string } `json:"asked"`
			}
			require.NoError(t, json.Unmarshal(sent.Details, &d))
			if tt.asked == "" {
				assert.Nil(t, d.Asked)
				if tt.elicitor != nil {
					assert.Zero(t, tt.elicitor.asked.Load(), "the user was not asked")
				}
				return
			}
			require.NotNil(t, d.Asked, "details: %s", sent.Details)
			assert.Equal(t, tt.asked, d.Asked.Outcome)
			assert.Equal(t, int32(1), tt.elicitor.asked.Load())
			msg := <-tt.elicitor.messages
			assert.Contains(t, msg, `Server: "slack-notifications"`)
			assert.NotContains(t, msg, flowRoadmap, "the data is not repeated to the user")
		})
	}
}

// After a first allowed call, calls to the same internal tool go on
// without waiting for flowd (a grant, shimproto.Grant). They are still
// shown to flowd, tracked and recorded; a call naming a suspicious host,
// plainly or encoded, still waits for its verdict and is denied.
func TestGrantedCallsStayTracked(t *testing.T) {
	t.Parallel()
	f := startFlowd(t, "")
	src := flowClient(t, f.shim(bins.testserver, "--name", "github", "--doc", flowRoadmap), nil)
	read, _ := callTool(t, src, "read_document", nil)
	db := flowClient(t, f.shim(bins.testserver, "--name", "postgres-db"), nil)
	for i := range 3 {
		text, isErr := callTool(t, db, "echo", map[string]any{"message": fmt.Sprintf("note %d: %s", i, read)})
		require.False(t, isErr, text)
	}
	granted := map[string][]string{}
	for _, s := range status(t, f.socket).Shims {
		granted[s.Server] = s.Granted
	}
	assert.Equal(t, map[string][]string{"github": {"read_document"}, "postgres-db": {"echo"}}, granted, "flowd status shows what goes at once")
	encoded := base64.StdEncoding.EncodeToString([]byte("https://webhook.site/collect?d=1"))
	for _, m := range []string{"post it to https://webhook.site/abc", encoded} {
		text, isErr := callTool(t, db, "echo", map[string]any{"message": m})
		assert.True(t, isErr, "a suspicious host is denied on a granted tool too: %s", text)
		assert.Contains(t, text, "suspicious endpoint webhook.site")
	}

	var echoes []record
	require.Eventually(t, func() bool {
		echoes = echoes[:0]
		for _, r := range f.activity(t, "tool_call") {
			if r.Server == "postgres-db" && r.Tool == "echo" {
				echoes = append(echoes, r)
			}
		}
		return len(echoes) == 5
	}, hangBound, 20*time.Millisecond, "flowd records every call, forwarded or not")
	forwarded := 0
	for _, r := range echoes {
		var d struct {
			Forwarded bool `json:"forwarded"`
			Flow      struct {
				FlowType string `json:"flow_type"`
			} `json:"flow"`
		}
		require.NoError(t, json.Unmarshal(r.Details, &d))
		if r.Verdict == "block" {
			assert.False(t, d.Forwarded, "a denied call waited for its verdict")
			continue
		}
		assert.Equal(t, "allow", r.Decision)
		assert.Equal(t, "internal→internal", d.Flow.FlowType, "the document's flow is tracked: %s", r.Details)
		if d.Forwarded {
			forwarded++
		}
	}
	assert.Equal(t, 2, forwarded, "every call after the first went at once")
}

// With require_justification, the agent's first send is refused with a
// request for its reason; the retry carries one, which flowd shows to the
// user and takes out before the server sees the call.
func TestFlowRequireJustification(t *testing.T) {
	t.Parallel()
	f := startFlowd(t, "[policy]\nrequire_justification = true\n")
	src := flowClient(t, f.shim(bins.testserver, "--name", "github", "--doc", flowRoadmap), nil)
	read, _ := callTool(t, src, "read_document", nil)
	e := &elicitor{allow: true, messages: make(chan string, 1)}
	dst := flowClient(t, f.shim(bins.testserver, "--name", "slack-notifications"), e)

	text, isErr := callTool(t, dst, "post_arguments", map[string]any{"channel": "#general", "text": read})
	require.True(t, isErr)
	assert.Contains(t, text, `call the tool again with the same arguments plus "flowd_justification"`)
	assert.Zero(t, e.asked.Load(), "no reason, no question")

	why := "the user asked me to post the roadmap to #general"
	text, isErr = callTool(t, dst, "post_arguments", map[string]any{"channel": "#general", "text": read, "flowd_justification": why})
	require.False(t, isErr, text)
	assert.Equal(t, "received channel,text", text, "the server never sees the stated reason")
	assert.Contains(t, <-e.messages, `The agent says (unverified): "`+why+`"`)
	recs := f.waitToolCalls(t, "post_arguments")
	var passed int
	for _, r := range recs {
		if r.Tool == "post_arguments" && r.Verdict == "pass" {
			passed++
			assert.True(t, strings.Contains(r.Reason, why), "the reason is logged: %s", r.Reason)
		}
	}
	assert.Equal(t, 1, passed)
}
