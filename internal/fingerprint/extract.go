package fingerprint

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash/maphash"
	"math/bits"
	"slices"
	"unicode"

	"github.com/flowd-dev/flowd/internal/jsontext"
)

// What Add records and Match looks up is the same for both sides, so one
// extractor serves both. It splits content into:
//   - units, hashed whole: the content itself and every JSON string value
//     (also the values of JSON documents found inside string values), each
//     with a raw hash and a normalised hash. A JSON document's normalised
//     hash is structural — member order and insignificant whitespace do not
//     change it, and its strings count in normalised form — so re-serialising
//     JSON does not hide it.
//   - texts, fingerprinted by windows: the normalised string values that are
//     not themselves JSON documents, or the whole content when it is not JSON.
//
// JSON keys, punctuation, numbers and literals are never fingerprinted: they
// are the boilerplate every tool result shares (the MCP result envelope
// {"content":[{"type":"text","text":…}],"isError":false} contributes nothing
// but its text).

var (
	errTruncated = errors.New("json ends early")
	errSyntax    = errors.New("not json")
)

const (
	maxNest  = 3   // JSON inside a string inside JSON…, levels examined
	maxDepth = 512 // nested arrays and objects before giving up on JSON
)

type span struct{ off, end int }

type unit struct {
	raw      []byte // nil when let go; then sum is its SHA-256/128
	n        int    // its length
	sum      [16]byte
	rawHash  uint64
	normHash uint64
	whole    bool
}

// hash is the hex SHA-256/128 of the unit's string, as Match reports it.
func (u *unit) hash() string {
	if u.raw == nil {
		return hex.EncodeToString(u.sum[:])
	}
	sum := sha256.Sum256(u.raw)
	return hex.EncodeToString(sum[:16])
}

type pendingUnit struct {
	raw      span // in dec, or the whole content when whole
	normHash uint64
	whole    bool
	// let: the string's bytes were let go once hashed (retainBudget);
	// the unit is complete.
	let  bool
	unit unit
}

// retainBudget is how many decoded bytes of units an extraction keeps to
// hash on a match. Past it a unit is hashed at once and its bytes let go:
// a large message of many strings then needs no decoded copy of itself.
const retainBudget = 1 << 20

// spillChunk is how much of a long string's decoded text is normalised at
// a time, once it is known not to be a unit or a JSON document.
const spillChunk = 64 << 10

type extractor struct {
	minLen int
	// maxUnit is the longest string kept as a unit: a longer one cannot
	// equal an origin's (their content is cut at MaxHashBytes), so only
	// its normalised text is kept, and its decoded bytes are let go.
	maxUnit int
	seed    maphash.Seed

	dec      []byte // decoded string values
	retained int    // of dec, bytes held for units
	norm     []byte // normalised string values
	punit    []pendingUnit
	ptext    []span // in norm

	units []unit
	texts [][]byte

	// values, kept for Prepare, is every string of the top nesting level, keys
	// too, decoded and joined by newlines: what a secret scanner reads,
	// gathered by the parse that fingerprinting does anyway.
	keepValues bool
	// afterKey: the last string kept in values was a member's name, so
	// the next is joined to it as "name: value" (see flow.Text).
	afterKey bool
	values   []byte
	parsed   bool // the content was one JSON document, read whole

	// work counts what run did, in bytes read, decoded, normalised or
	// hashed: a measure of its cost that does not depend on the clock.
	work int
}

// run extracts units and texts from content; they stay valid until the next
// run.
func (x *extractor) run(content []byte) {
	x.dec, x.norm = x.dec[:0], x.norm[:0]
	x.punit, x.ptext = x.punit[:0], x.ptext[:0]
	x.units, x.texts = x.units[:0], x.texts[:0]
	x.values, x.parsed, x.retained, x.afterKey = x.values[:0], false, 0, false
	x.work = len(content)
	// Normalising never lengthens text, but for the odd character whose
	// lower case is longer: sized once, the buffer does not leave a trail
	// of outgrown copies behind a large message. Decoded text is held
	// only in part (retainBudget, spill).
	x.norm = slices.Grow(x.norm, len(content))

	whole := bytes.TrimSpace(content)
	done := false
	if looksLikeDoc(whole) {
		h, err := x.parse(whole, 0)
		switch err {
		case nil:
			x.punit = append(x.punit, pendingUnit{normHash: h, whole: true})
			done, x.parsed = true, true
		case errTruncated:
			// Cut at the hashing limit: keep the values seen so far. A cut
			// document equals nothing a caller could send back whole.
			done = true
		default:
			x.dec, x.norm = x.dec[:0], x.norm[:0]
			x.punit, x.ptext = x.punit[:0], x.ptext[:0]
		}
	}
	if !done {
		off := len(x.norm)
		x.work += 2 * len(whole) // normalised and hashed
		x.norm = normalize(x.norm, whole)
		x.ptext = append(x.ptext, span{off, len(x.norm)})
		x.punit = append(x.punit, pendingUnit{normHash: maphash.Bytes(x.seed, x.norm[off:]), whole: true})
	}

	for _, s := range x.ptext {
		x.texts = append(x.texts, x.norm[s.off:s.end])
	}
	for _, p := range x.punit {
		if p.let {
			x.units = append(x.units, p.unit)
			continue
		}
		raw := whole
		if !p.whole {
			raw = x.dec[p.raw.off:p.raw.end]
		}
		if len(raw) < x.minLen || !informative(raw) {
			continue
		}
		x.work += len(raw)
		x.units = append(x.units, unit{raw: raw, n: len(raw), rawHash: maphash.Bytes(x.seed, raw), normHash: p.normHash, whole: p.whole})
	}
}

func looksLikeDoc(s []byte) bool { return len(s) > 0 && (s[0] == '{' || s[0] == '[') }

type parser struct {
	x     *extractor
	s     []byte
	i     int
	nest  int
	depth int
	// spill says what may happen to the string being decoded: held whole
	// (keys; documents to parse), or normalised as it is decoded once
	// too long to be a unit (from noff in norm).
	spill spillState
	noff  int
}

type spillState uint8

const (
	holdWhole spillState = iota
	spillable            // a string value: undecided until it is long
	spilling
)

// parse reads s as one JSON value and returns its structural hash, adding
// its long string values as units and texts. errTruncated means s is a
// prefix of JSON; the values before the cut are kept.
func (x *extractor) parse(s []byte, nest int) (uint64, error) {
	// A document nested in a string is read again, up to maxNest deep.
	x.work += len(s)
	p := parser{x: x, s: s, nest: nest}
	h, err := p.value()
	if err != nil {
		return 0, err
	}
	p.space()
	if p.i != len(s) {
		return 0, errSyntax
	}
	return h, nil
}

func (p *parser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// Tags keep values of different JSON types apart in structural hashes.
const (
	tagObject uint64 = 0x6a09e667f3bcc908
	tagArray  uint64 = 0xbb67ae8584caa73b
	tagNumber uint64 = 0x3c6ef372fe94f82b
	tagTrue   uint64 = 0xa54ff53a5f1d36f1
	tagFalse  uint64 = 0x510e527fade682d1
	tagNull   uint64 = 0x9b05688c2b3e6c1f
)

func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

func (p *parser) value() (uint64, error) {
	p.space()
	if p.i >= len(p.s) {
		return 0, errTruncated
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		return p.stringValue()
	case c == '-' || ('0' <= c && c <= '9'):
		start := p.i
		for p.i < len(p.s) && isNumberByte(p.s[p.i]) {
			p.i++
		}
		return maphash.Bytes(p.x.seed, p.s[start:p.i]) ^ tagNumber, nil
	case c == 't':
		return tagTrue, p.literal("true")
	case c == 'f':
		return tagFalse, p.literal("false")
	case c == 'n':
		return tagNull, p.literal("null")
	}
	return 0, errSyntax
}

func isNumberByte(c byte) bool {
	return ('0' <= c && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

func (p *parser) literal(word string) error {
	rest := p.s[p.i:]
	if len(rest) < len(word) {
		if string(rest) == word[:len(rest)] {
			return errTruncated
		}
		return errSyntax
	}
	if string(rest[:len(word)]) != word {
		return errSyntax
	}
	p.i += len(word)
	return nil
}

// stringValue decodes a string value and returns its hash: the structural
// hash if it holds a JSON document, else the hash of its normalised text.
// Values long enough to ever count as evidence become units, and texts.
func (p *parser) stringValue() (uint64, error) {
	x := p.x
	off := len(x.dec)
	p.spill = spillable
	err := p.str()
	spilled := p.spill == spilling
	p.spill = holdWhole
	if spilled {
		// Too long to be a unit: only its normalised text is kept.
		x.work += 2 * len(x.dec[off:])
		x.norm = normalize(x.norm, x.dec[off:])
		x.dec = x.dec[:off]
		x.ptext = append(x.ptext, span{p.noff, len(x.norm)})
		return maphash.Bytes(x.seed, x.norm[p.noff:]), err
	}
	v := x.dec[off:]
	tv := bytes.TrimSpace(v)
	long := len(tv) >= x.minLen
	if err == nil && p.nest < maxNest && looksLikeDoc(tv) {
		nUnits, nTexts, nNorm, nRetained := len(x.punit), len(x.ptext), len(x.norm), x.retained
		if h, err := x.parse(tv, p.nest+1); err == nil {
			if long {
				x.punit = append(x.punit, pendingUnit{raw: span{off, off + len(v)}, normHash: h})
			}
			return h, nil
		}
		x.punit, x.ptext, x.norm, x.retained = x.punit[:nUnits], x.ptext[:nTexts], x.norm[:nNorm], nRetained
		// The nested parse appended after v; v itself is unchanged.
		x.dec = x.dec[:off+len(v)]
	}
	noff := len(x.norm)
	x.work += 2 * len(v) // normalised and hashed
	x.norm = normalize(x.norm, v)
	h := maphash.Bytes(x.seed, x.norm[noff:])
	if !long {
		x.dec, x.norm = x.dec[:off], x.norm[:noff]
		return h, err
	}
	x.ptext = append(x.ptext, span{noff, len(x.norm)})
	switch {
	case len(v) > x.maxUnit:
		x.dec = x.dec[:off]
	case x.retained+len(v) > retainBudget:
		if len(v) >= x.minLen && informative(v) {
			x.work += 2 * len(v)
			sum := sha256.Sum256(v)
			x.punit = append(x.punit, pendingUnit{let: true, unit: unit{n: len(v), sum: [16]byte(sum[:16]),
				rawHash: maphash.Bytes(x.seed, v), normHash: h}})
		}
		x.dec = x.dec[:off]
	default:
		x.retained += len(v)
		x.punit = append(x.punit, pendingUnit{raw: span{off, len(x.dec)}, normHash: h})
	}
	return h, err
}

// spillSome normalises the decoded start of the string value at dec[off:]
// once it is longer than any unit, keeping only a tail that may hold a
// cut escape or character: a long value then costs its normalised text,
// not its decoded copy too. A value that may hold a JSON document is held
// whole, to be parsed.
func (p *parser) spillSome(off int) {
	x := p.x
	if p.spill == holdWhole || x.keepValues || len(x.dec)-off <= max(x.maxUnit, spillChunk) {
		return
	}
	if p.spill == spillable {
		t := bytes.TrimLeftFunc(x.dec[off:], unicode.IsSpace)
		if len(t) == 0 || p.nest < maxNest && looksLikeDoc(t) {
			p.spill = holdWhole
			return
		}
		p.spill, p.noff = spilling, len(x.norm)
	}
	var used int
	x.norm, used = normalizeSome(x.norm, x.dec[off:], false)
	x.work += used
	x.dec = x.dec[:off+copy(x.dec[off:], x.dec[off+used:])]
}

// object hashes members order-independently: a sum of member hashes.
func (p *parser) object() (uint64, error) {
	if p.depth++; p.depth > maxDepth {
		return 0, errSyntax
	}
	defer func() { p.depth-- }()
	x := p.x
	p.i++
	sum := tagObject
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return sum, nil
	}
	for {
		p.space()
		if p.i >= len(p.s) {
			return 0, errTruncated
		}
		if p.s[p.i] != '"' {
			return 0, errSyntax
		}
		off := len(x.dec)
		if err := p.str(); err != nil {
			return 0, err
		}
		x.afterKey = p.nest == 0
		key := maphash.Bytes(x.seed, x.dec[off:])
		x.dec = x.dec[:off] // keys are vocabulary, not data
		p.space()
		if p.i >= len(p.s) {
			return 0, errTruncated
		}
		if p.s[p.i] != ':' {
			return 0, errSyntax
		}
		p.i++
		v, err := p.value()
		if err != nil {
			return 0, err
		}
		sum += mix(key ^ bits.RotateLeft64(v, 31))
		p.space()
		if p.i >= len(p.s) {
			return 0, errTruncated
		}
		c := p.s[p.i]
		p.i++
		if c == '}' {
			return mix(sum), nil
		}
		if c != ',' {
			return 0, errSyntax
		}
	}
}

func (p *parser) array() (uint64, error) {
	if p.depth++; p.depth > maxDepth {
		return 0, errSyntax
	}
	defer func() { p.depth-- }()
	p.i++
	h := tagArray
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return h, nil
	}
	for {
		v, err := p.value()
		if err != nil {
			return 0, err
		}
		h = mix(h*0x100000001b3 + v)
		p.space()
		if p.i >= len(p.s) {
			return 0, errTruncated
		}
		c := p.s[p.i]
		p.i++
		if c == ']' {
			return h, nil
		}
		if c != ',' {
			return 0, errSyntax
		}
	}
}

// str decodes the JSON string at p.i into x.dec. On errTruncated the part
// before the cut has been decoded.
func (p *parser) str() error {
	x := p.x
	off := len(x.dec)
	err := p.decode()
	if x.keepValues && p.nest == 0 {
		switch {
		case x.afterKey:
			// "api_key: value": a detector reads a member with its name.
			x.values = append(x.values, ':', ' ')
		case len(x.values) > 0:
			x.values = append(x.values, '\n')
		}
		x.values = append(x.values, x.dec[off:]...)
		x.afterKey = false
	}
	return err
}

func (p *parser) decode() error {
	x, s := p.x, p.s
	off := len(x.dec)
	p.i++
	quote := -1
	for {
		p.spillSome(off)
		if quote < p.i {
			q := bytes.IndexByte(s[p.i:], '"')
			if q < 0 {
				quote = len(s)
			} else {
				quote = p.i + q
			}
		}
		b := bytes.IndexByte(s[p.i:quote], '\\')
		if b < 0 {
			p.emit(off, s[p.i:quote])
			if quote == len(s) {
				p.i = len(s)
				return errTruncated
			}
			p.i = quote + 1
			return nil
		}
		p.emit(off, s[p.i:p.i+b])
		p.i += b
		if p.i+1 >= len(s) {
			p.i = len(s)
			return errTruncated
		}
		if s[p.i+1] == 'u' && len(s)-p.i < 6 {
			p.i = len(s)
			return errTruncated
		}
		var n int
		if x.dec, n = jsontext.AppendEscape(x.dec, s[p.i:]); n == 0 {
			return errSyntax
		}
		if e := s[p.i+1]; e == 'b' || e == 'f' {
			// Spaces, as flow's text of a call reads them: a secret
			// scanner must see the break.
			x.dec[len(x.dec)-1] = ' '
		}
		p.i += n
	}
}

// emit appends a run of a string being decoded at dec[off:], a chunk at a
// time so that a long run can be spilled as it goes.
func (p *parser) emit(off int, run []byte) {
	for len(run) > 0 {
		n := min(len(run), spillChunk)
		p.x.dec = append(p.x.dec, run[:n]...)
		run = run[n:]
		p.spillSome(off)
	}
}
