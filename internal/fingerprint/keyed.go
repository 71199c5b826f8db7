package fingerprint

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"hash/maphash"
	"slices"
	"unicode/utf8"

	"github.com/flowd-dev/flowd/internal/budget"
	"github.com/flowd-dev/flowd/internal/jsontext"
)

// Known-plaintext matching. A secret the session has read is plaintext
// flowd knows: text holding it under a key the attacker chose still
// gives the key away against it, so the key need not be known, nor the
// cipher named. FindKeyed compares each token of a text, of a known
// secret's length, with the secret (and its reversed, base64 and hex
// forms) and reports it when
//
//   - its characters stand for the secret's one for one: the same
//     character wherever the secret repeats one, different ones where it
//     does not (a Caesar shift over any alphabet, a byte XORed with or
//     added to a constant, a bit rotation, a keyboard shifted, any fixed
//     substitution, emoji for characters);
//   - its difference from the secret, byte by byte (XOR or subtraction)
//     or letter by letter (mod 26, other characters kept), repeats with a
//     short period: a repeating key (Vigenère, XOR with a word);
//   - it holds the secret's characters, in another order (a columnar or
//     rail-fence transposition, halves riffled, pairs swapped).
//
// A random token passes none of these by chance: each ties every one of
// a secret's 16 or more characters to the token's. Ciphered bytes arrive
// in a decoded view of the call (hex, base64), whole; text is cut into
// tokens at blanks and quotes, and a token at most keyedSlack bytes
// longer than a form is read where it starts, where it ends and after a
// label's "=" or ":". Each check fails most tokens at their first bytes
// (a repeat of the form's they do not repeat, a character of another
// class), so a call that carries no secret costs a few comparisons a
// token.

// Encodings FindKeyed reports.
const (
	EncSubstituted Encoding = "substituted" // each character replaced by another, consistently
	EncKeyed       Encoding = "keyed"       // bytes or letters shifted by a repeating key
	EncPermuted    Encoding = "permuted"    // the secret's characters in another order
)

// Bounds: the shortest and longest secret forms compared (shorter ones
// are not tied to enough characters), the longest repeating key, and how
// many secrets, newest first, are compared.
const (
	keyedMinLen = 16
	keyedMaxLen = 512
	// keyedSlack is how much longer than a form a token compared with it
	// may be: a ciphered secret stands alone, or after a short label, or
	// glued to the next field's value in the fields view.
	keyedSlack   = 24
	maxKeyPeriod = 16
	maxKeyed     = 64
	// A repeating key must be checked on enough characters that a token
	// does not match by chance: about 64 bits of bytes, about 42 of
	// letters (and the letters' and other characters' places, which the
	// token must match too).
	keyedByteTies   = 8
	keyedLetterTies = 9
	keyedRepeats    = 5 // repeats a form needs for a substitution to say anything
	keyedDistinct   = 8 // distinct characters a form needs for a reordering to say anything
)

// keyedForm is one form of a secret, compared whole.
type keyedForm struct {
	slot     uint32
	form     []byte
	sum      uint64 // multiset hash of its bytes
	repeats  int    // bytes that repeat an earlier one
	distinct int
	// pairs are the places of the first two repeats, each with the
	// place of the byte it repeats: a token that stands for the form
	// repeats its bytes there too, which most tokens fail at once.
	pairs [4]int
}

// keyedSet is the forms of the live internal secrets, by length.
type keyedSet struct {
	byLen [][]keyedForm // the forms of each length in lens
	lens  []int         // the lengths, ascending
}

// byteMix gives each byte a random 64-bit value: a multiset's hash is the
// sum over its bytes, so any window's is a difference of prefix sums.
var byteMix = func() (t [256]uint64) {
	x := uint64(0x9e3779b97f4a7c15)
	for i := range t {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		t[i] = z ^ z>>31
	}
	return t
}()

func newKeyedForm(slot uint32, f []byte) keyedForm {
	k := keyedForm{slot: slot, form: f}
	var first [256]int // place of each byte's first occurrence, plus one
	for i, c := range f {
		k.sum += byteMix[c]
		if first[c] == 0 {
			first[c] = i + 1
			k.distinct++
			continue
		}
		if k.repeats < 2 {
			k.pairs[2*k.repeats], k.pairs[2*k.repeats+1] = first[c]-1, i
		}
		k.repeats++
	}
	return k
}

// buildKeyed collects the forms of the newest internal secrets.
func (x *SecretIndex) buildKeyed() (*keyedSet, int) {
	byLen := map[int][]keyedForm{}
	k := &keyedSet{}
	work := 0
	pool := x.pools[0]
	for _, slot := range pool[max(0, len(pool)-maxKeyed):] {
		s := []byte(x.secrets[slot].value)
		rev := slices.Clone(s)
		slices.Reverse(rev)
		for _, f := range [][]byte{s, rev, []byte(base64.RawStdEncoding.EncodeToString(s)), []byte(hex.EncodeToString(s))} {
			if len(f) < keyedMinLen || len(f) > keyedMaxLen {
				continue
			}
			byLen[len(f)] = append(byLen[len(f)], newKeyedForm(slot, f))
			work += len(f)
		}
	}
	for n := range byLen {
		k.lens = append(k.lens, n)
	}
	slices.Sort(k.lens)
	for _, n := range k.lens {
		k.byLen = append(k.byLen, byLen[n])
	}
	return k, work
}

// keyedScratch is FindKeyed's per-call state.
type keyedScratch struct {
	prefix     []uint64 // multiset hash of the token's first i bytes
	stamp      uint32
	fwd        [256]uint32 // token byte → stamp<<8 | form byte, this stamp
	back       [256]uint32 // form byte → stamp<<8 | token byte
	runeTo     map[rune]byte
	byteTo     map[byte]rune
	runes      []rune
	decoded    []byte
	bytesKeyed bool            // the token is compared under byte keys
	read       map[uint64]bool // the tokens read, by hash
	seed       maphash.Seed
	// letterKey's shifts by position, and of the letters alone
	shifts, onLetters []int8
}

// decodeToken decodes t when it is hex (an even number of hex digits) or,
// when b64, base64 in either alphabet, padded or not; ok is false
// otherwise.
func decodeToken(t, dst []byte, b64 bool) (_ []byte, ok bool) {
	hexRun, b64Run := len(t)%2 == 0, b64
	end := len(t)
	for end > 0 && t[end-1] == '=' && len(t)-end < 2 {
		end--
	}
	for _, c := range t[:end] {
		hexRun = hexRun && jsontext.IsHex(c)
		b64Run = b64Run && b64Value[c] >= 0
		if !hexRun && !b64Run {
			return nil, false
		}
	}
	switch {
	case hexRun && end == len(t):
		return appendHex(dst, t), true
	case b64Run && end%4 != 1:
		return appendBase64(dst, t[:end]), true
	}
	return nil, false
}

// FindKeyed reports the known secrets of the internal pool that texts
// (a call's arguments and their views) hold under a key, substituted or
// reordered (see above); a token in more than one text is read once. Its
// work is reported to b; when b runs out it stops and complete is false.
func (x *SecretIndex) FindKeyed(b *budget.Budget, texts ...[]byte) (found []SecretMatch, complete bool) {
	return x.findKeyed(b, false, texts)
}

// FindKeyedJoined is FindKeyed of the joins of what calls sent (a
// receiver's view of pieces sent call by call): a token there that reads
// whole as hex or base64 is compared decoded too, since no view of a
// single call decoded it.
func (x *SecretIndex) FindKeyedJoined(b *budget.Budget, joined ...[]byte) (found []SecretMatch, complete bool) {
	return x.findKeyed(b, true, joined)
}

func (x *SecretIndex) findKeyed(b *budget.Budget, decode bool, texts [][]byte) (found []SecretMatch, complete bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.pools[0]) == 0 {
		return nil, true
	}
	if x.keyed == nil {
		k, work := x.buildKeyed()
		if !b.Spend(work) {
			return nil, false
		}
		x.keyed = k
	}
	k := x.keyed
	if len(k.lens) == 0 {
		return nil, true
	}
	// The scratch is the index's, kept from call to call: the index is
	// locked while it is used.
	if x.keyedScratch == nil {
		x.keyedScratch = &keyedScratch{read: map[uint64]bool{}, seed: maphash.MakeSeed()}
	}
	sc := x.keyedScratch
	if len(sc.read) > 4096 {
		// Clearing a map costs its size: a large text's is let go.
		sc.read = map[uint64]bool{}
	}
	clear(sc.read)
	report := func(f *keyedForm, enc Encoding) {
		for _, m := range found {
			if m.Secret == x.secrets[f.slot].id {
				return
			}
		}
		s := x.secrets[f.slot]
		found = append(found, SecretMatch{Secret: s.id, Label: s.label, Encoding: enc})
	}
	read, seed := sc.read, sc.seed
	work := 0
	tok := func(t []byte) bool {
		work += len(t)
		if work >= spendEvery {
			if !b.Spend(work) {
				return false
			}
			work = 0
		}
		if h := maphash.Bytes(seed, t); read[h] {
			return true
		} else {
			read[h] = true
		}
		work += k.token(t, sc, report)
		// A token that reads whole as hex (a view that turned a run
		// around: no view decoded it) or, in the joins, as base64 too is
		// compared decoded. Not every text's base64: any long word is.
		if d, ok := decodeToken(t, sc.decoded[:0], decode); ok && len(d) >= k.lens[0] {
			sc.decoded = d
			work += k.token(d, sc, report)
		}
		return true
	}
	for _, text := range texts {
		if len(text) < k.lens[0] {
			continue
		}
		// Bytes that are not text (a decoded view of ciphered bytes), and
		// text no longer than the longest form (a view of one decoded
		// run), are one token too: any byte may stand for a blank there.
		if len(text) <= k.lens[len(k.lens)-1] || notText(text) {
			if !tok(text) {
				return found, false
			}
		}
		if bytes.IndexByte(text, '\\') >= 0 {
			// Escaped JSON (a cipher's quote or angle bracket written
			// \u003c): tokens are read unescaped.
			text = jsontext.Lenient(make([]byte, 0, len(text)), text)
		}
		start := -1
		for i := 0; i <= len(text); i++ {
			if i < len(text) && !keyedBreak(text[i]) {
				if start < 0 {
					start = i
				}
				continue
			}
			if start >= 0 && i-start >= k.lens[0] && !tok(text[start:i]) {
				return found, false
			}
			start = -1
		}
	}
	return found, b.Spend(work)
}

// notText reports whether t holds bytes that are not text: control
// characters, or bytes that are not UTF-8.
func notText(t []byte) bool {
	return !utf8.Valid(t) || slices.ContainsFunc(t, func(c byte) bool { return c < ' ' && c != '\n' && c != '\r' && c != '\t' || c == 0x7f })
}

// keyedBreak reports whether c ends a token: blanks and quotes, which a
// substitution keeps out of its output or the text around it escapes.
func keyedBreak(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '"'
}

// token compares the windows of t with the forms of their length and
// returns the work it did.
func (k *keyedSet) token(t []byte, sc *keyedScratch, report func(*keyedForm, Encoding)) int {
	work := 0
	// Bytes XORed with or added to a key are not text, or not all of it:
	// they come in a decoded view. Text under a one-byte key is a
	// substitution.
	sc.bytesKeyed = notText(t)
	if !utf8.Valid(t) || !hasMultibyte(t) {
		sc.prefix = append(sc.prefix[:0], 0)
		for _, c := range t {
			sc.prefix = append(sc.prefix, sc.prefix[len(sc.prefix)-1]+byteMix[c])
		}
		marks := marksOf(t)
		for g, n := range k.lens {
			if n > len(t) {
				break
			}
			if len(t)-n > keyedSlack {
				continue
			}
			forms := k.byLen[g]
			ws, nw := windows(t, &marks, n)
			for _, at := range ws[:nw] {
				w := t[at : at+n]
				sum := sc.prefix[at+n] - sc.prefix[at]
				for i := range forms {
					f := &forms[i]
					work += 8 + n/4 // most compares stop within a few bytes
					if enc, ok := sc.compare(w, sum, f); ok {
						report(f, enc)
					}
				}
			}
		}
		return work
	}
	// Characters of more than one byte (emoji, symbols) standing for the
	// secret's bytes: a substitution of characters.
	sc.runes = sc.runes[:0]
	for _, r := range string(t) {
		if r == utf8.RuneError {
			return work
		}
		sc.runes = append(sc.runes, r)
	}
	for g, n := range k.lens {
		if n > len(sc.runes) {
			break
		}
		if len(sc.runes)-n > keyedSlack {
			continue
		}
		forms := k.byLen[g]
		for _, at := range []int{0, len(sc.runes) - n} {
			for i := range forms {
				f := &forms[i]
				work += 8 + n/4
				w := sc.runes[at : at+n]
				if f.repeats >= keyedRepeats && w[f.pairs[0]] == w[f.pairs[1]] && w[f.pairs[2]] == w[f.pairs[3]] && sc.runesStandFor(w, f.form) {
					report(f, EncSubstituted)
				}
			}
		}
	}
	return work
}

func hasMultibyte(t []byte) bool {
	return slices.ContainsFunc(t, func(c byte) bool { return c >= utf8.RuneSelf })
}

// tokenMarks are where in a token forms are read besides its start and
// end: before base64's padding, and after the first two of a label's "="
// or ":" near its start.
type tokenMarks struct {
	end    int // the token's length without the padding
	labels [2]int
	n      int // labels found
}

func marksOf(t []byte) (m tokenMarks) {
	m.end = len(t)
	for m.end > 0 && t[m.end-1] == '=' {
		m.end--
	}
	for i := 0; i < min(len(t), 24) && m.n < 2; i++ {
		if t[i] == '=' || t[i] == ':' {
			m.labels[m.n] = i + 1
			m.n++
		}
	}
	return m
}

// windows are where in t a form of length n is read: five places at
// most.
func windows(t []byte, m *tokenMarks, n int) (at [5]int, k int) {
	add := func(i int) {
		if i >= 0 && i+n <= len(t) && !slices.Contains(at[:k], i) {
			at[k] = i
			k++
		}
	}
	add(0)
	add(len(t) - n)
	add(m.end - n)
	for _, l := range m.labels[:m.n] {
		add(l)
	}
	return at, k
}

// compare tells whether window w (of f's length, multiset hash sum) is
// f's form under a key, substituted or reordered.
func (sc *keyedScratch) compare(w []byte, sum uint64, f *keyedForm) (Encoding, bool) {
	if sum == f.sum && f.distinct >= keyedDistinct && sameBytes(w, f.form) {
		if string(w) == string(f.form) || reversedOf(w, f.form) {
			return "", false // the form as it is or reversed: Find's
		}
		return EncPermuted, true
	}
	if f.repeats >= keyedRepeats && w[f.pairs[0]] == w[f.pairs[1]] && w[f.pairs[2]] == w[f.pairs[3]] && sc.standsFor(w, f.form) {
		return EncSubstituted, true
	}
	if sc.bytesKeyed && byteKey(w, f.form) || sc.letterKey(w, f.form) {
		return EncKeyed, true
	}
	return "", false
}

func reversedOf(a, b []byte) bool {
	for i := range a {
		if a[i] != b[len(b)-1-i] {
			return false
		}
	}
	return true
}

// sameBytes reports whether a and b hold the same bytes, counted.
func sameBytes(a, b []byte) bool {
	var n [256]int
	for i := range a {
		n[a[i]]++
		n[b[i]]--
	}
	return n == [256]int{}
}

// standsFor reports whether each byte of w stands for one byte of f, one
// for one, and w is not f.
func (sc *keyedScratch) standsFor(w, f []byte) bool {
	sc.stamp++
	if sc.stamp >= 1<<24 {
		sc.stamp, sc.fwd, sc.back = 1, [256]uint32{}, [256]uint32{}
	}
	st := sc.stamp << 8
	same := true
	for i := range w {
		a, c := w[i], f[i]
		fa, bc := sc.fwd[a], sc.back[c]
		switch {
		case fa&^0xff == st:
			if byte(fa) != c {
				return false
			}
		case bc&^0xff == st:
			return false // c already stands for another byte
		default:
			sc.fwd[a], sc.back[c] = st|uint32(c), st|uint32(a)
		}
		same = same && a == c
	}
	return !same
}

// runesStandFor is standsFor of characters for bytes.
func (sc *keyedScratch) runesStandFor(w []rune, f []byte) bool {
	if sc.runeTo == nil {
		sc.runeTo, sc.byteTo = map[rune]byte{}, map[byte]rune{}
	}
	clear(sc.runeTo)
	clear(sc.byteTo)
	for i, r := range w {
		c := f[i]
		if to, ok := sc.runeTo[r]; ok {
			if to != c {
				return false
			}
			continue
		}
		if _, ok := sc.byteTo[c]; ok {
			return false
		}
		sc.runeTo[r], sc.byteTo[c] = c, r
	}
	return true
}

// byteKey reports whether the difference of w and f, byte by byte (XOR
// or subtraction), repeats with a period of at most maxKeyPeriod, tied on
// keyedByteTies bytes at least, and is not nothing (w is not f). Most
// tokens fail each period at its first byte.
func byteKey(w, f []byte) bool {
	n := len(w)
	x0, s0 := w[0]^f[0], w[0]-f[0]
	for p := 1; p <= maxKeyPeriod && n-p >= keyedByteTies; p++ {
		if w[p]^f[p] == x0 && xorPeriod(w, f, p) || w[p]-f[p] == s0 && subPeriod(w, f, p) {
			return string(w) != string(f)
		}
	}
	return false
}

func xorPeriod(w, f []byte, p int) bool {
	for i := p; i < len(w); i++ {
		if w[i]^f[i] != w[i-p]^f[i-p] {
			return false
		}
	}
	return true
}

func subPeriod(w, f []byte, p int) bool {
	for i := p; i < len(w); i++ {
		if w[i]-f[i] != w[i-p]-f[i-p] {
			return false
		}
	}
	return true
}

// letterKey reports whether w is f with its letters shifted (mod 26, case
// kept) by a repeating key, everything else kept: the key steps either on
// every character or on letters only.
func (sc *keyedScratch) letterKey(w, f []byte) bool {
	sc.shifts = sc.shifts[:0]
	letters := 0
	for i := range w {
		a, c := w[i], f[i]
		switch {
		case c >= 'a' && c <= 'z' && a >= 'a' && a <= 'z', c >= 'A' && c <= 'Z' && a >= 'A' && a <= 'Z':
			sc.shifts = append(sc.shifts, int8((a-c+26)%26))
			letters++
		case a == c && isLetter[c] == 0:
			sc.shifts = append(sc.shifts, -1)
		default:
			return false
		}
	}
	if letters < keyedLetterTies+1 {
		return false
	}
	onLetters := sc.onLetters[:0]
	for _, s := range sc.shifts {
		if s >= 0 {
			onLetters = append(onLetters, s)
		}
	}
	sc.onLetters = onLetters
	return periodic(sc.shifts, letters) || periodic(onLetters, letters)
}

// periodic reports whether the shifts s (-1: none) repeat with a short
// period, tied on enough letters, and are not all zero.
func periodic(s []int8, letters int) bool {
	zero := !slices.ContainsFunc(s, func(v int8) bool { return v > 0 })
	if zero {
		return false
	}
	for p := 1; p <= maxKeyPeriod && letters-p >= keyedLetterTies; p++ {
		ok := true
		for i := p; i < len(s) && ok; i++ {
			ok = s[i] < 0 || s[i-p] < 0 || s[i] == s[i-p]
		}
		if ok {
			return true
		}
	}
	return false
}
