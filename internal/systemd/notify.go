package systemd

import (
	"context"
	"log/slog"
	"time"

	"github.com/coreos/go-systemd/v22/daemon"
)

// Notify tells systemd about flowd's state (READY=1, STOPPING=1, ...).
// Without NOTIFY_SOCKET it does nothing; a failure is logged, never fatal:
// systemd's timeouts then say what went wrong.
func Notify(log *slog.Logger, state string) {
	if _, err := daemon.SdNotify(false, state); err != nil {
		log.Warn("cannot notify systemd", "state", state, "err", err)
	}
}

// Watchdog pings systemd's watchdog at half the unit's WatchdogSec, each
// time check says flowd still serves, until ctx ends. Without a watchdog
// it returns at once. A failed check skips the ping, so a flowd that stops
// answering is restarted by systemd instead of hanging every agent.
func Watchdog(ctx context.Context, log *slog.Logger, check func(context.Context) error) {
	interval, err := daemon.SdWatchdogEnabled(false)
	if err != nil {
		log.Warn("ignoring systemd watchdog settings", "err", err)
		return
	}
	if interval <= 0 {
		return
	}
	t := time.NewTicker(interval / 2)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			// The check must end before the next ping is due.
			cctx, cancel := context.WithTimeout(ctx, interval/4)
			err := check(cctx)
			cancel()
			if err != nil {
				if ctx.Err() == nil {
					log.Error("flowd does not answer on its own socket; not pinging the watchdog", "err", err)
				}
				continue
			}
			Notify(log, daemon.SdNotifyWatchdog)
		}
	}
}
