package shim

import (
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
	tools map[string]bool
	hosts []string
}

func newGrant(g shimproto.Grant) *grant {
	if len(g.Tools) == 0 {
		return nil
	}
	tools := make(map[string]bool, len(g.Tools))
	for _, t := range g.Tools {
		tools[t] = true
	}
	return &grant{tools: tools, hosts: g.Hosts}
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
		!namesKeyMaterial(args, views)
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
