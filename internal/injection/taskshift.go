package injection

import "strings"

// Task shifts: a request aimed at the reader ("Explain photosynthesis.",
// "What is 'Bibliothek' in English?") on a line of its own, about
// something the text around it never mentions. Each part alone is
// ordinary: emails ask questions, manuals give orders, tables have
// captions. Together they are what an injected task looks like from
// outside: a change of register (a request dropped into data), a change
// of topic, and nothing that ties it to the document (no "this", "we",
// "attached"). No phrase is memorised; the verbs are those of any request
// made of an assistant.
//
// The signal is weak on purpose (it flags, see doc.go): a lone request
// that is off topic is the shape of a hijack, not proof of one.

// taskShiftSeverity flags on its own and reaches redact only with other
// evidence.
const taskShiftSeverity = 0.3

// taskShiftQuestionSeverity: an off-topic question in prose only
// corroborates (never flags alone).
const taskShiftQuestionSeverity = 0.22

// requestVerbs open an imperative asking for a piece of work that an
// assistant does: explain, write, translate, analyse….
var requestVerbs = wordSet(`explain describe summarize summarise list outline define translate tell give provide write
	compose create generate draft analyze analyse compare calculate compute recommend suggest name identify discuss
	elaborate evaluate find search research predict classify convert solve rewrite rephrase paraphrase replace
	substitute share teach show help recite brainstorm design plan develop prepare illustrate detail clarify interpret
	assess estimate rank break walk guide offer propose compile count sort reverse encode decode encrypt decrypt spell
	conjugate pronounce critique argue imagine narrate invent derive prove simplify introduce say print output
	respond reply answer recount compare contrast elucidate demonstrate sketch tabulate forecast`)

// questionWords open a direct question when the line ends with "?".
// Questions about people ("Who owns …?") and requests put to "you"
// ("Could you …?") are how correspondents talk to each other; they are
// left out.
var questionWords = wordSet(`what what's whats how how's why when where which`)

// situatedWords place a line in the world of the document and its
// parties, where a request belongs: deixis ("this", "here", "next week"),
// the parties ("you", "we", "my"), and tenses that refer to events
// ("did", "has left", "will"). A task slipped in for an assistant asks
// about the world at large ("Describe the lifecycle of a butterfly.").
var situatedWords = wordSet(`this these those here there above below attached enclosed we us our ours you your
	yours yourself my mine today tomorrow tonight yesterday now then soon later yet already still next last week
	weekend month monday tuesday wednesday thursday friday saturday sunday morning afternoon evening time did didn't
	has hasn't have haven't had hadn't will won't would wouldn't shall should shouldn't`)

// genericYou opens questions whose "you" is anyone: "How do you say …?"
var genericYou = []string{"how do you say", "how do you spell", "how do you pronounce", "how do you write",
	"how do you translate", "how would you say", "how would you translate", "what do you call"}

// nounFollowers after a first word that can be a verb or a noun make it
// a noun: "Review of the budget.", "Plan for Q3 is approved."
var nounFollowers = wordSet(`of for and by is was are were has have had will can to as from at`)

// topicStop are words that say nothing about a topic: function words
// and the names of an assistant's output (request verbs and question
// words do not count either).
var topicStop = wordSet(`the and but for with from into onto about over under than then that this these those there
	their them they what which who whom whose how why when where are was were been being have has had does did
	doing can could would should will shall may might must not yes you your yours our ours his her hers its
	some any all each every more most less few many much such very just also only even still way ways thing things
	please kindly using use used make made like one two three first second last new simple simply terms following
	below above word words sentence sentences text response reply answer output message summary result
	version part kind type example detail details brief briefly short step steps`)

// maxTaskShiftLines: a text with more request lines than this is a list
// of them (a worksheet, an FAQ, a checklist), not one slipped in.
const maxTaskShiftLines = 2

// minTopicStems: below this many distinct topic words around it, a text
// has no topic for a line to depart from.
const minTopicStems = 8

// orderVerbs open the lines of a text that is itself made of orders: a
// guide, a to-do list, a changelog in the imperative, a recipe. A request
// there is in the text's own register.
var orderVerbs = wordSet(`add fix update remove use make run check install open click set go see read note ensure
	keep avoid try do don't be include select enter type press follow copy move change start stop call send bring
	join contact visit let drop delete allow enable disable configure build test deploy push pull merge pass mark
	wait ask remember consider download upload sign log save submit schedule book review confirm return attach
	bump improve support refactor rename allow handle avoid clean implement document report apply`)

// A text is written in orders when at least minOrderLines of its lines,
// and one in orderShare of the lines that hold a sentence, open on one
// (an email has a call to action or two; a guide is made of them).
const (
	minOrderLines = 2
	orderShare    = 4
)

// findTaskShifts adds a task-shift finding for each request line that
// shares no topic with the rest of the text.
func (f *fieldScan) findTaskShifts() {
	t := f.t
	if !hasRequestLine(t) {
		return
	}
	var lines []span
	var questions []bool
	orders, prose, rows, nonBlank := 0, 0, 0, 0
	sinceItem, pendingItem := 99, -1
	for i := 0; i < len(t); {
		end := lineEnd(t, i)
		line := t[i:end]
		item := listItem(line)
		// Normalisation has dropped blank lines: the line before is the
		// previous line of text.
		if pendingItem >= 0 && (item || underline(line)) {
			// A request among list items or over an underline is an item
			// of a list or a heading of the text.
			lines, questions = lines[:pendingItem], questions[:pendingItem]
		}
		pendingItem = -1
		a, kind := lineKind(t, i, end)
		if (kind == requestKind || kind == questionKind) && (item && sinceItem <= 3 || f.indented(a)) {
			kind = otherKind
		}
		switch kind {
		case requestKind, questionKind:
			if len(lines) == maxTaskShiftLines {
				return
			}
			lines = append(lines, span{a, end})
			questions = append(questions, kind == questionKind)
			pendingItem = len(lines) - 1
		case orderKind:
			orders++
		}
		if (kind == otherKind || kind == orderKind) && strings.Count(line, " ") >= 2 {
			prose++
		}
		if line != "" {
			nonBlank++
			if strings.Count(line, "|") >= 2 {
				rows++
			}
			if sinceItem++; item {
				sinceItem = 1
			}
		}
		i = end + 1
	}
	if len(lines) == 0 || orders >= minOrderLines && orders*orderShare >= prose {
		return
	}
	// In a table a sentence is out of register by itself, whatever the
	// table holds; in prose a question is how correspondents talk, and
	// counts only with other evidence.
	table := rows >= 3 && 2*rows >= nonBlank
	rest := topicStems(t, lines)
	if len(rest) < minTopicStems && !table {
		return
	}
	for k, l := range lines {
		own := topicStems(t[l.start:l.end], nil)
		if len(own) < 2 || situated(t[l.start:l.end]) {
			continue
		}
		shared := 0
		for s := range own {
			if rest[s] {
				shared++
			}
		}
		if shared*3 > len(own) {
			continue
		}
		sev := taskShiftSeverity
		if questions[k] && !table {
			sev = taskShiftQuestionSeverity
		}
		f.finds = append(f.finds, finding{rule: "task-shift", tier: Contextual, kind: language, sev: sev,
			a: l.start, b: l.end, lang: true, note: "off-topic request on a line of its own"})
	}
}

// hasRequestLine reports whether any line of t is a request: the cheap
// pass that spares most texts the layout bookkeeping.
func hasRequestLine(t string) bool {
	for i := 0; i < len(t); {
		end := lineEnd(t, i)
		if _, kind := lineKind(t, i, end); kind == requestKind || kind == questionKind {
			return true
		}
		i = end + 1
	}
	return false
}

// listItem reports whether a line starts with a bullet or a number.
func listItem(line string) bool {
	line = strings.TrimLeft(line, " \t")
	if line == "" {
		return false
	}
	switch line[0] {
	case '-', '*', '+', '>':
		return len(line) > 1 && (line[1] == ' ' || line[1] == line[0])
	}
	if strings.HasPrefix(line, "•") {
		return true
	}
	k := 0
	for k < len(line) && k < 4 && (line[k] >= '0' && line[k] <= '9' || line[k] >= 'a' && line[k] <= 'z' && k == 0) {
		k++
	}
	return k > 0 && k+1 < len(line) && (line[k] == '.' || line[k] == ')') && line[k+1] == ' '
}

// underline reports whether a line only rules off the one above it
// ("=====", "-----").
func underline(line string) bool {
	line = strings.TrimSpace(line)
	return len(line) >= 3 && strings.Trim(line, "=-~^*") == ""
}

// indented reports whether the line whose first letter is at t[i] was
// indented as written, right under a line of text: a definition or a
// wrapped item. Normalisation drops indentation and blank lines; the
// source keeps them.
func (f *fieldScan) indented(i int) bool {
	a, _ := f.m.toSource(i, i+1)
	k := min(a, len(f.src))
	for k > 0 && (f.src[k-1] == ' ' || f.src[k-1] == '\t') {
		k--
	}
	if k == a || k == 0 || f.src[k-1] != '\n' {
		return false
	}
	k--
	if k > 0 && f.src[k-1] == '\r' {
		k--
	}
	return k > 0 && f.src[k-1] != '\n'
}

type lineKindT uint8

const (
	otherKind lineKindT = iota
	requestKind
	questionKind
	orderKind
)

// lineKind says whether t[i:end] is one sentence that asks the reader for
// a piece of work (requestKind, with where it starts after list markers),
// a line that opens on another order (orderKind), or neither.
func lineKind(t string, i, end int) (int, lineKindT) {
	for i < end && strings.IndexByte(" \t-*>", t[i]) >= 0 {
		i++
	}
	line := t[i:end]
	if len(line) < 12 || len(line) > 300 || line[0] < 'A' || line[0] > 'Z' {
		return 0, otherKind
	}
	// Most lines fail here, on their first word, before anything costs.
	var buf [16]byte
	w0, next := firstWord(line, buf[:])
	if w0 == "please" || w0 == "kindly" {
		w0, next = firstWord(line[next:], buf[:])
	}
	if !requestVerbs[w0] && !questionWords[w0] {
		if orderVerbs[w0] {
			return 0, orderKind
		}
		return 0, otherKind
	}
	// Headings, shouting (licence terms) and identifiers belong to the
	// document's own structure and subject.
	if strings.ToUpper(line) == line || technical(line) {
		return 0, otherKind
	}
	words := strings.Fields(strings.ToLower(line))
	if words[0] == "please" || words[0] == "kindly" {
		words = words[1:]
	}
	if len(words) < 3 || len(words) > 40 || words[0] != w0 {
		return 0, otherKind // "Summary: …", "Translate, …"
	}
	last := strings.TrimRight(line, ` '"”’)]`)
	q := strings.HasSuffix(last, "?")
	kind := requestKind
	switch {
	case questionWords[w0]:
		if !q {
			return 0, otherKind
		}
		kind = questionKind
	case nounFollowers[words[1]] || finiteVerbs[words[2]] && !clauseWords[words[1]]:
		// "Review of the budget.", "Output files are written …": the
		// verb is a noun, the sentence has a subject.
		if orderVerbs[w0] {
			return 0, orderKind
		}
		return 0, otherKind
	case !q && !strings.HasSuffix(last, ".") && !strings.HasSuffix(last, "!"):
		return 0, otherKind
	}
	// One sentence: a stop followed by a capital starts another.
	for k := 0; k+2 < len(last); k++ {
		if c := last[k]; (c == '.' || c == '?' || c == '!') && last[k+1] == ' ' && last[k+2] >= 'A' && last[k+2] <= 'Z' {
			return 0, otherKind
		}
	}
	return i, kind
}

// firstWord lower-cases the leading word of s (letters and apostrophes,
// as long as buf) into buf, and returns it with the offset after it and
// the spaces that follow. A word followed by other punctuation ("Note:")
// or longer than buf is returned empty.
func firstWord(s string, buf []byte) (string, int) {
	n := 0
	for n < len(s) && (isLetter(s[n]) && s[n] < 0x80 || s[n] == '\'') {
		if n == len(buf) {
			return "", n
		}
		buf[n] = lowerASCII(s[n])
		n++
	}
	if n < len(s) && s[n] != ' ' {
		return "", n
	}
	end := n
	for end < len(s) && s[end] == ' ' {
		end++
	}
	return string(buf[:n]), end
}

// situated reports whether a line, outside what it quotes, refers to
// the document, its parties or an event (see situatedWords).
func situated(line string) bool {
	lower := strings.ToLower(line)
	for _, g := range genericYou {
		if strings.HasPrefix(lower, g) {
			lower = lower[len(g):]
			break
		}
	}
	quoted := false
	for i := 0; i < len(lower); {
		c := lower[i]
		if c == '"' || c == '\'' && (i == 0 || !isLetter(lower[i-1]) || i+1 == len(lower) || !isLetter(lower[i+1])) {
			quoted = !quoted
			i++
			continue
		}
		if !isLetter(c) {
			i++
			continue
		}
		j := i
		for j < len(lower) && (isLetter(lower[j]) || lower[j] == '\'' && j+1 < len(lower) && isLetter(lower[j+1])) {
			j++
		}
		if !quoted && situatedWords[lower[i:j]] {
			return true
		}
		i = j
	}
	return false
}

// finiteVerbs after a noun make it a subject ("Output files are …");
// clauseWords start the clause an imperative governs ("Explain why it is
// …").
var (
	finiteVerbs = wordSet(`is are was were has have had can will may must should does do did`)
	clauseWords = wordSet(`what how why who which that it this there where when if whether`)
)

// technical reports whether a line holds code (identifiers, inline
// code, calls, file names with versions): a line about the text's own
// software, not a request dropped into it.
func technical(line string) bool {
	if strings.ContainsAny(line, "_`") || strings.Contains(line, "()") {
		return true
	}
	for _, w := range strings.Fields(line) {
		w = strings.TrimRight(w, ".,;:!?)'\"")
		if k := strings.IndexByte(w, '.'); k > 0 && k+1 < len(w) && (strings.Count(w, ".") >= 2 || w[k+1] >= '0' && w[k+1] <= '9') {
			return true
		}
	}
	return false
}

// topicStems returns the stems (the first five letters) of the topic
// words of t outside the skip spans: lower-cased words of three letters
// or more that are not in topicStop.
func topicStems(t string, skip []span) map[string]bool {
	out := map[string]bool{}
	var buf [64]byte
	for i := 0; i < len(t); {
		if len(skip) > 0 && i >= skip[0].start {
			i = max(i, skip[0].end)
			skip = skip[1:]
			continue
		}
		c := t[i]
		if !isLetter(c) {
			i++
			continue
		}
		j := i
		for j < len(t) && (isLetter(t[j]) || t[j] == '\'' || t[j] == '-') && (len(skip) == 0 || j < skip[0].start) {
			j++
		}
		if n := j - i; n >= 3 && n <= len(buf) {
			w := buf[:n]
			for k := range w {
				w[k] = lowerASCII(t[i+k])
			}
			if !topicStop[string(w)] && !requestVerbs[string(w)] && !questionWords[string(w)] {
				out[string(w[:min(5, n)])] = true
			}
		}
		i = j
	}
	return out
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 }
