package cmdrisk

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A command line that prints a stored credential is a read of one, and
// Screen says so; the same tools' other commands are not.
func TestSecretStoreReads(t *testing.T) {
	for _, tc := range []struct {
		line string
		read bool
	}{
		{"op read op://Private/Harbor/token", true},
		{"vault kv get -field=password secret/db", true},
		{"aws secretsmanager get-secret-value --secret-id prod/db --query SecretString --output text", true},
		{"gcloud secrets versions access latest --secret=api-key", true},
		{"kubectl get secret db-creds -o jsonpath='{.data.password}'", true},
		{"security find-generic-password -s github -w", true},
		{"pass show work/aws", true},
		{"pass work/aws", true},
		{"TOKEN=$(gh auth token) && echo ok", true},
		{"sops -d secrets.enc.yaml", true},
		{"kubectl get secrets", false},
		{"pass insert work/aws", false},
		{"op signin", false},
		{"vault status", false},
		{"aws s3 ls", false},
		{"gh pr list", false},
	} {
		r := Screen(tc.line)
		assert.Equal(t, tc.read, len(r.Reads) > 0, "%s: %v", tc.line, r.Reads)
	}
}
