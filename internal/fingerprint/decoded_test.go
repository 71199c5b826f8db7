package fingerprint

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/flowd-dev/flowd/internal/budget"
	"github.com/flowd-dev/flowd/internal/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The base64 runs are decoded only in windows around where a secret's
// base64 may begin: what the views of the windows hold of the secrets
// must be what the views of the whole runs hold. searchDecodedWhole, the
// reading of whole runs, is the reference. Texts: secrets (and their
// other case) in base64 of either alphabet, at every place in a group,
// inside longer blobs, glued to other base64 characters, wrapped over
// lines, the alphabets mixed, near misses, next to one another.
func TestDecodedWindowsFindWhatWholeRunsFind(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	x, err := NewSecretIndex(64)
	require.NoError(t, err)
	var secrets []string
	for i := range 12 {
		s := randomSecret(rng, 8+rng.IntN(40))
		if i%3 == 0 {
			s = strings.ToUpper(s)
		}
		secrets = append(secrets, s)
		x.Add(uint64(i+1), "s", s, false)
	}
	x.mu.Lock()
	x.build()
	x.mu.Unlock()
	found := func(decode func([]byte, func(view) bool) bool, text []byte) []string {
		var out []string
		decode(text, func(v view) bool {
			return x.set.scanWith(v.text, nil, func(k uint32) {
				out = append(out, string(rune(0x30+int(x.needles[k].form)))+":"+string(v.enc)+":"+x.secrets[x.needles[k].slot].value)
			}, nil, nil)
		})
		slices.Sort(out)
		return slices.Compact(out)
	}
	// b64s false is FindCanonical's reading: hex only, of text in
	// canonical form (lower case, letters and digits).
	for _, b64s := range []bool{true, false} {
		windows := func(text []byte, search func(view) bool) bool {
			return searchDecoded(text, b64s, x.starts, x.longest-1, nil, search)
		}
		whole := func(text []byte, search func(view) bool) bool {
			return searchDecodedWhole(text, b64s, x.longest-1, search)
		}
		hits := 0
		for i := range 3000 {
			var text []byte
			for range 1 + rng.IntN(6) {
				text = append(text, encodedPiece(rng, secrets)...)
				if rng.IntN(3) == 0 {
					text = append(text, " ,\n\t="[rng.IntN(5)])
				}
			}
			if !b64s && i%2 == 0 {
				text = AppendCanonical(nil, text)
			}
			want := found(whole, text)
			hits += len(want)
			require.Equal(t, want, found(windows, text), "%q", text)
		}
		require.Greater(t, hits, 500, "the texts hold secrets")
	}
}

// A run is walked for the places a secret's hex or base64 may begin
// only when one can be in it: canonical text without hexKeyLen hex
// digits in a row (FindCanonical's prose, a megabyte of letters and
// digits in one run) is not walked at all; a run of hex is, once.
func TestDecodedWalksOnlyRunsAKeyCanBeIn(t *testing.T) {
	x, err := NewSecretIndex(8)
	require.NoError(t, err)
	x.Add(1, "", "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5", false)
	x.mu.Lock()
	x.build()
	x.mu.Unlock()
	walked := func(text []byte, b64s bool) int64 {
		b := budget.Work(0)
		require.True(t, searchDecoded(text, b64s, x.starts, x.longest-1, b, func(view) bool { return true }))
		return b.Spent()
	}
	prose := AppendCanonical(nil, bytes.Repeat([]byte("The quick brown fox, 1998-2024: jumps over the lazy dog! "), 1<<14))
	hexText := []byte(strings.Repeat(hex.EncodeToString([]byte("the quick brown fox")), 1<<10))
	assert.Zero(t, walked(prose, false), "canonical prose")
	assert.Equal(t, int64(len(hexText)), walked(hexText, false), "hex")
	assert.Equal(t, int64(len(hexText)), walked(hexText, true), "hex, base64 read too")
	b64 := []byte(base64.StdEncoding.EncodeToString(bytes.Repeat([]byte("the quick brown fox"), 1<<10)))
	assert.Equal(t, int64(len(bytes.TrimRight(b64, "="))), walked(b64, true), "base64")
}

func randomSecret(rng *rand.Rand, n int) string {
	const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"
	b := make([]byte, n)
	for i := range b {
		b[i] = chars[rng.IntN(len(chars))]
	}
	return string(b)
}

// encodedPiece is a stretch of base64 or hex that may hold a secret.
func encodedPiece(rng *rand.Rand, secrets []string) []byte {
	s := []byte(secrets[rng.IntN(len(secrets))])
	if rng.IntN(4) == 0 {
		s = []byte(strings.ToLower(string(s)))
	}
	if rng.IntN(5) == 0 {
		s = s[:len(s)-1-rng.IntN(3)] // a near miss
	}
	blob := append(append(randomBytes(rng, rng.IntN(7)), s...), randomBytes(rng, rng.IntN(7))...)
	var enc []byte
	switch rng.IntN(6) {
	case 0:
		enc = []byte(hex.EncodeToString(blob))
	case 1:
		enc = []byte(base64.URLEncoding.EncodeToString(blob))
	case 2:
		// The alphabets mixed.
		enc = []byte(base64.StdEncoding.EncodeToString(blob))
		for i := range enc {
			if rng.IntN(2) == 0 {
				switch enc[i] {
				case '+':
					enc[i] = '-'
				case '/':
					enc[i] = '_'
				}
			}
		}
	default:
		enc = []byte(base64.StdEncoding.EncodeToString(blob))
	}
	// Glued to other base64 characters; wrapped.
	enc = append([]byte(randomSecret(rng, rng.IntN(5))), enc...)
	if rng.IntN(3) == 0 && len(enc) > 4 {
		at := rng.IntN(len(enc))
		enc = slices.Concat(enc[:at], []byte("\n  "), enc[at:])
	}
	if rng.IntN(4) == 0 {
		enc = append(enc, '=')
	}
	return enc
}

func randomBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.IntN(256))
	}
	return b
}

func searchDecodedWhole(text []byte, b64s bool, overlap int, search func(view) bool) bool {
	ok := true
	var hexV [2]viewChunks
	var b64 [2][4]viewChunks // standard, URL alphabet; by alignment
	for a := range hexV {
		hexV[a] = viewChunks{view: view{enc: EncHex}, bound: len(text), overlap: overlap, search: search, ok: &ok}
	}
	for alpha, enc := range []Encoding{EncBase64, EncBase64URL} {
		for a := range b64[alpha] {
			b64[alpha][a] = viewChunks{view: view{enc: enc}, bound: len(text), overlap: overlap, search: search, ok: &ok}
		}
	}
	var hx hexRun
	var seg []byte // a stretch of a run's characters, without line breaks
	var buf [segLen*3/4 + 3]byte
	for i := 0; i < len(text) && ok; {
		if b64Value[text[i]] < 0 {
			i++
			continue
		}
		// Where the run ends, how many characters it has, and which
		// alphabet it is in, read before it is decoded.
		j, n := i, 0
		url, hexOnly := false, true
		for j < len(text) {
			if c := text[j]; b64Value[c] >= 0 {
				url = url || c == '-' || c == '_'
				hexOnly = hexOnly && jsontext.IsHex(c)
				n++
				j++
				continue
			}
			k := j
			for k < len(text) && (text[k] == '\n' || text[k] == '\r') {
				k++
			}
			if k == j {
				break
			}
			for k < len(text) && (text[k] == ' ' || text[k] == '\t') {
				k++
			}
			if k == len(text) || b64Value[text[k]] < 0 {
				break
			}
			j = k
		}
		run := text[i:j]
		i = j
		if n < minEncodedRun {
			continue
		}
		alpha := 0
		if url {
			alpha = 1
		}
		// A run of hex digits only is hex: the base64 of a secret in
		// printable characters is not made of hex digits.
		decode64 := b64s && !hexOnly
		if decode64 {
			for a := range b64[alpha] {
				b64[alpha][a].writeByte(0)
			}
		}
		// The run's characters go through seg, segLen of them at a time
		// and 3 more, the rest of a group that starts among them at any
		// alignment: decoded a segment at a time, the run's groups are
		// those it has whole.
		seg = seg[:0]
		for k := 0; k <= len(run); k++ {
			if k < len(run) {
				c := run[k]
				if b64Value[c] < 0 {
					continue // a line break or indentation
				}
				hx.add(c, &hexV)
				seg = append(seg, c)
				if len(seg) < segLen+3 {
					continue
				}
			}
			last := k == len(run)
			if decode64 {
				for a := range b64[alpha] {
					part := seg[min(a, len(seg)):]
					if !last {
						part = part[:segLen]
					}
					b64[alpha][a].write(appendBase64(buf[:0], part))
				}
			}
			if last {
				break
			}
			seg = append(seg[:0], seg[segLen:]...)
		}
		hx.end()
	}
	for a := range hexV {
		hexV[a].close()
	}
	for alpha := range b64 {
		for a := range b64[alpha] {
			b64[alpha][a].close()
		}
	}
	return ok
}
