package secrets

import (
	"crypto/sha256"
	"slices"
	"strings"
	"sync"

	"github.com/cosmos/go-bip39"
)

// Financial secrets that no keyword announces: BIP-39 seed phrases,
// private keys in wallet formats (WIF, extended private keys) and IBANs.
// Each carries its own check (the phrase's checksum, base58check, mod 97),
// so they are found by shape alone, wherever they stand, with almost no
// false positives.

// scanFinancial walks the text's tokens once and reports the financial
// secrets among them.
func scanFinancial(st *scanState, text string) {
	var words wordRun
	for i := 0; i < len(text); {
		c := text[i]
		if !isAlnum(c) {
			i++
			continue
		}
		j := i + 1
		for j < len(text) && isAlnum(text[j]) {
			j++
		}
		st.work += j - i
		tok := text[i:j]
		switch {
		case len(tok) >= 3 && len(tok) <= 8 && allAlpha(tok):
			if !words.extend(text, i, j) {
				words.flush(st, text)
				words.start(i, j)
			}
		case isDigit(c) && len(tok) <= 2 && words.n > 0:
			// A numbered list of words ("1. abandon 2. ability …").
		default:
			words.flush(st, text)
			kind := ""
			if len(tok) >= 20 && len(tok) <= 90 {
				kind = address(tok)
			}
			switch {
			case kind != "":
				st.add(finding{Finding: Finding{Type: "crypto_address", Rule: kind + "-address", Value: tok, Start: i, End: j, Public: true}})
			case (len(tok) == 51 || len(tok) == 52) && strings.IndexByte("5KL9c", c) >= 0:
				if wif(tok) {
					st.add(finding{Finding: Finding{Type: "crypto_private_key", Rule: "wif-private-key", Value: tok, Start: i, End: j}})
				}
			case len(tok) == 63 && strings.HasPrefix(tok, "nsec1") && bech32Data(tok[5:]):
				st.add(finding{Finding: Finding{Type: "crypto_private_key", Rule: "nostr-private-key", Value: tok, Start: i, End: j}})
			case len(tok) >= 107 && len(tok) <= 112 && tok[1:4] == "prv":
				if base58Check(tok) != nil {
					st.add(finding{Finding: Finding{Type: "crypto_private_key", Rule: "extended-private-key", Value: tok, Start: i, End: j}})
				}
			case len(tok) >= 4 && isUpper(c) && isUpper(tok[1]) && isDigit(tok[2]) && isDigit(tok[3]):
				if e, ok := iban(text, i); ok {
					st.add(finding{Finding: Finding{Type: "iban", Rule: "iban", Value: text[i:e], Start: i, End: e,
						Example: sequenceRun(text[i:e]) >= 6}})
					j = e
				}
			}
		}
		i = j
	}
	words.flush(st, text)
}

func allAlpha(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isAlpha(s[i]) {
			return false
		}
	}
	return true
}

// seedLengths are the word counts BIP-39 defines, longest first.
var seedLengths = []int{24, 21, 18, 15, 12}

// maxSeedWords bounds a run of words judged at once.
const maxSeedWords = 48

// wordRun is a run of short words with only blanks, commas or list
// numbers between them: where a seed phrase can be.
type wordRun struct {
	n     int
	spans [maxSeedWords]window
}

func (w *wordRun) start(i, j int) {
	w.n = 1
	w.spans[0] = window{i, j}
}

// extend adds the word text[i:j] if only separators stand between it and
// the run's last word.
func (w *wordRun) extend(text string, i, j int) bool {
	if w.n == 0 || w.n == maxSeedWords {
		return false
	}
	for k := w.spans[w.n-1].hi; k < i; k++ {
		switch c := text[k]; {
		case c == ' ', c == '\t', c == '\n', c == '\r', c == ',', isDigit(c):
		case (c == '.' || c == ')') && k > 0 && isDigit(text[k-1]):
			// "1. abandon", "2) ability": a numbered list
		default:
			return false
		}
	}
	w.spans[w.n] = window{i, j}
	w.n++
	return true
}

// flush reports the longest valid seed phrase in the run, then empties it.
func (w *wordRun) flush(st *scanState, text string) {
	n := w.n
	w.n = 0
	if n < 12 {
		return
	}
	list := wordIndex()
	var idx [maxSeedWords]int
	var last [5]struct { // by seedLengths
		idx        [24]int
		set, valid bool
	}
	known := 0 // words of the list ending at the current one
	total := n // the run's words; n is a phrase's length below
	for k := 0; k < n; k++ {
		if n-k+known < 12 {
			return // too few words left to make a phrase
		}
		v, ok := list[packWord(text[w.spans[k].lo:w.spans[k].hi])]
		idx[k] = v
		if ok {
			known++
		} else {
			known = 0
		}
		if known < 12 {
			continue
		}
		for li, n := range seedLengths {
			if n > known {
				continue
			}
			// A window the same as the last one of its length (one word
			// repeated) has the same checksum.
			window := idx[k-n+1 : k+1]
			valid := last[li].valid
			if !last[li].set || !slices.Equal(window, last[li].idx[:n]) {
				valid = validSeed(window)
				last[li].set, last[li].valid = true, valid
				copy(last[li].idx[:], window)
			}
			lo, hi := w.spans[k-n+1].lo, w.spans[k].hi
			rule := "bip39-seed-phrase"
			if !valid && n == total && known == total && seedLabelled(text, lo) {
				// The whole run, words of the list under a label that says
				// what they are: a phrase copied with a word wrong is still
				// the wallet's, near enough to guess.
				valid, rule = true, "labelled-seed-phrase"
			}
			if valid {
				st.add(finding{Finding: Finding{Type: "seed_phrase", Rule: rule, Value: text[lo:hi], Start: lo, End: hi,
					Example: repeatedWords(idx[k-n+1 : k+1])}})
				known = 0
				break
			}
		}
	}
}

// bech32Data: s is all of bech32's data characters (lower case), as a
// nostr key is written after its prefix (nsec1…).
func bech32Data(s string) bool {
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune("qpzry9x8gf2tvdw0s3jn54khce6mua7l", rune(s[i])) {
			return false
		}
	}
	return true
}

// seedLabels name a wallet's words.
var seedLabels = []string{"seed", "mnemonic", "recovery phrase", "secret phrase", "recovery words", "backup phrase", "wallet words"}

// seedLabelled: a seed label stands in the 64 bytes before lo.
func seedLabelled(text string, lo int) bool {
	before := strings.ToLower(text[max(0, lo-64):lo])
	for _, l := range seedLabels {
		if strings.Contains(before, l) {
			return true
		}
	}
	return false
}

// repeatedWords marks the published test vectors (abandon × 11 + about):
// a phrase of few distinct words.
func repeatedWords(idx []int) bool {
	distinct := map[int]bool{}
	for _, v := range idx {
		distinct[v] = true
	}
	return len(distinct)*2 < len(idx)
}

// wordIndex maps each word of the list, packed, to its index.
var wordIndex = sync.OnceValue(func() map[uint64]int {
	m := make(map[uint64]int, len(bip39.EnglishWordList))
	for i, w := range bip39.EnglishWordList {
		m[packWord(w)] = i
	}
	return m
})

// packWord packs a word of at most eight letters, lower-cased, into an
// integer: a map key that costs no allocation.
func packWord(w string) uint64 {
	var k uint64
	for i := 0; i < len(w); i++ {
		k = k<<8 | uint64(lowerASCII(w[i]))
	}
	return k
}

// validSeed checks a BIP-39 phrase's checksum: the words' 11-bit indices
// hold the entropy and then its SHA-256's first len/3 bits. It runs for
// every window of a run of list words (scanFinancial, on text an attacker
// chooses): the bits are packed eleven at a time.
func validSeed(idx []int) bool {
	bits := len(idx) * 11
	cs := bits / 33 // at most 8
	var buf [33]byte
	var acc uint64
	n, p := 0, 0
	for _, v := range idx {
		acc = acc<<11 | uint64(v&0x7FF)
		for n += 11; n >= 8; p++ {
			n -= 8
			buf[p] = byte(acc >> n)
		}
	}
	if n > 0 {
		buf[p] = byte(acc << (8 - n))
	}
	ent := (bits - cs) / 8
	sum := sha256.Sum256(buf[:ent])
	return buf[ent]>>(8-cs) == sum[0]>>(8-cs)
}

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

var base58Value = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i := 0; i < len(base58Alphabet); i++ {
		t[base58Alphabet[i]] = int8(i)
	}
	return t
}()

// base58Check decodes s and verifies its four-byte double-SHA-256
// checksum; it returns the payload, or nil.
func base58Check(s string) []byte {
	var buf [maxBase58Bytes]byte
	b := base58Decode(s, &buf)
	if len(b) < 5 {
		return nil
	}
	payload, check := b[:len(b)-4], b[len(b)-4:]
	h1 := sha256.Sum256(payload)
	h2 := sha256.Sum256(h1[:])
	if string(h2[:4]) != string(check) {
		return nil
	}
	return append([]byte(nil), payload...) // buf stays on the stack
}

// maxBase58Bytes is the most bytes base58Decode returns: what 120 base58
// digits hold (log 58 / log 256 ≈ 0.733 a digit), longer than any key or
// address read as base58.
const maxBase58Bytes = 88

// base58Decode decodes s into buf, or returns nil when s is not base58 or
// longer than 120 digits. It runs once for every long token of text an
// attacker may choose (scanFinancial): words of 32 bits, in place, no
// allocation, where math/big allocated a number per digit.
func base58Decode(s string, buf *[maxBase58Bytes]byte) []byte {
	if len(s) > 120 {
		return nil
	}
	var limbs [maxBase58Bytes / 4]uint32 // least significant first
	n := 0
	for i := 0; i < len(s); i++ {
		v := base58Value[s[i]]
		if v < 0 {
			return nil
		}
		carry := uint64(v)
		for k := 0; k < n; k++ {
			carry += uint64(limbs[k]) * 58
			limbs[k] = uint32(carry)
			carry >>= 32
		}
		if carry > 0 {
			limbs[n] = uint32(carry)
			n++
		}
	}
	// Big-endian bytes without leading zeros, then a zero byte for each
	// leading '1'.
	end := len(buf)
	for k := 0; k < n; k++ {
		for sh := 0; sh < 32; sh += 8 {
			end--
			buf[end] = byte(limbs[k] >> sh)
		}
	}
	for end < len(buf) && buf[end] == 0 {
		end++
	}
	for i := 0; i < len(s) && s[i] == '1'; i++ {
		if end == 0 {
			return nil
		}
		end--
		buf[end] = 0
	}
	return buf[end:]
}

// wif: a private key in wallet import format, for mainnet (0x80) or
// testnet (0xEF), compressed or not.
func wif(s string) bool {
	p := base58Check(s)
	return p != nil && (p[0] == 0x80 || p[0] == 0xEF) && (len(p) == 33 || len(p) == 34 && p[33] == 1)
}

// ibanLength is the length of an IBAN by country (ISO 13616 registry).
var ibanLength = map[string]int{
	"AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BR": 29,
	"BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28, "EE": 20, "EG": 29,
	"ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28,
	"HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20,
	"LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19,
	"MR": 27, "MT": 31, "MU": 30, "NL": 18, "NO": 15, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29,
	"RO": 24, "RS": 22, "SA": 24, "SC": 31, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "ST": 25, "SV": 28,
	"TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
}

// iban reads an IBAN at text[i], written together or in groups of four
// split by single spaces, and returns where it ends.
func iban(text string, i int) (int, bool) {
	want, ok := ibanLength[text[i:i+2]]
	if !ok {
		return 0, false
	}
	var buf [34]byte
	n, j := 0, i
	for j < len(text) && n < want {
		c := text[j]
		switch {
		case isDigit(c) || isUpper(c):
			buf[n] = c
			n++
			j++
		case c == ' ' && n%4 == 0 && j+1 < len(text) && isAlnum(text[j+1]):
			j++
		default:
			return 0, false
		}
	}
	if n != want || j < len(text) && isAlnum(text[j]) || i > 0 && isAlnum(text[i-1]) {
		return 0, false
	}
	// Mod 97 of the number made by moving the first four characters to
	// the end and spelling letters as 10–35.
	rem := 0
	for k := 0; k < n; k++ {
		c := buf[(k+4)%n]
		if isDigit(c) {
			rem = (rem*10 + int(c-'0')) % 97
		} else {
			rem = (rem*100 + int(c-'A'+10)) % 97
		}
	}
	return j, rem == 1
}
