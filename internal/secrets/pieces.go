package secrets

import "strings"

// A credential cut into pieces, each under a credential name of its own
// (secret_1: …, secret_2: …; "token_a": "…", "token_b": "…"), has no
// piece long enough to be judged a credential. Put together, in the
// order they stand, the pieces are judged as one value: a secret's form
// (length, alphabet, randomness) does not depend on the order of its
// pieces, so pieces sent out of order are found as surely, and no origin
// is needed.

// Bounds on pieces: each of minPiece to maxPiece bytes and random in form
// (credentialPiece), at most pieceGap bytes from the one before, and at
// least minJoined bytes together.
const (
	minPiece  = 5
	maxPiece  = 24
	pieceGap  = 160
	minJoined = 20
)

// credentialPiece: v, assigned to a credential name and too short to be a
// credential, is random in form, as a piece of one is.
func credentialPiece(v string) bool {
	if len(v) < minPiece || len(v) > maxPiece || strings.ContainsAny(v, " /.:@") || templated(v) || masked(v) || wordish(v) {
		return false
	}
	// Three kinds of character, or letters of one case and digits
	// switching along it (K3KTWT2R, not v2 or 2024a).
	return charKinds(v) >= 3 || charKinds(v) == 2 && digitSwitches(v) >= 3
}

// joinPieces reports the runs of two or more pieces near one another
// whose join is a credential.
func joinPieces(st *scanState, text string) {
	var joined []byte
	for i := 0; i < len(st.pieces); {
		j := i + 1
		for j < len(st.pieces) && st.pieces[j].lo-st.pieces[j-1].hi <= pieceGap {
			j++
		}
		if j-i >= 2 {
			joined = joined[:0]
			for _, p := range st.pieces[i:j] {
				joined = append(joined, text[p.lo:p.hi]...)
			}
			st.work += len(joined)
			if v := string(joined); len(v) >= minJoined && credentialValue(v, credToken, true, false) {
				lo, hi := st.pieces[i].lo, st.pieces[j-1].hi
				st.add(finding{generic: true, Finding: Finding{Type: "generic_api_key", Rule: "pieced-assignment", Value: text[lo:hi], Start: lo, End: hi, Example: looksLikeExample(v)}})
			}
		}
		i = j
	}
}
