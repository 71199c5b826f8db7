package shellnorm

import (
	"strings"
	"unicode"
)

// Quote makes s one literal word of a POSIX shell: in single quotes, each
// ' in it closed, escaped and reopened.
func Quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// QuoteIfNeeded is s as it is where any shell, in any locale, reads it as
// one literal word (ASCII letters and digits and _./:@%+=,- only, not
// empty), else Quote(s): for a command line a shell will run.
func QuoteIfNeeded(s string) string {
	return quoteUnless(s, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' })
}

// QuoteForDisplay is QuoteIfNeeded for a command line only shown to a
// user: letters and digits of every script stay bare, so that a name in
// the user's language stays readable.
func QuoteForDisplay(s string) string {
	return quoteUnless(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
}

func quoteUnless(s string, alnum func(rune) bool) string {
	safe := s != ""
	for _, r := range s {
		if !alnum(r) && !strings.ContainsRune("_./:@%+=,-", r) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return Quote(s)
}
