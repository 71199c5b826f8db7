package secrets

import "strings"

// dbSchemes are URL schemes of databases and brokers; a password in their
// userinfo is a db_connection_string. Driver suffixes (postgresql+psycopg2)
// are stripped before the lookup.
var dbSchemes = wordSet(`postgres postgresql pg mysql mysqlx mariadb mongodb mongo redis rediss
	valkey amqp amqps mssql sqlserver oracle cockroachdb cockroach clickhouse couchdb couchbase
	couchbases neo4j bolt cassandra memcached nats kafka db2 snowflake influxdb rethinkdb
	elasticsearch opensearch tidb vertica presto trino hive timescaledb questdb sqlite`)

// placeholderPasswords are userinfo passwords written in documentation.
var placeholderPasswords = wordSet(`password pass passwd pwd secret pw changeme changeit xxx xxxx
	xxxxx token apikey api_key key mypassword yourpassword your_password mysecretpassword`)

// scanURLAt judges the URL whose "://" is at pos: scheme://user:password@host.
// The finding's value is the password, the part that must not leave.
func scanURLAt(st *scanState, text string, pos int) {
	s := pos
	for n := 0; s > 0 && n < 32 && (isAlnum(text[s-1]) || text[s-1] == '+' || text[s-1] == '.' || text[s-1] == '-'); n++ {
		s--
	}
	if s == pos || !isAlpha(text[s]) {
		return
	}
	scheme := strings.ToLower(text[s:pos])
	if i := strings.IndexByte(scheme, '+'); i > 0 {
		scheme = scheme[:i]
	}
	a := pos + 3
	e := a
	at := -1
	// Passwords are often written with raw '#', '?' or '@' in them, so the
	// authority runs to the first '/' or space and the host follows the last
	// '@'.
	for e < len(text) && e-a < 512 {
		c := text[e]
		if c == '/' || c <= ' ' || c == '"' || c == '\'' || c == '`' || c == '<' || c == '>' || c == '\\' {
			break
		}
		if c == '@' {
			at = e
		}
		e++
	}
	st.work += e - s
	if at < 0 || at+1 >= e {
		return // no userinfo, or no host after it
	}
	colon := strings.IndexByte(text[a:at], ':')
	if colon < 0 || strings.ContainsAny(text[a:a+colon], "?#") {
		return // no password, or the '@' is in a query string
	}
	ps, pe := a+colon+1, at
	pw := text[ps:pe]
	if len(pw) < 4 || templated(pw) || masked(pw) || placeholderPasswords[strings.ToLower(pw)] {
		return
	}
	if colon == 0 && strings.Contains(pw, ":") {
		return // cvs://:pserver:user@host, not a password
	}
	host := strings.ToLower(text[at+1 : e])
	f := finding{generic: true, Finding: Finding{Value: pw, Start: ps, End: pe,
		Example: looksLikeExample(pw) || documentationHost(host)}}
	if dbSchemes[scheme] {
		f.Type, f.Rule = "db_connection_string", "connection-string"
	} else {
		f.Type, f.Rule = "url_credentials", "url-userinfo"
	}
	st.add(f)
}

// documentationHost: the domains reserved for examples (RFC 2606).
func documentationHost(host string) bool {
	if i := strings.IndexAny(host, ":?#"); i >= 0 {
		host = host[:i]
	}
	for _, d := range []string{"example.com", "example.org", "example.net", "example"} {
		if host == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	return false
}

// awsKeyPrefixes start AWS access key ids; a 40-character secret access key
// written right after one is its pair, whatever the surrounding names.
var awsKeyPrefixes = []string{"akia", "asia"}

// scanAWSPairAt looks for a secret access key just after the access key id
// at pos (CSV exports, "AKIA…:secret", credentials pasted on two lines).
func scanAWSPairAt(st *scanState, text string, pos int) {
	e := pos + 20
	if e > len(text) || text[pos] != 'A' || (pos > 0 && isAlnum(text[pos-1])) {
		return
	}
	for i := pos; i < e; i++ {
		if !isUpper(text[i]) && !isDigit(text[i]) {
			return
		}
	}
	if e < len(text) && isAlnum(text[e]) {
		return
	}
	limit := min(len(text), e+200)
	st.work += limit - pos
	walked := st.awsRead
	for i := e; i < limit; {
		if !isB64(text[i]) {
			i++
			continue
		}
		if i > walked.lo && i < walked.hi {
			// The runs from here to walked.hi were read whole by the
			// search after an earlier key id and are no secret key: key
			// ids one after another would each read the next ten's.
			st.work -= min(walked.hi, limit) - i
			i = walked.hi
			continue
		}
		// A run longer than a secret key is not one: it is read only as
		// far as the search reaches, however long it goes on.
		j := i
		for j < limit+1 && j < len(text) && isB64(text[j]) {
			j++
		}
		whole := j == len(text) || !isB64(text[j])
		if awsSecretShape(text[i:j]) && whole {
			st.add(finding{generic: true, Finding: Finding{
				Type: "aws_secret_key", Rule: "aws-secret-key", Value: text[i:j], Start: i, End: j,
				Example: looksLikeExample(text[i:j]),
			}})
			return
		}
		if whole && i > e {
			// Every run that starts after e and before j was read whole.
			st.awsRead = window{e, j}
		}
		i = j
	}
}

func isB64(c byte) bool { return isAlnum(c) || c == '+' || c == '/' }
