package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// benchCase is one agent-egress-bench case (schemas/case.schema.json), the
// fields the adapter reads.
type benchCase struct {
	ID             string          `json:"id"`
	Category       string          `json:"category"`
	InputType      string          `json:"input_type"`
	Transport      string          `json:"transport"`
	Payload        json.RawMessage `json:"payload"`
	Expected       string          `json:"expected_verdict"`
	CapabilityTags []string        `json:"capability_tags"`
	Requires       []string        `json:"requires"`
	SafeExample    bool            `json:"safe_example"`
}

// payload is every payload shape of the corpus in one struct: HTTP cases
// fill the first fields, MCP cases JSONRPCMessages.
type payload struct {
	Method          string            `json:"method"`
	URL             string            `json:"url"`
	ContentType     string            `json:"content_type"`
	Body            string            `json:"body"`
	Headers         map[string]string `json:"headers"`
	ResponseBody    string            `json:"response_body"`
	JSONRPCMessages []json.RawMessage `json:"jsonrpc_messages"`
}

// message is one of a case's JSON-RPC messages: a tools/call the client
// sends, or a result the server gives.
type message struct {
	Method string `json:"method"`
	Params struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"params"`
	Result json.RawMessage `json:"result"`
}

func parseCase(b []byte) (benchCase, error) {
	var c benchCase
	if err := json.Unmarshal(b, &c); err != nil {
		return c, err
	}
	if c.ID == "" || c.Category == "" || c.InputType == "" {
		return c, fmt.Errorf("case without id, category or input_type")
	}
	if c.Expected != verdictBlock && c.Expected != verdictAllow {
		return c, fmt.Errorf("case %s: expected_verdict %q is neither block nor allow", c.ID, c.Expected)
	}
	return c, nil
}

func (c benchCase) payload() (payload, error) {
	var p payload
	if err := json.Unmarshal(c.Payload, &p); err != nil {
		return p, fmt.Errorf("case %s: payload: %w", c.ID, err)
	}
	return p, nil
}

// messages decodes the case's JSON-RPC messages.
func (p payload) messages() ([]message, error) {
	out := make([]message, len(p.JSONRPCMessages))
	for i, raw := range p.JSONRPCMessages {
		if err := json.Unmarshal(raw, &out[i]); err != nil {
			return nil, fmt.Errorf("jsonrpc_messages[%d]: %w", i, err)
		}
	}
	return out, nil
}

// loadCorpus reads every cases/*/*.json under dir, sorted by category and
// id so that runs compare line by line.
func loadCorpus(dir string) ([]benchCase, error) {
	files, err := filepath.Glob(filepath.Join(dir, "cases", "*", "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no cases under %s (want cases/<category>/*.json; pass -corpus DIR)", dir)
	}
	var cases []benchCase
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		c, err := parseCase(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		cases = append(cases, c)
	}
	sort.Slice(cases, func(i, j int) bool {
		if cases[i].Category != cases[j].Category {
			return cases[i].Category < cases[j].Category
		}
		return cases[i].ID < cases[j].ID
	})
	return cases, nil
}

// profile is the tool profile of schemas/tool-profile.schema.json.
type profile struct {
	SchemaVersion int             `json:"schema_version"`
	Tool          string          `json:"tool"`
	ToolVersion   string          `json:"tool_version"`
	RunnerVersion string          `json:"runner_version"`
	Claims        []string        `json:"claims"`
	Supports      map[string]bool `json:"supports"`
}

// flowdProfile is what a stdio MCP proxy with Claude Code hooks can see,
// claimed whether or not flowd detects it yet: a claim decides which cases
// count, not which pass. What it cannot see is not claimed:
//   - websocket frames and A2A traffic never pass through a shim or a hook;
//   - tls_interception: flowd is no network proxy, so the MITM cases, which
//     need one, do not apply; the response cases that need only
//     response_scanning are played as the agent's WebFetch;
//   - dns_rebinding_fixture: the adapter has no DNS of its own.
//
// domain_blocklist is policy.suspicious_endpoints, which the adapter seeds
// as RUNNER.md asks (seedBlocklist); the rest of the config is the default.
//
// fetch_proxy and http_proxy mean here: the request reaches flowd as the
// agent's own WebFetch or Bash curl through `hook evaluate`, and mcp_http
// cases are sent over stdio (the same tools/call).
func flowdProfile(version string) profile {
	return profile{
		SchemaVersion: 1, Tool: "flowd", ToolVersion: version, RunnerVersion: "1",
		Claims: []string{"url_dlp", "request_body_dlp", "header_dlp", "response_injection", "mcp_input_scan",
			"mcp_tool_poison", "mcp_chain", "ssrf", "entropy", "encoding_evasion", "benign", "ssrf_bypass",
			"shell_obfuscation", "crypto_dlp", "hostname_exfil", "domain_blocklist"},
		Supports: map[string]bool{
			"fetch_proxy": true, "http_proxy": true, "mcp_stdio": true, "mcp_http": true, "websocket": false,
			"tls_interception": false, "request_body_scanning": true, "header_scanning": true,
			"response_scanning": true, "mcp_tool_baseline": true, "mcp_chain_memory": true, "a2a": false,
			"websocket_frame_scanning": false, "a2a_scanning": false, "shell_analysis": true,
			"dns_rebinding_fixture": false,
		},
	}
}

// notApplicable says why a case does not apply to the profile (SPEC.md,
// Applicability), or "" when it does.
func (p profile) notApplicable(c benchCase) string {
	var why []string
	for _, t := range c.CapabilityTags {
		if !slices.Contains(p.Claims, t) {
			why = append(why, "capability "+t+" not claimed")
		}
	}
	for _, r := range c.Requires {
		if !p.Supports[r] {
			why = append(why, "requires "+r)
		}
	}
	return strings.Join(why, ", ")
}
