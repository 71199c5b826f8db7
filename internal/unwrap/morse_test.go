package unwrap

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// morseOf writes s in Morse, a code a character, codes split by sep;
// mark (when not "") goes before a capital's code, and codes holds the
// characters Morse has no code for.
func morseOf(s, sep, mark string, codes map[byte]string) string {
	var out []string
	for _, c := range []byte(s) {
		lower := c
		if c >= 'A' && c <= 'Z' {
			lower = c + 'a' - 'A'
		}
		code, ok := codes[c]
		if !ok {
			for code2, ch := range morseCodes {
				if ch == lower {
					code = code2
				}
			}
		}
		if lower != c && mark != "" {
			code = mark + code
		}
		out = append(out, code)
	}
	return strings.Join(out, sep)
}

// TestUnmorseReadsItsVariants: Morse as senders write it besides plain
// dots and dashes: capitals marked before their code, a code Morse has
// no character for, other glyphs for dots and dashes, elements said
// "di-dah", codes in a list. Each fails without the change that reads
// it (the mark, the unknown code and the glyphs ended the run).
func TestUnmorseReadsItsVariants(t *testing.T) {
	const key = "uBVy9ciAoM7aue16UH0f6PR5qz"
	made := map[byte]string{'%': "-.-.-"}
	spoken := strings.NewReplacer(".", "di-", "-", "dah-")
	var said []string
	for _, code := range strings.Fields(morseOf(strings.ToLower(key), " ", "", nil)) {
		said = append(said, strings.TrimSuffix(spoken.Replace(code), "-"))
	}
	cases := map[string]struct{ text, want string }{
		"capitals marked":       {"body: " + morseOf(key, " ", "^", nil), key},
		"starred capitals":      {morseOf(key, " ", "*", nil), key},
		"a code made up":        {morseOf("uBVy?ciAoM%aue16UH0f6PR5", " ", "^", made), "uBVy?ciAoM?aue16UH0f6PR5"},
		"middle dots":           {strings.NewReplacer(".", "·", "-", "−").Replace(morseOf(strings.ToLower(key), " ", "", nil)), strings.ToLower(key)},
		"bullets, dashes":       {strings.NewReplacer(".", "•", "-", "—").Replace(morseOf(strings.ToLower(key), " / ", "", nil)), strings.ToLower(key)},
		"underscores":           {strings.ReplaceAll(morseOf(strings.ToLower(key), " ", "", nil), "-", "_"), strings.ToLower(key)},
		"di-dah":                {"spoken: " + strings.Join(said, " "), strings.ToLower(key)},
		"a list":                {`["` + morseOf(strings.ToLower(key), `", "`, "", nil) + `"]`, strings.ToLower(key)},
		"capitals said":         {morseOf(key, " ", "CAPITAL ", nil), key},
		"capitals said, di-dah": {strings.ReplaceAll(strings.TrimSuffix(strings.ReplaceAll(spoken.Replace(morseOf(key, " ", "^", nil)), "- ", " "), "-"), "^", "cap-"), key},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			assertInViews(t, c.text, c.want, false)
		})
	}
}

// TestMorseGlyphsLeaveProse: prose with dashes between words, lists
// with bullets and a "da" in a sentence is read as it is: no copy.
func TestMorseGlyphsLeaveProse(t *testing.T) {
	for _, s := range []string{
		"The release — the one we shipped on Friday — fixed it · see notes",
		"• first item\n• second item — with a note\n• third",
		"Via da Vinci 12, the file_name and __init__.py",
		"a minus sign: 3 − 2 = 1, and 2–5 pages",
	} {
		b := []byte(s)
		assert.True(t, sameSlice(morseGlyphs(b), b), "copied: %q", s)
	}
}
