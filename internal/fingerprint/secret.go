package fingerprint

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Encoding names the form in which a known secret reappeared.
type Encoding string

const (
	EncRaw       Encoding = "raw"
	EncJSON      Encoding = "json-escaped" // \uXXXX or other JSON escapes
	EncURL       Encoding = "url-encoded"  // %XX
	EncHex       Encoding = "hex"          // lower or upper case
	EncBase64    Encoding = "base64"
	EncBase64URL Encoding = "base64url"
	EncCase      Encoding = "case-changed" // a single-case secret (hex, base32) in the other case
	EncFragment  Encoding = "fragment"     // a piece of a long secret, as when it is split across fields
)

// fragmentLen is the length of the secret pieces searched for: long
// enough that a piece of a random secret does not turn up by chance.
const (
	fragmentLen    = 16
	fragmentStride = 4
)

// SecretMatch is a known secret found in text.
type SecretMatch struct {
	Secret   uint64
	Encoding Encoding
}

// MinSecretLength is the shortest secret a SecretIndex accepts: shorter
// strings turn up by chance, and their base64 forms even more so.
const MinSecretLength = 8

// SecretIndex recognises known secrets (found in origins by the secrets
// detector) when they reappear in text raw or re-encoded: JSON- or
// URL-escaped, hex, or base64 in either alphabet — also as part of a longer
// base64 blob, at any of its three byte alignments, and with the blob
// wrapped over lines. It is safe for concurrent use.
type SecretIndex struct {
	max int

	mu      sync.RWMutex
	order   []string          // secret values, oldest first
	byValue map[string]uint64 // value → id
	needles map[uint64][]needle
	// prefix has a bit per hashed 4-byte prefix of any needle: most text
	// positions are rejected with one bit test, without a map lookup. It
	// is sized for thousands of secrets, each with a dozen needles, to
	// stay sparse.
	prefix [prefixBits / 64]uint64
}

type needle struct {
	text   []byte
	secret string
	enc    Encoding
}

// NewSecretIndex returns an index that keeps at most max secrets, forgetting
// the oldest.
func NewSecretIndex(max int) (*SecretIndex, error) {
	if max < 1 {
		return nil, fmt.Errorf("fingerprint: secret index size %d must be positive", max)
	}
	return &SecretIndex{max: max, byValue: make(map[string]uint64), needles: make(map[uint64][]needle)}, nil
}

// Add records secret under id (what Find reports, e.g. the origin it came
// from). Adding a known value again only updates its id. Secrets shorter
// than MinSecretLength are ignored.
func (x *SecretIndex) Add(id uint64, secret string) {
	if len(secret) < MinSecretLength {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if _, ok := x.byValue[secret]; ok {
		x.byValue[secret] = id
		return
	}
	if len(x.order) == x.max {
		x.forget(x.order[0])
		x.order = x.order[1:]
	}
	secret = strings.Clone(secret) // not a window into the text it was found in, which may be large
	x.order = append(x.order, secret)
	x.byValue[secret] = id
	for _, n := range encodings(secret) {
		k := binary.LittleEndian.Uint64(n.text)
		x.needles[k] = append(x.needles[k], n)
		x.setPrefix(n.text)
	}
}

const prefixBits = 1 << 20

func prefixBit(s []byte) uint32 { return binary.LittleEndian.Uint32(s) * 0x9e3779b1 >> (32 - 20) }

func (x *SecretIndex) setPrefix(s []byte) {
	p := prefixBit(s)
	x.prefix[p/64] |= 1 << (p % 64)
}

func (x *SecretIndex) forget(secret string) {
	delete(x.byValue, secret)
	for k, ns := range x.needles {
		ns = slices.DeleteFunc(ns, func(n needle) bool { return n.secret == secret })
		if len(ns) == 0 {
			delete(x.needles, k)
		} else {
			x.needles[k] = ns
		}
	}
	clear(x.prefix[:])
	for _, ns := range x.needles {
		x.setPrefix(ns[0].text)
	}
}

// encodings lists the forms of secret searched for. Base64 is searched as
// the encoding of the secret's whole 3-byte groups starting at each of its
// first three bytes: whichever alignment the secret had inside the encoded
// blob, one of these appears in it verbatim.
func encodings(secret string) []needle {
	s := []byte(secret)
	ns := []needle{
		{text: s, enc: EncRaw},
		{text: []byte(hex.EncodeToString(s)), enc: EncHex},
		{text: bytes.ToUpper([]byte(hex.EncodeToString(s))), enc: EncHex},
	}
	for j := range 3 {
		g := s[j : j+(len(s)-j)/3*3]
		std := []byte(base64.RawStdEncoding.EncodeToString(g))
		url := []byte(base64.RawURLEncoding.EncodeToString(g))
		ns = append(ns, needle{text: std, enc: EncBase64})
		if !bytes.Equal(std, url) {
			ns = append(ns, needle{text: url, enc: EncBase64URL})
		}
	}
	// Hex and base32 secrets mean the same in either case.
	if up, low := bytes.ToUpper(s), bytes.ToLower(s); bytes.Equal(s, up) != bytes.Equal(s, low) {
		other := up
		if bytes.Equal(s, up) {
			other = low
		}
		ns = append(ns, needle{text: other, enc: EncCase})
	}
	// fragmentLen-byte pieces of a long secret at every fragmentStride
	// bytes, so a secret cut in two (half in one field, half in another) is
	// still found: any run of fragmentLen+fragmentStride-1 bytes of it holds
	// a whole piece. Short secrets have no pieces: a piece must be much
	// shorter than the whole.
	if len(s) >= 2*fragmentLen-8 {
		for i := 0; i+fragmentLen <= len(s); i += fragmentStride {
			ns = append(ns, needle{text: s[i : i+fragmentLen], enc: EncFragment})
		}
	}
	for i := range ns {
		ns[i].secret = secret
	}
	return ns
}

// Find reports the known secrets in text, one SecretMatch per secret and
// encoding.
func (x *SecretIndex) Find(text []byte) []SecretMatch {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if len(x.order) == 0 {
		return nil
	}
	type found struct {
		secret string
		enc    Encoding
	}
	seen := map[found]bool{}
	var out []SecretMatch
	// A raw needle found only in a decoded view was escaped in the
	// original; decoded names that escaping.
	search := func(view []byte, decoded Encoding, skipRaw bool) {
		for i := 0; i+8 <= len(view); i++ {
			p := prefixBit(view[i:])
			if x.prefix[p/64]&(1<<(p%64)) == 0 {
				continue
			}
			for _, n := range x.needles[binary.LittleEndian.Uint64(view[i:])] {
				if n.enc == EncRaw && skipRaw || !bytes.HasPrefix(view[i:], n.text) {
					continue
				}
				enc := n.enc
				if enc == EncRaw {
					enc = decoded
				}
				if f := (found{n.secret, n.enc}); !seen[f] {
					seen[f] = true
					out = append(out, SecretMatch{Secret: x.byValue[n.secret], Encoding: enc})
				}
			}
		}
	}
	search(text, EncRaw, false)
	view := text
	// Text escaped more than once (a JSON string holding JSON that holds
	// the secret as \uXXXX) is unescaped up to maxUnescape times.
	for range maxUnescape {
		if bytes.IndexByte(view, '\\') < 0 {
			break
		}
		view = jsonUnescape(view)
		search(view, EncJSON, false)
	}
	if bytes.IndexByte(view, '%') >= 0 {
		view = percentDecode(view)
		search(view, EncURL, false)
	}
	// Base64 and hex blobs are often wrapped over lines; secrets are not.
	if squeezed := dropSpace(view); len(squeezed) < len(view) {
		search(squeezed, EncRaw, true)
	}
	// A piece of a secret says less than the secret: report pieces only
	// of secrets not found whole.
	whole := map[uint64]bool{}
	for _, m := range out {
		if m.Encoding != EncFragment {
			whole[m.Secret] = true
		}
	}
	return slices.DeleteFunc(out, func(m SecretMatch) bool { return m.Encoding == EncFragment && whole[m.Secret] })
}

// maxUnescape bounds how many layers of JSON escaping Find undoes.
const maxUnescape = 3

// jsonUnescape decodes backslash escapes wherever they are, leaving
// anything that is not a valid escape as it is.
func jsonUnescape(s []byte) []byte {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			out = append(out, s[i])
			i++
			continue
		}
		r, n := unescape(s[i:])
		if n == 2 {
			switch s[i+1] {
			case 'n':
				r = '\n'
			case 'r':
				r = '\r'
			case 't':
				r = '\t'
			case 'b':
				r = '\b'
			case 'f':
				r = '\f'
			}
		}
		out = utf8.AppendRune(out, r)
		i += n
	}
	return out
}

func dropSpace(s []byte) []byte {
	out := make([]byte, 0, len(s))
	for _, c := range s {
		if c != ' ' && c != '\n' && c != '\r' && c != '\t' {
			out = append(out, c)
		}
	}
	return out
}

// percentDecode decodes %XX escapes, leaving malformed ones as they are.
func percentDecode(s []byte) []byte {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if r, ok := hex4([]byte{'0', '0', s[i+1], s[i+2]}); ok {
				out = append(out, byte(r))
				i += 2
				continue
			}
		}
		out = append(out, s[i])
	}
	return out
}
