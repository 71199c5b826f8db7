package injection

// Lookalike is the Latin letter that a Cyrillic or Greek letter is drawn
// like ('а' → 'a'), for the screens outside this package that read words
// and must not be dodged by letters that only look Latin.
func Lookalike(r rune) (rune, bool) {
	b, ok := lookalike(r)
	return rune(b), ok
}
