package classify

import (
	"strings"
	"unicode/utf8"
)

// A parameter whose example value (JSON Schema "examples", "example",
// "default", or an example in its description) is an address takes an
// address, whatever its name: a "target" shown as
// https://hooks.example.com/x, a "remote" shown as user@host:/dir.

// exampleMarkers introduce an example in prose. A web link or an e-mail
// address in a description counts only after one of them (or as the
// description's first word): elsewhere it is usually where to read more
// or whom to ask.
var exampleMarkers = []string{"e.g", "eg ", "eg:", "for example", "example", "such as", "like ", "i.e", "format"}

// Bounds on what is read of a parameter's examples: the schema is the
// server's to write.
const (
	maxExamples      = 8
	maxExampleLength = 512
	maxShownExample  = 60
)

// addressShape is what s is, if it is shaped like an address a tool
// would contact ("a URL", "an e-mail address", "a remote host", "a
// network share"), and whether that shape is a web link or e-mail
// address, which prose also uses for references.
func addressShape(s string) (what string, reference bool) {
	s = strings.Trim(s, "()[]{}<>\"'`,;.!?")
	if i := strings.Index(s, "://"); i > 0 {
		scheme := strings.ToLower(s[:i])
		if !schemeName(scheme) {
			return "", false
		}
		rest := s[i+3:]
		host, _, _ := strings.Cut(rest, "/")
		if host == "" || scheme == "file" || scheme == "data" {
			return "", false // a local file, not a place
		}
		return "a URL", scheme == "http" || scheme == "https"
	}
	if strings.HasPrefix(s, `\\`) && len(s) > 3 && strings.Contains(s[2:], `\`) {
		return "a network share", false
	}
	if user, host, ok := strings.Cut(s, "@"); ok && user != "" && !strings.ContainsAny(user, "/:") {
		host, path, remote := strings.Cut(host, ":")
		switch {
		case remote && hostName(host) && !strings.HasPrefix(path, "//"):
			return "a remote host", false // scp, rsync, git over ssh
		case !remote && strings.Contains(host, ".") && hostName(host) && !strings.HasSuffix(host, "."):
			return "an e-mail address", true
		}
		return "", false
	}
	if host, path, ok := strings.Cut(s, ":/"); ok && len(host) > 1 && hostName(host) && !strings.HasPrefix(path, "/") {
		return "a remote host", false // NFS host:/export
	}
	return "", false
}

func schemeName(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' || len(s) > 16 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}

// hostName reports whether s can be a host name: letters, digits, dots
// and dashes, with a letter.
func hostName(s string) bool {
	letter := false
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			letter = true
		case r >= '0' && r <= '9' || r == '.' || r == '-':
		default:
			return false
		}
	}
	return letter && s != ""
}

// exampleAddress finds an address among a parameter's example values,
// then in its description, and says what it is and which it was.
func exampleAddress(p param) (conf float64, what, sample string) {
	for _, ex := range p.examples {
		for _, w := range strings.Fields(ex) {
			if what, _ := addressShape(w); what != "" {
				return addressConfidence, what, w
			}
		}
	}
	words := strings.Fields(p.description)
	for i, w := range words {
		what, reference := addressShape(w)
		if what == "" {
			continue
		}
		if reference && i > 0 && !afterMarker(words[max(0, i-4):i]) {
			continue
		}
		return addressProseConfidence, what, w
	}
	return 0, "", ""
}

// afterMarker reports whether the words before a link introduce it as an
// example.
func afterMarker(before []string) bool {
	text := " " + strings.ToLower(strings.Join(before, " ")) + " "
	for _, m := range exampleMarkers {
		if strings.Contains(text, " "+m) || strings.Contains(text, "("+m) {
			return true
		}
	}
	return false
}

// shown is an example as a reason quotes it: short, whole runes.
func shown(s string) string {
	if len(s) <= maxShownExample {
		return s
	}
	cut := maxShownExample
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
