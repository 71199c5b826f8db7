package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/flowd-dev/flowd/internal/shellnorm"
)

// step is one thing a case did and what flowd made of it.
type step struct {
	What string `json:"what"`
	outcome
}

// player plays cases against one flowd.
type player struct {
	d    *daemon
	self string // this program, which serves the scripted servers
	dir  string // for the scripts
}

// play runs one case and returns its steps; an error means no verdict.
func (p *player) play(c benchCase) ([]step, error) {
	pl, err := c.payload()
	if err != nil {
		return nil, err
	}
	session := "egress-bench-" + c.ID
	switch c.InputType {
	case "mcp_tool_call", "mcp_tool_sequence":
		return p.playCalls(c, pl, session)
	case "mcp_tool_result":
		return p.playResult(c, pl, session)
	case "mcp_tool_definition":
		return p.playDefinition(c, pl, session)
	case "url", "header", "request_body":
		return p.playRequest(pl, session)
	case "response_content":
		return p.playResponse(pl, session)
	}
	return nil, fmt.Errorf("input_type %s: the adapter does not play it", c.InputType)
}

// writeScript saves a scripted server's part for the server process.
func (p *player) writeScript(name string, s script) (string, error) {
	f := filepath.Join(p.dir, name+".json")
	b, err := json.Marshal(s)
	if err != nil {
		return "", err
	}
	return f, os.WriteFile(f, b, 0o600)
}

// shim starts a shim wrapping a scripted server, one server a tool as an
// agent's config would have it: the server is named after its tool, which
// is what flowd classifies it by.
func (p *player) shim(c benchCase, server, session string, s script) (*client, error) {
	f, err := p.writeScript(c.ID+"-"+server, s)
	if err != nil {
		return nil, err
	}
	return p.d.startShim(server, session, p.self, f)
}

// finish closes the shims; one that reported trouble makes the case an
// error, since what it passed may not have been judged by flowd.
func finish(clients []*client) error {
	var errs []error
	for _, c := range clients {
		if s := c.close(); s != "" {
			errs = append(errs, fmt.Errorf("shim reported: %s", firstLine(s)))
		}
	}
	return errors.Join(errs...)
}

// playCalls sends the case's tools/call messages in order, each to the
// shim of its tool; every tool's server lists a definition with the
// parameters its calls use, and no description.
func (p *player) playCalls(c benchCase, pl payload, session string) (steps []step, err error) {
	msgs, err := pl.messages()
	if err != nil {
		return nil, err
	}
	params := map[string][]string{}
	var order []string
	for _, m := range msgs {
		if m.Method != "tools/call" || m.Params.Name == "" {
			return nil, fmt.Errorf("message %q is not a tools/call", m.Method)
		}
		if _, ok := params[m.Params.Name]; !ok {
			order = append(order, m.Params.Name)
		}
		var args map[string]json.RawMessage
		json.Unmarshal(m.Params.Arguments, &args)
		for k := range args {
			if !slices.Contains(params[m.Params.Name], k) {
				params[m.Params.Name] = append(params[m.Params.Name], k)
			}
		}
	}
	shims := map[string]*client{}
	var all []*client
	defer func() { err = errors.Join(err, finish(all)) }()
	for _, tool := range order {
		cl, err := p.shim(c, tool, session, script{Tools: []json.RawMessage{plainTool(tool, params[tool])}})
		if err != nil {
			return steps, err
		}
		all = append(all, cl)
		shims[tool] = cl
		if _, err := cl.request("tools/list", map[string]any{}); err != nil {
			return steps, err
		}
	}
	for _, m := range msgs {
		cl := shims[m.Params.Name]
		args := m.Params.Arguments
		if len(args) == 0 {
			args = json.RawMessage(`{}`)
		}
		resp, err := cl.request("tools/call", map[string]any{"name": m.Params.Name, "arguments": args})
		if err != nil {
			return steps, err
		}
		o, ok := callOutcome(resp, cl.asked)
		if !ok {
			return steps, fmt.Errorf("tools/call %s: answer neither the server's nor flowd's: %.300s", m.Params.Name, resp)
		}
		steps = append(steps, step{What: "tools/call " + m.Params.Name, outcome: o})
	}
	return steps, nil
}

// plainTool is a tool definition with string parameters and no
// description: all flowd learns of the tool is its name and parameters.
func plainTool(name string, params []string) json.RawMessage {
	props := map[string]any{}
	for _, k := range params {
		props[k] = map[string]any{"type": "string"}
	}
	return mustJSON(map[string]any{"name": name, "inputSchema": map[string]any{"type": "object", "properties": props}})
}

// resultTool is the tool whose answer a tool-result case gives. The case
// does not say which tool answered, so its server has a name flowd cannot
// classify (unknown, judged as cautiously as an external one).
const resultTool = "get_result"

// playResult calls a tool whose server answers with the case's result.
func (p *player) playResult(c benchCase, pl payload, session string) (steps []step, err error) {
	msgs, err := pl.messages()
	if err != nil {
		return nil, err
	}
	var result json.RawMessage
	for _, m := range msgs {
		if len(m.Result) > 0 {
			result = m.Result
			break
		}
	}
	if result == nil {
		return nil, errors.New("tool-result case without a result")
	}
	cl, err := p.shim(c, "egress-bench", session, script{Tools: []json.RawMessage{plainTool(resultTool, nil)},
		Results: map[string]json.RawMessage{resultTool: result}})
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, finish([]*client{cl})) }()
	if _, err := cl.request("tools/list", map[string]any{}); err != nil {
		return nil, err
	}
	resp, err := cl.request("tools/call", map[string]any{"name": resultTool, "arguments": map[string]any{}})
	if err != nil {
		return nil, err
	}
	return []step{{What: "tools/call result", outcome: resultOutcome(resp, texts(result))}}, nil
}

// playDefinition lists the case's tools. A case that requires a baseline
// (a rug pull) lists first the same tools with a plain description, which
// flowd pins, then the case's.
func (p *player) playDefinition(c benchCase, pl payload, session string) (steps []step, err error) {
	msgs, err := pl.messages()
	if err != nil {
		return nil, err
	}
	var tools []json.RawMessage
	for _, m := range msgs {
		var r struct {
			Tools []json.RawMessage `json:"tools"`
		}
		if json.Unmarshal(m.Result, &r) == nil {
			tools = append(tools, r.Tools...)
		}
	}
	if len(tools) == 0 {
		return nil, errors.New("tool-definition case without tools")
	}
	s := script{Tools: tools}
	if slices.Contains(c.Requires, "mcp_tool_baseline") {
		for _, t := range tools {
			var def map[string]any
			json.Unmarshal(t, &def)
			def["description"] = "Returns " + toolName(t) + " data."
			s.Baseline = append(s.Baseline, mustJSON(def))
		}
	}
	cl, err := p.shim(c, toolName(tools[0]), session, s)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, finish([]*client{cl})) }()
	if len(s.Baseline) > 0 {
		resp, err := cl.request("tools/list", map[string]any{})
		if err != nil {
			return nil, err
		}
		steps = append(steps, step{What: "tools/list baseline", outcome: listOutcome(resp, s.Baseline)})
	}
	resp, err := cl.request("tools/list", map[string]any{})
	if err != nil {
		return nil, err
	}
	return append(steps, step{What: "tools/list", outcome: listOutcome(resp, tools)}), nil
}

// playRequest sends the agent's own request as a PreToolUse hook event:
// a GET with no headers is WebFetch, anything else Bash running curl.
func (p *player) playRequest(pl payload, session string) ([]step, error) {
	tool, input := requestTool(pl)
	out, err := p.d.evaluateHook("PreToolUse", session, hookPayload(session, "PreToolUse", tool, input, nil), false)
	if err != nil {
		return nil, err
	}
	o, err := hookOutcome(out, "")
	if err != nil {
		return nil, err
	}
	return []step{{What: "PreToolUse " + tool, outcome: o}}, nil
}

// playResponse is the agent's WebFetch of the case's page: PreToolUse, then
// PostToolUse with the page as the tool's output, from a hook installed
// with --scan-output (flowd may replace what the model reads).
func (p *player) playResponse(pl payload, session string) ([]step, error) {
	input := map[string]any{"url": pl.URL, "prompt": "Summarise this page."}
	out, err := p.d.evaluateHook("PreToolUse", session, hookPayload(session, "PreToolUse", "WebFetch", input, nil), true)
	if err != nil {
		return nil, err
	}
	pre, err := hookOutcome(out, "")
	if err != nil {
		return nil, err
	}
	steps := []step{{What: "PreToolUse WebFetch", outcome: pre}}
	response := map[string]any{"bytes": len(pl.ResponseBody), "code": 200, "codeText": "OK", "result": pl.ResponseBody,
		"durationMs": 120, "url": pl.URL}
	out, err = p.d.evaluateHook("PostToolUse", session, hookPayload(session, "PostToolUse", "WebFetch", input, response), true)
	if err != nil {
		return steps, err
	}
	post, err := hookOutcome(out, pl.ResponseBody)
	if err != nil {
		return steps, err
	}
	return append(steps, step{What: "PostToolUse WebFetch", outcome: post}), nil
}

// requestTool is the agent's tool call that makes the case's request.
func requestTool(pl payload) (string, map[string]any) {
	method := strings.ToUpper(pl.Method)
	if (method == "" || method == "GET") && len(pl.Headers) == 0 && pl.Body == "" {
		return "WebFetch", map[string]any{"url": pl.URL, "prompt": "Summarise this page."}
	}
	return "Bash", map[string]any{"command": curlCommand(pl), "description": "Send the request"}
}

// curlCommand is the request as a curl command line, each value quoted for
// a POSIX shell.
func curlCommand(pl payload) string {
	method := strings.ToUpper(pl.Method)
	if method == "" {
		method = "GET"
	}
	args := []string{"curl", "-sS", "-X", method}
	keys := make([]string, 0, len(pl.Headers))
	for k := range pl.Headers {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		args = append(args, "-H", shellnorm.Quote(k+": "+pl.Headers[k]))
	}
	if pl.ContentType != "" && pl.Headers["Content-Type"] == "" {
		args = append(args, "-H", shellnorm.Quote("Content-Type: "+pl.ContentType))
	}
	if pl.Body != "" {
		args = append(args, "--data-binary", shellnorm.Quote(pl.Body))
	}
	return strings.Join(append(args, shellnorm.Quote(pl.URL)), " ")
}

// hookPayload is what Claude Code writes to a hook's stdin.
func hookPayload(session, event, tool string, input map[string]any, response any) []byte {
	p := map[string]any{"session_id": session, "transcript_path": "/home/user/.claude/projects/app/" + session + ".jsonl",
		"cwd": "/home/user/src/app", "permission_mode": "default", "hook_event_name": event,
		"tool_name": tool, "tool_use_id": "toolu_" + session, "tool_input": input}
	if response != nil {
		p["tool_response"] = response
	}
	return mustJSON(p)
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("egress: encode %T: %v", v, err)) // maps of strings and numbers: a bug
	}
	return b
}
