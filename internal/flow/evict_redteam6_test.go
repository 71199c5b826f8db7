//go:build redteam6

package flow

import (
	"encoding/base64"
	"fmt"
	"testing"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/unwrap"
)

// RT6-4. max_origins is per kind, so external floods cannot evict what
// was read from the user's systems; a flood of the same kind still can,
// and small reads of local files are cheap for an agent (or for any
// same-user process posting PostToolUse events for the session). The
// safe outcome: a secret read from .env is still recognised, encoded,
// after 10,001 small internal results.
func TestRT6InternalFloodEvictsTheSecret(t *testing.T) {
	const key = "AKIAIOSFODNN7EXAMPLE"
	const secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	tr := NewTracker(Options{}, detector(t))
	s := tr.Session("s")
	recordAs(s, classify.Internal, "filesystem", "AWS_ACCESS_KEY_ID="+key+"\nAWS_SECRET_ACCESS_KEY="+secret+"\n")
	enc := base64.StdEncoding.EncodeToString([]byte(secret))
	args := []byte(`{"text":"` + enc + `"}`)
	if a := s.Check("slack", "send", toExternal, args, unwrap.Views(args), nil); len(a.Secrets) == 0 {
		t.Fatalf("control: the encoded secret is not recognised before the flood: %+v", a)
	} else {
		t.Logf("control: %+v", a)
	}
	for i := range 10001 {
		recordAs(s, classify.Internal, "filesystem", fmt.Sprintf("note %d", i))
	}
	a := s.Check("slack", "send", toExternal, args, unwrap.Views(args), nil)
	if len(a.Secrets) == 0 && a.Risk != RiskHigh {
		t.Errorf("after 10,001 small internal results the encoded secret leaves unrecognised: %+v", a)
	}
}
