package injection

import (
	"regexp"
	"regexp/syntax"
	"sort"

	"github.com/flowd-dev/flowd/internal/literal"
)

// A rule's regex searched across a window runs Go's NFA at every byte, and
// a big alternation costs about 150 ns a byte: a clean page that says
// "quietly" a few times paid 170 µs for one rule. But every match of most
// rules begins with one of a few literal words ("do not", "silently",
// "keep"). starts are those words, found in one pass; the regex then runs
// anchored at each, which fails within a few bytes where there is no match.
// The matches are the same as the search's: same leftmost starts, same
// submatches.

// minStart is the shortest start literal worth a prefilter; a single
// letter would make nearly every byte a candidate, while a two-letter word
// ("is") costs a few failed anchored tries per line.
const minStart = 2

// startsOf returns the literals one of which every match of re begins with
// (after zero-width assertions), or nil when it cannot tell or a literal
// would be shorter than minStart. Literals are lower-cased: rules match
// lower-cased text, and the keyword set ignores ASCII case.
func startsOf(re *regexp.Regexp) []string {
	tree, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil
	}
	set, _ := literal.Prefixes(tree)
	seen := map[string]bool{}
	var out []string
	for _, s := range set {
		if len(s) < minStart {
			return nil
		}
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// prepareStarts gives a windowed rule its start literals, when it has
// usable ones, and the anchored forms of its regex: at for a candidate at a
// window's start, where the search saw the start of input, and atAfter for
// any other candidate, which the regex sees with the byte before it so that
// \b there reads the real text.
func (r *rule) prepareStarts() {
	starts := startsOf(r.re)
	if starts == nil {
		return
	}
	set, err := newKeywordSet(starts)
	if err != nil {
		return
	}
	r.starts = set
	r.at = anchoredAt(r.re)
	r.atAfter = regexp.MustCompile(`^(?s:.)(?:` + r.re.String() + `)`)
}

// matchesFrom hands emit the non-overlapping matches of r in
// text[w.start:w.end] that searching that window would find, trying only
// the positions where a start literal occurs. Offsets are absolute. It
// reports false when emit asked to stop. hits is scratch space, returned
// for reuse.
func (r *rule) matchesFrom(text string, w span, hits []kwHit, emit func(m []int) bool) ([]kwHit, bool) {
	hits = r.starts.find(text[w.start:w.end], hits[:0], w.end-w.start+1)
	sort.Slice(hits, func(i, j int) bool { return hits[i].pos < hits[j].pos })
	lastEnd := -1
	for i, h := range hits {
		at := w.start + h.pos
		if at < lastEnd || i > 0 && h.pos == hits[i-1].pos {
			continue
		}
		// At the window's start the search saw the start of input; anywhere
		// else it saw the byte before, which \b reads.
		from, re := at, r.at
		if at > w.start {
			from, re = at-1, r.atAfter
		}
		m := re.FindStringSubmatchIndex(text[from:w.end])
		if m == nil {
			continue
		}
		for k := range m {
			if m[k] >= 0 {
				m[k] += from
			}
		}
		m[0] = at
		if m[1] == at {
			continue // an empty match finds nothing
		}
		lastEnd = m[1]
		if !emit(m) {
			return hits, false
		}
	}
	return hits, true
}
