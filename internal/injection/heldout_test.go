package injection

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// heldout is testdata/heldout.json: texts and tool definitions written by
// hand before the rules of issue 16 (paraphrase, noise, other languages,
// poisoned tools) were written, and never tuned on. It measures how the
// rules carry over; the assertions hold the targets.
type heldout struct {
	Texts []labelledText `json:"texts"`
	Tools []labelledTool `json:"tools"`
}

// labelledText is one text of a measuring set; Tools, when set, are the
// session's tool names.
type labelledText struct {
	ID     string   `json:"id"`
	Attack int      `json:"attack"`
	Tools  []string `json:"tools"`
	Text   string   `json:"text"`
}

// labelledTool is one tool definition of a measuring set.
type labelledTool struct {
	ID       string          `json:"id"`
	Poisoned int             `json:"poisoned"`
	Tool     json.RawMessage `json:"tool"`
}

// textScore is how a set of labelled texts fared: attacks flagged or
// worse (caught), benign texts redacted or blocked (changed) or flagged.
type textScore struct{ attacks, caught, benign, changed, flagged int }

// scoreTexts scans each text in the context ctx gives it and logs every
// attack missed and every benign text acted on.
func scoreTexts(t *testing.T, s *Scanner, texts []labelledText, ctx func(labelledText) Context) textScore {
	t.Helper()
	var sc textScore
	for _, x := range texts {
		r := s.ScanText(x.Text, "text", ctx(x))
		if x.Attack == 1 {
			sc.attacks++
			if r.Action != ActionPass {
				sc.caught++
			} else {
				t.Logf("missed %s: %s", x.ID, r)
			}
			continue
		}
		sc.benign++
		switch r.Action {
		case ActionRedact, ActionBlock:
			sc.changed++
			t.Logf("benign changed %s: %s %v", x.ID, r, excerpts(r))
		case ActionFlag:
			sc.flagged++
			t.Logf("benign flagged %s: %s %v", x.ID, r, excerpts(r))
		}
	}
	return sc
}

func loadHeldout(t *testing.T, name string) heldout {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	require.NoError(t, err)
	var h heldout
	require.NoError(t, json.Unmarshal(data, &h))
	return h
}

// TestHeldoutTexts: attacks must be flagged or worse; benign texts (human
// mail that ignores an earlier one, changelogs, write-ups quoting attacks,
// install docs) must be neither redacted nor blocked.
func TestHeldoutTexts(t *testing.T) {
	s := newScanner(t, Options{})
	ctx := Context{ExternalSource: true, Server: "web"}
	sc := scoreTexts(t, s, loadHeldout(t, "heldout.json").Texts, func(labelledText) Context { return ctx })
	t.Logf("held-out texts: attacks flagged or worse %d/%d (%.1f%%); benign changed %d/%d, flagged %d/%d",
		sc.caught, sc.attacks, pct(sc.caught, sc.attacks), sc.changed, sc.benign, sc.flagged, sc.benign)
	assert.GreaterOrEqual(t, pct(sc.caught, sc.attacks), 90.0, "held-out attacks flagged or worse")
	assert.Zero(t, sc.changed, "held-out benign texts redacted or blocked")
}

// TestHeldoutTools: poisoned definitions must be withheld (block), benign
// ones must not. heldout.json's tools were looked at while the tool rules
// were written, heldout-tools2.json's misses (12/15 withheld on its first
// run) while they were revised; heldout-tools3.json, written before that
// revision, is the one that measures rules not tuned on it.
func TestHeldoutTools(t *testing.T) {
	for _, name := range []string{"heldout.json", "heldout-tools2.json", "heldout-tools3.json"} {
		t.Run(name, func(t *testing.T) { testHeldoutTools(t, name) })
	}
}

func testHeldoutTools(t *testing.T, name string) {
	s := newScanner(t, Options{})
	var poisoned, withheld, benign, wrong int
	for _, c := range loadHeldout(t, name).Tools {
		list := []byte(`{"tools":[` + string(c.Tool) + `]}`)
		found, err := s.ScanTools(list, Context{Server: "third-party"})
		require.NoError(t, err, c.ID)
		action := ActionPass
		var r Result
		if len(found) > 0 {
			r = found[0].Result
			action = r.Action
		}
		if c.Poisoned == 1 {
			poisoned++
			if action == ActionBlock {
				withheld++
			} else {
				t.Logf("not withheld %s: %s", c.ID, r)
			}
			continue
		}
		benign++
		if action == ActionBlock {
			wrong++
			t.Logf("benign withheld %s: %s %v", c.ID, r, excerpts(r))
		}
	}
	t.Logf("%s tools: poisoned withheld %d/%d (%.1f%%); benign withheld %d/%d", name, withheld, poisoned, pct(withheld, poisoned), wrong, benign)
	assert.GreaterOrEqual(t, pct(withheld, poisoned), 95.0, "held-out poisoned tools withheld")
	assert.Zero(t, wrong, "held-out benign tools withheld")
}

// TestReferenceServerTools: the tool lists of the reference MCP servers
// (server-everything, server-filesystem, server-memory, captured from
// their npm packages with tools/list) must pass whole.
func TestReferenceServerTools(t *testing.T) {
	s := newScanner(t, Options{})
	files, err := filepath.Glob("testdata/toollists/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		found, err := s.ScanTools(data, Context{Server: filepath.Base(f)})
		require.NoError(t, err, f)
		for _, fd := range found {
			assert.NotEqual(t, ActionBlock, fd.Result.Action, "%s: %s withheld: %s %v", f, fd.Tool, fd.Result, excerpts(fd.Result))
			if fd.Result.Action != ActionPass {
				t.Logf("%s: %s %s %v", f, fd.Tool, fd.Result, excerpts(fd.Result))
			}
		}
	}
}
