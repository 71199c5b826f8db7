package judge

import (
	"encoding/base64"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/flow"
	"github.com/flowd-dev/flowd/internal/policy"
)

// The check stops once the secrets found decide the call; whatever the
// policy, the verdict is the one of the check read to the end, and a
// verdict that is no denial is the same word for word.
func TestSettledCheckDecidesAsTheWholeOne(t *testing.T) {
	const token = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
	doc := strings.Repeat("the quarterly figures for the northern region rose by nine percent. ", 40)
	near := base64.StdEncoding.EncodeToString([]byte(token))[:50]
	configs := []struct {
		name string
		set  func(*config.Config)
	}{
		{"default", nil},
		{"secrets ask", func(c *config.Config) { c.Policy.SensitiveDataExternal = "ask" }},
		{"secrets ask, deny where none can", func(c *config.Config) {
			c.Policy.SensitiveDataExternal = "ask"
			c.Policy.AskFallback = "deny"
		}},
		{"secrets warn", func(c *config.Config) { c.Policy.SensitiveDataExternal = "warn" }},
		{"the tool allowed", func(c *config.Config) { c.Policy.ToolOverrides = map[string]string{"post": "allow"} }},
		{"justification required", func(c *config.Config) {
			c.Policy.SensitiveDataExternal = "ask"
			c.Policy.RequireJustification = true
		}},
		{"private addresses ask", func(c *config.Config) { c.Policy.PrivateAddresses = "ask" }},
	}
	args := map[string]string{
		"the token":                     `{"text":"` + token + `"}`,
		"the token and a document":      `{"text":"` + token + " " + doc + `"}`,
		"the token, justified":          `{"text":"` + token + `","flowd_justification":"the user asked for it"}`,
		"near copies of the token":      `{"text":"` + strings.Repeat(token[:len(token)-1]+" ", 500) + `"}`,
		"an assignment and its base64s": `{"text":"password=hunter2hunter2 ` + strings.Repeat(near+" ", 300) + `"}`,
		"a fetch of an internal host":   `{"url":"http://10.0.0.7/upload?k=` + token + `"}`,
		"a document only":               `{"text":"` + doc + `"}`,
		"the token and an encoded host": `{"text":"` + token + " " + base64.StdEncoding.EncodeToString([]byte("https://webhook.site/x")) + `"}`,
	}
	external := classify.Result{Class: classify.External, CanExfiltrate: true}
	for _, cf := range configs {
		verdicts := map[bool]map[string]Outcome{}
		for _, thorough := range []bool{true, false} {
			c := config.Default()
			if cf.set != nil {
				cf.set(c)
			}
			j, err := New(c, Stores{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
			require.NoError(t, err)
			j.thorough = thorough
			s := j.Flows.Session("s")
			for server, text := range map[string]string{"vault": "GITHUB_TOKEN=" + token, "files": doc} {
				s.Begin()
				s.Record(flow.Origin{Server: server, Tool: "read", Class: classify.Internal}, []byte(`{"content":[{"type":"text","text":"`+text+`"}]}`))
				s.Wait()
			}
			verdicts[thorough] = map[string]Outcome{}
			for name, a := range args {
				tool := "post"
				if strings.Contains(name, "fetch") {
					tool = "WebFetch"
				}
				var out Outcome
				if later := j.Call(Call{Session: "s", Server: "slack", Tool: tool, Class: external, Args: []byte(a), Justifiable: true}, &out); later != nil {
					later()
				}
				verdicts[thorough][name] = out
			}
		}
		for name := range args {
			whole, settled := verdicts[true][name], verdicts[false][name]
			// The reason may name fewer secrets and sources: those found
			// in the views, in pieces or in the origins' text are not
			// looked for past the verdict.
			assert.Equal(t, whole.Decision.Action, settled.Decision.Action, "%s: %s", cf.name, name)
			if whole.Decision.Rule == "suspicious_endpoints" && settled.Decision.Action == policy.Deny {
				// A host hidden in an encoding is found in the views,
				// which a call its written text settles does not build:
				// the reason names the secret instead.
				assert.Equal(t, "the token and an encoded host", name)
			} else {
				assert.Equal(t, whole.Decision.Rule, settled.Decision.Rule, "%s: %s", cf.name, name)
			}
			assert.Subset(t, whole.Analysis.Sources, settled.Analysis.Sources, "%s: %s", cf.name, name)
			assert.Subset(t, whole.Analysis.Secrets, settled.Analysis.Secrets, "%s: %s", cf.name, name)
			if whole.Decision.Action != policy.Deny {
				assert.Equal(t, whole.Decision, settled.Decision, "%s: %s", cf.name, name)
			}
			if cf.name == "default" && name == "the token and a document" {
				assert.Equal(t, policy.Deny, settled.Decision.Action)
				assert.Equal(t, []string{"vault"}, settled.Analysis.Sources, "the document is not matched once the token denies")
				assert.Contains(t, whole.Analysis.Sources, "files")
			}
		}
	}
}
