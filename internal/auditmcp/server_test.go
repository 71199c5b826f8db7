package auditmcp

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flowd-dev/flowd/internal/sessiongraph"
)

// Each kind of evidence is written as what identifies it, and an edge's
// unlisted matches are counted.
func TestWriteEvidence(t *testing.T) {
	var b strings.Builder
	writeEvidence(&b, sessiongraph.Edge{Matches: []sessiongraph.Match{
		{Kind: "substring", Hash: "9f2c41d07a5be3aa", Length: 240, Record: 2},
		{Kind: "secret", Secret: "github_token", Encoding: "base64", Record: 3},
		{Kind: "value", Value: "email", Length: 17, Record: 4},
	}, MoreMatches: 7})
	assert.Equal(t, "    evidence: substring match, fingerprint 9f2c41d07a5be3aa of 240 bytes, first in record #2\n"+
		"    evidence: secret github_token, written base64, first in record #3\n"+
		"    evidence: short value (email) of 17 characters, first in record #4\n"+
		"    evidence: 7 more pieces of data not listed\n", b.String())
}
