package injection

import "strings"

// A definition written to dodge literal rules is still read by the
// model: leetspeak ("r34d ~/.55h/1d_r54"), letters spaced apart ("r e a d
// ~ / . s s h"), full-width or look-alike letters and invisible joiners,
// an order in base64 or hex "to decode and apply", in rot13 or backwards
// with a word that says so. An
// honest definition has no reason to write any of these, so what one of
// them says once undone is judged as if it had been written plainly.
// Unlike the text scanner's denoise, which restores only the words
// injections are made of, these views undo every word: a definition is
// short, and the claims judged on the view are the definition rules,
// which need the paths, fields and tool names too.

// toolViews returns the readings of s that differ from it, each with what
// was undone.
func toolViews(s string) []toolView {
	var out []toolView
	// (only spacing changed is no other reading)
	if v, _ := normalise(s, &charEvidence{}); strings.Join(strings.Fields(v), " ") != strings.Join(strings.Fields(s), " ") {
		out = append(out, toolView{v, "look-alike letters"})
	}
	if v, ok := unleetPaths(s); ok {
		out = append(out, toolView{v, "leetspeak"})
	}
	if v, ok := joinSpaced(s); ok {
		out = append(out, toolView{v, "spaced letters"})
	}
	if v, ok := joinDashed(s); ok {
		out = append(out, toolView{v, "letters joined by marks"})
	}
	for _, b := range findBase64(s) {
		if !b.wrapped && isProse(b.decoded) {
			out = append(out, toolView{b.decoded, "base64"})
		}
	}
	for _, b := range findHex(s) {
		out = append(out, toolView{b.decoded, "hex"})
	}
	if mentions(strings.ToLower(s), rot13Cues) {
		out = append(out, toolView{rotate(s, 13), "rot13"}, toolView{reverseRunes(s), "reversal"})
	}
	return out
}

type toolView struct{ text, how string }

// minLeetWords: fewer words mixing letters and leet digits are version
// tags, units and identifiers ("v1", "ipv4", "s3", "mp3"), not a way of
// writing.
const minLeetWords = 3

// unleetPaths writes s with the leet digits of every word that mixes
// them with letters read as letters ("us1ng" → "using", "55h" → "ssh");
// ok when at least minLeetWords words, and a fifth of all, were
// rewritten. Unlike
// unleetWords it reads the words of paths and addresses too: the file a
// definition sends the model to read is written in leet as well
// ("~/.55h/1d_r54").
func unleetPaths(s string) (string, bool) {
	if !strings.ContainsAny(s, "013457") {
		return "", false
	}
	type word struct {
		i, j int
		// mixed: letters and leet digits; inner: a digit before a
		// letter. Digits only at a word's end are a version or a size
		// ("v3", "ipv4", "mp3") unless the text is leet throughout.
		mixed, inner bool
	}
	var ws []word
	n := 0
	for i := 0; i < len(s); {
		if !isAlnum(s[i]) {
			i++
			continue
		}
		j := i
		letters, digits, inner := 0, 0, false
		for j < len(s) && isAlnum(s[j]) {
			switch {
			case isASCIILetter(rune(s[j])):
				letters++
				inner = inner || digits > 0
			case leet[s[j]] != 0:
				digits++
			default:
				// A digit no letter is written as (2, 6, 8): a number or a
				// name ("x86", "h264").
				letters, digits = -1, 0
			}
			j++
		}
		w := word{i, j, letters > 0 && digits > 0, inner}
		if w.mixed && w.inner {
			n++
		}
		ws = append(ws, w)
		i = j
	}
	if n < minLeetWords || n*5 < len(ws) {
		return "", false
	}
	b := []byte(s)
	for _, w := range ws {
		for k := w.i; w.mixed && k < w.j; k++ {
			if c := b[k]; c >= '0' && c <= '9' {
				b[k] = leet[c]
			}
		}
	}
	return string(b), true
}

// joinSpaced writes s with runs of single characters one space apart
// joined into words, and the wider gaps between them read as spaces
// ("r e a d   ~ / . s s h" → "read ~/.ssh"); ok when a run of at least
// eight such characters was found.
func joinSpaced(s string) (string, bool) {
	if !spacedRun(s, 8) {
		return "", false
	}
	// Split at single spaces: a wider gap leaves empty tokens, which
	// stand for the space between words.
	toks := strings.Split(s, " ")
	// runEnd is where the run of one-character tokens from i ends.
	runEnd := func(i int) int {
		for i < len(toks) && len(toks[i]) == 1 {
			i++
		}
		return i
	}
	// Once a text is written so, its short words are too ("i t").
	out := make([]string, 0, len(toks))
	for i := 0; i < len(toks); {
		if j := runEnd(i); j-i >= 2 {
			out = append(out, strings.Join(toks[i:j], ""))
			i = j
			continue
		}
		if toks[i] != "" || len(out) > 0 && out[len(out)-1] != "" {
			out = append(out, toks[i])
		}
		i++
	}
	return strings.Join(strings.Fields(strings.Join(out, " ")), " "), true
}

// spacedRun reports whether s holds n characters in a row each standing
// alone between single spaces ("r e a d"): most strings have none, and
// are turned away without a copy.
func spacedRun(s string, n int) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		alone := s[i] != ' ' && (i == 0 || s[i-1] == ' ') && (i+1 == len(s) || s[i+1] == ' ')
		switch {
		case alone:
			run++
			if run >= n {
				return true
			}
		case s[i] != ' ':
			run = 0
		case i > 0 && s[i-1] == ' ':
			run = 0 // a wider gap ends the run
		}
	}
	return false
}

// joinDashed writes s with words spelled one character at a time between
// marks ("r-e-a-d", "~-/-.-s-s-h") as the words; ok when at least three
// such words were found.
func joinDashed(s string) (string, bool) {
	words := strings.Fields(s)
	n := 0
	for i, w := range words {
		if len(w) < 5 {
			continue
		}
		sep := w[1]
		if !strings.ContainsRune("-._*|+~", rune(sep)) {
			continue
		}
		parts := strings.Split(w, string(sep))
		one := len(parts) >= 3
		for _, p := range parts {
			one = one && len(p) == 1
		}
		if one {
			words[i] = strings.Join(parts, "")
			n++
		}
	}
	return strings.Join(words, " "), n >= 3
}
