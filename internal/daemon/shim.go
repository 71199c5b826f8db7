package daemon

import (
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/flowd-dev/flowd/internal/sessionid"
	"github.com/flowd-dev/flowd/internal/shimproto"
	"github.com/flowd-dev/flowd/internal/upstream"
)

// serveShim upgrades the HTTP request to the shim protocol and runs the
// connection until the shim goes away or flowd stops.
func (d *Daemon) serveShim(w http.ResponseWriter, r *http.Request) {
	if !strings.EqualFold(r.Header.Get("Upgrade"), shimproto.Version) {
		http.Error(w, "this endpoint speaks only "+shimproto.Version, http.StatusUpgradeRequired)
		return
	}
	conn, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		d.log.Warn("hijack shim connection", "err", err)
		return
	}
	d.wg.Add(1)
	defer d.wg.Done()
	defer conn.Close()
	defer d.conns.Identified(conn)
	// The server's request deadlines do not apply to a shim, which is
	// silent while its agent thinks; its hello has one of its own.
	conn.SetDeadline(time.Time{})
	if _, err := io.WriteString(conn, shimproto.SwitchingProtocols); err != nil {
		return
	}
	ctx := r.Context() // carries who connected
	d.hub.Serve(conn, brw.Reader, upstream.Accepted{
		SessionKey: func(h sessionid.Hints) (string, error) { return d.sessionKey(ctx, h) },
		Identified: func() { d.conns.Identified(conn); d.sawAgent(ctx) },
		Judged: func(size int, took time.Duration) {
			if took > 0 {
				d.metrics.ObserveVerdict(took)
			}
			if size >= releaseAfter {
				d.releaseMemory()
			}
		},
	})
}
