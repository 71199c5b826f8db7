package judge

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/injection"
	"github.com/flowd-dev/flowd/internal/policy"
)

// A panic while judging a call must not end the request: the entrances
// read a dropped connection as a flowd that is gone, and under fail_mode
// "open" the call would pass unchecked (red team: a command line ending in
// a backslash did this). Here the judge has no flow tracker, so every
// check of a call panics; each is refused instead, for any destination.
func TestPanicWhileJudgingRefusesTheCall(t *testing.T) {
	j := newJudge(t, nil)
	j.Flows = nil
	for _, class := range []classify.Result{{Class: classify.Internal}, {Class: classify.External, CanExfiltrate: true}} {
		var out Outcome
		var later func()
		assert.NotPanics(t, func() {
			later = j.Call(Call{Tool: "send", Class: class, Args: []byte(`{"text":"hello"}`)}, &out)
		})
		assert.Nil(t, later)
		assert.Equal(t, policy.Deny, out.Decision.Action, class.Class)
		assert.Equal(t, InternalErrorRule, out.Decision.Rule)
		assert.Contains(t, out.Decision.Reason, "refused rather than passed unchecked")
	}
}

// A panic on a goroutine of the check would end flowd itself: it comes
// back to the caller, which refuses.
func TestPanicOnACheckGoroutineComesBack(t *testing.T) {
	r := run(func() int { panic("boom") })
	assert.NotNil(t, r.failed)
	assert.PanicsWithValue(t, r.failed, func() { r.get() })
	assert.Equal(t, "boom", r.failed.value)
	assert.Equal(t, 7, run(func() int { return 7 }).get())
}

// The same for a result: one from a source that may be external is
// withheld, not passed unscreened.
func TestPanicWhileScreeningWithholdsTheResult(t *testing.T) {
	j := newJudge(t, nil)
	j.Quarantine = nil // Result asks it first: a nil store panics
	var s Screened
	assert.NotPanics(t, func() {
		s = j.Result(Result{Session: "s", Server: "web", Tool: "fetch", Class: classify.External, Content: []byte(`{"content":[{"type":"text","text":"hi"}]}`)})
	})
	assert.True(t, s.Blocked)
	assert.Equal(t, injection.ActionBlock, s.Found.Action)
	if assert.NotNil(t, s.Report) {
		assert.Equal(t, InternalErrorRule, s.Report.Detections[0].Rule)
	}
	_, tainted := j.Flows.Session("s").Tainted()
	assert.True(t, tainted)
}
