package secrets

import "strings"

// PEM private keys: gitleaks' private-key rule needs the END line, but tool
// output is often cut short ("head -c 500 id_rsa", a truncated log line), and
// half a private key is still a private key leaving. This scanner reports a
// "-----BEGIN … PRIVATE KEY-----" header followed by a substantial base64
// body, through the END line when there is one.

const (
	pemHeaderKeyword = "-----begin"
	pemMinBody       = 64 // base64 characters, as gitleaks requires
	pemMaxBlock      = 16 << 10
)

func scanPEMAt(st *scanState, text string, pos int) {
	rest := text[pos+len(pemHeaderKeyword):]
	eol := strings.IndexByte(rest, '-')
	if eol < 0 || eol > 100 || !strings.HasPrefix(rest[eol:], "-----") {
		return
	}
	label := strings.ToUpper(rest[:eol])
	if !strings.Contains(label, "PRIVATE KEY") {
		return
	}
	body := pos + len(pemHeaderKeyword) + eol + len("-----")
	end, b64 := pemBody(text, body)
	st.work += end - pos
	if b64 < pemMinBody {
		return
	}
	j := end
	for j < len(text) && j-end < 16 {
		if c := text[j]; c == '\n' || c == '\r' || c == ' ' || c == '\t' {
			j++
		} else if c == '\\' && j+1 < len(text) && (text[j+1] == 'n' || text[j+1] == 'r') {
			j += 2
		} else {
			break
		}
	}
	if hasPrefixFold(text[j:], "-----end") {
		tail := text[j+len("-----end") : min(len(text), j+len("-----end")+100)]
		if close := strings.Index(tail, "-----"); close >= 0 {
			end = j + len("-----end") + close + len("-----")
		}
	}
	st.add(finding{generic: true, Finding: Finding{
		Type: "private_key", Rule: "pem-private-key", Value: text[pos:end], Start: pos, End: end,
		Example: looksLikeExample(text[pos:end]),
	}})
}

// pemBody walks a PEM body from i: base64 lines, optional "Name: value"
// header lines, and newlines written either raw or escaped ("\n" inside a
// JSON string). It returns where the body ends and how many base64
// characters it holds.
func pemBody(text string, i int) (end, b64 int) {
	limit := min(len(text), i+pemMaxBlock)
	end = i
	for i < limit {
		c := text[i]
		switch {
		case isAlnum(c) || c == '+' || c == '/' || c == '=':
			b64++
			i++
			end = i
		case c == '\n' || c == '\r' || c == ' ' || c == '\t':
			i++
		case c == '\\' && i+1 < limit && (text[i+1] == 'n' || text[i+1] == 'r'):
			i += 2
		case c == ':' || c == ',' || c == '-' && !strings.HasPrefix(text[i:], "-----"):
			// Proc-Type: 4,ENCRYPTED / DEK-Info: AES-128-CBC,… header lines.
			i++
			end = i
		default:
			return end, b64
		}
	}
	return end, b64
}
