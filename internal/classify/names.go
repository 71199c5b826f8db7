package classify

import (
	"fmt"
	"strings"
	"unicode"
)

// words splits a name on everything that is not a letter or digit, so
// "@modelcontextprotocol/server-filesystem", "mcp_server.slack" and
// "Slack MCP Server" come apart at the same places.
func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// camelParts splits "sendSlackMessage" into send, slack, message and
// "HTTPRequest" into http, request, all lower case.
func camelParts(w string) []string {
	rs := []rune(w)
	var parts []string
	start := 0
	for i := 1; i < len(rs); i++ {
		prev, cur := rs[i-1], rs[i]
		var next rune
		if i+1 < len(rs) {
			next = rs[i+1]
		}
		lowerToUpper := (unicode.IsLower(prev) || unicode.IsDigit(prev)) && unicode.IsUpper(cur)
		acronymEnd := unicode.IsUpper(prev) && unicode.IsUpper(cur) && unicode.IsLower(next)
		if lowerToUpper || acronymEnd {
			parts = append(parts, strings.ToLower(string(rs[start:i])))
			start = i
		}
	}
	return append(parts, strings.ToLower(string(rs[start:])))
}

// tokens lower-cases and splits a name. A word that is a keyword as a
// whole is kept whole, so brand names written in camel case ("GitHub",
// "PostgreSQL") are not broken apart. Neighbouring tokens whose
// concatenation is a keyword are joined: web+hook, pull+request, file+system.
func tokens(name string) []string {
	var toks []string
	for _, w := range words(name) {
		lw := strings.ToLower(w)
		if _, _, ok := lookup(lw); ok || noise[lw] {
			toks = append(toks, lw)
			continue
		}
		toks = append(toks, camelParts(w)...)
	}
	out := toks[:0:0]
	for i := 0; i < len(toks); i++ {
		if i+1 < len(toks) {
			if _, _, ok := lookup(toks[i] + toks[i+1]); ok {
				out = append(out, toks[i]+toks[i+1])
				i++
				continue
			}
		}
		out = append(out, toks[i])
	}
	return out
}

// hit is one keyword found in a name.
type hit struct {
	word   string // the keyword
	within string // the glued word it was found inside, if a substring match
	cat    *category
	weight float64
}

func (h hit) String() string {
	if h.within != "" {
		return fmt.Sprintf("%q (inside %q) → %s (%s)", h.word, h.within, h.cat.name, h.cat.class)
	}
	return fmt.Sprintf("%q → %s (%s)", h.word, h.cat.name, h.cat.class)
}

// substringFactor discounts a keyword found inside a longer word: "myslackbot"
// is probably Slack, but less certainly than "my-slack-bot".
const substringFactor = 0.85

// nameHits finds the keywords in a server or tool name, each weighted by
// factor. Only when no whole token matches does it look for keywords glued
// into longer words ("mcpslack", "gdrivesync").
func nameHits(name string, factor float64) []hit {
	hits := tokenHits(name, factor)
	if len(hits) > 0 {
		return hits
	}
	for _, w := range words(name) {
		lw := strings.ToLower(w)
		if noise[lw] || len(lw) < minSubstring {
			continue
		}
		for _, kw := range substringKeywords {
			if strings.Contains(lw, kw) {
				k := keywords[kw]
				hits = append(hits, hit{word: kw, within: lw, cat: k.cat, weight: k.weight * factor * substringFactor})
				break
			}
		}
	}
	return hits
}

// tokenHits matches whole tokens only; prose such as a tool description
// uses it directly because words inside longer prose words mean little.
func tokenHits(text string, factor float64) []hit {
	var hits []hit
	for _, t := range tokens(text) {
		if k, word, ok := lookup(t); ok {
			hits = append(hits, hit{word: word, cat: k.cat, weight: k.weight * factor})
		}
	}
	return hits
}

// meaningful lists a name's tokens without noise, to explain a miss.
func meaningful(name string) []string {
	var out []string
	for _, t := range tokens(name) {
		if !noise[t] {
			out = append(out, t)
		}
	}
	return out
}

// finding is the verdict of one body of evidence (a server name, a tool's
// name and parameters) before overrides, annotations and defaults.
type finding struct {
	class     Class
	conf      float64
	reason    string
	private   bool
	shared    bool
	transport bool
}

// Agreement between words raises confidence a little, never to certainty:
// only configuration is certain.
const (
	agreeBonus   = 0.05
	maxHeuristic = 0.97
	// bothSides: a name with internal and external words at least this
	// strong ("slack-to-postgres") is hybrid.
	bothSides = 0.5
)

// decide turns hits into a finding. Ties between classes go to the more
// cautious one (hybrid, then external), so an ambiguous name never comes
// out as the class that lets the most through.
func decide(subject string, hits []hit) (finding, bool) {
	if len(hits) == 0 {
		return finding{}, false
	}
	best := map[Class]hit{}
	var f finding
	for _, h := range hits {
		if b, ok := best[h.cat.class]; !ok || h.weight > b.weight {
			best[h.cat.class] = h
		}
		f.private = f.private || h.cat.private
		f.shared = f.shared || h.cat.shared
		f.transport = f.transport || h.cat.transport
	}
	in, hasIn := best[Internal]
	ex, hasEx := best[External]
	if hasIn && hasEx && in.weight >= bothSides && ex.weight >= bothSides {
		f.class = Hybrid
		f.conf = min(in.weight, ex.weight)
		f.reason = fmt.Sprintf("%s: %s, and %s", subject, in, ex)
		return f, true
	}
	var top hit
	for _, c := range []Class{Hybrid, External, Internal} {
		if h, ok := best[c]; ok && h.weight > top.weight {
			top = h
		}
	}
	f.class = top.cat.class
	f.conf = top.weight
	f.reason = fmt.Sprintf("%s: %s", subject, top)
	seen := map[string]bool{top.word: true}
	for _, h := range hits {
		if h.cat.class == f.class && !seen[h.word] {
			seen[h.word] = true
			f.conf += agreeBonus
			f.reason += fmt.Sprintf(", also %q", h.word)
		}
	}
	f.conf = min(f.conf, maxHeuristic)
	return f, true
}

func (f finding) result(method string) Result {
	r := newResult(f.class, f.conf, method, f.reason)
	// A mailbox or a chat history is the user's data even though the
	// service is external.
	if f.private {
		r.CanReadData = true
	}
	return r
}
