package clientconfig

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Continue keeps its servers in ~/.continue/config.yaml, and in block
// files in .continue/mcpServers/ (docs/customize/deep-dives/mcp.mdx in
// continuedev/continue), as a list:
//
//	mcpServers:
//	  - name: SQLite MCP
//	    command: npx
//	    args:
//	      - "-y"
//	      - "mcp-sqlite"
//	    env: {}
//
// YAML has many ways to write one list; flowd rewrites the two plain ones
// (a block list, one element a line, or a flow list on one line) of
// one-line scalars, and reports any other shape as one it leaves alone.

var yamlOps = syntaxOps{locate: yamlSites, rest: yamlRest}

func editYAML(doc []byte, ch change) (Result, error) { return editSites(doc, yamlOps, ch) }

func yamlRest(doc []byte) (any, error) {
	var v map[string]any
	if err := yaml.Unmarshal(doc, &v); err != nil {
		return nil, err
	}
	if list, ok := v["mcpServers"].([]any); ok {
		for _, s := range list {
			if m, ok := s.(map[string]any); ok {
				delete(m, "command")
				delete(m, "args")
			}
		}
	}
	return v, nil
}

func yamlSites(doc []byte) ([]site, error) {
	dec := yaml.NewDecoder(bytes.NewReader(doc))
	var root yaml.Node
	if err := dec.Decode(&root); err != nil {
		return nil, err
	}
	var more yaml.Node
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) {
		return nil, errors.New("the file holds more than one YAML document; flowd edits files with one")
	}
	if len(root.Content) == 0 {
		return nil, nil
	}
	top := root.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, errors.New("the file holds no YAML mapping")
	}
	_, list := pair(top, "mcpServers")
	if list == nil {
		return nil, nil
	}
	if list.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("line %d: mcpServers is not a list", list.Line)
	}
	y := yamlDoc{layoutOf(doc)}
	var sites []site
	for i, item := range list.Content {
		sites = append(sites, y.site(i, item))
	}
	return sites, nil
}

type yamlDoc struct{ layout }

// pair finds key in the mapping m: the key's node and its value's.
func pair(m *yaml.Node, key string) (k, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			k, v = m.Content[i], m.Content[i+1]
		}
	}
	return k, v
}

func (y yamlDoc) site(i int, item *yaml.Node) site {
	s := site{name: fmt.Sprintf("#%d", i+1), quote: quote}
	if item.Kind != yaml.MappingNode {
		s.note = "not a mapping"
		return s
	}
	if _, n := pair(item, "name"); n != nil && n.Kind == yaml.ScalarNode {
		s.name = n.Value
	}
	_, typ := pair(item, "type")
	_, cmdVal := pair(item, "command")
	cmdKey, _ := pair(item, "command")
	switch {
	case item.Style&yaml.FlowStyle != 0:
		s.note = "written in YAML's flow style ({...}), which flowd does not rewrite"
	case hasKey(item, "uses"):
		s.note = "a block from Continue's hub (uses), not a command"
	case hasKey(item, "url"):
		s.note = "remote server (has a url)"
	case typ != nil && slices.Contains(remoteTypes, typ.Value):
		s.note = "remote server (type " + typ.Value + ")"
	case hasKey(item, "<<"):
		s.note = "uses a YAML merge key (<<), which flowd does not rewrite"
	case cmdVal == nil:
		s.note = "no command"
	}
	if s.note != "" {
		return s
	}
	var ok bool
	if s.command, ok = y.scalar(cmdVal); !ok {
		s.note = "command is not a one-line string"
		return s
	}
	s.line = []string{cmdVal.Value}
	argsKey, args := pair(item, "args")
	if args == nil {
		s.argsEdit = y.newArgs(cmdKey, s.command.end)
		return s
	}
	if args.Kind != yaml.SequenceNode || args.Anchor != "" {
		s.note = "args is not a list"
		return s
	}
	for _, a := range args.Content {
		sp, ok := y.scalar(a)
		if !ok {
			s.note = "args holds something other than one-line strings"
			return s
		}
		s.args = append(s.args, sp)
		s.line = append(s.line, a.Value)
	}
	switch {
	case args.Style&yaml.FlowStyle != 0 && len(s.args) == 0:
		// args: [] becomes a block list, as for a server without args.
		s.argsEdit, ok = y.emptyFlowArgs(argsKey, args)
	case args.Style&yaml.FlowStyle != 0:
		s.argsEdit, ok = y.flowArgs(args, s.args)
		if cmdVal.Style == 0 && !flowSafe(cmdVal.Value) {
			s.wrapNote = "its command, unquoted, would read as something else inside args' [...] list; quote the command, or write args one per line"
		}
	default:
		s.argsEdit, ok = y.blockArgs(argsKey, s.args)
	}
	if !ok {
		s.note = "args holds comments or blank lines, which flowd does not rewrite; wrap this server by hand"
	}
	return s
}

func hasKey(m *yaml.Node, key string) bool { k, _ := pair(m, key); return k != nil }

// offset is where the node's line and column (in characters) fall in the
// document.
func (y yamlDoc) offset(n *yaml.Node) int {
	at := 0
	for line := 1; line < n.Line; line++ {
		i := bytes.IndexByte(y.doc[at:], '\n')
		if i < 0 {
			return len(y.doc)
		}
		at += i + 1
	}
	for col := 1; col < n.Column && at < len(y.doc) && y.doc[at] != '\n'; col++ {
		_, size := utf8.DecodeRune(y.doc[at:])
		at += size
	}
	return at
}

// scalar locates a scalar written on one line; ok is false for anything
// else (a block scalar, a multi-line one, an alias, an anchored or tagged
// one), which flowd does not move.
func (y yamlDoc) scalar(n *yaml.Node) (span, bool) {
	if n.Kind != yaml.ScalarNode || n.Anchor != "" || n.Tag == "!!null" {
		return span{}, false
	}
	start := y.offset(n)
	end := start
	lineEnd := start + bytes.IndexByte(append(y.doc[start:len(y.doc):len(y.doc)], '\n'), '\n')
	switch n.Style {
	case 0:
		end = start + len(n.Value)
		if end > lineEnd || string(y.doc[start:end]) != n.Value {
			return span{}, false
		}
	case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		q := y.doc[start]
		if q != '"' && q != '\'' {
			return span{}, false
		}
		for end = start + 1; end < lineEnd; end++ {
			c := y.doc[end]
			if q == '"' && c == '\\' {
				end++
				continue
			}
			if c == q {
				if q == '\'' && end+1 < lineEnd && y.doc[end+1] == '\'' {
					end++
					continue
				}
				return span{start, end + 1}, true
			}
		}
		return span{}, false
	default:
		return span{}, false
	}
	return span{start, end}, true
}

// flowArgs rewrites a flow list, [a, b], in its own style.
func (y yamlDoc) flowArgs(n *yaml.Node, elems []span) (func(int, [][]byte) edit, bool) {
	start := y.offset(n)
	at := start + 1
	if len(elems) > 0 {
		at = elems[len(elems)-1].end
	}
	for at < len(y.doc) && strings.IndexByte(" \t\r\n,", y.doc[at]) >= 0 {
		at++
	}
	if at >= len(y.doc) || y.doc[start] != '[' || y.doc[at] != ']' {
		return nil, false
	}
	v := span{start, at + 1}
	style, ok := y.bracketStyle(v, elems, "#")
	return y.listEdit(v, elems, style, ", "), ok
}

// flowSafe reports whether a plain scalar means the same in a flow list.
func flowSafe(plain string) bool {
	return !strings.ContainsAny(plain, ",[]{}") && !strings.Contains(plain, ": ") && !strings.Contains(plain, " #") && !strings.HasSuffix(plain, ":")
}

// emptyFlowArgs rewrites "args: []" as a block list, and an empty list
// back as "args: []".
func (y yamlDoc) emptyFlowArgs(key, list *yaml.Node) (func(int, [][]byte) edit, bool) {
	keySpan, ok := y.scalar(key)
	v := y.offset(list)
	if !ok || string(y.doc[keySpan.end:v]) != ": " || !bytes.HasPrefix(y.doc[v:], []byte("[]")) {
		return nil, false
	}
	indent := strings.Repeat(" ", key.Column-1)
	return func(_ int, e [][]byte) edit {
		if len(e) == 0 {
			return edit{keySpan.end, v + 2, []byte(": []")}
		}
		var b bytes.Buffer
		b.WriteString(":")
		for _, el := range e {
			b.WriteString(y.nl + indent + "  - ")
			b.Write(el)
		}
		return edit{keySpan.end, v + 2, b.Bytes()}
	}, true
}

// blockArgs rewrites a block list, one "- element" a line right after the
// key's line.
func (y yamlDoc) blockArgs(key *yaml.Node, elems []span) (func(int, [][]byte) edit, bool) {
	keySpan, ok := y.scalar(key)
	if !ok || len(elems) == 0 {
		return nil, false
	}
	first := y.lineStart(elems[0].start)
	prefix := string(y.doc[first:elems[0].start])
	if strings.Trim(prefix, " ") != "-" || !strings.HasSuffix(prefix, " ") {
		return nil, false
	}
	// Nothing but the colon and the line break between the key and the
	// list, and nothing but one element on each line.
	if head := string(y.doc[keySpan.end:first]); head != ":"+y.nl && head != ":\n" {
		return nil, false
	}
	for i, e := range elems {
		if string(y.doc[y.lineStart(e.start):e.start]) != prefix {
			return nil, false
		}
		end := e.end
		for end < len(y.doc) && y.doc[end] != '\n' && y.doc[end] != '\r' {
			end++
		}
		if len(bytes.TrimRight(y.doc[e.end:end], " \t")) > 0 {
			return nil, false
		}
		if i+1 < len(elems) && y.lineStart(elems[i+1].start) != end+len(y.nl) {
			return nil, false
		}
	}
	end := elems[len(elems)-1].end
	return func(drop int, insert [][]byte) edit {
		e := append(insert, raw(y.doc, elems[drop:])...)
		if len(e) == 0 {
			return edit{keySpan.end, end, []byte(": []")}
		}
		var b bytes.Buffer
		for i, el := range e {
			if i > 0 {
				b.WriteString(y.nl)
			}
			b.WriteString(prefix)
			b.Write(el)
		}
		return edit{first, end, b.Bytes()}
	}, true
}

// newArgs adds args after the command's line, as a block list: a plain
// scalar valid as the command is valid there too, which is not so in a
// flow list.
func (y yamlDoc) newArgs(key *yaml.Node, after int) func(int, [][]byte) edit {
	indent := strings.Repeat(" ", key.Column-1)
	return func(_ int, e [][]byte) edit {
		at := after
		for at < len(y.doc) && y.doc[at] != '\n' && y.doc[at] != '\r' {
			at++
		}
		var b bytes.Buffer
		b.WriteString(y.nl + indent + "args:")
		for _, el := range e {
			b.WriteString(y.nl + indent + "  - ")
			b.Write(el)
		}
		return edit{at, at, b.Bytes()}
	}
}
