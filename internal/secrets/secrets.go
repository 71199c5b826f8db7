package secrets

import (
	"fmt"
	"sort"
	"sync"

	"github.com/flowd-dev/flowd/internal/budget"
)

// Finding is one secret found in a text.
type Finding struct {
	// Type is the stable kind of secret ("aws_access_key", "github_token",
	// "password_assignment"…); policy and the UI key on it.
	Type string
	// Rule names the rule that matched: a gitleaks rule id or one of this
	// package's own rules. It is for explaining a decision, not for policy.
	Rule string
	// Value is the secret itself, exactly text[Start:End].
	Value string
	// Start and End are byte offsets of Value in the scanned text.
	Start, End int
	// Example marks a value that is documented or illustrative (it contains
	// "EXAMPLE", an obvious sequence such as "abcdef"/"123456", or is a key
	// that the rule set lists as publicly known). It is still reported: a key
	// leaving the machine is the event whether or not it is a sample.
	Example bool
	// Public marks an identifier that is public by design (a wallet
	// address): one sent out ties the user to it, so it is reported in
	// what leaves, but it is no secret in what arrives.
	Public bool
}

// Detector scans texts for secrets. It is immutable after New and safe for
// concurrent use.
type Detector struct {
	rules   []*regexRule
	known   map[string]bool // publicly known key-shaped values: findings are examples
	prefix  *automaton
	targets [][]target // per keyword id: what a hit of that keyword triggers
	scratch sync.Pool  // *scanState
}

// target is what a keyword hit triggers: a regex rule (rule >= 0) or one of
// the structural scanners.
type target struct {
	rule    int
	scanner scannerKind
	// inSecret: the keyword is the start of the secret itself (ghp_, AKIA…),
	// so the token run containing the hit must be long enough.
	inSecret bool
	// kwInRegex: the keyword is part of what the regex matches; otherwise it
	// is only a hint nearby and the window is wider.
	kwInRegex bool
	// anchor: the rule has an anchored form and a hit of this keyword is
	// where it starts.
	anchor bool
}

type scannerKind uint8

const (
	scanRegex scannerKind = iota
	scanAssignment
	scanURL
	scanAWSPair
	scanMarker // a literal a rule needs in its window (needKW)
	scanPEM
	scanNetrc
)

var defaultDetector = sync.OnceValues(New)

// Default returns a Detector built once per process and shared.
func Default() (*Detector, error) { return defaultDetector() }

// New builds a Detector from gitleaks' default rule set and this package's
// own rules.
func New() (*Detector, error) {
	rules, known, err := loadGitleaksRules()
	if err != nil {
		return nil, err
	}
	d := &Detector{rules: rules, known: known}

	var keywords []string
	kwID := map[string]int{}
	add := func(kw string, t target) {
		id, ok := kwID[kw]
		if !ok {
			id = len(keywords)
			kwID[kw] = id
			keywords = append(keywords, kw)
			d.targets = append(d.targets, nil)
		}
		d.targets[id] = append(d.targets[id], t)
	}
	for i, r := range rules {
		for _, kw := range r.keywords {
			if r.anchored != nil && !r.anchorKW[kw] {
				continue // hits of this keyword never start a match
			}
			add(kw, target{rule: i, scanner: scanRegex, inSecret: r.keywordStartsSecret(kw), kwInRegex: r.kwInRegex[kw], anchor: r.anchorKW[kw]})
		}
	}
	for _, r := range rules {
		if r.anchored != nil {
			continue
		}
		for _, lit := range r.needs {
			if _, ok := kwID[lit]; !ok || !hasMarker(d.targets[kwID[lit]]) {
				add(lit, target{rule: -1, scanner: scanMarker})
			}
			r.needKW = append(r.needKW, kwID[lit])
		}
	}
	for _, kw := range assignmentKeywords {
		add(kw, target{rule: -1, scanner: scanAssignment})
	}
	add("://", target{rule: -1, scanner: scanURL})
	add(pemHeaderKeyword, target{rule: -1, scanner: scanPEM})
	add(netrcKeyword, target{rule: -1, scanner: scanNetrc})
	for _, kw := range awsKeyPrefixes {
		add(kw, target{rule: -1, scanner: scanAWSPair})
	}
	a, err := buildAutomaton(keywords)
	if err != nil {
		return nil, fmt.Errorf("build secret keyword automaton: %w", err)
	}
	d.prefix = a
	nkw := len(keywords)
	d.scratch.New = func() any { return newScanState(len(rules), nkw) }
	return d, nil
}

// Scan returns the secrets in text, ordered by position. Overlapping matches
// of several rules are reported once, by the most specific rule.
func (d *Detector) Scan(text string) []Finding {
	f, _ := d.ScanWithin(text, nil)
	return f
}

// ScanWithin is Scan that reports its work to b (nil: unlimited) and stops
// when b runs out; complete is false then, and the findings are those of
// the text read so far.
func (d *Detector) ScanWithin(text string, b *budget.Budget) (found []Finding, complete bool) {
	if len(text) == 0 {
		return nil, true
	}
	st := d.scratch.Get().(*scanState)
	defer func() {
		st.reset()
		d.scratch.Put(st)
	}()

	// Each scanner reads a bounded stretch of text at each keyword hit,
	// and a stretch that hits repeat in is read once, so the work is
	// linear in the text. The allowance holds that by construction: text
	// that would take more is not scanned further, and the scan says it
	// is incomplete, which denies a call that could send it out.
	st.allow(workPerByte*len(text)+workSlack, b)
	var s uint32
	complete = true
	for lo := 0; lo < len(text) && complete; lo += scanBlock {
		st.hits, st.hitsB = st.hits[:0], st.hitsB[:0]
		st.hits, st.hitsB, s = d.prefix.block(text, lo, min(len(text), lo+scanBlock), s, st.hits, st.hitsB)
		for h := range onePassOrder(st.hits, st.hitsB) {
			d.dispatch(st, text, h)
			if !st.affords(0) {
				break
			}
		}
		complete = st.spend(st.takeWork() + min(scanBlock, len(text)-lo))
	}
	for _, ri := range st.touched {
		if !complete {
			break
		}
		d.rules[ri].run(st, text, ri)
		complete = st.spend(st.takeWork())
	}
	if complete {
		joinPieces(st, text)
		scanCards(st, text)
		scanFinancial(st, text)
		complete = st.spend(st.takeWork() + len(text))
	}

	if len(st.found) == 0 {
		return nil, complete
	}
	for i := range st.found {
		if d.known[st.found[i].Value] {
			st.found[i].Example = true
		}
	}
	return resolve(st.found), complete
}

func hasMarker(ts []target) bool {
	for _, t := range ts {
		if t.scanner == scanMarker {
			return true
		}
	}
	return false
}

func (d *Detector) dispatch(st *scanState, text string, h hit) {
	for _, t := range d.targets[h.kw] {
		switch t.scanner {
		case scanRegex:
			d.rules[t.rule].candidate(st, text, h, t.rule, t)
		case scanAssignment:
			scanAssignmentAt(st, text, h.pos)
		case scanURL:
			scanURLAt(st, text, h.pos)
		case scanAWSPair:
			scanAWSPairAt(st, text, h.pos)
		case scanMarker:
			st.mark(h.kw, h.pos)
		case scanPEM:
			scanPEMAt(st, text, h.pos)
		case scanNetrc:
			scanNetrcAt(st, text, h.pos)
		}
	}
}

// The work a scan may do: workPerByte units per byte of text, plus
// workSlack for the fixed cost of a few long reads (a PEM block, a
// window). A unit is a byte read by a scanner, about half a nanosecond;
// a byte read by a regex costs regexWork units, as Go's regexp engines
// take tens of times longer per byte than a scanner's loop.
const (
	workPerByte = 64
	workSlack   = 1 << 20
	regexWork   = 24
)

// finding is a candidate before overlaps are resolved.
type finding struct {
	Finding
	generic bool // produced by a keyword-context rule rather than a known format
}

// resolve keeps, among overlapping findings, the most specific one (a known
// format beats a keyword guess, then the longer value wins) and orders the
// rest by position.
func resolve(fs []finding) []Finding {
	sort.Slice(fs, func(i, j int) bool { return fs[i].Start < fs[j].Start })
	out := make([]Finding, 0, len(fs))
	for i := 0; i < len(fs); {
		// A cluster is a run of findings linked by overlaps; it is almost
		// always one finding, sometimes two or three.
		j, end := i+1, fs[i].End
		for j < len(fs) && fs[j].Start < end {
			end = max(end, fs[j].End)
			j++
		}
		out = pick(out, fs[i:j])
		i = j
	}
	return out
}

// pick appends to out the findings of one cluster that survive, in order of
// position.
func pick(out []Finding, cluster []finding) []Finding {
	if len(cluster) == 1 {
		return append(out, cluster[0].Finding)
	}
	sort.SliceStable(cluster, func(i, j int) bool {
		a, b := cluster[i], cluster[j]
		if a.generic != b.generic {
			return !a.generic
		}
		return a.End-a.Start > b.End-b.Start
	})
	first := len(out)
next:
	for _, f := range cluster {
		for _, k := range out[first:] {
			if f.Start < k.End && k.Start < f.End {
				continue next
			}
		}
		out = append(out, f.Finding)
	}
	kept := out[first:]
	sort.Slice(kept, func(i, j int) bool { return kept[i].Start < kept[j].Start })
	return out
}
