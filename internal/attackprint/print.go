package attackprint

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash/fnv"
	"math/bits"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

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
	ws := strings.FieldsFunc(t, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '@' && r != '$' })
	for i, w := range ws {
		if strings.IndexFunc(w, unicode.IsLetter) >= 0 && strings.ContainsAny(w, "013457@$") {
			w = leet.Replace(w)
		}
		ws[i] = strings.Trim(w, "@$")
	}
	return slices.DeleteFunc(ws, func(w string) bool { return w == "" })
}

// shingles hashes each run of shingleWords words of folded text.
func shingles(t string) []uint64 {
	ws := words(t)
	if len(ws) < shingleWords {
		return nil
	}
	out := make([]uint64, 0, len(ws)-shingleWords+1)
	for i := 0; i+shingleWords <= len(ws); i++ {
		out = append(out, hash("s", strings.Join(ws[i:i+shingleWords], " ")))
	}
	return out
}

func hash(kind, s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(kind))
	h.Write([]byte{0})
	h.Write([]byte(s))
	return h.Sum64()
}

// segments splits folded text into sentences: at line ends, and at ".",
// "!" or "?" followed by a space (not the dots of an address).
var sentenceEnd = regexp.MustCompile(`[.!?]+\s+|\n+`)

func segments(t string) []string {
	return slices.DeleteFunc(sentenceEnd.Split(t, -1), func(s string) bool { return strings.TrimSpace(s) == "" })
}

var (
	urlRE    = regexp.MustCompile(`(?:https?|ftp)://([a-z0-9.-]+)(/[^\s"'<>()\[\]{}]*)?`)
	mailRE   = regexp.MustCompile(`[a-z0-9._%+-]+@([a-z0-9-]+\.)+[a-z]{2,}`)
	hostRE   = regexp.MustCompile(`\b(?:[a-z0-9-]+\.)+(?:com|net|org|io|co|dev|app|xyz|info|biz|ru|cn|top|site|online|me|ai|sh|tk|cc|to|ly|gg|link|click)\b`)
	numberRE = regexp.MustCompile(`\b\d[\d -]{6,}\d\b`)
	walletRE = regexp.MustCompile(`\b(?:0x[0-9a-f]{40}|[13][a-km-z1-9]{25,34}|bc1[a-z0-9]{25,60})\b`)
)

// keysOf hashes what a folded sentence names that an attack needs to
// keep to work.
func keysOf(seg string) []uint64 {
	var ks []uint64
	for _, m := range urlRE.FindAllStringSubmatch(seg, -1) {
		ks = append(ks, hash("h", strings.TrimSuffix(m[1], ".")))
		if p := strings.TrimRight(m[2], ".,;:!?"); len(p) > 1 {
			ks = append(ks, hash("u", m[1]+p))
		}
	}
	for _, m := range mailRE.FindAllString(seg, -1) {
		ks = append(ks, hash("e", m))
	}
	for _, m := range hostRE.FindAllString(seg, -1) {
		ks = append(ks, hash("h", m))
	}
	for _, m := range numberRE.FindAllString(seg, -1) {
		ks = append(ks, hash("n", strings.NewReplacer(" ", "", "-", "").Replace(m)))
	}
	for _, m := range walletRE.FindAllString(seg, -1) {
		ks = append(ks, hash("w", m))
	}
	return slices.Compact(slices.Sorted(slices.Values(ks)))
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
	count := func(re *regexp.Regexp) int { return min(len(re.FindAllStringIndex(seg, 3)), 2) }
	f := []int{bits.Len(uint(len(words(seg)))), count(urlRE), count(mailRE), count(numberRE), count(walletRE),
		count(markupRE), count(encodedRE)}
	var b strings.Builder
	for _, v := range f {
		b.WriteByte(byte('0' + v))
	}
	return hash("shape", b.String())
}
