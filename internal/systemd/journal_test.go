package systemd

import (
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJournalHandlerPrefixesPriorityAndDropsTime(t *testing.T) {
	var b bytes.Buffer
	log := slog.New(newJournalHandler(&b, &slog.HandlerOptions{Level: slog.LevelDebug}))
	log.Debug("d")
	log.Info("i", "k", "v")
	log.Warn("w")
	log.Error("e", "err", "x\ny")
	log.Log(nil, slog.LevelWarn+2, "between warn and error")
	log.With("shim", 3).WithGroup("g").Info("grouped", "a", 1)
	assert.Equal(t, `<7>level=DEBUG msg=d
<6>level=INFO msg=i k=v
<4>level=WARN msg=w
<3>level=ERROR msg=e err="x\ny"
<4>level=WARN+2 msg="between warn and error"
<6>level=INFO msg=grouped shim=3 g.a=1
`, b.String())
}

func TestJournalHandlerKeepsLevelAndReplaceAttr(t *testing.T) {
	var b bytes.Buffer
	log := slog.New(newJournalHandler(&b, &slog.HandlerOptions{Level: slog.LevelWarn,
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == "secret" {
				a.Value = slog.StringValue("[redacted]")
			}
			return a
		}}))
	log.Info("dropped")
	log.Warn("kept", "secret", "hunter2")
	assert.Equal(t, "<4>level=WARN msg=kept secret=[redacted]\n", b.String())
}

// Lines logged at once from many goroutines come out whole.
func TestJournalHandlerLinesDoNotInterleave(t *testing.T) {
	var b bytes.Buffer
	h := newJournalHandler(&b, nil)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			log := slog.New(h).With("g", g)
			for i := range 200 {
				log.Info("line", "i", i)
			}
		}()
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	require.Len(t, lines, 8*200)
	for _, l := range lines {
		var g, i int
		_, err := fmt.Sscanf(l, "<6>level=INFO msg=line g=%d i=%d", &g, &i)
		require.NoError(t, err, l)
	}
}

func TestToJournalMatchesTheStreamItNames(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	require.NoError(t, err)
	defer f.Close()
	dev, ino, ok := devIno(f)
	require.True(t, ok)
	other, err := os.Create(filepath.Join(t.TempDir(), "other"))
	require.NoError(t, err)
	defer other.Close()

	assert.True(t, toJournal(fmt.Sprintf("%d:%d", dev, ino), f))
	assert.False(t, toJournal(fmt.Sprintf("%d:%d", dev, ino), other), "stderr redirected elsewhere")
	for _, env := range []string{"", "garbage", fmt.Sprintf("%d", dev), fmt.Sprintf("x:%d", ino)} {
		assert.False(t, toJournal(env, f), env)
	}

	t.Setenv("JOURNAL_STREAM", fmt.Sprintf("%d:%d", dev, ino))
	slog.New(LogHandler(f, nil)).Info("to the journal")
	t.Setenv("JOURNAL_STREAM", "")
	slog.New(LogHandler(f, nil)).Info("plain")
	b, err := os.ReadFile(f.Name())
	require.NoError(t, err)
	lines := strings.Split(string(b), "\n")
	assert.Equal(t, "<6>level=INFO msg=\"to the journal\"", lines[0])
	assert.True(t, strings.HasPrefix(lines[1], "time="), lines[1])
}
