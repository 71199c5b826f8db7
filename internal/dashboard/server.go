package dashboard

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"html"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/flowd-dev/flowd/internal/localsock"
)

//go:embed assets
var assets embed.FS

// CSRFHeader carries the session's CSRF token on every state change.
const CSRFHeader = "X-Flowd-CSRF"

// api is what the dashboard may ask of flowd's API: reading, and the
// reading of quarantined text, release and approval that need the
// passphrase. Never the shim or hook
// endpoints, nor setting the passphrase.
var api = []string{
	"GET /api/v1/status",
	"GET /api/v1/diagnostics",
	"GET /api/v1/activity",
	"GET /api/v1/activity/export",
	"GET /api/v1/activity/{id}",
	"GET /api/v1/events",
	"GET /api/v1/sessions/{id}/graph",
	"GET /api/v1/quarantine",
	"GET /api/v1/quarantine/{id}",
	"POST /api/v1/quarantine/{id}/view",
	"POST /api/v1/quarantine/{id}/release",
	"GET /api/v1/pins",
	"POST /api/v1/pins/approve",
}

// Server is the dashboard of one flowd.
type Server struct {
	gate *gate
	// As bind makes it, a request the API answers as if peer had sent it
	// on the socket.
	bind    func(r *http.Request, peer localsock.Cred) *http.Request
	api     http.Handler
	l       net.Listener
	port    int
	hosts   map[string]bool // Host values that name this listener
	origins map[string]bool // and the Origins of its pages
	// open are the API routes served without a login.
	open []string
}

// Listen opens the dashboard's listener on 127.0.0.1:port (0: a free
// port). api is flowd's API handler; bind, what tells it who asks; open,
// the GET routes of the API served without a login (GET /metrics, for
// Prometheus, which cannot log in), still behind the Host and Origin
// checks and answered as to no one in particular.
func Listen(port int, apiHandler http.Handler, bind func(*http.Request, localsock.Cred) *http.Request, open ...string) (*Server, error) {
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return nil, fmt.Errorf("dashboard: cannot listen on 127.0.0.1:%d (set [ui] port to a free one, or enabled = \"off\"): %w", port, err)
	}
	s := &Server{gate: newGate(), bind: bind, api: apiHandler, l: capListener(l, MaxConns), port: l.Addr().(*net.TCPAddr).Port,
		hosts: map[string]bool{}, origins: map[string]bool{}, open: open}
	for _, h := range []string{"127.0.0.1", "localhost"} {
		hp := net.JoinHostPort(h, strconv.Itoa(s.port))
		s.hosts[hp], s.origins["http://"+hp] = true, true
	}
	return s, nil
}

// Listener is where the dashboard is served.
func (s *Server) Listener() net.Listener { return s.l }

// LoginURL mints a one-time code for peer and returns the URL that
// trades it for a session.
func (s *Server) LoginURL(peer localsock.Cred) string {
	return fmt.Sprintf("http://127.0.0.1:%d/login?code=%s", s.port, url.QueryEscape(s.gate.mint(peer)))
}

// cookieName holds the port: cookies are shared by every port of a host,
// and two users' flowds on one machine must not overwrite each other's.
func (s *Server) cookieName() string { return "flowd_ui_" + strconv.Itoa(s.port) }

// HTTPServer serves the dashboard; it notes who owns each connection.
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{Handler: s.Handler(), ConnContext: withOwner, ReadHeaderTimeout: 5 * time.Second}
}

// ownerKey is the request context key of the connection's owner.
type ownerKey struct{}

type owner struct {
	uid int
	err error
}

func withOwner(ctx context.Context, c net.Conn) context.Context {
	uid, err := connOwner(c)
	return context.WithValue(ctx, ownerKey{}, owner{uid, err})
}

// ownedBy says why a request's connection is not uid's, or "": where the
// system tells (Linux), another local user holding a stolen cookie or
// code is refused. A request served without HTTPServer is refused too.
func ownedBy(r *http.Request, uid int) string {
	if !ownerKnown {
		return ""
	}
	o, ok := r.Context().Value(ownerKey{}).(owner)
	switch {
	case !ok:
		return "cannot tell whose connection this is"
	case o.err != nil:
		return "cannot tell whose connection this is: " + o.err.Error()
	case o.uid != uid:
		return fmt.Sprintf("this dashboard is user %d's; the connection is user %d's", uid, o.uid)
	}
	return ""
}

// Handler is the dashboard: security checks first, then the login, the
// session's CSRF token, the page and the allow-listed API.
func (s *Server) Handler() http.Handler {
	authed := http.NewServeMux()
	for _, p := range api {
		authed.Handle(p, s.api)
	}
	static, _ := fs.Sub(assets, "assets")
	authed.Handle("GET /", http.FileServerFS(static))
	public := http.NewServeMux()
	for _, p := range s.open {
		public.Handle(p, s.api)
	}
	authed.HandleFunc("GET /ui/session", func(w http.ResponseWriter, r *http.Request) {
		sess, _ := s.gate.session(s.cookie(r))
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"csrf": sess.csrf, "port": s.port})
	})

	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
		h.Set("X-Frame-Options", "DENY")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		h.Set("Cache-Control", "no-store")
		if why := s.refuse(r); why != "" {
			http.Error(w, why, http.StatusForbidden)
			return
		}
		if r.URL.Path == "/login" {
			s.login(w, r)
			return
		}
		if _, pattern := public.Handler(r); pattern != "" {
			public.ServeHTTP(w, r)
			return
		}
		sess, ok := s.gate.session(s.cookie(r))
		if !ok {
			http.Error(w, "not logged in to this flowd's dashboard (it forgets browsers when it restarts): run flowd ui", http.StatusUnauthorized)
			return
		}
		if why := ownedBy(r, sess.peer.UID); why != "" {
			http.Error(w, why, http.StatusForbidden)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			if r.Header.Get("Origin") == "" || !csrfOK(sess, r.Header.Get(CSRFHeader)) {
				http.Error(w, "a change needs the page's CSRF token and Origin: reload the dashboard", http.StatusForbidden)
				return
			}
		}
		authed.ServeHTTP(w, s.bind(r, sess.peer))
	})
}

// refuse says why a request is not for this dashboard, or "".
func (s *Server) refuse(r *http.Request) string {
	if !s.hosts[r.Host] {
		// DNS rebinding: an attacker's name that resolves to 127.0.0.1.
		return fmt.Sprintf("Host %q is not this dashboard's (127.0.0.1:%d or localhost:%d)", r.Host, s.port, s.port)
	}
	if o := r.Header.Get("Origin"); o != "" && !s.origins[o] {
		return fmt.Sprintf("requests from %q are not served: only the dashboard's own pages may call it", o)
	}
	// The login arrives from flowd ui's redirect file, which is another
	// site to the browser; its code is its credential.
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" && r.URL.Path != "/login" {
		return "requests from other sites are not served"
	}
	return ""
}

func (s *Server) cookie(r *http.Request) string {
	c, err := r.Cookie(s.cookieName())
	if err != nil {
		return ""
	}
	return c.Value
}

// login trades the code for a session cookie, then sends the browser to
// a URL without the code, so it leaves the address bar. The page does it,
// not a redirect: a navigation that began on another site (flowd ui's
// redirect file) is not sent the SameSite=Strict cookie, even through a
// redirect; one the dashboard's own page starts is.
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		http.Error(w, "GET only", http.StatusMethodNotAllowed)
		return
	}
	id, ok := s.gate.login(r.URL.Query().Get("code"), func(uid int) string { return ownedBy(r, uid) })
	if !ok {
		http.Error(w, "this login link is used or expired (a link works once, for 2 minutes): run flowd ui again", http.StatusForbidden)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: s.cookieName(), Value: id, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(Redirect("/"))
}

// Redirect is a page that sends the browser to url: the login's own, and
// the private file through which flowd ui opens the login URL, so that the
// code is on no command line.
func Redirect(url string) []byte {
	return fmt.Appendf(nil, "<!doctype html><meta charset=utf-8><meta http-equiv=refresh content=\"0;url=%[1]s\"><title>flowd</title><a href=\"%[1]s\">open the flowd dashboard</a>\n",
		html.EscapeString(url))
}
