package dashboard

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type peerKey struct{}

// start serves a dashboard in front of an API that answers who it was
// told asks, and records every request that reached it.
func start(t *testing.T) (*Server, *[]string) {
	t.Helper()
	var reached []string
	apiHandler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, _ := r.Context().Value(peerKey{}).(localsock.Cred)
		reached = append(reached, r.Method+" "+r.URL.Path)
		fmt.Fprintf(w, `{"uid":%d}`, p.UID)
	})
	s, err := Listen(0, apiHandler, func(r *http.Request, p localsock.Cred) *http.Request {
		return r.WithContext(context.WithValue(r.Context(), peerKey{}, p))
	})
	require.NoError(t, err)
	srv := s.HTTPServer()
	go srv.Serve(s.Listener())
	t.Cleanup(func() { srv.Close() })
	return s, &reached
}

// browser logs a client in as this user, as flowd ui's browser would be.
func browser(t *testing.T, s *Server) (*http.Client, string, string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	resp, err := c.Get(s.LoginURL(localsock.Cred{UID: os.Getuid()}))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	base := fmt.Sprintf("http://127.0.0.1:%d", s.port)
	resp, err = c.Get(base + "/ui/session")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var csrf string
	_, err = fmt.Sscanf(strings.SplitN(string(body), `"csrf":"`, 2)[1], "%43s", &csrf)
	require.NoError(t, err)
	return c, base, csrf
}

func do(t *testing.T, c *http.Client, method, u string, hdr map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(`{"passphrase":"x"}`))
	require.NoError(t, err)
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := c.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	assert.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"), "no CORS, ever")
	return resp.StatusCode, string(b)
}

func TestLoggedInBrowserReachesTheAPIAsItsUser(t *testing.T) {
	s, reached := start(t)
	c, base, csrf := browser(t, s)
	code, body := do(t, c, "GET", base+"/api/v1/status", nil)
	assert.Equal(t, http.StatusOK, code)
	assert.JSONEq(t, fmt.Sprintf(`{"uid":%d}`, os.Getuid()), body, "the API sees the user who asked for the login")
	code, _ = do(t, c, "POST", base+"/api/v1/quarantine/q1/release", map[string]string{"Origin": base, CSRFHeader: csrf})
	assert.Equal(t, http.StatusOK, code)
	// Reading quarantined text is a change's request: it carries the
	// passphrase, which the API checks, behind the CSRF token and Origin.
	code, _ = do(t, c, "POST", base+"/api/v1/quarantine/q1/view", map[string]string{"Origin": base, CSRFHeader: csrf})
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, []string{"GET /api/v1/status", "POST /api/v1/quarantine/q1/release", "POST /api/v1/quarantine/q1/view"}, *reached)

	code, body = do(t, c, "GET", base+"/", nil)
	assert.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, `<script src="/app.js"`)
}

func TestRefusals(t *testing.T) {
	s, reached := start(t)
	c, base, csrf := browser(t, s)
	anon := &http.Client{}
	port := s.port
	for _, tc := range []struct {
		name   string
		client *http.Client
		method string
		path   string
		hdr    map[string]string
		want   int
	}{
		{"DNS rebinding: a foreign Host", c, "GET", "/api/v1/status", map[string]string{"Host": fmt.Sprintf("evil.example:%d", port)}, 403},
		{"another port's Host", c, "GET", "/api/v1/status", map[string]string{"Host": "127.0.0.1:1"}, 403},
		{"a foreign Origin reading", c, "GET", "/api/v1/status", map[string]string{"Origin": "http://evil.example"}, 403},
		{"another local port's Origin", c, "GET", "/api/v1/status", map[string]string{"Origin": "http://127.0.0.1:1"}, 403},
		{"a cross-site fetch", c, "GET", "/api/v1/status", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{"a foreign Origin changing", c, "POST", "/api/v1/pins/approve", map[string]string{"Origin": "http://evil.example", CSRFHeader: csrf}, 403},
		{"no CSRF token", c, "POST", "/api/v1/pins/approve", map[string]string{"Origin": base}, 403},
		{"a wrong CSRF token", c, "POST", "/api/v1/pins/approve", map[string]string{"Origin": base, CSRFHeader: csrf[:42] + "x"}, 403},
		{"no Origin on a change", c, "POST", "/api/v1/pins/approve", map[string]string{CSRFHeader: csrf}, 403},
		{"a view of quarantined text without the CSRF token", c, "POST", "/api/v1/quarantine/q1/view", map[string]string{"Origin": base}, 403},
		{"no cookie", anon, "GET", "/api/v1/status", nil, 401},
		{"no cookie, the page", anon, "GET", "/", nil, 401},
		{"no cookie, a change", anon, "POST", "/api/v1/pins/approve", map[string]string{"Origin": base, CSRFHeader: csrf}, 401},
		{"a used login code", anon, "GET", "/login?code=nope", nil, 403},
		{"the hook endpoint", c, "POST", "/api/v1/hooks/evaluate", map[string]string{"Origin": base, CSRFHeader: csrf}, 405},
		{"the shim endpoint", c, "GET", "/api/v1/shim", nil, 404},
		{"setting the passphrase", c, "POST", "/api/v1/passphrase", map[string]string{"Origin": base, CSRFHeader: csrf}, 405},
		{"the UI login itself", c, "POST", "/api/v1/ui/login", map[string]string{"Origin": base, CSRFHeader: csrf}, 405},
	} {
		code, body := do(t, tc.client, tc.method, base+tc.path, tc.hdr)
		assert.Equal(t, tc.want, code, "%s: %s", tc.name, body)
	}
	assert.Empty(t, *reached, "no refused request reaches the API")
}

func TestLoginCodeWorksOnce(t *testing.T) {
	s, _ := start(t)
	u := s.LoginURL(localsock.Cred{UID: os.Getuid()})
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.Get(u)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	ck := resp.Cookies()
	require.Len(t, ck, 1)
	assert.True(t, ck[0].HttpOnly)
	assert.Equal(t, http.SameSiteStrictMode, ck[0].SameSite)
	resp, err = noRedirect.Get(u)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode, "a second use of the code")
}

func TestSecurityHeaders(t *testing.T) {
	s, _ := start(t)
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/", s.port))
	require.NoError(t, err)
	resp.Body.Close()
	csp := resp.Header.Get("Content-Security-Policy")
	assert.Contains(t, csp, "default-src 'self'")
	assert.Contains(t, csp, "script-src 'self';")
	assert.NotContains(t, csp, "unsafe-inline")
	assert.Equal(t, "DENY", resp.Header.Get("X-Frame-Options"))
	assert.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
}

func TestListensOnLoopbackOnly(t *testing.T) {
	s, _ := start(t)
	host, _, _ := strings.Cut(s.Listener().Addr().String(), ":")
	assert.Equal(t, "127.0.0.1", host)
}

func TestOldestSessionGoesPastTheLimit(t *testing.T) {
	g := newGate()
	now := time.Now()
	g.now = func() time.Time { now = now.Add(time.Second); return now }
	var first string
	for i := range maxSessions + 1 {
		id, ok := g.login(g.mint(localsock.Cred{UID: i}), func(int) string { return "" })
		require.True(t, ok)
		if i == 0 {
			first = id
		}
	}
	_, ok := g.session(first)
	assert.False(t, ok)
	assert.Len(t, g.sessions, maxSessions)
}

// On Linux a code or a session is good only on connections of the user
// it was made for: another local user who gets hold of one (from a
// command line, or the cookie their own server on 127.0.0.1 was sent)
// is refused.
func TestAnotherUsersConnectionIsRefused(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the owner of a loopback connection is known on Linux only")
	}
	s, reached := start(t)
	resp, err := http.Get(s.LoginURL(localsock.Cred{UID: os.Getuid() + 1}))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode, "a code minted for another user")

	// A session of another user, used from this one's connection.
	id, ok := s.gate.login(s.gate.mint(localsock.Cred{UID: os.Getuid() + 1}), func(int) string { return "" })
	require.True(t, ok)
	req, _ := http.NewRequest("GET", fmt.Sprintf("http://127.0.0.1:%d/api/v1/status", s.port), nil)
	req.AddCookie(&http.Cookie{Name: s.cookieName(), Value: id})
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode, "%s", body)
	assert.Contains(t, string(body), "connection is user")
	assert.Empty(t, *reached)
}

// Past its cap the listener answers 503 at once, and serves again once a
// connection it holds is closed.
func TestConnectionCap(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	entered, release := make(chan struct{}), make(chan struct{})
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hold" {
			entered <- struct{}{}
			<-release
		}
		io.WriteString(w, "ok")
	})}
	go srv.Serve(capListener(l, 2))
	t.Cleanup(func() { srv.Close() })
	base := "http://" + l.Addr().String()
	get := func(path string) (int, string, error) {
		c := &http.Client{Timeout: time.Minute, Transport: &http.Transport{DisableKeepAlives: true}}
		resp, err := c.Get(base + path)
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), nil
	}

	held := make(chan error, 2)
	for range 2 {
		go func() { _, _, err := get("/hold"); held <- err }()
		<-entered
	}
	code, body, err := get("/")
	require.NoError(t, err)
	assert.Equal(t, http.StatusServiceUnavailable, code)
	assert.Contains(t, body, "serves 2 connections at once")

	// A client that connects and says nothing holds no answer back long.
	idle, err := net.Dial("tcp", l.Addr().String())
	require.NoError(t, err)
	defer idle.Close()
	resp, err := http.ReadResponse(bufio.NewReader(idle), nil)
	require.NoError(t, err, "answered after refuseWait")
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)

	release <- struct{}{}
	require.NoError(t, <-held)
	// The server closes the connection after answering; its slot is free
	// once it did, which the client does not see: ask until served.
	deadline := time.Now().Add(time.Minute)
	for {
		code, body, err = get("/")
		require.NoError(t, err)
		if code == http.StatusOK || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	assert.Equal(t, http.StatusOK, code, body)
	release <- struct{}{}
	require.NoError(t, <-held)
}

// The dashboard's listener is capped.
func TestDashboardListenerIsCapped(t *testing.T) {
	s, _ := start(t)
	l, ok := s.Listener().(*capped)
	require.True(t, ok, "the listener is %T", s.Listener())
	assert.Equal(t, MaxConns, cap(l.slots))
}
