package secrets

import (
	"errors"
	"fmt"
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

// scan continues a scan of text at byte i in state s, appending keyword
// occurrences to hits until it holds limit of them, and returns where to
// resume. Batches keep the hit buffer small and warm on large texts.
func (a *automaton) scan(text string, i int, s uint32, hits *[]hit, limit int) (int, uint32) {
	delta, cls, from := a.delta, &a.class, a.outFrom
	nc := uint32(a.nclass)
	for ; i < len(text); i++ {
		s = delta[s+uint32(cls[text[i]])]
		if s >= from {
			o := (s - from) / nc
			for _, id := range a.outIDs[a.outStart[o]:a.outStart[o+1]] {
				n := a.kwLen[id]
				*hits = append(*hits, hit{pos: i + 1 - n, n: n, kw: int(id)})
			}
			if len(*hits) >= limit {
				return i + 1, s
			}
		}
	}
	return i, s
}
