package secrets

import "strings"

// netrcKeyword starts a .netrc entry: "machine HOST login USER password PW",
// on one line or spread over a few. Its password follows no '=' or ':',
// so the assignment scanner cannot see it.
const netrcKeyword = "machine "

// scanNetrcAt reads the .netrc entry whose "machine" is at pos and reports
// its password. The entry must have the netrc shape (a login or password
// token after the host) so prose that says "machine" is left alone.
func scanNetrcAt(st *scanState, text string, pos int) {
	if pos > 0 && !isSpace(text[pos-1]) && text[pos-1] != '\n' && text[pos-1] != '\r' {
		return // part of a longer word
	}
	end := min(len(text), pos+512)
	if i := strings.Index(text[pos+len(netrcKeyword):end], netrcKeyword); i >= 0 {
		end = pos + len(netrcKeyword) + i // the next entry
	}
	st.work += end - pos
	fields := strings.Fields(text[pos:end])
	offset := pos
	for i := 0; i+1 < len(fields); i++ {
		offset = strings.Index(text[offset:end], fields[i]) + offset
		if fields[i] != "password" || i < 2 {
			continue
		}
		pw := fields[i+1]
		if len(pw) < 4 || templated(pw) || masked(pw) || placeholderPasswords[strings.ToLower(pw)] {
			return
		}
		start := strings.Index(text[offset+len("password"):end], pw) + offset + len("password")
		st.add(finding{generic: true, Finding: Finding{Type: "password_assignment", Rule: "netrc",
			Value: pw, Start: start, End: start + len(pw), Example: looksLikeExample(pw)}})
		return
	}
}
