package upstream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/flow"
	"github.com/flowd-dev/flowd/internal/judge/judgetest"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

// flowCase is one read-then-send flow of the attack suite: a tool result
// from one server, then a tools/call on another server of the same session.
type flowCase struct {
	Name     string `json:"name"`
	Category string `json:"category"`
	// Expect is deny (a secret leaves), flag (anything but allow: private
	// data leaves, or a benign copy flowd cannot tell from one) or allow.
	Expect string `json:"expect"`
	Why    string `json:"why"`
	Source struct {
		Server     string          `json:"server"`
		Tool       string          `json:"tool"`
		Arguments  json.RawMessage `json:"arguments"`
		ResultText string          `json:"result_text"`
	} `json:"source"`
	Dest struct {
		Server    string          `json:"server"`
		Tool      string          `json:"tool"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"dest"`
}

// flowOutcome is what flowd decided about a case's outgoing call.
type flowOutcome struct {
	Decision string // allow, warn, ask or deny
	Reason   string
	Risk     string
	Evidence string // how the send was linked to the read, for a miss's report
}

// met reports whether o is what c expects. A flag is any decision but
// allow for an attack; for a benign flow it must stop short of deny.
func (c flowCase) met(o flowOutcome, benign bool) bool {
	switch c.Expect {
	case "deny":
		return o.Decision == "deny"
	case "flag":
		return o.Decision != "allow" && !(benign && o.Decision == "deny")
	}
	return o.Decision == "allow"
}

func loadFlowCases(t *testing.T, file string, allowed ...string) []flowCase {
	t.Helper()
	path := filepath.Join("testdata", "flows", file)
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var cases []flowCase
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&cases), "decode %s", path)
	names := map[string]bool{}
	for _, c := range cases {
		require.False(t, names[c.Name], "%s: case name %q is used twice", path, c.Name)
		names[c.Name] = true
		require.NotEmpty(t, c.Category, "%s: %q has no category", path, c.Name)
		require.NotEmpty(t, c.Why, "%s: %q does not say why it expects %s", path, c.Name, c.Expect)
		require.Contains(t, allowed, c.Expect, "%s: %q", path, c.Name)
		require.NotEqual(t, c.Source.Server, c.Dest.Server, "%s: %q must cross servers", path, c.Name)
		require.True(t, bytes.HasPrefix(bytes.TrimSpace(c.Dest.Arguments), []byte("{")), "%s: %q: dest arguments must be a JSON object", path, c.Name)
	}
	return cases
}

// runFlowCase replays c in a fresh daemon and session, as two shims of one
// agent would: the read, its result, then the send.
func runFlowCase(t *testing.T, c flowCase) flowOutcome {
	t.Helper()
	d := newEnv(t, nil)
	src := NewStream(1, shimproto.Hello{Name: c.Source.Server}, "attack")
	dst := NewStream(2, shimproto.Hello{Name: c.Dest.Server}, "attack")
	v := judgetest.CallAndAnswer(d.judge, src, 1, c.Source.Tool, compactJSON(t, c.Source.Arguments), c.Source.ResultText)
	require.Equal(t, shimproto.Pass, v.Action, "%s: the read itself must pass", c.Name)
	v = judgetest.CallAndAnswer(d.judge, dst, 2, c.Dest.Tool, compactJSON(t, c.Dest.Arguments), "ok")

	require.NoError(t, d.store.Flush())
	recs, err := d.store.Query(activity.Filter{Type: "tool_call", Server: c.Dest.Server})
	require.NoError(t, err)
	require.Len(t, recs, 1, "%s: one record for the send", c.Name)
	o := flowOutcome{Decision: recs[0].Decision, Reason: recs[0].Reason, Risk: recs[0].RiskLevel, Evidence: evidence(t, recs[0].Details)}
	require.Equal(t, o.Decision == "deny", v.Action == shimproto.Respond, "%s: a denied call, and only that, is answered by flowd", c.Name)
	return o
}

// evidence summarises the flow analysis an activity record carries: each
// edge's kind and the secrets its origin held, so a miss names the
// component that let it through (no secret found in the read, no edge, an
// edge that was not recognised as the secret).
func evidence(t *testing.T, details json.RawMessage) string {
	t.Helper()
	var d struct {
		Flow flow.Analysis `json:"flow"`
	}
	require.NoError(t, json.Unmarshal(details, &d))
	if len(d.Flow.Edges) == 0 {
		return fmt.Sprintf("no edge to the read; secrets seen in the arguments: %v", d.Flow.Secrets)
	}
	var parts []string
	for _, e := range d.Flow.Edges {
		p := e.Kind
		if e.Secret != "" {
			p += " " + e.Secret + " (" + e.Encoding + ")"
		} else if e.Length > 0 {
			p += fmt.Sprintf(" of %d bytes", e.Length)
		}
		parts = append(parts, fmt.Sprintf("%s from %s holding secrets %v", p, e.From.Server, e.From.Secrets))
	}
	return "edges: " + strings.Join(parts, "; ")
}

// compactJSON keeps the bytes of string values as the file has them (a
// case may spell a secret with \u escapes on the wire) and drops the
// file's indentation, which no client sends.
func compactJSON(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	if len(bytes.TrimSpace(raw)) == 0 {
		return "{}"
	}
	var b bytes.Buffer
	require.NoError(t, json.Compact(&b, raw))
	return b.String()
}

// suiteTally counts outcomes, overall and per category.
type suiteTally struct {
	n, met, deny, flag, allow int
}

func (s *suiteTally) add(o flowOutcome, met bool) {
	s.n++
	if met {
		s.met++
	}
	switch o.Decision {
	case "deny":
		s.deny++
	case "allow":
		s.allow++
	default:
		s.flag++
	}
}

func rate(k, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(k) / float64(n)
}

// TestAttackSuite replays the read-then-send flows in testdata/flows and
// measures flowd against its targets: at least 99% of secret exfiltrations
// denied, at least 95% of non-secret internal→external copies flagged, at
// most 1% of benign flows blocked.
func TestAttackSuite(t *testing.T) {
	attacks := loadFlowCases(t, "attacks.json", "deny", "flag")
	benign := loadFlowCases(t, "benign.json", "allow", "flag")
	require.GreaterOrEqual(t, len(attacks), 40, "the suite needs at least 40 attacks")
	require.GreaterOrEqual(t, len(benign), 40, "the suite needs at least 40 benign flows")

	type group struct {
		label  string
		cases  []flowCase
		benign bool
	}
	var secrets, copies []flowCase
	for _, c := range attacks {
		if c.Expect == "deny" {
			secrets = append(secrets, c)
		} else {
			copies = append(copies, c)
		}
	}
	groups := []group{{"secret exfiltration", secrets, false}, {"non-secret copy", copies, false}, {"benign", benign, true}}
	totals := map[string]*suiteTally{}
	cats := map[string]*suiteTally{}
	var misses []string
	for _, g := range groups {
		totals[g.label] = &suiteTally{}
		for _, c := range g.cases {
			o := runFlowCase(t, c)
			met := c.met(o, g.benign)
			totals[g.label].add(o, met)
			key := g.label + " / " + c.Category
			if cats[key] == nil {
				cats[key] = &suiteTally{}
			}
			cats[key].add(o, met)
			if !met {
				reason := o.Reason
				if reason == "" {
					reason = "no rule fired (risk " + o.Risk + ")"
				}
				misses = append(misses, fmt.Sprintf("%s / %s: %q expected %s, got %s: %s\n      %s", g.label, c.Category, c.Name, c.Expect, o.Decision, reason, o.Evidence))
			}
		}
	}

	keys := make([]string, 0, len(cats))
	for k := range cats {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var table strings.Builder
	fmt.Fprintf(&table, "%-48s %5s %11s %5s %5s %5s\n", "group / category", "cases", "as-expected", "deny", "flag", "allow")
	for _, k := range keys {
		s := cats[k]
		fmt.Fprintf(&table, "%-48s %5d %11d %5d %5d %5d\n", k, s.n, s.met, s.deny, s.flag, s.allow)
	}
	t.Logf("per category:\n%s", table.String())

	sec, cp, bn := totals["secret exfiltration"], totals["non-secret copy"], totals["benign"]
	denied := rate(sec.deny, sec.n)
	flagged := rate(cp.deny+cp.flag, cp.n)
	blocked := rate(bn.deny, bn.n)
	changed := rate(bn.deny+bn.flag, bn.n)
	t.Logf("secret exfiltrations denied:      %3d/%-3d = %5.1f%% (target >= 99%%)", sec.deny, sec.n, 100*denied)
	t.Logf("non-secret copies flagged:        %3d/%-3d = %5.1f%% (target >= 95%%)", cp.deny+cp.flag, cp.n, 100*flagged)
	t.Logf("benign flows blocked (deny):      %3d/%-3d = %5.1f%% (target <= 1%%)", bn.deny, bn.n, 100*blocked)
	t.Logf("benign flows changed (not allow): %3d/%-3d = %5.1f%% (%d expected to be flagged)", bn.deny+bn.flag, bn.n, 100*changed, countExpect(benign, "flag"))
	if len(misses) > 0 {
		t.Logf("%d cases not as expected:\n  %s", len(misses), strings.Join(misses, "\n  "))
	}

	assert.GreaterOrEqual(t, denied, 0.99, "secret exfiltrations denied")
	assert.GreaterOrEqual(t, flagged, 0.95, "non-secret internal→external copies flagged")
	assert.LessOrEqual(t, blocked, 0.01, "benign flows blocked")
}

func countExpect(cases []flowCase, expect string) int {
	n := 0
	for _, c := range cases {
		if c.Expect == expect {
			n++
		}
	}
	return n
}
