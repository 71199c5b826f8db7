package classify

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// heldOutCase is one tool of testdata/heldout.json, in tools/list shape.
type heldOutCase struct {
	Server   string   `json:"server"`
	Reported bool     `json:"reported"` // Server is the server's own name; Command is the client's side
	Command  []string `json:"command"`
	Tool     struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema"`
		Annotations struct {
			ReadOnlyHint  *bool `json:"readOnlyHint"`
			OpenWorldHint *bool `json:"openWorldHint"`
		} `json:"annotations"`
	} `json:"tool"`
	Private *bool `json:"private"`
	Sends   *bool `json:"sends"`
}

// TestHeldOut measures the classifier on tools written before its
// per-tool rules (heldout.json) or before their last changes
// (heldout2.json), and never used to tune them: whether a tool that can
// send is treated as a destination, and whether one that returns the
// user's data is a private source. The floors are just under the rates
// first measured, so a change that loses generality fails here.
func TestHeldOut(t *testing.T) {
	// private3-report.json's floor is its first measurement: 11/12 (a
	// wallet service named "…vault" taken for a secret store).
	for file, sendsFloor := range map[string]float64{"heldout.json": 0.95, "heldout2.json": 0.95,
		"private3-tune.json": 0.95, "private3-report.json": 0.9} {
		t.Run(file, func(t *testing.T) { heldOut(t, file, sendsFloor) })
	}
}

func heldOut(t *testing.T, name string, sendsFloor float64) {
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	var file struct {
		Cases []heldOutCase `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(data, &file))
	c := newDefault(t)
	var sendsRight, sendsAll, privRight, privAll, benignSends, benignAll, privFound, privWanted int
	for _, tc := range file.Cases {
		info := ToolInfo{Name: tc.Tool.Name, Description: tc.Tool.Description, InputSchema: tc.Tool.InputSchema,
			ReadOnlyHint: tc.Tool.Annotations.ReadOnlyHint, OpenWorldHint: tc.Tool.Annotations.OpenWorldHint}
		names := Names{Given: tc.Server}
		if tc.Reported {
			names = Names{Command: scriptName(tc.Command), Reported: tc.Server}
		}
		r := c.ToolOf(names, info)
		sends := r.Class != Internal
		private := r.Class != External
		if tc.Sends != nil {
			sendsAll++
			if sends == *tc.Sends {
				sendsRight++
			} else {
				t.Logf("sends: want %t, got %s: %s/%s: %s", *tc.Sends, r.Class, tc.Server, tc.Tool.Name, r.Reason)
			}
			if !*tc.Sends {
				benignAll++
				if sends {
					benignSends++
				}
			}
		}
		if tc.Private != nil && *tc.Private {
			// Unknown counts as a private source too; found means the
			// evidence said so, not the default.
			privWanted++
			if private && r.Confidence > fallbackConfidence {
				privFound++
			}
		}
		if tc.Private != nil {
			privAll++
			if private == *tc.Private {
				privRight++
			} else {
				t.Logf("private: want %t, got %s: %s/%s: %s", *tc.Private, r.Class, tc.Server, tc.Tool.Name, r.Reason)
			}
		}
	}
	t.Logf("held out: destination right %d/%d, private source right %d/%d (found by evidence, not the default: %d/%d), local tools taken as destinations %d/%d",
		sendsRight, sendsAll, privRight, privAll, privFound, privWanted, benignSends, benignAll)
	require.GreaterOrEqual(t, float64(sendsRight)/float64(sendsAll), sendsFloor)
	require.GreaterOrEqual(t, float64(privRight)/float64(privAll), 0.9)
	require.GreaterOrEqual(t, float64(privFound)/float64(privWanted), 0.9)
	require.Zero(t, benignSends)
}

// scriptName stands in for the daemon's naming of a server by its
// command, for the cases that give one: the script or package name.
func scriptName(cmd []string) string {
	if len(cmd) == 0 {
		return ""
	}
	p := cmd[len(cmd)-1]
	for {
		base := strings.TrimSuffix(filepath.Base(p), filepath.Ext(p))
		if base != "index" && base != "main" && base != "server" || filepath.Dir(p) == p {
			return base
		}
		p = filepath.Dir(p)
	}
}
