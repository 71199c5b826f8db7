package flow

import (
	"bytes"
	"math/bits"
	"slices"

	"github.com/flowd-dev/flowd/internal/budget"
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

type sentTail struct{ values, longest []byte }

// callPieces returns what a call adds to the two forms: its string
// values (after each member's name) joined, and its longest token.
func callPieces(args []byte) (values, longest []byte) {
	for line := range bytes.SplitSeq([]byte(Text(args, 4<<10)), []byte{'\n'}) {
		if k := bytes.Index(line, []byte(": ")); k >= 0 {
			line = line[k+2:]
		}
		values = append(values, line...)
		for tok := range bytes.FieldsSeq(line) {
			if len(tok) > len(longest) {
				longest = tok
			}
		}
	}
	return tail(values, maxCallPiece), tail(longest, maxCallPiece)
}

func tail(b []byte, n int) []byte { return b[max(0, len(b)-n):] }

// joinSent returns the joins of what the session sent server lately with
// what args send now, and keeps args' part for the calls that follow.
func (s *Session) joinSent(server string, args []byte) [][]byte {
	values, longest := callPieces(args)
	s.mu.Lock()
	defer s.mu.Unlock()
	prev, ok := s.sent[server]
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
	joinedLongest := append(append([]byte(nil), prev.longest...), longest...)
	s.sent[server] = sentTail{values: tail(joinedValues, maxSentTail), longest: tail(joinedLongest, maxSentTail)}
	if !ok {
		// Nothing sent before: the call is read whole elsewhere.
		return nil
	}
	return [][]byte{joinedValues, joinedLongest}
}

// The joins above hold a secret only when its pieces go out in order and
// alone. A receiver needs neither: pieces numbered, sent last first, or
// each amid other text (a shell command, a sentence) are put together
// all the same. So the session also counts which characters of each
// known secret have left in runs of at least eight (fingerprint.Grams),
// to any destination not internal, in any order: once most of a secret
// has, the call that completes it carries the secret. Found by a red
// team (RT3-3..5).

// coverShare is the share of a secret's characters that, sent in runs,
// counts as the secret sent: the few left out are guessed, or brute
// forced, by whoever holds the rest.
const coverNum, coverDen = 3, 4

// maxCovered bounds the secrets whose sent characters a session counts.
const maxCovered = 256

// sentPieces adds the runs of known secrets that text holds to what the
// session sent out, and returns the secrets most of whose characters have
// now left that way. A secret the call carries whole (whole) is not
// counted: that call is judged for it as it is, and if it is stopped,
// its characters did not leave.
func (s *Session) sentPieces(sec *fingerprint.SecretIndex, text []byte, whole []fingerprint.SecretMatch, b *budget.Budget) ([]fingerprint.SecretMatch, bool) {
	hits, complete := sec.Grams(text, b)
	hits = slices.DeleteFunc(hits, func(h fingerprint.GramHit) bool {
		return slices.ContainsFunc(whole, func(m fingerprint.SecretMatch) bool {
			return m.Secret == h.Secret && m.Encoding != fingerprint.EncFragment
		})
	})
	if len(hits) == 0 {
		return nil, complete
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.covered == nil {
		s.covered = make(map[uint64][]uint64)
	}
	var out []fingerprint.SecretMatch
	for _, h := range hits {
		c, ok := s.covered[h.Secret]
		if !ok {
			if len(s.covered) >= maxCovered {
				for k := range s.covered {
					delete(s.covered, k)
					break
				}
			}
			c = make([]uint64, len(h.Covered))
		}
		n := 0
		for i := range c {
			c[i] |= h.Covered[i]
			n += bits.OnesCount64(c[i])
		}
		s.covered[h.Secret] = c
		if n*coverDen >= h.Len*coverNum {
			out = append(out, fingerprint.SecretMatch{Secret: h.Secret, Label: h.Label, Encoding: fingerprint.EncPieces})
		}
	}
	return out, complete
}
