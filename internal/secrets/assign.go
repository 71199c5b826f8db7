package secrets

import (
	"strings"

	"github.com/flowd-dev/flowd/internal/entropy"
	"github.com/flowd-dev/flowd/internal/jsontext"
)

// The assignment scanner finds a credential by its context rather than its
// format: a key name that says "secret" (api_key, clientSecret,
// DB_PASSWORD, "access_token", <authToken>, X-Api-Key, --password), an
// assignment (=, :, :=, =>, ?=, .=, a function-argument comma, an XML
// element or key/value attribute pair), and a value that looks like a
// credential rather than a word, a variable, a path or a placeholder. It
// covers the providers no rule names and formats no corpus has seen.

// assignmentKeywords trigger the scanner; the key name is then judged as a
// whole, so "monkey" or "author" never count.
var assignmentKeywords = []string{"token", "secret", "pass", "pwd", "key", "auth", "cred", "bearer",
	// The word for password where it names no "pass": German, Spanish,
	// Portuguese, Dutch, Swedish, Polish, Italian, Finnish, Russian,
	// Chinese, Japanese, Korean.
	"kennwort", "contrase", "senha", "wachtwoord", "senord", "haslo", "hasło", "parola", "salasana",
	"пароль", "密码", "密碼", "パスワード", "비밀번호"}

type credKind uint8

const (
	credNone credKind = iota
	credToken
	credKey      // a bare "key": only with a qualifier that is not about databases or maps
	credWeakPass // "pass": also a compiler pass, a test PASS; see judgeName
	credPassword
)

var credWords = map[string]credKind{
	"token": credToken, "tokens": credToken, "secret": credToken, "secrets": credToken,
	"apikey": credToken, "credential": credToken, "credentials": credToken, "creds": credToken,
	"cred": credToken, "auth": credToken, "authorization": credToken, "bearer": credToken,
	"pat": credToken, "key": credKey,
	"password": credPassword, "passwd": credPassword, "pwd": credPassword, "pass": credWeakPass,
	"passphrase": credPassword, "passcode": credPassword,
	"passwort": credPassword, "kennwort": credPassword, "contraseña": credPassword, "contrasena": credPassword,
	"senha": credPassword, "wachtwoord": credPassword, "lösenord": credPassword, "losenord": credPassword,
	"hasło": credPassword, "haslo": credPassword, "parola": credPassword, "salasana": credPassword,
	"passord": credPassword, "motdepasse": credPassword, "пароль": credPassword, "密码": credPassword,
	"密碼": credPassword, "パスワード": credPassword, "비밀번호": credPassword,
}

// credSuffixes recognise run-together names: authtoken, CLIENTSECRET, dbpassword.
var credSuffixes = []struct {
	suffix string
	kind   credKind
}{
	{"password", credPassword}, {"passwd", credPassword}, {"passphrase", credPassword},
	{"token", credToken}, {"secret", credToken}, {"apikey", credToken}, {"secretkey", credToken},
	{"accesskey", credToken}, {"privatekey", credToken}, {"credentials", credToken}, {"creds", credToken},
	{"passwort", credPassword}, {"kennwort", credPassword}, {"wachtwoord", credPassword},
}

// attributeWords after the credential word mean the name is about the
// credential, not the credential: token_url, secretLength, key_name,
// credentialsId, passwordField, tokenFile.
var attributeWords = wordSet(`id ids identifier name names url uri urls uris endpoint endpoints host
	hostname path paths file files filename dir directory folder type types kind length len size
	count num number version format field fields header headers prefix suffix policy mode label
	labels alg algo algorithm enabled enable disabled required expires expiry expiration expire
	expired ttl timeout method methods provider providers vault ref reference source event events
	selector pressed down up left right location region index hint hash hashed digest placeholder
	description desc help title message msg error err regex pattern validator validation rule rules
	strength min max minlength maxlength changed updated created at date time timestamp duration
	lifetime age status state valid invalid check verify input button form class style color icon
	visible visibility manager service handler helper util utils module component schema model
	config configuration settings setting options option params param arg args variable var vars
	ring chain store pair tab code usage limit limits budget cost estimate encoding encoder
	tokenizer counter reset request response callback listener cache map list set dict width
	height word words board frame mesh press signature encryption`)

// keyQualifiers before "key" (or "token") name something that is not a
// credential: primary_key, bucketKey, public_key, page_token, csrf_token.
var keyQualifiers = wordSet(`public pub publishable primary foreign partition sort sequence schema
	bucket cache hot idx index natural unique composite lookup map dict object row column table
	hash issuer host group item entry node registry route routing translation i18n locale cursor
	page next prev previous order query search idempotency dedup dedupe shard file surrogate
	candidate alternate compound csrf xsrf authenticity continuation sync cancellation cancel max
	min num total count input output completion prompt stop special bos eos eof unk pad mask sep
	cls react element list`)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// nameWords holds an identifier's words, lower-cased, without allocating.
type nameWords struct {
	buf   [maxIdent]byte
	spans [maxIdent/2 + 1]window
	n     int
}

const maxIdent = 80

func (w *nameWords) split(ident string) {
	g := segmenter{v: ident}
	w.n = 0
	for seg, ok := g.next(); ok && w.n < len(w.spans); seg, ok = g.next() {
		lo := g.i - len(seg)
		for i := lo; i < g.i; i++ {
			w.buf[i] = lowerASCII(ident[i])
		}
		w.spans[w.n] = window{lo, g.i}
		w.n++
	}
}

func (w *nameWords) word(i int) []byte { return w.buf[w.spans[i].lo:w.spans[i].hi] }

// judgeName decides whether an identifier (at most maxIdent bytes) names a
// credential.
func judgeName(ident string) (kind credKind, aws bool) {
	var w nameWords
	w.split(ident)
	at := -1
	for i := 0; i < w.n; i++ {
		word := w.word(i)
		if string(word) == "aws" {
			aws = true
		}
		if at >= 0 {
			continue
		}
		k := credWords[string(word)]
		if k == credNone {
			for _, s := range credSuffixes {
				if len(word) > len(s.suffix) && string(word[len(word)-len(s.suffix):]) == s.suffix {
					k = s.kind
					break
				}
			}
		}
		if k != credNone {
			kind, at = k, i
		}
	}
	if at < 0 {
		return credNone, false
	}
	for i := at + 1; i < w.n; i++ {
		word := w.word(i)
		if attributeWords[string(word)] {
			return credNone, false
		}
		if k := credWords[string(word)]; k != credNone && k != credKey {
			// "secret_key_password": the strongest word decides.
			kind = max(kind, k)
		}
	}
	for i := 0; i < at; i++ {
		if publicWords[string(w.word(i))] {
			return credNone, false
		}
	}
	if kind == credWeakPass {
		// db_pass, SMTP_PASS: "pass" names a password only as the last word.
		if at != w.n-1 {
			return credNone, false
		}
		kind = credPassword
	}
	if kind == credKey || string(w.word(at)) == "token" {
		if at > 0 && keyQualifiers[string(w.word(at-1))] {
			return credNone, false
		}
		if kind == credKey {
			// "key_secret", "key_password": the later word carries the meaning.
			for i := at + 1; i < w.n; i++ {
				if k := credWords[string(w.word(i))]; k == credToken || k == credPassword {
					kind = k
				}
			}
		}
	}
	return kind, aws
}

var publicWords = wordSet("public pub publishable")

// isIdentByte: c may be part of a key's name, one in another script
// (contraseña, пароль) included.
func isIdentByte(c byte) bool { return isAlnum(c) || c == '_' || c == '-' || c == '.' || c >= 0x80 }

func isQuote(c byte) bool { return c == '"' || c == '\'' || c == '`' }

func isSpace(c byte) bool { return c == ' ' || c == '\t' }

// identSpan returns the identifier around pos.
func identSpan(text string, pos int) (int, int) {
	s := pos
	for n := 0; s > 0 && n < 96 && isIdentByte(text[s-1]); n++ {
		s--
	}
	e := pos
	for n := 0; e < len(text) && n < 96 && isIdentByte(text[e]); n++ {
		e++
	}
	for s < e && (text[s] == '.' || text[s] == '-') {
		s++
	}
	for e > s && (text[e-1] == '.' || text[e-1] == '-') {
		e--
	}
	return s, e
}

var assignOps = []string{":::=", "::=", ":=", "?=", ".=", "+=", "=>", "=", ":", ","}

var authSchemes = wordSet("bearer basic token bot digest apikey key")

// valueAfter finds the value assigned to the identifier text[s:e].
func valueAfter(text string, s, e int) (vs, ve int, quoted, ok bool) {
	i := e
	keyQuote := byte(0)
	switch {
	case s > 0 && isQuote(text[s-1]) && i < len(text) && text[i] == text[s-1]:
		keyQuote = text[i]
		i++
	case s > 0 && text[s-1] == '<' && i < len(text) && text[i] == '>':
		// <apiToken>value</apiToken>
		i++
		for i < len(text) && (isSpace(text[i]) || text[i] == '\n' || text[i] == '\r') {
			i++
		}
		j := i
		for j < len(text) && j-i < 1024 && text[j] != '<' {
			j++
		}
		if !strings.HasPrefix(text[j:], "</"+text[s:e]+">") {
			return 0, 0, false, false
		}
		vs, ve = i, j
		for ve > vs && (isSpace(text[ve-1]) || text[ve-1] == '\n' || text[ve-1] == '\r') {
			ve--
		}
		return vs, ve, true, ve > vs
	}
	if i < len(text) && text[i] == ']' {
		i++
	}
	flag := s > 0 && text[s-1] == '-'
	sp := i
	for i < len(text) && isSpace(text[i]) {
		i++
	}
	spaced := i > sp

	op, prose := "", false
	if i < len(text) && strings.IndexByte(":?.+=,", text[i]) >= 0 {
		for _, o := range assignOps {
			if strings.HasPrefix(text[i:], o) {
				op = o
				break
			}
		}
	}
	if op == "," && keyQuote != 0 {
		// {"key": "x-api-key", "value": "…"}: the name is itself a value.
		if j := i; pairedValue(text, &j) {
			i, op = j, "="
		}
	}
	switch {
	case op == "=" && strings.HasPrefix(text[i:], "=="), op == "=" && i > 0 && (text[i-1] == '!' || text[i-1] == '<' || text[i-1] == '>'):
		return 0, 0, false, false
	case op == "=" && i == e && i+1 < len(text) && (isSpace(text[i+1]) || text[i+1] == '\n'):
		return 0, 0, false, false // "password= next": an empty shell-style assignment
	case op != "":
		i += len(op)
	case keyQuote != 0 && pairedValue(text, &i):
		// <add key="ApiToken" value="…"/>, {"key": "x-api-key", "value": "…"}
		op = "="
	case keyQuote == 0 && i < len(text) && (text[i] == '\n' || text[i] == '\r') && isFieldValue(text, s) && pairedValue(text, &i):
		// - name: API_TOKEN⏎  value: "…" (a Kubernetes env entry, YAML's
		// name/value pairs): the name is itself a field's value.
		op = "="
	case flag && spaced && keyQuote == 0 && i < len(text) && !isAlpha(text[i]) && text[i] != '-' && text[i] > ' ':
		// --api-token 5449f7…: a flag's value is the next word.
		op = "="
		i = sp + 1
	case keyQuote == 0 && spaced && i-sp == 1 && proseName(text[s:e]) && (proseSecret(text, i) || hexSecret(text, i) && strongName(text[s:e])):
		// "client initialised with secret 7Hq2ZkX9…": a credential word
		// in a sentence, one space, and a value no word or digest looks
		// like (upper, lower and digits switching all along); or a
		// secret, token or password in hex ("signing_secret 6107…",
		// as webhook and signing secrets are issued), which after a
		// bare "key" is as likely a key's fingerprint.
		op, prose = "=", true
	case i < len(text) && isAlpha(text[i]) && keyQuote == 0 && (s == 0 || text[s-1] != '<'):
		// A type between name and operator: var token string = "…".
		for n := 0; i < len(text) && n < 64 && (isIdentByte(text[i]) || text[i] == '[' || text[i] == ']'); n++ {
			i++
		}
		for i < len(text) && isSpace(text[i]) {
			i++
		}
		if strings.HasPrefix(text[i:], "==") {
			return 0, 0, false, false
		}
		switch {
		case strings.HasPrefix(text[i:], ":="):
			i += 2
		case strings.HasPrefix(text[i:], "="):
			i++
		default:
			if !(flag || strings.EqualFold(text[s:e], "bearer")) || !spaced {
				return 0, 0, false, false
			}
			// --password hunter2, Bearer eyJ…: the word is the value.
			i = sp + 1
		}
		op = "="
	default:
		return 0, 0, false, false
	}
	if op == ":" {
		// A typed declaration, token: string = "…".
		j := i
		for j < len(text) && isSpace(text[j]) {
			j++
		}
		k := j
		for k < len(text) && k-j < 64 && isIdentByte(text[k]) {
			k++
		}
		m := k
		for m < len(text) && isSpace(text[m]) {
			m++
		}
		if k > j && m < len(text) && text[m] == '=' && !strings.HasPrefix(text[m:], "==") {
			i = m + 1
		}
	}
	for i < len(text) && (isSpace(text[i]) || (op == "," || op == "=>") && (text[i] == '\n' || text[i] == '\r')) {
		i++
	}
	if op == ":" {
		i = blockScalar(text, i)
	}
	if i >= len(text) {
		return 0, 0, false, false
	}
	if keyQuote == 0 && s > 0 && isQuote(text[s-1]) && text[i] == text[s-1] {
		// "PWD="+dir: the quote closes the string the name is in.
		return 0, 0, false, false
	}
	if op == "," && (keyQuote == 0 || !isQuote(text[i]) || !callArgument(text, s-1)) {
		// setProperty("API_TOKEN", "…") names a key and gives its value;
		// f(pass, x), f("API_TOKEN", value) and ["splitpasswd", "splitport"]
		// are just lists.
		return 0, 0, false, false
	}
	if isQuote(text[i]) {
		q := text[i]
		j := i + 1
		for j < len(text) && j-i < 1024 && text[j] != q && text[j] != '\n' {
			if text[j] == '\\' && q != '`' {
				j++
			}
			j++
		}
		if j < len(text) && text[j] == q {
			vs, ve = i+1, j
			return trimAuthScheme(text, vs, ve, true)
		}
		i++
	}
	vs, ve = i, unquotedEnd(text, i)
	if ve < len(text) && text[ve] == ' ' && authSchemes[strings.ToLower(text[vs:ve])] {
		j := ve + 1
		vs, ve = j, unquotedEnd(text, j)
	}
	// TOKEN_ALL_ACCESS = STANDARD_RIGHTS_REQUIRED | …: an expression.
	k := ve
	for k < len(text) && isSpace(text[k]) {
		k++
	}
	if k < len(text) && strings.IndexByte("|&+*/%^?(", text[k]) >= 0 && !queryParamAt(text, k) {
		return 0, 0, false, false
	}
	if ve < len(text) && text[ve] == ',' && identifierChars(text[vs:ve]) && !prose {
		// keyHex: pkcs8P256PrivateKeyHex, — a field set from a variable.
		return 0, 0, false, false
	}
	return vs, ve, false, ve > vs
}

// minBearer is the shortest token after an auth scheme (Bearer, Token)
// that is reported: issued tokens are longer, and shorter ones are
// documentation (RFC 6750's "mF_9.B5f-4.1JqM") far more often than
// credentials. Basic credentials are passwords and keep any length.
const minBearer = 16

// afterAuthScheme: the value at vs follows "Bearer ", "Token " or the
// like, a word of its own after the name that ends at e.
func afterAuthScheme(text string, e, vs int) bool {
	if vs < 2 || text[vs-1] != ' ' {
		return false
	}
	w := vs - 1
	for w > 0 && isAlpha(text[w-1]) {
		w--
	}
	if w <= e {
		return false
	}
	scheme := strings.ToLower(text[w : vs-1])
	return authSchemes[scheme] && scheme != "basic"
}

// trimAuthScheme drops "Bearer " from a quoted header value.
func trimAuthScheme(text string, vs, ve int, quoted bool) (int, int, bool, bool) {
	if sp := strings.IndexByte(text[vs:ve], ' '); sp > 0 && authSchemes[strings.ToLower(text[vs:vs+sp])] {
		vs += sp + 1
	}
	return vs, ve, quoted, ve > vs
}

// unquotedEnd returns where a bare value starting at i ends.
func unquotedEnd(text string, i int) int {
	j := i
	if j < len(text) && text[j] == '<' {
		// <your-token-here>: keep the brackets so the value reads as a placeholder.
		if k := strings.IndexByte(text[j:min(len(text), j+128)], '>'); k > 0 {
			return j + k + 1
		}
	}
	for ; j < len(text) && j-i < 1024; j++ {
		switch c := text[j]; c {
		case ' ', '\t', '\n', '\r', '"', '\'', '`', ',', ';', ')', ']', '}', '<', '>':
			return j
		case '&':
			if queryParamAt(text, j) {
				return j
			}
		case '\\':
			// An escaped newline or quote inside a string literal ends the value.
			if j+1 < len(text) && strings.IndexByte(`nrt"'\`, text[j+1]) >= 0 {
				return j
			}
		}
	}
	return j
}

func hasPrefixFold(s, p string) bool { return len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) }

// maxNested is how many identifiers inside one value turned down are
// judged.
const maxNested = 8

// judged is the value the assignment scanner judged last.
type judged struct {
	lo, hi   int
	reported bool // as a secret
	nested   int  // identifiers inside it judged since
}

// scanAssignmentAt judges the identifier around a keyword hit at pos.
func scanAssignmentAt(st *scanState, text string, pos int) {
	s, e := identSpan(text, pos)
	if s >= e || e-s > maxIdent || (s == st.lastIdent.lo && e == st.lastIdent.hi) {
		return
	}
	// An identifier inside a value already judged would have the same
	// bytes read again for each keyword in them. Inside a value reported
	// as a secret ("password=password=…") it is part of that secret;
	// inside one turned down it may start a secret of its own
	// ("url=https://host/?api_key=…"), so it is judged, but only a few
	// times per value: more is text made to be slow, and the scan stops
	// there, incomplete.
	if s >= st.lastValue.lo && s < st.lastValue.hi {
		if st.lastValue.reported {
			return
		}
		if st.lastValue.nested++; st.lastValue.nested > maxNested {
			st.incomplete = true
			return
		}
	}
	st.lastIdent = window{s, e}
	st.work += e - s
	if s > 0 && text[s-1] == ':' && e < len(text) && text[e] == ':' {
		return // a field of a colon-separated list (name:password:uid)
	}
	// The value test is cheaper than the name test and fails far more
	// often in prose ("the API key in the header"), so it comes first.
	vs, ve, quoted, ok := valueAfter(text, s, e)
	if !ok {
		vs, ve, ok = rowPair(text, s, e)
	}
	if !ok {
		if sep := tableHeader(text, s, e); sep != 0 {
			if kind, _ := judgeName(text[s:e]); kind != credNone {
				scanTableColumn(st, text, s, e, sep, kind)
			}
		}
		return
	}
	kind, aws := judgeName(text[s:e])
	if kind == credNone {
		return
	}
	for vs < ve && isSpace(text[vs]) {
		vs++
	}
	for ve > vs && isSpace(text[ve-1]) {
		ve--
	}
	v := text[vs:ve]
	st.work += len(v)
	if vs >= st.lastValue.hi {
		st.lastValue = judged{lo: vs, hi: ve}
	}
	if !credentialValue(v, kind, quoted, strings.EqualFold(text[s:e], "key")) {
		if credentialPiece(v) {
			st.pieces = append(st.pieces, window{vs, ve})
		}
		return
	}
	if len(v) < minBearer && (afterAuthScheme(text, e, vs) || strings.EqualFold(text[s:e], "bearer")) {
		return
	}
	st.lastValue.reported = true
	f := finding{generic: true, Finding: Finding{Value: v, Start: vs, End: ve, Example: looksLikeExample(v)}}
	switch {
	case awsSecretShape(v) && (aws || containsFold(text[max(0, s-256):s], "aws")):
		f.Type, f.Rule = "aws_secret_key", "aws-secret-key"
	case kind == credPassword:
		f.Type, f.Rule = "password_assignment", "password-assignment"
	default:
		f.Type, f.Rule = "generic_api_key", "keyword-assignment"
	}
	st.add(f)
}

// credentialValue decides whether v, assigned to a credential name, is a
// credential.
func credentialValue(v string, kind credKind, quoted, bareKey bool) bool {
	minLen := 10
	switch {
	case kind == credPassword:
		minLen = 6
	case bareKey:
		minLen = 16
	}
	if len(v) < minLen || len(v) > 1024 {
		return false
	}
	if nonValues[strings.ToLower(v)] || templated(v) || masked(v) || padded(v) || digestValue(v) {
		return false
	}
	if strings.Contains(v, "://") || pathLike(v) || fileNameLike(v) || emailLike(v) || hostLike(v) || numeric(v) {
		return false
	}
	if strings.Count(v, `\`)*6 >= len(v) {
		return false // escaped text ("\u3299\ufe0f"), not a literal value
	}
	digits := strings.IndexFunc(v, func(r rune) bool { return r >= '0' && r <= '9' }) >= 0
	// A 32-byte hex literal named as a key is one (an Ethereum private key
	// in code); other hex literals are constants.
	key32 := hexLiteral(v) && len(v) == 66
	// A key built from counting runs (ghp_ABCDEFGHIJ…0123) reads as words
	// but is a documented example key: reported, and marked.
	counting := len(v) >= 16 && sequenceRun(v) >= 6 && charKinds(v) >= 3
	// Letters and digits switching all along: random, not a name.
	random := len(v) >= 16 && (digitSwitches(v) >= 6 || lowerRandom(v))
	if !key32 && (hexLiteral(v) || !quoted && !counting && !random && codeValue(v, kind == credPassword)) {
		return false
	}
	// A documented key ("…EXAMPLEKEY") is judged on the rest of its shape,
	// so that it is reported (marked) rather than mistaken for a word.
	shape := v
	if i := indexFold(v, "example"); i >= 0 {
		shape = v[:i] + v[i+len("example"):]
	}
	if strings.HasSuffix(v, "=") || strings.HasSuffix(v, ":") {
		if core := strings.TrimRight(v, "=:"); nonValues[strings.ToLower(core)] || wordish(core) {
			return false // "password=", "scmVersion=": another key, not a value
		}
	}
	if kind == credPassword {
		if strings.Contains(v, " ") {
			// A label or a sentence ("Enter your password"), not a password.
			return digits || strings.ContainsAny(v, "!#$%&*+/=?@^_~") || !allWords(v)
		}
		// Symbols count only inside the value: "-anonymous@" is a word.
		inner := strings.TrimFunc(v, func(r rune) bool { return r < 0x80 && !isAlnum(byte(r)) })
		if digits || strings.ContainsAny(inner, "!\"#$%&'*+,/:;<=>?@[\\]^`{|}~") || !wordish(shape) {
			return true
		}
		if inner != v {
			return false
		}
		// A word: a password when quoted, unless it is shaped like a
		// name (encodeUserPassword, db_password_field).
		return quoted && !strings.Contains(v, "_") && countSegments(v) == 1
	}
	if strings.ContainsAny(v, " \t") || wordish(shape) && !counting && !random || charKinds(v) < 2 && !random || hasVersion(v) || slug(v) {
		return false
	}
	h := entropy.Bits(v)
	if bareKey {
		return h >= 3.5
	}
	if len(v) >= 16 {
		return h >= 3.0
	}
	return h >= 2.6
}

// digestValue: v names its hash algorithm before the digest
// ("SHA256:3KJaq…", "sha512-…", "md5:…"): a fingerprint or checksum,
// which a key's name beside it (author_key_fingerprint) does not make a
// key.
func digestValue(v string) bool {
	i := strings.IndexAny(v, ":-")
	return i > 0 && digestName(v[:i])
}

// digestName: p is the name of a hash algorithm.
func digestName(p string) bool {
	switch strings.ToLower(p) {
	case "md5", "sha1", "sha224", "sha256", "sha384", "sha512", "sha3", "blake2b", "blake2s", "blake3", "xxh64", "crc32":
		return true
	}
	return false
}

// lowerRandom: v is lower-case letters only and reads as drawn at random,
// not as words run together: few vowels (a fifth of random letters are,
// two fifths of English) and consonants four in a row somewhere, or five
// in a row anywhere ("…pgxqns…"; "mysupersecretpassword" has neither).
func lowerRandom(v string) bool {
	vowels, cluster, maxCluster := 0, 0, 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case !isLower(c):
			return false
		case strings.IndexByte("aeiouy", c) >= 0:
			vowels++
			cluster = 0
		default:
			cluster++
			maxCluster = max(maxCluster, cluster)
		}
	}
	return (vowels*10 < len(v)*3 && maxCluster >= 4 || maxCluster >= 5) && entropy.Bits(v) >= 3.5
}

func allWords(v string) bool {
	for _, w := range strings.Fields(v) {
		if !wordish(w) && !nonValues[strings.ToLower(w)] && len(w) > 3 {
			return false
		}
	}
	return true
}

// awsSecretShape: AWS secret access keys are 40 characters of base64.
func awsSecretShape(v string) bool {
	if len(v) != 40 {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; !isAlnum(c) && c != '/' && c != '+' {
			return false
		}
	}
	return entropy.Bits(v) >= 3.5
}

func pathLike(v string) bool {
	if strings.Count(v, "/") >= 1 && !strings.ContainsAny(v, "+=") {
		// sync/atomic, very/nested/s/u/b: words between slashes.
		words := true
		for _, p := range strings.Split(v, "/") {
			if len(p) > 3 && !wordish(p) {
				words = false
			}
		}
		if words {
			return true
		}
	}
	switch {
	case strings.HasPrefix(v, "/") && strings.Count(v, "/") >= 2,
		strings.HasPrefix(v, "./"), strings.HasPrefix(v, "../"), strings.HasPrefix(v, "~/"),
		len(v) > 2 && isAlpha(v[0]) && v[1] == ':' && v[2] == '\\':
		return true
	}
	return false
}

var fileExtensions = wordSet(`pem key crt cer p12 pfx jks json yaml yml txt env cfg conf ini xml
	keystore keytab der pub gpg asc csv log html js ts py go rb java sh`)

func fileNameLike(v string) bool {
	i := strings.LastIndexByte(v, '.')
	if i <= 0 || i == len(v)-1 {
		return false
	}
	return fileExtensions[strings.ToLower(v[i+1:])] && !strings.ContainsAny(v[:i], "+=")
}

func emailLike(v string) bool {
	at := strings.IndexByte(v, '@')
	return at > 0 && strings.IndexByte(v[at+1:], '.') > 0 && hostLike(v[at+1:]) && !strings.ContainsAny(v, ":/")
}

// hostLike: a lower-case dotted name (api.example.com, host:8080).
func hostLike(v string) bool {
	if i := strings.LastIndexByte(v, ':'); i > 0 && numeric(v[i+1:]) {
		v = v[:i]
	}
	labels := strings.Split(v, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" {
			return false
		}
		for i := 0; i < len(l); i++ {
			if c := l[i]; !isLower(c) && !isDigit(c) && c != '-' {
				return false
			}
		}
	}
	tld := labels[len(labels)-1]
	return len(tld) >= 2 && isLower(tld[0])
}

// numeric: digits with separators (ports, versions, dates, counts).
func numeric(v string) bool {
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; !isDigit(c) && c != '.' && c != '-' && c != '_' && c != ':' && c != '/' {
			return false
		}
	}
	return true
}

// codeValue reports an unquoted value that reads as code rather than data:
// a call or index, a pointer or negation, a hex literal, or a name
// (getPassword, token.SHL_ASSIGN, C.GO_RSA_PKCS1_PADDING,
// var.db_password). Secrets in code are string literals; bare values are
// secrets only in config formats, where they are random. A password may be
// a plain word with digits (hunter2hunter2), so only member chains and
// digit-free words are code for passwords.
func codeValue(v string, password bool) bool {
	if strings.ContainsAny(v, "()[]{}") || strings.IndexByte("&*!", v[0]) >= 0 && identifierChars(strings.NewReplacer("->", ".", "::", ".").Replace(strings.TrimLeft(v, "&*!"))) || strings.HasSuffix(v, ":") {
		// &cfg, *ptr, !enabled; not *hVrMz=V?5^, a password that
		// starts with a symbol.
		return true
	}
	if hexLiteral(strings.TrimPrefix(v, "-")) {
		return true
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; !isAlnum(c) && c != '_' && c != '$' && c != '.' {
			return false // symbols: data
		}
	}
	if !isAlpha(v[0]) && v[0] != '_' && v[0] != '$' {
		return false
	}
	digits := strings.IndexFunc(v, func(r rune) bool { return r >= '0' && r <= '9' }) >= 0
	if !digits {
		return true
	}
	if password && !strings.Contains(v, ".") {
		return false
	}
	for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == '.' || r == '_' }) {
		if len(part) > 5 && !wordish(part) {
			return false
		}
	}
	return true
}

func hexLiteral(v string) bool {
	if len(v) < 3 || v[0] != '0' || (v[1] != 'x' && v[1] != 'X') {
		return false
	}
	for i := 2; i < len(v); i++ {
		if c := lowerASCII(v[i]); !isDigit(c) && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// hasVersion: a value carrying a release number (jjwt-jackson-0.11.2,
// rc0.15.0_20231217) is a package coordinate or build tag.
func hasVersion(v string) bool {
	for _, chunk := range strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == '_' || r == ':' || r == '/' }) {
		c := strings.TrimPrefix(strings.TrimPrefix(strings.ToLower(chunk), "v"), "rc")
		parts := strings.Split(c, ".")
		if len(parts) < 2 || len(parts) > 4 {
			continue
		}
		ok := true
		for _, p := range parts {
			if p == "" || len(p) > 8 || !numeric(p) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// indexFold is strings.Index ignoring ASCII case; lit is lower-case.
func indexFold(s, lit string) int {
	for i := 0; i+len(lit) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(lit)], lit) {
			return i
		}
	}
	return -1
}

// queryParamAt: text[j] is the '&' before the next name=value of a query.
func queryParamAt(text string, j int) bool {
	if text[j] != '&' {
		return false
	}
	k := j + 1
	for k < len(text) && isIdentByte(text[k]) {
		k++
	}
	return k > j+1 && k < len(text) && text[k] == '='
}

// callArgument: the quote at q opens the first argument of a call.
func callArgument(text string, q int) bool {
	for q > 0 && isSpace(text[q-1]) {
		q--
	}
	return q > 0 && text[q-1] == '('
}

func identifierChars(v string) bool {
	if v == "" || !isAlpha(v[0]) && v[0] != '_' {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; !isAlnum(c) && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// pairedValue recognises the value half of a name/value pair written as two
// fields: value="…" in XML attributes, "value": "…" in JSON (Postman and
// similar exports). At *i (after the name's closing quote) it skips a
// separating comma and blanks; on success *i is after the '=' or ':'.
func pairedValue(text string, i *int) bool {
	j := *i
	if j < len(text) && text[j] == ',' {
		j++
	}
	for j < len(text) && j-*i < 16 && (isSpace(text[j]) || text[j] == '\n' || text[j] == '\r') {
		j++
	}
	q := j < len(text) && text[j] == '"'
	if q {
		j++
	}
	if !hasPrefixFold(text[j:], "value") {
		return false
	}
	j += len("value")
	if q {
		if j >= len(text) || text[j] != '"' {
			return false
		}
		j++
	}
	for j < len(text) && isSpace(text[j]) {
		j++
	}
	if j >= len(text) || text[j] != '=' && text[j] != ':' || strings.HasPrefix(text[j:], "==") {
		return false
	}
	*i = j + 1
	return true
}

// slug: lower-case words joined by dashes, dots or underscores
// (gtk-im-preedit-style, switch-to-workspace-up): a name.
func slug(v string) bool {
	parts := strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		for i := 0; i < len(p); i++ {
			if !isLower(p[i]) && !isDigit(p[i]) {
				return false
			}
		}
		if len(p) > 3 && !wordLike(p) {
			return false
		}
	}
	return true
}

// isFieldValue: the identifier starting at s is the value of a field
// (name: API_TOKEN, key = "…"), not a name of its own.
func isFieldValue(text string, s int) bool {
	j := s
	for j > 0 && isSpace(text[j-1]) {
		j--
	}
	return j > 0 && (text[j-1] == ':' || text[j-1] == '=')
}

// blockScalar returns where the value at i starts when i is a YAML block
// scalar's indicator (token: >- then the value on the next, indented,
// line), else i.
func blockScalar(text string, i int) int {
	if i >= len(text) || text[i] != '|' && text[i] != '>' {
		return i
	}
	j := i + 1
	for j < len(text) && j-i < 4 && (text[j] == '-' || text[j] == '+' || text[j] >= '1' && text[j] <= '9') {
		j++
	}
	for j < len(text) && isSpace(text[j]) {
		j++
	}
	if j < len(text) && text[j] == '\r' {
		j++
	}
	if j >= len(text) || text[j] != '\n' {
		return i
	}
	j++
	k := j
	for k < len(text) && isSpace(text[k]) {
		k++
	}
	if k == j {
		return i // a block's lines are indented
	}
	return k
}

// proseName: name is a word of a sentence (lower-case letters only) or a
// name a log line prints before its value ("using signing_secret 6107…",
// "api_key 9f…": words joined by underscores), not an identifier of code,
// whose values follow an operator.
func proseName(name string) bool {
	for i := 0; i < len(name); i++ {
		if !isLower(name[i]) && (name[i] != '_' || i == 0 || i == len(name)-1) {
			return false
		}
	}
	return name != ""
}

// hexSecret: the word at text[i] is 32 to 128 hex digits of one case,
// letters and digits both.
func hexSecret(text string, i int) bool {
	j, upper, lower, letters := i, false, false, false
	for j < len(text) && j-i <= 128 && jsontext.IsHex(text[j]) {
		upper, lower = upper || isUpper(text[j]), lower || isLower(text[j])
		letters = letters || !isDigit(text[j])
		j++
	}
	end := j == len(text) || !isAlnum(text[j]) && text[j] != '_'
	return end && j-i >= 32 && j-i <= 128 && letters && !(upper && lower) && digitSwitches(text[i:j]) >= 6
}

// strongName: name is a credential by a word stronger than a bare "key"
// (a token, a secret, a password).
func strongName(name string) bool {
	kind, _ := judgeName(name)
	return kind == credToken || kind == credPassword
}

// proseSecret: the word at text[i] is 20 to 200 letters and digits (and
// -_+/=) that randomToken takes for random, with letters and digits
// switching all along: a hex digest, a UUID or a version has no
// capitals, a word no digits, and words joined by digits read as words.
func proseSecret(text string, i int) bool {
	j := i
	for j < len(text) && j-i <= 200 && (isAlnum(text[j]) || strings.IndexByte("-_+/=", text[j]) >= 0) {
		j++
	}
	v := text[i:j]
	return len(v) >= 20 && len(v) <= 200 && digitSwitches(v) >= 6 && randomToken(v)
}
