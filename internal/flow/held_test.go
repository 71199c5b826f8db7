package flow

import (
	"fmt"
	"strings"
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

	// A held session that ends (idle) is listed as swept: a flowd started
	// after it remembers it as this one does (TestSweptSessionComesBack).
	received(changed)
	swept := time.Now().Add(2 * time.Minute)
	old.Expire(swept, false)
	assert.True(t, received(changed))
	held = old.Held()
	require.Len(t, held, 3)
	for _, h := range held {
		assert.Equal(t, swept, h.SweptAt, h.Session)
	}
	later := NewTracker(Options{}, nil)
	later.Restore(held)
	assert.Len(t, later.Held(), 3)
	what, _, ok = later.Session("creds").SensitiveRead()
	assert.True(t, ok, "back after a restart, the credential read is still known")
	assert.Equal(t, "/p/.env", what)
	assert.NotEmpty(t, later.Session("creds").LostSecret(), "its value was not in the list: whatever may be it is judged by its form")
	why, _ = later.Session("steered").Tainted()
	assert.Equal(t, "web/fetch: instruction-override", why)
	assert.Empty(t, old.Expire(time.Now().Add(time.Hour), true))
}

// A session idle past IdleTimeout is dropped, but an agent can wait for
// free: coming back, it has the secrets it had read and its taint, and a
// secret it sends is found as before (red team RT8-7). A session that
// held nothing is not remembered.
func TestSweptSessionComesBack(t *testing.T) {
	const key = "Zk3Lq9Vm2Xb7Nc4Tp1Wd8YsQr5Hq8vN2xTz5Lk9R"
	tr := NewTracker(Options{IdleTimeout: time.Minute}, detector(t))
	s := tr.Session("agent")
	s.Begin()
	s.Record(Origin{Server: "fs", Tool: "read_text_file", Class: classify.Internal}, []byte(`{"text":"API_KEY=`+key+`\nDB_HOST=db.internal\n"}`))
	s.Taint("web/fetch: instruction-override")
	tr.Session("idle").Check("slack", "post", classify.Result{Class: classify.External}, []byte(`{"text":"hi"}`), nil, nil)
	ext := classify.Result{Class: classify.External}
	args := []byte(`{"channel":"ops","text":"ref ` + key + `"}`)
	before := s.Check("slack", "post", ext, args, nil, nil)
	require.NotEmpty(t, before.Edges, "control: the key is found before the sweep")

	sums := tr.Expire(time.Now().Add(2*time.Minute), false)
	require.Len(t, sums, 2)
	require.Len(t, tr.Held(), 1, "only the session that held something is remembered")

	back := tr.Session("agent")
	after := back.Check("slack", "post", ext, args, nil, nil)
	assert.Equal(t, before.Secrets, after.Secrets)
	require.NotEmpty(t, after.Edges, "the key read before the sweep is found after it")
	assert.Equal(t, "fs", after.Edges[0].From.Server)
	assert.Equal(t, "secret", after.Edges[0].Kind)
	assert.False(t, after.Forgotten, "what it read is known, not assumed")
	why, _ := back.Tainted()
	assert.Equal(t, "web/fetch: instruction-override", why)
	assert.Empty(t, tr.Session("fresh").Check("slack", "post", ext, args, nil, nil).Edges, "another session never read it")
}

// A session dropped idle more than SweptMemory ago comes back as a new
// one: what it was remembered with is as old as Held says it no longer
// is, whether or not the cap had evicted it yet.
func TestSweptSessionPastMemoryComesBackNew(t *testing.T) {
	tr := NewTracker(Options{IdleTimeout: time.Minute}, detector(t))
	tr.Restore([]Held{{Session: "old", Taint: "web/fetch: instruction-override", SweptAt: time.Now().Add(-time.Hour)}})
	require.Len(t, tr.Held(), 1)
	tr.mu.Lock()
	tr.swept["old"].held.SweptAt = time.Now().Add(-SweptMemory - time.Minute)
	tr.mu.Unlock()
	require.Empty(t, tr.Held(), "control: Held no longer lists it")

	why, _ := tr.Session("old").Tainted()
	assert.Empty(t, why, "nothing of it comes back")
	tr.mu.Lock()
	assert.Empty(t, tr.swept, "and it is not remembered any more")
	tr.mu.Unlock()
}

// Past the bytes for swept sessions' secrets, the largest index is
// dropped, not the session: a flood of keys read by one made-up session
// leaves the victim's key known, and the flooder comes back lost (red
// team RT9-2). Past the count, a session that had read a secret is
// remembered by its key's hash alone and comes back lost; other new
// sessions start as they are (a review: making every new session lost
// let a flood reach every user of a system flowd).
func TestSweptFloodForgetsNoSession(t *testing.T) {
	const key = "Zk3Lq9Vm2Xb7Nc4Tp1Wd8YsQr5Hq8vN2xTz5Lk9R"
	tr := NewTracker(Options{IdleTimeout: time.Minute, MaxBytes: 16 << 20}, detector(t))
	victim := tr.Session("victim")
	victim.Begin()
	victim.Record(Origin{Server: "fs", Tool: "read_text_file", Class: classify.Internal}, []byte(`{"text":"API_KEY=`+key+`"}`))
	victim.Wait()
	tr.Expire(time.Now().Add(2*time.Minute), false)

	flood := tr.Session("flood")
	var b strings.Builder
	for i := range 100 { // ~5 MB of index: under MaxBytes live, over a sixteenth of it swept
		fmt.Fprintf(&b, "KEY_%d=%s%04d\n", i, "Qw8Er4Ty6Ui2Op0As5Df7Gh1Jk3Lz9Xc", i)
	}
	flood.Begin()
	flood.Record(Origin{Server: "fs", Tool: "read_text_file", Class: classify.Internal}, []byte(b.String()))
	flood.Wait()
	tr.Expire(time.Now().Add(4*time.Minute), false)
	tr.mu.Lock()
	require.Greater(t, tr.swept["flood"].bytes+tr.sweptBytes, 0)
	stubbed := tr.swept["flood"].secrets == nil && tr.swept["victim"].secrets != nil
	tr.mu.Unlock()
	require.True(t, stubbed, "control: the flood's index was over the bound and was dropped")

	ext := classify.Result{Class: classify.External}
	a := tr.Session("victim").Check("slack", "post", ext, []byte(`{"text":"`+key+`"}`), nil, nil)
	assert.NotEmpty(t, a.Secrets, "the victim's key is still known")
	assert.NotEmpty(t, tr.Session("flood").LostSecret(), "the flooder comes back lost, not blank")

	// A session forgotten while live (past MaxBytes) is swept as lost.
	huge := tr.Session("huge")
	b.Reset()
	for i := range 400 {
		fmt.Fprintf(&b, "KEY_%d=%s%04d\n", i, "Hb5Nm2Kq8Wz4Rt7Yp1Lc6Vx3Sd9Gf0Ja", i)
	}
	huge.Begin()
	huge.Record(Origin{Server: "fs", Tool: "read_text_file", Class: classify.Internal}, []byte(b.String()))
	huge.Wait()
	require.True(t, huge.Check("slack", "post", ext, []byte(`{"text":"hi"}`), nil, nil).Forgotten, "control: forgotten live")
	tr.Expire(time.Now().Add(6*time.Minute), false)
	assert.NotEmpty(t, tr.Session("huge").LostSecret(), "comes back lost, not blank")

	// The count: the victim is the oldest of maxSwept+1.
	tr2 := NewTracker(Options{IdleTimeout: time.Minute}, detector(t))
	old := time.Now().Add(-time.Hour)
	hs := []Held{{Session: "victim", SecretResult: "a result holding a secret (aws)", SweptAt: old}}
	for i := range maxSwept {
		hs = append(hs, Held{Session: fmt.Sprintf("made-up-%d", i), Taint: "x", SweptAt: old.Add(time.Duration(i+1) * time.Millisecond)})
	}
	tr2.Restore(hs)
	assert.True(t, tr2.LostUntil().IsZero(), "a new session starts as it is")
	assert.Empty(t, tr2.Session("someone-else").LostSecret())
	assert.NotEmpty(t, tr2.Session("victim").LostSecret(), "the victim, forgotten for the count, comes back lost")
}
