package flow

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/flowd-dev/flowd/internal/budget"
	"github.com/flowd-dev/flowd/internal/classify"
)

// WaitUntil gives up at its bound on a result that is never recorded,
// and returns at once when nothing is pending; a check on a budget whose
// wait bound passed is unfinished, and says why.
func TestWaitUntilIsBounded(t *testing.T) {
	tr := NewTracker(Options{}, detector(t))
	s := tr.Session("s")
	assert.True(t, s.WaitUntil(time.Now().Add(-time.Second)), "nothing pending")

	s.Begin() // never recorded
	assert.False(t, s.WaitUntil(time.Now().Add(20*time.Millisecond)))

	a := s.Check("slack", "post", classify.Result{Class: classify.External, CanExfiltrate: true},
		[]byte(`{"text":"hello"}`), nil, budget.For(time.Hour, time.Now().Add(20*time.Millisecond)))
	assert.True(t, a.Unfinished)
	assert.True(t, a.Overdue)
}
