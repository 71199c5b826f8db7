package shim

import (
	"bytes"
	"encoding/json"
	"sync"

	"github.com/flowd-dev/flowd/internal/jsonrpc"
	"github.com/flowd-dev/flowd/internal/jsontext"
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
	hosts   policy.Hosts
	guarded [][]byte // shimproto.Grant.Guarded
}

func newGrant(g shimproto.Grant) *grant {
	if len(g.Tools) == 0 {
		return nil
	}
	tools := make(map[string]bool, len(g.Tools))
	for _, t := range g.Tools {
		tools[t] = true
	}
	guarded := make([][]byte, len(g.Guarded))
	for i, name := range g.Guarded {
		guarded[i] = []byte(name)
	}
	return &grant{tools: tools, hosts: policy.NewHosts(g.Hosts), guarded: guarded}
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
	return g.hosts.In(args, views) == "" && g.hosts.In(rest, unwrap.Views(rest)) == "" &&
		!namesKeyMaterial(args, views) && !g.namesGuarded(line, views)
}

// namesGuarded reports whether the message, its strings decoded (JSON
// escapes, path separators) or a decoded view of its arguments, holds a
// name of flowd's own files or the agents' (shimproto.Grant.Guarded):
// self-protection judges such a call, so it waits for its verdict. Every
// string of the message is read, member names and each of a repeated
// member's values included, whichever of them the server takes.
//
// It runs on every granted call before the call goes on, on the shim's
// one scheduler slot, so it makes no garbage: each collection delays
// the call it falls on, and decoding the message into values once made
// the internal path's tail (16 collections in 1,500 calls against the
// external path's 2).
func (g *grant) namesGuarded(line []byte, views [][]byte) bool {
	if len(g.guarded) == 0 {
		return false
	}
	if !json.Valid(line) {
		return true // covers parsed it; anything odd waits for flowd
	}
	s := scratches.Get().(*scratch)
	defer s.release()
	for i := 0; ; {
		raw, next, ok := nextString(line, i)
		if !ok {
			break
		}
		i = next
		var decoded bool
		if s.decoded, decoded = jsontext.Decode(s.decoded[:0], raw); !decoded || g.names(s, s.decoded) {
			return true
		}
	}
	for _, v := range views {
		if g.names(s, v) {
			return true
		}
	}
	return false
}

// names reports whether text, lower-cased with its backslashes made
// slashes, holds a guarded name.
func (g *grant) names(s *scratch, text []byte) bool {
	s.folded = policy.AppendLower(s.folded[:0], text)
	for i, c := range s.folded {
		if c == '\\' {
			s.folded[i] = '/'
		}
	}
	for _, name := range g.guarded {
		if bytes.Contains(s.folded, name) {
			return true
		}
	}
	return false
}

// nextString returns the raw contents (between the quotes) of the first
// string in line, valid JSON, at or after i, and where to look for the
// next one.
func nextString(line []byte, i int) (raw []byte, next int, ok bool) {
	at := bytes.IndexByte(line[i:], '"')
	if at < 0 {
		return nil, len(line), false
	}
	start := i + at + 1
	for j := start; j < len(line); j++ {
		switch line[j] {
		case '\\':
			j++ // the escaped character, a quote perhaps
		case '"':
			return line[start:j], j + 1, true
		}
	}
	return nil, len(line), false // not valid JSON after all
}

// scratch is namesGuarded's working memory, kept from one call to the
// next.
type scratch struct{ decoded, folded []byte }

var scratches = sync.Pool{New: func() any { return new(scratch) }}

// maxKeptScratch: past it a large message's buffers are let go rather
// than kept for the small ones after it.
const maxKeptScratch = 64 << 10

func (s *scratch) release() {
	if cap(s.decoded) > maxKeptScratch || cap(s.folded) > maxKeptScratch {
		*s = scratch{}
	}
	scratches.Put(s)
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
