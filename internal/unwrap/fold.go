package unwrap

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// fold returns text as a reader sees it: without invisible characters
// (zero-width spaces and joiners, soft hyphens, bidirectional marks,
// variation selectors), with compatibility forms (fullwidth letters,
// mathematical alphabets, ligatures) made plain, and with letters of other
// scripts that look like Latin ones (Cyrillic а, Greek ο) made Latin. ok is
// false for ASCII text, which it would not change.
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
	n := norm.NFKC.Bytes(text)
	out := make([]byte, 0, len(n))
	for i := 0; i < len(n); {
		if c := n[i]; c < utf8.RuneSelf {
			out = append(out, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(n[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			out = append(out, n[i-size])
		case invisible(r):
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
