package secrets

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"

	"github.com/pelletier/go-toml/v2"
	gitleaks "github.com/zricethezav/gitleaks/v8/config"

	"github.com/flowd-dev/flowd/internal/entropy"
)

// The provider rules (220 formats: ghp_…, xoxb-…, AKIA…, sk_live_…) come
// from gitleaks' maintained default config, read from the gitleaks module at
// build time. Only the rule data is used, run by this package's scanner:
// gitleaks' detect package doubles the binary's growth (archive and git
// readers), runs each keyword-matched rule over the whole text (about 0.2 ms
// per short sample here, against the 50 µs budget for 4 KB) and applies
// allowlists that drop documented example keys, which flowd must report.
//
// Rules left out, and why:
//   - generic-api-key: replaced by the assignment scanner (assign.go), which
//     judges the key name and the value's shape instead of a 1,500-word
//     stop-list tuned to one corpus. The few key-shaped entries of that list
//     are publicly known values: they mark findings as examples;
//   - hashicorp-tf-password: gitleaks runs it on *.tf and *.hcl files only;
//     without a path it is "password = \"…\"" on every text that says
//     "password", which the assignment scanner already judges;
//   - rules with no regex (file-name rules such as pkcs12-file): flowd scans
//     text, not file names.
var skippedRules = map[string]bool{
	"generic-api-key":       true,
	"hashicorp-tf-password": true,
}

// typeNames maps gitleaks rule ids onto flowd's stable type names. Rules not
// listed here keep their id with '-' replaced by '_'.
var typeNames = map[string]string{
	"aws-access-token": "aws_access_key",
	"private-key":      "private_key",
	"jwt":              "jwt",
	"jwt-base64":       "jwt",
	"generic-api-key":  "generic_api_key",
}

var typePrefixes = []struct{ prefix, typ string }{
	{"github-", "github_token"},
	{"slack-", "slack_token"},
}

func typeFor(ruleID string) string {
	if t, ok := typeNames[ruleID]; ok {
		return t
	}
	for _, p := range typePrefixes {
		if strings.HasPrefix(ruleID, p.prefix) {
			return p.typ
		}
	}
	return strings.ReplaceAll(ruleID, "-", "_")
}

// gitleaksFile is the part of gitleaks' config schema this package uses.
type gitleaksFile struct {
	Allowlist  *gitleaksAllowlist  `toml:"allowlist"`
	Allowlists []gitleaksAllowlist `toml:"allowlists"`
	Rules      []struct {
		ID          string              `toml:"id"`
		Regex       string              `toml:"regex"`
		SecretGroup int                 `toml:"secretGroup"`
		Entropy     float64             `toml:"entropy"`
		Keywords    []string            `toml:"keywords"`
		Allowlist   *gitleaksAllowlist  `toml:"allowlist"`
		Allowlists  []gitleaksAllowlist `toml:"allowlists"`
		SkipReport  bool                `toml:"skipReport"`
	} `toml:"rules"`
}

type gitleaksAllowlist struct {
	Condition   string   `toml:"condition"`
	Paths       []string `toml:"paths"`
	Commits     []string `toml:"commits"`
	RegexTarget string   `toml:"regexTarget"`
	Regexes     []string `toml:"regexes"`
	StopWords   []string `toml:"stopwords"`
	TargetRules []string `toml:"targetRules"`
}

// allowRegex is one allowlist pattern and what it is matched against: the
// secret (""), the whole match ("match") or the line ("line"). Most
// patterns are anchored ("^\$\{…"), so the first byte decides before the
// regex runs.
type allowRegex struct {
	re     *regexp.Regexp
	target string
	first  byteSet // bytes a match can start the subject with
}

func (a *allowRegex) matches(subject string) bool {
	if subject == "" || !a.first.has(subject[0]) {
		return subject == "" && a.re.MatchString(subject)
	}
	return a.re.MatchString(subject)
}

// allowlist is what remains of a gitleaks allowlist for text scanning.
// Patterns that describe non-secrets (templates, variables, placeholders)
// drop a finding. Patterns that name specific values (a literal key, or
// anything matching "EXAMPLE") would drop documented example keys, which
// flowd must still report, so they only mark the finding as an example.
type allowlist struct {
	drop      []allowRegex
	known     []allowRegex
	stopwords []string
}

func loadGitleaksRules() ([]*regexRule, map[string]bool, error) {
	var cfg gitleaksFile
	if err := toml.Unmarshal([]byte(gitleaks.DefaultConfig), &cfg); err != nil {
		return nil, nil, fmt.Errorf("parse gitleaks default config: %w", err)
	}
	known := map[string]bool{}
	var global allowlist
	targeted := map[string][]allowlist{}
	globals := cfg.Allowlists
	if cfg.Allowlist != nil {
		globals = append(globals, *cfg.Allowlist)
	}
	for i, a := range globals {
		al, ok, err := compileAllowlist(a)
		if err != nil {
			return nil, nil, fmt.Errorf("gitleaks global allowlist %d: %w", i, err)
		}
		if !ok {
			continue
		}
		if len(a.TargetRules) == 0 {
			global.drop = append(global.drop, al.drop...)
			global.known = append(global.known, al.known...)
			global.stopwords = append(global.stopwords, al.stopwords...)
			continue
		}
		for _, id := range a.TargetRules {
			targeted[id] = append(targeted[id], al)
		}
	}

	var rules []*regexRule
	for _, r := range cfg.Rules {
		lists := append([]gitleaksAllowlist(nil), r.Allowlists...)
		if r.Allowlist != nil {
			lists = append(lists, *r.Allowlist)
		}
		if skippedRules[r.ID] {
			for _, a := range lists {
				for _, w := range a.StopWords {
					if keyShaped(w) {
						known[w] = true
					}
				}
			}
			continue
		}
		if r.Regex == "" || r.SkipReport {
			continue
		}
		rr, err := newRegexRule(r.ID, r.Regex, r.SecretGroup, r.Entropy, r.Keywords)
		if err != nil {
			return nil, nil, fmt.Errorf("gitleaks rule %s: %w", r.ID, err)
		}
		rr.allow = append(rr.allow, global)
		rr.allow = append(rr.allow, targeted[r.ID]...)
		for i, a := range lists {
			al, ok, err := compileAllowlist(a)
			if err != nil {
				return nil, nil, fmt.Errorf("gitleaks rule %s allowlist %d: %w", r.ID, i, err)
			}
			if ok {
				rr.allow = append(rr.allow, al)
			}
		}
		if len(rr.keywords) == 0 {
			// Every rule in the default config has keywords; one without
			// would have to run over every text, which the budget forbids.
			return nil, nil, fmt.Errorf("gitleaks rule %s has no keywords", r.ID)
		}
		rules = append(rules, rr)
	}
	if len(rules) == 0 {
		return nil, nil, fmt.Errorf("gitleaks default config has no usable rules")
	}
	return rules, known, nil
}

// keyShaped: long, random-looking, more than one character kind.
func keyShaped(v string) bool {
	return len(v) >= 16 && !wordish(v) && charKinds(v) >= 2 && entropy.Bits(v) >= 3
}

// compileAllowlist keeps the parts of a gitleaks allowlist that apply to
// text without a file path or commit. ok is false when nothing applies (for
// instance an AND-list that needs a path).
func compileAllowlist(a gitleaksAllowlist) (allowlist, bool, error) {
	var al allowlist
	and := strings.EqualFold(a.Condition, "and") || a.Condition == "&&"
	if and && (len(a.Paths) > 0 || len(a.Commits) > 0) {
		return al, false, nil
	}
	target := a.RegexTarget
	if target == "secret" {
		target = ""
	}
	for _, src := range a.Regexes {
		re, err := regexp.Compile(src)
		if err != nil {
			return al, false, fmt.Errorf("regex %q: %w", src, err)
		}
		ar := allowRegex{re: re, target: target, first: anyByte()}
		if parsed, err := syntax.Parse(src, syntax.Perl); err == nil {
			ar.first = startBytes(parsed)
		}
		if namesValues(src) {
			al.known = append(al.known, ar)
		} else {
			al.drop = append(al.drop, ar)
		}
	}
	for _, w := range a.StopWords {
		al.stopwords = append(al.stopwords, strings.ToLower(w))
	}
	ok := len(al.drop)+len(al.known)+len(al.stopwords) > 0
	return al, ok, nil
}

func anyByte() byteSet { return byteSet{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)} }

// startBytes returns the bytes a match can begin with when every match is
// anchored at the start of the subject, and every byte otherwise.
func startBytes(re *syntax.Regexp) byteSet {
	switch re.Op {
	case syntax.OpConcat:
		if len(re.Sub) > 1 && re.Sub[0].Op == syntax.OpBeginText {
			return firstBytes(&syntax.Regexp{Op: syntax.OpConcat, Sub: re.Sub[1:]})
		}
	case syntax.OpAlternate:
		var b byteSet
		for _, s := range re.Sub {
			sb := startBytes(s)
			for i := range b {
				b[i] |= sb[i]
			}
		}
		return b
	case syntax.OpCapture:
		return startBytes(re.Sub[0])
	}
	return anyByte()
}

// firstBytes returns the bytes a non-empty match of re can begin with.
func firstBytes(re *syntax.Regexp) byteSet {
	switch re.Op {
	case syntax.OpLiteral:
		return bytesOf(&syntax.Regexp{Op: syntax.OpLiteral, Rune: re.Rune[:1], Flags: re.Flags})
	case syntax.OpCharClass:
		return bytesOf(re)
	case syntax.OpCapture, syntax.OpPlus:
		return firstBytes(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min > 0 {
			return firstBytes(re.Sub[0])
		}
	case syntax.OpConcat:
		if len(re.Sub) > 0 {
			if lo, _ := width(re.Sub[0]); lo > 0 {
				return firstBytes(re.Sub[0])
			}
		}
	case syntax.OpAlternate:
		var b byteSet
		for _, s := range re.Sub {
			sb := firstBytes(s)
			for i := range b {
				b[i] |= sb[i]
			}
		}
		return b
	}
	return anyByte()
}

// namesValues reports whether an allowlist pattern lists specific values
// (a plain literal, or a pattern about EXAMPLE keys) rather than a shape.
func namesValues(src string) bool {
	if strings.Contains(strings.ToLower(src), "example") {
		return true
	}
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return false
	}
	re = re.Simplify()
	return re.Op == syntax.OpLiteral && len(re.Rune) >= 8
}
