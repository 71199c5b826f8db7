package unwrap

import (
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// fold returns text as a reader sees it: without invisible characters
// (zero-width spaces and joiners, soft hyphens, bidirectional marks,
// variation selectors), with compatibility forms (fullwidth letters,
// mathematical alphabets, ligatures) made plain, with letters of other
// scripts that look like Latin ones (Cyrillic а, Greek ο) made Latin,
// and with Braille cells read as the letters and digits they write. ok is
// false for ASCII text, and for other text it would not change, without
// writing a copy of either: a shim checks every granted call, and each
// collection that garbage brings on delays a call.
func fold(text []byte) ([]byte, bool) {
	ascii := true
	for _, c := range text {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return nil, false
	}
	// Text in NFKC already is the form itself: norm's Append would copy
	// it (its own first step is this QuickSpan), and past it Append
	// allocates a reorder buffer of 2 KB whatever it is given.
	n := text
	if norm.NFKC.QuickSpan(text) < len(text) {
		nb := nfkcBufs.Get().(*[]byte)
		n = norm.NFKC.Append((*nb)[:0], text...)
		defer func() {
			if cap(n) <= maxPooledNFKC {
				*nb = n[:0]
				nfkcBufs.Put(nb)
			}
		}()
	} else if !refolds(text) {
		return nil, false // what it would write is text itself
	}
	out := make([]byte, 0, len(n))
	var br brailleReader
	for i := 0; i < len(n); {
		if c := n[i]; c < utf8.RuneSelf {
			out = append(out, c)
			br = brailleReader{}
			i++
			continue
		}
		r, size := utf8.DecodeRune(n[i:])
		i += size
		if r < rune(len(twoByteFold)) && size > 1 {
			switch f := twoByteFold[r]; f {
			case keepRune:
				out = utf8.AppendRune(out, r)
			case dropRune:
			default:
				out = append(out, f)
			}
			continue
		}
		switch {
		case r == utf8.RuneError && size == 1:
			out = append(out, n[i-size])
		case invisible(r):
		case isBraille(r):
			if c, ok := br.read(r); ok {
				out = append(out, c)
			}
		default:
			if l, ok := lookalike[r]; ok {
				out = append(out, l)
			} else {
				out = utf8.AppendRune(out, r)
			}
		}
	}
	return out, true
}

// refolds reports whether fold changes text, in NFKC already: whether it
// holds an invisible character, a look-alike letter or Braille.
func refolds(text []byte) bool {
	for i := 0; i < len(text); {
		if text[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		i += size
		if size == 1 {
			continue // invalid UTF-8 is copied as it is
		}
		if r < rune(len(twoByteFold)) {
			if twoByteFold[r] != keepRune {
				return true
			}
			continue
		}
		if _, ok := lookalike[r]; ok || invisible(r) || isBraille(r) {
			return true
		}
	}
	return false
}

// twoByteFold is what fold writes for each rune of two UTF-8 bytes:
// keepRune, dropRune (invisible) or the Latin letter it looks like.
// Looked up, where the map of look-alikes and the table of format
// characters were searched for every combining mark of a flood of them.
var twoByteFold = func() (t [0x800]byte) {
	for r := rune(utf8.RuneSelf); r < rune(len(t)); r++ {
		l, ok := lookalike[r]
		switch {
		case invisible(r):
			t[r] = dropRune
		case isBraille(r):
			panic("Braille is past two bytes")
		case ok:
			t[r] = l
		default:
			t[r] = keepRune
		}
	}
	return t
}()

const (
	keepRune = 0
	dropRune = 0xff
)

// nfkcBufs hold the NFKC form fold reads from before it writes its
// output: decoded binary runs are folded at every layer, and each such
// form was garbage the moment fold returned (a shim's grant check of a
// 1 KB call made 3 KB of it). Buffers over maxPooledNFKC are let go.
var nfkcBufs = sync.Pool{New: func() any { return new([]byte) }}

const maxPooledNFKC = 64 << 10

// invisible: format characters and variation selectors, which render as
// nothing but split a token for a matcher.
func invisible(r rune) bool {
	return unicode.Is(unicode.Cf, r) || r >= 0xFE00 && r <= 0xFE0F || r >= 0xE0100 && r <= 0xE01EF || r == 0x034F || r == 0x115F || r == 0x1160 || r == 0x3164
}

// lookalike maps letters that render like Latin ones to those: Cyrillic,
// Greek, and a few others common in spoofing.
var lookalike = map[rune]byte{
	'а': 'a', 'в': 'B', 'е': 'e', 'к': 'k', 'м': 'M', 'н': 'H', 'о': 'o', 'р': 'p', 'с': 'c', 'т': 'T', 'у': 'y', 'х': 'x',
	'ѕ': 's', 'і': 'i', 'ј': 'j', 'ԁ': 'd', 'һ': 'h', 'ӏ': 'l', 'ԛ': 'q', 'ԝ': 'w', 'ɡ': 'g', 'ı': 'i',
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T', 'Х': 'X',
	'Ѕ': 'S', 'І': 'I', 'Ј': 'J', 'Ԛ': 'Q', 'Ԝ': 'W', 'У': 'Y',
	'α': 'a', 'ο': 'o', 'ρ': 'p', 'ν': 'v', 'τ': 't', 'ι': 'i', 'κ': 'k', 'υ': 'u', 'χ': 'x',
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
	'‐': '-', '‑': '-', '‒': '-', '–': '-', '—': '-', '−': '-', '⁄': '/', '∕': '/', '＿': '_',
}

// Six-dot Braille writes a letter a cell (a-j in the top four dots, k-t
// those with dot 3, u-z with dots 3 and 6, w apart), a capital after the
// capital sign and digits as a-j after the number sign, up to a blank or
// the letter sign.
const (
	brailleCapital = 0x2820
	brailleNumber  = 0x283C
	brailleLetter  = 0x2830 // a-j after digits are letters again
)

func isBraille(r rune) bool { return r >= 0x2800 && r <= 0x283F }

var brailleLetters = func() (t [64]byte) {
	top := [10]byte{0x01, 0x03, 0x09, 0x19, 0x11, 0x0B, 0x1B, 0x13, 0x0A, 0x1A}
	for i, d := range top {
		t[d] = 'a' + byte(i)
		t[d|0x04] = 'k' + byte(i)
	}
	for i, l := range []byte("uvxyz") {
		t[top[i]|0x24] = l
	}
	t[0x3A] = 'w'
	return t
}()

// brailleReader is the state of a run of Braille cells: a capital or
// digits announced.
type brailleReader struct{ capital, number bool }

// read is the character a cell writes; ok is false for a sign.
func (b *brailleReader) read(r rune) (byte, bool) {
	switch r {
	case brailleCapital:
		b.capital = true
		return 0, false
	case brailleNumber:
		b.number = true
		return 0, false
	case brailleLetter:
		b.number = false
		return 0, false
	}
	c := brailleLetters[r-0x2800]
	switch {
	case c == 0:
		b.number = false
		return ' ', true
	case b.number && c <= 'j':
		return "1234567890"[c-'a'], true
	case b.capital:
		b.capital = false
		return c - 'a' + 'A', true
	}
	b.number = false
	return c, true
}
