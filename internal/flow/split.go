package flow

import (
	"bytes"
	"hash/maphash"
	"math/bits"
	"slices"

	"github.com/flowd-dev/flowd/internal/fingerprint"
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
}

// maxFrameTokens bounds the tokens of a call kept to tell its frame.
const maxFrameTokens = 64

// callPieces returns what a call adds to the two forms: its string
// values (after each member's name) joined, and its longest token that
// the call before (frame: its tokens' hashes) did not send too; and the
// hashes of its own tokens.
func callPieces(args []byte, frame []uint64) (values, longest, runner []byte, tokens []uint64) {
	for line := range bytes.SplitSeq([]byte(Text(args, 4<<10)), []byte{'\n'}) {
		if k := bytes.Index(line, []byte(": ")); k >= 0 {
			line = line[k+2:]
		}
		values = append(values, line...)
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
	return tail(values, maxCallPiece), tail(longest, maxCallPiece), tail(runner, maxCallPiece), tokens
}

var frameSeed = maphash.MakeSeed()

func tail(b []byte, n int) []byte { return b[max(0, len(b)-n):] }

// joinSent returns the joins of what the session sent server lately with
// what args send now, and keeps args' part for the calls that follow.
func (s *Session) joinSent(server string, args []byte) [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	prev, ok := s.sent[server]
	values, longest, runner, tokens := callPieces(args, prev.tokens)
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
	s.sent[server] = sentTail{values: tail(joinedValues, maxSentTail), longest: tail(joinedLongest, maxSentTail),
		tokens: tokens, last: bytes.Clone(longest), runner: bytes.Clone(runner)}
	if !ok {
		// Nothing sent before: the call is read whole elsewhere.
		return nil
	}
	return [][]byte{joinedValues, joinedLongest}
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
