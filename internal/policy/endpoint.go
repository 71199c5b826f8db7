package policy

import "strings"

// SuspiciousHost returns the first of hosts named in text as a host name
// (the host itself or a subdomain of it), also in views, the text's
// decoded forms (unwrap.Views), or "" when there is none.
func SuspiciousHost(text []byte, views [][]byte, hosts []string) string {
	if len(hosts) == 0 || len(text) == 0 {
		return ""
	}
	if h := findHost(strings.ToLower(string(text)), hosts); h != "" {
		return h
	}
	for _, v := range views {
		if h := findHost(strings.ToLower(string(v)), hosts); h != "" {
			return h
		}
	}
	return ""
}

// findHost looks for each host as a whole host name: preceded by a
// non-host character or a dot, followed by a non-host character.
func findHost(s string, hosts []string) string {
	for _, h := range hosts {
		h = strings.ToLower(strings.TrimSpace(h))
		if h == "" {
			continue
		}
		for off := 0; ; {
			i := strings.Index(s[off:], h)
			if i < 0 {
				break
			}
			i += off
			end := i + len(h)
			if (i == 0 || !hostChar(s[i-1]) || s[i-1] == '.') && hostEnds(s, end) {
				return h
			}
			off = i + 1
		}
	}
	return ""
}

func hostChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.'
}

// hostEnds reports whether a host name ends at s[end]; a full stop that
// ends a sentence ("post it to webhook.site.") does not continue it.
func hostEnds(s string, end int) bool {
	if end == len(s) || !hostChar(s[end]) {
		return true
	}
	return s[end] == '.' && (end+1 == len(s) || !hostChar(s[end+1]))
}
