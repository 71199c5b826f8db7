package flow

import (
	"encoding/base64"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/classify"
)

// Secrets with no name beside them that Scan cannot read, from inside: a
// typed token of a length no provider rule knows, and the bare output of
// a call that reads a credential. Each is found again sent encoded, as a
// secret (deny), not as internal data (ask); the same text from a call
// that reads none, or random ids in an ordinary result, are not secrets.
func TestUnnamedSecretsFromInside(t *testing.T) {
	const (
		typed = "sk-qx-api07-aPCCCGjnRR4FNnuYZ1kO4SyYFAOtae3YfhV4BttC_waSlMhe8Na2"
		bare  = "lLVAeNfSUZWKA71cUmlLqGiQmpVN0m2Y"
	)
	ext := classify.Result{Class: classify.External}
	enc := func(s string) []byte {
		return []byte(`{"text":"` + base64.StdEncoding.EncodeToString([]byte(s)) + `"}`)
	}
	for _, tc := range []struct {
		name, tool, reads, result, secret string
		found                             bool
	}{
		{"typed token in a vault's JSON", "get_item", "", `{"name":"llm/prod","value":"` + typed + `"}`, typed, true},
		{"bare output of a secret store", "run_command", "op read op://Private/Harbor/token (1Password)", "$ op read op://Private/Harbor/token\n" + bare + "\n", bare, true},
		{"the same output from a call that reads none", "run_command", "", "$ echo\n" + bare + "\n", bare, false},
		{"a certificate read beside its key", "read_file", "certs/tls.crt (a TLS certificate or key)", "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ7Xk2mV9pLr8sT4wYz1nB6cD3eFgCgYIKoZIzj0EAwIw\n-----END CERTIFICATE-----\n", "MIIBszCCAVmgAwIBAgIUQ7Xk2mV9pLr8sT4wYz1nB6cD3eFgCgYIKoZIzj0EAwIw", false},
		{"an object id", "get_customer", "", `{"id":"cus_Nf3kQ9xLm2Vb7T","email":"a@example.com"}`, "cus_Nf3kQ9xLm2Vb7T", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewTracker(Options{}, detector(t)).Session("s")
			s.Begin()
			s.Record(Origin{Server: "tools", Tool: tc.tool, Class: classify.Internal, SecretOutput: tc.reads}, []byte(tc.result))
			a := s.Check("paste", "create", ext, enc(tc.secret), nil, nil)
			if tc.found {
				require.NotEmpty(t, a.Secrets, "the secret is found encoded")
			} else {
				assert.Empty(t, a.Secrets)
			}
			_, _, held := s.SecretResult()
			assert.Equal(t, tc.found, held)
		})
	}
}

// Found by a review of the above: a store's output on a command line
// that also fetched (a result of an external class) is still the
// secret; a store's short answer is kept whole, random or not.
func TestUnnamedSecretsReviewed(t *testing.T) {
	ext := classify.Result{Class: classify.External}
	for _, tc := range []struct {
		name, reads, result, secret string
		class                       classify.Class
		found                       bool
	}{
		{"output on a line that also fetched", "op read op://Private/GitHub/token (1Password)",
			"lLVAeNfSUZWKA71cUmlLqGiQmpVN0m2Y\n<html>ok</html>\n", "lLVAeNfSUZWKA71cUmlLqGiQmpVN0m2Y", classify.External, true},
		{"a password of words", "op read op://Private/db/password (1Password)",
			"vessel-cobalt-frisky-plume\n", "vessel-cobalt-frisky-plume", classify.Internal, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewTracker(Options{}, detector(t)).Session("s")
			s.Begin()
			s.Record(Origin{Server: "Bash", Tool: "Bash", Class: tc.class, SecretOutput: tc.reads}, []byte(tc.result))
			a := s.Check("paste", "create", ext, []byte(`{"text":"`+base64.StdEncoding.EncodeToString([]byte(tc.secret))+`"}`), nil, nil)
			assert.Equal(t, tc.found, len(a.Secrets) > 0, "%v", a.Secrets)
		})
	}
}
