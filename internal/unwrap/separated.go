package unwrap

import (
	"bytes"

	"github.com/flowd-dev/flowd/internal/jsontext"
)

// minGroups is how many separated pieces make a spelled-out token: fewer
// are a date, a version or an address.
const minGroups = 6

// joinSeparated returns text with spelled-out tokens put back together: a
// run of pieces of one length (a character, a byte in hex, a group of
// four) split by one separator repeated ("A-K-I-A-…", "41:4b:49:…",
// "AKIA.IOSF.ODNN.…"), and runs of character codes ("65,75,73,…",
// "0x41 0x4b …"), which become the characters. The rest of the text is
// kept, so a name before a value still stands beside it. ok is false when
// there was nothing to join.
func joinSeparated(text []byte) ([]byte, bool) {
	var out []byte
	last := 0
	// A run of pieces that reads as no token is read again from a later
	// piece, since a token may start inside it (a code out of range, then
	// codes): each try reads on to the run's end, so past maxRetries tries
	// in one run they are made at doubling distances from its start, or
	// "12 7 200 3 …" costs the square of its length (seconds for 60 KB).
	var runStart, runEnd, tries, nextTry int
	for i := 0; i < len(text); {
		if !isAlnumByte(text[i]) || i > 0 && isAlnumByte(text[i-1]) {
			i++
			continue
		}
		// Most words are followed by no separator, or by a long word:
		// ruled out before spelled reads on.
		k := alnumRun(text, i)
		if k-i > 8 || k+1 >= len(text) {
			i = k
			continue
		}
		if sep := separatorAt(text, k); sep == 0 || k+sep >= len(text) || alnumRun(text, k+sep)-(k+sep) > 8 {
			i = k
			continue
		}
		if i < runEnd && i < nextTry {
			i = k
			continue
		}
		end, joined, read := spelled(text, i)
		if end == 0 {
			if read > runEnd {
				runStart, runEnd, tries, nextTry = i, read, 0, 0
			}
			if tries++; tries >= maxRetries {
				nextTry = i + (i - runStart)
			}
			i = k
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(text))
		}
		out = append(out, text[last:i]...)
		out = append(out, joined...)
		last, i = end, end
	}
	if out == nil {
		return nil, false
	}
	return append(out, text[last:]...), true
}

// maxRetries is how many times joinSeparated reads a run that holds no
// token again from each of its next pieces.
const maxRetries = 16

// spelled reads a spelled-out token starting at text[i]: it returns where
// it ends and what it says, or end == 0 and how far it read. It
// allocates only for a token it accepts.
func spelled(text []byte, i int) (end int, joined []byte, read int) {
	first := alnumRun(text, i)
	if first-i > 8 || first >= len(text) {
		return 0, nil, 0
	}
	sep := separatorAt(text, first)
	if sep == 0 {
		return 0, nil, 0
	}
	width := first - i
	// Decimal character codes vary in length (65, 101); other pieces are
	// of one width, the last one maybe shorter.
	codes := isDigits(text[i:first]) && width >= 2 && width <= 3
	bits := width == 8 && isBits(text[i:first])
	maxWidth := width
	if codes {
		maxWidth = 3
	}
	// Blank-separated pieces are words in prose unless they are single
	// characters, bytes in hex (a dump), in bits or character codes.
	blank := blankIn(text[first : first+sep])
	if blank && !codes && !bits && (width > 2 || width == 2 && !allHex(text[i:first])) {
		return 0, nil, 0
	}
	// Characters spelled out one by one may include punctuation (tok_…).
	piece := func(j int) int {
		k := alnumRun(text, j)
		if width == 1 && k == j && j < len(text) && text[j] > ' ' && text[j] < 0x7f && bytes.IndexByte(text[first:first+sep], text[j]) < 0 {
			k = j + 1
		}
		return k
	}
	n, j := 0, i
	// Read with the pieces, not in a pass of their own: a run that reads
	// as no token is read again from later pieces. odd counts the pieces
	// not of the first one's width, lastOdd says whether the last is:
	// only the last may be (the rest of a value).
	prefixed := false // 0x41 0x4b …
	odd, lastOdd := 0, false
	for {
		k := piece(j)
		n++
		short := k-j < width && !codes
		prefixed = prefixed || k-j == 4 && text[j] == '0' && text[j+1]|0x20 == 'x'
		if lastOdd = k-j != width; lastOdd {
			odd++
		}
		j = k
		if short || j+sep >= len(text) || !bytes.Equal(text[j:j+sep], text[first:first+sep]) {
			break
		}
		if m := piece(j+sep) - (j + sep); m == 0 || m > maxWidth || blank && width == 2 && !allHex(text[j+sep:j+sep+m]) {
			break
		}
		j += sep
	}
	if n < minGroups {
		return 0, nil, j
	}
	uniform := odd == 0 || odd == 1 && lastOdd
	if codes || prefixed || bits {
		if c := charCodes(text[i:j], sep); c != nil {
			return j, c, j
		}
	}
	if !uniform {
		return 0, nil, j
	}
	// The pieces joined are written only for a run that reads as a
	// token: a run of numbers that are not all character codes is tried
	// again from later pieces (joinSeparated), and a copy of it each try
	// cost more than reading it (a megabyte of "12 7 200 3 …": half of
	// the views' time).
	joined = make([]byte, 0, j-i)
	for p := i; p < j; {
		k := piece(p)
		joined = append(joined, text[p:k]...)
		p = k + sep
	}
	return j, joined, j
}

// charCodes reads the pieces of text[i:j], split by separators of sep
// bytes, as character codes: 0x41, eight bits, or numbers of two or three
// digits, decimal (32–126 and the blanks) or else, when every one is
// octal digits, octal (a digit is two: "63" is '3'; found by a red team,
// RT7-16); nil if they are not.
func charCodes(text []byte, sep int) []byte {
	if out := radixCodes(text, sep, 10); out != nil {
		return out
	}
	return radixCodes(text, sep, 8)
}

func radixCodes(text []byte, sep, radix int) []byte {
	var out []byte
	for p := 0; p < len(text); {
		k := alnumRun(text, p)
		piece := text[p:k]
		p = k + sep
		v := 0
		switch {
		case len(piece) == 4 && piece[0] == '0' && (piece[1] == 'x' || piece[1] == 'X') && jsontext.IsHex(piece[2]) && jsontext.IsHex(piece[3]):
			v = int(jsontext.Unhex(piece[2]))<<4 | int(jsontext.Unhex(piece[3]))
		case len(piece) == 8 && isBits(piece):
			for _, c := range piece {
				v = v<<1 | int(c-'0')
			}
		case len(piece) >= 2 && len(piece) <= 3 && isDigits(piece):
			for _, c := range piece {
				if int(c-'0') >= radix {
					return nil
				}
				v = v*radix + int(c-'0')
			}
			if (v < 32 || v > 126) && v != '\n' && v != '\r' && v != '\t' {
				return nil
			}
		default:
			return nil
		}
		out = append(out, byte(v))
	}
	return out
}

func isBits(p []byte) bool {
	for _, c := range p {
		if c != '0' && c != '1' {
			return false
		}
	}
	return true
}

func allHex(p []byte) bool {
	for _, c := range p {
		if !jsontext.IsHex(c) {
			return false
		}
	}
	return true
}

func isDigits(p []byte) bool {
	for _, c := range p {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// maxSep is the longest separator between spelled-out pieces: a byte or
// two of punctuation with blanks around it (" - ", " | "), a list's
// quotes and comma (`","`, "', '"), a line break and a bullet ("\n- "),
// or a symbol outside ASCII ("·").
const maxSep = 4

// separatorAt returns the length of the separator at text[i]: the run of
// bytes that are neither letters nor digits starting there, when it is at
// most maxSep long and not a character escape; or 0.
func separatorAt(text []byte, i int) int {
	n := 0
	for i+n < len(text) && !isAlnumByte(text[i+n]) {
		if n == maxSep || text[i+n] == '\\' || text[i+n] == '&' || text[i+n] == '%' {
			return 0
		}
		n++
	}
	return n
}

// blankIn: sep begins with a blank or a line break, so the pieces it
// splits may be the words of prose (a comma and a blank are a list's).
func blankIn(sep []byte) bool {
	return sep[0] == ' ' || sep[0] == '\t' || sep[0] == '\n' || sep[0] == '\r'
}

func alnumRun(text []byte, i int) int {
	for i < len(text) && isAlnumByte(text[i]) {
		i++
	}
	return i
}

func isAlnumByte(c byte) bool { return alnumBytes[c] }

// alnumBytes is isAlnumByte as a table: most of the undoings ask it of
// every byte of a text, one branch instead of three ranges.
var alnumBytes = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	return t
}()

// joinWrapped returns text with encoded blocks wrapped over lines put back
// on one line: a line ending in a run of base64 or hex characters,
// followed by two or more lines of only such characters, of the run's
// length, and perhaps a shorter last one, as MIME and PEM bodies and hex
// dumps are written. ok is false when there are none.
func joinWrapped(text []byte) ([]byte, bool) {
	if bytes.Count(text, []byte{'\n'}) < 2 {
		return nil, false
	}
	// next is where the line after the one starting at i starts: past
	// len(text) for the last line. Lines are read in place, and the text
	// copied only once a block is joined.
	next := func(i int) int {
		if k := bytes.IndexByte(text[i:], '\n'); k >= 0 {
			return i + k + 1
		}
		return len(text) + 1
	}
	var out []byte
	last := 0 // text[last:] is not in out yet
	for i := 0; i <= len(text); {
		ni := next(i)
		line := text[i : ni-1]
		w := tailRun(line)
		j, n := ni, 0 // j starts the line after the block's full lines
		for w >= 4 && j <= len(text) {
			nj := next(j)
			if encodedLine(text[j:nj-1]) != w {
				break
			}
			j, n = nj, n+1
		}
		if n < 2 {
			i = ni
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(text))
		}
		out = append(out, text[last:i]...)
		out = append(out, bytes.TrimRight(line, "\r")...)
		for k := ni; k < j; {
			nk := next(k)
			out = append(out, bytes.TrimRight(text[k:nk-1], "\r")...)
			k = nk
		}
		last = j - 1
		if j <= len(text) {
			if nj := next(j); headRun(text[j:nj-1]) <= w {
				out = append(out, text[j:nj-1]...) // the short last line
				last, j = nj-1, nj
			}
		}
		i = j
	}
	if out == nil {
		return nil, false
	}
	return append(out, text[last:]...), true
}

// encodedLine is the length of a line made only of base64 or hex
// characters, or 0.
func encodedLine(l []byte) int {
	l = bytes.TrimRight(l, "\r")
	if headRun(l) != len(l) {
		return 0
	}
	return len(l)
}

// tailRun and headRun are the lengths of the runs of base64 or hex
// characters that end and start a line.
func tailRun(l []byte) int {
	l = bytes.TrimRight(l, "\r")
	n := 0
	for n < len(l) && encChar[l[len(l)-1-n]] {
		n++
	}
	return n
}

func headRun(l []byte) int {
	n := 0
	for n < len(l) && encChar[l[n]] {
		n++
	}
	return n
}

// maxToken is the longest token tokenViews turns around: secrets are
// shorter, and a long blob is decoded rather than read backwards.
const maxToken = 512

// tokenViews returns the long tokens of text reversed, in ROT13 and in
// upper case (with doubled characters undoubled), each view one token a
// line, and the views of the classic ciphers (shifts, mirrors, ROT47).
// It stops once the views would exceed limit bytes. ok is false when
// text has none.
func tokenViews(text []byte, limit int) ([][]byte, bool) {
	// Sized first: the views of a text of many tokens would otherwise be
	// copied over and over as they grow (the upper-case view, with the
	// swapped case, the even and odd places and the woven pairs, is up
	// to five times its tokens).
	size, upSize, start := 0, 0, -1
	var prev []byte // the token before, to weave with the next
	for i := 0; i <= len(text) && 2*size+upSize < limit; i++ {
		if i < len(text) && (encChar[text[i]] || text[i] == '.') {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start >= minRun && i-start <= maxToken {
			tok := text[start:i]
			size += len(tok) + 1
			upSize += upLen(tok, prev)
			prev = weavable(tok)
		}
		start = -1
	}
	if size == 0 {
		return nil, false
	}
	rev, rot := make([]byte, 0, size), make([]byte, 0, size)
	up := make([]byte, 0, upSize)
	prev, start = nil, -1
	for i := 0; i <= len(text) && len(rev)+len(rot)+len(up) < limit; i++ {
		if i < len(text) && (encChar[text[i]] || text[i] == '.') {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start >= minRun && i-start <= maxToken {
			tok := text[start:i]
			for k := len(tok) - 1; k >= 0; k-- {
				rev = append(rev, tok[k])
			}
			for _, c := range tok {
				rot = append(rot, rot13(c))
			}
			up = appendUp(up, tok, prev)
			prev = weavable(tok)
			rev, rot = append(rev, '\n'), append(rot, '\n')
		}
		start = -1
	}
	if rev == nil {
		return nil, false
	}
	out := [][]byte{rev, rot, up}
	left := limit - len(rev) - len(rot) - len(up)
	if sh := shifts(rot, left); sh != nil {
		out = append(out, sh)
	}
	if m := mirrors(text, left); m != nil {
		out = append(out, m)
	}
	return out, true
}

// appendUp appends to up the token's forms that keep its characters but
// not their case or places: upper case (with doubled characters
// undoubled), the case of each letter turned, the characters at even and
// at odd places, and prev and tok woven together; a form a line.
func appendUp(up, tok, prev []byte) []byte {
	lower := false
	for _, c := range tok {
		lower = lower || c >= 'a' && c <= 'z'
	}
	// A token without a lower-case letter is its own upper case: the
	// text holds it already, byte for byte.
	if lower {
		for _, c := range tok {
			up = append(up, upper(c))
		}
		up = append(up, '\n')
	}
	if doubled(tok) {
		// aaKKIIAA…: each character written twice.
		for k := 0; k < len(tok); k += 2 {
			up = append(up, tok[k])
		}
		up = append(up, '\n')
	}
	// The case of each letter turned (a case swap undone, which upper
	// case cannot: a key's case is part of it), and the characters at
	// even and at odd places (a filler written after or before each
	// character), the two a line each.
	up = append(up, '\n')
	for _, c := range tok {
		up = append(up, swapCase(c))
	}
	up = append(up, '\n')
	// Not of a token with dots: its halves would read as a host name of
	// random labels.
	if weavable(tok) != nil && len(tok) >= 2*minRun {
		for k := 0; k < len(tok); k += 2 {
			up = append(up, tok[k])
		}
		up = append(up, '\n')
		for k := 1; k < len(tok); k += 2 {
			up = append(up, tok[k])
		}
		up = append(up, '\n')
	}
	// The characters at even places written first, then those at odd
	// places: two neighbouring tokens of one length (or the second one
	// shorter), woven back together.
	if woven(prev, tok) {
		for k := range prev {
			up = append(up, prev[k])
			if k < len(tok) {
				up = append(up, tok[k])
			}
		}
		up = append(up, '\n')
	}
	return up
}

// upLen is how many bytes appendUp appends.
func upLen(tok, prev []byte) int {
	n := 0
	if bytes.ContainsFunc(tok, func(r rune) bool { return r >= 'a' && r <= 'z' }) {
		n += len(tok) + 1
	}
	if doubled(tok) {
		n += (len(tok)+1)/2 + 1
	}
	n += len(tok) + 2
	if weavable(tok) != nil && len(tok) >= 2*minRun {
		n += len(tok) + 2
	}
	if woven(prev, tok) {
		n += len(prev) + min(len(prev), len(tok)) + 1
	}
	return n
}

// weavable is tok when it may be half of a woven pair: not a token with
// dots, whose halves would read as a host name of random labels.
func weavable(tok []byte) []byte {
	if bytes.IndexByte(tok, '.') >= 0 {
		return nil
	}
	return tok
}

// woven reports whether prev and tok, neighbouring tokens, are read woven
// together: prev weavable, tok too and of its length or one less.
func woven(prev, tok []byte) bool {
	d := len(prev) - len(tok)
	return prev != nil && weavable(tok) != nil && (d == 0 || d == 1) && len(prev)+len(tok) >= 2*minRun
}

// mirrors returns the runs of printable characters of text (16 to
// maxToken bytes, at most maxShifted of them) under the ciphers that map
// a character set onto itself the other way round: the alphabet
// mirrored (Atbash, with and without the digits) and printable ASCII
// rotated by half (ROT47), a run a line; nil when there are none or
// they would exceed limit bytes.
func mirrors(text []byte, limit int) []byte {
	var out []byte
	n := 0
	for i := 0; i < len(text) && n < maxShifted; {
		if !mirrorByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && mirrorByte(text[j]) {
			j++
		}
		run := text[i:j]
		i = j
		if len(run) < minRun || len(run) > maxToken || !keyLike(run) && !keyLike(rot47(nil, run)) {
			continue
		}
		if len(out)+3*(len(run)+1) > limit {
			break
		}
		n++
		for _, digits := range []bool{false, true} {
			for _, c := range run {
				out = append(out, atbash(c, digits))
			}
			out = append(out, '\n')
		}
		out = append(rot47(out, run), '\n')
	}
	return out
}

// mirrorByte: a byte of a run mirrors reads; a quote ends one, as JSON
// strings stand in quotes.
func mirrorByte(c byte) bool { return c > ' ' && c < 0x7f && c != '"' }

func atbash(c byte, digits bool) byte {
	switch {
	case c >= 'a' && c <= 'z':
		return 'z' - (c - 'a')
	case c >= 'A' && c <= 'Z':
		return 'Z' - (c - 'A')
	case digits && c >= '0' && c <= '9':
		return '9' - (c - '0')
	}
	return c
}

func rot47(out, run []byte) []byte {
	for _, c := range run {
		if c >= 33 && c <= 126 {
			c = 33 + (c-33+47)%94
		}
		out = append(out, c)
	}
	return out
}

// Caesar shifts are tried on at most maxShifted tokens of at most
// maxShiftedLen bytes: the letters of a key moved along the alphabet by
// any of 25 steps are 24 more copies of it (ROT13 is one already).
const (
	maxShifted    = 8
	maxShiftedLen = 128
)

// keyLike: tok may be a key moved along the alphabet: no host name or
// path (a dot, a slash), and a digit or letters of both cases in it.
func keyLike(tok []byte) bool {
	digit, lower, upper := false, false, false
	for _, c := range tok {
		switch {
		case c == '.' || c == '/':
			return false
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z':
			upper = true
		}
	}
	return digit || lower && upper
}

// shifts returns the tokens of rot (the ROT13 view, a token a line) moved
// by every other step of the alphabet, a token a line; nil when none
// fits.
func shifts(rot []byte, limit int) []byte {
	var out []byte
	n := 0
	for line := range bytes.SplitSeq(rot, []byte{'\n'}) {
		if len(line) == 0 || len(line) > maxShiftedLen || !keyLike(line) {
			continue
		}
		if len(out)+24*(len(line)+1) > limit {
			break
		}
		if n++; n > maxShifted {
			break
		}
		for k := byte(1); k < 26; k++ {
			if k == 13 {
				continue // back to the text itself
			}
			for _, c := range line {
				switch {
				case c >= 'a' && c <= 'z':
					c = 'a' + (c-'a'+k)%26
				case c >= 'A' && c <= 'Z':
					c = 'A' + (c-'A'+k)%26
				}
				out = append(out, c)
			}
			out = append(out, '\n')
		}
	}
	return out
}

// doubled: every character of tok written twice.
func doubled(tok []byte) bool {
	if len(tok)%2 != 0 {
		return false
	}
	for k := 0; k < len(tok); k += 2 {
		if tok[k] != tok[k+1] {
			return false
		}
	}
	return true
}

func rot13(c byte) byte {
	switch {
	case c >= 'a' && c <= 'z':
		return 'a' + (c-'a'+13)%26
	case c >= 'A' && c <= 'Z':
		return 'A' + (c-'A'+13)%26
	}
	return c
}

func swapCase(c byte) byte {
	switch {
	case c >= 'a' && c <= 'z':
		return c - 'a' + 'A'
	case c >= 'A' && c <= 'Z':
		return c - 'A' + 'a'
	}
	return c
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}
