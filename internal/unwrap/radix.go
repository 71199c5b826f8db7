package unwrap

import (
	"bytes"
	"encoding/ascii85"
	"encoding/binary"

	"github.com/flowd-dev/flowd/internal/jsontext"
)

// The encodings whose alphabets are not base64's or are read as numbers
// in another radix: base58 (wallets, IPFS), base32 in the extended-hex
// alphabet, bits, Ascii85 and RFC 1924 base85 (PDF, git binary patches,
// Python's b85encode) and uuencode. What they decode to is kept only
// when it reads as text (or is compressed): any word can be read in some
// radix, and the garbage that gives would be views for nothing.

// textLike: b is mostly printable text, or starts compressed data.
func textLike(b []byte) bool {
	if len(b) < 8 {
		return false
	}
	if b[0] == 0x1f && b[1] == 0x8b || b[0] == 0x78 && (uint16(b[0])<<8|uint16(b[1]))%31 == 0 {
		return true
	}
	bad := 0
	for _, c := range b {
		if (c < ' ' && c != '\n' && c != '\r' && c != '\t') || c == 0x7f {
			bad++
		}
	}
	return bad*16 <= len(b)
}

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

var base58Value = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i := range len(base58Alphabet) {
		t[base58Alphabet[i]] = int8(i)
	}
	return t
}()

// maxBase58 bounds a base58 run: its decoding is quadratic in the run,
// and 256 characters hold 187 bytes, more than a secret.
const maxBase58 = 256

// decodeBase58 reads run as a big number written in base58, in 32-bit
// limbs, least significant first.
func decodeBase58(run []byte) ([]byte, bool) {
	if len(run) > maxBase58 {
		return nil, false
	}
	for _, c := range run {
		if base58Value[c] < 0 {
			return nil, false
		}
	}
	var limbs [maxBase58*6/32 + 1]uint32
	used := 0
	for _, c := range run {
		carry := uint64(base58Value[c])
		for k := 0; k < used; k++ {
			t := uint64(limbs[k])*58 + carry
			limbs[k], carry = uint32(t), t>>32
		}
		if carry > 0 {
			limbs[used] = uint32(carry)
			used++
		}
	}
	out := make([]byte, 0, 4*used)
	for k := used - 1; k >= 0; k-- {
		out = binary.BigEndian.AppendUint32(out, limbs[k])
	}
	for len(out) > 0 && out[0] == 0 {
		out = out[1:]
	}
	return out, textLike(out)
}

// decodeBits reads a run of 0s and 1s, eight to a byte.
func decodeBits(run []byte) ([]byte, bool) {
	if len(run)%8 != 0 || len(run) < 64 {
		return nil, false
	}
	out := make([]byte, 0, len(run)/8)
	for i := 0; i < len(run); i += 8 {
		var v byte
		for _, c := range run[i : i+8] {
			if c != '0' && c != '1' {
				return nil, false
			}
			v = v<<1 | (c - '0')
		}
		out = append(out, v)
	}
	return out, textLike(out)
}

// minRadixRun is the shortest base85 or uuencoded run decoded.
const minRadixRun = 20

// radixViews appends to out what the Ascii85, base85 and uuencoded
// stretches of text decode to: each `<~…~>` block, and each blank-free
// token of a JSON string's value (where the quotes around it end it,
// which they cannot in the raw text: both alphabets hold quotes). The
// tokens are cut from the string as it stands, and only one that may be
// base85 is unescaped: a megabyte-long string is not copied.
func radixViews(out [][]byte, text []byte) [][]byte {
	for i := 0; i < len(text); {
		k := bytes.Index(text[i:], []byte("<~"))
		if k < 0 {
			break
		}
		start := i + k + 2
		end := bytes.Index(text[start:], []byte("~>"))
		if end < 0 {
			break
		}
		if b, ok := decodeA85(text[start : start+end]); ok {
			out = append(out, b)
		}
		i = start + end + 2
	}
	var val []byte
	for i := 0; i < len(text); i++ {
		if text[i] != '"' {
			continue
		}
		j := i + 1
		for j < len(text) && text[j] != '"' {
			if text[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(text) {
			break
		}
		raw := text[i+1 : j]
		i = j
		if len(raw) < minRadixRun {
			continue
		}
		if k := bytes.Index(raw, []byte("begin ")); k >= 0 && (k == 0 || bytes.HasSuffix(raw[:k], []byte(`\n`))) {
			var ok bool
			if val, ok = jsontext.Decode(val[:0], raw[k:]); ok {
				if b, ok := uudecode(val); ok {
					out = append(out, b)
				}
			}
		}
		for t := 0; t < len(raw); {
			e := t
			for e < len(raw) && raw[e] > ' ' && !(raw[e] == '\\' && e+1 < len(raw) && (raw[e+1] == 'n' || raw[e+1] == 'r' || raw[e+1] == 't')) {
				if e-t > maxRadixToken {
					// A blob: on to its end at the next blank.
					if k := bytes.IndexByte(raw[e:], ' '); k >= 0 {
						e += k
					} else {
						e = len(raw)
					}
					break
				}
				if raw[e] == '\\' {
					e++
				}
				e++
			}
			tok := raw[t:min(e, len(raw))]
			t = e + 1
			if len(tok) < minRadixRun || len(tok) > maxRadixToken || !symbolic(tok) {
				continue
			}
			var ok bool
			if val, ok = jsontext.Decode(val[:0], tok); ok {
				out = radixToken(out, val)
			}
		}
	}
	return out
}

// maxRadixToken is the longest token read as base85: a secret's
// encoding, even compressed, is shorter, and base64 blobs are longer.
const maxRadixToken = 4096

// radixToken appends the decoding of tok as Ascii85 or base85.
func radixToken(out [][]byte, tok []byte) [][]byte {
	if bytes.HasPrefix(tok, []byte("<~")) && bytes.HasSuffix(tok, []byte("~>")) {
		tok = tok[2 : len(tok)-2]
	}
	if b, ok := decodeA85(tok); ok {
		return append(out, b)
	}
	if b, ok := decodeB85(tok); ok {
		return append(out, b)
	}
	return out
}

// symbolic: a tenth or more of tok is neither a letter nor a digit, as
// in base85 (a third of its alphabet) and not in words or base64.
func symbolic(tok []byte) bool {
	n := 0
	for _, c := range tok {
		if !isAlnumByte(c) {
			n++
		}
	}
	return n*10 >= len(tok)
}

func decodeA85(s []byte) ([]byte, bool) {
	dst := make([]byte, 4*len(s)/5+4)
	n, _, err := ascii85.Decode(dst, s, true)
	return dst[:n], err == nil && textLike(dst[:n])
}

const b85Alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~"

var b85Value = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i := range len(b85Alphabet) {
		t[b85Alphabet[i]] = int8(i)
	}
	return t
}()

// decodeB85 reads RFC 1924's base85, a short last group padded as
// Python's b85decode pads it.
func decodeB85(s []byte) ([]byte, bool) {
	out := make([]byte, 0, 4*len(s)/5+4)
	for i := 0; i < len(s); i += 5 {
		g := s[i:min(i+5, len(s))]
		if len(g) == 1 {
			return nil, false
		}
		var v uint64
		for k := range 5 {
			d := int8(84) // pad
			if k < len(g) {
				if d = b85Value[g[k]]; d < 0 {
					return nil, false
				}
			}
			v = v*85 + uint64(d)
		}
		if v > 0xffffffff {
			return nil, false
		}
		w := []byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}
		out = append(out, w[:len(g)-1]...)
	}
	return out, textLike(out)
}

// uudecode reads a uuencoded body from its "begin" line to "end".
func uudecode(s []byte) ([]byte, bool) {
	var out []byte
	lines := bytes.Split(s, []byte("\n"))
	for _, l := range lines[1:] {
		l = bytes.TrimRight(l, "\r")
		if len(l) == 0 || bytes.Equal(l, []byte("end")) {
			break
		}
		n := int((l[0] - ' ') & 63)
		if n == 0 {
			break
		}
		body := l[1:]
		var got []byte
		for i := 0; i < len(body) && len(got) < n; i += 4 {
			var q [4]byte
			for k := range 4 {
				if i+k < len(body) {
					q[k] = (body[i+k] - ' ') & 63
				}
			}
			got = append(got, q[0]<<2|q[1]>>4, q[1]<<4|q[2]>>2, q[2]<<6|q[3])
		}
		if len(got) < n {
			return nil, false
		}
		out = append(out, got[:n]...)
	}
	return out, textLike(out)
}
