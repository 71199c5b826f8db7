package daemon

import (
	"context"
	"net/http"
	"time"

	"github.com/flowd-dev/flowd/internal/dashboard"
	"github.com/flowd-dev/flowd/internal/localsock"
)

// startUI opens the dashboard's loopback listener when [ui] asks for it.
// A dashboard that cannot listen is logged and left off: the firewall
// runs without it. The returned stop closes it.
func (d *Daemon) startUI() (stop func()) {
	cfg := d.current().Cfg.UI
	if !cfg.On(d.system) {
		return func() {}
	}
	var open []string
	if cfg.Metrics {
		open = append(open, "GET /metrics")
	}
	ui, err := dashboard.Listen(cfg.Port, stallBounds(d.handler()), func(r *http.Request, p localsock.Cred) *http.Request {
		return r.WithContext(context.WithValue(r.Context(), peerKey{}, p))
	}, open...)
	if err != nil {
		d.log.Warn("dashboard off", "err", err)
		return func() {}
	}
	d.ui = ui
	srv := ui.HTTPServer()
	srv.IdleTimeout = apiIdleTimeout
	go srv.Serve(ui.Listener())
	d.log.Info("dashboard listening (flowd ui opens it)", "addr", ui.Listener().Addr().String())
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	}
}

// serveUILogin gives the asker on the socket a one-time URL into the
// dashboard, which then sees what this asker sees. Only the socket
// routes here: the dashboard's own listener does not serve it.
func (d *Daemon) serveUILogin(w http.ResponseWriter, r *http.Request) {
	p, ok := peer(r.Context())
	if !ok {
		http.Error(w, errNoPeer.Error(), http.StatusForbidden)
		return
	}
	if d.ui == nil {
		http.Error(w, `the dashboard is off: set enabled = "on" under [ui] in flowd's config and restart flowd (flowd doctor shows the config file)`, http.StatusNotFound)
		return
	}
	writeJSON(w, map[string]string{"url": d.ui.LoginURL(p)})
}
