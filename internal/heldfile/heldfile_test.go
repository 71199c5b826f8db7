package heldfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/flow"
)

func TestDecide(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	idle := 30 * time.Minute
	listed := File{Sessions: []flow.Held{{Session: "s1", Sensitive: "/p/.env"}}}
	for _, c := range []struct {
		name      string
		f         File
		err       error
		ranBefore bool
		sessions  int
		lost      time.Time
		why       string
	}{
		{"read", listed, nil, true, 1, time.Time{}, ""},
		{"first start", File{}, fs.ErrNotExist, false, 0, time.Time{}, ""},
		{"missing after a run", File{}, fs.ErrNotExist, true, 0, now.Add(idle), "missing, though flowd has run here"},
		{"damaged", File{}, errors.New("x is damaged: unexpected EOF"), true, 0, now.Add(idle), "cannot be read: x is damaged"},
		{"damaged at a first start", File{}, errors.New("x is damaged"), false, 0, now.Add(idle), "cannot be read"},
		{"unreadable", File{}, fs.ErrPermission, true, 0, now.Add(idle), "cannot be read"},
		{"lost all, still", File{Sessions: listed.Sessions, AllLostUntil: now.Add(time.Minute), Why: "w"}, nil, true, 1, now.Add(time.Minute), "w"},
		{"lost all, over", File{AllLostUntil: now.Add(-time.Minute), Why: "w"}, nil, true, 0, time.Time{}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := Decide(c.f, c.err, c.ranBefore, now, idle)
			assert.Len(t, p.Sessions, c.sessions)
			assert.Equal(t, c.lost, p.LostUntil)
			if c.why == "" {
				assert.Empty(t, p.Why)
			} else {
				assert.Contains(t, p.Why, c.why)
			}
		})
	}
}

// What flowd writes stays below what it reads, however many sessions
// it holds and however long what they read is named: past the bounds
// the list says that every session is lost for a while instead.
func TestEncodeIsBoundedAndReadBack(t *testing.T) {
	now := time.Now().Truncate(time.Second)
	long := strings.Repeat("\x01", 8<<10) // escaped six times over in JSON
	var hs []flow.Held
	for i := range MaxSessions + 10 {
		hs = append(hs, flow.Held{Session: flow.Key(strings.Repeat("s", 1000) + string(rune('a'+i%26)) + strings.Repeat("x", i)),
			Taint: long, Sensitive: long, SecretResult: long, SensitiveAt: now})
	}
	b := Encode(File{Sessions: hs}, now, time.Minute)
	assert.Less(t, len(b), MaxSize/2)
	p := filepath.Join(t.TempDir(), Name)
	require.NoError(t, os.WriteFile(p, b, 0o600))
	f, err := Read(p)
	require.NoError(t, err)
	assert.Len(t, f.Sessions, MaxSessions)
	assert.True(t, now.Add(time.Minute).Equal(f.AllLostUntil), "the sessions left out make all lost: %v", f.AllLostUntil)
	assert.Contains(t, f.Why, "10 sessions more")
	assert.LessOrEqual(t, len(f.Sessions[0].Sensitive), maxField)
	assert.True(t, strings.HasSuffix(f.Sessions[0].Sensitive, "…"))

	few := Encode(File{Sessions: hs[:3]}, now, time.Minute)
	require.NoError(t, os.WriteFile(p, few, 0o600))
	f, err = Read(p)
	require.NoError(t, err)
	assert.Len(t, f.Sessions, 3)
	assert.True(t, f.AllLostUntil.IsZero())
}

// Sessions dropped idle are remembered while there is room: past it the
// oldest of them are left out, and no live session is, so nothing makes
// every session lost.
func TestEncodeLeavesOutSweptSessionsFirst(t *testing.T) {
	now := time.Now().Truncate(time.Second)
	var hs []flow.Held
	for i := range MaxSessions + 10 {
		hs = append(hs, flow.Held{Session: fmt.Sprintf("swept%d", i), Sensitive: "/p/.env", SweptAt: now.Add(time.Duration(i) * time.Second)})
	}
	hs = append(hs, flow.Held{Session: "live", Sensitive: "/p/.env"})
	p := filepath.Join(t.TempDir(), Name)
	require.NoError(t, os.WriteFile(p, Encode(File{Sessions: hs}, now, time.Minute), 0o600))
	f, err := Read(p)
	require.NoError(t, err)
	require.Len(t, f.Sessions, MaxSessions)
	assert.True(t, f.AllLostUntil.IsZero(), "%s", f.Why)
	assert.Equal(t, "live", f.Sessions[0].Session)
	assert.Equal(t, fmt.Sprintf("swept%d", MaxSessions+9), f.Sessions[1].Session, "the latest swept first")
	assert.NotContains(t, f.Sessions, hs[0], "the earliest swept is left out")
}

func TestReadRefusesWhatFlowdDoesNotWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, Name)
	for name, content := range map[string]string{
		"half":           `{"sessions":[{"session":"a"`,
		"older form":     `[{"session":"a"}]`,
		"trailing":       `{"sessions":[]} {"sessions":[]}`,
		"unknown field":  `{"sessions":[],"x":1}`,
		"empty id":       `{"sessions":[{"session":""}]}`,
		"id too long":    `{"sessions":[{"session":"` + strings.Repeat("a", flow.MaxKey+1) + `"}]}`,
		"empty":          ``,
		"not json":       "\x00\x01",
		"over the bound": `{"sessions":[],"why":"` + strings.Repeat("a", MaxSize) + `"}`,
	} {
		require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
		_, err := Read(p)
		assert.Error(t, err, name)
		assert.False(t, errors.Is(err, fs.ErrNotExist), name)
	}
	require.NoError(t, os.Remove(p))
	_, err := Read(p)
	assert.ErrorIs(t, err, fs.ErrNotExist)
	require.NoError(t, os.Mkdir(p, 0o700))
	_, err = Read(p)
	assert.ErrorContains(t, err, "not a regular file")
}
