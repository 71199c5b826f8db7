package clientconfig

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Action is what Wrap or Unwrap did with one server.
type Action string

const (
	Wrapped   Action = "wrapped"
	Unwrapped Action = "unwrapped"
	Skipped   Action = "skipped"
)

// Server is one MCP server of a config file and what an edit did with it.
type Server struct {
	Project string // the project of a server in ~/.claude.json's "projects"; "" for top-level servers
	Name    string
	Action  Action
	Note    string   // why it was skipped
	Old     []string // the command line before (command, then args); nil when skipped
	New     []string // the command line after
}

// Result is a config file's content after Wrap or Unwrap, and what
// happened to each server in it.
type Result struct {
	Out     []byte
	Servers []Server
}

// Changed reports whether any server was rewritten.
func (r Result) Changed() bool {
	return slices.ContainsFunc(r.Servers, func(s Server) bool { return s.Action != Skipped })
}

// Wrap puts every local (stdio) server of doc behind the shim at shim,
// named by its key: command becomes shim, and args
// ["--name", key, "--", old command, old args...]. It skips remote servers
// and servers already wrapped, so wrapping twice is wrapping once.
// Servers are found under the top-level "mcpServers" and, for Claude
// Code's ~/.claude.json, under every "projects" entry's "mcpServers".
func Wrap(doc []byte, shim string) (Result, error) {
	return claudeJSON.Wrap(doc, shim)
}

// Unwrap restores the command line of every wrapped server of doc: the
// command after the shim's flags, and the args after it. Nothing else is
// removed, so Unwrap(Wrap(doc)) is doc, except that a server written
// without "args" keeps the "args": [] that Wrap had to add.
func Unwrap(doc []byte) (Result, error) {
	return claudeJSON.Unwrap(doc)
}

// server is one entry of an "mcpServers" object, located in the document.
type server struct {
	project string
	name    member
	object  bool // false: the entry is not an object, and fields is empty
	fields  []member
}

var utf8BOM = []byte("\xef\xbb\xbf")

func transform(f Format, doc []byte, one func(layout, server) (Server, []edit)) (Result, error) {
	// Windows editors may start a file with a byte order mark, which
	// encoding/json rejects; it stays where it is.
	body := bytes.TrimPrefix(doc, utf8BOM)
	bom := doc[:len(doc)-len(body)]
	if len(bytes.TrimSpace(body)) == 0 {
		return Result{Out: doc}, nil // a client's fresh, empty config file holds no servers
	}
	parsed := body
	if f.jsonc {
		parsed = blankJSONC(body)
	}
	if err := checkSyntax(parsed); err != nil {
		return Result{}, err
	}
	found, err := servers(parsed, f)
	if err != nil {
		return Result{}, err
	}
	l := layoutOf(parsed)
	var res Result
	var edits []edit
	for _, s := range found {
		srv, e := one(l, s)
		if !untouched(body, parsed, e) {
			// What Wrap rewrites would lose a comment or a trailing comma,
			// and Unwrap could not put it back.
			srv = Server{Project: srv.Project, Name: srv.Name, Action: Skipped,
				Note: "a comment or trailing comma sits in its command line; flowd leaves it as it is (wrap it by hand, or move the comment)"}
			e = nil
		}
		res.Servers = append(res.Servers, srv)
		edits = append(edits, e...)
	}
	res.Out = append(slices.Clip(bom), apply(body, edits)...)
	return res, nil
}

// untouched reports whether the text that edits replace, and the line an
// insertion joins, read the same in body as in parsed, its copy with
// comments blanked.
func untouched(body, parsed []byte, edits []edit) bool {
	for _, e := range edits {
		from := e.start
		if e.start == e.end {
			from = bytes.LastIndexByte(parsed[:e.start], '\n') + 1
		}
		if !bytes.Equal(body[from:e.end], parsed[from:e.end]) {
			return false
		}
	}
	return true
}

// servers finds the entries of the top-level member of f that holds
// servers and, where f has projects, of every project's "mcpServers" (in
// ~/.claude.json).
func servers(doc []byte, f Format) ([]server, error) {
	start := len(doc) - len(bytes.TrimLeft(doc, " \t\r\n"))
	root := span{start, start + len(bytes.TrimSpace(doc))}
	top, ok, err := members(doc, root)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errors.New("the file holds no JSON object")
	}
	key := f.keys[0]
	for _, k := range f.keys {
		if _, ok := last(top, k); ok {
			key = k
			break
		}
	}
	found, err := serversIn(doc, top, key, "")
	if err != nil {
		return nil, err
	}
	projects, ok := last(top, "projects")
	if !ok || !f.projects {
		return found, nil
	}
	ps, _, err := members(doc, projects.value)
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		fields, ok, err := members(doc, p.value)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue // not a project entry flowd understands; Claude Code's to judge
		}
		more, err := serversIn(doc, fields, "mcpServers", p.key)
		if err != nil {
			return nil, fmt.Errorf("project %s: %w", p.key, err)
		}
		found = append(found, more...)
	}
	return found, nil
}

func serversIn(doc []byte, fields []member, key, project string) ([]server, error) {
	m, ok := last(fields, key)
	if !ok {
		return nil, nil
	}
	entries, ok, err := members(doc, m.value)
	if err != nil {
		return nil, err
	}
	if !ok {
		line, _ := position(doc, m.value.start)
		return nil, fmt.Errorf("line %d: %q is not an object", line, key)
	}
	var found []server
	for _, e := range entries {
		fields, object, err := members(doc, e.value)
		if err != nil {
			return nil, err
		}
		found = append(found, server{project: project, name: e, object: object, fields: fields})
	}
	return found, nil
}

// stdio is a local server's command line, located in the document.
type stdio struct {
	command    member
	args       member
	hasArgs    bool
	argSpans   []span
	line       []string // command, then args, decoded
	commandRaw []byte
}

// remoteTypes are the "type" values of servers reached over the network,
// which have no process for the shim to wrap.
var remoteTypes = []string{"http", "sse", "streamable-http", "streamableHttp"}

// remoteFields name the address of a server reached over the network:
// "url" for most clients, "httpUrl" for Gemini CLI, "serverUrl" for
// Windsurf.
var remoteFields = []string{"url", "httpUrl", "serverUrl"}

// stdioOf reads the command line of s; note says why s has none flowd can
// wrap.
func stdioOf(doc []byte, s server) (c stdio, note string) {
	if !s.object {
		return c, "not a JSON object"
	}
	for _, f := range remoteFields {
		if _, ok := last(s.fields, f); ok {
			return c, "remote server (has a " + f + ")"
		}
	}
	if t, ok := last(s.fields, "type"); ok {
		if typ, _ := stringAt(doc, t.value); slices.Contains(remoteTypes, typ) {
			return c, fmt.Sprintf("remote server (type %s)", typ)
		}
	}
	var ok bool
	if c.command, ok = last(s.fields, "command"); !ok {
		return c, "no command"
	}
	fields := s.fields
	if nested, object, _ := members(doc, c.command.value); object {
		// Zed's older shape: "command": {"path": ..., "args": [...]}.
		fields = nested
		if c.command, ok = last(fields, "path"); !ok {
			return c, "no command path"
		}
	}
	command, ok := stringAt(doc, c.command.value)
	if !ok {
		return c, "command is not a string"
	}
	c.line = []string{command}
	c.commandRaw = doc[c.command.value.start:c.command.value.end]
	if c.args, c.hasArgs = last(fields, "args"); !c.hasArgs {
		return c, ""
	}
	if c.argSpans, ok, _ = elements(doc, c.args.value); !ok {
		return c, "args is not a list"
	}
	for _, a := range c.argSpans {
		arg, ok := stringAt(doc, a)
		if !ok {
			return c, "args holds something other than strings"
		}
		c.line = append(c.line, arg)
	}
	return c, ""
}

func (c stdio) argsEdit(l layout) func(drop int, insert [][]byte) edit {
	return l.listEdit(c.args.value, c.argSpans, l.styleOf(c.args, c.argSpans), l.sepAfter(c.args))
}

func wrapOne(l layout, s server, shim string) (Server, []edit) {
	doc := l.doc
	out := Server{Project: s.project, Name: s.name.key, Action: Skipped}
	c, note := stdioOf(doc, s)
	if note != "" {
		out.Note = note
		return out, nil
	}
	if isWrapped(c.line[0], c.line[1:]) {
		out.Note = "already wrapped"
		return out, nil
	}
	// The key and the old command line move into args byte for byte, so
	// that Unwrap can put back exactly what was written.
	args := [][]byte{
		quote("--name"),
		doc[s.name.rawKey.start:s.name.rawKey.end],
		quote("--"),
		c.commandRaw,
	}
	edits := []edit{{c.command.value.start, c.command.value.end, quote(shim)}}
	if c.hasArgs {
		edits = append(edits, c.argsEdit(l)(0, args))
	} else {
		edits = append(edits, edit{c.command.value.end, c.command.value.end, l.argsAfter(c.command, args)})
	}
	out.Action, out.Old = Wrapped, c.line
	out.New = append([]string{shim, "--name", s.name.key, "--"}, c.line...)
	return out, edits
}

// argsAfter writes a new "args" member to follow the member cmd, laid out
// as cmd is: on a line of its own, or on cmd's line.
func (l layout) argsAfter(cmd member, args [][]byte) []byte {
	colon := string(l.doc[cmd.rawKey.end:cmd.value.start]) // ":" with the file's spacing
	if l.startsLine(cmd.rawKey.start) {
		ind := l.indent(cmd.rawKey.start)
		return []byte("," + l.nl + ind + `"args"` + colon + string(l.render(l.newStyle(ind, true, ""), args)))
	}
	sep := l.sepAfter(cmd)
	return []byte(sep + `"args"` + colon + string(l.render(l.newStyle("", false, sep), args)))
}

func unwrapOne(l layout, s server) (Server, []edit) {
	doc := l.doc
	out := Server{Project: s.project, Name: s.name.key, Action: Skipped}
	c, note := stdioOf(doc, s)
	if note != "" {
		out.Note = note
		return out, nil
	}
	if !isWrapped(c.line[0], c.line[1:]) {
		out.Note = "not wrapped"
		return out, nil
	}
	i := innerCommand(c.line[1:])
	if i < 0 {
		out.Note = "wrapped, but no command follows the shim's flags"
		return out, nil
	}
	inner := c.argSpans[i]
	edits := []edit{
		{c.command.value.start, c.command.value.end, doc[inner.start:inner.end]},
		c.argsEdit(l)(i+1, nil),
	}
	out.Action, out.Old, out.New = Unwrapped, c.line, c.line[1+i:]
	return out, edits
}

// isWrapped recognises a server that already runs through a shim: by the
// command's name, or, for a shim renamed or moved, by the arguments Wrap
// writes.
func isWrapped(command string, args []string) bool {
	base := strings.ToLower(command[strings.LastIndexAny(command, `/\`)+1:])
	if strings.TrimSuffix(base, ".exe") == "shim" {
		return true
	}
	return len(args) > 0 && (args[0] == "--name" || strings.HasPrefix(args[0], "--name=")) && slices.Contains(args, "--")
}

// innerCommand is the index in a shim's args of the command it runs, or
// -1. It reads args as the shim's flag parsing does: flags up to "--" or
// the first argument that is not a flag.
func innerCommand(args []string) int {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return i + 1
			}
			return -1
		case a == "-" || !strings.HasPrefix(a, "-"):
			return i
		}
		if name := strings.TrimLeft(a, "-"); name == "name" || name == "socket" {
			i++ // the flag's value
		}
	}
	return -1
}
