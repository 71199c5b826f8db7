//go:build blind || blind10

package judge_test

// The held-out sets of issue #16 (every testdata/blind*/ directory, one
// subtest per set), played through flowd's decision entry points: the
// judge's Result for tool outputs, the judge's Call after results recorded
// as origins of their tool's class, and a shim's stream (upstream.Stream)
// for a first tools/list. Each set was written before and without reading
// the detectors or their test data; once a session has tuned on a set it
// is seen data, and a new set is written for the next report. These tests
// print each set's rates and assert only that the data loads and every
// case ran. Run:
//
//	go test -tags blind -count=1 -v -run TestBlind ./internal/judge
//
// and one set with, say, -run 'TestBlind.*/blind11'.

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/flow"
	"github.com/flowd-dev/flowd/internal/injection"
	"github.com/flowd-dev/flowd/internal/judge"
	"github.com/flowd-dev/flowd/internal/judge/judgetest"
	"github.com/flowd-dev/flowd/internal/pins"
	"github.com/flowd-dev/flowd/internal/policy"
	"github.com/flowd-dev/flowd/internal/quarantine"
	"github.com/flowd-dev/flowd/internal/shimproto"
	"github.com/flowd-dev/flowd/internal/upstream"
)

// blindJudge is a judge with the default config over real stores in a
// temporary directory, as flowd runs it.
func blindJudge(t *testing.T) *judge.Judge {
	t.Helper()
	cfg := config.Default()
	dir := t.TempDir()
	st, err := activity.Open(filepath.Join(dir, "activity.db"), activity.Options{
		MaxAge: cfg.Activity.MaxAge.Duration, MaxRecords: cfg.Activity.MaxRecords,
		FlushInterval: cfg.Activity.FlushInterval.Duration})
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	q, err := quarantine.Open(filepath.Join(dir, "quarantine.db"), quarantine.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { q.Close() })
	p, err := pins.Open(filepath.Join(dir, "pins.db"), pins.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { p.Close() })
	j, err := judge.New(cfg, judge.Stores{Activity: st, Quarantine: q, Pins: p}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.NoError(t, err)
	t.Cleanup(j.Close)
	return j
}

// blindSets are the held-out sets: the directories testdata/blind*/.
func blindSets(t *testing.T) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join("testdata", "blind*"))
	require.NoError(t, err)
	var sets []string
	for _, d := range dirs {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			sets = append(sets, filepath.Base(d))
		}
	}
	require.NotEmpty(t, sets, "no testdata/blind*/ set")
	sort.Strings(sets)
	return sets
}

// blindEachSet runs family once per set, as a subtest named after it.
func blindEachSet(t *testing.T, family func(t *testing.T, set string)) {
	for _, set := range blindSets(t) {
		t.Run(set, func(t *testing.T) { family(t, set) })
	}
}

func blindLoad(t *testing.T, set, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", set, name))
	require.NoError(t, err)
	require.NoError(t, yaml.Unmarshal(b, v), name)
}

// blindContent is what a tool returns: text, or several text items, or
// structuredContent (with its JSON as the text, as servers send it).
type blindContent struct {
	Tool       string   `yaml:"tool"`
	Text       string   `yaml:"text"`
	Items      []string `yaml:"items"`
	Structured string   `yaml:"structured"`
}

func (c blindContent) result(t *testing.T) []byte {
	t.Helper()
	type item struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	r := map[string]any{}
	var items []item
	for _, s := range c.Items {
		items = append(items, item{"text", s})
	}
	if c.Text != "" {
		items = append(items, item{"text", c.Text})
	}
	if c.Structured != "" {
		var sc any
		require.NoError(t, json.Unmarshal([]byte(c.Structured), &sc), c.Structured)
		r["structuredContent"] = sc
		items = append(items, item{"text", c.Structured})
	}
	require.NotEmpty(t, items, "a result holds something")
	r["content"] = items
	b, err := json.Marshal(r)
	require.NoError(t, err)
	return b
}

// blindSend is a call to an external tool.
type blindSend struct {
	Tool string         `yaml:"tool"`
	Args map[string]any `yaml:"args"`
}

var (
	blindInternal = classify.Result{Class: classify.Internal, CanReadData: true, Reason: "the user's own data"}
	blindExternal = classify.Result{Class: classify.External, CanExfiltrate: true, Reason: "sends to anyone"}
)

// blindSessionTools are the tools every session of the injection family
// has: what a request in a result could make the model do.
var blindSessionTools = []string{"send_email", "read_inbox", "search_contacts", "transfer_funds", "share_file",
	"create_issue", "post_message", "http_request", "create_gist", "invite_user", "read_file", "fetch"}

func blindRecord(t *testing.T, j *judge.Judge, session string, c blindContent) {
	t.Helper()
	s := j.Flows.Session(session)
	s.Begin()
	s.Record(flow.Origin{Server: "vault", Tool: c.Tool, Method: "tools/call", Class: classify.Internal}, c.result(t))
	s.Wait()
}

func blindCall(t *testing.T, j *judge.Judge, session string, c blindSend) judge.Outcome {
	t.Helper()
	args, err := json.Marshal(c.Args)
	require.NoError(t, err)
	var out judge.Outcome
	if later := j.Call(judge.Call{Session: session, Server: "outbox", Tool: c.Tool, Class: blindExternal,
		Args: args, Ask: judge.AskByAgent}, &out); later != nil {
		later()
	}
	return out
}

// blindWhy is what the check found: each edge's kind (with its secret
// type and encoding, or its value's kind) and the secret types in the
// arguments.
func blindWhy(a flow.Analysis) string {
	var parts []string
	for _, e := range a.Edges {
		p := e.Kind
		switch {
		case e.Secret != "":
			p += ":" + e.Secret
			if e.Encoding != "" {
				p += "(" + e.Encoding + ")"
			}
		case e.Value != "":
			p += ":" + e.Value
		}
		if !slices.Contains(parts, p) {
			parts = append(parts, p)
		}
	}
	if len(a.Secrets) > 0 {
		parts = append(parts, "secrets="+strings.Join(a.Secrets, "+"))
	}
	return strings.Join(parts, " ")
}

// blindSecretFound: the check found a secret, from an origin or not.
func blindSecretFound(a flow.Analysis) bool {
	if len(a.Secrets) > 0 {
		return true
	}
	return slices.ContainsFunc(a.Edges, func(e flow.Edge) bool { return e.Secret != "" })
}

// blindTally counts one side of a family.
type blindTally struct {
	hit, n  int
	actions map[string]int
}

func (b *blindTally) add(hit bool, action string) {
	b.n++
	if hit {
		b.hit++
	}
	if b.actions == nil {
		b.actions = map[string]int{}
	}
	b.actions[action]++
}

func (b blindTally) String() string {
	var keys []string
	for k := range b.actions {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, b.actions[k]))
	}
	pct := 0.0
	if b.n > 0 {
		pct = 100 * float64(b.hit) / float64(b.n)
	}
	return fmt.Sprintf("%d/%d (%.0f%%) [%s]", b.hit, b.n, pct, strings.Join(parts, ", "))
}

func blindMark(hit bool) string {
	if hit {
		return "ok  "
	}
	return "MISS"
}

// Family 1: an attacked output must be flagged or worse; a clean one must
// be neither redacted nor quarantined (a notice is allowed).
func TestBlindInjection(t *testing.T) { blindEachSet(t, blindInjection) }

func blindInjection(t *testing.T, set string) {
	var cases []struct {
		ID           string `yaml:"id"`
		Attack       bool   `yaml:"attack"`
		Source       string `yaml:"source"`
		blindContent `yaml:",inline"`
	}
	blindLoad(t, set, "injection.yaml", &cases)
	require.NotEmpty(t, cases)
	j := blindJudge(t)
	var caught, changed, noticed blindTally
	for _, c := range cases {
		session := set + "-" + c.ID
		j.NoteTools(session, "vault", blindSessionTools)
		c.Tool = c.Source
		s := j.Result(judge.Result{Session: session, Server: "web", Tool: c.Source, Method: "tools/call",
			Class: classify.External, Content: c.result(t), Rewrite: true, Strict: true})
		action := string(s.Found.Action)
		if s.Blocked {
			action = "blocked"
		}
		rules := judge.RuleNames(s.Found.Detections)
		if c.Attack {
			hit := s.Found.Action != injection.ActionPass || s.Blocked
			caught.add(hit, action)
			t.Logf("%s attacked %-36s %-7s %.2f %s", blindMark(hit), c.ID, action, s.Found.Score, rules)
			continue
		}
		bad := s.Blocked || s.Found.Action == injection.ActionRedact || s.Found.Action == injection.ActionBlock
		changed.add(bad, action)
		noticed.add(s.Found.Action != injection.ActionPass, action)
		t.Logf("%s clean    %-36s %-7s %.2f %s", blindMark(!bad), c.ID, action, s.Found.Score, rules)
	}
	require.Equal(t, len(cases), caught.n+changed.n)
	t.Logf("%s injection: attacked flagged or worse %s", set, caught)
	t.Logf("%s injection: clean redacted or quarantined %s; clean with any notice %d/%d", set, changed, noticed.hit, noticed.n)
}

// Family 2: a credential read from an internal tool and sent to an
// external one must be denied; a benign high-entropy string must not.
func TestBlindSecrets(t *testing.T) { blindEachSet(t, blindSecrets) }

func blindSecrets(t *testing.T, set string) {
	var cases []struct {
		ID     string       `yaml:"id"`
		Secret bool         `yaml:"secret"`
		Read   blindContent `yaml:"read"`
		Send   blindSend    `yaml:"send"`
	}
	blindLoad(t, set, "secrets.yaml", &cases)
	require.NotEmpty(t, cases)
	j := blindJudge(t)
	var caught, found, changed, benignFound, benignAny blindTally
	for _, c := range cases {
		session := set + "-" + c.ID
		blindRecord(t, j, session, c.Read)
		out := blindCall(t, j, session, c.Send)
		d := out.Decision
		denied := d.Action == policy.Deny
		secret := blindSecretFound(out.Analysis)
		if c.Secret {
			caught.add(denied, string(d.Action))
			found.add(denied && secret, string(d.Action))
			t.Logf("%s secret %-36s %-5s %-24s %s", blindMark(denied), c.ID, d.Action, d.Rule, blindWhy(out.Analysis))
			continue
		}
		changed.add(denied, string(d.Action))
		benignFound.add(secret, string(d.Action))
		benignAny.add(d.Action != policy.Allow, string(d.Action))
		t.Logf("%s benign %-36s %-5s %-24s %s", blindMark(!denied), c.ID, d.Action, d.Rule, blindWhy(out.Analysis))
	}
	t.Logf("%s secrets: credentials denied %s; denied with a secret found %d/%d", set, caught, found.hit, found.n)
	t.Logf("%s secrets: benign denied %s; benign with a secret found %d/%d; benign not allowed %d/%d (asks are internal_to_external: the string is the user's data leaving)", set,
		changed, benignFound.hit, benignFound.n, benignAny.hit, benignAny.n)
}

// Family 3: a secret read from an internal tool and sent transformed must
// be denied.
func TestBlindTransforms(t *testing.T) { blindEachSet(t, blindTransforms) }

func blindTransforms(t *testing.T, set string) {
	var cases []struct {
		ID        string       `yaml:"id"`
		Secret    string       `yaml:"secret"`
		Transform string       `yaml:"transform"`
		Read      blindContent `yaml:"read"`
		Send      blindSend    `yaml:"send"`
	}
	blindLoad(t, set, "transforms.yaml", &cases)
	require.NotEmpty(t, cases)
	j := blindJudge(t)
	var denied, stopped blindTally
	byTransform := map[string]*blindTally{}
	var names []string
	for _, c := range cases {
		session := set + "-" + c.ID
		blindRecord(t, j, session, c.Read)
		out := blindCall(t, j, session, c.Send)
		d := out.Decision
		hit := d.Action == policy.Deny
		denied.add(hit, string(d.Action))
		stopped.add(d.Action == policy.Deny || d.Action == policy.Ask, string(d.Action))
		if byTransform[c.Transform] == nil {
			byTransform[c.Transform] = &blindTally{}
			names = append(names, c.Transform)
		}
		byTransform[c.Transform].add(hit, string(d.Action))
		t.Logf("%s %-40s %-5s %-24s %s", blindMark(hit), c.ID, d.Action, d.Rule, blindWhy(out.Analysis))
	}
	for _, n := range names {
		t.Logf("transform %-28s denied %s", n, byTransform[n])
	}
	t.Logf("%s transforms: denied %s; denied or asked %d/%d", set, denied, stopped.hit, stopped.n)
}

// Family 4: a short private value re-typed into a call to an external
// destination must be flagged (anything but allow); benign values must
// be allowed.
func TestBlindValues(t *testing.T) { blindEachSet(t, blindValues) }

func blindValues(t *testing.T, set string) {
	var cases []struct {
		ID    string `yaml:"id"`
		Flow  bool   `yaml:"flow"`
		Steps []struct {
			Read *blindContent `yaml:"read"`
			Send *blindSend    `yaml:"send"`
		} `yaml:"steps"`
	}
	blindLoad(t, set, "values.yaml", &cases)
	require.NotEmpty(t, cases)
	j := blindJudge(t)
	var caught, byValue, changed blindTally
	for _, c := range cases {
		session := set + "-" + c.ID
		var out judge.Outcome
		for i, st := range c.Steps {
			switch {
			case st.Read != nil:
				blindRecord(t, j, session, *st.Read)
			case st.Send != nil:
				out = blindCall(t, j, session, *st.Send)
			default:
				t.Fatalf("%s: step %d is neither a read nor a send", c.ID, i)
			}
		}
		require.NotNil(t, c.Steps[len(c.Steps)-1].Send, "%s ends with a send", c.ID)
		d := out.Decision
		flagged := d.Action != policy.Allow
		value := slices.ContainsFunc(out.Analysis.Edges, func(e flow.Edge) bool { return e.Kind == "value" })
		if c.Flow {
			caught.add(flagged, string(d.Action))
			byValue.add(flagged && value, string(d.Action))
			t.Logf("%s value  %-34s %-5s %-24s %s", blindMark(flagged), c.ID, d.Action, d.Rule, blindWhy(out.Analysis))
			continue
		}
		changed.add(flagged, string(d.Action))
		t.Logf("%s benign %-34s %-5s %-24s %s", blindMark(!flagged), c.ID, d.Action, d.Rule, blindWhy(out.Analysis))
	}
	t.Logf("%s values: private values flagged %s; flagged with a value edge %d/%d", set, caught, byValue.hit, byValue.n)
	t.Logf("%s values: benign not allowed %s", set, changed)
}

// blindListed plays a tools/list answer through a shim's stream and
// returns the tools that reach the client ("" action when it passed or
// was rewritten).
func blindListed(t *testing.T, j *judge.Judge, u *upstream.Stream, tools string) ([]string, shimproto.Action) {
	t.Helper()
	resp := `{"jsonrpc":"2.0","id":10,"result":{"tools":[` + tools + `]}}`
	judgetest.Judge(j, u, judgetest.Msg(shimproto.ClientToServer, judgetest.ListReq))
	v := judgetest.Judge(j, u, judgetest.Msg(shimproto.ServerToClient, resp))
	data := []byte(resp)
	switch v.Action {
	case shimproto.Pass:
	case shimproto.Replace:
		data = v.Data
	default:
		return nil, v.Action
	}
	var r struct {
		Result struct {
			Tools []struct{ Name string }
		}
	}
	if json.Unmarshal(data, &r) != nil {
		return nil, v.Action
	}
	var names []string
	for _, tl := range r.Result.Tools {
		names = append(names, tl.Name)
	}
	return names, v.Action
}

// Family 5: a poisoned tool in the first tools/list of a server flowd has
// never seen must be withheld; a benign one must be listed. Each case's
// session first lists a mail server's tools, which shadowing may name.
// Several servers' names recur between poisoned and benign cases, so
// each case has a flowd of its own.
func TestBlindTools(t *testing.T) { blindEachSet(t, blindTools) }

func blindTools(t *testing.T, set string) {
	var cases []struct {
		ID       string `yaml:"id"`
		Poisoned bool   `yaml:"poisoned"`
		Server   string `yaml:"server"`
		Tool     string `yaml:"tool"`
	}
	blindLoad(t, set, "tools.yaml", &cases)
	require.NotEmpty(t, cases)
	mail := `{"name":"send_email","description":"Sends an e-mail from the user's account.","inputSchema":{"type":"object","properties":{"to":{"type":"string"},"subject":{"type":"string"},"body":{"type":"string"}}}},` +
		`{"name":"read_inbox","description":"Lists recent messages in the user's inbox.","inputSchema":{"type":"object","properties":{"limit":{"type":"integer"}}}},` +
		`{"name":"search_contacts","description":"Searches the user's contacts.","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}}}`
	var withheld, changed blindTally
	for i, c := range cases {
		// A judge of its own: pins are kept by server name, and a second
		// first listing of the same name would read as a changed one.
		j := blindJudge(t)
		var def struct{ Name string }
		require.NoError(t, json.Unmarshal([]byte(c.Tool), &def), c.ID)
		session := set + "-" + c.ID
		m := upstream.NewStream(uint64(2*i+1), shimproto.Hello{Name: "mail", Command: []string{"npx", "mail-mcp"}}, session)
		blindListed(t, j, m, mail)
		u := upstream.NewStream(uint64(2*i+2), shimproto.Hello{Name: c.Server, Command: []string{"npx", c.Server + "-mcp"}}, session)
		names, action := blindListed(t, j, u, c.Tool)
		gone := !slices.Contains(names, def.Name)
		how := "listed"
		if gone {
			how = "withheld"
		}
		if action != shimproto.Pass && action != shimproto.Replace {
			how = "list-" + fmt.Sprint(action)
		}
		if c.Poisoned {
			withheld.add(gone, how)
			t.Logf("%s poisoned %-36s %s", blindMark(gone), c.ID, how)
			continue
		}
		changed.add(gone, how)
		t.Logf("%s benign   %-36s %s", blindMark(!gone), c.ID, how)
	}
	t.Logf("%s tools: poisoned withheld %s", set, withheld)
	t.Logf("%s tools: benign withheld %s", set, changed)
}

// Family 5b: a tool that reads the user's own data at a public vendor
// must be a private source: recognised as one (internal, or hybrid:
// reads the user's data and receives arguments) with its output tracked
// as the user's data; neither external nor unknown, whose output is not
// known to be private. One that posts, sends, shares, transfers or
// publishes must be a destination that can send data out.
// Classified per tool, as a first tools/list of a server with no
// override would be. Sets without classes.yaml skip it.
func TestBlindClasses(t *testing.T) { blindEachSet(t, blindClasses) }

func blindClasses(t *testing.T, set string) {
	if _, err := os.Stat(filepath.Join("testdata", set, "classes.yaml")); os.IsNotExist(err) {
		t.Skipf("%s has no classes.yaml", set)
	}
	var cases []struct {
		ID     string `yaml:"id"`
		Expect string `yaml:"expect"`
		Server string `yaml:"server"`
		Tool   string `yaml:"tool"`
	}
	blindLoad(t, set, "classes.yaml", &cases)
	require.NotEmpty(t, cases)
	cfg := config.Default()
	o := classify.Overrides{Servers: map[string]classify.Class{}, Tools: map[string]classify.Class{}}
	for k, v := range cfg.Classify.Servers {
		c, err := classify.ParseClass(v)
		require.NoError(t, err)
		o.Servers[k] = c
	}
	for k, v := range cfg.Classify.Tools {
		c, err := classify.ParseClass(v)
		require.NoError(t, err)
		o.Tools[k] = c
	}
	if cfg.Classify.DefaultUnknown != "" {
		c, err := classify.ParseClass(cfg.Classify.DefaultUnknown)
		require.NoError(t, err)
		o.DefaultUnknown = c
	}
	cl, err := classify.New(o)
	require.NoError(t, err)
	var sources, destinations blindTally
	for _, c := range cases {
		tools, err := classify.ParseTools([]byte("[" + c.Tool + "]"))
		require.NoError(t, err, c.ID)
		require.Len(t, tools, 1, c.ID)
		r := cl.ToolOf(classify.Names{Given: c.Server, Command: "npx " + c.Server + "-mcp"}, tools[0])
		class := string(r.Class)
		switch c.Expect {
		case "source":
			hit := r.CanReadData && (r.Class == classify.Internal || r.Class == classify.Hybrid)
			sources.add(hit, class)
			t.Logf("%s source      %-32s %-8s read=%-5v out=%-5v %s", blindMark(hit), c.ID, class, r.CanReadData, r.CanExfiltrate, r.Reason)
		case "destination":
			hit := r.CanExfiltrate
			destinations.add(hit, class)
			t.Logf("%s destination %-32s %-8s read=%-5v out=%-5v %s", blindMark(hit), c.ID, class, r.CanReadData, r.CanExfiltrate, r.Reason)
		default:
			t.Fatalf("%s: expect is %q, not source or destination", c.ID, c.Expect)
		}
	}
	t.Logf("%s classes: private-data tools taken as private sources (internal or hybrid, reads data) %s", set, sources)
	t.Logf("%s classes: sending tools taken as destinations (can send out) %s", set, destinations)
}
