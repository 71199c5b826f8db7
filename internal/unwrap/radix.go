package unwrap

import (
	"bytes"
	"encoding/ascii85"
	"encoding/binary"
	"math"

	"github.com/flowd-dev/flowd/internal/jsontext"
)

// The encodings whose alphabets are not base64's or are read as numbers
// in another radix: base58 (wallets, IPFS) and the other radixes of a
// big number, base32 in the extended-hex alphabet, bits, Ascii85, RFC
// 1924 base85 and Z85 (PDF, git binary patches, Python's b85encode,
// ZeroMQ) and uuencode. What they decode to is kept only
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

// The alphabets a run of letters and digits is read in as one number:
// bytes turned into a big number are written in whatever radix an
// encoder picks (decimal, octal, base36, base62 in either order of the
// cases, base58), and the smallest alphabet that holds the run is the
// one it was written in.
var (
	base58Digits   = digitValues(base58Alphabet)
	octalDigits    = digitValues("01234567")
	hexDigitValues = digitValues("0123456789abcdef")
	decDigits      = digitValues("0123456789")
	lower36        = digitValues("0123456789abcdefghijklmnopqrstuvwxyz")
	upper36        = digitValues("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
	upperFirst62   = digitValues("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
	lowerFirst62   = digitValues("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
)

// digitAlphabet is the value of each byte as a digit (-1: not one) and
// the radix.
type digitAlphabet struct {
	value [256]int8
	radix uint64
}

func digitValues(alphabet string) *digitAlphabet {
	a := &digitAlphabet{radix: uint64(len(alphabet))}
	for i := range a.value {
		a.value[i] = -1
	}
	for i := range len(alphabet) {
		a.value[alphabet[i]] = int8(i)
	}
	return a
}

// maxNumberBytes bounds what a run read as a number may hold: more than
// a secret, a JWT's 140 bytes included, and the reading is quadratic in
// the run.
const maxNumberBytes = 192

// maxBase58 is the longest run read as base58: it holds maxNumberBytes.
const maxBase58 = 8 * maxNumberBytes * 100 / 586

// decodeBase58 reads run as a big number written in base58.
func decodeBase58(run []byte) ([]byte, bool) {
	if len(run) > maxBase58 {
		return nil, false
	}
	return decodeNumber(run, base58Digits)
}

// decodeNumber reads run as a big number written in a's digits, in
// 32-bit limbs, least significant first, taking as many digits at a time
// as a limb holds (nine decimal ones).
func decodeNumber(run []byte, a *digitAlphabet) ([]byte, bool) {
	for _, c := range run {
		if a.value[c] < 0 {
			return nil, false
		}
	}
	var limbs [maxNumberBytes / 4]uint32
	used := 0
	for i := 0; i < len(run); {
		chunk, scale := uint64(0), uint64(1)
		for ; i < len(run) && scale*a.radix <= 1<<32; i++ {
			chunk, scale = chunk*a.radix+uint64(a.value[run[i]]), scale*a.radix
		}
		carry := chunk
		for k := 0; k < used; k++ {
			t := uint64(limbs[k])*scale + carry
			limbs[k], carry = uint32(t), t>>32
		}
		if carry > 0 {
			if used == len(limbs) {
				return nil, false
			}
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

// minNumberRun is the shortest run read as a number in a radix other
// than base58: decimal needs 20 digits for 8 bytes, textLike's least.
const minNumberRun = 20

// decodeRadixNumber reads run as one number in the alphabet its prefix
// names (0o, 0x), or else in the smallest alphabet of digits that holds
// it (octal, decimal, base36 in one case, base62 in either order),
// besides base58, which decode reads first; hex without a prefix is read
// as bytes by decode. A random run of letters and digits is a number in
// some radix too: what it gives is kept only when it is printable ASCII
// (asciiText), which random bytes are not.
func decodeRadixNumber(out [][]byte, run []byte) [][]byte {
	if len(run) < minNumberRun || len(run) > 8*maxNumberBytes/3 {
		return out
	}
	var try [2]*digitAlphabet
	if run[0] == '0' && (run[1] == 'o' || run[1] == 'x') {
		try[0] = octalDigits
		if run[1] == 'x' {
			try[0] = hexDigitValues
		}
		run = run[2:]
	} else {
		try = numberAlphabets(run)
	}
	for _, a := range try {
		if a == nil {
			break
		}
		if !leadsPrintable(run, a) {
			continue
		}
		if b, ok := decodeNumber(run, a); ok && asciiText(b) {
			out = inflate(out, b)
		}
	}
	return out
}

// leadsPrintable reports whether the number run writes in a's digits
// may begin with two bytes of printable ASCII (or compressed data's
// first), judged from its leading digits in floating point before the
// exact reading, which is quadratic: most runs that are no such number
// (identifiers, random tokens) fail here. Near a byte's edge it says
// yes: the estimate is good to far better than a unit of the two bytes.
func leadsPrintable(run []byte, a *digitAlphabet) bool {
	for len(run) > 0 && a.value[run[0]] == 0 {
		run = run[1:]
	}
	const lead = 10
	if len(run) < 3 {
		return false
	}
	k := min(len(run), lead)
	v := 0.0
	for _, c := range run[:k] {
		v = v*float64(a.radix) + float64(a.value[c])
	}
	// log256 of the number; its two leading bytes are 256^(1+frac).
	x := (math.Log(v) + float64(len(run)-k)*math.Log(float64(a.radix))) / math.Log(256)
	if x < 1 {
		return false
	}
	top := math.Pow(256, 1+x-math.Floor(x))
	ok := func(t float64) bool {
		hi, lo := int(t)>>8, int(t)&0xff
		return (hi >= 0x20 && hi < 0x7f || hi == '\t' || hi == '\n' || hi == '\r' || hi == 0x1f) &&
			(lo >= 0x20 && lo < 0x7f || lo == '\t' || lo == '\n' || lo == '\r' || hi == 0x1f || hi == 0x78)
	}
	return ok(top) || ok(top-0.01) || ok(top+0.01)
}

// numberAlphabets are the smallest alphabets of digits that hold run.
func numberAlphabets(run []byte) (try [2]*digitAlphabet) {
	var lower, upper, highDigit bool
	for _, c := range run {
		switch {
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z':
			upper = true
		case c == '8' || c == '9':
			highDigit = true
		case c >= '0' && c <= '7':
		default:
			return try
		}
	}
	switch {
	case lower && upper:
		return [2]*digitAlphabet{upperFirst62, lowerFirst62}
	case lower:
		return [2]*digitAlphabet{lower36}
	case upper:
		return [2]*digitAlphabet{upper36}
	case highDigit:
		return [2]*digitAlphabet{decDigits}
	}
	return [2]*digitAlphabet{octalDigits, decDigits}
}

// asciiText: b starts compressed data, or all but a sixteenth of it is
// printable ASCII or blanks.
func asciiText(b []byte) bool {
	if len(b) > 2 && (b[0] == 0x1f && b[1] == 0x8b || b[0] == 0x78 && (uint16(b[0])<<8|uint16(b[1]))%31 == 0) {
		return true
	}
	bad := 0
	for _, c := range b {
		if (c < ' ' || c > '~') && c != '\n' && c != '\r' && c != '\t' {
			bad++
		}
	}
	return bad*16 <= len(b)
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
		out = uuLines(out, raw, &val)
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

// radixToken appends the decoding of tok as Ascii85 or base85 (either
// alphabet), or what that inflates to.
func radixToken(out [][]byte, tok []byte) [][]byte {
	if bytes.HasPrefix(tok, []byte("<~")) && bytes.HasSuffix(tok, []byte("~>")) {
		tok = tok[2 : len(tok)-2]
	}
	if b, ok := decodeA85(tok); ok {
		out = append(out, b)
	}
	for _, a := range [...]*digitAlphabet{b85Digits, z85Digits} {
		// Each alphabet is read: one token can be valid in both, and
		// garbage can pass for text.
		b, ok := decodeB85(tok, a)
		if ok {
			out = append(out, b)
			continue
		}
		if b != nil {
			// Not text: raw deflate has no header to tell it by.
			out = inflateRaw(out, b)
		}
	}
	return out
}

// symbolic: a sixteenth or more of tok is neither a letter nor a digit,
// as in base85 (over a quarter of its alphabets, and seldom under a
// tenth of a token) and not in words or base64.
func symbolic(tok []byte) bool {
	n := 0
	for _, c := range tok {
		if !isAlnumByte(c) {
			n++
		}
	}
	return n*16 >= len(tok)
}

func decodeA85(s []byte) ([]byte, bool) {
	dst := make([]byte, 4*len(s)/5+4)
	n, _, err := ascii85.Decode(dst, s, true)
	return dst[:n], err == nil && textLike(dst[:n])
}

// The base85 alphabets: RFC 1924's (git, Python's b85encode) and
// ZeroMQ's Z85. Ascii85's is a range, read by encoding/ascii85.
var (
	b85Digits = digitValues(b85Alphabet)
	z85Digits = digitValues("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#")
)

const b85Alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~"

// decodeB85 reads base85 in a's alphabet, a short last group padded as
// Python's b85decode pads it. Z85 pads the input with zeros instead:
// those at the end are dropped.
func decodeB85(s []byte, a *digitAlphabet) ([]byte, bool) {
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
				if d = a.value[g[k]]; d < 0 {
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
	return out, textLike(bytes.TrimRight(out, "\x00"))
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
