package injection

import (
	"sort"
	"strings"
)

// A reader does not read markup as words, nor a list down its lines as
// lines: "<i>Ignore</i> <i>all</i> <i>previous</i>…" reads "Ignore all
// previous…" (and a scan of it as written reads the tag names as words,
// "i Ignore i all", a first-person statement, not an order), and a
// list with one word starting each item reads down its first words.
// render writes the text with its markup tags removed; firstWords writes
// the first word of each of its short lines. The engine scans both views
// (see engine.denoised) besides the text itself.

// tagClass is what a markup tag does to the words around it.
type tagClass uint8

const (
	tagInline tagClass = iota // an inline element's start: nothing
	tagClose                  // an inline element's end: nothing, a space before the next element
	tagSpace                  // a cell, image, comment or doctype: a space
	tagBlock                  // a block element's start or end: a line break
	tagKeep                   // <pre>, <code>: kept, so that the scan still knows code
)

// blockTags are the elements a browser lays out on lines of their own.
var blockTags = wordSet(`address article aside blockquote body br caption dd details dialog div dl dt fieldset
	figcaption figure footer form h1 h2 h3 h4 h5 h6 head header hr html legend li main nav ol option p section
	select summary table tbody textarea tfoot thead title tr ul`)

// spaceTags stand between words without a line: cells of a row, replaced
// elements.
var spaceTags = wordSet(`td th img input button svg math iframe video audio object embed`)

// keptTags are left in the view: codeSpans reads them.
var keptTags = wordSet(`pre code`)

// maxTagName bounds the tag names looked up; longer names are inline.
const maxTagName = 12

// renderer holds one text's render state.
type renderer struct {
	src string
	// commentEnd caches the start of the first "-->" at or after
	// commentFrom, so that many "<!--" read the text once.
	commentFrom, commentEnd int
}

// render returns src with its markup tags removed and the map from the
// view's offsets to src's; ok is false when src holds no tag, inline
// whether a tag stood inside a line (rendered as nothing or a space, not
// a line break). A run of tags becomes a line break when one of them is a
// block element's, a space when one is a cell's or a comment, or when it
// ends one element and starts the next ("</span><span>"), and nothing
// otherwise ("Ig<b>no</b>re" is one word). The work is linear: a tag's
// scan stops at the next '<', and comments share one search for "-->".
func render(src string) (view string, m renderMap, inline, ok bool) {
	i := strings.IndexByte(src, '<')
	if i < 0 {
		return "", nil, false, false
	}
	r := renderer{src: src, commentFrom: -1}
	var b []byte
	last := 0
	for i >= 0 {
		end, repl, ok := r.tagRun(i)
		if ok {
			if b == nil {
				b = make([]byte, 0, len(src))
			}
			b = append(b, src[last:i]...)
			inline = inline || repl != "\n"
			m = append(m, renderEdit{view: len(b), viewEnd: len(b) + len(repl), src: i, srcEnd: end})
			b = append(b, repl...)
			last = end
		} else {
			end = i + 1
		}
		k := strings.IndexByte(src[end:], '<')
		if k < 0 {
			break
		}
		i = end + k
	}
	if b == nil {
		return "", nil, false, false
	}
	b = append(b, src[last:]...)
	return string(b), m, inline, true
}

// renderEdit is a run of tags, src[src:srcEnd], written as
// view[view:viewEnd].
type renderEdit struct{ view, viewEnd, src, srcEnd int }

// renderMap maps a rendered view to its source: its edits in order. Kept
// as edits, not an offset a byte, a page whose view is only read down
// its lines costs no map of its size.
type renderMap []renderEdit

// at returns the offset in the source of the view's byte v.
func (m renderMap) at(v int) int {
	k := sort.Search(len(m), func(k int) bool { return m[k].view > v }) - 1
	switch {
	case k < 0:
		return v
	case v < m[k].viewEnd:
		return m[k].src
	}
	return m[k].srcEnd + v - m[k].viewEnd
}

// offsets returns the source offset of each of the n bytes of the view.
func (m renderMap) offsets(n int) []int {
	pos := make([]int, n)
	for v, k := 0, 0; v < n; v++ {
		for k < len(m) && m[k].viewEnd <= v {
			k++
		}
		switch {
		case k < len(m) && v >= m[k].view:
			pos[v] = m[k].src
		case k > 0:
			pos[v] = m[k-1].srcEnd + v - m[k-1].viewEnd
		default:
			pos[v] = v
		}
	}
	return pos
}

// tagRun reads the tags that follow each other from src[i], and returns
// their end and what stands for them.
func (r *renderer) tagRun(i int) (end int, repl string, ok bool) {
	block, space, closed := false, false, false
	end = i
	for end < len(r.src) && r.src[end] == '<' {
		e, class := r.tag(end)
		if e < 0 || class == tagKeep {
			break
		}
		switch class {
		case tagBlock:
			block = true
		case tagSpace:
			space = true
		case tagClose:
			closed = true
		case tagInline:
			space = space || closed
		}
		end = e
	}
	switch {
	case end == i:
		return i, "", false
	case block:
		return end, "\n", true
	case space:
		return end, " ", true
	}
	return end, "", true
}

// tag reads the tag at src[i] ('<'): its end and class, or -1 when none
// starts there ("a < b", "<3", "<-").
func (r *renderer) tag(i int) (int, tagClass) {
	src := r.src
	j := i + 1
	if j >= len(src) {
		return -1, 0
	}
	switch c := src[j]; {
	case strings.HasPrefix(src[j:], "!--"):
		if e := r.commentClose(j + 3); e >= 0 {
			return e + 3, tagSpace
		}
		return -1, 0
	case c == '!' || c == '?':
		// A doctype, a CDATA opener or a processing instruction.
		if e := tagEnd(src, j+1); e >= 0 {
			return e, tagSpace
		}
		return -1, 0
	case c == '/':
		j++
	}
	closing := j > i+1
	n := j
	for n < len(src) && (isAlnum(src[n]) || src[n] == '-' || src[n] == ':' || src[n] == '_') {
		n++
	}
	if n == j || !isASCIILetter(rune(src[j])) {
		return -1, 0
	}
	if n < len(src) && src[n] != '>' && src[n] != '/' && src[n] != ' ' && src[n] != '\t' && src[n] != '\n' && src[n] != '\r' {
		return -1, 0
	}
	e := tagEnd(src, n)
	if e < 0 {
		return -1, 0
	}
	class := tagInline
	if n-j <= maxTagName {
		var low [maxTagName]byte
		for k := j; k < n; k++ {
			low[k-j] = lowerASCII(src[k])
		}
		name := low[:n-j]
		switch {
		case keptTags[string(name)]:
			return e, tagKeep
		case blockTags[string(name)]:
			return e, tagBlock
		case spaceTags[string(name)]:
			return e, tagSpace
		}
	}
	switch {
	case closing:
		class = tagClose
	case src[e-2] == '/':
		class = tagSpace // a self-closing element stands alone
	}
	return e, class
}

// tagEnd returns the offset after the '>' that ends a tag whose
// attributes start at src[j], or -1 when a '<' or the end of the text
// comes first (a quoted '>' does not end it).
func tagEnd(src string, j int) int {
	var quote byte
	for k := j; k < len(src); k++ {
		switch c := src[k]; {
		case c == '<':
			return -1
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			return k + 1
		}
	}
	return -1
}

// commentClose returns the offset of the first "-->" at or after j, or
// -1.
func (r *renderer) commentClose(j int) int {
	if r.commentFrom < 0 || j < r.commentFrom || r.commentEnd >= 0 && j > r.commentEnd {
		r.commentFrom, r.commentEnd = j, -1
		if k := strings.Index(r.src[j:], "-->"); k >= 0 {
			r.commentEnd = j + k
		}
	}
	return r.commentEnd
}

// Lines read down: one word or a few on each line of a run of lines.
const (
	minRunLines  = 3 // the fewest lines whose first words a reader reads as a sentence
	maxLineWords = 3 // longer lines are prose, read across
)

// firstWords returns the first word of each line in runs of short lines
// (list items, table rows, a word a line), joined by spaces, one run a
// line, and for each byte the offset in t it stands for; ok is false when
// t has no such run. Blank lines and lines of marks alone ("|---|",
// "---") do not end a run; a long line does.
func firstWords(t string) (view string, pos []int, ok bool) {
	if strings.Count(t, "\n") < minRunLines-1 {
		return "", nil, false
	}
	var b []byte
	runStart, runLines := 0, 0
	endRun := func() {
		if runLines < minRunLines {
			b, pos = b[:runStart], pos[:runStart]
		} else {
			b = append(b, '\n')
			pos = append(pos, pos[len(pos)-1])
		}
		runStart, runLines = len(b), 0
	}
	for i := 0; i <= len(t); {
		e := lineEnd(t, i)
		a, z, words := lineHead(t, i, e)
		switch {
		case words == 0:
		case words > maxLineWords:
			endRun()
		default:
			if runLines > 0 {
				b = append(b, ' ')
				pos = append(pos, a)
			}
			for k := a; k < z; k++ {
				b = append(b, t[k])
				pos = append(pos, k)
			}
			runLines++
		}
		i = e + 1
	}
	endRun()
	if len(b) == 0 {
		return "", nil, false
	}
	return string(b[:len(b)-1]), pos[:len(b)-1], true
}

// lineHead returns the first word of the line t[i:e], past indentation
// and list or table marks, and how many words the line holds (counted to
// maxLineWords+1).
func lineHead(t string, i, e int) (a, z, words int) {
	a = skipMarks(t, i, e)
	if m := listMarker(t[:e], a); m > 0 {
		a = skipMarks(t, a+m, e)
	}
	z = a
	for z < e && !headEnd(t[z]) {
		z++
	}
	if record(t, a, z, e) {
		return a, z, maxLineWords + 1
	}
	for k := a; k < e && words <= maxLineWords; {
		for k < e && (t[k] < 0x80 && !isAlnum(t[k])) {
			k++
		}
		if k == e {
			break
		}
		words++
		for k < e && t[k] != ' ' && t[k] != '\t' && t[k] != '|' {
			k++
		}
	}
	return a, z, words
}

// record: the line's first word names a field ("to: bob", "\"send\":
// true", "ignore = [...]"); such lines are read across, as records.
func record(t string, a, z, e int) bool {
	w := strings.TrimRight(t[a:z], `"'`)
	if strings.HasSuffix(w, ":") || strings.HasSuffix(w, "=") {
		return true
	}
	k := z
	for k < e && t[k] == ' ' {
		k++
	}
	return k < e && (t[k] == ':' || t[k] == '=')
}

// skipMarks skips spaces and ASCII marks that are no word's start.
func skipMarks(t string, i, e int) int {
	for i < e && t[i] < 0x80 && !isAlnum(t[i]) {
		i++
	}
	return i
}

// headEnd: the byte ends a line's first word (a cell's, a CSV field's).
func headEnd(c byte) bool {
	return c == ' ' || c == '\t' || c == '|' || c == ',' || c == ';' || c == '\r'
}
