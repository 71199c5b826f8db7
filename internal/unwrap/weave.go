package unwrap

// A value's characters at even places written first and those at odd
// places after ("s[::2] + s[1::2]") come as one token, as one with a mark
// between the halves ("evens|odds"), or as two tokens. weaves puts each
// back together. Its tokens are runs of any printable characters but
// blanks and quotes: the halves of a password hold its punctuation, which
// the tokens of tokenViews (which weaves pairs of encoded-looking tokens)
// end at.

// weaves returns text's tokens of minRun to maxToken bytes each woven
// from its two halves (around a mark in the middle, too), and pairs of
// neighbouring tokens that hold punctuation woven together, a line each;
// nil when there are none or they would exceed limit bytes.
func weaves(text []byte, limit int) []byte {
	var out, prev []byte
	for i := 0; i < len(text); {
		if weaveBreak(text[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(text) && !weaveBreak(text[j]) {
			j++
		}
		tok := weavable(text[i:j])
		i = j
		if len(out)+2*len(tok)+len(prev)+3 > limit {
			break
		}
		if tok == nil {
			// A token with dots (a host name, a URL, a version):
			// its halves woven read as a host name of random labels.
			prev = nil
			continue
		}
		if len(tok) >= minRun && len(tok) <= maxToken {
			half := (len(tok) + 1) / 2
			out = weave(out, tok[:half], tok[half:])
			// A mark between halves of one length, or the first one
			// longer.
			for mid := (len(tok) - 1) / 2; mid <= len(tok)/2; mid++ {
				if d := 2*mid + 1 - len(tok); (d == 0 || d == 1) && !isAlnumByte(tok[mid]) {
					out = weave(out, tok[:mid], tok[mid+1:])
				}
			}
		}
		if d := len(prev) - len(tok); (d == 0 || d == 1) && len(prev)+len(tok) >= minRun && len(tok) <= maxToken && (innerMark(prev) || innerMark(tok)) {
			out = weave(out, prev, tok)
		}
		prev = tok
	}
	return out
}

// weave appends the characters of a and b taken in turn, a first, and a
// line break.
func weave(out, a, b []byte) []byte {
	for k := range a {
		out = append(out, a[k])
		if k < len(b) {
			out = append(out, b[k])
		}
	}
	return append(out, '\n')
}

func weaveBreak(c byte) bool {
	return c <= ' ' || c == '"' || c == 0x7f
}

// innerMark reports whether tok holds punctuation inside it (not at an
// end, where prose puts it): of a password, not of a word.
func innerMark(tok []byte) bool {
	if len(tok) < 3 {
		return false
	}
	for _, c := range tok[1 : len(tok)-1] {
		if !isAlnumByte(c) && !encChar[c] {
			return true
		}
	}
	return false
}
