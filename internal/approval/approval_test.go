package approval

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) {
	UseTestCost() // the real count takes a fraction of a second per check, many under -race
	os.Exit(m.Run())
}

const pass = "correct horse battery"

func TestVerifier(t *testing.T) {
	_, err := New("short", time.Now())
	assert.ErrorIs(t, err, ErrWeak)

	v, err := New(pass, time.Unix(10, 0))
	require.NoError(t, err)
	assert.True(t, v.Check(pass))
	assert.False(t, v.Check(pass+" "))
	assert.False(t, v.Check(""))
	assert.NotContains(t, string(v.Hash), pass)
	w, err := New(pass, time.Unix(10, 0))
	require.NoError(t, err)
	assert.NotEqual(t, v.Hash, w.Hash, "salted: the same passphrase hashes differently")
	assert.False(t, Verifier{}.Check(""), "an empty verifier admits nothing")

	path := filepath.Join(t.TempDir(), "approval.json")
	_, ok, err := Load(path)
	require.NoError(t, err)
	assert.False(t, ok, "none set")
	require.NoError(t, Save(path, v))
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	got, ok, err := Load(path)
	require.NoError(t, err)
	require.True(t, ok)
	assert.True(t, got.Check(pass))

	require.NoError(t, os.WriteFile(path, []byte(`{"hash":""}`), 0o600))
	_, ok, err = Load(path)
	assert.False(t, ok)
	assert.ErrorContains(t, err, "damaged", "a damaged verifier is not 'none set', which anyone could then set")
}

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestGate(t *testing.T) {
	dir := t.TempDir()
	c := &clock{t: time.Unix(1000, 0)}
	g := &Gate{File: func(uid int) string { return filepath.Join(dir, "approval.json") }, Now: c.now}

	assert.ErrorIs(t, g.Check(1, pass), ErrNotSet)
	require.NoError(t, g.Set(1, "", pass, "test", quiet), "the first passphrase needs no old one")
	set, since, err := g.Status(1)
	require.NoError(t, err)
	assert.True(t, set)
	assert.Equal(t, c.t.UTC(), since)
	require.NoError(t, g.Check(1, pass))

	assert.ErrorIs(t, g.Set(1, "guess", "another long passphrase", "test", quiet), ErrWrong, "changing needs the old one")
	assert.ErrorIs(t, g.Check(1, "guess"), ErrWrong)
	// Third wrong guess: locked, even for the right passphrase.
	assert.ErrorIs(t, g.Check(1, "guess"), ErrWrong)
	var locked *LockedError
	require.True(t, errors.As(g.Check(1, pass), &locked))
	assert.Equal(t, c.t.Add(30*time.Second), locked.Until)

	c.t = c.t.Add(31 * time.Second)
	assert.ErrorIs(t, g.Check(1, "guess"), ErrWrong)
	require.True(t, errors.As(g.Check(1, pass), &locked))
	assert.Equal(t, c.t.Add(time.Minute), locked.Until, "the pause doubles")
	c.t = c.t.Add(time.Minute)
	require.NoError(t, g.Check(1, pass), "the right one after the pause")
	assert.ErrorIs(t, g.Check(1, "guess"), ErrWrong, "a success resets the count")
	require.NoError(t, g.Check(1, pass))

	// Someone rewrites the file behind flowd's back: ignored while it runs.
	forged, err := New("the forger's passphrase", c.t)
	require.NoError(t, err)
	require.NoError(t, Save(filepath.Join(dir, "approval.json"), forged))
	assert.ErrorIs(t, g.Check(1, "the forger's passphrase"), ErrWrong)
	require.NoError(t, g.Check(1, pass))

	require.NoError(t, g.Set(1, pass, "a new long passphrase", "test", quiet))
	require.NoError(t, g.Check(1, "a new long passphrase"))
}

func TestGateCeiling(t *testing.T) {
	c := &clock{t: time.Unix(0, 0)}
	dir := t.TempDir()
	g := &Gate{File: func(int) string { return filepath.Join(dir, "a.json") }, Now: c.now}
	require.NoError(t, g.Set(0, "", pass, "test", quiet))
	for i := 0; i < 12; i++ {
		c.t = c.t.Add(2 * time.Hour) // past any pause
		require.ErrorIs(t, g.Check(0, "wrong"), ErrWrong)
	}
	var locked *LockedError
	require.True(t, errors.As(g.Check(0, pass), &locked))
	assert.Equal(t, c.t.Add(time.Hour), locked.Until, "the pause stops growing at an hour")
}

// Restarting flowd (a new Gate over the same file) keeps the count of
// wrong guesses and the lockout: an agent cannot restart its way to
// fresh guesses.
func TestGateLockoutSurvivesRestart(t *testing.T) {
	c := &clock{t: time.Unix(5000, 0)}
	path := filepath.Join(t.TempDir(), "approval.json")
	gate := func() *Gate { return &Gate{File: func(int) string { return path }, Now: c.now} }
	require.NoError(t, gate().Set(7, "", pass, "test", quiet))
	for range 3 {
		// One guess per flowd.
		require.ErrorIs(t, gate().Check(7, "guess"), ErrWrong)
	}
	var locked *LockedError
	require.True(t, errors.As(gate().Check(7, pass), &locked), "locked after three wrong guesses, each with a fresh flowd")
	assert.True(t, c.t.Add(firstPause).Equal(locked.Until), "%v", locked.Until)

	c.t = locked.Until
	require.ErrorIs(t, gate().Check(7, "guess"), ErrWrong)
	require.True(t, errors.As(gate().Check(7, pass), &locked))
	assert.True(t, c.t.Add(2*firstPause).Equal(locked.Until), "the pause goes on doubling across restarts: %v", locked.Until)

	c.t = locked.Until
	require.NoError(t, gate().Check(7, pass))
	require.ErrorIs(t, gate().Check(7, "guess"), ErrWrong)
	require.NoError(t, gate().Check(7, pass), "a success reset the count, on disk too")
}

// A guess is counted before it is checked: when the count cannot be
// saved the guess is not checked, so stopping flowd in the middle of a
// check cannot make it free either.
func TestGateCountsBeforeChecking(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "flowd")
	require.NoError(t, os.Mkdir(dir, 0o700))
	path := filepath.Join(dir, "approval.json")
	g := &Gate{File: func(int) string { return path }}
	require.NoError(t, g.Set(1, "", pass, "test", quiet))
	require.NoError(t, g.Check(1, pass))
	require.NoError(t, os.RemoveAll(dir))
	err := g.Check(1, pass)
	require.Error(t, err, "the right passphrase is not checked when its guess cannot be counted")
	assert.NotErrorIs(t, err, ErrWrong)
}

// A damaged verifier (count, lockout or hash) refuses every guess, the
// right one too: never "unlocked", never "none set".
func TestGateDamagedFileRefuses(t *testing.T) {
	// Each keeps the hash and damages the rest, or the whole.
	for name, damage := range map[string]func([]byte) []byte{
		"not json":       func([]byte) []byte { return []byte(`{"salt":`) },
		"negative count": func(b []byte) []byte { return append(b[:len(b)-1], `,"wrong":-5}`...) },
		"bad lockout":    func(b []byte) []byte { return append(b[:len(b)-1], `,"locked_until":"soon"}`...) },
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "approval.json")
			require.NoError(t, (&Gate{File: func(int) string { return path }}).Set(1, "", pass, "test", quiet))
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			b = damage(b)
			require.NoError(t, os.WriteFile(path, b, 0o600))
			g := &Gate{File: func(int) string { return path }}
			err = g.Check(1, pass)
			require.Error(t, err)
			assert.ErrorContains(t, err, "damaged")
			assert.ErrorContains(t, g.Set(1, "", "a brand new passphrase", "test", quiet), "damaged", "nor can a new one be set over it")
		})
	}
}

// quiet is a moment with no agent around.
func quiet() Around { return Around{Now: time.Now()} }

func TestCheckFirstSet(t *testing.T) {
	now := time.Date(2026, 11, 28, 5, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		around Around
		want   string // "" means allowed
	}{
		{"no agent ever seen", Around{Now: now}, ""},
		// Only what flowd keeps for good closes the way: the log's last call
		// counts for the quiet window alone (the user who removed flowd's
		// note of the first agent, with flowd stopped, opens it again).
		{"the last tool call long ago", Around{Now: now, LastAgent: now.Add(-AgentQuiet - time.Second)}, ""},
		{"a tool call just now", Around{Now: now, LastAgent: now.Add(-2 * time.Second)}, "an agent's last tool call was 2s ago"},
		// An agent's foreground `sleep 540; flowd passphrase set`.
		{"a tool call nine minutes ago", Around{Now: now, LastAgent: now.Add(-9 * time.Minute)}, "was 9m0s ago"},
		{"an MCP server connected", Around{Now: now, Shims: 1}, "1 MCP server(s) are connected"},
		{"servers connected, no tool call for long", Around{Now: now, Shims: 2, LastAgent: now.Add(-time.Hour)}, "once they disconnect"},
		// A program an agent left behind waits for a quiet moment: once any
		// agent has acted, the way through the API stays shut.
		{"an agent seen a week ago, none since", Around{Now: now, FirstAgent: now.Add(-7 * 24 * time.Hour)}, "one did (first on"},
		{"an agent seen, its last call long ago", Around{Now: now, FirstAgent: now.Add(-time.Hour), LastAgent: now.Add(-AgentQuiet - time.Second)},
			"one did (first on"},
		{"an agent seen and live: live says when", Around{Now: now, FirstAgent: now.Add(-time.Hour), LastAgent: now.Add(-time.Second)},
			"was 1s ago"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckFirstSet(tt.around)
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			var live *AgentLiveError
			var seen *AgentSeenError
			require.True(t, errors.As(err, &live) || errors.As(err, &seen), "%v", err)
			assert.ErrorContains(t, err, tt.want)
			if live != nil {
				assert.ErrorContains(t, err, "flowd passphrase set")
			}
		})
	}
}

// Found by a red team (RT5-5): with no passphrase set, an agent's shell
// set the first one itself. While an agent is live the gate refuses it;
// a change still needs only the old passphrase.
func TestFirstPassphraseWaitsForNoAgent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "approval.json")
	g := &Gate{File: func(int) string { return path }}
	live := func() Around { return Around{Now: time.Now(), LastAgent: time.Now()} }
	var refused *AgentLiveError
	require.ErrorAs(t, g.Set(1, "", pass, "pid 9 (bash)", live), &refused)
	set, _, err := g.Status(1)
	require.NoError(t, err)
	assert.False(t, set)
	_, err = os.Stat(path)
	assert.ErrorIs(t, err, os.ErrNotExist, "nothing written")

	require.NoError(t, g.Set(1, "", pass, "flowd 41 ← bash 40 ← sshd 12", quiet))
	set, since, by, err := g.Who(1)
	require.NoError(t, err)
	assert.True(t, set)
	assert.False(t, since.IsZero())
	assert.Equal(t, "flowd 41 ← bash 40 ← sshd 12", by)
	_, _, by, err = (&Gate{File: func(int) string { return path }}).Who(1)
	require.NoError(t, err)
	assert.Equal(t, "flowd 41 ← bash 40 ← sshd 12", by, "kept in the verifier file")

	require.NoError(t, g.Set(1, pass, "a new long passphrase", "flowd 50", live), "a change needs the old passphrase, not a quiet moment")
}
