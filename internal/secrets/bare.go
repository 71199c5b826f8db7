package secrets

import (
	"bytes"
	"strings"

	"github.com/flowd-dev/flowd/internal/entropy"
)

// Credentials with no name beside them, found by form alone, for what a
// call sends out (a result's text is read with Scan only: an id in a page
// read is no event, a key sent out is). These forms, none a vendor's:
//
//   - a typed token: a short lower-case type prefix, an underscore or a
//     dash, and a long random body (ghp_…, sk_live_…, xoxb-…, glpat-…, and
//     the formats of providers no rule names). Object ids of the same form
//     (cus_…, pi_…, msg_…) have bodies of 14 to 28 characters; keys run
//     longer.
//   - a token inside binary data: a long random printable run in bytes
//     decoded from hex or base64 that are otherwise not text. Nobody wraps
//     an id in a binary blob and encodes it; it is how a key is carried
//     past a matcher.
//   - the value of a credential header in a request (curl -H 'X-Api-Key:
//     …', "Authorization": "Bearer …"): the request authenticates with
//     whatever it holds, so its form does not matter (the padding and
//     example tests are for illustrations in text); only a reference to
//     a value held elsewhere ($API_KEY, <your key>) or a mask is none.
//   - a session cookie in a Cookie header (sessionid=…, auth_token=…): a
//     random value under a cookie named for a login.

const (
	typedBody    = 30 // the shortest body of a typed token
	typedMaxPart = 8  // the longest part of its prefix
	binaryRun    = 32 // the shortest run judged inside binary data
	maxBareRun   = 512
	binaryNear   = 16 // how near the run the binary bytes must be
)

// ScanBare returns the typed tokens and credential header values of text
// as sent or, when decoded is set (text is a decoded view of what is
// sent), the random runs inside binary data. The first two are not read
// in views: a decoder's guesses make tokens of what was none (a form
// decoder turns the '+' that ends a sha512-… integrity string's first run
// into a space).
func ScanBare(text []byte, decoded bool) []Finding {
	var out []Finding
	if decoded {
		return embedded(text)
	}
	for i := 0; i < len(text); i++ {
		if !isLower(text[i]) || i > 0 && (isAlnum(text[i-1]) || text[i-1] == '_' || text[i-1] == '-') {
			continue
		}
		if f, end, ok := typedAt(text, i); ok {
			if !idValue(text, i) {
				out = append(out, f)
			}
			i = end
		}
	}
	for i := 0; i < len(text); i++ {
		if text[i] != ':' {
			continue
		}
		if f, ok := headerValueAt(text, i); ok {
			out = append(out, f)
		}
		out = append(out, sessionCookies(text, i)...)
	}
	return out
}

// embedded returns the random runs inside binary data.
func embedded(text []byte) []Finding {
	var out []Finding
	for i := 0; i < len(text); {
		j := i
		for j < len(text) && j-i < maxBareRun && tokenByte(text[j]) {
			j++
		}
		if j-i >= binaryRun && binary(text[max(0, i-binaryNear):min(len(text), j+binaryNear)]) && randomToken(string(text[i:j])) {
			v := string(text[i:j])
			out = append(out, Finding{Type: "generic_api_key", Rule: "token-in-binary", Value: v, Start: i, End: j, Example: looksLikeExample(v)})
		}
		i = j + 1
	}
	return out
}

// typedAt reads a typed token starting at text[i]: one to three prefix
// parts of lower-case letters and digits, each ending in '_' or '-'
// (ghp_, sk_live_, sk-ant-api03-), then the body, which ends the token
// and may hold single dashes and underscores of its own.
func typedAt(text []byte, i int) (Finding, int, bool) {
	j := i
	for part := 0; part < 3; part++ {
		k := j
		for k < len(text) && k-j <= typedMaxPart && (isLower(text[k]) || isDigit(text[k])) {
			k++
		}
		if k-j < 2 || k-j > typedMaxPart || k >= len(text) || text[k] != '_' && text[k] != '-' {
			break
		}
		j = k + 1
		if k+1 < len(text) && !isLower(text[k+1]) {
			break // the body starts: upper case or a digit
		}
	}
	if j == i || digestName(string(text[i:j-1])) {
		// No type, or a digest's algorithm (sha384-… integrity strings
		// whose base64 happens to hold no + or / and no padding).
		return Finding{}, 0, false
	}
	k := j
	for k < len(text) && k-j < maxBareRun && (isAlnum(text[k]) || k > j && (text[k] == '-' || text[k] == '_') && k+1 < len(text) && isAlnum(text[k+1])) {
		k++
	}
	if k-j < typedBody || k < len(text) && (tokenByte(text[k]) || text[k] == '.' && k+1 < len(text) && isAlnum(text[k+1])) {
		// Short, one part of a longer name, or base64 with a type in
		// front (sha512-… integrity strings).
		return Finding{}, 0, false
	}
	body := string(text[j:k])
	if !randomToken(body) {
		return Finding{}, 0, false
	}
	v := string(text[i:k])
	return Finding{Type: "generic_api_key", Rule: "typed-token", Value: v, Start: i, End: k, Example: looksLikeExample(v)}, k, true
}

// randomToken judges a run by form: upper, lower and digits all present,
// no byte dominating, and not a run of words (a camelCase identifier); a
// capital run longer than an acronym is no word.
func randomToken(v string) bool {
	var upper, lower, digit bool
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case isUpper(c):
			upper = true
		case isLower(c):
			lower = true
		case isDigit(c):
			digit = true
		}
	}
	if !upper || !lower || !digit || padded(v) || entropy.Bits(v) < 4.0 {
		return false
	}
	letters, words := 0, 0
	g := segmenter{v: v}
	for seg, ok := g.next(); ok; seg, ok = g.next() {
		if !isAlpha(seg[0]) {
			continue
		}
		letters += len(seg)
		if wordLike(seg) && !(isUpper(seg[len(seg)-1]) && len(seg) > 5) {
			words += len(seg)
		}
	}
	return words*10 < letters*6
}

// binary reports bytes that are not text: a control character other than
// white space.
func binary(b []byte) bool {
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' || c == 0x7f {
			return true
		}
	}
	return false
}

func tokenByte(c byte) bool {
	return isAlnum(c) || c == '+' || c == '/' || c == '_' || c == '-' || c == '='
}

// minHeaderValue is the shortest credential header value reported: the
// shortest bearer tokens of RFC 6750's examples are illustrations.
const minHeaderValue = 20

// headerValueAt reads the credential header whose name ends at the colon
// text[colon] ("X-Api-Key:", "\"Authorization\":"), and judges its value.
func headerValueAt(text []byte, colon int) (Finding, bool) {
	e := colon
	if e > 0 && text[e-1] == '"' {
		e-- // a JSON key
	}
	s := e
	for s > 0 && e-s < maxIdent && (isAlnum(text[s-1]) || text[s-1] == '-' || text[s-1] == '_') {
		s--
	}
	if !requestHeader(text[s:e]) {
		return Finding{}, false
	}
	if k, _ := judgeName(string(text[s:e])); k == credNone {
		return Finding{}, false
	}
	vs := colon + 1
	for vs < len(text) && (text[vs] == ' ' || text[vs] == '"' || text[vs] == '\\' || text[vs] == '\'') {
		vs++
	}
	ve := vs
	for ve < len(text) && ve-vs < 1024 && text[ve] > ' ' && text[ve] != '"' && text[ve] != '\'' && text[ve] != '\\' && text[ve] != ',' && text[ve] != '}' {
		ve++
	}
	if scheme := strings.ToLower(string(text[vs:ve])); scheme == "bearer" || scheme == "basic" || scheme == "token" || scheme == "apikey" {
		vs = ve + 1
		for vs < len(text) && text[vs] == ' ' {
			vs++
		}
		ve = vs
		for ve < len(text) && ve-vs < 1024 && text[ve] > ' ' && text[ve] != '"' && text[ve] != '\'' && text[ve] != '\\' && text[ve] != ',' && text[ve] != '}' {
			ve++
		}
	}
	if vs >= len(text) || ve-vs < minHeaderValue {
		return Finding{}, false
	}
	v := string(text[vs:ve])
	if templated(v) || masked(v) || nonValues[strings.ToLower(v)] || strings.Contains(v, "://") || allLetters(v) {
		return Finding{}, false
	}
	return Finding{Type: "generic_api_key", Rule: "request-header", Value: v, Start: vs, End: ve, Example: looksLikeExample(v) || padded(v)}, true
}

// sessionCookies reads the Cookie header whose name ends at text[colon]
// and returns the values of its cookies that hold a login: a cookie named
// for a session or a credential (sessionid, sid, auth_token, jwt) with a
// random value of minHeaderValue or more. Whoever holds one is logged in
// as the user, as with a bearer token; other cookies (theme=dark) are
// preferences.
func sessionCookies(text []byte, colon int) []Finding {
	if colon < 6 || !bytes.EqualFold(text[colon-6:colon], []byte("cookie")) {
		return nil
	}
	// The name stands alone (Set-Cookie is a response's), after a line's
	// start, a blank, a quote or an escape of JSON (\nCookie: …).
	if b := colon - 7; b >= 0 && (text[b] == '-' || isAlnum(text[b]) && !(b > 0 && text[b-1] == '\\')) {
		return nil
	}
	var out []Finding
	i := colon + 1
	for i < len(text) && text[i] != '\n' && text[i] != '\r' && text[i] != '"' {
		for i < len(text) && (text[i] == ' ' || text[i] == ';') {
			i++
		}
		ns := i
		for i < len(text) && i-ns < maxIdent && (isAlnum(text[i]) || text[i] == '_' || text[i] == '-' || text[i] == '.') {
			i++
		}
		if i >= len(text) || text[i] != '=' || i == ns {
			break
		}
		name := strings.ToLower(string(text[ns:i]))
		i++
		vs := i
		for i < len(text) && i-vs < 4096 && text[i] > ' ' && text[i] != ';' && text[i] != '"' && text[i] != '\\' {
			i++
		}
		v := string(text[vs:i])
		if len(v) < minHeaderValue || !sessionCookieName(name) || templated(v) || masked(v) || entropy.Bits(v) < 3.5 {
			continue
		}
		out = append(out, Finding{Type: "generic_api_key", Rule: "session-cookie", Value: v, Start: vs, End: i, Example: looksLikeExample(v)})
	}
	return out
}

// sessionCookieName: a cookie's name says it carries a login.
func sessionCookieName(n string) bool {
	if strings.Contains(n, "csrf") || strings.Contains(n, "xsrf") {
		return false // a form's token, not a login
	}
	for _, w := range []string{"sess", "sid", "auth", "token", "jwt", "login", "remember"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// requestHeader: a header's name, by its form (X-…, or a standard header
// with a dash) or as the one header that carries credentials by name.
func requestHeader(n []byte) bool {
	if len(n) < 3 {
		return false
	}
	dash, under := false, false
	for _, c := range n {
		dash = dash || c == '-'
		under = under || c == '_'
	}
	return dash && !under || bytes.EqualFold(n, []byte("authorization"))
}

// allLetters: letters and separators only (YOUR_API_KEY_HERE,
// replace-with-your-token): the name of a value, not one.
func allLetters(v string) bool {
	for i := 0; i < len(v); i++ {
		if isDigit(v[i]) {
			return false
		}
	}
	return true
}

// idValue: the token at i is the value of a field named as an id ("id":
// "chatcmpl-…", request_id=req_…, messageId: msg_…): an API names its
// objects' ids so, and a key is never filed under "id". The field's name
// is read back over the quotes, escapes and blanks around the operator.
func idValue(text []byte, i int) bool {
	j := i
	skip := func() {
		for j > 0 && (text[j-1] == '"' || text[j-1] == '\'' || text[j-1] == '\\' || text[j-1] == ' ') {
			j--
		}
	}
	skip()
	if j == 0 || text[j-1] != ':' && text[j-1] != '=' {
		return false
	}
	j--
	skip()
	e := j
	for j > 0 && e-j < 64 && (isAlnum(text[j-1]) || text[j-1] == '_' || text[j-1] == '-') {
		j--
	}
	name := text[j:e]
	// Vault's secret_id is a credential filed under an id.
	return len(name) >= 2 && !containsFold(string(name), "secret") && (bytes.EqualFold(name, []byte("id")) || bytes.HasSuffix(name, []byte("Id")) || bytes.HasSuffix(bytes.ToLower(name), []byte("_id")) || bytes.HasSuffix(bytes.ToLower(name), []byte("-id")))
}
