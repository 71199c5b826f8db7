package flow

import "bytes"

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
