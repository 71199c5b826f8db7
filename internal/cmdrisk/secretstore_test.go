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
		{"aws --profile prod secretsmanager get-secret-value --secret-id db --query SecretString --output text", true},
		{"kubectl -n prod get secret db -o jsonpath='{.data.password}'", true},
		{"kubectl get -o yaml secret db", true},
		{"kubectl get secret/db --output=yaml", true},
		{"op --account acme read op://Private/x/password", true},
		{"aws configure get aws_secret_access_key", true},
		{"aws configure get region", false},
		{"doppler secrets set FOO=1", false},
		{"kubectl get secret -o name", false},
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
