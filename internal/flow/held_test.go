package flow

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/classify"
)

// received reports whether c has a value waiting, taking it.
func received(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

func TestHeldSessionsOutliveTheirTracker(t *testing.T) {
	old := NewTracker(Options{IdleTimeout: time.Minute}, nil)
	changed := old.HeldChanged()
	rec := func(sess string, o Origin) {
		s := old.Session(sess)
		s.Begin()
		s.Record(o, []byte(`{"text":"Internal memo: the Falcon budget is 4.2 million and stays confidential."}`))
		s.Wait()
	}
	rec("fetched", Origin{Server: "web", Tool: "fetch", Class: classify.External})
	rec("listed", Origin{Server: "fs", Method: "tools/list", Class: classify.Internal, Published: true})
	assert.False(t, received(changed), "a page from outside, or a server's own listing, is nothing of the user's")
	rec("memo", Origin{Server: "fs", Tool: "read", Class: classify.Internal})
	assert.True(t, received(changed))
	old.Session("creds").ReadSensitive("/p/.env")
	old.Session("steered").Taint("web/fetch: instruction-override")
	assert.True(t, received(changed))

	held := old.Held()
	require.Len(t, held, 3)
	bySession := map[string]Held{}
	for _, h := range held {
		bySession[h.Session] = h
	}
	assert.Equal(t, "/p/.env", bySession["creds"].Sensitive)
	assert.False(t, bySession["creds"].SensitiveAt.IsZero())
	assert.Equal(t, "web/fetch: instruction-override", bySession["steered"].Taint)
	assert.Contains(t, bySession, "memo")

	// The next flowd's tracker takes them over.
	next := NewTracker(Options{}, nil)
	next.Restore(held)
	ext := classify.Result{Class: classify.External}
	a := next.Session("memo").Check("slack", "post", ext, []byte(`{"text":"hello"}`), nil, nil)
	assert.True(t, a.Lost)
	assert.True(t, a.Forgotten)
	assert.Equal(t, "internal→external", a.FlowType)
	assert.Contains(t, a.Sources, LostSource)
	assert.False(t, next.Session("fetched").Check("slack", "post", ext, []byte(`{"text":"hello"}`), nil, nil).Forgotten,
		"a session that held nothing of the user's starts as new")
	what, at, ok := next.Session("creds").SensitiveRead()
	assert.True(t, ok)
	assert.Equal(t, "/p/.env", what)
	assert.Equal(t, bySession["creds"].SensitiveAt, at, "the read keeps its time: its window does not start again")
	why, _ := next.Session("steered").Tainted()
	assert.Equal(t, "web/fetch: instruction-override", why)
	assert.True(t, next.Session("memo").Summary(time.Now()).Lost)
	assert.Len(t, next.Held(), 3, "still held: a second restart keeps them")

	// A held session that ends (idle) is no longer listed.
	received(changed)
	old.Expire(time.Now().Add(2*time.Minute), false)
	assert.True(t, received(changed))
	assert.Empty(t, old.Held())
}
