package unwrap

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"strings"
)

// A value cut into pieces can be sent with the pieces reordered, each
// piece turned around or encoded on its own, or as the segments of a URL
// path or the labels of a host name. pieceViews puts such pieces back
// together in the orders and decodings a receiver would undo, one joined
// value a line. Each is bounded by the text it reads: a line per run of
// pieces, of the run's length.

// Bounds on a run of pieces: at least minPieces pieces, each at most
// maxPieceWidth bytes, all of one length but the first or last.
const (
	minPieces     = 4
	maxPieceWidth = 16
	minPieceWidth = 3
	// maxPieceViews bounds what pieceViews returns: within what the
	// views of a text may hold, so a large text keeps its first ones.
	maxPieceViews = 64 << 10
	// maxRunPieces ends a run: a value is cut into fewer pieces, and a
	// long table of equal cells is read a stretch at a time.
	maxRunPieces = 128
)

// pieceViews returns text's cut values put back together: runs of pieces
// of one length (reordered, each reversed, each decoded), URL paths and
// host names joined. ok is false when there are none.
func pieceViews(text []byte) ([]byte, bool) {
	var out []byte
	// One run's pieces, on the stack: runs are tried at every word of a
	// text.
	var buf [maxRunPieces + 1][]byte
	scratch := buf[:0]
	for i := 0; i < len(text) && len(out) < maxPieceViews; {
		end, pieces, words := pieceRun(text, i, scratch[:0])
		scratch = pieces[:0]
		if end == 0 {
			i = nextPieceStart(text, i)
			continue
		}
		// A run of words is passed over whole, as a cut value is: read
		// again from each of its words, a megabyte of "big big …" cost
		// 128 pieces a word.
		if !words {
			out = appendOrders(out, pieces)
		}
		i = end
	}
	out = appendDecodedParts(out, text)
	out = appendURLParts(out, text)
	if len(out) > maxPieceViews {
		out = out[:maxPieceViews]
	}
	return out, len(out) > 0
}

// pieceByte: a byte a piece of a cut value may hold.
func pieceByte(c byte) bool { return pieceBytes[c] }

// pieceBytes is pieceByte as a table: it is asked of every byte of a
// call, several times.
var pieceBytes = func() (t [256]bool) {
	for c := '!'; c < 0x7f; c++ {
		t[c] = !strings.ContainsRune(`"',|[]\`, c)
	}
	return t
}()

func nextPieceStart(text []byte, i int) int {
	for i < len(text) && pieceByte(text[i]) {
		i++
	}
	for i < len(text) && !pieceByte(text[i]) {
		i++
	}
	return i
}

// pieceRun reads a run of pieces starting at text[i]: pieces of one
// length (the first or the last may be shorter) split by one separator
// repeated. It returns where the run ends and its pieces, or end == 0,
// and whether the pieces are words of prose between blanks (proseWords).
// A separator is the bytes after the first piece that no piece holds (a
// blank, a comma, a bar, quotes), or, where the first piece runs on, the
// first byte of punctuation in it ("a_phg-…").
func pieceRun(text []byte, i int, pieces [][]byte) (end int, _ [][]byte, words bool) {
	if i > 0 && pieceByte(text[i-1]) {
		return 0, pieces[:0], false
	}
	k := i
	for k < len(text) && pieceByte(text[k]) && k-i <= maxPieceWidth {
		k++
	}
	if k == i || k >= len(text) {
		return 0, pieces[:0], false
	}
	var sep []byte
	cut := byte(0) // a byte that ends a piece besides those no piece holds
	if k-i > maxPieceWidth {
		p := i + minPieceWidth
		for p < k && isAlnumByte(text[p]) {
			p++
		}
		if p == k {
			return 0, pieces[:0], false
		}
		sep = text[p : p+1]
		cut = sep[0]
	} else {
		s := k
		for s < len(text) && !pieceByte(text[s]) && s-k < maxSep {
			s++
		}
		if s == k || s >= len(text) || !pieceByte(text[s]) {
			return 0, pieces[:0], false
		}
		sep = text[k:s]
	}
	j := i
	for {
		k := j
		for k < len(text) && pieceBytes[text[k]] && text[k] != cut && k-j <= maxPieceWidth {
			k++
		}
		if k == j || k-j > maxPieceWidth {
			break
		}
		// The run ends at a piece of another length (taking it when it
		// is shorter: the rest of the value), so a run that fails is
		// read no further than its first pieces.
		w := k - j
		if len(pieces) >= 2 && w != len(pieces[1]) || len(pieces) == 1 && w < len(pieces[0]) {
			if w < len(pieces[len(pieces)-1]) && len(pieces) >= 2 {
				pieces, end = append(pieces, text[j:k]), k
			}
			break
		}
		pieces = append(pieces, text[j:k])
		end = k
		if len(pieces) == 2 && w < minPieceWidth {
			// Too narrow whatever follows (oneWidth): a run of single
			// letters ("a\u200ba\u200b…") read to maxRunPieces from
			// each of its letters cost 128 pieces a byte.
			return 0, pieces[:0], false
		}
		if !bytes.HasPrefix(text[k:], sep) || len(pieces) == maxRunPieces {
			break
		}
		j = k + len(sep)
	}
	if len(pieces) < minPieces || !oneWidth(pieces) {
		return 0, pieces[:0], false
	}
	return end, pieces, blankIn(sep) && proseWords(pieces)
}

// proseWords: every piece is a word as prose writes it (lower-case
// letters, the first maybe a capital). Words between blanks are prose
// that happens to run a few of one length ("the quick brown fox"), not a
// cut value, whose pieces hold digits or capitals, as joinSeparated
// reads them; joined and tried as every encoding, prose cost a 1 KB call
// most of its views' time.
func proseWords(pieces [][]byte) bool {
	for _, p := range pieces {
		if len(p) > 0 && p[0] >= 'A' && p[0] <= 'Z' {
			p = p[1:]
		}
		if !plainWord(p) {
			return false
		}
	}
	return true
}

// oneWidth: the pieces are of one length of at least minPieceWidth, but
// for the first or the last, which may be shorter (the rest of a value
// cut from either end).
func oneWidth(pieces [][]byte) bool {
	w := len(pieces[1])
	if w < minPieceWidth {
		return false
	}
	for k, p := range pieces {
		if len(p) != w && !(len(p) < w && (k == 0 || k == len(pieces)-1)) {
			return false
		}
	}
	return true
}

// appendOrders adds the pieces joined as they are, in reverse order, and
// each turned around, a line each.
func appendOrders(out []byte, pieces [][]byte) []byte {
	for _, p := range pieces {
		out = append(out, p...)
	}
	out = append(out, '\n')
	for k := len(pieces) - 1; k >= 0; k-- {
		out = append(out, pieces[k]...)
	}
	out = append(out, '\n')
	for _, p := range pieces {
		for k := len(p) - 1; k >= 0; k-- {
			out = append(out, p[k])
		}
	}
	return append(out, '\n')
}

// appendDecodedParts adds, for each run of two or more neighbouring
// tokens that each decode (hex, base64, base32) to printable text, the
// decoded tokens joined: a value cut into parts and each part encoded.
// Words of prose seldom decode to printable text, so prose adds little.
func appendDecodedParts(out []byte, text []byte) []byte {
	var joined []byte
	var buf [48]byte // a part's decoding, copied into joined
	parts := 0
	flush := func() {
		if parts >= 2 && len(joined) >= minRun {
			out = append(append(out, joined...), '\n')
		}
		joined, parts = joined[:0], 0
	}
	for i := 0; i < len(text) && len(out) < maxPieceViews; {
		if !encChar[text[i]] {
			// Separators between parts: a few bytes.
			j := i
			for j < len(text) && !encChar[text[j]] {
				j++
			}
			if j-i > maxSep {
				flush()
			}
			i = j
			continue
		}
		j := i
		for j < len(text) && encChar[text[j]] {
			j++
		}
		// A part after the first may be short: the rest of the value.
		if d, ok := decodePart(&buf, text[i:j], parts > 0); ok {
			joined = append(joined, d...)
			parts++
		} else {
			flush()
		}
		i = j
	}
	flush()
	return out
}

// decodePart decodes a token of 4 (2 when it is not the first part) to
// 64 characters as hex, base32 or padded base64, whichever reads it as
// printable text, into buf.
func decodePart(buf *[48]byte, tok []byte, next bool) ([]byte, bool) {
	if len(tok) < 4 && !(next && len(tok) >= 2) || len(tok) > 64 || plainWord(tok) {
		return nil, false
	}
	if len(tok)%2 == 0 {
		if n, err := hex.Decode(buf[:], tok); err == nil {
			if p, ok := printable(buf[:n]); ok {
				return p, true
			}
		}
	}
	if b, ok := base32Std.decode(buf[:], tok); ok {
		if p, ok := printable(b); ok {
			return p, true
		}
	}
	if len(tok)%4 == 0 {
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
			if n, err := enc.Decode(buf[:], tok); err == nil {
				if p, ok := printable(buf[:n]); ok {
					return p, true
				}
			}
		}
	}
	return nil, false
}

// plainWord: tok is lower-case letters only, a word rather than a part
// of an encoding (which holds digits, capitals or symbols).
func plainWord(tok []byte) bool {
	for _, c := range tok {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

func printable(b []byte) ([]byte, bool) {
	for _, c := range b {
		if c < ' ' || c >= 0x7f {
			return nil, false
		}
	}
	return b, len(b) > 0
}

// appendURLParts adds the path of each URL with three or more segments
// joined (whole, and without its first and second segments), and the
// labels of each host name with three or more left of its domain joined
// (without the last two and three labels): a value cut into path segments
// or DNS labels.
func appendURLParts(out []byte, text []byte) []byte {
	if bytes.IndexByte(text, '.') < 0 {
		return out // a host name and a path's start both need a dot
	}
	for i := 0; i < len(text) && len(out) < maxPieceViews; {
		if !hostByte(text[i]) || i > 0 && hostByte(text[i-1]) {
			i++
			continue
		}
		j := i
		for j < len(text) && hostByte(text[j]) {
			j++
		}
		// Most words have no dot, and cost no allocation.
		dots := bytes.Count(text[i:j], []byte{'.'})
		if dots >= 4 {
			labels := bytes.Split(text[i:j], []byte{'.'})
			for _, drop := range []int{2, 3} {
				out = append(append(out, bytes.Join(labels[:len(labels)-drop], nil)...), '\n')
			}
		}
		if j+1 < len(text) && text[j] == '/' && text[j+1] != '/' && dots >= 1 {
			k := j
			for k < len(text) && pathByte(text[k]) {
				k++
			}
			segs := bytes.FieldsFunc(text[j:k], func(r rune) bool { return r == '/' })
			for skip := 0; skip <= 2 && len(segs)-skip >= 3; skip++ {
				out = append(append(out, bytes.Join(segs[skip:], nil)...), '\n')
			}
			j = k
		}
		i = j
	}
	return out
}

func hostByte(c byte) bool {
	return isAlnumByte(c) || c == '.' || c == '-' || c == '_'
}

func pathByte(c byte) bool {
	return c > ' ' && c < 0x7f && c != '"' && c != '\'' && c != '<' && c != '>' && c != '\\' && c != '#' && c != '?'
}
