package fingerprint

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// corpus generates realistic, deterministic tool results: MCP envelopes
// around prose, source code, JSON API listings and logs, 2–4 KB each.
type corpus struct {
	rng   *rand.Rand
	words []string
	zipf  *rand.Zipf
}

func newCorpus(seed uint64) *corpus {
	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
	words := make([]string, 5000)
	for i := range words {
		b := make([]byte, 2+rng.IntN(9))
		for j := range b {
			b[j] = "etaoinshrdlcumwfgypbvkjxqz"[min(25, int(rng.ExpFloat64()*5))]
		}
		words[i] = string(b)
	}
	return &corpus{rng: rng, words: words, zipf: rand.NewZipf(rng, 1.1, 2, uint64(len(words)-1))}
}

func (c *corpus) word() string { return c.words[c.zipf.Uint64()] }

func (c *corpus) sentence() string {
	n := 6 + c.rng.IntN(14)
	ws := make([]string, n)
	for i := range ws {
		ws[i] = c.word()
	}
	ws[0] = strings.ToUpper(ws[0][:1]) + ws[0][1:]
	return strings.Join(ws, " ") + "."
}

func (c *corpus) prose(size int) string {
	var b strings.Builder
	for b.Len() < size {
		b.WriteString(c.sentence())
		if c.rng.IntN(5) == 0 {
			b.WriteString("\n\n")
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

func (c *corpus) code(size int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\n", c.word())
	for b.Len() < size {
		fn, arg := c.word(), c.word()
		fmt.Fprintf(&b, "// %s %s\nfunc %s%d(%s string) (string, error) {\n", fn, c.sentence(), fn, c.rng.IntN(100), arg)
		for range 2 + c.rng.IntN(4) {
			fmt.Fprintf(&b, "\tif strings.HasPrefix(%s, %q) {\n\t\treturn \"\", fmt.Errorf(\"%s %s: %%w\", errNot%s)\n\t}\n",
				arg, c.word()+"-"+c.word(), c.word(), c.word(), c.word())
		}
		fmt.Fprintf(&b, "\treturn %s + %q, nil\n}\n\n", arg, c.word())
	}
	return b.String()
}

func (c *corpus) listing(size int) string {
	type issue struct {
		ID        int      `json:"id"`
		Number    int      `json:"number"`
		Title     string   `json:"title"`
		State     string   `json:"state"`
		URL       string   `json:"html_url"`
		User      string   `json:"user"`
		Labels    []string `json:"labels"`
		CreatedAt string   `json:"created_at"`
		Body      string   `json:"body"`
	}
	var items []issue
	n := 0
	for n < size {
		it := issue{
			ID: 1_000_000 + c.rng.IntN(9_000_000), Number: c.rng.IntN(5000),
			Title: c.sentence(), State: "open",
			URL:  fmt.Sprintf("https://github.com/%s/%s/issues/%d", c.word(), c.word(), c.rng.IntN(5000)),
			User: c.word(), Labels: []string{"bug", c.word()},
			CreatedAt: fmt.Sprintf("2024-%02d-%02dT%02d:%02d:00Z", 1+c.rng.IntN(12), 1+c.rng.IntN(28), c.rng.IntN(24), c.rng.IntN(60)),
			Body:      c.prose(150 + c.rng.IntN(300)),
		}
		items = append(items, it)
		b, _ := json.Marshal(it)
		n += len(b)
	}
	b, _ := json.MarshalIndent(items, "", "  ")
	return string(b)
}

func (c *corpus) logs(size int) string {
	var b strings.Builder
	for b.Len() < size {
		fmt.Fprintf(&b, "2024-05-%02dT%02d:%02d:%02d.%03dZ %s [%s] %s\n", 1+c.rng.IntN(28), c.rng.IntN(24), c.rng.IntN(60), c.rng.IntN(60), c.rng.IntN(1000),
			[]string{"INFO", "WARN", "DEBUG"}[c.rng.IntN(3)], c.word(), c.sentence())
	}
	return b.String()
}

// result returns one tool result of 2–4 KB as an MCP envelope.
func (c *corpus) result() []byte {
	size := 1800 + c.rng.IntN(1800)
	var text string
	switch c.rng.IntN(4) {
	case 0:
		text = c.prose(size)
	case 1:
		text = c.code(size)
	case 2:
		text = c.listing(size)
	default:
		text = c.logs(size)
	}
	return mcpResult(text)
}

func mcpResult(text string) []byte {
	b, err := json.Marshal(map[string]any{
		"content": []map[string]any{{"type": "text", "text": text}},
		"isError": false,
	})
	if err != nil {
		panic(err)
	}
	return b
}

// toolCall returns tools/call params with the given arguments.
func toolCall(args map[string]any) []byte {
	b, err := json.Marshal(map[string]any{"name": "send_message", "arguments": args})
	if err != nil {
		panic(err)
	}
	return b
}
