package injection

import "fmt"

// keywordSet finds every occurrence of a fixed set of keywords in one pass,
// ignoring ASCII case. It is an Aho-Corasick automaton flattened into a
// transition table over byte classes: bytes that occur in no keyword share
// class 0, so the table stays small and the scan loop is one lookup per byte.
//
// It is the prefilter: a rule's regular expressions run only in windows
// around hits of its keywords, so clean text costs one table walk.
type keywordSet struct {
	class  [256]uint16
	width  int     // number of byte classes
	next   []int32 // next[row+class] is the row (state × width) of the next state
	out    [][]int // keyword ids ending in each output state (through suffix links)
	length []int   // keyword id → byte length
	// firstOut is the row of the first state where a keyword ends: states
	// are numbered so that these come last.
	firstOut int32
}

// kwHit is one keyword occurrence: the keyword id and the byte offset where
// it starts.
type kwHit struct {
	kw, pos int
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func newKeywordSet(keywords []string) (*keywordSet, error) {
	ks := &keywordSet{length: make([]int, len(keywords))}
	// Byte classes: one per distinct lower-cased byte used by a keyword.
	for i, kw := range keywords {
		if kw == "" {
			return nil, fmt.Errorf("keyword %d is empty", i)
		}
		for j := 0; j < len(kw); j++ {
			c := lowerASCII(kw[j])
			if ks.class[c] == 0 {
				ks.width++
				ks.class[c] = uint16(ks.width)
			}
		}
	}
	ks.width++ // class 0
	for c := 'A'; c <= 'Z'; c++ {
		ks.class[c] = ks.class[c+'a'-'A']
	}

	// Trie with explicit -1 for missing edges.
	w := ks.width
	ks.next = make([]int32, w)
	for i := range ks.next {
		ks.next[i] = -1
	}
	ks.out = [][]int{nil}
	for id, kw := range keywords {
		ks.length[id] = len(kw)
		s := int32(0)
		for j := 0; j < len(kw); j++ {
			c := int32(ks.class[lowerASCII(kw[j])])
			if ks.next[s*int32(w)+c] < 0 {
				ns := int32(len(ks.out))
				ks.out = append(ks.out, nil)
				for k := 0; k < w; k++ {
					ks.next = append(ks.next, -1)
				}
				ks.next[s*int32(w)+c] = ns
			}
			s = ks.next[s*int32(w)+c]
		}
		ks.out[s] = append(ks.out[s], id)
	}

	// Breadth-first suffix links; missing edges become the suffix state's
	// edge, turning the trie into a DFA.
	fail := make([]int32, len(ks.out))
	queue := make([]int32, 0, len(ks.out))
	for c := 0; c < w; c++ {
		t := ks.next[c]
		if t < 0 {
			ks.next[c] = 0
			continue
		}
		queue = append(queue, t)
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if f := fail[s]; len(ks.out[f]) > 0 {
			ks.out[s] = append(ks.out[s][:len(ks.out[s]):len(ks.out[s])], ks.out[f]...)
		}
		for c := 0; c < w; c++ {
			t := ks.next[int(s)*w+c]
			fallback := ks.next[int(fail[s])*w+c]
			if t < 0 {
				ks.next[int(s)*w+c] = fallback
				continue
			}
			fail[t] = fallback
			queue = append(queue, t)
		}
	}
	ks.compact()
	return ks, nil
}

// compact renumbers the states so that those where a keyword ends come
// last, letting the scan loop test one comparison per byte, and stores
// each transition as the target's row offset (state × width) to save a
// multiplication.
func (ks *keywordSet) compact() {
	n, w := len(ks.out), ks.width
	order := make([]int, 0, n)
	for s := 0; s < n; s++ {
		if len(ks.out[s]) == 0 {
			order = append(order, s)
		}
	}
	quiet := len(order)
	for s := 0; s < n; s++ {
		if len(ks.out[s]) > 0 {
			order = append(order, s)
		}
	}
	id := make([]int32, n)
	for i, s := range order {
		id[s] = int32(i)
	}
	next := make([]int32, n*w)
	out := make([][]int, n-quiet)
	for i, s := range order {
		for c := 0; c < w; c++ {
			next[i*w+c] = id[ks.next[s*w+c]] * int32(w)
		}
		if i >= quiet {
			out[i-quiet] = ks.out[s]
		}
	}
	ks.next, ks.out, ks.firstOut = next, out, int32(quiet*w)
}

// find appends every keyword occurrence in text to hits, stopping once hits
// holds limit entries (a flood of keywords is itself bounded work).
func (ks *keywordSet) find(text string, hits []kwHit, limit int) []kwHit {
	next, class, w, firstOut := ks.next, &ks.class, int32(ks.width), ks.firstOut
	s := int32(0)
	for i := 0; i < len(text); i++ {
		s = next[s+int32(class[text[i]])]
		if s >= firstOut {
			for _, id := range ks.out[(s-firstOut)/w] {
				hits = append(hits, kwHit{kw: id, pos: i + 1 - ks.length[id]})
			}
			if len(hits) >= limit {
				return hits
			}
		}
	}
	return hits
}
