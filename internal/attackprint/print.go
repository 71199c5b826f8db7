package attackprint

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math/bits"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Print is what flowd keeps of one attack.
type Print struct {
	ID string `json:"id"`
	// Content are the smallest hashes of the attack's word shingles: the
	// same subset of any text that holds the attack, whatever surrounds it.
	Content []uint64 `json:"content,omitempty"`
	// Keys are hashes of what the attack named that a reworded copy must
	// still name to work: links, hosts, mail addresses, long numbers,
	// wallet addresses.
	Keys []uint64 `json:"keys,omitempty"`
	// Shapes are the shapes of the attack's sentences that named a key.
	Shapes []uint64 `json:"shapes,omitempty"`
	Rules  []string `json:"rules,omitempty"`
	Risk   float64  `json:"risk"`
	// Action is what flowd did to the attack: flag, redact or block.
	Action string    `json:"action"`
	Seen   time.Time `json:"seen"`
	// Source is "local", or the feed's key that vouched for the print.
	Source string `json:"source,omitempty"`
}

const (
	shingleWords = 4  // words per shingle
	keepContent  = 32 // shingle hashes a print keeps
	keepKeys     = 16
	keepShapes   = 8
	// minContent is the fewest shingles worth keeping: a shorter attack
	// is too common a phrase to know again by its words alone.
	minContent = 3
	// MaxText bounds what of a text is read, to match or to make a print.
	MaxText = 256 << 10
)

// Make builds the print of an attack from the spans a scan found it in.
// ok is false when the spans hold too little to know the attack again.
func Make(spans []string, rules []string, risk float64, action string, seen time.Time) (p Print, ok bool) {
	var content, keys, shapes []uint64
	for _, s := range spans {
		if len(s) > MaxText {
			s = s[:MaxText]
		}
		t := fold(s)
		content = append(content, shingles(t)...)
		for _, seg := range segments(t) {
			ks := keysOf(seg)
			if len(ks) > 0 {
				keys = append(keys, ks...)
				shapes = append(shapes, shape(seg))
			}
		}
	}
	p = Print{Content: bottom(content, keepContent), Keys: bottom(keys, keepKeys), Shapes: bottom(shapes, keepShapes),
		Rules: slices.Compact(slices.Sorted(slices.Values(rules))), Risk: risk, Action: action, Seen: seen, Source: "local"}
	if len(p.Content) < minContent && len(p.Keys) == 0 {
		return Print{}, false
	}
	p.ID = p.id()
	return p, true
}

// id names a print by what it matches on, so the same attack caught twice
// (or imported from two feeds) is one print.
func (p Print) id() string {
	h := sha256.New()
	for _, part := range [][]uint64{p.Content, p.Keys, p.Shapes} {
		var b [8]byte
		binary.BigEndian.PutUint64(b[:], uint64(len(part)))
		h.Write(b[:])
		for _, v := range part {
			binary.BigEndian.PutUint64(b[:], v)
			h.Write(b[:])
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// valid reports whether p, perhaps read from a feed, is shaped as Make
// makes prints; a print that fails it is not used.
func (p Print) valid() bool {
	return p.ID == p.id() && len(p.Content) <= keepContent && len(p.Keys) <= keepKeys && len(p.Shapes) <= keepShapes &&
		(len(p.Content) >= minContent || len(p.Keys) > 0) && sortedUnique(p.Content) && sortedUnique(p.Keys)
}

func sortedUnique(v []uint64) bool {
	for i := 1; i < len(v); i++ {
		if v[i] <= v[i-1] {
			return false
		}
	}
	return true
}

// bottom returns the n smallest distinct values of v, sorted.
func bottom(v []uint64, n int) []uint64 {
	v = slices.Compact(slices.Sorted(slices.Values(v)))
	return v[:min(n, len(v))]
}

// leet undoes the digit-for-letter spellings that keep an attack's words
// readable to a model and unequal to a matcher's.
var leet = strings.NewReplacer("0", "o", "1", "i", "3", "e", "4", "a", "5", "s", "7", "t", "@", "a", "$", "s")

// fold is text as prints compare it: compatibility forms folded, format
// characters (zero-width, bidi) dropped, lower case.
func fold(s string) string {
	s = norm.NFKC.String(s)
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

// words splits folded text into words of letters and digits; a word that
// mixes letters with digits is read as leetspeak.
func words(t string) []string {
	var ws []string
	for i := 0; i < len(t); {
		r, n := rune(t[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(t[i:])
		}
		if !isWordRune(r) {
			i += n
			continue
		}
		j, leetish, letters := i, false, false
		for j < len(t) {
			r, n := rune(t[j]), 1
			if r >= utf8.RuneSelf {
				r, n = utf8.DecodeRuneInString(t[j:])
			}
			if !isWordRune(r) {
				break
			}
			switch {
			case r >= 'a' && r <= 'z' || r >= utf8.RuneSelf && unicode.IsLetter(r):
				letters = true
			case strings.ContainsRune("013457@$", r):
				leetish = true
			}
			j += n
		}
		w := t[i:j]
		if letters && leetish {
			w = leet.Replace(w)
		}
		if w = strings.Trim(w, "@$"); w != "" {
			ws = append(ws, w)
		}
		i = j
	}
	return ws
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r == '@' || r == '$'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// shingles hashes each run of shingleWords words of folded text: each
// word hashed once, a shingle's hash folded from its words' (no string is
// built per shingle).
func shingles(t string) []uint64 {
	ws := words(t)
	if len(ws) < shingleWords {
		return nil
	}
	wh := make([]uint64, len(ws))
	for i, w := range ws {
		wh[i] = hash("w", w)
	}
	out := make([]uint64, 0, len(ws)-shingleWords+1)
	for i := 0; i+shingleWords <= len(ws); i++ {
		h := uint64(shingleWords)
		for _, x := range wh[i : i+shingleWords] {
			h = bits.RotateLeft64(h, 23)*0x9e3779b97f4a7c15 ^ x
		}
		out = append(out, h)
	}
	return out
}

// hash is 64-bit FNV-1a over kind, a zero byte and s, written out so that
// hashing each word of a page allocates nothing (hash/fnv's would, and
// converting s to bytes would copy it).
func hash(kind, s string) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for i := 0; i < len(kind); i++ {
		h = (h ^ uint64(kind[i])) * prime
	}
	h *= prime // the zero byte: h ^ 0 is h
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * prime
	}
	return h
}

// segments splits folded text into sentences: at line ends, and at ".",
// "!" or "?" followed by white space (not the dots of an address).
func segments(t string) []string {
	var out []string
	start := 0
	cut := func(end, next int) {
		if seg := t[start:end]; strings.TrimSpace(seg) != "" {
			out = append(out, seg)
		}
		start = next
	}
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c == '\n':
			cut(i, i+1)
		case (c == '.' || c == '!' || c == '?') && i+1 < len(t) && isSpace(t[i+1]):
			cut(i, i+1)
		}
	}
	cut(len(t), len(t))
	return out
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// keysOf hashes what a folded sentence names that an attack needs to
// keep to work: hosts and links, mail addresses, long numbers (accounts,
// phones), wallet addresses. It reads the sentence once, a token at a
// time, so a result of clean prose costs little to look through.
func keysOf(seg string) []uint64 {
	var ks []uint64
	eachToken(seg, func(tok string) { ks, _ = tokenKeys(ks, tok) })
	ks = numberKeys(ks, seg)
	return slices.Compact(slices.Sorted(slices.Values(ks)))
}

// eachToken calls fn with each run of address bytes in seg, trailing
// punctuation cut.
func eachToken(seg string, fn func(tok string)) {
	for i := 0; i < len(seg); {
		if !isTokenByte(seg[i]) {
			i++
			continue
		}
		j := i
		for j < len(seg) && isTokenByte(seg[j]) {
			j++
		}
		fn(strings.TrimRight(seg[i:j], ".,;:!?-_=&#%+/"))
		i = j
	}
}

// isTokenByte: the bytes of an address, a link or a number.
func isTokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("._%+-@:/?=&#~", c) >= 0
}

// Kinds of token tokenKeys finds.
const (
	kindNone = iota
	kindURL
	kindMail
	kindHost
	kindWallet
)

func tokenKeys(ks []uint64, tok string) ([]uint64, int) {
	if len(tok) < 26 && strings.IndexAny(tok, ".@:") < 0 {
		return ks, kindNone // a plain word: no address, and too short for a wallet
	}
	for _, scheme := range []string{"https://", "http://", "ftp://"} {
		if rest, ok := strings.CutPrefix(tok, scheme); ok {
			host, path, _ := strings.Cut(rest, "/")
			host, _, _ = strings.Cut(host, "?")
			if host = strings.TrimSuffix(host, "."); host == "" {
				return ks, kindNone
			}
			ks = append(ks, hash("h", host))
			if path != "" {
				ks = append(ks, hash("u", host+"/"+path))
			}
			return ks, kindURL
		}
	}
	if local, domain, ok := strings.Cut(tok, "@"); ok {
		if local != "" && isHost(domain) {
			return append(ks, hash("e", tok), hash("h", domain)), kindMail
		}
		return ks, kindNone
	}
	switch {
	case isHost(tok):
		return append(ks, hash("h", tok)), kindHost
	case isWallet(tok):
		return append(ks, hash("w", tok)), kindWallet
	}
	return ks, kindNone
}

// notHosts are the endings of file names, which look like host names
// ("notes.txt") but name nothing an attack could send data to.
var notHosts = map[string]bool{"txt": true, "md": true, "json": true, "yaml": true, "yml": true, "toml": true,
	"ini": true, "cfg": true, "conf": true, "env": true, "lock": true, "log": true, "csv": true, "xml": true,
	"html": true, "htm": true, "css": true, "js": true, "ts": true, "py": true, "go": true, "rs": true, "rb": true,
	"java": true, "sh": true, "sql": true, "pdf": true, "png": true, "jpg": true, "jpeg": true, "gif": true,
	"svg": true, "zip": true, "gz": true, "tar": true, "tgz": true, "exe": true, "dll": true, "so": true,
	"bak": true, "tmp": true, "pem": true, "key": true, "pub": true, "crt": true}

// isHost reports whether tok is a host name: dot-separated labels of
// letters, digits and hyphens, ending in a top-level label of letters.
func isHost(tok string) bool {
	dots, label := 0, 0
	for i := 0; i < len(tok); i++ {
		switch c := tok[i]; {
		case c == '.':
			if label == 0 {
				return false
			}
			dots, label = dots+1, 0
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-':
			label++
		default:
			return false
		}
	}
	tld := tok[strings.LastIndexByte(tok, '.')+1:]
	if dots == 0 || len(tld) < 2 || strings.Trim(tld, "abcdefghijklmnopqrstuvwxyz") != "" {
		return false
	}
	// A country code, or a common generic ending: code is full of dotted
	// names (np.random, self.assert) that end in neither.
	return len(tld) == 2 && !notHosts[tld] || hostEndings[tld]
}

var hostEndings = map[string]bool{"com": true, "net": true, "org": true, "info": true, "biz": true, "dev": true,
	"app": true, "xyz": true, "top": true, "site": true, "online": true, "link": true, "click": true, "live": true,
	"cloud": true, "tech": true, "pro": true, "shop": true, "store": true, "email": true, "zip": true, "mov": true,
	"example": true, "test": true, "local": true, "internal": true, "onion": true, "gov": true, "edu": true}

// isWallet reports whether tok is shaped as a cryptocurrency address:
// Ethereum's 0x and 40 hex digits, bech32's bc1, or base58 from 1 or 3.
func isWallet(tok string) bool {
	switch {
	case strings.HasPrefix(tok, "0x"):
		return len(tok) == 42 && strings.Trim(tok[2:], "0123456789abcdef") == ""
	case strings.HasPrefix(tok, "bc1"):
		return len(tok) >= 28 && len(tok) <= 63 && strings.Trim(tok[3:], "abcdefghijklmnopqrstuvwxyz0123456789") == ""
	case len(tok) >= 26 && len(tok) <= 35 && (tok[0] == '1' || tok[0] == '3'):
		// base58, lower-cased by fold: no 0, l; both cases of the rest.
		return strings.Trim(tok, "123456789abcdefghijkmnopqrstuvwxyz") == ""
	}
	return false
}

// numberKeys adds each run of at least 8 digits, perhaps grouped by single
// spaces or hyphens (an account, a card, a phone number), as its digits.
func numberKeys(ks []uint64, seg string) []uint64 {
	var digits []byte
	flush := func() {
		if len(digits) >= 8 {
			ks = append(ks, hash("n", string(digits)))
		}
		digits = digits[:0]
	}
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		switch {
		case c >= '0' && c <= '9':
			digits = append(digits, c)
		case (c == ' ' || c == '-') && len(digits) > 0 && i+1 < len(seg) && seg[i+1] >= '0' && seg[i+1] <= '9':
			// a separator inside a group
		default:
			flush()
		}
	}
	flush()
	return ks
}

var (
	markupRE  = regexp.MustCompile(`<[a-z!/][^>]*>|!\[[^\]]*\]\(|\]\(`)
	encodedRE = regexp.MustCompile(`[a-z0-9+/=_-]{32,}`)
)

// shape hashes how a folded sentence is built, not what it says: its
// length in words (to a power of two), how many links, addresses and long
// numbers it holds (none, one, more), and whether it has markup or a long
// encoded run.
func shape(seg string) uint64 {
	var kinds [kindWallet + 1]int
	eachToken(seg, func(tok string) {
		_, k := tokenKeys(nil, tok)
		kinds[k] = min(kinds[k]+1, 2)
	})
	count := func(re *regexp.Regexp) int { return min(len(re.FindAllStringIndex(seg, 3)), 2) }
	f := []int{bits.Len(uint(len(words(seg)))), kinds[kindURL], kinds[kindMail], min(len(numberKeys(nil, seg)), 2), kinds[kindWallet],
		count(markupRE), count(encodedRE)}
	var b strings.Builder
	for _, v := range f {
		b.WriteByte(byte('0' + v))
	}
	return hash("shape", b.String())
}
