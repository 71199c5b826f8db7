package flow

import (
	"regexp"
	"strings"
)

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
	// ValueBirth is a date of birth: a date a result labels as one
	// ("Date of birth: 1984-03-17", "dob": …, "born"), found again in a
	// call in any common spelling (17/03/1984, March 17, 1984).
	ValueBirth = "birthdate"
	// ValueOneTime is a code a result labels as a credential (a one-time,
	// verification or security code, a PIN, a card's CVC): whoever has it
	// can sign in or pay as the user, so it leaves as a secret does.
	ValueOneTime = "one_time_code"
)

// valueRisk is the risk of a value leaving, by kind: how sure flowd is.
var valueRisk = map[string]string{ValueNumber: RiskHigh, ValueID: RiskHigh, ValueCode: RiskMedium, ValueEmail: RiskMedium,
	ValuePhone: RiskMedium, ValueAddress: RiskMedium, ValueBirth: RiskMedium, ValueOneTime: RiskHigh}

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
	out, _ := shortValuesWhole(text, sending)
	return out
}

// shortValuesWhole is shortValues, with the contacts that are all of a
// member's value in the text (after "name: ", up to the line's end), as
// a recipient stands in a call: their canonical forms.
func shortValuesWhole(text string, sending bool) (out []shortValue, whole map[string]bool) {
	mark := func(v shortValue, a, b int) {
		if wholeValue(text, a, b) {
			if whole == nil {
				whole = map[string]bool{}
			}
			whole[v.canon] = true
		}
	}
	for i := 0; i < len(text) && len(out) < maxValuesPerText; {
		c := text[i]
		switch {
		case c == '@':
			if v, a, b, ok := emailAt(text, i); ok {
				out = append(out, v)
				mark(v, a, b)
			}
			i++
		case sending && (isLower(c) || isUpper(c)) && (i == 0 || !isWordByte(text[i-1])) && digitWord(text, i) >= 0:
			// A number re-typed as words ("two six four eight zero three").
			j, v, ok := spokenNumberAt(text, i)
			if !ok {
				j, v, ok = idAt(text, i, sending)
			}
			if ok {
				out = append(out, v)
			}
			i = max(j, i+1)
		case c == '+' || isDigit(c) || c == '(':
			if i > 0 && (isWordByte(text[i-1]) || text[i-1] == '.' || text[i-1] == '/' || text[i-1] == '-' || text[i-1] == ':') {
				i++
				continue
			}
			end, v, ok := numberAt(text, i)
			if !ok && isDigit(c) {
				var addrEnd int
				addrEnd, v, ok = addressAt(text, i, sending)
				if ok {
					end = addrEnd
				}
			}
			if ok {
				if v.kind == ValueCode && !sending && credentialLabelled(text, i) {
					v.kind = ValueOneTime
				}
				out = append(out, v)
				mark(v, i, end)
			}
			if isDigit(c) && lettersNext(text, i) {
				// An id that starts with digits (48203917K, a check
				// letter after a dash when re-typed: 48203917-k).
				if e, v, ok := idAt(text, i, sending); ok {
					out = append(out, v)
					end = max(end, e)
				}
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
	if sending {
		out = spelledEmails(text, out)
	}
	return out, whole
}

// spelledEmails adds the e-mail addresses of a call written out so that
// a matcher misses them ("dana.lee84 at gmail dot com", "dana[at]gmail
// [dot]com"), in their canonical form. Each "at" is looked for with a
// plain search; only one with a local part before it and a dotted domain
// after it is read further.
func spelledEmails(text string, out []shortValue) []shortValue {
	for _, at := range []string{"at", "AT"} {
		for i := 0; len(out) < maxValuesPerText; {
			k := strings.Index(text[i:], at)
			if k < 0 {
				break
			}
			k += i
			i = k + 2
			open, close := spelledAround(text, k, k+2)
			if open < 0 {
				continue
			}
			s := open
			for s > 0 && open-s < 64 && (isWordByte(text[s-1]) || strings.IndexByte(".+-%", text[s-1]) >= 0) {
				s--
			}
			m := spelledDomainRe.FindStringSubmatch(text[close:min(len(text), close+300)])
			if s == open || m == nil {
				continue
			}
			domain := spelledDotRe.ReplaceAllString(m[1], ".")
			out = append(out, shortValue{ValueEmail, strings.ToLower(strings.Trim(text[s:open], ".") + "@" + domain)})
		}
	}
	return out
}

// spelledAround: the "at" at text[a:b] stands for an '@', as a word
// between spaces or in brackets ("[at]", "(at)"); it returns where the
// local part ends and the domain begins, or -1.
func spelledAround(text string, a, b int) (int, int) {
	before, after := a, b
	if a > 0 && b < len(text) && strings.IndexByte("[({<", text[a-1]) >= 0 && strings.IndexByte("])}>", text[b]) >= 0 {
		before, after = a-1, b+1
	} else if a == 0 || b == len(text) || text[a-1] != ' ' || text[b] != ' ' {
		return -1, -1
	}
	for before > 0 && text[before-1] == ' ' {
		before--
	}
	for after < len(text) && text[after] == ' ' {
		after++
	}
	return before, after
}

var (
	// A domain of two to five labels joined by dots, spelled or not.
	spelledDomainRe = regexp.MustCompile(`^([A-Za-z0-9\-]{1,63}(?:` + spelledDot + `[A-Za-z0-9\-]{1,63}){1,4})\b`)
	spelledDotRe    = regexp.MustCompile(spelledDot)
)

const spelledDot = `(?:\s*[\[\(\{<]\s*(?:dot|DOT)\s*[\]\)\}>]\s*|\s+(?:dot|DOT)\s+|\.)`

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
	// Past twenty digits no value is left to find: read no further, or
	// "1 1 1 …" would be read to its end from each of its digits.
	for j < len(text) && n <= 20 {
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
			if sep != 0 && c != sep && !plus && (c != '-' || sep != '.' || seps < 2) {
				// A number grouped by dots may end in a dashed check
				// group (529.982.247-25); other mixes are two numbers.
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
	if n == 10 && seps == 2 && sep != '.' && !numberLabelled(text, i) {
		return end, shortValue{ValuePhone, d}, true // 555-867-5309, not "NHS number: 538 401 9166"
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
	switch wordBefore(text, k) {
	case "is", "code", "pin", "otp", "passcode", "number", "no":
		return true
	}
	return false
}

// wordBefore is the word of letters (at most 12) that ends at text[k],
// lower-cased: a label before a number.
func wordBefore(text string, k int) string {
	w := k
	for w > 0 && k-w < 12 && (isLower(text[w-1]) || isUpper(text[w-1])) {
		w--
	}
	return strings.ToLower(text[w:k])
}

// numberLabelled: the word before the number at text[i], past a colon
// or "#", names a number of a record ("NHS number: 538 401 9166",
// "Account no. 123-456-7890"), not a phone.
func numberLabelled(text string, i int) bool {
	k := i
	for k > 0 && (text[k-1] == ' ' || text[k-1] == ':' || text[k-1] == '#' || text[k-1] == '.') {
		k--
	}
	switch wordBefore(text, k) {
	case "number", "no", "nr", "num", "id", "account", "acct", "member", "policy", "patient", "nhs", "ssn", "sin", "tin", "customer", "invoice", "order", "ref", "reference":
		return true
	}
	return false
}

// credentialLabels name a code that is a credential, in the words a
// bank, a shop or a sign-in page prints before one.
var credentialLabels = []string{"one-time", "one time", "onetime", "otp", "verification", "security code",
	"2fa", "mfa", "two-factor", "two factor", "passcode", "pin", "cvv", "cvc", "auth code", "authentication", "login code",
	"sign-in code", "signin code", "reset code", "recovery code", "backup code", "access code", "tan", "einmal", "bestätigungscode",
	"código de verificación", "código de seguridad", "código de acesso", "código de verificação", "code de vérification",
	"code de sécurité", "验证码", "驗證碼", "認証コード", "確認コード", "인증번호", "код подтверждения", "проверочный код", "одноразовый код"}

// credentialLabelled: a credential label stands near the code at
// text[i], as a word: before it on its line or on the line before
// ("your PIN: 4821 07", "Your verification code is:⏎604193"), or after
// it on its line ("604193 is your verification code"); within 48 bytes
// each way. Not "spinning" nor "Ottoman".
func credentialLabelled(text string, i int) bool {
	start := max(0, i-48)
	if nl := strings.LastIndexByte(text[start:i], '\n'); nl >= 0 {
		// The line before counts when the code starts its line.
		if strings.TrimSpace(text[start+nl+1:i]) != "" {
			start += nl + 1
		}
	}
	end := min(len(text), i+48)
	if nl := strings.IndexByte(text[i:end], '\n'); nl >= 0 {
		end = i + nl
	}
	for _, near := range []string{text[start:i], text[i:end]} {
		near = strings.ToLower(near)
		for _, l := range credentialLabels {
			for k := 0; ; {
				at := strings.Index(near[k:], l)
				if at < 0 {
					break
				}
				at += k
				e := at + len(l)
				if (at == 0 || !isWordByte(near[at-1])) && (e == len(near) || !isWordByte(near[e])) {
					return true
				}
				k = at + 1
			}
		}
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
	hasDigit := func(s string) bool {
		return strings.IndexFunc(s, func(r rune) bool { return r >= '0' && r <= '9' }) >= 0
	}
	// A prefix of letters before dashed groups of digits names a record
	// (SHC-7734-99812, POL-7734-99812); a year after it is a public
	// record's number (CVE-2024-12345), not the user's.
	prefixed := j+5 < len(text) && text[j] == '-' && isDigit(text[j+1]) && j-i >= 2 && j-i <= 4 &&
		!hasDigit(text[i:j]) && !yearGroup(text[j+1:]) ||
		// or a first group of a letter and digits (D1234-56789-01234, a
		// licence number as printed).
		j+5 < len(text) && text[j] == '-' && isDigit(text[j+1]) && j-i >= 3 && j-i <= 6 && hasDigit(text[i:j]) &&
			strings.ContainsFunc(text[i:j], func(r rune) bool { return r > '9' })
	if j-i <= 2 || j-i <= 4 && hasDigit(text[i:j]) || prefixed {
		// A short first group (of letters, two at most: "AB 12 34 56 C",
		// not "IBAN DE44 …") may be followed by more: each of one to
		// four characters, with a digit, or the last of letters only (C);
		// after a prefix, dashed groups of up to six.
		longest := 4
		if prefixed {
			longest = 6
		}
		sep := byte(0)
		for j+1 < len(text) && (text[j] == ' ' || text[j] == '-') && (sep == 0 || text[j] == sep) && isID(text[j+1]) {
			e := group(j + 1)
			digit := hasDigit(text[j+1 : e])
			if e-(j+1) > longest || !digit && e-(j+1) > 2 {
				break
			}
			sep = text[j]
			j = e
			if !digit {
				break
			}
		}
	}
	if j-i >= 6 && !strings.ContainsFunc(text[i:j], func(r rune) bool { return r < '0' || r > '9' }) {
		// A check letter or two after a separator: 48203917-K.
		e := j + 1
		for e < len(text) && e-j <= 3 && (isUpper(text[e]) || anyCase && isLower(text[e])) {
			e++
		}
		if j < len(text) && (text[j] == '-' || text[j] == ' ') && e > j+1 && e-j <= 3 && (e == len(text) || !isWordByte(text[e])) {
			j = e
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
	if common(string(ds)) && letters < 3 {
		// Digits anyone types (X12345678); three letters around them
		// (QQ123456C, the shape of a national insurance number) make the
		// value distinctive again.
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
func emailAt(text string, at int) (v shortValue, start, end int, ok bool) {
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
		return shortValue{}, 0, 0, false
	}
	return shortValue{ValueEmail, strings.ToLower(text[s:e])}, s, e, true
}

// lettersNext: the digits at text[i] run into a letter, or end in a
// separator and a letter: only then can an id start there (most digit
// runs are numbers, which idAt would read in vain).
func lettersNext(text string, i int) bool {
	e := i
	for e < len(text) && isDigit(text[e]) {
		e++
	}
	letter := func(k int) bool { return k < len(text) && (isUpper(text[k]) || isLower(text[k])) }
	return letter(e) || e < len(text) && (text[e] == '-' || text[e] == ' ') && letter(e+1)
}

// wholeValue: text[a:b] is all of a member's value as Text writes a call
// ("to: bob@example.com" on a line of its own), where a recipient stands;
// inside a sentence it is something the message says.
//
// A member that holds a message's own text (body, text, message,
// subject…) is what the message says, even when the address or number
// is all of it: the recipient stands in a member of its own.
func wholeValue(text string, a, b int) bool {
	if b != len(text) && text[b] != '\n' {
		return false
	}
	if a == 0 || text[a-1] == '\n' {
		return true
	}
	if a < 2 || text[a-2:a] != ": " {
		return false
	}
	// The member's name: back to the line's start or to the ": " of the
	// member it is nested in, read no further than the longest name of
	// messageKeys (a longer one is a name of something else).
	end := a - 2
	s := end
	for s > 0 && text[s-1] != '\n' && !(s >= 2 && text[s-2:s] == ": ") {
		if end-s >= len("description") {
			return true
		}
		s--
	}
	return !messageKeys[strings.ToLower(text[s:end])]
}

// messageKeys name members that hold what a message says.
var messageKeys = map[string]bool{"body": true, "text": true, "message": true, "content": true, "msg": true, "subject": true,
	"note": true, "notes": true, "description": true, "comment": true, "html": true, "markdown": true, "summary": true,
	"details": true, "caption": true, "reply": true, "post": true, "status": true}

// yearGroup: the digits at the start of s are a year (19xx, 20xx) and
// nothing more.
func yearGroup(s string) bool {
	return len(s) >= 4 && (s[:2] == "19" || s[:2] == "20") && isDigit(s[2]) && isDigit(s[3]) && (len(s) == 4 || !isDigit(s[4]))
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
	// births: a private result held a date of birth, so the dates of
	// calls are worth reading (most sessions read none).
	births bool
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
		x.births = x.births || v.kind == ValueBirth
		for _, key := range []string{v.canon, tel} {
			if key == "" {
				continue
			}
			old, ok := x.read[key]
			if !ok {
				x.keep("r" + key)
			}
			if old.kind != ValueOneTime || v.kind == ValueOneTime {
				// A code once labelled a credential stays one.
				x.read[key] = valueSrc{origin: origin, kind: v.kind}
			}
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
// number may be the recipient the call is for, when it is all of a
// member's value or the call names no other contact; one inside a
// message's text that has its own recipient, or two or more, are leaving.
func (x *valueIndex) sent(vs []shortValue, whole map[string]bool) []sentValue {
	var out []sentValue
	contacts, recipient, lone := 0, false, ""

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
				recipient, lone = whole[v.canon], v.canon
			}
		}
	}
	// The call's other contacts: a recipient of its own.
	others := 0
	for _, v := range vs {
		if (v.kind == ValueEmail || v.kind == ValuePhone) && v.canon != lone {
			others++
		}
	}
	if contacts == 1 && (recipient || others == 0) {
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

// digitInitial: the first letters of the digits' names below.
var digitInitial = func() (t [256]bool) {
	for _, c := range "zotfsenudcvqha" {
		t[c] = true
	}
	return t
}()

// digitWord returns the digit the word at text[i] names, or -1.
func digitWord(text string, i int) int {
	// Lower-cased into a buffer of its own: this runs at every word of
	// a call, and the lookup of string(buf) allocates nothing.
	if !digitInitial[text[i]|0x20] {
		return -1 // no digit's name starts so: most words end here
	}
	var buf [8]byte
	j := i
	for j < len(text) && j-i < len(buf) && (isLower(text[j]) || isUpper(text[j]) || text[j] >= 0x80) {
		buf[j-i] = text[j] | 0x20*byte(b2i(isUpper(text[j])))
		j++
	}
	if j-i < 2 || j < len(text) && (isWordByte(text[j]) || text[j] >= 0x80) {
		return -1
	}
	// The digits spelled out, in English, German, French and Spanish: a
	// switch, which compares no more than a few words, where a map would
	// hash every word of the call.
	switch string(buf[:j-i]) {
	case "zero", "oh", "null", "zéro", "cero":
		return 0
	case "one", "eins", "un", "uno":
		return 1
	case "two", "zwei", "deux", "dos":
		return 2
	case "three", "drei", "trois", "tres":
		return 3
	case "four", "vier", "quatre", "cuatro":
		return 4
	case "five", "fünf", "cinq", "cinco":
		return 5
	case "six", "sechs", "seis":
		return 6
	case "seven", "sieben", "sept", "siete":
		return 7
	case "eight", "acht", "huit", "ocho":
		return 8
	case "nine", "neun", "neuf", "nueve":
		return 9
	}
	return -1
}

// spokenNumberAt reads six or more digits spelled as words from text[i]
// ("two six four eight zero three", "four-eight-two"), as a number
// written in digits is read.
func spokenNumberAt(text string, i int) (int, shortValue, bool) {
	var d []byte
	j := i
	for j < len(text) && len(d) < 20 {
		n := digitWord(text, j)
		if n < 0 {
			break
		}
		d = append(d, byte('0'+n))
		for j < len(text) && !(text[j] == ' ' || text[j] == '-' || text[j] == ',') {
			j++
		}
		k := j
		for k < len(text) && (text[k] == ' ' || text[k] == '-' || text[k] == ',') && k-j < 3 {
			k++
		}
		if k == j || k == len(text) {
			break
		}
		j = k
	}
	if len(d) < 6 || common(string(d)) {
		return j, shortValue{}, false
	}
	if len(d) <= 7 {
		return j, shortValue{kind: ValueCode, canon: string(d)}, true
	}
	return j, shortValue{kind: ValueNumber, canon: string(d)}, true
}

// birthLabels say that the date after them is a date of birth, in the
// languages of the injection rules' Latin-script ones; lower case.
var birthLabels = []string{"birth", "dob", "born", "birthday", "geburtsdatum", "geboren", "né le", "née le", "naissance",
	"nacimiento", "nascita", "nascimento", "geboortedatum"}

// monthAt: the month the three letters at text[k] begin, or 0.
func monthAt(text string, k int) int {
	if k+3 > len(text) {
		return 0
	}
	const j, f, m, a, s, o, n, d = 'j', 'f', 'm', 'a', 's', 'o', 'n', 'd'
	switch uint32(text[k]|0x20)<<16 | uint32(text[k+1]|0x20)<<8 | uint32(text[k+2]|0x20) {
	case j<<16 | 'a'<<8 | 'n':
		return 1
	case f<<16 | 'e'<<8 | 'b':
		return 2
	case m<<16 | 'a'<<8 | 'r':
		return 3
	case a<<16 | 'p'<<8 | 'r':
		return 4
	case m<<16 | 'a'<<8 | 'y':
		return 5
	case j<<16 | 'u'<<8 | 'n':
		return 6
	case j<<16 | 'u'<<8 | 'l':
		return 7
	case a<<16 | 'u'<<8 | 'g':
		return 8
	case s<<16 | 'e'<<8 | 'p':
		return 9
	case o<<16 | 'c'<<8 | 't':
		return 10
	case n<<16 | 'o'<<8 | 'v':
		return 11
	case d<<16 | 'e'<<8 | 'c':
		return 12
	}
	return 0
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// birthDates returns the dates of text as birth dates: of a result read
// (labelled), only those a birth label stands before, within 24 bytes; of
// a call, every date, in each reading (03/04/1984 is either). The forms:
// 1984-03-17, 17/03/1984, 03/17/1984, 17.03.1984, 17 March 1984, March
// 17, 1984.
func birthDates(text string, labelled bool) []shortValue {
	var out []shortValue
	add := func(at int, y, m, d int) {
		if y < 1900 || y > 2099 || m < 1 || m > 12 || d < 1 || d > 31 || len(out) >= maxValuesPerText {
			return
		}
		if labelled {
			before := strings.ToLower(text[max(0, at-24):at])
			found := false
			for _, l := range birthLabels {
				found = found || strings.Contains(before, l)
			}
			if !found {
				return
			}
		}
		c := [8]byte{byte('0' + y/1000), byte('0' + y/100%10), byte('0' + y/10%10), byte('0' + y%10),
			byte('0' + m/10), byte('0' + m%10), byte('0' + d/10), byte('0' + d%10)}
		out = append(out, shortValue{kind: ValueBirth, canon: string(c[:])})
	}
	num := func(k int) (v, end int) {
		end = k
		for end < len(text) && isDigit(text[end]) && end-k < 5 {
			v = v*10 + int(text[end]-'0')
			end++
		}
		return v, end
	}
	month := func(k int) (m, end int) {
		end = k
		for end < len(text) && (isLower(text[end]) || isUpper(text[end])) {
			end++
		}
		if end-k < 3 {
			return 0, k
		}
		return monthAt(text, k), end
	}
	for i := 0; i < len(text); i++ {
		if i > 0 && (isWordByte(text[i-1])) {
			continue
		}
		c := text[i]
		switch {
		case isDigit(c):
			a, e := num(i)
			switch {
			case e-i == 4 && e+5 < len(text) && (text[e] == '-' || text[e] == '/' || text[e] == '.'):
				m, e2 := num(e + 1)
				if e2 < len(text) && text[e2] == text[e] && e2-e-1 <= 2 {
					d, e3 := num(e2 + 1)
					if e3-e2-1 <= 2 {
						add(i, a, m, d)
					}
				}
			case e-i <= 2 && e < len(text) && (text[e] == '-' || text[e] == '/' || text[e] == '.'):
				b, e2 := num(e + 1)
				if e2-e-1 <= 2 && e2 < len(text) && text[e2] == text[e] {
					y, e3 := num(e2 + 1)
					if e3-e2-1 == 4 {
						add(i, y, b, a)
						add(i, y, a, b)
					}
				}
			case e-i <= 2 && e < len(text):
				// 17 March 1984, 17th of March 1984
				k := e
				for k < len(text) && (text[k] == ' ' || isLower(text[k]) && k-e < 6) {
					if text[k] != ' ' && monthAt(text, k) != 0 {
						break
					}
					k++
				}
				if m, e2 := month(k); m != 0 {
					for e2 < len(text) && (text[e2] == ' ' || text[e2] == ',' || text[e2] == '.') {
						e2++
					}
					if y, e3 := num(e2); e3-e2 == 4 {
						add(i, y, m, a)
					}
				}
			}
		case isLower(c) || isUpper(c):
			// March 17, 1984
			if monthAt(text, i) == 0 {
				continue
			}
			m, e := month(i)
			if m == 0 || e == i {
				continue
			}
			k := e
			for k < len(text) && (text[k] == ' ' || text[k] == '.') {
				k++
			}
			d, e2 := num(k)
			if e2-k < 1 || e2-k > 2 {
				continue
			}
			for e2 < len(text) && (isLower(text[e2]) || text[e2] == ',' || text[e2] == ' ') && e2-k < 8 {
				e2++
			}
			if y, e3 := num(e2); e3-e2 == 4 {
				add(i, y, m, d)
			}
		}
	}
	return out
}
