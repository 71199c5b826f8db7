package injection

import "sort"

// spanMap maps byte offsets of a normalised text back to the text it was
// made from, so that a match found after decoding and folding can be
// reported, and redacted, where it really is.
//
// The normalised text is a sequence of segments. An identity segment is a
// run copied byte for byte; a replacement segment is what a run of source
// bytes became (an entity decoded, a whitespace run collapsed, a zero-width
// character deleted). Clean ASCII text is one identity segment, so the map
// costs nothing where nothing changed.
type spanMap struct {
	segs []seg
	// prev maps the source of this pass further back when normalisation
	// ran more than once (nested encodings).
	prev *spanMap
}

type seg struct {
	n, o   int // start in the normalised text and in the source
	nl, ol int // lengths; equal for identity segments
	ident  bool
}

// segAt returns the index of the segment holding normalised byte p, skipping
// deletions (segments of length zero).
func (m *spanMap) segAt(p int) int {
	i := sort.Search(len(m.segs), func(i int) bool { return m.segs[i].n+m.segs[i].nl > p })
	if i == len(m.segs) {
		return len(m.segs) - 1
	}
	return i
}

// toSource maps the normalised span [a, b) to the smallest source span that
// produced it.
func (m *spanMap) toSource(a, b int) (int, int) {
	if len(m.segs) == 0 {
		return a, b
	}
	sa := m.segs[m.segAt(a)]
	oa := sa.o
	if sa.ident {
		oa += min(max(a-sa.n, 0), sa.ol)
	}
	ob := oa
	if b > a {
		sb := m.segs[m.segAt(b-1)]
		ob = sb.o + sb.ol
		if sb.ident {
			ob = sb.o + min(b-sb.n, sb.ol)
		}
	}
	if m.prev != nil {
		return m.prev.toSource(oa, ob)
	}
	return oa, ob
}
