package clientconfig

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// Codex keeps its servers in ~/.codex/config.toml as tables:
//
//	[mcp_servers.docs]
//	command = "npx"
//	args = ["-y", "docs-server"]
//	env = { "API_KEY" = "value" }
//
// (docs/config.md in openai/codex; a remote server has url instead of
// command). flowd edits only the command
// and args values of such tables; a server written inline
// (mcp_servers = { docs = {...} }, or dotted keys) is reported and left
// alone.

var tomlOps = syntaxOps{locate: tomlSites, rest: tomlRest}

func editTOML(doc []byte, ch change) (Result, error) { return editSites(doc, tomlOps, ch) }

func tomlRest(doc []byte) (any, error) {
	var v map[string]any
	if err := toml.Unmarshal(doc, &v); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			return nil, fmt.Errorf("line %d, column %d: %s", row, col, de.Error())
		}
		return nil, err
	}
	if servers, ok := v["mcp_servers"].(map[string]any); ok {
		for _, s := range servers {
			if t, ok := s.(map[string]any); ok {
				delete(t, "command")
				delete(t, "args")
			}
		}
	}
	return v, nil
}

func tomlSites(doc []byte) ([]site, error) {
	// The decoder's errors name the line; the parser below then reads a
	// document known to be valid.
	if _, err := tomlRest(doc); err != nil {
		return nil, err
	}
	l := layoutOf(doc)
	var p unstable.Parser
	p.Reset(doc)
	var sites []site
	seen := map[string]bool{}
	inline := func(name string) {
		if !seen[name] {
			seen[name] = true
			sites = append(sites, site{name: name, note: "written inline or with dotted keys; flowd edits servers written as [mcp_servers.NAME] tables"})
		}
	}
	cur := -1           // the server whose table is open
	table := []string{} // the open table's key; empty at the top
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table, cur = keyOf(e.Key()), -1
			if e.Kind == unstable.Table && len(table) == 2 && table[0] == "mcp_servers" {
				seen[table[1]] = true
				sites = append(sites, site{name: table[1]})
				cur = len(sites) - 1
			}
		case unstable.KeyValue:
			key := keyOf(e.Key())
			full := append(append([]string{}, table...), key...)
			switch {
			case len(full) == 1 && full[0] == "mcp_servers" && e.Value().Kind == unstable.InlineTable:
				for c := e.Value().Children(); c.Next(); {
					if c.Node().Kind == unstable.KeyValue {
						inline(keyOf(c.Node().Key())[0])
					}
				}
			case len(full) >= 2 && full[0] == "mcp_servers" && cur < 0:
				inline(full[1])
			case cur >= 0 && len(key) == 1:
				tomlMember(&p, l, &sites[cur], key[0], e)
			}
		}
	}
	if err := p.Error(); err != nil {
		return nil, err
	}
	for i := range sites {
		s := &sites[i]
		if s.note == "" && s.command.end == 0 {
			s.note = "no command"
		}
		s.quote = tomlQuote
	}
	return sites, nil
}

func keyOf(it unstable.Iterator) []string {
	var parts []string
	for it.Next() {
		parts = append(parts, string(it.Node().Data))
	}
	return parts
}

// tomlMember reads one key = value of a server's table into s.
func tomlMember(p *unstable.Parser, l layout, s *site, key string, kv *unstable.Node) {
	v := kv.Value()
	switch key {
	case "url":
		s.note = "remote server (has a url)"
	case "command":
		if v.Kind != unstable.String {
			s.note = "command is not a string"
			return
		}
		s.command = span{int(v.Raw.Offset), int(v.Raw.Offset + v.Raw.Length)}
		args := s.line[min(1, len(s.line)):]
		s.line = append([]string{string(v.Data)}, args...)
		if s.argsEdit == nil {
			s.argsEdit = l.tomlNewArgs(s.command.end)
		}
	case "args":
		if v.Kind != unstable.Array {
			s.note = "args is not a list"
			return
		}
		end := int(kv.Raw.Offset + kv.Raw.Length)
		start := bytes.IndexByte(l.doc[:end][int(kv.Raw.Offset):], '=') + int(kv.Raw.Offset) + 1
		start += bytes.IndexByte(l.doc[start:end], '[')
		var elems []span
		var decoded []string
		for c := v.Children(); c.Next(); {
			n := c.Node()
			if n.Kind != unstable.String {
				s.note = "args holds something other than strings"
				return
			}
			elems = append(elems, span{int(n.Raw.Offset), int(n.Raw.Offset + n.Raw.Length)})
			decoded = append(decoded, string(n.Data))
		}
		style, ok := l.bracketStyle(span{start, end}, elems, "#")
		if !ok {
			s.note = "args holds a comment, which flowd does not rewrite; wrap this server by hand"
			return
		}
		s.args = elems
		cmd := ""
		if len(s.line) > 0 {
			cmd = s.line[0]
		}
		s.line = append([]string{cmd}, decoded...)
		s.argsEdit = l.listEdit(span{start, end}, elems, style, ", ")
	}
}

// tomlNewArgs adds an args line after the command's line.
func (l layout) tomlNewArgs(after int) func(int, [][]byte) edit {
	return func(_ int, elems [][]byte) edit {
		at := after
		for at < len(l.doc) && l.doc[at] != '\n' {
			at++
		}
		if at > after && l.doc[at-1] == '\r' {
			at--
		}
		text := l.nl + l.indent(after) + "args = " + string(l.render(arrayStyle{sep: ", "}, elems))
		return edit{at, at, []byte(text)}
	}
}

// bracketStyle reads the style of the bracketed list at v, whose elements
// are elems; ok is false when something besides blanks and commas lies
// between them (a comment, introduced by one of comment).
func (l layout) bracketStyle(v span, elems []span, comment string) (arrayStyle, bool) {
	gaps := [][]byte{}
	at := v.start + 1
	for _, e := range elems {
		gaps = append(gaps, l.doc[at:e.start])
		at = e.end
	}
	gaps = append(gaps, l.doc[at:v.end-1])
	for _, g := range gaps {
		if len(bytes.Trim(g, " \t\r\n,")) > 0 || strings.ContainsAny(string(g), comment) {
			return arrayStyle{}, false
		}
	}
	last := gaps[len(gaps)-1]
	if bytes.IndexByte(l.doc[v.start:v.end], '\n') >= 0 {
		s := arrayStyle{multiline: true, elemIndent: l.indent(v.start) + l.unit, closeIndent: l.indent(v.end - 1),
			trailingComma: bytes.IndexByte(last, ',') >= 0}
		if len(elems) > 0 && l.startsLine(elems[0].start) {
			s.elemIndent = l.indent(elems[0].start)
		}
		return s, true
	}
	s := arrayStyle{sep: ", "}
	if len(elems) > 0 {
		s.open, s.close = string(gaps[0]), string(last) // render writes an empty list as [], without it
	}
	if len(elems) > 1 {
		s.sep = string(gaps[1])
	}
	return s, true
}

// tomlQuote writes s as a TOML basic string: JSON's escapes are TOML's,
// but for DEL, which TOML wants escaped too.
func tomlQuote(s string) []byte {
	return bytes.ReplaceAll(quote(s), []byte("\x7f"), []byte(`\u007f`))
}
