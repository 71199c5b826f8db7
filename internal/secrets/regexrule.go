package secrets

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/flowd-dev/flowd/internal/entropy"
	"github.com/flowd-dev/flowd/internal/literal"
)

// Window limits. A rule's regex runs on the text around a keyword hit, as
// wide as the longest match the regex allows, capped: secrets on one line
// are short, multi-line ones (PEM blocks) can span a few KB.
const (
	maxLineWindow  = 1024
	maxMultiWindow = 16384
	// windowSlack lets a regex see the delimiters around a token.
	windowSlack = 32
	// noKeywordContext widens the window for rules whose regex does not
	// contain the keyword (the keyword is a hint nearby, not part of the match).
	noKeywordContext = 256
)

// regexRule is one compiled provider rule plus what the scanner derives from
// its regex: the bytes a secret can consist of and its minimum length (a
// cheap test that rejects most keyword hits before any regex runs), and how
// far from the keyword a match can reach.
type regexRule struct {
	id, typ  string
	re       *regexp.Regexp
	group    int
	entropy  float64
	keywords []string

	secretBytes byteSet
	minSecret   int
	maxMatch    int
	prefixes    []string        // lower-cased literal starts of the secret; nil if unknown
	kwInRegex   map[string]bool // keyword appears literally in the regex
	needs       []string        // lower-cased literals every match contains
	// anyOf are sets of case-sensitive literals every match contains one
	// of ("-u" or "--user"): a window with none of a set is not read.
	anyOf        [][]string
	needKW       []int // their keyword ids (marker hits)
	allow        []allowlist
	subexpCount  int
	hasSubgroups bool

	// anchored is the regex from its first literal element on, anchored at
	// the start: "[\w.-]{0,50}?(?:cloudflare)…" becomes "^(?:cloudflare)…",
	// tried once at a keyword hit instead of at every offset of a window.
	// anchorKW are the keywords whose hits start that element; checks are
	// the assertions (\b…) that stood right before it.
	anchored *regexp.Regexp
	anchorKW map[string]bool
	checks   []syntax.Op
	// bounded: no match is longer than maxMatch bytes (the regex's
	// longest match is under the window cap).
	bounded bool
}

func newRegexRule(id, src string, group int, entropy float64, keywords []string) (*regexRule, error) {
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, fmt.Errorf("compile regex: %w", err)
	}
	parsed, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return nil, fmt.Errorf("parse regex: %w", err)
	}
	if group > re.NumSubexp() {
		return nil, fmt.Errorf("secret group %d but regex has %d groups", group, re.NumSubexp())
	}
	r := &regexRule{
		id:           id,
		typ:          typeFor(id),
		re:           re,
		group:        group,
		entropy:      entropy,
		kwInRegex:    map[string]bool{},
		subexpCount:  re.NumSubexp(),
		hasSubgroups: re.NumSubexp() > 0,
	}
	secret := secretNode(parsed, group)
	r.secretBytes = bytesOf(secret)
	r.minSecret, _ = width(secret)
	_, maxAll := width(parsed)
	limit := maxLineWindow
	if r.secretBytes.has('\n') {
		limit = maxMultiWindow
	}
	r.maxMatch, r.bounded = min(maxAll, limit), maxAll <= limit
	r.prefixes, _ = literal.Prefixes(secret)
	r.needs = requiredLiterals(parsed)
	r.anyOf = requiredAlternatives(parsed)
	unescaped := strings.ToLower(strings.ReplaceAll(src, `\`, ""))
	for _, kw := range keywords {
		kw = strings.ToLower(kw)
		r.keywords = append(r.keywords, kw)
		r.kwInRegex[kw] = strings.Contains(unescaped, kw)
	}
	if err := r.anchor(parsed); err != nil {
		return nil, err
	}
	return r, nil
}

// anchor derives the anchored form of the regex when its leading elements
// are optional filler ([\w.-]{0,50}?, assertions) followed by an element
// whose every literal start begins with one of the rule's keywords, so that
// every match has a keyword hit exactly where that element starts.
func (r *regexRule) anchor(parsed *syntax.Regexp) error {
	elems := flatten(parsed)
	k := 0
	for k < len(elems) && skippable(elems[k]) {
		k++
	}
	if k == len(elems) {
		return nil
	}
	starts, _ := literal.Prefixes(elems[k])
	if len(starts) == 0 {
		return nil
	}
	covering := map[string]bool{}
	for _, p := range starts {
		found := false
		for _, kw := range r.keywords {
			if strings.HasPrefix(p, kw) {
				covering[kw] = true
				found = true
			}
		}
		if !found {
			return nil
		}
	}
	var checks []syntax.Op
	for j := k - 1; j >= 0 && literal.ZeroWidth(elems[j].Op); j-- {
		checks = append(checks, elems[j].Op)
	}
	rest := &syntax.Regexp{Op: syntax.OpConcat, Sub: append([]*syntax.Regexp{{Op: syntax.OpBeginText}}, elems[k:]...)}
	re, err := regexp.Compile(rest.String())
	if err != nil {
		return fmt.Errorf("compile anchored form %q: %w", rest.String(), err)
	}
	if re.NumSubexp() != r.re.NumSubexp() {
		return nil
	}
	r.anchored, r.anchorKW, r.checks = re, covering, checks
	return nil
}

// flatten returns the elements of a top-level concatenation, nested
// concatenations (flag groups) included.
func flatten(re *syntax.Regexp) []*syntax.Regexp {
	if re.Op != syntax.OpConcat {
		return []*syntax.Regexp{re}
	}
	var out []*syntax.Regexp
	for _, s := range re.Sub {
		out = append(out, flatten(s)...)
	}
	return out
}

// skippable: matches the empty string and captures nothing.
func skippable(re *syntax.Regexp) bool {
	if literal.ZeroWidth(re.Op) {
		return true
	}
	if lo, _ := width(re); lo != 0 {
		return false
	}
	capt := false
	var walk func(*syntax.Regexp)
	walk = func(n *syntax.Regexp) {
		if n.Op == syntax.OpCapture {
			capt = true
		}
		for _, s := range n.Sub {
			walk(s)
		}
	}
	walk(re)
	return !capt
}

// holds evaluates the assertions that preceded the anchored element at p.
func (r *regexRule) holds(text string, p int) bool {
	for _, op := range r.checks {
		switch op {
		case syntax.OpWordBoundary, syntax.OpNoWordBoundary:
			before := p > 0 && isWordByte(text[p-1])
			after := p < len(text) && isWordByte(text[p])
			if (before != after) != (op == syntax.OpWordBoundary) {
				return false
			}
		case syntax.OpBeginLine:
			if p > 0 && text[p-1] != '\n' {
				return false
			}
		case syntax.OpBeginText:
			if p > 0 {
				return false
			}
		}
	}
	return true
}

// keywordStartsSecret reports whether a hit of kw is the first bytes of the
// secret itself (ghp_…, AKIA…), so the token around the hit must be long.
func (r *regexRule) keywordStartsSecret(kw string) bool {
	if len(r.prefixes) == 0 {
		return false
	}
	for _, p := range r.prefixes {
		if strings.HasPrefix(p, kw) {
			return true
		}
	}
	return false
}

// candidate decides whether the keyword hit h can start a match and, if so,
// queues the text window around it for the regex (rule index ri).
func (r *regexRule) candidate(st *scanState, text string, h hit, ri int, t target) {
	if r.anchored != nil {
		if !t.anchor || !r.holds(text, h.pos) {
			return
		}
		hi := min(len(text), h.pos+r.maxMatch+windowSlack)
		if t.inSecret {
			if r.secretBytes.runFrom(text, h.pos, r.minSecret) < r.minSecret {
				return
			}
			st.work += r.minSecret
		} else if !r.secretBytes.hasRun(text[h.pos:hi], r.minSecret) {
			st.work += hi - h.pos
			return
		}
		lo, hi := widen(text, h.pos, hi)
		if h.pos < st.anchoredTo[ri] {
			// Inside the text the last anchored try read: trying again
			// here would read it once more for each hit in it (a PEM
			// header repeated, a token prefix repeated). Runs of hits go
			// to the rule's merged windows, read once.
			st.addWindow(ri, lo, hi)
			return
		}
		// A match from the hit ends within maxMatch bytes of it, and the
		// regex reads one byte past a match (\b, $): where every match
		// is that short, the try reads that far and no further, and the
		// next hit past it is tried on its own. Key IDs one after
		// another otherwise fell, all but every third, into the merged
		// windows, read by the regex unanchored from end to end.
		if r.bounded {
			hi = min(len(text), h.pos+r.maxMatch+1)
		}
		st.anchoredTo[ri] = hi
		if !r.mayHold(st, text[h.pos:hi]) {
			return
		}
		cost := regexWork * (hi - h.pos)
		if !st.affords(cost) {
			st.incomplete = true
			return
		}
		st.work += cost
		if m := r.anchored.FindStringSubmatchIndex(text[h.pos:hi]); m != nil {
			r.report(st, text, h.pos, m)
		}
		return
	}
	var lo, hi int
	if t.inSecret {
		n := r.secretBytes.runFrom(text, h.pos, r.maxMatch)
		st.work += n
		if n < r.minSecret {
			return
		}
		lo = h.pos - windowSlack
		hi = h.pos + n + windowSlack
	} else {
		ctx := 0
		if !t.kwInRegex {
			ctx = noKeywordContext
		}
		lo = max(h.pos-r.maxMatch-ctx, 0)
		hi = min(h.pos+h.n+r.maxMatch+ctx, len(text))
		if !r.secretBytes.hasRun(text[lo:hi], r.minSecret) {
			st.work += hi - lo
			return
		}
	}
	lo, hi = widen(text, max(lo, 0), min(hi, len(text)))
	st.addWindow(ri, lo, hi)
}

// widen moves window edges off the middle of a word, so that \b and
// delimiter checks in a regex see real token boundaries.
func widen(text string, lo, hi int) (int, int) {
	for n := 0; lo > 0 && n < 64 && isWordByte(text[lo-1]); n++ {
		lo--
	}
	for n := 0; hi < len(text) && n < 64 && isWordByte(text[hi]); n++ {
		hi++
	}
	return lo, hi
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// run executes the rule on its merged windows, and stops, the scan
// incomplete, at a window the scan cannot afford or once the check's
// budget runs out.
func (r *regexRule) run(st *scanState, text string, idx int) {
	ws := st.windows[idx]
	slices.SortFunc(ws, func(a, b window) int { return a.lo - b.lo })
	cur := ws[0]
	for _, w := range ws[1:] {
		if w.lo <= cur.hi {
			cur.hi = max(cur.hi, w.hi)
			continue
		}
		if !r.runWindow(st, text, cur) {
			return
		}
		cur = w
	}
	r.runWindow(st, text, cur)
}

// runWindow runs the rule's regex on one merged window; false: the scan
// stops, incomplete.
//
// Every match holds each literal the rule needs, so only the stretches
// within maxMatch of the rarest one's occurrences can hold a match: a
// window merged from many keyword hits (a README that says "secret" every
// few lines) shrinks to those, and the regex reads them alone.
func (r *regexRule) runWindow(st *scanState, text string, w window) bool {
	rare, fewest := -1, 0
	for i, kw := range r.needKW {
		n := st.markedCount(kw, len(r.needs[i]), w.lo, w.hi)
		if n == 0 {
			return true
		}
		if rare < 0 || n < fewest {
			rare, fewest = i, n
		}
	}
	if rare < 0 || fewest*2*(r.maxMatch+windowSlack) >= w.hi-w.lo {
		return r.runRegion(st, text, w)
	}
	kw, n := r.needKW[rare], len(r.needs[rare])
	ps := st.marks[kw]
	cur := window{-1, -1}
	for i := sort.SearchInts(ps, w.lo); i < len(ps) && ps[i]+n <= w.hi; i++ {
		lo, hi := widen(text, max(w.lo, ps[i]+n-r.maxMatch-windowSlack), min(w.hi, ps[i]+r.maxMatch+windowSlack))
		lo, hi = max(lo, w.lo), min(hi, w.hi)
		if cur.hi >= 0 && lo <= cur.hi {
			cur.hi = max(cur.hi, hi)
			continue
		}
		if cur.hi >= 0 && !r.runRegion(st, text, cur) {
			return false
		}
		cur = window{lo, hi}
	}
	return cur.hi < 0 || r.runRegion(st, text, cur)
}

// runRegion runs the rule's regex on text[w.lo:w.hi]; false: the scan
// stops, incomplete.
func (r *regexRule) runRegion(st *scanState, text string, w window) bool {
	if !r.mayHold(st, text[w.lo:w.hi]) {
		return true
	}
	// A merged window can be most of the text: one regex call that the
	// budget could not interrupt.
	cost := regexWork * (w.hi - w.lo)
	if !st.affords(cost) || !st.spend(st.takeWork()) {
		st.incomplete = true
		return false
	}
	st.work += cost
	for _, m := range r.re.FindAllStringSubmatchIndex(text[w.lo:w.hi], -1) {
		// Each report runs the allowlists' regexes: a window of many
		// matches stops where the allowance does.
		if !st.affords(0) {
			st.incomplete = true
			return false
		}
		r.report(st, text, w.lo, m)
	}
	return true
}

func (r *regexRule) report(st *scanState, text string, base int, m []int) {
	s, e := -1, -1
	switch {
	case r.group > 0:
		s, e = m[2*r.group], m[2*r.group+1]
	case r.hasSubgroups:
		for g := 1; g <= r.subexpCount; g++ {
			if m[2*g] >= 0 && m[2*g+1] > m[2*g] {
				s, e = m[2*g], m[2*g+1]
				break
			}
		}
	}
	if s < 0 {
		s, e = m[0], m[1]
	}
	if e <= s {
		return
	}
	s, e = s+base, e+base
	secret := text[s:e]
	st.work += 4 * len(secret) // entropy, example and padding tests
	if r.entropy > 0 && entropy.Bits(secret) < r.entropy {
		return
	}
	match := text[base+m[0] : base+m[1]]
	if n := minContextValue[r.id]; len(secret) < n && !containsFold(match, "basic ") {
		return
	}
	// A value in the rule's format but padded with one character
	// (AGE-SECRET-KEY-1QQQQ…) is an illustration: reported, marked.
	example := looksLikeExample(secret) || padded(secret)
	for _, al := range r.allow {
		drop, known := al.judge(st, text, secret, match, base+m[0])
		if drop {
			return
		}
		example = example || known
	}
	st.found = append(st.found, finding{Finding: Finding{
		Type: r.typ, Rule: r.id, Value: secret, Start: s, End: e, Example: example,
	}})
}

// minContextValue is, for rules that find a token by its context alone
// (a header name, not a provider's format), the shortest token they
// report: see minBearer.
var minContextValue = map[string]int{"curl-auth-header": minBearer}

// judge applies one allowlist to a match: drop for a non-secret shape,
// known for a value the rule set lists as public or documented.
func (al *allowlist) judge(st *scanState, text, secret, match string, matchStart int) (drop, known bool) {
	lower := ""
	for _, w := range al.stopwords {
		if lower == "" {
			lower = strings.ToLower(secret)
		}
		if strings.Contains(lower, w) {
			return true, false
		}
	}
	subject := func(target string) string {
		v := secret
		switch target {
		case "match":
			v = match
		case "line":
			v = lineAround(text, matchStart, matchStart+len(match))
		}
		st.work += regexWork * len(v)
		return v
	}
	for i := range al.drop {
		if al.drop[i].matches(subject(al.drop[i].target)) {
			return true, false
		}
	}
	for i := range al.known {
		if al.known[i].matches(subject(al.known[i].target)) {
			known = true
		}
	}
	return false, known
}

// lineAround returns the line of text[s:e], at most maxLineContext bytes
// either side: on one long line (minified JSON, a 16 MB argument) each
// match would otherwise read the whole line.
func lineAround(text string, s, e int) string {
	lo := max(0, s-maxLineContext)
	if i := strings.LastIndexByte(text[lo:s], '\n'); i >= 0 {
		s = lo + i + 1
	} else {
		s = lo
	}
	hi := min(len(text), e+maxLineContext)
	if i := strings.IndexByte(text[e:hi], '\n'); i >= 0 {
		e += i
	} else {
		e = hi
	}
	return text[s:e]
}

// maxLineContext is how far from a match an allowlist's line reaches.
const maxLineContext = 256

// secretNode returns the part of the regex that captures the secret: the
// numbered group, or (like gitleaks when no group is configured) all groups
// together, or the whole regex when it has none.
func secretNode(re *syntax.Regexp, group int) *syntax.Regexp {
	var caps []*syntax.Regexp
	var walk func(*syntax.Regexp)
	walk = func(n *syntax.Regexp) {
		if n.Op == syntax.OpCapture {
			if group == 0 || n.Cap == group {
				caps = append(caps, n)
			}
		}
		for _, s := range n.Sub {
			walk(s)
		}
	}
	walk(re)
	switch len(caps) {
	case 0:
		return re
	case 1:
		return caps[0]
	}
	return &syntax.Regexp{Op: syntax.OpAlternate, Sub: caps}
}

const unbounded = 1 << 20

// width returns the shortest and longest match length in bytes.
func width(re *syntax.Regexp) (lo, hi int) {
	sat := func(n int) int { return min(n, unbounded) }
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			lo++
			hi += utf8.RuneLen(r)
		}
		return lo, hi
	case syntax.OpCharClass:
		top := rune(0)
		if len(re.Rune) > 0 {
			top = re.Rune[len(re.Rune)-1]
		}
		return 1, max(1, utf8.RuneLen(min(top, utf8.MaxRune)))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1, utf8.UTFMax
	case syntax.OpCapture:
		return width(re.Sub[0])
	case syntax.OpStar:
		return 0, unbounded
	case syntax.OpPlus:
		l, _ := width(re.Sub[0])
		return l, unbounded
	case syntax.OpQuest:
		_, h := width(re.Sub[0])
		return 0, h
	case syntax.OpRepeat:
		l, h := width(re.Sub[0])
		lo = sat(l * re.Min)
		if re.Max < 0 {
			return lo, unbounded
		}
		return lo, sat(h * re.Max)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			l, h := width(s)
			lo, hi = sat(lo+l), sat(hi+h)
		}
		return lo, hi
	case syntax.OpAlternate:
		lo = unbounded
		for _, s := range re.Sub {
			l, h := width(s)
			lo, hi = min(lo, l), max(hi, h)
		}
		return lo, hi
	}
	return 0, 0 // empty-width assertions
}

// mayHold reports whether s holds one literal of each of the rule's anyOf
// sets, as every match does: a search for a literal costs a fraction of a
// regex's read.
func (r *regexRule) mayHold(st *scanState, s string) bool {
	for _, set := range r.anyOf {
		found := false
		for _, lit := range set {
			st.work += len(s)
			if found = strings.Contains(s, lit); found {
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// requiredAlternatives returns, for each alternation every match goes
// through (at the top level of the regex), the case-sensitive literals of
// 2+ bytes one of which each of its branches starts with: (?:-u|--user),
// which the parser writes as -(?:u|-user), gives {"-u", "--user"}. An
// alternation with a branch that starts with none gives nothing.
func requiredAlternatives(re *syntax.Regexp) [][]string {
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return requiredAlternatives(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min > 0 {
			return requiredAlternatives(re.Sub[0])
		}
	case syntax.OpConcat:
		var out [][]string
		for i, sub := range re.Sub {
			if sub.Op != syntax.OpAlternate {
				out = append(out, requiredAlternatives(sub)...)
				continue
			}
			lead := ""
			if prev := re.Sub[max(i-1, 0)]; i > 0 && prev.Op == syntax.OpLiteral && prev.Flags&syntax.FoldCase == 0 {
				lead = string(prev.Rune)
			}
			if set := branchStarts(sub, lead); set != nil {
				out = append(out, set)
			}
		}
		return out
	case syntax.OpAlternate:
		if set := branchStarts(re, ""); set != nil {
			return [][]string{set}
		}
	}
	return nil
}

// branchStarts returns lead followed by the case-sensitive literal each
// branch of alt starts with, or nil when a branch starts with none or one
// of them is shorter than 2 bytes.
func branchStarts(alt *syntax.Regexp, lead string) []string {
	var set []string
	for _, b := range alt.Sub {
		for b.Op == syntax.OpConcat && len(b.Sub) > 0 || b.Op == syntax.OpCapture {
			b = b.Sub[0]
		}
		if b.Op != syntax.OpLiteral || b.Flags&syntax.FoldCase != 0 || len(lead)+len(string(b.Rune)) < 2 {
			return nil
		}
		set = append(set, lead+string(b.Rune))
	}
	return set
}

// requiredLiterals returns lower-cased literals (3+ bytes) that every match
// contains; a window without them cannot match.
func requiredLiterals(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) >= 3 {
			return []string{strings.ToLower(string(re.Rune))}
		}
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiterals(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min > 0 {
			return requiredLiterals(re.Sub[0])
		}
	case syntax.OpConcat:
		var out []string
		for _, s := range re.Sub {
			out = append(out, requiredLiterals(s)...)
		}
		return out
	case syntax.OpAlternate:
		// Literals every alternative needs (or a part of them does).
		common := requiredLiterals(re.Sub[0])
		for _, s := range re.Sub[1:] {
			other := requiredLiterals(s)
			var keep []string
			for _, a := range common {
				for _, b := range other {
					switch {
					case strings.Contains(b, a):
						keep = append(keep, a)
					case strings.Contains(a, b):
						keep = append(keep, b)
					default:
						continue
					}
					break
				}
			}
			common = keep
		}
		return common
	}
	return nil
}

// byteSet is a set of byte values.
type byteSet [4]uint64

func (b *byteSet) add(c byte)      { b[c>>6] |= 1 << (c & 63) }
func (b *byteSet) has(c byte) bool { return b[c>>6]&(1<<(c&63)) != 0 }
func (b *byteSet) addRange(lo, hi int) {
	for c := max(lo, 0); c <= min(hi, 255); c++ {
		b.add(byte(c))
	}
}

// bytesOf returns every byte a match of re can contain. Non-ASCII runes
// admit all bytes >= 0x80 (their UTF-8 encodings).
func bytesOf(re *syntax.Regexp) byteSet {
	var b byteSet
	var walk func(*syntax.Regexp)
	addRune := func(r rune, fold bool) {
		if r >= utf8.RuneSelf {
			b.addRange(0x80, 0xff)
			return
		}
		b.add(byte(r))
		if fold {
			b.add(byte(lowerASCII(byte(r))))
			if c := byte(r); c >= 'a' && c <= 'z' {
				b.add(c - 'a' + 'A')
			}
		}
	}
	walk = func(n *syntax.Regexp) {
		switch n.Op {
		case syntax.OpLiteral:
			for _, r := range n.Rune {
				addRune(r, n.Flags&syntax.FoldCase != 0)
			}
		case syntax.OpCharClass:
			for i := 0; i+1 < len(n.Rune); i += 2 {
				lo, hi := n.Rune[i], n.Rune[i+1]
				if hi >= utf8.RuneSelf {
					b.addRange(0x80, 0xff)
				}
				b.addRange(int(lo), int(min(hi, 0x7f)))
			}
		case syntax.OpAnyChar:
			b.addRange(0, 255)
		case syntax.OpAnyCharNotNL:
			b.addRange(0, 255)
			b[0] &^= 1 << '\n'
		}
		for _, s := range n.Sub {
			walk(s)
		}
	}
	walk(re)
	return b
}

// runFrom returns how many set bytes follow from p, counting at most limit:
// the bound keeps many hits inside one long token (a base64 blob) linear.
func (b *byteSet) runFrom(text string, p, limit int) int {
	e := p
	for e < len(text) && e-p < limit && b.has(text[e]) {
		e++
	}
	return e - p
}

// hasRun reports whether text contains n consecutive set bytes.
func (b *byteSet) hasRun(text string, n int) bool {
	if n <= 1 {
		return true
	}
	k := 0
	for i := 0; i < len(text); i++ {
		if b.has(text[i]) {
			k++
			if k >= n {
				return true
			}
		} else {
			k = 0
		}
	}
	return false
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
