package flow

import (
	"bytes"
	"hash/maphash"
	"math/bits"
	"slices"

	"github.com/flowd-dev/flowd/internal/fingerprint"
	"github.com/flowd-dev/flowd/internal/unwrap"
)

// A secret can leave a piece per call: each call carries a few characters
// no matcher can tell from an id, and the receiver puts them together.
// The session keeps what recent calls sent each destination, in two forms
// a receiver would join (each call's values whole, and each call's
// longest token), and the checks read the join of those with the call's.

// Bounds: a call adds at most maxCallPiece bytes to a form, a form keeps
// the last maxSentTail bytes, and a session keeps the forms of at most
// maxSentServers destinations.
const (
	maxCallPiece   = 256
	maxSentTail    = 512
	maxSentServers = 32
)

type sentTail struct {
	values, longest []byte
	// tokens are the hashes of the last call's tokens (at most
	// maxFrameTokens): a token the next call sends again (the recipient,
	// a fixed header) is the calls' frame, not a piece. last is the
	// last call's longest token, runner its next: when the next call
	// shows last to be frame, runner was the piece.
	tokens       []uint64
	last, runner []byte
	// numbered are the pieces recent calls sent under a number (part 3:
	// …, [3/8] …, 3=…), at most maxSentTail bytes of them: a receiver
	// puts them in the numbers' order, whatever order they left in.
	numbered []numberedPiece
}

type numberedPiece struct {
	n     int
	piece []byte
}

// maxFrameTokens bounds the tokens of a call kept to tell its frame.
const maxFrameTokens = 64

// callPieces returns what a call adds to the two forms: its string
// values (after each member's name) joined, and its longest token that
// the call before (frame: its tokens' hashes) did not send too; the
// hashes of its own tokens; and the longest piece it sends under a
// number, if any.
func callPieces(args []byte, frame []uint64) (values, longest, runner []byte, tokens []uint64, numbered numberedPiece) {
	for line := range bytes.SplitSeq([]byte(Text(args, 4<<10)), []byte{'\n'}) {
		if k := bytes.Index(line, []byte(": ")); k >= 0 {
			line = line[k+2:]
		}
		values = append(values, line...)
		if n, piece, ok := numberedPieceOf(line); ok && len(piece) > len(numbered.piece) && !slices.Contains(frame, maphash.Bytes(frameSeed, piece)) {
			numbered = numberedPiece{n, tail(piece, maxCallPiece)}
		}
		for tok := range bytes.FieldsSeq(line) {
			h := maphash.Bytes(frameSeed, tok)
			if len(tokens) < maxFrameTokens {
				tokens = append(tokens, h)
			}
			switch {
			case slices.Contains(frame, h):
			case len(tok) > len(longest):
				longest, runner = tok, longest
			case len(tok) > len(runner):
				runner = tok
			}
		}
	}
	return tail(values, maxCallPiece), tail(longest, maxCallPiece), tail(runner, maxCallPiece), tokens, numbered
}

var frameSeed = maphash.MakeSeed()

func tail(b []byte, n int) []byte { return b[max(0, len(b)-n):] }

// joinSent returns the joins of what the session sent server lately with
// what args send now, and keeps args' part for the calls that follow.
func (s *Session) joinSent(server string, args []byte) [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	prev, ok := s.sent[server]
	values, longest, runner, tokens, piece := callPieces(args, prev.tokens)
	prevLongest := prev.longest
	if n := len(prev.last); n > 0 && slices.Contains(tokens, maphash.Bytes(frameSeed, prev.last)) && bytes.HasSuffix(prevLongest, prev.last) {
		// The last call's longest token is sent again: frame. Its piece
		// was the token after it.
		prevLongest = append(prevLongest[:len(prevLongest)-n:len(prevLongest)-n], prev.runner...)
	}
	if !ok && len(s.sent) >= maxSentServers {
		for k := range s.sent {
			delete(s.sent, k)
			break
		}
	}
	if s.sent == nil {
		s.sent = make(map[string]sentTail)
	}
	joinedValues := append(append([]byte(nil), prev.values...), values...)
	joinedLongest := append(append([]byte(nil), prevLongest...), longest...)
	numbered := prev.numbered
	if piece.piece != nil {
		numbered = keepNumbered(numbered, numberedPiece{piece.n, bytes.Clone(piece.piece)})
	}
	s.sent[server] = sentTail{values: tail(joinedValues, maxSentTail), longest: tail(joinedLongest, maxSentTail),
		tokens: tokens, last: bytes.Clone(longest), runner: bytes.Clone(runner), numbered: numbered}
	if !ok {
		// Nothing sent before: the call is read whole elsewhere.
		return nil
	}
	joins := [][]byte{joinedValues, joinedLongest}
	if len(numbered) > 1 {
		joins = append(joins, inNumberOrder(numbered))
	}
	return joins
}

// numberedPieceOf reads a line of a call's values as a numbered piece:
// a number of at most three digits (at the start, or after a word or a
// bracket), an optional "/total" or " of total" closed by a blank or a
// bracket, a punctuation mark, and the piece, the token that follows.
func numberedPieceOf(line []byte) (n int, piece []byte, ok bool) {
	for i := 0; i < len(line); i++ {
		if !isDigit(line[i]) || i > 0 && isDigit(line[i-1]) {
			continue
		}
		k := i
		for k < len(line) && isDigit(line[k]) {
			k++
		}
		if k-i > 3 {
			i = k
			continue
		}
		n = 0
		for _, c := range line[i:k] {
			n = n*10 + int(c-'0')
		}
		if e := skipTotal(line, k); e > k {
			if piece := pieceAfter(line, e); piece != nil {
				return n, piece, true
			}
		}
		if piece := pieceAfter(line, k); piece != nil {
			return n, piece, true
		}
		i = k
	}
	return 0, nil, false
}

// skipTotal is where a "/total" or " of total" at k ends, with the
// bracket or blank after it; k when there is none.
func skipTotal(line []byte, k int) int {
	e := k
	switch {
	case bytes.HasPrefix(line[e:], []byte("/")):
		e++
	case bytes.HasPrefix(line[e:], []byte(" of ")):
		e += 4
	default:
		return k
	}
	d := e
	for e < len(line) && isDigit(line[e]) && e-d < 3 {
		e++
	}
	if e == d || e < len(line) && isDigit(line[e]) {
		return k
	}
	if e < len(line) && (line[e] == ']' || line[e] == ')') {
		e++
	}
	if e >= len(line) || line[e] != ' ' && line[e] != '\t' {
		return k
	}
	return e
}

// pieceAfter is the token of two bytes or more after a label ending at
// k: a closing bracket, blanks, one punctuation mark, blanks.
func pieceAfter(line []byte, k int) []byte {
	if k < len(line) && (line[k] == ']' || line[k] == ')') {
		k++
	}
	k = skipSpace(line, k)
	if k < len(line) && bytes.IndexByte([]byte(":=/#.,)]-"), line[k]) >= 0 {
		k = skipSpace(line, k+1)
	}
	e := k
	for e < len(line) && line[e] != ' ' && line[e] != '\t' {
		e++
	}
	if e-k < 2 {
		return nil
	}
	return line[k:e]
}

func skipSpace(line []byte, k int) int {
	for k < len(line) && (line[k] == ' ' || line[k] == '\t') {
		k++
	}
	return k
}

// keepNumbered adds p to the numbered pieces, the oldest dropped past
// maxSentTail bytes; a piece of the same number replaces the one before.
func keepNumbered(ps []numberedPiece, p numberedPiece) []numberedPiece {
	ps = slices.DeleteFunc(slices.Clone(ps), func(q numberedPiece) bool { return q.n == p.n })
	ps = append(ps, p)
	size := 0
	for _, q := range ps {
		size += len(q.piece)
	}
	for len(ps) > 1 && size > maxSentTail {
		size -= len(ps[0].piece)
		ps = ps[1:]
	}
	return ps
}

// inNumberOrder joins the pieces in the order of their numbers.
func inNumberOrder(ps []numberedPiece) []byte {
	sorted := slices.SortedStableFunc(slices.Values(ps), func(a, b numberedPiece) int { return a.n - b.n })
	var out []byte
	for _, p := range sorted {
		out = append(out, p.piece...)
	}
	return out
}

// withViews adds to joins what the runs of each decode to: a value
// encoded before it was cut into pieces (hex, base32, z85, compressed)
// is whole again only once joined. The values whole are left out: the
// labels between the pieces break an encoded run, and the other joins
// hold the pieces. Joins are at most maxSentTail+maxCallPiece bytes, so
// their views are bounded by a constant a call.
func withViews(joins [][]byte) [][]byte {
	out := joins
	for _, j := range joins[min(1, len(joins)):] {
		out = append(out, unwrap.RunViews(j)...)
	}
	return out
}

// The joins above find a secret the detector knows by its shape when its
// pieces go out in order. A secret the session knows (read from a file,
// an environment, a result) is pieced together in any order and amid any
// text: each call's runs of it (fingerprint.Cover) are added up, and once
// most of it has left for destinations that are not internal, the call
// that completed it is the secret leaving.

// EncPieces names a known secret most of which the session's calls sent
// out between them, a few characters each.
const EncPieces fingerprint.Encoding = "pieces"

// maxCovered bounds the secrets whose sent parts a session tracks.
const maxCovered = 32

// coverage is which characters of a secret's canonical form have left:
// sent in the calls of the current epoch, prev in those of the one
// before. Every piece read is a chance for unrelated text to match (a word
// that is four characters of the key), and a long session's chances would
// add up to a secret's worth: pieces count only while they are recent, so
// a secret is counted as sent when most of it left within coverEpoch to
// 2·coverEpoch calls.
type coverage struct {
	sent, prev []uint64 // a bit per character
	epoch      int
}

// coverEpoch is how many calls to destinations that are not internal an
// epoch of coverage lasts.
const coverEpoch = 32

// piecedTogether adds covers, what one call to a destination that is not
// internal sends of the session's known secrets, to what recent calls
// sent, and returns the secrets of which most would now have left. The
// runs of a call that completes a secret are not added: the call is
// stopped for it, so they did not leave, and the same runs sent again are
// stopped again.
func (s *Session) piecedTogether(covers []fingerprint.Cover) []fingerprint.SecretMatch {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.coverCalls++
	if len(covers) == 0 {
		return nil
	}
	if s.covered == nil {
		s.covered = make(map[uint64]*coverage)
	}
	epoch := s.coverCalls / coverEpoch
	var out []fingerprint.SecretMatch
	for _, c := range covers {
		cv := s.covered[c.Secret]
		if cv == nil {
			if len(s.covered) >= maxCovered {
				for k := range s.covered {
					delete(s.covered, k)
					break
				}
			}
			cv = &coverage{sent: make([]uint64, (c.Len+63)/64), prev: make([]uint64, (c.Len+63)/64), epoch: epoch}
			s.covered[c.Secret] = cv
		}
		if cv.epoch != epoch {
			if epoch == cv.epoch+1 {
				copy(cv.prev, cv.sent)
			} else {
				clear(cv.prev)
			}
			clear(cv.sent)
			cv.epoch = epoch
		}
		sent := slices.Clone(cv.sent)
		for _, at := range c.At {
			for i := at; i < min(at+fingerprint.CoverGram, c.Len, 64*len(sent)); i++ {
				sent[i/64] |= 1 << (i % 64)
			}
		}
		for _, i := range c.Chars {
			if i < min(c.Len, 64*len(sent)) {
				sent[i/64] |= 1 << (i % 64)
			}
		}
		n := 0
		for w := range sent {
			n += bits.OnesCount64(sent[w] | cv.prev[w])
		}
		if n >= max(fingerprint.CoverMinLength, (2*c.Len+2)/3) {
			out = append(out, fingerprint.SecretMatch{Secret: c.Secret, Label: c.Label, Encoding: EncPieces})
			continue
		}
		cv.sent = sent
	}
	return out
}
