package upstream

import (
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/flow"
	"github.com/flowd-dev/flowd/internal/judge"
	"github.com/flowd-dev/flowd/internal/judge/judgetest"
	"github.com/flowd-dev/flowd/internal/pins"
	"github.com/flowd-dev/flowd/internal/quarantine"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

// env is what a stream is judged with in flowd: a judge over real stores
// in a temporary directory, and a hub for the streams added to it.
type env struct {
	judge      *judge.Judge
	hub        *Hub
	store      *activity.Store
	flows      *flow.Tracker
	quarantine *quarantine.Store
	pins       *pins.Store
}

func newEnv(t testing.TB, overrides map[string]string) *env {
	cfg := config.Default()
	cfg.Policy.ToolOverrides = overrides
	dir := t.TempDir()
	st, err := activity.Open(filepath.Join(dir, "activity.db"), activity.Options{
		MaxAge:        cfg.Activity.MaxAge.Duration,
		MaxRecords:    cfg.Activity.MaxRecords,
		FlushInterval: cfg.Activity.FlushInterval.Duration,
	})
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	q, err := quarantine.Open(filepath.Join(dir, "quarantine.db"), quarantine.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { q.Close() })
	p, err := pins.Open(filepath.Join(dir, "pins.db"), pins.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { p.Close() })
	j, err := judge.New(cfg, judge.Stores{Activity: st, Quarantine: q, Pins: p}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.NoError(t, err)
	return &env{judge: j, hub: NewHub(j), store: st, flows: j.Flows, quarantine: q, pins: p}
}

// Reload applies c as flowd's reload does.
func (d *env) Reload(c *config.Config) error {
	s, err := judge.NewSettings(c)
	if err != nil {
		return err
	}
	d.hub.Reload(s)
	return nil
}

func (d *env) current() *judge.Settings { return d.judge.Settings() }

func judgeMsg(d *env, u *Stream, m shimproto.Message) shimproto.Verdict {
	return judgetest.Judge(d.judge, u, m)
}
