package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strings"
)

// corpus makes the tool results and outgoing arguments the flow figures
// are measured on: deterministic for a seed, shaped like what agents read
// (prose, source code, JSON listings, logs, config files) and, in one result
// of ten, holding credentials the secret detector knows. Uniform filler
// would flatter the engine: its fingerprints would all collide or none would.
type corpus struct {
	rng *rand.Rand
}

func newCorpus(seed uint64) *corpus {
	return &corpus{rng: rand.New(rand.NewPCG(seed, 0x666c6f7764))}
}

// doc is one tool result's text and the secrets planted in it.
type doc struct {
	text    string
	secrets []string
}

// vocabulary is drawn from with a skew, as real text is: a few words are
// everywhere, most are rare.
var vocabulary = strings.Fields(`the of and to in is that for it as with was on be by this are from at or
	an have not which but all were when we there can has more one their will if about into
	would been only other its some time could these two may then first any new like our
	such over also after where most through between should each because while system data
	user file server request response session origin token config value result error client
	process message stream socket policy network record index window buffer schema field
	deploy release branch commit review merge build cluster node service handler router
	account invoice customer order payment ledger budget quarter revenue forecast contract
	meeting agenda minutes decision owner deadline milestone roadmap incident outage latency
	throughput capacity migration rollback backup restore archive retention compliance audit
	encryption certificate rotation credential permission role group tenant region zone
	kernel driver memory cache thread mutex channel queue worker scheduler timer signal
	parser lexer grammar compiler linker module package library vendor dependency version`)

func (c *corpus) word() string {
	i := int(c.rng.ExpFloat64() * float64(len(vocabulary)) / 5)
	return vocabulary[min(i, len(vocabulary)-1)]
}

func (c *corpus) ident() string {
	return c.word() + strings.ToUpper(c.word()[:1]) + c.word()[1:]
}

func (c *corpus) sentence() string {
	ws := make([]string, 5+c.rng.IntN(16))
	for i := range ws {
		ws[i] = c.word()
	}
	if c.rng.IntN(4) == 0 { // names and numbers make text less repetitive
		ws[c.rng.IntN(len(ws))] = fmt.Sprintf("#%d", c.rng.IntN(100000))
	}
	s := strings.Join(ws, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

func (c *corpus) prose(size int) string {
	var b strings.Builder
	for b.Len() < size {
		b.WriteString(c.sentence())
		if c.rng.IntN(6) == 0 {
			b.WriteString("\n\n")
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()[:size]
}

func (c *corpus) code(size int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\nimport (\n\t\"errors\"\n\t\"fmt\"\n)\n\n", c.word())
	for b.Len() < size {
		fn, arg := c.ident(), c.word()
		fmt.Fprintf(&b, "// %s %s\nfunc %s(%s []byte, limit int) (int, error) {\n", fn, c.sentence(), fn, arg)
		for range 1 + c.rng.IntN(4) {
			fmt.Fprintf(&b, "\tif len(%s) > limit*%d {\n\t\treturn 0, fmt.Errorf(\"%s %s: %%w\", errors.New(%q))\n\t}\n",
				arg, 1+c.rng.IntN(64), c.word(), c.word(), c.sentence())
		}
		fmt.Fprintf(&b, "\treturn len(%s) + %d, nil\n}\n\n", arg, c.rng.IntN(4096))
	}
	return b.String()
}

func (c *corpus) listing(size int) string {
	type row struct {
		ID       int      `json:"id"`
		Title    string   `json:"title"`
		State    string   `json:"state"`
		Owner    string   `json:"owner"`
		URL      string   `json:"url"`
		Labels   []string `json:"labels"`
		Updated  string   `json:"updated_at"`
		Comments int      `json:"comments"`
		Body     string   `json:"body"`
	}
	var rows []row
	for {
		rows = append(rows, row{ID: 100000 + c.rng.IntN(900000), Title: c.sentence(), State: []string{"open", "closed"}[c.rng.IntN(2)],
			Owner: c.ident(), URL: fmt.Sprintf("https://tracker.example.com/%s/%d", c.word(), c.rng.IntN(9999)),
			Labels:   []string{c.word(), c.word()},
			Updated:  fmt.Sprintf("2025-%02d-%02dT%02d:%02d:%02dZ", 1+c.rng.IntN(12), 1+c.rng.IntN(28), c.rng.IntN(24), c.rng.IntN(60), c.rng.IntN(60)),
			Comments: c.rng.IntN(40), Body: c.prose(100 + c.rng.IntN(300))})
		b, _ := json.MarshalIndent(rows, "", "  ") // plain fields always encode
		if len(b) >= size {
			return string(b)
		}
	}
}

func (c *corpus) logs(size int) string {
	var b strings.Builder
	for b.Len() < size {
		fmt.Fprintf(&b, "2025-06-%02d %02d:%02d:%02d.%06d %-5s %s: %s\n", 1+c.rng.IntN(28), c.rng.IntN(24), c.rng.IntN(60),
			c.rng.IntN(60), c.rng.IntN(1000000), []string{"INFO", "WARN", "DEBUG", "ERROR"}[c.rng.IntN(4)], c.ident(), c.sentence())
	}
	return b.String()
}

// config is a settings file with credentials among ordinary keys, the
// way .env files and deployment manifests hold them.
func (c *corpus) config(size int) doc {
	var d doc
	var b strings.Builder
	put := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	put("# %s\n", c.sentence())
	secret := func() {
		switch c.rng.IntN(4) {
		case 0:
			id, key := "AKIA"+c.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16), c.chars(b64Chars, 40)
			put("AWS_ACCESS_KEY_ID=%s\nAWS_SECRET_ACCESS_KEY=%s\n", id, key)
			d.secrets = append(d.secrets, id, key)
		case 1:
			t := "ghp_" + c.chars(alnum, 36)
			put("GITHUB_TOKEN=%s\n", t)
			d.secrets = append(d.secrets, t)
		case 2:
			t := fmt.Sprintf("xoxb-%d-%d-%s", 1e10+c.rng.Int64N(9e10), 1e11+c.rng.Int64N(9e11), c.chars(alnum, 24))
			put("SLACK_BOT_TOKEN=%s\n", t)
			d.secrets = append(d.secrets, t)
		default:
			t := "sk_live_" + c.chars(alnum, 32)
			put("STRIPE_SECRET_KEY=%s\n", t)
			d.secrets = append(d.secrets, t)
		}
	}
	secret()
	for b.Len() < size {
		switch c.rng.IntN(8) {
		case 0:
			put("\n# %s\n", c.sentence())
		case 1:
			if len(d.secrets) < 4 {
				secret()
			}
		default:
			put("%s_%s=%s\n", strings.ToUpper(c.word()), strings.ToUpper(c.word()), c.word()+"-"+c.word())
		}
	}
	d.text = b.String()
	return d
}

const (
	alnum    = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b64Chars = alnum + "/+"
)

func (c *corpus) chars(set string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = set[c.rng.IntN(len(set))]
	}
	return string(b)
}

// result is one tool result of 2–4 KB of text. Each kind ends at the first
// whole item (row, function, line) past size, so size leaves room for one.
func (c *corpus) result() doc {
	size := 2000 + c.rng.IntN(1300)
	switch c.rng.IntN(10) {
	case 0:
		return c.config(size)
	case 1, 2, 3:
		return doc{text: c.prose(size)}
	case 4, 5:
		return doc{text: c.code(size)}
	case 6, 7:
		return doc{text: c.listing(size)}
	default:
		return doc{text: c.logs(size)}
	}
}

// mcpResult wraps text as the result of a tools/call, the bytes flowd
// records as an origin.
func mcpResult(text string) []byte {
	b, _ := json.Marshal(map[string]any{ // strings always encode
		"content": []map[string]string{{"type": "text", "text": text}},
		"isError": false,
	})
	return b
}

// plant is what an outgoing argument carries from the session's origins.
type plant int

const (
	plantNothing plant = iota // fresh text: the common case, a miss
	plantCopy                 // a 300-byte piece of one origin's text
	plantSecret               // one origin's secret, raw or encoded
)

// outgoing is text of about size bytes for an outgoing call carrying p from
// d: an agent's message that quotes a file, or pastes a key into a URL.
func (c *corpus) outgoing(size int, p plant, d doc) string {
	text := c.prose(size)
	var piece string
	switch p {
	case plantNothing:
		return text
	case plantCopy:
		at := c.rng.IntN(len(d.text) - 300)
		piece = d.text[at : at+300]
	case plantSecret:
		s := d.secrets[c.rng.IntN(len(d.secrets))]
		switch c.rng.IntN(3) {
		case 0:
			piece = s
		case 1:
			piece = base64.StdEncoding.EncodeToString([]byte(s))
		default:
			piece = "https://collect.example.net/?k=" + url.QueryEscape(s)
		}
	}
	mid := len(text) / 2
	return text[:mid] + " " + piece + " " + text[mid:]
}
