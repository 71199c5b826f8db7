package fingerprint

import (
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/flowd-dev/flowd/internal/jsontext"
)

// normalize appends to dst the form of s that survives light reformatting:
// lower case, no whitespace at all (so re-indentation, wrapping and line
// endings vanish) and backslash escapes decoded (so text that went through
// one more round of JSON or string-literal encoding still compares equal).
func normalize(dst, s []byte) []byte {
	dst, _ = normalizeSome(dst, s, true)
	return dst
}

// maxToken is the longest sequence normalize reads as one: a surrogate
// pair of \u escapes.
const maxToken = 12

// normalizeSome is normalize of a prefix of s: all of it when final, else
// up to where a sequence could be cut by the end of s. It returns how
// many bytes of s it read; the rest starts the next call's s.
func normalizeSome(dst, s []byte, final bool) ([]byte, int) {
	for i := 0; i < len(s); {
		// ASCII runs, the bulk of any text, go through a table without
		// append's per-byte bookkeeping.
		dst = slices.Grow(dst, len(s)-i)
		out := dst[len(dst) : len(dst)+len(s)-i]
		n := 0
		for ; i < len(s); i++ {
			t := asciiNorm[s[i]]
			if t == slowByte {
				break
			}
			out[n] = t
			n += b2i(t != dropByte)
		}
		dst = dst[:len(dst)+n]
		if i == len(s) {
			break
		}
		if !final && len(s)-i < maxToken {
			return dst, i
		}
		var r rune
		var n2 int
		if c := s[i]; c == '\\' {
			r, n2 = unescape(s[i:])
		} else if r, n2 = utf8.DecodeRune(s[i:]); r == utf8.RuneError && n2 == 1 {
			// Not UTF-8: keep the byte so binary-ish text still fingerprints.
			dst = append(dst, c)
			i++
			continue
		}
		i += n2
		switch {
		case r < utf8.RuneSelf:
			if t := asciiNorm[r]; t != dropByte && t != slowByte {
				dst = append(dst, t)
			} else if r == '\\' {
				dst = append(dst, '\\')
			}
		case r < rune(len(twoByteNorm)):
			if l := twoByteNorm[r]; l >= 0 {
				dst = utf8.AppendRune(dst, l)
			}
		case unicode.IsSpace(r):
		default:
			dst = utf8.AppendRune(dst, unicode.ToLower(r))
		}
	}
	return dst, len(s)
}

// twoByteNorm is the normalised form of each rune of two UTF-8 bytes
// (Latin, Greek, Cyrillic, combining marks), -1 for white space: looked
// up, where the unicode tables' searches cost 50 ns a byte of such text.
var twoByteNorm = func() (t [0x800]rune) {
	for r := range rune(len(t)) {
		t[r] = unicode.ToLower(r)
		if unicode.IsSpace(r) {
			t[r] = -1
		}
	}
	return t
}()

const (
	dropByte = 0    // whitespace and control bytes vanish
	slowByte = 0xff // backslash and non-ASCII need decoding
)

// asciiNorm maps each byte to its normalised form, dropByte or slowByte.
var asciiNorm = func() (t [256]byte) {
	for c := range 256 {
		switch {
		case c <= ' ' || c == 0x7f:
			t[c] = dropByte
		case c == '\\' || c >= utf8.RuneSelf:
			t[c] = slowByte
		case 'A' <= c && c <= 'Z':
			t[c] = byte(c) + 'a' - 'A'
		default:
			t[c] = byte(c)
		}
	}
	return t
}()

// unescape decodes one backslash escape at the start of s. An unknown escape
// is a literal backslash, as most languages treat it.
func unescape(s []byte) (rune, int) {
	if r, n := jsontext.LenientEscape(s); n > 0 {
		return r, n
	}
	return '\\', 1
}

// Evidence thresholds: text with fewer letters than this, or that barely
// varies (fewer positions that differ from the byte two before), is a
// number, a date, a rule of dashes or padding — things that recur everywhere
// and prove nothing about where data came from.
const (
	minLetters = 4
	minChanges = 4
)

// isLetter counts every byte of a non-ASCII rune as a letter: text in other
// scripts is as informative as Latin letters.
var isLetter = func() (t [256]int) {
	for c := range 256 {
		if ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || c >= utf8.RuneSelf {
			t[c] = 1
		}
	}
	return t
}()

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// informative reports whether s carries enough letters and variety to count
// as evidence on its own.
func informative(s []byte) bool {
	letters, changes := 0, 0
	for i, c := range s {
		letters += isLetter[c]
		if i >= 2 {
			changes += b2i(c != s[i-2])
		}
		if letters >= minLetters && changes >= minChanges {
			return true
		}
	}
	return false
}

// Rolling-hash base: odd, so multiplication mod 2^64 loses nothing.
const gramBase = 0x100000001b3

// gramKeys appends one key per k-byte window of normalised text s
// (len(s)-k+1 keys, or none if s is shorter than k). A window that is not
// informative gets key 0, which is never stored or looked up.
//
// With a filter f, it appends only the keys of the informative windows f
// may hold, and their windows' indices to at: a match looks up only
// those, and the key of every window is neither written nor read again
// to be filtered (most windows of a call are in no origin).
func gramKeys(dst []uint64, at []int, s []byte, k int, f *keyFilter) ([]uint64, []int) {
	if len(s) < k {
		return dst, at
	}
	var pow uint64 = 1 // gramBase^k
	for range k {
		pow *= gramBase
	}
	var h uint64
	letters, changes := 0, 0 // as informative counts them, for the window
	for i, c := range s {
		h = h*gramBase + uint64(c) + 1
		letters += isLetter[c]
		if i >= 2 {
			changes += b2i(c != s[i-2])
		}
		if i >= k {
			out := s[i-k]
			h -= (uint64(out) + 1) * pow
			letters -= isLetter[out]
			changes -= b2i(s[i-k+2] != out)
		}
		if i < k-1 {
			continue
		}
		if letters < minLetters || changes < minChanges {
			if f == nil {
				dst = append(dst, 0)
			}
			continue
		}
		key := gramKey(h)
		if f != nil {
			if !f.mayHold(key) {
				continue
			}
			at = append(at, i-k+1)
		}
		dst = append(dst, key)
	}
	return dst, at
}

// sampleKeys appends, for each run of stride consecutive windows of s, the
// key gramKeys gives its first informative window, if any. It computes only
// those windows, not all of them.
func sampleKeys(dst []uint64, s []byte, k, stride int) []uint64 {
	if len(s) < k {
		return dst
	}
	// The window hash is gramKeys' Horner sum written out as
	// Σ (c+1)·base^(k-1-i): four independent accumulators do not wait on
	// each other's multiplications, as Horner's rule does.
	var small [64]uint64
	pow := small[:0]
	if k > len(small) {
		pow = make([]uint64, 0, k)
	}
	var p uint64 = 1
	for range k {
		pow = append(pow, p)
		p *= gramBase
	}
	slices.Reverse(pow)
	// The window kept is nearly always the first of its run. When k is a
	// whole number m of strides, that window is m stride-long blocks, and
	// its hash is theirs combined by Horner's rule in base^stride: each
	// block is hashed once and serves m windows, halving the work at the
	// default k = 2·stride. ring holds the hashes of the last blocks.
	m := k / stride
	blocks := k%stride == 0 && m <= blockRing
	var ring [blockRing]uint64
	var at [blockRing]int // block number of each ring slot
	for i := range at {
		at[i] = -1
	}
	var blockPow []uint64 // the powers of a block's bytes
	var step uint64       // base^stride
	if blocks {
		blockPow, step = pow[k-stride:], pow[k-stride]*gramBase
	}
	// first is the number of the run's first block (run = first·stride),
	// counted rather than divided for.
	for run, first := 0, 0; run+k <= len(s); run, first = run+stride, first+1 {
		for w := run; w < run+stride && w+k <= len(s); w++ {
			win := s[w : w+k]
			if !informative(win) {
				continue
			}
			if w != run || !blocks {
				dst = append(dst, gramKey(windowHash(win, pow)))
				break
			}
			var h uint64
			for b, off := first, run; b < first+m; b, off = b+1, off+stride {
				r := b % blockRing
				if at[r] != b {
					ring[r], at[r] = windowHash(s[off:off+stride], blockPow), b
				}
				h = h*step + ring[r]
			}
			dst = append(dst, gramKey(h))
			break
		}
	}
	return dst
}

// blockRing is how many block hashes sampleKeys keeps: the most blocks a
// window it combines from blocks may span.
const blockRing = 8

// windowHash is Σ (win[i]+1)·pow[i] over a window and its powers.
func windowHash(win []byte, pow []uint64) uint64 {
	pow = pow[:len(win)]
	var h0, h1, h2, h3 uint64
	i := 0
	for ; i+4 <= len(win); i += 4 {
		h0 += (uint64(win[i]) + 1) * pow[i]
		h1 += (uint64(win[i+1]) + 1) * pow[i+1]
		h2 += (uint64(win[i+2]) + 1) * pow[i+2]
		h3 += (uint64(win[i+3]) + 1) * pow[i+3]
	}
	for ; i < len(win); i++ {
		h0 += (uint64(win[i]) + 1) * pow[i]
	}
	return h0 + h1 + h2 + h3
}

// gramKey makes a table key of a window's polynomial hash, whose low bits
// are poorly mixed.
func gramKey(h uint64) uint64 { return validKey(mix(h)) }
