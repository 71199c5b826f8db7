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
	// ValueAddress is a street address: a house number, a street name
	// and a street type (742 Evergreen Terrace), kept in one spelling of
	// the type (742 evergreen ter).
	ValueAddress = "address"
)

// valueRisk is the risk of a value leaving, by kind: how sure flowd is.
var valueRisk = map[string]string{ValueNumber: RiskHigh, ValueID: RiskHigh, ValueCode: RiskMedium, ValueEmail: RiskMedium,
	ValuePhone: RiskMedium, ValueAddress: RiskMedium}

// shortValue is one value found in a text, in canonical form (digits only
// for numbers and phones, upper case for ids, lower case for e-mail).
type shortValue struct {
	kind, canon string
}

// maxValuesPerText bounds what one text contributes.
const maxValuesPerText = 256

// shortValues returns the distinctive short values of text: of a result
// read, as written (an id in capitals); of a call, as re-typed too (an id
// in any case), since only what a result held is looked for there.
func shortValues(text string, sending bool) []shortValue {
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
			if !ok && isDigit(c) {
				end, v, ok = addressAt(text, i, sending)
			}
			if ok {
				out = append(out, v)
			}
			i = max(end, i+1)
		case (isUpper(c) || sending && isLower(c)) && (i == 0 || !isWordByte(text[i-1])):
			j, v, ok := idAt(text, i, sending)
			if ok {
				out = append(out, v)
			}
			i = max(j, i+1)
		default:
			i++
		}
	}
	return out
}

func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isLower(c byte) bool    { return c >= 'a' && c <= 'z' }
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
		if seps > 1 && !labelled(text, i) {
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

// labelled: the number at text[i] follows a label that makes it one value
// however it is grouped ("code: 60 41 93", "your PIN is 48 21 07").
func labelled(text string, i int) bool {
	k := i
	for k > 0 && text[k-1] == ' ' {
		k--
	}
	if k > 0 && (text[k-1] == ':' || text[k-1] == '#') {
		return true
	}
	w := k
	for w > 0 && k-w < 12 && (isLower(text[w-1]) || isUpper(text[w-1])) {
		w--
	}
	switch strings.ToLower(text[w:k]) {
	case "is", "code", "pin", "otp", "passcode", "number", "no":
		return true
	}
	return false
}

// idAt reads an id document or account number starting at text[i]: a run
// of capitals and digits (of any case when anyCase), perhaps in groups of
// at most four split by single spaces or dashes (an IBAN as printed, "AB
// 12 34 56 C"), judged whole: 7 to 34 characters, at least five digits
// and a letter (X12345678, DE44500105175407324931). Its canonical form
// is upper case without the separators.
func idAt(text string, i int, anyCase bool) (int, shortValue, bool) {
	isID := func(c byte) bool { return isUpper(c) || isDigit(c) || anyCase && isLower(c) }
	group := func(k int) int {
		for k < len(text) && isID(text[k]) {
			k++
		}
		return k
	}
	first := group(i)
	j := first
	if j-i <= 2 || j-i <= 4 && strings.IndexFunc(text[i:j], func(r rune) bool { return r >= '0' && r <= '9' }) >= 0 {
		// A short first group (of letters, two at most: "AB 12 34 56 C",
		// not "IBAN DE44 …") may be followed by more: each of one to
		// four characters, with a digit, or the last of letters only (C).
		sep := byte(0)
		for j+1 < len(text) && (text[j] == ' ' || text[j] == '-') && (sep == 0 || text[j] == sep) && isID(text[j+1]) {
			e := group(j + 1)
			digit := strings.IndexFunc(text[j+1:e], func(r rune) bool { return r >= '0' && r <= '9' }) >= 0
			if e-(j+1) > 4 || !digit && e-(j+1) > 2 {
				break
			}
			sep = text[j]
			j = e
			if !digit {
				break
			}
		}
	}
	if j < len(text) && isWordByte(text[j]) {
		return first, shortValue{}, false
	}
	// Counted before anything is built: most runs are words.
	digits, letters := 0, 0
	for k := i; k < j; k++ {
		switch c := text[k]; {
		case isDigit(c):
			digits++
		case isUpper(c), isLower(c):
			letters++
		}
	}
	if n := digits + letters; n < 7 || n > 34 || digits < 5 || letters == 0 {
		// What followed the first group is read again on its own.
		return first, shortValue{}, false
	}
	b := make([]byte, 0, digits+letters)
	ds := make([]byte, 0, digits)
	for k := i; k < j; k++ {
		switch c := text[k]; {
		case isDigit(c):
			ds = append(ds, c)
			b = append(b, c)
		case isUpper(c), isLower(c):
			b = append(b, c&^0x20)
		}
	}
	if common(string(ds)) {
		return first, shortValue{}, false
	}
	return j, shortValue{ValueID, string(b)}, true
}

// streetTypes are the words that end a street's name, each mapped to one
// spelling.
var streetTypes = map[string]string{
	"street": "st", "st": "st", "avenue": "ave", "ave": "ave", "av": "ave", "road": "rd", "rd": "rd",
	"drive": "dr", "dr": "dr", "lane": "ln", "ln": "ln", "terrace": "ter", "ter": "ter", "terr": "ter",
	"boulevard": "blvd", "blvd": "blvd", "court": "ct", "ct": "ct", "place": "pl", "pl": "pl",
	"parkway": "pkwy", "pkwy": "pkwy", "way": "way", "highway": "hwy", "hwy": "hwy", "square": "sq",
	"sq": "sq", "circle": "cir", "cir": "cir", "trail": "trl", "trl": "trl", "crescent": "cres",
	"cres": "cres", "close": "close", "row": "row", "alley": "aly", "aly": "aly", "plaza": "plz",
	"plz": "plz", "mews": "mews", "grove": "grv", "gardens": "gdns", "walk": "walk",
}

// addressAt reads a street address starting at text[i]: a house number of
// one to five digits, one to three words of a name, and a street type.
// As read, the name and type are capitalised, as addresses are written
// ("3 blocks down the road" is none); as re-typed, in any case.
func addressAt(text string, i int, sending bool) (int, shortValue, bool) {
	j := i
	for j < len(text) && isDigit(text[j]) {
		j++
	}
	if j-i > 5 || j >= len(text) || text[j] != ' ' {
		return j, shortValue{}, false
	}
	// The words are found first and the canonical form built only for an
	// address: most numbers in text are followed by other words.
	var words [4][2]int
	k := j
	for n := 0; n < len(words); n++ {
		for k < len(text) && text[k] == ' ' {
			k++
		}
		s := k
		for k < len(text) && (isLower(text[k]) || isUpper(text[k]) || isDigit(text[k])) {
			k++
		}
		if k == s || k < len(text) && isWordByte(text[k]) || !sending && !isUpper(text[s]) && !ordinal(text[s:k]) {
			return j, shortValue{}, false
		}
		words[n] = [2]int{s, k}
		if n == 0 || k-s > len("boulevard") {
			continue
		}
		if t, ok := streetTypes[strings.ToLower(text[s:k])]; ok {
			canon := text[i:j]
			for _, w := range words[:n] {
				canon += " " + strings.ToLower(text[w[0]:w[1]])
			}
			if k < len(text) && text[k] == '.' {
				k++
			}
			return k, shortValue{ValueAddress, canon + " " + t}, true
		}
	}
	return j, shortValue{}, false
}

// ordinal: 5th, 21st, 42nd, 3rd.
func ordinal(w string) bool {
	n := 0
	for n < len(w) && isDigit(w[n]) {
		n++
	}
	switch strings.ToLower(w[n:]) {
	case "st", "nd", "rd", "th":
		return n > 0
	}
	return false
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
		tel := subscriber(v)
		if x.typed[v.canon] || tel != "" && x.typed[tel] {
			continue
		}
		for _, key := range []string{v.canon, tel} {
			if key == "" {
				continue
			}
			if _, ok := x.read[key]; !ok {
				x.keep("r" + key)
			}
			x.read[key] = valueSrc{origin: origin, kind: v.kind}
		}
	}
}

// subscriber returns a phone number's key without its country or trunk
// prefix (its last nine digits), so that "020 7946 0321" and "+44 20 7946
// 0321" meet; "" for a value that is no phone number. Any number of ten
// to thirteen digits may be one: two that share nine final digits by
// chance are rare.
func subscriber(v shortValue) string {
	if v.kind != ValuePhone && v.kind != ValueNumber || len(v.canon) < 10 || len(v.canon) > 13 {
		return ""
	}
	return "tel:" + v.canon[len(v.canon)-9:]
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
		tel := subscriber(v)
		if seen[v.canon] || tel != "" && seen[tel] {
			continue
		}
		seen[v.canon] = true
		src, ok := x.read[v.canon]
		if tel != "" {
			seen[tel] = true
			if !ok {
				// Met by its last digits only: a phone number.
				src, ok = x.read[tel]
				src.kind = ValuePhone
			}
		}
		if ok {
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
