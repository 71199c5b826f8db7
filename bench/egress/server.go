package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// script is what the scripted MCP server plays for one case: the tools it
// lists (Baseline first, when there is one, then Tools on every later
// list) and what each tool call returns.
type script struct {
	Tools    []json.RawMessage          `json:"tools"`
	Baseline []json.RawMessage          `json:"baseline,omitempty"`
	Results  map[string]json.RawMessage `json:"results,omitempty"`
}

// okResult is what a tool returns when the case gives no result: the case
// is about the call, not about what comes back.
var okResult = json.RawMessage(`{"content":[{"type":"text","text":"ok"}]}`)

// serve runs the scripted server on stdin/stdout: newline-delimited
// JSON-RPC, as an MCP stdio server speaks it.
func serve(scriptFile string, in io.Reader, out io.Writer) error {
	b, err := os.ReadFile(scriptFile)
	if err != nil {
		return err
	}
	var s script
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("script %s: %w", scriptFile, err)
	}
	lists := 0
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	w := bufio.NewWriter(out)
	for sc.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name            string `json:"name"`
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &req) != nil || len(req.ID) == 0 || req.Method == "" {
			continue // notifications, and answers to requests it never sends
		}
		var result any
		switch req.Method {
		case "initialize":
			v := req.Params.ProtocolVersion
			if v == "" {
				v = "2025-06-18"
			}
			result = map[string]any{"protocolVersion": v, "capabilities": map[string]any{"tools": map[string]any{"listChanged": true}},
				"serverInfo": map[string]any{"name": "egress-bench", "version": "1"}}
		case "tools/list":
			tools := s.Tools
			if lists == 0 && len(s.Baseline) > 0 {
				tools = s.Baseline
			}
			lists++
			result = map[string]any{"tools": tools}
		case "tools/call":
			r, ok := s.Results[req.Params.Name]
			if !ok {
				r = okResult
			}
			result = r
		case "ping":
			result = map[string]any{}
		default:
			writeLine(w, map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": "method not found"}})
			continue
		}
		writeLine(w, map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
	}
	return sc.Err()
}

func writeLine(w *bufio.Writer, v any) {
	b, _ := json.Marshal(v)
	w.Write(append(b, '\n'))
	w.Flush()
}
