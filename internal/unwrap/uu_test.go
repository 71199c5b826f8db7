package unwrap

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// uuBody uuencodes b as its lines without "begin" and "end": zero bits
// written as blanks (as Python's b2a_uu does by default) or as '`'.
func uuBody(b []byte, backtick bool) string {
	var out strings.Builder
	for len(b) > 0 {
		line := b[:min(len(b), maxUULine)]
		b = b[len(line):]
		out.WriteByte(byte(' ' + len(line)))
		padded := append(slices.Clone(line), 0, 0)
		for i := 0; i < len(line); i += 3 {
			v := uint(padded[i])<<16 | uint(padded[i+1])<<8 | uint(padded[i+2])
			for k := 18; k >= 0; k -= 6 {
				c := byte(v>>uint(k)&63) + ' '
				if c == ' ' && backtick {
					c = '`'
				}
				out.WriteByte(c)
			}
		}
		out.WriteByte('\n')
	}
	return out.String()
}

func jsonArgs(t *testing.T, v string) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]string{"text": v})
	assert.NoError(t, err)
	return b
}

// TestViewsReadUUEncodedLines: a uuencoded value is read without its
// "begin" line: one line after a label, its last blanks trimmed, zero bits
// as '`', several lines joined, quotes and backslashes escaped in JSON.
// Each fails without uuLines (only "begin … end" was read).
func TestViewsReadUUEncodedLines(t *testing.T) {
	const key = "Zk3Lq9Vm2Xb7Nc4Tp1Wd8YsQr5Hq8vN2xTz5Lk9R"
	long := key + "-" + strings.Repeat("Qm7", 12) + "-end"
	cases := map[string]struct{ text, want string }{
		"after a label, trimmed": {"ref: " + strings.TrimRight(uuBody([]byte(key), false), " \n"), key},
		"alone":                  {uuBody([]byte(key), false), key},
		"backticks":              {"uu " + uuBody([]byte(key), true), key},
		"two lines":              {"data:\n" + uuBody([]byte(long), false) + "done", long},
		"short key":              {"k=" + uuBody([]byte("s3cr3t-Pa55w0rd!"), false), "s3cr3t-Pa55w0rd!"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			assertInViews(t, string(jsonArgs(t, c.text)), c.want, false)
		})
	}
}

// TestUULinesNeedTheirCount: text of uuencode's alphabet (capitals,
// digits, punctuation, blanks) whose count does not sit where its length
// puts it, or that decodes to no text, gives no line.
func TestUULinesNeedTheirCount(t *testing.T) {
	for _, s := range []string{
		"SELECT ID, NAME FROM USERS WHERE ID = 42 AND STATUS = 'ACTIVE';",
		"12 7 200 3 45 250 9 131 12 7 200 3 45 250 9 131 12 7 200 3 45",
		"ERROR 1045 (28000): ACCESS DENIED FOR USER 'ROOT'@'LOCALHOST'",
		"2026-11-28 13:47:25 UTC [WARN] QUEUE DEPTH 1024 > 512, RETRYING",
		"+1 (555) 010-4477, +44 20 7946 0958, +33 1 70 36 00 00",
	} {
		var val []byte
		assert.Empty(t, uuLines(nil, jsonArgs(t, s), &val), s)
	}
}

// TestViewsReadXXEncodedLines: xxencode, uuencode's line with an
// alphabet of letters, digits, '+' and '-', is read from its count too,
// after a label or alone. Without xxLine only the substitution of a
// base64 form could match it, for secrets that repeat enough.
func TestViewsReadXXEncodedLines(t *testing.T) {
	const table = "+-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	xx := func(s string) string {
		out := []byte{table[len(s)]}
		b := append([]byte(s), 0, 0)
		for i := 0; i < len(s); i += 3 {
			v := uint(b[i])<<16 | uint(b[i+1])<<8 | uint(b[i+2])
			for k := 18; k >= 0; k -= 6 {
				out = append(out, table[v>>uint(k)&63])
			}
		}
		return string(out)
	}
	for _, key := range []string{"AKIAUS4DLDQVZ7UAGRNX", "Zk3Lq9Vm2Xb7Nc4Tp1Wd8YsQr5Hq8vN2xTz5Lk9R", "s3cr3t-Pa55w0rd!"} {
		assertInViews(t, "xx: "+xx(key), key, false)
		assertInViews(t, string(jsonArgs(t, xx(key))), key, false)
	}
	// Words and identifiers whose first letter happens to fit a count
	// decode to no text.
	for _, s := range []string{"GetCustomerAccountBalanceHistory", "internationalisation", "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo"} {
		_, ok := xxLine([]byte(s))
		assert.False(t, ok, s)
	}
}
