package secrets

import (
	"sort"

	"github.com/flowd-dev/flowd/internal/budget"
)

// window is a byte range of the scanned text that a rule's regex must see.
type window struct{ lo, hi int }

// scanState is the per-call scratch space, pooled so that a clean text
// costs no allocation beyond the result.
type scanState struct {
	hits    []hit      // keyword hits of a block: of its first half when it is read as two
	hitsB   []hit      // of its second half
	windows [][]window // per regex rule
	// anchoredTo is, per regex rule, the end of the text its last
	// anchored try read.
	anchoredTo []int
	touched    []int // rules with at least one window
	found      []finding
	marks      [][]int // per keyword id, positions of needed literals
	marked     []int   // keyword ids with marks
	// lastIdent is the identifier the assignment scanner judged last;
	// "secret_key" holds two keywords and must be judged once.
	lastIdent window
	lastValue judged
	// awsRead is where the search for a secret key after an AWS key id
	// read runs whole and found none: a run that starts after lo and
	// before hi is no secret key (scanAWSPairAt).
	awsRead window
	// pieces are the values of credential names too short to be one,
	// random in form: a secret cut into fields (pieces.go).
	pieces []window
	// incomplete: a scanner gave up on text made to be slow.
	incomplete bool
	// work is what the scan did since takeWork last looked: bytes read by
	// regexes and scanners, hits dispatched.
	work int
	// spent is the work taken so far, of allowance; b is the check's
	// budget, told of the same work.
	spent, allowance int
	b                *budget.Budget
}

// allow starts a scan that may do allowance units of work within b.
func (st *scanState) allow(allowance int, b *budget.Budget) {
	st.spent, st.allowance, st.b = 0, allowance, b
}

// spend takes n units of work and reports whether the scan may go on.
func (st *scanState) spend(n int) bool {
	st.spent += n
	ok := st.b.Spend(n)
	return ok && st.spent <= st.allowance && !st.incomplete
}

// affords reports whether the work done and n units more stay within the
// allowance. A scanner asks before a long read (a regex over a merged
// window); where the answer is no, the scan is incomplete.
func (st *scanState) affords(n int) bool {
	return st.spent+st.work+n <= st.allowance && !st.incomplete
}

// takeWork returns the work done since the last call.
func (st *scanState) takeWork() int {
	w := st.work
	st.work = 0
	return w
}

func newScanState(nrules, nkeywords int) *scanState {
	return &scanState{windows: make([][]window, nrules), anchoredTo: make([]int, nrules), marks: make([][]int, nkeywords), lastIdent: window{-1, -1}, lastValue: judged{lo: -1, hi: -1}, awsRead: window{-1, -1}}
}

func (st *scanState) mark(kw, pos int) {
	if len(st.marks[kw]) == 0 {
		st.marked = append(st.marked, kw)
	}
	st.marks[kw] = append(st.marks[kw], pos)
}

// markedCount is how many times literal kw (of length n) occurs inside
// [lo, hi).
func (st *scanState) markedCount(kw, n, lo, hi int) int {
	ps := st.marks[kw]
	return sort.SearchInts(ps, hi-n+1) - sort.SearchInts(ps, lo)
}

func (st *scanState) addWindow(ri, lo, hi int) {
	ws := st.windows[ri]
	if len(ws) == 0 {
		st.touched = append(st.touched, ri)
	}
	// Hits arrive almost in order, so most overlaps merge here.
	if n := len(ws); n > 0 && lo >= ws[n-1].lo && lo <= ws[n-1].hi {
		ws[n-1].hi = max(ws[n-1].hi, hi)
		return
	}
	st.windows[ri] = append(ws, window{lo, hi})
}

func (st *scanState) add(f finding) { st.found = append(st.found, f) }

func (st *scanState) reset() {
	for _, ri := range st.touched {
		st.windows[ri] = st.windows[ri][:0]
	}
	st.touched = st.touched[:0]
	clear(st.anchoredTo)
	for _, kw := range st.marked {
		st.marks[kw] = st.marks[kw][:0]
	}
	st.marked = st.marked[:0]
	st.hits, st.hitsB = st.hits[:0], st.hitsB[:0]
	st.found = st.found[:0]
	st.lastIdent, st.lastValue, st.awsRead = window{-1, -1}, judged{lo: -1, hi: -1}, window{-1, -1}
	st.pieces = st.pieces[:0]
	st.incomplete = false
	st.work = 0
	st.b = nil
}
