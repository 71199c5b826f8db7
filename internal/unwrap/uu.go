package unwrap

import (
	"strings"

	"github.com/flowd-dev/flowd/internal/jsontext"
)

// A uuencoded line says how long it is: its first character is the count
// of bytes it holds (' ' plus the count), and the four characters per
// three bytes that follow are exactly as many as that count needs. So a
// line needs no "begin" line to be read: an agent that uuencodes a key
// sends one line, after a label or alone. uuLines reads each stretch of
// uuencode's alphabet (' ' to '`') from its end: at most a few places
// can hold the count that fits, and a line is kept only when it decodes
// to text. Lines one after the other are joined, as a file's are.

// maxUULine is the most bytes a uuencoded line holds (the count 'M').
const maxUULine = 45

func uuByte(c byte) bool { return c >= ' ' && c <= '`' }

// uuStop: c ends any stretch it stands in, as an escape's 'u' and hex
// digits (\u003c) do not.
func uuStop(c byte) bool { return c > 'f' && c != 'u' || c < ' ' }

// uuLines appends to out what the uuencoded lines of a JSON string's
// raw contents decode to; val is scratch for the unescaped stretches.
func uuLines(out [][]byte, raw []byte, val *[]byte) [][]byte {
	var joined []byte // the lines read so far, one after the other
	flush := func() {
		if len(joined) >= 8 {
			out = append(out, joined)
		}
		joined = nil
	}
	for i := 0; i < len(raw); {
		if p := i + minRadixRun - 1; joined == nil && p < len(raw) && uuStop(raw[p]) {
			// No stretch long enough starts before p: each would hold
			// raw[p]. Prose skips most of its bytes so.
			i = p + 1
			continue
		}
		j := i
		if uuByte(raw[i]) {
			j = uuStretch(raw, i)
		}
		if j == i {
			if joined != nil {
				flush()
			}
			i++
			if raw[i-1] == '\\' && i < len(raw) {
				i++
			}
			continue
		}
		if j-i < minRadixRun && joined == nil {
			// Prose's blanks and punctuation between words.
			i = j
			continue
		}
		var ok bool
		if *val, ok = jsontext.Decode((*val)[:0], raw[i:j]); ok {
			// A line alone holds a value's worth: shorter ones decode
			// to text by chance.
			if b, ok := uuLine(*val); ok && (len(b) >= 8 || joined != nil) {
				joined = append(joined, b...)
			} else {
				flush()
			}
		}
		i = j
		// Past a line break the next line may go on with the value.
		if i+1 < len(raw) && raw[i] == '\\' && raw[i+1] == 'n' {
			i += 2
			continue
		}
		flush()
	}
	flush()
	return out
}

// uuStretch is where the stretch of uuencode's bytes (escapes but line
// breaks among them: JSON writers escape '<', '>' and '&') starting at raw[i] ends; i when none starts there.
func uuStretch(raw []byte, i int) int {
	j := i
	for j < len(raw) {
		c := raw[j]
		if c == '\\' && j+1 < len(raw) {
			switch e := raw[j+1]; {
			case e == 'n' || e == 'r' || e == 't':
				return j
			case e == 'u' && j+6 <= len(raw):
				j += 6
			default:
				j += 2
			}
			continue
		}
		if !uuByte(c) {
			break
		}
		j++
	}
	return j
}

// lineAlphabet is the six-bit alphabet of a line encoding that writes
// its count first: each byte's value, -1 for a byte not of it.
type lineAlphabet [256]int8

func lineAlphabetOf(value func(c byte) int) *lineAlphabet {
	var a lineAlphabet
	for c := range 256 {
		a[c] = int8(value(byte(c)))
	}
	return &a
}

var (
	// uuAlphabet: ' ' to '`', each its offset from ' ' (and '`' zero).
	uuAlphabet = lineAlphabetOf(func(c byte) int {
		if !uuByte(c) {
			return -1
		}
		return int(c-' ') & 63
	})
	// xxAlphabet is xxencode's, which has no blank for an editor to trim.
	xxAlphabet = lineAlphabetOf(func(c byte) int {
		return strings.IndexByte("+-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", c)
	})
)

// uuLine decodes the uuencoded line that ends s, the longest that reads
// as one: its count at the place that count puts it. The line's last
// blanks (which encode zero bits) may have been trimmed.
func uuLine(s []byte) ([]byte, bool) { return countedLine(s, uuAlphabet, 3) }

// xxLine decodes the xxencoded line that ends s.
func xxLine(s []byte) ([]byte, bool) { return countedLine(s, xxAlphabet, 0) }

// countedLine decodes the line of alphabet a that ends s, the longest
// that reads as one, up to trim of its last characters missing.
func countedLine(s []byte, a *lineAlphabet, trim int) ([]byte, bool) {
	for groups := maxUULine / 3; groups >= 1; groups-- {
		for trimmed := range trim + 1 {
			body := 4*groups - trimmed
			p := len(s) - 1 - body
			if p < 0 {
				continue
			}
			n := int(a[s[p]])
			if n < 3*groups-2 || n > 3*groups {
				continue
			}
			var got [maxUULine + 3]byte
			k := 0
			for g := range groups {
				var q [4]byte
				for c := range 4 {
					if at := p + 1 + 4*g + c; at < len(s) {
						q[c] = byte(a[s[at]]) & 63
					}
				}
				got[k], got[k+1], got[k+2] = q[0]<<2|q[1]>>4, q[1]<<4|q[2]>>2, q[2]<<6|q[3]
				k += 3
			}
			if b, ok := printable(got[:n]); ok {
				return append([]byte(nil), b...), true
			}
		}
	}
	return nil, false
}
