package flow

import (
	"slices"
	"testing"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/unwrap"
	"github.com/stretchr/testify/assert"
)

// A call that carries a secret whole is judged for it (and stopped); its
// runs were also added up as sent, so every later call to the outside
// holding a word the key shares ("example" of ...EXAMPLEKEY) carried the
// secret: a fetch of https://example.org was blocked (daemon
// TestDashboardInBrowser). Runs of a secret a call carries whole are not
// added up; pieces sent after it still are.
func TestWholeSecretCallIsNotCountedAsPieces(t *testing.T) {
	const key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	ext := classify.Result{Class: classify.External}
	tr := NewTracker(Options{}, detector(t))
	s := tr.Session("whole")
	s.Begin()
	s.Record(Origin{Server: "files", Tool: "read", Class: classify.Internal}, []byte(`{"content":[{"type":"text","text":"AWS_SECRET_ACCESS_KEY=`+key+`"}]}`))
	carries := func(args string) bool {
		a := s.Check("web", "send", ext, []byte(args), unwrap.Views([]byte(args)), nil)
		return slices.ContainsFunc(a.Edges, func(e Edge) bool { return e.Kind == "secret" })
	}
	assert.True(t, carries(body(key)), "the whole key")
	assert.False(t, carries(`{"url":"https://example.org"}`), "a URL sharing a word with the key")
	third := (len(key) + 2) / 3
	found := false
	for _, p := range []string{key[2*third:], key[:third], key[third : 2*third]} {
		found = carries(body(p)) || found
	}
	assert.True(t, found, "pieces sent after it still add up")
}
