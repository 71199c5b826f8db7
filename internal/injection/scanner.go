package injection

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/flowd-dev/flowd/internal/injection/learned"
)

// Detection is one piece of evidence of injection.
type Detection struct {
	Rule     string  `json:"rule"`
	Tier     Tier    `json:"tier"`
	Severity float64 `json:"severity"`
	// Field is the JSON path of the string the detection is in
	// ("content[0].text"); a JSON document inside a string continues the
	// path after a slash ("content[0].text/events[3].description").
	Field string `json:"field"`
	// Start and End delimit, in bytes of the field's (decoded) string, what
	// Redact removes: for instructions the whole sentence, for a base64
	// block the block.
	Start int `json:"start"`
	End   int `json:"end"`
	// Excerpt is the matched text after normalisation (decoded, invisible
	// characters removed), shortened; none where the text it quotes was
	// withheld (WithoutExcerpts).
	Excerpt string `json:"excerpt,omitempty"`
	// Note says why the severity is what it is ("in a code block",
	// "decoded from base64").
	Note string `json:"note,omitempty"`
	// Redact marks detections in fields that scored at least the flag
	// threshold: the spans Redact removes.
	Redact bool `json:"redact,omitempty"`
}

// WithoutExcerpts is ds with no excerpts: the rules, fields and spans
// that matched, never the words they matched, for what is told about
// text that was withheld (a quarantined result) to whoever has not
// proven they may read it.
func WithoutExcerpts(ds []Detection) []Detection {
	if ds == nil {
		return nil
	}
	out := make([]Detection, len(ds))
	for i, d := range ds {
		d.Excerpt = ""
		out[i] = d
	}
	return out
}

// Result is the verdict on one message.
type Result struct {
	Score      float64     `json:"score"`
	Action     Action      `json:"action"`
	Detections []Detection `json:"detections,omitempty"`
	// Waived are detections dropped by a waiver, kept to explain them.
	Waived []Detection `json:"waived,omitempty"`
	// Truncated: part of the message was not scanned (a field or the
	// message exceeded its byte limit, or the time budget ran out);
	// Coverage says which bound and how much.
	Truncated bool     `json:"truncated,omitempty"`
	Coverage  Coverage `json:"coverage"`
	// Evidence counts what normalisation and scanning saw: zero_width,
	// bidi_control, mixed_script_words, encoded_chars, base64_text_blocks,
	// hidden_regions, fields, truncated_fields, time_budget_exceeded…
	Evidence map[string]int `json:"evidence,omitempty"`
}

// Bound names the limit that cut a scan short.
type Bound string

const (
	// BoundBytes: a string was longer than Options.MaxFieldBytes, or the
	// message's text than Options.MaxMessageBytes.
	BoundBytes Bound = "bytes"
	// BoundBudget: the message used up Options.TimeBudget before its last
	// string.
	BoundBudget Bound = "budget"
	// BoundMedia: the message holds an image, audio or a binary blob,
	// which a model may read text in and the scan cannot.
	BoundMedia Bound = "media"
)

// Coverage is how much of a message's text a scan looked at, in bytes of
// its strings (decoded; strings too short to hold an instruction do not
// count). A JSON document held in a string counts by its own strings
// where it is scanned, and whole past a bound, where it is not parsed.
// Without a Truncated bound, Scanned equals Total.
type Coverage struct {
	// Truncated names the bound that cut the scan short: the one that
	// stopped it, when a string had been cut before. Empty when every byte
	// was scanned.
	Truncated Bound `json:"truncated,omitempty"`
	Scanned   int   `json:"scanned"`
	Total     int   `json:"total"`
}

// Scanner scores tool output for prompt injection. It is safe for
// concurrent use.
type Scanner struct {
	o Options
	// model is the learned scorer, nil when Options.DisableLearned.
	model *learned.Model
}

// New returns a Scanner with o's settings (zero fields take defaults).
func New(o Options) (*Scanner, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	var model *learned.Model
	if !o.DisableLearned {
		if model, err = learned.Embedded(); err != nil {
			return nil, fmt.Errorf("injection: %w", err)
		}
	}
	// The rule engine (megabytes of compiled rules, shared by every
	// Scanner) is built at the first scan, so an idle flowd stays small.
	return &Scanner{o: o, model: model}, nil
}

// engine returns the shared rule engine. The rules are compiled from this
// package's own source and TestEngineBuilds proves they compile: an error
// here is a bug, not a condition to handle.
// Prepare builds what every scan shares (the rule engine, the table of
// combining marks) now, rather than at the first scan. flowd calls it as
// it starts: otherwise the first results of every shim that connects
// meanwhile wait for the build together, and on a busy machine under the
// race detector it took seconds.
func Prepare() error {
	markTable()
	_, err := sharedEngine()
	return err
}

func (s *Scanner) engine() *engine {
	e, err := sharedEngine()
	if err != nil {
		panic(fmt.Sprintf("injection: rule engine: %v", err))
	}
	return e
}

// RawField is the Field of detections in input that is not JSON, scanned
// as one text.
const RawField = "(raw)"

// ScanResult scans a tools/call result (the JSON-RPC "result" object, or
// any JSON): every string in it, including text content, structured
// content and embedded resources, and the strings of JSON documents held in
// text. Input that is not JSON is scanned as one text (Field RawField).
func (s *Scanner) ScanResult(result []byte, ctx Context) Result {
	st := s.newState(ctx)
	// The walk parses as strictly as json.Valid would; a separate
	// validation pass cost as much again on a 10 MB result.
	if st.walk(result, "", 0) == nil {
		return st.finish()
	}
	st = s.newState(ctx)
	st.scanText(string(result), RawField, "", false)
	return st.finish()
}

// ScanText scans one text; field names it in the detections (and its last
// path element decides whether it is a free-text field).
func (s *Scanner) ScanText(text, field string, ctx Context) Result {
	st := s.newState(ctx)
	st.scanString(text, func() string { return field }, lastKeyOf(field), 0, false)
	return st.finish()
}

type scanState struct {
	s     *Scanner
	ctx   Context
	start time.Time
	// stopped: a bound ended the scan; the strings after it are counted
	// (for Coverage) but not scanned.
	stopped bool
	stopBy  Bound
	res     Result
	// toolSchema: the strings are a tool's description and schema, which
	// exist to tell the model how and when to use the tool.
	toolSchema bool
	// tools: what the session's tools do (Context.SessionTools).
	tools *toolVocab
	// learnedBytes: the bytes the learned scorer has read.
	learnedBytes int
	// joined: the text scanned is a reading (reading.flush).
	joined bool
	// unredactable: the highest score of a reading (reading.flush).
	unredactable float64
}

// toolNeutral rules are how tool descriptions normally talk ("call this
// tool after…", "the assistant should…", "read the file"); they are not
// evidence of poisoning there.
var toolNeutral = map[string]bool{"tool-invocation": true, "imperative-system": true, "task-request": true,
	"user-manipulation": true, "output-directive": true, "task-shift": true, "model-order": true}

// toolPoison rules have no honest reading in a tool's definition: a tool
// has no reason to keep something from the user, to have the model send
// data to an address of its choosing, to tell it to set aside its
// instructions or the user's request, to speak with a chat role's voice,
// to ask the model, by name, to send or share something with a
// recipient, or to hide an instruction from the user who reads it. A clear match withholds the tool.
var toolPoison = map[string]float64{"conceal-from-user": 0.5, "exfiltration": 0.5, "instruction-override": 0.5,
	"fake-role-tag": 0.5, "action-request": 0.6, "hidden-comment": 0.5, "hidden-text": 0.5}

func (s *Scanner) newState(ctx Context) *scanState {
	// The engine is built at the first scan; building it must not count
	// against that scan's time budget, or the first result would be cut
	// short and pass unscanned.
	s.engine()
	return &scanState{s: s, ctx: ctx, start: time.Now(), res: Result{Evidence: map[string]int{}}, tools: newToolVocab(ctx.SessionTools)}
}

// walk scans every string in a JSON document; prefix is the path of the
// string that held it, if any.
func (st *scanState) walk(data []byte, prefix string, depth int) error {
	var code map[int]bool
	if depth == 0 {
		code = codeResources(data)
		if holdsMedia(data) {
			st.truncate(BoundMedia)
		}
	}
	// Names and values are read apart: a sentence broken between two
	// fields reads whole without the name between its halves.
	names := reading{st: st, path: prefix + namesField, alone: true}
	values := reading{st: st, path: prefix + valuesField}
	err := walkJSONNames(data, func(_ *jsonPath, k string) { names.add(k) }, func(p *jsonPath, _ span, v string) bool {
		path := func() string {
			if prefix == "" {
				return p.String()
			}
			return prefix + "/" + p.String()
		}
		isCode := len(code) > 0 && len(p.elems) == 4 && p.elems[0].key == "content" && code[p.elems[1].index] && p.elems[3].key == "text"
		key := p.lastKey()
		st.scanString(v, path, key, depth, isCode)
		if !isCode && (key != "type" || strings.IndexByte(v, ' ') >= 0) {
			// A content item's type ("text") is a label, not a word
			// between the item before and the one after; source code is
			// read as code, alone.
			values.addEdges(v)
		}
		return true
	})
	if err == nil {
		names.flush()
		values.flush()
	}
	return err
}

// A model reads a JSON document whole: its member names, and a sentence
// cut into one-word strings or broken between two fields or two content
// items, as surely as one string (found by red teams: an order written
// as a member name, as an array of words, or cut in two at a word
// between two text items, passed unscanned). A reading joins a
// document's member names, or its strings, in order, and is scanned as
// one more text, a chunk at a time. Of a long string it takes only the
// ends, where a sentence cut at its edge lies: the rest was read alone,
// and the reading's work stays a few hundred bytes a string.
type reading struct {
	st   *scanState
	path string
	// alone: each part is read nowhere else, so one part is worth a scan.
	alone bool
	b     []byte
	parts int
	// open: the last part goes on; the next string's first sentence
	// may finish its sentence.
	open bool
}

// namesField and valuesField name readings in detections. Neither is a
// path in the document, so a redaction of one fails and the result is
// quarantined rather than passed unmarked.
const (
	namesField  = "{member names, read together}"
	valuesField = "{strings, read together}"
)

const (
	// readingShort is the longest string a reading takes whole: of a
	// longer one it takes readingEdge bytes at each end.
	readingShort = 64
	readingEdge  = 256
	// readingChunk bounds a reading before it is scanned; the next
	// chunk starts with the end of the last, so that no sentence of up
	// to readingOverlap bytes is cut in two.
	readingChunk   = 16 << 10
	readingOverlap = 256
)

// addEdges adds s, or of a long s what a sentence cut at its edges
// may hold: its first sentence when the part before goes on into it (in
// lower case, or a script without case), and
// its last when it goes on into the next, each at most readingEdge bytes
// (a paragraph apart when both). The rest was read alone. A long string
// that is a JSON document is read by its own strings instead.
func (rd *reading) addEdges(s string) {
	// A string that opens in capitals, or on markup or a number, after
	// one that goes on starts a sentence of its own, as the reading
	// itself would read it.
	first, _ := utf8.DecodeRuneInString(strings.TrimLeft(s, " \t\r\n"))
	open := rd.open && unicode.IsLetter(first) && !unicode.IsUpper(first)
	rd.open = goesOn(s)
	switch {
	case len(s) <= readingShort:
		rd.add(s)
		return
	case looksLikeJSON(s):
		rd.open = false
		return
	case open && rd.open && len(s) <= 2*readingEdge:
		rd.add(s)
		return
	}
	var head, tail string
	if open {
		head = firstSentence(s)
	}
	if rd.open {
		tail = lastSentence(s)
	}
	switch {
	case head != "" && tail != "":
		rd.add(head, tail)
	case head != "":
		rd.add(head)
	case tail != "":
		rd.add(tail)
	}
}

// goesOn reports whether s ends mid-sentence: on a letter, or a comma,
// colon or dash that announces more. A string that ends on a full stop,
// a digit or markup ("</div>", "}") ends what it says.
func goesOn(s string) bool {
	s = strings.TrimRight(s, " \t\r\n")
	r, _ := utf8.DecodeLastRuneInString(s)
	return unicode.IsLetter(r) || r == ',' || r == ':' || r == '-' || r == '—'
}

// firstSentence is s up to its first sentence end, or its first
// readingEdge bytes cut at a space.
func firstSentence(s string) string {
	s = cutRunes(s, readingEdge)
	for i := 0; i+1 < len(s); i++ {
		if (s[i] == '.' || s[i] == '!' || s[i] == '?' || s[i] == '\n') && (s[i+1] == ' ' || s[i+1] == '\n') {
			return s[:i+1]
		}
	}
	if i := strings.LastIndexByte(s, ' '); i > 0 && len(s) == readingEdge {
		return s[:i]
	}
	return s
}

// lastSentence is s after its last sentence end, or its last
// readingEdge bytes from a space.
func lastSentence(s string) string {
	from := len(s) - readingEdge
	if from > 0 {
		for from < len(s) && !utf8.RuneStart(s[from]) {
			from++
		}
		if i := strings.IndexByte(s[from:], ' '); i >= 0 {
			from += i + 1
		}
	}
	from = max(from, 0)
	for i := len(s) - 2; i > from; i-- {
		if (s[i] == '.' || s[i] == '!' || s[i] == '?' || s[i] == '\n') && (s[i+1] == ' ' || s[i+1] == '\n') {
			return s[i+2:]
		}
	}
	return s[from:]
}

// add adds s, and the parts after it, each on a line after a blank one.
func (rd *reading) add(s string, more ...string) {
	n := len(s)
	for _, m := range more {
		n += 2 + len(m)
	}
	if len(rd.b)+n > readingChunk {
		rd.flush()
		if len(rd.b) > readingOverlap {
			rd.b = append(rd.b[:0], rd.b[len(rd.b)-readingOverlap:]...)
		}
		// The end kept is a part the next one may go on from.
		rd.parts = min(len(rd.b), 1)
	}
	if len(rd.b) > 0 {
		// A line each: the text reads a line that goes on in lower case
		// as the sentence before going on, and a new one as a new one.
		rd.b = append(rd.b, '\n')
	}
	rd.b = append(rd.b, s...)
	for _, m := range more {
		rd.b = append(rd.b, "\n\n"...)
		rd.b = append(rd.b, m...)
	}
	rd.parts++
}

// flush scans the reading so far, unless it is one string scanned
// alone already.
//
// A reading is no string of the result, so it is not counted in the
// coverage, and its detections cannot be redacted: one that scores for
// redaction makes the result one to block (finish), not one that passes
// unmarked.
func (rd *reading) flush() {
	defer func() { rd.parts = 0 }()
	if (rd.alone || rd.parts > 1) && len(rd.b) >= minReading && !rd.st.stopped {
		st := rd.st
		cov, fields, from, score := st.res.Coverage, st.res.Evidence["fields"], len(st.res.Detections), st.res.Score
		st.res.Score = 0
		st.joined = true
		st.scanText(string(rd.b), rd.path, "", false)
		st.joined = false
		st.res.Coverage.Total, st.res.Coverage.Scanned, st.res.Evidence["fields"] = cov.Total, cov.Scanned, fields
		if st.res.Score <= score {
			// The strings read alone said as much: the reading adds
			// nothing, and the result stays as redactable as they left it.
			st.res.Score, st.res.Detections = score, st.res.Detections[:from]
			return
		}
		st.unredactable = max(st.unredactable, st.res.Score)
		for i := from; i < len(st.res.Detections); i++ {
			st.res.Detections[i].Redact = false
		}
	}
}

// minReading: fewer bytes cannot hold an order.
const minReading = 16

// minFieldBytes: shorter strings (ids, types, flags) cannot carry an
// instruction.
const minFieldBytes = 4

func (st *scanState) scanString(v string, path func() string, key string, depth int, codeField bool) {
	if len(v) < minFieldBytes {
		return
	}
	if st.stopped {
		// Past a bound a string is only counted: whole, without
		// parsing the JSON it may hold, which would double the cost.
		st.res.Coverage.Total += len(v)
		st.truncate(st.stopBy)
		return
	}
	if depth < maxDepth && looksLikeJSON(v) && json.Valid([]byte(v)) {
		if st.walk([]byte(v), path(), depth+1) == nil {
			return
		}
	}
	st.scanText(v, path(), key, codeField)
}

// codeResources returns the indexes of content items that are embedded
// resources holding source code, by MIME type or file name.
func codeResources(data []byte) map[int]bool {
	if !bytes.Contains(data, []byte(`"resource"`)) {
		return nil
	}
	var r struct {
		Content []struct {
			Resource *struct {
				URI      string `json:"uri"`
				MimeType string `json:"mimeType"`
			} `json:"resource"`
		} `json:"content"`
	}
	if json.Unmarshal(data, &r) != nil {
		return nil
	}
	out := map[int]bool{}
	for i, c := range r.Content {
		if c.Resource != nil && isCodeFile(c.Resource.MimeType, c.Resource.URI) {
			out[i] = true
		}
	}
	return out
}

// holdsMedia reports whether a result's content holds what the scan
// cannot read: an image, audio, or an embedded resource's binary blob.
// A model reads the text in an image as it reads a page (found by a red
// team: a screenshot from an external server passed unflagged and left
// the session untainted).
func holdsMedia(data []byte) bool {
	if !bytes.Contains(data, []byte(`"image"`)) && !bytes.Contains(data, []byte(`"audio"`)) && !bytes.Contains(data, []byte(`"blob"`)) {
		return false
	}
	var r struct {
		Content []struct {
			Type     string `json:"type"`
			Resource *struct {
				Blob string `json:"blob"`
			} `json:"resource"`
		} `json:"content"`
	}
	if json.Unmarshal(data, &r) != nil {
		return false
	}
	for _, c := range r.Content {
		if c.Type == "image" || c.Type == "audio" || c.Resource != nil && c.Resource.Blob != "" {
			return true
		}
	}
	return false
}

func isCodeFile(mime, uri string) bool {
	mime = strings.ToLower(mime)
	switch {
	case strings.HasPrefix(mime, "text/x-"), strings.HasPrefix(mime, "application/x-sh"),
		strings.Contains(mime, "javascript"), strings.Contains(mime, "typescript"), mime == "text/css",
		strings.HasPrefix(mime, "application/x-python"):
		return true
	}
	base := uri[strings.LastIndexByte(uri, '/')+1:]
	switch base {
	case "Makefile", "Dockerfile", "Containerfile", "Justfile", "Rakefile":
		return true
	}
	dot := strings.LastIndexByte(base, '.')
	if dot < 0 {
		return false
	}
	switch strings.ToLower(base[dot+1:]) {
	case "go", "py", "js", "mjs", "ts", "tsx", "jsx", "rs", "java", "kt", "c", "h", "cc", "cpp", "hpp", "cs", "rb",
		"php", "pl", "sh", "bash", "zsh", "ps1", "swift", "scala", "lua", "r", "sql", "css", "scss", "mk", "tf":
		return true
	}
	return false
}

func looksLikeJSON(v string) bool {
	t := strings.TrimSpace(v)
	return len(t) >= 2 && (t[0] == '{' && t[len(t)-1] == '}' || t[0] == '[' && t[len(t)-1] == ']')
}

func (st *scanState) scanText(v, path, key string, codeField bool) {
	o := &st.s.o
	cov := &st.res.Coverage
	cov.Total += len(v)
	if len(v) > o.MaxFieldBytes {
		v = cutRunes(v, o.MaxFieldBytes)
		st.truncate(BoundBytes)
		st.res.Evidence["truncated_fields"]++
	}
	if room := o.MaxMessageBytes - cov.Scanned; len(v) > room {
		v = cutRunes(v, room)
		st.truncate(BoundBytes)
		st.stop("message_bytes_exceeded", BoundBytes)
	}
	cov.Scanned += len(v)
	st.res.Evidence["fields"]++

	model := st.s.model
	if st.toolSchema || st.learnedBytes+len(v) > learnedMaxBytes {
		// A tool's description is written to the model by design; past
		// its share of a message the model would double the cost of
		// large results, which the rules cover alone.
		model = nil
	} else {
		st.learnedBytes += len(v)
	}
	finds, ev := st.s.engine().scan(v, 0, codeField, st.joined, st.tools, model)
	for k, n := range ev {
		st.res.Evidence[k] += n
	}
	if ev[cutEvidence] > 0 {
		st.truncate(BoundBudget)
	}
	kept := finds[:0]
	for _, fd := range finds {
		if st.toolSchema && (toolNeutral[fd.rule] || fd.rule == "ai-addressee" && fd.sev < 0.3 || guardsAgainstData(v, fd)) {
			continue
		}
		if min, ok := toolPoison[fd.rule]; ok && st.toolSchema && fd.sev >= min {
			fd.sev = max(fd.sev, 0.9)
		}
		if w := st.waived(fd.rule); w {
			st.res.Waived = append(st.res.Waived, detection(fd, path, false))
			st.res.Evidence["waived"]++
			continue
		}
		kept = append(kept, fd)
	}
	kept = st.waiveLearned(kept, path)
	sort.SliceStable(kept, func(i, j int) bool { return kept[i].start < kept[j].start })
	score := st.s.fieldScore(kept, st.ctx, freeTextKeys[strings.ToLower(key)])
	st.res.Score = max(st.res.Score, score)
	for _, fd := range kept {
		st.res.Detections = append(st.res.Detections, detection(fd, path, score >= o.Thresholds.Flag))
	}
	// A budget used up by the last string cuts nothing short: the result
	// is truncated only if a string follows.
	if time.Since(st.start) > o.TimeBudget {
		st.stop("time_budget_exceeded", BoundBudget)
	}
}

func (st *scanState) truncate(by Bound) {
	st.res.Truncated = true
	st.res.Coverage.Truncated = by
}

func (st *scanState) stop(why string, by Bound) {
	if !st.stopped {
		st.stopped, st.stopBy = true, by
		st.res.Evidence[why] = 1
	}
}

func (st *scanState) waived(rule string) bool {
	for _, w := range st.s.o.Waivers {
		if w.matches(st.ctx, rule) {
			return true
		}
	}
	return false
}

func detection(fd finding, path string, redact bool) Detection {
	return Detection{Rule: fd.rule, Tier: fd.tier, Severity: round3(fd.sev), Field: path, Start: fd.start, End: fd.end, Excerpt: fd.excerpt, Note: fd.note, Redact: redact}
}

func round3(f float64) float64 { return float64(int(f*1000+0.5)) / 1000 }

func (st *scanState) finish() Result {
	st.res.Score = round3(st.res.Score)
	st.res.Action = st.s.o.Thresholds.action(st.res.Score)
	if st.res.Action == ActionRedact && st.unredactable >= st.s.o.Thresholds.Redact {
		st.res.Action = ActionBlock
	}
	return st.res
}

// freeTextKeys name fields that hold prose written by whoever produced
// the content: where an instruction to a model has no business.
var freeTextKeys = map[string]bool{
	"text": true, "description": true, "body": true, "content": true, "comment": true, "comments": true,
	"message": true, "summary": true, "snippet": true, "notes": true, "note": true, "details": true,
	"html": true, "markdown": true, "bio": true, "about": true, "subject": true, "caption": true,
	"review": true, "title": true, "excerpt": true, "readme": true, "value": true, "location": true,
}

func lastKeyOf(field string) string {
	if i := strings.LastIndexAny(field, "./"); i >= 0 {
		return field[i+1:]
	}
	return field
}

// cutRunes shortens s to at most n bytes without splitting a rune.
func cutRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// fieldScore combines one field's findings. Within a tier the strongest
// rule counts fully and each other rule adds 30% of its severity (15% for
// weak ones, below 0.25), at most +0.2 in all: corroboration, not
// accumulation. The tiers, weighted, combine as
// independent evidence (1 - (1-S)(1-C)), so that agreement between markup
// and meaning raises the score. The source and the field then multiply.
func (s *Scanner) fieldScore(finds []finding, ctx Context, freeText bool) float64 {
	if len(finds) == 0 {
		return 0
	}
	perRule := map[string]float64{}
	tierOf := map[string]Tier{}
	learnedP := 0.0
	allShown := true
	for _, fd := range finds {
		if fd.rule == learnedRule {
			learnedP = max(learnedP, fd.sev)
			continue
		}
		allShown = allShown && fd.shown
		perRule[fd.rule] = max(perRule[fd.rule], fd.sev)
		tierOf[fd.rule] = fd.tier
	}
	var sevs [2][]float64
	for r, v := range perRule {
		i := 0
		if tierOf[r] == Contextual {
			i = 1
		}
		sevs[i] = append(sevs[i], v)
	}
	tier := func(v []float64) float64 {
		if len(v) == 0 {
			return 0
		}
		sort.Sort(sort.Reverse(sort.Float64Slice(v)))
		bonus := 0.0
		for _, x := range v[1:] {
			if x < 0.25 {
				bonus += 0.15 * x // weak signals barely move each other
				continue
			}
			bonus += 0.3 * x
		}
		return min(1, v[0]+min(0.2, bonus))
	}
	st := min(1, s.o.StructuralWeight*tier(sevs[0]))
	ct := min(1, s.o.ContextualWeight*tier(sevs[1]))
	score := 1 - (1-st)*(1-ct)
	mult := 1.0
	if ctx.ExternalSource {
		mult += s.o.ExternalBoost
	}
	if freeText {
		mult += s.o.FreeTextBoost
	}
	score = min(1, score*mult)
	if allShown {
		// A text that only quotes (a write-up, a review, a test's
		// fixture) may quote several shapes of attack at once; what it
		// shows is worth a notice, never its redaction (issue #16).
		score = min(score, s.o.Thresholds.Redact-0.01)
	}
	return s.withLearned(score, learnedP)
}

// String summarises a result for logs.
func (r Result) String() string {
	rules := map[string]bool{}
	var names []string
	for _, d := range r.Detections {
		if !rules[d.Rule] {
			rules[d.Rule] = true
			names = append(names, d.Rule)
		}
	}
	return fmt.Sprintf("%s %.2f [%s]", r.Action, r.Score, strings.Join(names, " "))
}
