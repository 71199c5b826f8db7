package fingerprint

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
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
// tokens at blanks and quotes and each read where it starts, where it
// ends and after a label's "=" or ":".

// Encodings FindKeyed reports.
const (
	EncSubstituted Encoding = "substituted" // each character replaced by another, consistently
	EncKeyed       Encoding = "keyed"       // bytes or letters shifted by a repeating key
	EncPermuted    Encoding = "permuted"    // the secret's characters in another order
)

// Bounds: the shortest secret form compared (shorter ones are not tied to
// enough characters), the longest repeating key, and how many secrets,
// newest first, are compared.
const (
	keyedMinLen  = 16
	keyedMaxLen  = 512
	maxKeyPeriod = 16
	maxKeyed     = 64
	// A repeating key must be checked on enough characters that a token
	// does not match by chance: about 64 bits of bytes, about 42 of
	// letters (and the letters' and other characters' places, which the
	// token must match too).
	keyedByteTies   = 8
	keyedLetterTies = 9
	keyedRepeats    = 5 // repeats a form needs for a substitution to say anything
	keyedDistinct   = 8 // distinct characters a form needs for a permutation to
)

// keyedForm is one form of a secret, compared whole.
type keyedForm struct {
	slot     uint32
	form     []byte
	runes    bool   // compared a character (rune) of the token to a byte
	sum      uint64 // multiset hash of its bytes
	repeats  int    // bytes that repeat an earlier one
	distinct int
}

// keyedSet is the forms of the live internal secrets, by length.
type keyedSet struct {
	byLen map[int][]keyedForm
	lens  []int // the lengths, ascending
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
	var seen [256]bool
	for _, c := range f {
		k.sum += byteMix[c]
		if seen[c] {
			k.repeats++
		} else {
			seen[c] = true
			k.distinct++
		}
	}
	return k
}

// buildKeyed collects the forms of the newest internal secrets.
func (x *SecretIndex) buildKeyed() (*keyedSet, int) {
	k := &keyedSet{byLen: map[int][]keyedForm{}}
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
			k.byLen[len(f)] = append(k.byLen[len(f)], newKeyedForm(slot, f))
			work += len(f)
		}
	}
	for n := range k.byLen {
		k.lens = append(k.lens, n)
	}
	slices.Sort(k.lens)
	return k, work
}

// keyedScratch is FindKeyed's per-call state.
type keyedScratch struct {
	prefix  []uint64 // multiset hash of the token's first i bytes
	stamp   uint32
	fwd     [256]uint32 // token byte → stamp<<8 | form byte, this stamp
	back    [256]uint32 // form byte → stamp<<8 | token byte
	runeTo  map[rune]byte
	byteTo  map[byte]rune
	runes   []rune
	decoded []byte
}

// decodeToken decodes t when it is hex (an even number of hex digits) or
// base64 in either alphabet, padded or not; ok is false otherwise.
func decodeToken(t, dst []byte) (_ []byte, ok bool) {
	hexRun, b64Run := len(t)%2 == 0, true
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

// FindKeyed reports the known secrets of the internal pool that text
// holds under a key, substituted or reordered (see above). Its work is
// reported to b; when b runs out it stops and complete is false.
func (x *SecretIndex) FindKeyed(text []byte, b *budget.Budget) (found []SecretMatch, complete bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.pools[0]) == 0 || len(text) < keyedMinLen {
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
	if len(k.lens) == 0 || len(text) < k.lens[0] {
		return nil, true
	}
	var sc keyedScratch
	seen := map[uint32]bool{}
	report := func(f *keyedForm, enc Encoding) {
		if !seen[f.slot] {
			seen[f.slot] = true
			s := x.secrets[f.slot]
			found = append(found, SecretMatch{Secret: s.id, Label: s.label, Encoding: enc})
		}
	}
	work := 0
	tok := func(t []byte) bool {
		work += len(t)
		if work >= spendEvery {
			if !b.Spend(work) {
				return false
			}
			work = 0
		}
		work += k.token(t, &sc, report)
		// A token that reads whole as hex or base64 (pieces of it sent
		// call by call, joined) is compared decoded too.
		if d, ok := decodeToken(t, sc.decoded[:0]); ok && len(d) >= k.lens[0] {
			sc.decoded = d
			work += k.token(d, &sc, report)
		}
		return true
	}
	// Bytes that are not text (a decoded view of ciphered bytes), and
	// text no longer than the longest form (a view of one decoded run),
	// are one token too: any byte may stand for a blank there.
	if len(text) <= k.lens[len(k.lens)-1] || !utf8.Valid(text) || slices.ContainsFunc(text, func(c byte) bool { return c < ' ' && c != '\n' && c != '\r' && c != '\t' }) {
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
	return found, b.Spend(work)
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
	if !utf8.Valid(t) || !hasMultibyte(t) {
		sc.prefix = append(sc.prefix[:0], 0)
		for _, c := range t {
			sc.prefix = append(sc.prefix, sc.prefix[len(sc.prefix)-1]+byteMix[c])
		}
		for _, n := range k.lens {
			if n > len(t) {
				break
			}
			for _, at := range windows(t, n) {
				w := t[at : at+n]
				sum := sc.prefix[at+n] - sc.prefix[at]
				for i := range k.byLen[n] {
					f := &k.byLen[n][i]
					work += 8
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
	for _, n := range k.lens {
		if n > len(sc.runes) {
			break
		}
		for _, at := range []int{0, len(sc.runes) - n} {
			for i := range k.byLen[n] {
				f := &k.byLen[n][i]
				work += 8
				if f.repeats >= keyedRepeats && sc.runesStandFor(sc.runes[at:at+n], f.form) {
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

// windows are where in t a form of length n is read: at its start, at its
// end (and before base64's padding), and after a label's "=" or ":" near
// its start.
func windows(t []byte, n int) []int {
	at := []int{0}
	add := func(i int) {
		if i >= 0 && i+n <= len(t) && !slices.Contains(at, i) {
			at = append(at, i)
		}
	}
	add(len(t) - n)
	end := len(t)
	for end > 0 && t[end-1] == '=' {
		end--
	}
	add(end - n)
	for i := 0; i < min(len(t), 24); i++ {
		if t[i] == '=' || t[i] == ':' {
			add(i + 1)
		}
	}
	return at
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
	if f.repeats >= keyedRepeats && sc.standsFor(w, f.form) {
		return EncSubstituted, true
	}
	if repeatingKey(w, f.form, func(a, b byte) byte { return a ^ b }) ||
		repeatingKey(w, f.form, func(a, b byte) byte { return a - b }) ||
		letterKey(w, f.form) {
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

// repeatingKey reports whether the difference of w and f, byte by byte,
// repeats with a period of at most maxKeyPeriod, tied on keyedByteTies
// bytes at least, and is not nothing (w is not f).
func repeatingKey(w, f []byte, diff func(a, b byte) byte) bool {
	n := len(w)
	for p := 1; p <= maxKeyPeriod && n-p >= keyedByteTies; p++ {
		ok, zero := true, true
		for i := 0; i < n && ok; i++ {
			d := diff(w[i], f[i])
			zero = zero && d == 0
			if i >= p {
				ok = d == diff(w[i-p], f[i-p])
			}
		}
		if ok && !zero {
			return true
		}
	}
	return false
}

// letterKey reports whether w is f with its letters shifted (mod 26, case
// kept) by a repeating key, everything else kept: the key steps either on
// every character or on letters only.
func letterKey(w, f []byte) bool {
	var shift [keyedMaxLen]int8 // by position: -1 for a character kept
	letters := 0
	for i := range w {
		a, c := w[i], f[i]
		switch {
		case c >= 'a' && c <= 'z' && a >= 'a' && a <= 'z':
			shift[i] = int8((a - c + 26) % 26)
			letters++
		case c >= 'A' && c <= 'Z' && a >= 'A' && a <= 'Z':
			shift[i] = int8((a - c + 26) % 26)
			letters++
		case a == c && isLetter[c] == 0:
			shift[i] = -1
		default:
			return false
		}
	}
	if letters < keyedLetterTies+1 {
		return false
	}
	seq := shift[:len(w)]
	onLetters := make([]int8, 0, letters)
	for _, s := range seq {
		if s >= 0 {
			onLetters = append(onLetters, s)
		}
	}
	return periodic(seq, letters) || periodic(onLetters, letters)
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
