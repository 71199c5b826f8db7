package attackprint

import (
	"slices"
	"strings"
)

// Match is a text's match with a known attack.
type Match struct {
	Print Print
	// How: "content" (the attack's words recur) or "structure" (a
	// sentence of the attack's shape names one of its keys).
	How string
	// Shared counts the attack's content shingles the text holds.
	Shared int
}

// Index finds known attacks in text. It is not safe for concurrent use;
// Store guards one.
type Index struct {
	prints    map[string]Print
	byContent map[uint64][]string
	byKey     map[uint64][]string
}

func newIndex() *Index {
	return &Index{prints: map[string]Print{}, byContent: map[uint64][]string{}, byKey: map[uint64][]string{}}
}

// add indexes p; it reports false when a print of that ID is there.
func (x *Index) add(p Print) bool {
	if _, ok := x.prints[p.ID]; ok {
		return false
	}
	x.prints[p.ID] = p
	for _, h := range p.Content {
		x.byContent[h] = append(x.byContent[h], p.ID)
	}
	for _, k := range p.Keys {
		x.byKey[k] = append(x.byKey[k], p.ID)
	}
	return true
}

func (x *Index) remove(id string) {
	p, ok := x.prints[id]
	if !ok {
		return
	}
	delete(x.prints, id)
	drop := func(m map[uint64][]string, hs []uint64) {
		for _, h := range hs {
			if ids := slices.DeleteFunc(m[h], func(s string) bool { return s == id }); len(ids) > 0 {
				m[h] = ids
			} else {
				delete(m, h)
			}
		}
	}
	drop(x.byContent, p.Content)
	drop(x.byKey, p.Keys)
}

// need is how many of a print's content shingles a text must hold to
// repeat the attack: half of them, and never fewer than minContent.
func need(p Print) int {
	if len(p.Content) < minContent {
		return len(p.Content) + 1 // never by content
	}
	return max(minContent, (len(p.Content)+1)/2)
}

// Match returns the known attack text repeats, preferring a content match
// and then the higher risk.
func (x *Index) Match(text string) (Match, bool) {
	if len(x.prints) == 0 {
		return Match{}, false
	}
	if len(text) > MaxText {
		text = text[:MaxText]
	}
	t := fold(text)
	shared := map[string]int{}
	var hit map[uint64]bool // shingles of the text that some print holds, counted once
	for _, h := range shingles(t) {
		ids := x.byContent[h]
		if len(ids) == 0 || hit[h] {
			continue
		}
		if hit == nil {
			hit = map[uint64]bool{}
		}
		hit[h] = true
		for _, id := range ids {
			shared[id]++
		}
	}
	var best Match
	found := false
	better := func(m Match) bool {
		if !found {
			return true
		}
		if (m.How == "content") != (best.How == "content") {
			return m.How == "content"
		}
		return m.Print.Risk > best.Print.Risk
	}
	for id, n := range shared {
		if p := x.prints[id]; n >= need(p) {
			if m := (Match{Print: p, How: "content", Shared: n}); better(m) {
				best, found = m, true
			}
		}
	}
	// A reworded attack keeps what it needs the model to use: a sentence
	// of the same build naming the same address, plus one more thing of
	// the attack (a shingle, or a second key).
	keysSeen := map[string]int{}
	type cand struct {
		id    string
		shape uint64
	}
	var cands []cand
	for _, seg := range segments(t) {
		if !strings.ContainsAny(seg, ".@0123456789") {
			continue // nothing a key could be
		}
		var sh uint64 // of the sentence, once it names a known key
		for _, k := range keysOf(seg) {
			for _, id := range x.byKey[k] {
				if sh == 0 {
					sh = shape(seg)
				}
				keysSeen[id]++
				cands = append(cands, cand{id, sh})
			}
		}
	}
	for _, c := range cands {
		p := x.prints[c.id]
		if !slices.Contains(p.Shapes, c.shape) || shared[c.id] < 1 && keysSeen[c.id] < 2 {
			continue
		}
		if m := (Match{Print: p, How: "structure", Shared: shared[c.id]}); better(m) {
			best, found = m, true
		}
	}
	return best, found
}
