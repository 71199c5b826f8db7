package secrets

import (
	"errors"
	"fmt"
	"iter"
)

// automaton is an Aho-Corasick matcher over ASCII-case-folded bytes, compiled
// to a dense transition table so that the hot loop is one table lookup per
// byte. Bytes that occur in no keyword share one input class, which keeps the
// table small (a few hundred KB for gitleaks' ~250 keywords).
type automaton struct {
	class    [256]uint8
	nclass   int
	delta    []uint32 // delta[state*nclass+class] = next state*nclass
	outFrom  uint32   // states*nclass at or above this have keywords ending there
	outStart []uint32 // keyword ids ending at output state o: outIDs[outStart[o]:outStart[o+1]]
	outIDs   []uint16
	kwLen    []int
	maxLen   int // of the keywords
}

// hit is a keyword occurrence: kw is the keyword id, pos the byte offset of
// its first character, n its length.
type hit struct {
	pos int
	n   int
	kw  int
}

func buildAutomaton(keywords []string) (*automaton, error) {
	if len(keywords) == 0 {
		return nil, errors.New("no keywords")
	}
	a := &automaton{kwLen: make([]int, len(keywords))}
	// Input classes: 0 for bytes in no keyword; upper-case letters share the
	// lower-case class.
	for _, kw := range keywords {
		for i := 0; i < len(kw); i++ {
			c := kw[i]
			if c >= 'A' && c <= 'Z' {
				return nil, fmt.Errorf("keyword %q is not lower-case", kw)
			}
			if a.class[c] == 0 {
				a.nclass++
				a.class[c] = uint8(a.nclass)
			}
		}
	}
	if a.nclass >= 255 {
		return nil, errors.New("too many distinct keyword bytes")
	}
	for c := 'A'; c <= 'Z'; c++ {
		a.class[c] = a.class[c+'a'-'A']
	}
	a.nclass++
	nc := a.nclass

	// Trie.
	type node struct {
		next []int32
		fail int32
		out  []uint16
	}
	newNode := func() node {
		n := node{next: make([]int32, nc)}
		for i := range n.next {
			n.next[i] = -1
		}
		return n
	}
	nodes := []node{newNode()}
	for id, kw := range keywords {
		a.kwLen[id] = len(kw)
		a.maxLen = max(a.maxLen, len(kw))
		s := int32(0)
		for i := 0; i < len(kw); i++ {
			c := a.class[kw[i]]
			if nodes[s].next[c] < 0 {
				nodes = append(nodes, newNode())
				nodes[s].next[c] = int32(len(nodes) - 1)
			}
			s = nodes[s].next[c]
		}
		nodes[s].out = append(nodes[s].out, uint16(id))
	}
	if len(nodes)*nc >= 1<<32-1 || len(keywords) >= 1<<16 {
		return nil, fmt.Errorf("keyword automaton too large: %d states, %d keywords", len(nodes), len(keywords))
	}

	// Breadth-first failure links, resolving missing edges into a full DFA.
	queue := make([]int32, 0, len(nodes))
	for c := 0; c < nc; c++ {
		if t := nodes[0].next[c]; t >= 0 {
			nodes[t].fail = 0
			queue = append(queue, t)
		} else {
			nodes[0].next[c] = 0
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		f := nodes[s].fail
		nodes[s].out = append(nodes[s].out, nodes[f].out...)
		for c := 0; c < nc; c++ {
			t := nodes[s].next[c]
			if t >= 0 {
				nodes[t].fail = nodes[f].next[c]
				queue = append(queue, t)
			} else {
				nodes[s].next[c] = nodes[f].next[c]
			}
		}
	}

	// Renumber states so that those with output come last: the hot loop then
	// tests one comparison for "anything to report". Table entries hold
	// state*nclass, saving a multiply per byte.
	order := make([]int, 0, len(nodes))
	for s, n := range nodes {
		if len(n.out) == 0 {
			order = append(order, s)
		}
	}
	quiet := len(order)
	for s, n := range nodes {
		if len(n.out) > 0 {
			order = append(order, s)
		}
	}
	if order[0] != 0 {
		return nil, errors.New("keyword automaton root has output")
	}
	newID := make([]uint32, len(nodes))
	for i, s := range order {
		newID[s] = uint32(i)
	}
	a.delta = make([]uint32, len(nodes)*nc)
	a.outStart = make([]uint32, len(nodes)-quiet+1)
	a.outFrom = uint32(quiet * nc)
	for i, s := range order {
		for c, t := range nodes[s].next {
			a.delta[i*nc+c] = newID[t] * uint32(nc)
		}
		if i >= quiet {
			a.outStart[i-quiet] = uint32(len(a.outIDs))
			a.outIDs = append(a.outIDs, nodes[s].out...)
		}
	}
	a.outStart[len(nodes)-quiet] = uint32(len(a.outIDs))
	return a, nil
}

// scanBlock is how much text is scanned before its keyword hits are
// handled: it bounds the hit buffers on large texts.
const scanBlock = 16 << 10

// block finds the keyword occurrences that end in text[lo:hi], given the
// state s after text[:lo], appends them to ha and hb, and returns both and
// the state after text[:hi]. onePassOrder merges the two lists into the
// order one pass finds the hits in.
//
// One pass waits on each table lookup before the next can start, so a
// long block is read as two halves at once, each with its own state: the
// second half starts at the root, which finds every keyword that starts in
// it, and the first half reads on past the middle until every keyword that
// starts before it has ended. Once the second half has read maxLen bytes,
// its state is the one a single pass would have: a state never stands for
// more than the last maxLen bytes.
func (a *automaton) block(text string, lo, hi int, s uint32, ha, hb []hit) ([]hit, []hit, uint32) {
	if hi-lo < max(4*a.maxLen, minSplit) {
		ha, s = a.scan(text, lo, hi, s, hi, ha)
		return ha, hb, s
	}
	mid := lo + (hi-lo)/2
	return a.scan2(text, lo, mid, mid+a.maxLen-1, hi, s, ha, hb)
}

// minSplit is the shortest block read as two halves: below it the second
// pass costs more than it saves.
const minSplit = 256

// scan continues a pass over text[i:end] in state s, appending the
// keyword occurrences that start before stop to hits, and returns them and
// the state at end.
func (a *automaton) scan(text string, i, end int, s uint32, stop int, hits []hit) ([]hit, uint32) {
	for ; ; i++ {
		if i, s = a.step(text[:end], i, s); i == end {
			return hits, s
		}
		hits = a.emit(hits, s, i, stop)
	}
}

// step advances a pass over text from byte i in state s until it reaches
// a state with output, and returns that byte (or the length) and state.
//
//go:noinline
func (a *automaton) step(text string, i int, s uint32) (int, uint32) {
	delta, cls, from := a.delta, &a.class, a.outFrom
	for ; i < len(text); i++ {
		if s = delta[s+uint32(cls[text[i]])]; s >= from {
			return i, s
		}
	}
	return i, s
}

// scan2 runs two passes in step: one over text[lo:endA] from state s,
// reporting occurrences that start before mid, and one over text[mid:hi]
// from the root, reporting all. It returns both hit lists and the second
// pass's final state.
func (a *automaton) scan2(text string, lo, mid, endA, hi int, s uint32, ha, hb []hit) ([]hit, []hit, uint32) {
	n := min(endA-lo, hi-mid)
	ta, tb := text[lo:lo+n], text[mid:mid+n]
	sa, sb := s, uint32(0)
	for k := 0; ; k++ {
		if k, sa, sb = a.step2(ta, tb, k, sa, sb); k == n {
			break
		}
		if sa >= a.outFrom {
			ha = a.emit(ha, sa, lo+k, mid)
		}
		if sb >= a.outFrom {
			hb = a.emit(hb, sb, mid+k, hi)
		}
	}
	ha, _ = a.scan(text, lo+n, endA, sa, mid, ha)
	hb, sb = a.scan(text, mid+n, hi, sb, hi, hb)
	return ha, hb, sb
}

// step2 advances two passes over ta and tb (of one length) from byte k
// until either reaches a state with output, and returns that byte (or the
// length) and both states. It is kept apart from the hit lists so that its
// loop holds nothing but the two states in flight in registers.
//
//go:noinline
func (a *automaton) step2(ta, tb string, k int, sa, sb uint32) (int, uint32, uint32) {
	delta, cls, from := a.delta, &a.class, a.outFrom
	tb = tb[:len(ta)]
	for ; k < len(ta); k++ {
		sa = delta[sa+uint32(cls[ta[k]])]
		sb = delta[sb+uint32(cls[tb[k]])]
		if max(sa, sb) >= from {
			return k, sa, sb
		}
	}
	return k, sa, sb
}

// onePassOrder yields the hits of a block's two halves (see block) in the
// order one pass finds them: by end, the first half's before the second's
// at the same end (they are the longer).
func onePassOrder(ha, hb []hit) iter.Seq[hit] {
	return func(yield func(hit) bool) {
		for len(ha) > 0 || len(hb) > 0 {
			var h hit
			if len(hb) == 0 || len(ha) > 0 && ha[0].pos+ha[0].n <= hb[0].pos+hb[0].n {
				h, ha = ha[0], ha[1:]
			} else {
				h, hb = hb[0], hb[1:]
			}
			if !yield(h) {
				return
			}
		}
	}
}

// emit appends the keywords that output state s reports at byte i, longest
// first, that start before stop.
func (a *automaton) emit(hits []hit, s uint32, i, stop int) []hit {
	o := (s - a.outFrom) / uint32(a.nclass)
	for _, id := range a.outIDs[a.outStart[o]:a.outStart[o+1]] {
		n := a.kwLen[id]
		if pos := i + 1 - n; pos < stop {
			hits = append(hits, hit{pos: pos, n: n, kw: int(id)})
		}
	}
	return hits
}
