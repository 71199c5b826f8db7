package classify

import (
	"fmt"
	"strings"
)

// A tool whose arguments name where they go (a URL, a host, an e-mail
// address, a phone number, a webhook) sends to whoever that is, whatever
// the server calls itself: the schema is evidence of egress the server's
// name cannot outweigh. This is what catches a lookup(host) tool on a
// server named like a local one: the host name is sent to a resolver
// the caller picks, and a label of it can carry data (DNS exfiltration).

// addressFormats are the JSON Schema formats of such a value.
var addressFormats = map[string]string{
	"uri": "a URL", "url": "a URL", "iri": "a URL", "uri-reference": "a URL", "iri-reference": "a URL",
	"uri-template": "a URL", "hostname": "a host name", "idn-hostname": "a host name",
	"ipv4": "an IP address", "ipv6": "an IP address", "email": "an e-mail address", "idn-email": "an e-mail address",
}

// addressWords are tokens of a parameter's name with the same meaning.
var addressWords = map[string]string{
	"url": "a URL", "uri": "a URL", "href": "a URL", "endpoint": "a URL", "webhook": "a webhook",
	"callback": "a callback address", "host": "a host name", "hostname": "a host name", "domain": "a domain",
	"fqdn": "a host name", "ip": "an IP address", "email": "an e-mail address", "recipient": "a recipient",
	"phone": "a phone number", "mobile": "a phone number", "msisdn": "a phone number", "invitee": "a person to invite",
	"beneficiary": "a payee", "payee": "a payee", "iban": "a bank account",
}

// recipientNames are whole parameter names that address a message; as
// tokens they are too common ("path_to_file").
var recipientNames = map[string]bool{"to": true, "cc": true, "bcc": true}

// addressPhrases in a parameter's description say the same in prose.
var addressPhrases = []struct{ phrase, what string }{
	{"url", "a URL"}, {"uri", "a URL"}, {"hostname", "a host name"}, {"host name", "a host name"},
	{"domain name", "a domain"}, {"ip address", "an IP address"}, {"email address", "an e-mail address"},
	{"e mail address", "an e-mail address"}, {"phone number", "a phone number"}, {"webhook", "a webhook"},
	{"recipient", "a recipient"},
}

// targetWords name a place inside a service that a write can land in. A
// write that takes one can put data where someone else reads it: any
// bucket name is valid, and a page, channel or room may be shared or
// public.
var targetWords = set("bucket", "page", "channel", "room", "chat")

// Confidence of egress evidence from a schema: a format or a parameter name
// is the server's structured statement of what the value is; prose less so.
const (
	addressConfidence      = 0.85
	addressProseConfidence = 0.75
	targetConfidence       = 0.7
)

// egress looks for parameters that say where the arguments go.
func egress(params []param, writes bool) (finding, bool) {
	best := finding{}
	for _, p := range params {
		conf, why := paramAddress(p)
		if conf == 0 && writes {
			for _, tok := range tokens(p.name) {
				if targetWords[tok] || targetWords[strings.TrimSuffix(tok, "s")] {
					conf, why = targetConfidence, fmt.Sprintf("names a %s to write to, which others may read", tok)
					break
				}
			}
		}
		if conf > best.conf {
			best = finding{class: External, conf: conf, transport: true,
				reason: fmt.Sprintf("parameter %q %s", p.name, why)}
		}
	}
	return best, best.conf > 0
}

// paramAddress tells whether a parameter's value is an address the tool
// contacts or delivers to.
func paramAddress(p param) (float64, string) {
	if what, ok := addressFormats[p.format]; ok {
		return addressConfidence, fmt.Sprintf("takes %s (format %q), so its value reaches whoever that is", what, p.format)
	}
	if recipientNames[strings.ToLower(p.name)] {
		return addressConfidence, "addresses a recipient"
	}
	for _, tok := range tokens(p.name) {
		if what, ok := addressWords[tok]; ok {
			return addressConfidence, fmt.Sprintf("takes %s, so its value reaches whoever that is", what)
		}
	}
	if conf, what, ex := exampleAddress(p); conf > 0 {
		return conf, fmt.Sprintf("has an example value that is %s (%q), so its value reaches whoever that is", what, shown(ex))
	}
	desc := " " + strings.Join(tokens(p.description), " ") + " "
	for _, a := range addressPhrases {
		if strings.Contains(desc, " "+a.phrase+" ") || strings.Contains(desc, " "+a.phrase+"s ") {
			return addressProseConfidence, fmt.Sprintf("is described as %s, so its value reaches whoever that is", a.what)
		}
	}
	return 0, ""
}

// applyEgress folds egress evidence into the finding from names: a tool
// that takes an address can send, whatever else it is.
func applyEgress(f finding, ok bool, e finding) (finding, bool) {
	switch {
	case !ok:
		return e, true
	case f.class == Internal:
		f.class = Hybrid
		f.conf = min(f.conf, e.conf)
		f.reason += ", but " + e.reason
	default:
		f.conf = min(max(f.conf, e.conf)+agreeBonus, maxHeuristic)
		f.reason += "; " + e.reason
	}
	f.transport = true
	return f, true
}
