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
//
// A session may hold thousands of secrets with a dozen needles each, so the
// needles are compact: a needle is a form number of its secret (which
// encoding, which base64 alignment, which piece) and the form's first 8
// bytes, its key; one open-addressing table of needle numbers, keyed by
// those 8 bytes, finds them. The encoded forms themselves are not kept:
// Find encodes a form again only when text matches its key, which text
// without the secret almost never does. Forgotten secrets are only marked;
// their needles are swept out in one rebuild once they are as many as the
// live ones, so forgetting stays amortised O(1).
type SecretIndex struct {
	max int

	mu      sync.RWMutex
	secrets []secretSlot      // by slot number
	order   []uint32          // live slots, oldest first
	free    []uint32          // slots whose needles are gone, for reuse
	byValue map[string]uint32 // value → slot
	needles []needle
	keys    []uint64 // by needle number: the needle's first 8 bytes
	table   []uint32 // needle number + 1 of each 8-byte prefix's chain; 0 is empty
	dead    int      // needles of forgotten secrets
	// prefix has a bit per hashed 4-byte prefix of any needle: most text
	// positions are rejected with one bit test, without a table lookup. It
	// is sized for thousands of secrets, each with a dozen needles, to
	// stay sparse.
	prefix  [prefixBits / 64]uint64
	scratch []byte // for Add: a form being keyed
}

type secretSlot struct {
	id      uint64
	value   string
	needles int
	live    bool
}

// needle is one form of a secret. Needles that start with the same 8 bytes
// (the hex of every AWS key starts "414b4941") are chained through next,
// so that the table holds each prefix once and its probe runs stay short.
type needle struct {
	slot uint32
	next uint32 // needle number + 1 of the next with the same prefix; 0 ends
	form form
}

// form numbers the searched forms of a secret s: formRaw is s itself, then
// its lower- and upper-case hex, the standard and URL base64 of its whole
// 3-byte groups from byte j (j = 0, 1, 2), s in its other case, and from
// formFragment on the fragmentLen-byte piece at fragmentStride·(f −
// formFragment).
type form uint16

const (
	formRaw form = iota
	formHex
	formHexUpper
	formBase64                     // + j
	formBase64URL = formBase64 + 3 // + j
	formCase      = formBase64URL + 3
	formFragment  = formCase + 1
)

// encoding is how Find names a form found in text.
func (f form) encoding() Encoding {
	switch {
	case f == formRaw:
		return EncRaw
	case f <= formHexUpper:
		return EncHex
	case f < formBase64URL:
		return EncBase64
	case f < formCase:
		return EncBase64URL
	case f == formCase:
		return EncCase
	}
	return EncFragment
}

// appendForm appends form f of secret s to dst.
func appendForm(dst []byte, s string, f form) []byte {
	switch {
	case f == formRaw:
		return append(dst, s...)
	case f <= formHexUpper:
		off := len(dst)
		dst = hex.AppendEncode(dst, []byte(s))
		if f == formHexUpper {
			upper(dst[off:])
		}
		return dst
	case f < formBase64URL:
		return base64.RawStdEncoding.AppendEncode(dst, groups(s, int(f-formBase64)))
	case f < formCase:
		return base64.RawURLEncoding.AppendEncode(dst, groups(s, int(f-formBase64URL)))
	case f == formCase:
		if strings.ToUpper(s) == s {
			return append(dst, strings.ToLower(s)...)
		}
		return append(dst, strings.ToUpper(s)...)
	}
	i := int(f-formFragment) * fragmentStride
	return append(dst, s[i:i+fragmentLen]...)
}

// groups is the whole 3-byte groups of s from byte j: whichever alignment
// s had inside an encoded blob, the base64 of one of j = 0, 1, 2 appears in
// it verbatim.
func groups(s string, j int) []byte { return []byte(s[j : j+(len(s)-j)/3*3]) }

func upper(b []byte) {
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
}

// NewSecretIndex returns an index that keeps at most max secrets, forgetting
// the oldest.
func NewSecretIndex(max int) (*SecretIndex, error) {
	if max < 1 {
		return nil, fmt.Errorf("fingerprint: secret index size %d must be positive", max)
	}
	return &SecretIndex{max: max, byValue: make(map[string]uint32)}, nil
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
	if s, ok := x.byValue[secret]; ok {
		x.secrets[s].id = id
		return
	}
	if len(x.order) == x.max {
		x.forget(x.order[0])
		x.order = x.order[1:]
	}
	var slot uint32
	if n := len(x.free); n > 0 {
		slot = x.free[n-1]
		x.free = x.free[:n-1]
	} else {
		slot = uint32(len(x.secrets))
		x.secrets = append(x.secrets, secretSlot{})
	}
	// A copy, not a window into the text the secret was found in, which
	// may be large.
	value := strings.Clone(secret)
	forms := searchedForms(value)
	x.secrets[slot] = secretSlot{id: id, value: value, needles: len(forms), live: true}
	x.order = append(x.order, slot)
	x.byValue[value] = slot
	if (len(x.needles)+len(forms)+1)*2 > len(x.table) {
		x.rebuild(max(64, (len(x.needles)-x.dead+len(forms))*4))
	}
	for _, f := range forms {
		x.scratch = appendForm(x.scratch[:0], value, f)
		x.needles = append(x.needles, needle{slot: slot, form: f})
		x.keys = append(x.keys, binary.LittleEndian.Uint64(x.scratch))
		x.insert(uint32(len(x.needles)))
		x.setPrefix(x.scratch)
	}
}

func needleHome(key uint64, size int) int {
	return int((key * 0x9e3779b97f4a7c15 >> 32) * uint64(size) >> 32)
}

// insert puts needle number stored-1 at the head of its prefix's chain;
// the table has room.
func (x *SecretIndex) insert(stored uint32) {
	n := &x.needles[stored-1]
	i := x.cell(x.keys[stored-1])
	n.next = x.table[i]
	x.table[i] = stored
}

// cell returns the table cell of key's chain, or the empty cell where it
// would go.
func (x *SecretIndex) cell(key uint64) int {
	for i := needleHome(key, len(x.table)); ; {
		c := x.table[i]
		if c == 0 || x.keys[c-1] == key {
			return i
		}
		if i++; i == len(x.table) {
			i = 0
		}
	}
}

// rebuild drops the needles of forgotten secrets, frees their slots and
// rehashes the rest into a table of size cells.
func (x *SecretIndex) rebuild(size int) {
	if x.dead > 0 {
		kept := 0
		for k, n := range x.needles {
			if x.secrets[n.slot].live {
				x.needles[kept], x.keys[kept] = n, x.keys[k]
				kept++
			}
		}
		x.needles, x.keys = x.needles[:kept], x.keys[:kept]
		for s := range x.secrets {
			if !x.secrets[s].live && x.secrets[s].value != "" {
				x.secrets[s] = secretSlot{}
				x.free = append(x.free, uint32(s))
			}
		}
		x.dead = 0
		clear(x.prefix[:])
		var key [8]byte
		for _, k := range x.keys {
			binary.LittleEndian.PutUint64(key[:], k)
			x.setPrefix(key[:])
		}
	}
	x.table = make([]uint32, size)
	for k := range x.needles {
		x.insert(uint32(k + 1))
	}
}

const prefixBits = 1 << 20

func prefixBit(s []byte) uint32 { return binary.LittleEndian.Uint32(s) * 0x9e3779b1 >> (32 - 20) }

func (x *SecretIndex) setPrefix(s []byte) {
	p := prefixBit(s)
	x.prefix[p/64] |= 1 << (p % 64)
}

func (x *SecretIndex) forget(slot uint32) {
	s := &x.secrets[slot]
	delete(x.byValue, s.value)
	s.live = false
	x.dead += s.needles
	if x.dead*2 >= len(x.needles) {
		x.rebuild(len(x.table))
	}
}

// searchedForms lists the forms of secret searched for. Hex and base32
// secrets mean the same in either case, so a single-case secret is also
// searched in the other case. fragmentLen-byte pieces of a long secret at
// every fragmentStride bytes let a secret cut in two (half in one field,
// half in another) still be found: any run of fragmentLen+fragmentStride-1
// bytes of it holds a whole piece. Short secrets have no pieces: a piece
// must be much shorter than the whole.
func searchedForms(secret string) []form {
	n := len(secret)
	forms := []form{formRaw, formHex, formHexUpper}
	for j := range form(3) {
		forms = append(forms, formBase64+j)
		// Without '+' and '/' in it, the URL alphabet's form is the same.
		if std := base64.RawStdEncoding.EncodeToString(groups(secret, int(j))); strings.ContainsAny(std, "+/") {
			forms = append(forms, formBase64URL+j)
		}
	}
	if up, low := strings.ToUpper(secret), strings.ToLower(secret); (secret == up) != (secret == low) {
		forms = append(forms, formCase)
	}
	if n >= 2*fragmentLen-8 {
		for i := 0; i+fragmentLen <= n; i += fragmentStride {
			forms = append(forms, formFragment+form(i/fragmentStride))
		}
	}
	return forms
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
		slot uint32
		enc  Encoding
	}
	seen := map[found]bool{}
	var out []SecretMatch
	var enc []byte
	// A raw needle found only in a decoded view was escaped in the
	// original; decoded names that escaping.
	search := func(view []byte, decoded Encoding, skipRaw bool) {
		for i := 0; i+8 <= len(view); i++ {
			p := prefixBit(view[i:])
			if x.prefix[p/64]&(1<<(p%64)) == 0 {
				continue
			}
			for k := x.table[x.cell(binary.LittleEndian.Uint64(view[i:]))]; k != 0; {
				n := x.needles[k-1]
				k = n.next
				if n.form == formRaw && skipRaw || !x.secrets[n.slot].live {
					continue
				}
				enc = appendForm(enc[:0], x.secrets[n.slot].value, n.form)
				if !bytes.HasPrefix(view[i:], enc) {
					continue
				}
				name := n.form.encoding()
				if n.form == formRaw {
					name = decoded
				}
				if f := (found{n.slot, n.form.encoding()}); !seen[f] {
					seen[f] = true
					out = append(out, SecretMatch{Secret: x.secrets[n.slot].id, Encoding: name})
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
