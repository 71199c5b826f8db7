package classify

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Overrides is the user's word on classes, from the configuration. Keys are
// matched without regard to case.
type Overrides struct {
	// Servers maps a server name (the shim's --name, serverInfo.name, or
	// the <server> in an agent's mcp__<server>__<tool>) to its class, for
	// all of its tools.
	Servers map[string]Class
	// Tools maps "server/tool", or a bare "tool" for a tool of that name on
	// any server and for agent built-ins ("Bash", "WebFetch"), to a class.
	Tools map[string]Class
	// DefaultUnknown is the class given when no evidence matches; empty
	// means Unknown, which policy treats as a destination that can send
	// data out.
	DefaultUnknown Class
}

// Classifier applies overrides, then heuristics, then DefaultUnknown.
type Classifier struct {
	servers        map[string]Class
	tools          map[string]Class
	defaultUnknown Class
}

// New checks the overrides and builds a Classifier. Classes must be one of
// the four constants; ParseClass turns configuration text into one.
func New(o Overrides) (*Classifier, error) {
	c := &Classifier{servers: map[string]Class{}, tools: map[string]Class{}, defaultUnknown: Unknown}
	if o.DefaultUnknown != "" {
		if valid, err := ParseClass(string(o.DefaultUnknown)); err != nil || valid != o.DefaultUnknown {
			return nil, fmt.Errorf("classify default_unknown: unknown class %q (want internal, external, hybrid or unknown)", o.DefaultUnknown)
		}
		c.defaultUnknown = o.DefaultUnknown
	}
	for _, entry := range []struct {
		what string
		from map[string]Class
		into map[string]Class
	}{{"server", o.Servers, c.servers}, {"tool", o.Tools, c.tools}} {
		for name, cl := range entry.from {
			k := key(name)
			if k == "" || strings.HasPrefix(k, "/") || strings.HasSuffix(k, "/") {
				return nil, fmt.Errorf("classify override for %s %q: name is empty", entry.what, name)
			}
			if valid, err := ParseClass(string(cl)); err != nil || valid != cl {
				return nil, fmt.Errorf("classify override for %s %q: unknown class %q (want internal, external, hybrid or unknown)", entry.what, name, cl)
			}
			if prev, dup := entry.into[k]; dup && prev != cl {
				return nil, fmt.Errorf("classify override for %s %q: conflicts with another spelling of the same name", entry.what, name)
			}
			entry.into[k] = cl
		}
	}
	return c, nil
}

func key(name string) string { return strings.ToLower(strings.TrimSpace(name)) }

// Server classifies an MCP server by its name.
func (c *Classifier) Server(name string) Result {
	r, _ := c.server(name)
	return r
}

// server also tells whether anything but the default decided.
func (c *Classifier) server(name string) (Result, bool) {
	if cl, ok := c.servers[key(name)]; ok {
		return newResult(cl, 1, MethodConfig, fmt.Sprintf("configured: server %q is %s", name, cl)), true
	}
	if f, ok := decide(fmt.Sprintf("server %q", name), nameHits(name, 1)); ok {
		return f.result(MethodHeuristic), true
	}
	return c.fallback(fmt.Sprintf("server %q", name), name), false
}

// Names are what one server is called, and by whom. Given (the client's
// name for it, shim --name) and Command (read from the command that
// starts it) are the user's side; Reported is serverInfo.name, the
// server's claim about itself.
type Names struct {
	Given, Command, Reported string
}

// client is the name the user's side gives: Given, else Command.
func (n Names) client() string {
	if n.Given != "" {
		return n.Given
	}
	return n.Command
}

// ServerOf classifies a server known by several names; see ToolOf.
func (c *Classifier) ServerOf(n Names) Result {
	r, ok := c.server(n.client())
	if n.Reported == "" || key(n.Reported) == key(n.client()) {
		return r
	}
	rr, rok := c.server(n.Reported)
	return reported(r, ok, rr, rok, n.Reported)
}

// ToolOf classifies a tool of a server known by several names. The
// client's name decides; the server's own name, like its annotations, may
// only make flowd more cautious: a mail server that calls itself
// "filesystem" does not become internal, and one that names itself after
// a known service where the client's name says nothing stays unknown.
func (c *Classifier) ToolOf(n Names, t ToolInfo) Result {
	r, ok := c.tool(n.client(), t)
	if n.Reported == "" || key(n.Reported) == key(n.client()) {
		return r
	}
	rr, rok := c.tool(n.Reported, t)
	return reported(r, ok, rr, rok, n.Reported)
}

// reported joins what the server's own name says into r, in the
// cautious direction only. The user's configuration for the client's name
// is final.
func reported(r Result, ok bool, rr Result, rok bool, name string) Result {
	if r.Method == MethodConfig || !rok {
		return r
	}
	joined := join(r.Class, rr.Class)
	if joined == r.Class {
		if rr.Class != r.Class {
			r.Reason += fmt.Sprintf("; the server calls itself %q (serverInfo.name), which would say %s, "+
				"but a server's own name can only make flowd more cautious", name, rr.Class)
		}
		return r
	}
	conf := rr.Confidence
	if ok {
		conf = min(r.Confidence, rr.Confidence)
	}
	out := newResult(joined, conf, r.Method, r.Reason+fmt.Sprintf("; and the server calls itself %q (serverInfo.name): %s", name, rr.Reason))
	out.CanReadData = out.CanReadData || r.CanReadData || rr.CanReadData
	out.CanExfiltrate = out.CanExfiltrate || r.CanExfiltrate || rr.CanExfiltrate
	return out
}

// join is the class with the capabilities of both: what either could do,
// the tool is taken to do.
func join(a, b Class) Class {
	switch {
	case a == b:
		return a
	case a == Hybrid || b == Hybrid:
		return Hybrid
	case a == Internal && b == Unknown, a == Unknown && b == Internal:
		return Unknown
	}
	return Hybrid // internal and external, external and unknown
}

// ToolInfo is what tools/list says about a tool.
type ToolInfo struct {
	Name        string
	Description string
	// Params are the keys of a hook event's input; a "url" parameter is
	// evidence.
	Params []string
	// InputSchema is the tool's inputSchema as tools/list gave it: its
	// property names, descriptions and formats are evidence.
	InputSchema json.RawMessage
	// Annotation hints; nil when the server did not send them.
	ReadOnlyHint, DestructiveHint, OpenWorldHint *bool
}

// Weights for the weaker sources of tool evidence. Descriptions are prose
// written by the server's author and are only consulted when the name and
// parameters say nothing.
const (
	paramFactor       = 0.8
	descriptionFactor = 0.7
)

// Tool classifies one tool of an MCP server. server is "" for an agent's own
// tools; then t.Name may also be a built-in ("Read") or mcp__<server>__<tool>.
//
// Server and tool evidence combine as follows, the server deciding where
// the tool's data lives and the tool what it does with it:
//   - an external or transport word in the tool (send, fetch, gist) on an
//     internal server makes the tool hybrid: it can read the server's data
//     and carry it out. A tool that only reads and merely names an outside
//     thing (github's list_notifications) stays internal;
//   - an internal word in a tool of an external server (slack's list_files)
//     names what the tool handles, not where it goes: external;
//   - a specific tool word narrows a generic hybrid server (aws's
//     s3_list_buckets → internal, ses_send_email → external);
//   - a write to a code host (github's create_issue, push_files) is hybrid:
//     repositories and issues are often public, so writing there can
//     publish data even though reading there cannot leak it. Ticket systems
//     and wikis are usually private to an organisation and stay internal.
//
// DestructiveHint is accepted but not used: whether a tool destroys data
// says nothing about where data goes.
func (c *Classifier) Tool(server string, t ToolInfo) Result {
	r, _ := c.tool(server, t)
	return r
}

// tool also tells whether anything but the default decided.
func (c *Classifier) tool(server string, t ToolInfo) (Result, bool) {
	if r, ok := c.override(server, t.Name); ok {
		return r, true
	}
	if server == "" {
		if r, ok := builtin(t.Name); ok {
			return r, true
		}
		if s, name, ok := splitMCPName(t.Name); ok {
			t.Name = name
			return c.tool(s, t)
		}
	}
	params := schemaParams(t.InputSchema)
	for _, p := range t.Params {
		params = append(params, param{name: p})
	}
	srv, srvOK := decide(fmt.Sprintf("server %q", server), nameHits(server, 1))
	tool, toolOK := toolFinding(t, params)
	writes, reads, writesOnly := toolActions(t)
	f, ok := combine(srv, srvOK, tool, toolOK, writes, reads)
	if e, found := egress(params, writes); found {
		f, ok = applyEgress(f, ok, e)
	}
	// A mailbox or a chat history is private data only to a tool that
	// reads it; one that only sends returns none.
	why, private := privateRead(t, writesOnly)
	if !private && ok && f.private && !writesOnly {
		why, private = fmt.Sprintf("tool %q reads what the user keeps there", t.Name), true
	}
	f.private = false
	if private {
		f, ok = applyPrivate(f, ok, why)
	}
	f, ok, method := applyOpenWorldHint(f, ok, t, srvOK && srv.class == Internal && srv.conf >= strongName)
	if !ok {
		subject := fmt.Sprintf("tool %q", t.Name)
		if server != "" {
			subject = fmt.Sprintf("server %q, tool %q", server, t.Name)
		}
		return c.fallback(subject, server+" "+t.Name), false
	}
	return f.result(method), true
}

func (c *Classifier) override(server, tool string) (Result, bool) {
	if server != "" {
		if cl, ok := c.tools[key(server)+"/"+key(tool)]; ok {
			return newResult(cl, 1, MethodConfig, fmt.Sprintf("configured: tool %q of server %q is %s", tool, server, cl)), true
		}
	}
	if cl, ok := c.tools[key(tool)]; ok {
		return newResult(cl, 1, MethodConfig, fmt.Sprintf("configured: tool %q is %s", tool, cl)), true
	}
	if server != "" {
		if cl, ok := c.servers[key(server)]; ok {
			return newResult(cl, 1, MethodConfig, fmt.Sprintf("configured: server %q is %s", server, cl)), true
		}
	}
	return Result{}, false
}

// fallbackConfidence is low on purpose: policy should be able to tell a
// default from a finding.
const fallbackConfidence = 0.2

func (c *Classifier) fallback(subject, names string) Result {
	reason := fmt.Sprintf("%s: no known kind of service in %q, class unknown", subject, strings.Join(meaningful(names), " "))
	if c.defaultUnknown != Unknown {
		reason += fmt.Sprintf(", treated as %s (default_unknown)", c.defaultUnknown)
	} else {
		reason += ", so treated as able to send data out"
	}
	return newResult(c.defaultUnknown, fallbackConfidence, MethodHeuristic, reason)
}

func toolFinding(t ToolInfo, params []param) (finding, bool) {
	hits := nameHits(t.Name, 1)
	for _, p := range params {
		hits = append(hits, tokenHits(p.name, paramFactor)...)
	}
	if len(hits) > 0 {
		return decide(fmt.Sprintf("tool %q", t.Name), hits)
	}
	return decide(fmt.Sprintf("description of tool %q", t.Name), tokenHits(t.Description, descriptionFactor))
}

// toolActions tells whether a tool puts content somewhere, whether its
// name says it reads, and whether putting is all its name says it does
// (send_email, as against search_emails). The name's verbs win over readOnlyHint=true: a server
// claiming "read only" for create_issue is the case annotations must not
// be trusted for.
func toolActions(t ToolInfo) (writes, reads, writesOnly bool) {
	for _, tok := range tokens(t.Name) {
		writes = writes || writeVerbs[tok]
		reads = reads || readVerbs[tok]
	}
	if !writes && !reads && t.ReadOnlyHint != nil && !*t.ReadOnlyHint {
		writes = true
	}
	return writes, reads, writes && !reads
}

func combine(srv finding, srvOK bool, tool finding, toolOK bool, writes, reads bool) (finding, bool) {
	var f finding
	switch {
	case !srvOK && !toolOK:
		return finding{}, false
	case !toolOK:
		f = srv
	case !srvOK:
		f = tool
		if f.class == Internal {
			// Only the server wrote its tools' names and descriptions: they
			// may make flowd more careful, never trust a server nothing else
			// vouches for. What such a tool returns is still the user's
			// data; what it is sent may leave (a "write_file" of a server
			// called todo-helper must not receive secrets unasked).
			f.class = Hybrid
			f.reason += ", but only the server's own words say so: what it is sent may leave"
		}
	case srv.class == tool.class:
		f = srv
		f.conf = min(max(srv.conf, tool.conf)+agreeBonus, maxHeuristic)
		f.reason = srv.reason + "; " + tool.reason
	case srv.class == Internal && tool.class == External:
		// Only a name that says it reads makes the outside thing what the
		// tool reads about (list_notifications); one that names no verb
		// (translate, geocode) may as well hand it what it is sent (found
		// by red team RT6: docs/translate read as internal).
		if tool.transport || writes || !reads {
			f = finding{class: Hybrid, conf: min(srv.conf, tool.conf), reason: srv.reason + ", but " + tool.reason}
		} else {
			f = srv
			f.reason = srv.reason + "; the tool only reads, so " + tool.reason + " is what it reads about"
		}
	case srv.class == External && tool.class == Internal:
		f = srv
		f.reason = srv.reason + "; " + tool.reason + " is what it handles there"
	case srv.class == Hybrid && tool.conf > srv.conf:
		f = tool
		f.reason = tool.reason + ", narrowing " + srv.reason
	default:
		f = finding{class: Hybrid, conf: min(srv.conf, tool.conf), reason: srv.reason + "; " + tool.reason}
	}
	f.private = srv.private || tool.private
	f.shared = srv.shared || tool.shared
	if f.class == Internal && f.shared && writes {
		f.class = Hybrid
		f.conf = min(f.conf, 0.8)
		f.reason += "; the tool writes where others may read it"
	}
	return f, true
}

// An annotation's claim is the server's word about itself: it decides at
// hintConfidence, caps a class it changes at strongName and takes
// hintPenalty off a name it contradicts. strongName is also the confidence
// at which the server's name outweighs an open-world claim.
const (
	strongName     = 0.8
	hintConfidence = 0.6
	hintPenalty    = 0.1
)

// applyOpenWorldHint folds in the tool's own claim about reaching the
// outside world. An absent hint is the spec's default (true) and says
// nothing specific about this tool, so it is not used. The claim comes from
// the server being judged, so it counts in one direction only: open world
// (true) makes a tool able to send whatever the tool's own name says (the
// server wrote that too: everything's gzip-file-as-resource fetches a URL),
// because believing it costs only caution; closed world (false) decides
// only when nothing else did, and otherwise just lowers confidence in a
// name that says the tool sends. The one thing an open-world claim does not
// outweigh is a server name the client gave that says internal
// (localServer): SDKs such as mcp-go send openWorldHint=true on every tool
// by default, so on a postgres server it is noise, not a statement.
func applyOpenWorldHint(f finding, ok bool, t ToolInfo, localServer bool) (finding, bool, string) {
	if t.OpenWorldHint == nil {
		return f, ok, MethodHeuristic
	}
	open := *t.OpenWorldHint
	claim := fmt.Sprintf("tool %q declares openWorldHint=%t", t.Name, open)
	hinted := Internal
	if open {
		hinted = External
	}
	if !ok {
		if !open {
			// Nothing vouches for the server, and its own word may not
			// make it trusted (see combine).
			return f, false, MethodHeuristic
		}
		return finding{class: hinted, conf: hintConfidence, reason: claim}, true, MethodAnnotation
	}
	agrees := open == (f.class != Internal)
	switch {
	case agrees:
		f.conf = min(f.conf+agreeBonus, maxHeuristic)
		f.reason += "; " + claim
	case open && !localServer:
		f.class = Hybrid
		f.conf = min(f.conf, strongName)
		f.reason += "; but " + claim + ", so it also reaches outside"
		return f, true, MethodAnnotation
	default:
		f.conf -= hintPenalty
		f.reason += "; " + claim + ", not trusted over the name"
	}
	return f, true, MethodHeuristic
}

// AgentTool classifies a tool call seen by an agent hook: a built-in such
// as Read or WebFetch, Bash (judged by its command), or an MCP tool named
// mcp__<server>__<tool>.
func (c *Classifier) AgentTool(name string, input map[string]any) Result {
	if r, ok := c.override("", name); ok {
		return r
	}
	if strings.EqualFold(name, "Bash") {
		if cmd, _ := input["command"].(string); strings.TrimSpace(cmd) != "" {
			return BashCommand(cmd)
		}
	}
	params := make([]string, 0, len(input))
	for k := range input {
		params = append(params, k)
	}
	sort.Strings(params)
	return c.Tool("", ToolInfo{Name: name, Params: params})
}

// splitMCPName splits an agent's name for an MCP tool, mcp__<server>__<tool>.
// The server part ends at the first "__"; tool names may contain more.
func splitMCPName(name string) (server, tool string, ok bool) {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok {
		return "", "", false
	}
	server, tool, ok = strings.Cut(rest, "__")
	if !ok || server == "" || tool == "" {
		return "", "", false
	}
	return server, tool, true
}
