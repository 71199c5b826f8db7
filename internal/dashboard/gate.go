package dashboard

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"sync"
	"time"

	"github.com/flowd-dev/flowd/internal/localsock"
)

// Lifetimes: a login code is used at once by the browser flowd ui opens;
// a session lasts as long as this flowd runs, but only the most recent
// maxSessions are kept, so minting codes in a loop cannot grow memory.
const (
	codeTTL     = 2 * time.Minute
	maxSessions = 32
)

// session is one browser admitted by a login code.
type session struct {
	peer    localsock.Cred
	csrf    string
	created time.Time
}

// gate keeps the login codes and the sessions. It lives in memory only:
// a restart of flowd logs every browser out.
type gate struct {
	mu       sync.Mutex
	codes    map[string]pendingCode
	sessions map[string]session
	now      func() time.Time
}

type pendingCode struct {
	peer    localsock.Cred
	expires time.Time
}

func newGate() *gate {
	return &gate{codes: map[string]pendingCode{}, sessions: map[string]session{}, now: time.Now}
}

// secret is 256 random bits, URL-safe.
func secret() string {
	var b [32]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// mint returns a one-time login code for peer.
func (g *gate) mint(peer localsock.Cred) string {
	code := secret()
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	for c, p := range g.codes {
		if now.After(p.expires) {
			delete(g.codes, c)
		}
	}
	g.codes[code] = pendingCode{peer: peer, expires: now.Add(codeTTL)}
	return code
}

// login trades a code, once, for a new session ID; ok is false for a
// code that is unknown, used or expired, or that refuse (given the uid it
// was minted for) says why not; it is used up either way.
func (g *gate) login(code string, refuse func(uid int) string) (id string, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	p, ok := g.codes[code]
	delete(g.codes, code)
	if !ok || g.now().After(p.expires) || refuse(p.peer.UID) != "" {
		return "", false
	}
	if len(g.sessions) >= maxSessions {
		var oldest string
		for id, s := range g.sessions {
			if oldest == "" || s.created.Before(g.sessions[oldest].created) {
				oldest = id
			}
		}
		delete(g.sessions, oldest)
	}
	id = secret()
	g.sessions[id] = session{peer: p.peer, csrf: secret(), created: g.now()}
	return id, true
}

// session is the session of a cookie's value.
func (g *gate) session(id string) (session, bool) {
	if id == "" {
		return session{}, false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	s, ok := g.sessions[id]
	return s, ok
}

// csrfOK compares in constant time: the token is a secret.
func csrfOK(s session, token string) bool {
	return token != "" && subtle.ConstantTimeCompare([]byte(s.csrf), []byte(token)) == 1
}
