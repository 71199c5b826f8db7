package flow

import "strings"

// Short high-value values: a one-time code, an account or passport
// number, an e-mail address or a phone number is too short for a
// fingerprint (MinLength) and shaped like no secret, yet read from the
// user's own data and re-typed into a call to an outside party it is the
// leak. A session keeps the distinctive values of its private results
// (valueIndex) and looks for them, in canonical form, in what it sends.
// Values the agent sent before it read them (the account number it
// searched for, echoed in the result) are the user's or the agent's own,
// and are not flows.

// Value kinds, in order of how sure a match makes flowd that private data
// is leaving: a long number or an id document number turns up by chance
// far less often than a six-digit code or an address.
const (
	ValueCode   = "code"   // 6–7 digits: one-time codes, PINs, short account numbers
	ValueNumber = "number" // 8–19 digits: account, customer and card-like numbers
	ValueID     = "id"     // letters and digits: passport, licence, national ID numbers
	ValueEmail  = "email"
	ValuePhone  = "phone"
)

// valueRisk is the risk of a value leaving, by kind: how sure flowd is.
var valueRisk = map[string]string{ValueNumber: RiskHigh, ValueID: RiskHigh, ValueCode: RiskMedium, ValueEmail: RiskMedium, ValuePhone: RiskMedium}

// shortValue is one value found in a text, in canonical form (digits only
// for numbers and phones, upper case for ids, lower case for e-mail).
type shortValue struct {
	kind, canon string
}

// maxValuesPerText bounds what one text contributes.
const maxValuesPerText = 256

// shortValues returns the distinctive short values of text.
func shortValues(text string) []shortValue {
	var out []shortValue
	for i := 0; i < len(text) && len(out) < maxValuesPerText; {
		c := text[i]
		switch {
		case c == '@':
			if v, ok := emailAt(text, i); ok {
				out = append(out, v)
			}
			i++
		case c == '+' || isDigit(c) || c == '(':
			if i > 0 && (isWordByte(text[i-1]) || text[i-1] == '.' || text[i-1] == '/' || text[i-1] == '-' || text[i-1] == ':') {
				i++
				continue
			}
			end, v, ok := numberAt(text, i)
			if ok {
				out = append(out, v)
			}
			i = max(end, i+1)
		case isUpper(c) && (i == 0 || !isWordByte(text[i-1])):
			j := i
			for j < len(text) && (isUpper(text[j]) || isDigit(text[j])) {
				j++
			}
			if v, ok := idValue(text, i, j); ok {
				out = append(out, v)
			}
			i = j
		default:
			i++
		}
	}
	return out
}

func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isUpper(c byte) bool    { return c >= 'A' && c <= 'Z' }
func isWordByte(c byte) bool { return isDigit(c) || isUpper(c) || c >= 'a' && c <= 'z' || c == '_' }

// numberAt reads a number starting at text[i]: digits, perhaps grouped by
// single spaces, dashes or dots, perhaps a phone number with a leading +
// or an area code in parentheses.
func numberAt(text string, i int) (end int, v shortValue, ok bool) {
	var digits [24]byte
	n, j := 0, i
	plus := text[i] == '+'
	paren := false
	if plus || text[i] == '(' {
		j++
		paren = text[i] == '('
	}
	seps, sep := 0, byte(0)
	for j < len(text) {
		c := text[j]
		switch {
		case isDigit(c):
			if n < len(digits) {
				digits[n] = c
			}
			n++
			j++
			continue
		case c == ')' && paren:
			paren = false
			j++
			if j < len(text) && text[j] == ' ' {
				j++
			}
			continue
		case (c == ' ' || c == '-' || c == '.') && j+1 < len(text) && isDigit(text[j+1]) && n > 0:
			if sep != 0 && c != sep && !plus {
				break
			}
			sep = c
			seps++
			j++
			continue
		}
		break
	}
	end = j
	if j < len(text) && (isWordByte(text[j]) || text[j] == '@') || n < 6 || n > 19 {
		return end, v, false
	}
	d := string(digits[:min(n, len(digits))])
	if sep == '.' && !plus && n < 10 {
		return end, v, false // a version or a decimal, not a number someone types
	}
	switch {
	case plus && n >= 8 && n <= 15, text[i] == '(' && n == 10:
		return end, shortValue{ValuePhone, d}, true
	case common(d):
		return end, v, false
	case n <= 7:
		if seps > 1 {
			return end, v, false // 12 34 56: a list of small numbers
		}
		return end, shortValue{ValueCode, d}, true
	}
	if n == 10 && seps == 2 && sep != '.' {
		return end, shortValue{ValuePhone, d}, true // 555-867-5309
	}
	if dateLike(d) || timestampLike(d) {
		return end, v, false
	}
	return end, shortValue{ValueNumber, d}, true
}

// common: numbers anyone types without reading them anywhere: one digit
// repeated, counting runs, round numbers.
func common(d string) bool {
	same, up, down := true, true, true
	for k := 1; k < len(d); k++ {
		same = same && d[k] == d[0]
		up = up && d[k] == d[k-1]+1
		down = down && d[k]+1 == d[k-1]
	}
	zeros := len(d) - len(strings.TrimRight(d, "0"))
	return same || up || down || zeros*2 >= len(d)
}

// dateLike: YYYYMMDD or DDMMYYYY, possibly with a time after it.
func dateLike(d string) bool {
	year := func(s string) bool { return s >= "1900" && s <= "2099" }
	month := func(s string) bool { return s >= "01" && s <= "12" }
	day := func(s string) bool { return s >= "01" && s <= "31" }
	if len(d) >= 8 && year(d[:4]) && month(d[4:6]) && day(d[6:8]) {
		return true
	}
	return len(d) == 8 && day(d[:2]) && month(d[2:4]) && year(d[4:])
}

// timestampLike: Unix time in seconds or milliseconds (2001–2033).
func timestampLike(d string) bool {
	return (len(d) == 10 || len(d) == 13) && d[0] == '1'
}

// idValue judges text[i:j], a run of capitals and digits, as an id
// document or account number: at least seven characters, at least five
// digits and a letter (X12345678, AB1234567C).
func idValue(text string, i, j int) (shortValue, bool) {
	if j-i < 7 || j-i > 20 || j < len(text) && isWordByte(text[j]) {
		return shortValue{}, false
	}
	digits, letters := 0, 0
	for k := i; k < j; k++ {
		if isDigit(text[k]) {
			digits++
		} else {
			letters++
		}
	}
	if digits < 5 || letters == 0 || common(strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, text[i:j])) {
		return shortValue{}, false
	}
	return shortValue{ValueID, text[i:j]}, true
}

// emailAt reads the e-mail address around the '@' at text[at].
func emailAt(text string, at int) (shortValue, bool) {
	s := at
	for s > 0 && at-s < 64 && (isWordByte(text[s-1]) || strings.IndexByte(".+-", text[s-1]) >= 0 || text[s-1] >= 'a' && text[s-1] <= 'z') {
		s--
	}
	e := at + 1
	for e < len(text) && e-at < 255 && (isWordByte(text[e]) || text[e] == '.' || text[e] == '-') {
		e++
	}
	for e > at+1 && text[e-1] == '.' {
		e--
	}
	if s == at || !strings.Contains(text[at+1:e], ".") {
		return shortValue{}, false
	}
	return shortValue{ValueEmail, strings.ToLower(text[s:e])}, true
}

// maxValues bounds the short values a session keeps; the oldest go first.
const maxValues = 20000

// valueBytesEach estimates a kept value's memory: the string, its map
// entries and its place in the order.
const valueBytesEach = 96

// valueIndex is a session's short values: those its private results held
// (read) and those its calls sent (typed). The zero value is empty.
type valueIndex struct {
	read  map[string]valueSrc
	typed map[string]bool
	order []string // read and typed keys, oldest first, for eviction
}

type valueSrc struct {
	origin uint64
	kind   string
}

// sentValue is a value of a private result found in a call.
type sentValue struct {
	valueSrc
	canon string
}

func (x *valueIndex) forget() { *x = valueIndex{} }

func (x *valueIndex) size() int { return len(x.order) * valueBytesEach }

// addRead keeps the values of a private result, except those the session
// sent before: the agent typed them first.
func (x *valueIndex) addRead(origin uint64, vs []shortValue) {
	if x.read == nil {
		x.read = map[string]valueSrc{}
	}
	for _, v := range vs {
		if x.typed[v.canon] {
			continue
		}
		if _, ok := x.read[v.canon]; !ok {
			x.keep("r" + v.canon)
		}
		x.read[v.canon] = valueSrc{origin: origin, kind: v.kind}
	}
}

// sent returns the values of a call that private results held, and notes
// all of the call's values as typed. A lone e-mail address or phone
// number may be the recipient the call is for; two or more are a list
// leaving.
func (x *valueIndex) sent(vs []shortValue) []sentValue {
	var out []sentValue
	contacts := 0
	seen := map[string]bool{}
	for _, v := range vs {
		if seen[v.canon] {
			continue
		}
		seen[v.canon] = true
		if src, ok := x.read[v.canon]; ok {
			out = append(out, sentValue{src, v.canon})
			if src.kind == ValueEmail || src.kind == ValuePhone {
				contacts++
			}
		}
	}
	if contacts == 1 {
		out = slicesDeleteContacts(out)
	}
	if x.typed == nil {
		x.typed = map[string]bool{}
	}
	for c := range seen {
		if !x.typed[c] {
			x.typed[c] = true
			x.keep("t" + c)
		}
	}
	return out
}

func slicesDeleteContacts(vs []sentValue) []sentValue {
	out := vs[:0]
	for _, v := range vs {
		if v.kind != ValueEmail && v.kind != ValuePhone {
			out = append(out, v)
		}
	}
	return out
}

// keep records a key in the eviction order and evicts past maxValues.
func (x *valueIndex) keep(key string) {
	x.order = append(x.order, key)
	for len(x.order) > maxValues {
		old := x.order[0]
		x.order = x.order[1:]
		if old[0] == 'r' {
			delete(x.read, old[1:])
		} else {
			delete(x.typed, old[1:])
		}
	}
}
