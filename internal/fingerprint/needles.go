package fingerprint

import (
	"bytes"
	"encoding/binary"
	"slices"

	"github.com/flowd-dev/flowd/internal/budget"
)

// needleSet finds every one of a set of needles in a text in one pass: an
// Aho-Corasick automaton. Its cost is one step per text byte, plus the
// fall-backs along failure links (never more than the steps forward), plus
// one step for each needle end reported, and each is reported at most once
// per scan. Needles sharing prefixes, needles inside needles and text made
// of near-misses cost no more than any other text: there is no per-offset
// comparison to make quadratic.
//
// It is built once from the needles and not changed; SecretIndex rebuilds
// it when its secrets change.
type needleSet struct {
	// Trie nodes are numbered in breadth-first order; 0 is the root.
	fail []uint32 // longest proper suffix of the node's string that is a node
	dict []uint32 // nearest node on the failure chain that ends a needle; 0: none
	// ends has a bit for each node that ends a needle; out is, for those,
	// the first needle (+1) ending there. Few nodes end one.
	ends []uint64
	out  map[uint32]uint32
	// The edges of node n are label[edge[n]:edge[n+1]] (sorted) and
	// to[edge[n]:edge[n+1]].
	edge    []uint32
	label   []byte
	to      []uint32
	root    [256]uint32 // the root's edges, dense: the root is where most steps start
	outNext []uint32    // by needle: the next needle (+1) ending at the same node
	// mark is, by the first needle ending at a node, the scan that last
	// reported the node, so that each is reported once per scan; epoch
	// numbers the scans. Only nodes that end needles are reported.
	mark  []uint32
	epoch uint32
	// start has a bit per hashed 4-byte start of any needle: at the root,
	// text positions that start no needle are skipped with one bit test.
	start []uint64
}

// minNeedle is the shortest needle a needleSet takes: the start filter
// reads 4 bytes.
const minNeedle = 4

const startBits = 1 << 20

func startBit(s []byte) uint32 { return binary.LittleEndian.Uint32(s) * 0x9e3779b1 >> (32 - 20) }

// newNeedleSet builds the automaton of needles (each at least minNeedle
// bytes); a match reports the needle's index.
func newNeedleSet(needles [][]byte) *needleSet {
	a := &needleSet{outNext: make([]uint32, len(needles)), start: make([]uint64, startBits/64), out: make(map[uint32]uint32, len(needles))}
	order := make([]uint32, len(needles))
	for i := range order {
		order[i] = uint32(i)
		p := startBit(needles[i])
		a.start[p/64] |= 1 << (p % 64)
	}
	slices.SortFunc(order, func(x, y uint32) int { return bytes.Compare(needles[x], needles[y]) })
	// Breadth first over ranges of the sorted needles that share the
	// node's string: the children of each node are made together, so
	// its edges are contiguous and sorted.
	type item struct {
		lo, hi int
		depth  int
	}
	queue := []item{{0, len(order), 0}}
	a.fail, a.dict = append(a.fail, 0), append(a.dict, 0)
	for n := 0; n < len(queue); n++ {
		q := queue[n]
		a.edge = append(a.edge, uint32(len(a.label)))
		i := q.lo
		for ; i < q.hi && len(needles[order[i]]) == q.depth; i++ {
			k := order[i]
			a.outNext[k] = a.out[uint32(n)]
			a.out[uint32(n)] = k + 1
		}
		for i < q.hi {
			c := needles[order[i]][q.depth]
			j := i + 1
			for j < q.hi && needles[order[j]][q.depth] == c {
				j++
			}
			child := uint32(len(queue))
			queue = append(queue, item{i, j, q.depth + 1})
			a.fail, a.dict = append(a.fail, 0), append(a.dict, 0)
			a.label = append(a.label, c)
			a.to = append(a.to, child)
			if n == 0 {
				a.root[c] = child
			}
			i = j
		}
	}
	a.edge = append(a.edge, uint32(len(a.label)))
	a.ends = make([]uint64, (len(queue)+63)/64)
	for n := range a.out {
		a.ends[n/64] |= 1 << (n % 64)
	}
	// Failure links in breadth-first order: a node's failure is shallower,
	// so its own links are known.
	for n := range uint32(len(queue)) {
		for e := a.edge[n]; e < a.edge[n+1]; e++ {
			c, child := a.label[e], a.to[e]
			if n != 0 {
				for f := a.fail[n]; ; f = a.fail[f] {
					if t := a.next(f, c); t != 0 {
						a.fail[child] = t
						break
					}
					if f == 0 {
						break
					}
				}
			}
			if f := a.fail[child]; a.out[f] != 0 {
				a.dict[child] = f
			} else {
				a.dict[child] = a.dict[f]
			}
		}
	}
	a.mark = make([]uint32, len(needles))
	return a
}

// next is node n's edge for byte c, or 0.
func (a *needleSet) next(n uint32, c byte) uint32 {
	if n == 0 {
		return a.root[c]
	}
	lo, hi := a.edge[n], a.edge[n+1]
	for hi-lo > 8 {
		mid := lo + (hi-lo)/2
		if a.label[mid] < c {
			lo = mid + 1
		} else {
			hi = mid + 1 // mid may be c's edge
		}
	}
	for ; lo < hi; lo++ {
		if a.label[lo] == c {
			return a.to[lo]
		}
	}
	return 0
}

// spendEvery is how many text bytes a scan reads between reports of its
// work to the budget.
const spendEvery = 1 << 16

// scan calls found with the index of each needle in text, once per needle.
// It reports its work (steps forward and back, and reports) to b, and
// stops, returning false, when b runs out.
func (a *needleSet) scan(text []byte, b *budget.Budget, found func(needle uint32)) bool {
	return a.scanWith(text, b, found, nil, nil)
}

// scanWith is scan, and, where p is not nil, p.scan of the same text in
// the same pass (the pieces it finds are reported to piece after the
// needles, as the two scans in turn would): a position's start is hashed
// once for both, and positions that start neither a needle nor a piece
// are skipped together.
func (a *needleSet) scanWith(text []byte, b *budget.Budget, found func(needle uint32), p *pieceSet, piece func(slot uint32)) bool {
	if a.epoch++; a.epoch == 0 {
		clear(a.mark)
		a.epoch = 1
	}
	var pieces []uint32 // slots holding the pieces found, in order
	if p != nil && len(p.first) == 0 {
		p = nil
	}
	if p != nil {
		p.begin()
	}
	var s uint32
	work, next := 0, spendEvery
	for i := 0; i < len(text); i++ {
		if i >= next {
			if !b.Spend(work) {
				return false
			}
			work, next = 0, i+spendEvery
		}
		needleStart := true
		if s == 0 {
			// No partial match is pending: skip what starts no needle
			// (and no piece).
			j := i
			for j+minNeedle <= len(text) {
				bit := startBit(text[j:])
				w, m := bit/64, uint64(1)<<(bit%64)
				if a.start[w]&m != 0 {
					break
				}
				if p != nil && p.start[w]&m != 0 {
					needleStart = false
					break
				}
				j++
			}
			work += j - i
			if i = j; i+minNeedle > len(text) {
				break
			}
		}
		if p != nil {
			work++
			pieces = p.at(text, i, pieces)
			if !needleStart {
				continue // a piece starts here, no needle: the automaton is at its root
			}
		}
		c := text[i]
		work++
		for {
			if t := a.next(s, c); t != 0 {
				s = t
				break
			}
			if s == 0 {
				break
			}
			s = a.fail[s]
			work++
		}
		// Report the needles ending here: the node's own and those on its
		// dictionary chain, up to the first node already reported, whose
		// chain was reported with it.
		n := s
		if a.ends[n/64]&(1<<(n%64)) == 0 {
			n = a.dict[n]
		}
		for n != 0 {
			first := a.out[n]
			if a.mark[first-1] == a.epoch {
				break
			}
			a.mark[first-1] = a.epoch
			for k := first; k != 0; k = a.outNext[k-1] {
				found(k - 1)
				work++
			}
			n = a.dict[n]
		}
	}
	for _, slot := range pieces {
		piece(slot)
		work++
	}
	return b.Spend(work)
}

// size is the automaton's node count.
func (a *needleSet) size() int { return len(a.fail) }
