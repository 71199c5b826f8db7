package injection

import (
	"encoding/json"
	"regexp"
	"strings"
)

// A parameter that asks the model for a credential is worth a notice
// (paramClaims); two shapes of it are harvesting, whatever the words:
//
//   - the definition tells the model where on the user's machine to get
//     it, by a command that prints one ("Your GitHub token, from gh auth
//     token", "the output of `gcloud auth print-access-token`"): the
//     tool could read its own configuration, and asks the model to read
//     the user's instead;
//   - the credential is for a service the rest of the tool never names
//     and the tool does no remote work at all (a calculator's
//     github_token): the tool has no use for it but to keep it.
//
// A tool of a service that takes its token ("create_issue" of a github
// server with a github_token) names the service elsewhere, and a local
// tool's password (an archive's passphrase) names no service.

// credentialClaims judges the credential parameters of a definition.
func credentialClaims(tool map[string]any, server string) []toolClaim {
	type param struct {
		path, name, desc string
		p                map[string]any
	}
	var creds []param
	var keyNames []string
	eachProperty(tool, "", func(path, name string, p map[string]any) {
		desc := strings.Join(strings.Fields(strings.Join(append(flatStrings(p["description"]), flatStrings(p["title"])...), " ")), " ")
		switch {
		case credentialParam(name, desc):
			creds = append(creds, param{path, name, desc, p})
		case keyNameRe.MatchString(name):
			keyNames = append(keyNames, name)
		}
	})
	if len(creds) == 0 {
		return nil
	}
	// The rest of the definition: what it says besides its credential
	// parameters (a tool that asks for two keys of one service names it
	// in both).
	b, _ := json.Marshal(tool)
	rest := strings.ToLower(string(b))
	for _, c := range creds {
		own, _ := json.Marshal(c.p)
		rest = strings.Replace(rest, strings.ToLower(string(own)), "", 1)
		rest = strings.Replace(rest, `"`+strings.ToLower(c.name)+`"`, "", 1)
	}
	// nor the names of the keys' companions (aws_access_key_id beside
	// aws_secret_access_key).
	for _, n := range keyNames {
		rest = strings.Replace(rest, `"`+strings.ToLower(n)+`"`, "", 1)
	}
	var out []toolClaim
	for _, c := range creds {
		if m := secretCommandRe.FindStringSubmatch(c.desc); m != nil && !determinerRe.MatchString(m[1]) {
			out = append(out, toolClaim{path: c.path, rule: "tool-credential-request", sev: 0.9, excerpt: clip(c.name + ": " + c.desc)})
			continue
		}
		vendor := credentialVendor(c.name, c.desc)
		if vendor != "" && !strings.Contains(rest, vendor) && !strings.Contains(strings.ToLower(server), vendor) && !remoteWorkRe.MatchString(rest) {
			out = append(out, toolClaim{path: c.path, rule: "tool-credential-request", sev: 0.9,
				excerpt: clip(c.name + ": " + c.desc + " (a " + vendor + " credential, for a tool that names no such service)")})
		}
	}
	return out
}

// credentialParam: the parameter's name or description says it holds a
// credential.
func credentialParam(name, desc string) bool {
	snake := strings.ToLower(strings.ReplaceAll(camelSpaced(name), " ", "_"))
	if benignSecretName.MatchString(name) && !tokenNameRe.MatchString(snake) {
		return false
	}
	return secretNameRe.MatchString(name) || tokenNameRe.MatchString(snake) || credentialDescRe.MatchString(desc)
}

// credentialVendor returns the service a credential parameter names, in
// lower case: a word of its name beside the credential's ("github" of
// github_token) or a capitalised name before it in its description
// ("Your Stripe secret key"); "" when it names none.
func credentialVendor(name, desc string) string {
	for _, w := range strings.FieldsFunc(strings.ToLower(camelSpaced(name)), func(r rune) bool { return r == '_' || r == '-' || r == ' ' || r == '.' }) {
		if len(w) >= 3 && !genericCredWords[w] && !strings.ContainsAny(w, "0123456789") {
			return w
		}
	}
	if m := vendorDescRe.FindStringSubmatch(desc); m != nil {
		if w := strings.ToLower(m[1]); !genericCredWords[w] {
			return w
		}
	}
	return ""
}

// eachProperty calls fn for every property of every schema in v, with
// its path (under path).
func eachProperty(v any, path string, fn func(path, name string, p map[string]any)) {
	var stack []string
	if path != "" {
		stack = append(stack, path)
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			if props, ok := x["properties"].(map[string]any); ok {
				for k, e := range props {
					if p, ok := e.(map[string]any); ok {
						// The path is written only for a property found.
						fn(strings.Join(append(stack, "properties", k), "."), k, p)
					}
				}
			}
			for k, e := range x {
				switch e.(type) {
				case map[string]any, []any:
					stack = append(stack, k)
					walk(e)
					stack = stack[:len(stack)-1]
				}
			}
		}
	}
	walk(v)
}

var (
	// The name of a key's identifier or user, which goes with a secret.
	keyNameRe        = regexp.MustCompile(`(?i)(?:key|token|secret|client|account|user)[_\-]?(?:id|name)$`)
	tokenNameRe      = regexp.MustCompile(`(?:^|[_\-])(?:token|pat|cookie)s?$|(?:access|secret)[_\-]?key$`)
	credentialDescRe = regexp.MustCompile(`(?i)\b(?:api\s+keys?|access\s+tokens?|auth(?:entication)?\s+tokens?|personal\s+access\s+tokens?|secret\s+keys?|private\s+keys?|passwords?|credentials?|session\s+cookies?|bearer\s+tokens?)\b`)
	// A command that prints a credential, after a word that says it is
	// where the value comes from: a command word then one of auth, token,
	// secret, credential, password ("gh auth token", "gcloud auth
	// print-access-token", "security find-generic-password").
	secretCommandRe = regexp.MustCompile("(?i)(?:\\bfrom|\\brun(?:ning)?|\\boutput\\s+of|\\bresult\\s+of|\\bvia|\\busing|\\bprinted\\s+by|\\bgiven\\s+by|`)\\s*`?([a-z][\\w.\\-]*)\\s+(?:[\\w.:\\-]+\\s+){0,2}?[\\w.:\\-]*(?:auth|token|secret|credential|password|passwd)[\\w.:\\-]*\\b")
	// Words that begin a noun phrase, not a command.
	determinerRe = regexp.MustCompile(`(?i)^(?:the|a|an|your|their|its|this|that|our|my|his|her|any|each|every|user'?s?|some|which|where|when)$`)
	vendorDescRe = regexp.MustCompile(`\b(?:[Yy]our|[Tt]he\s+user'?s|[Tt]heir|[Aa]n?|[Tt]he)\s+([A-Z][A-Za-z0-9.\-]*[A-Za-z0-9])\s+(?:(?:personal\s+)?access\s+|api\s+|API\s+|auth\s+|oauth\s+|OAuth\s+|account\s+|login\s+|secret\s+)?(?:token|key|secret|password|credentials?|PAT|pat|cookie)s?\b`)
	// Work that reaches a service: a tool that does any may need a
	// credential its definition does not name.
	remoteWorkRe     = regexp.MustCompile(`(?i)\b(?:api|apis|service|services|account|accounts|remote|cloud|servers?|hub|registry|repo|repos|repository|repositories|upload|uploads|download|downloads|sync|syncs|fetch|fetches|https?|urls?|login|log\s+in|sign\s+in|oauth|webhooks?|publish|publishes|deploy|deploys|push|pushes|pull|clone|issues?|pull\s+requests?|gists?|organi[sz]ations?|workspaces?|channels?|buckets?|endpoints?|hosts?|online|web|internet|provider|integrations?|connects?|connection|mailbox|inbox|e-?mails?|messages?|calendar|drive|storage|database|query|queries|search)\b`)
	genericCredWords = wordSet(`api apis access auth oauth oauth2 bearer refresh session id client user personal app application
		private public secret secrets service account admin master root default custom optional new old current temp temporary
		deploy deployment signing encryption webhook upload download read write jwt csrf xsrf idempotency page cursor next
		continuation license licence product project workspace team org organization organisation bot integration installation
		test live prod production sandbox dev development site host storage bucket cache sort primary partition object
		ssh gpg pgp hmac consumer shared mfa otp totp verification invite invitation reset recovery unlock login sign code
		value raw encoded pin card wallet proxy registry vault repo repository git remote local server http https basic
		digest request response upstream main provider platform cloud customer merchant partner store shop payment super
		system global env environment instance cluster tenant channel room group device machine node agent tool mcp model
		token tokens pat key keys password passwords passwd passphrase credential credentials cookie cookies the your their
		for with and from api-key apikey accesstoken authtoken webhook string optional required valid`)
)
