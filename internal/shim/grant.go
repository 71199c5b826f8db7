package shim

import (
	"encoding/json"
	"strings"

	"github.com/flowd-dev/flowd/internal/jsonrpc"
	"github.com/flowd-dev/flowd/internal/policy"
	"github.com/flowd-dev/flowd/internal/secretfile"
	"github.com/flowd-dev/flowd/internal/shimproto"
	"github.com/flowd-dev/flowd/internal/unwrap"
)

// grant is what flowd lets this shim forward without waiting for a
// verdict (shimproto.Grant). It belongs to the connection it came on: the
// link drops it with that connection, and a new flowd, or the same one
// after a reconnect, grants afresh.
type grant struct {
	tools   map[string]bool
	hosts   []string
	guarded []string // shimproto.Grant.Guarded
}

func newGrant(g shimproto.Grant) *grant {
	if len(g.Tools) == 0 {
		return nil
	}
	tools := make(map[string]bool, len(g.Tools))
	for _, t := range g.Tools {
		tools[t] = true
	}
	return &grant{tools: tools, hosts: g.Hosts, guarded: g.Guarded}
}

// covers reports whether line is a tools/call the grant lets through: to a
// granted tool, with arguments flowd would read whole (at most maxArgs
// bytes) and a message that name no suspicious host and no private key
// file. The check is flowd's
// own (policy.SuspiciousHost on the arguments, and apart from them on the
// rest of the message, each with its decoded views), so the shim never
// lets through what flowd would deny; anything else waits for a verdict as
// usual.
func (g *grant) covers(line []byte, maxArgs int) bool {
	e, err := jsonrpc.Parse(line)
	if err != nil || e.Kind != jsonrpc.Request || e.Method != "tools/call" || e.Ambiguous != "" {
		return false
	}
	name, args, ok := jsonrpc.ToolCall(e.Params)
	if !ok || !g.tools[name] || len(args) > maxArgs {
		return false
	}
	rest := jsonrpc.Rest(line, args)
	views := unwrap.Views(args)
	return policy.SuspiciousHost(args, views, g.hosts) == "" &&
		policy.SuspiciousHost(rest, unwrap.Views(rest), g.hosts) == "" &&
		!namesKeyMaterial(args, views) && !g.namesGuarded(line, views)
}

// namesGuarded reports whether the message, its strings decoded (JSON
// escapes, path separators) or a decoded view of its arguments, holds a
// name of flowd's own files or the agents' (shimproto.Grant.Guarded):
// self-protection judges such a call, so it waits for its verdict.
func (g *grant) namesGuarded(line []byte, views [][]byte) bool {
	if len(g.guarded) == 0 {
		return false
	}
	var v any
	if json.Unmarshal(line, &v) != nil {
		return true // covers parsed it; anything odd waits for flowd
	}
	var texts []string
	walkStrings(v, func(s string) { texts = append(texts, s) })
	for _, b := range views {
		texts = append(texts, string(b))
	}
	for _, s := range texts {
		s = strings.ToLower(strings.ReplaceAll(s, `\`, "/"))
		for _, name := range g.guarded {
			if strings.Contains(s, name) {
				return true
			}
		}
	}
	return false
}

// walkStrings calls f on every string in v, member names included.
func walkStrings(v any, f func(string)) {
	switch x := v.(type) {
	case string:
		f(x)
	case []any:
		for _, e := range x {
			walkStrings(e, f)
		}
	case map[string]any:
		for k, e := range x {
			f(k)
			walkStrings(e, f)
		}
	}
}

// namesKeyMaterial: a call naming a private key file is judged call by
// call (flowd asks before a tool reads one, policy.KeyRead), whatever was
// granted for the tool.
func namesKeyMaterial(args []byte, views [][]byte) bool {
	if secretfile.NamesKeyMaterial(args) {
		return true
	}
	for _, v := range views {
		if secretfile.NamesKeyMaterial(v) {
			return true
		}
	}
	return false
}
