package injection

import (
	"regexp"
	"strings"
)

// Secret outflow across sentences: an order to move a credential out need
// not sit in one sentence, nor in a language the request rules know. A
// file that holds credentials is named the same way in every language
// (~/.ssh/id_rsa, .aws/credentials, .env), and so is an outside address
// (a link, an e-mail address). Both in one text are judged together,
// whatever lies between them: numbered steps, paragraphs, third-person
// notes "for the coding tool", or Korean. A send verb, a machine
// addressee or secrecy towards the user raise the grade; a public key
// (.pub), a negated verb ("never share") and code blocks lower it.

// secretFileKW find candidate names; secretName checks each hit.
var secretFileKW = []string{"id_rsa", "id_ed25519", "id_ecdsa", "id_dsa", ".ssh/", ".aws/", ".env", ".netrc", ".npmrc", ".pypirc",
	"git-credentials", ".kube/config", "kubeconfig", "/etc/shadow", "wallet.dat", ".gnupg", "credentials.json",
	"aws credentials", "ssh key", "private key", "api key", "secret key", "credentials file", "access token", "ssh directory"}

// secretPhrases are English names of secret-bearing objects: weaker than a
// path, they count only with a send verb.
var secretPhrases = map[string]bool{"aws credentials": true, "ssh key": true, "private key": true, "api key": true,
	"secret key": true, "credentials file": true, "access token": true, "ssh directory": true}

// Addresses outside the session: links and e-mail addresses, and chat or
// paste services named in words.
var (
	outsideAddrRe = regexp.MustCompile(`https?://[^\s"'<>()\[\]]{3,}|[\p{L}0-9._%+\-]+@[\p{L}0-9\-]+(?:\.[\p{L}0-9\-]+)*\.[a-z]{2,}|(?:^|[^\p{L}])(?:slack|discord|telegram|pastebin|gist|webhook|public\s+channel|#[a-z0-9][\w\-]{2,})(?:$|[^\p{L}])`)
	// Verbs that move a text to someone: English and the request verbs of
	// the languages request.go knows.
	flowVerbs = wordSet(`send sends submit paste include attach upload post forward email mail share transmit exfiltrate
		leak deliver`)
	// localVerbs are request verbs that also name work on one's own
	// machine ("copy .env.example to .env").
	localVerbs = wordSet(`copy add make provide sync give export`)
	// Negations just before a verb ("never share", "do not paste").
	flowNegRe = regexp.MustCompile(`(?:never|not|n't|no|don't|avoid)\s+(?:\p{L}+\s+)?$`)
	// Text for the model in the third person: "performed by the coding
	// tool, not the human", "for the AI", "the assistant should".
	thirdPersonRe = regexp.MustCompile(`(?:by|for|to)\s+the\s+(?:ai|assistant|agent|model|coding\s+(?:tool|agent|assistant)|bot|llm)\b|not\s+(?:by\s+|for\s+)?the\s+(?:human|user|person|developer)|\bthe\s+(?:ai|assistant|agent|coding\s+tool|model)\s+(?:should|must|will|needs?\s+to|is\s+to)\b`)
	// Where a secret lives, in words.
	homeRe = regexp.MustCompile(`home\s+(?:folder|directory|dir)|hidden\s+(?:\p{L}+\s+)?(?:folder|directory|file)|dotfile|~/`)
	// Numbered steps: an order split so that no sentence holds all of it.
	stepRe = regexp.MustCompile(`(?m)(?:^|\n)\s*(?:step\s+\w+|\d+[.)]|[-*])\s`)
)

// secretFlowReach is how far apart (normalised bytes) a secret's name and
// an address may be and still read as one order.
const secretFlowReach = 1200

// maxAddresses bounds the addresses a text is searched for.
const maxAddresses = 64

// nearest returns the address closest to pos, or -1.
func nearest(addrs [][]int, pos int) (int, int) {
	best, dist := -1, 0
	for k, a := range addrs {
		d := max(a[0]-pos, pos-a[1], 0)
		if best < 0 || d < dist {
			best, dist = k, d
		}
	}
	if best < 0 {
		return -1, -1
	}
	return addrs[best][0], addrs[best][1]
}

// findSecretFlow judges the text around secretFileKW hits.
func (f *fieldScan) findSecretFlow(hits []int) {
	if len(hits) == 0 {
		return
	}
	lt := f.lt
	var addrs [][]int // found once, on the first name that needs them
	for n, h := range hits {
		if n >= maxRequestSentences {
			return
		}
		strong, na, name, ok := secretName(lt, h)
		if !ok || f.publicKeyNear(h) {
			continue
		}
		if addrs == nil {
			addrs = outsideAddrRe.FindAllStringIndex(lt, maxAddresses)
			if addrs == nil {
				return
			}
		}
		ab, ae := nearest(addrs, h)
		if ab < 0 || ab > h+secretFlowReach || ae < h-secretFlowReach {
			continue
		}
		// The sentences of the name and of the address, and what lies
		// between them, are where the verb and addressee are looked for.
		// The sentence after them too: a split order's verb often
		// comes in the next step ("Step three: submit it").
		wa, _ := requestSentence(lt, min(h, ab))
		_, wb := requestSentence(lt, max(h, ae-1))
		if wb+2 < len(lt) {
			_, wb = requestSentence(lt, wb+2)
		}
		win := lt[wa:max(wb, wa)]
		verb, negated := flowVerb(win)
		if !strong {
			// a secret's name with where it lives on the user's machine
			// is a path in words
			sa, sb := requestSentence(lt, na)
			strong = homeRe.MatchString(lt[sa:sb])
		}
		sev, note := 0.0, "a secret file and an outside address"
		switch {
		case strong && verb:
			sev = 0.55
			note += ", with a send verb"
		case strong:
			sev = 0.35
		case verb:
			// "send your API key to https://api…" is how API docs read:
			// a secret's name in words needs more than a verb.
			sev = 0.2
		default:
			continue
		}
		if negated && !verb {
			sev *= 0.5 // "never share your id_rsa": advice
		}
		if thirdPersonRe.MatchString(win) || reqAddresseeRe.MatchString(win) {
			sev += 0.15
			note += ", addressed to the model"
		}
		if reqConcealRe.MatchString(win) {
			sev += 0.1
			note += ", kept from the user"
		}
		if stepRe.MatchString(win) && verb {
			sev += 0.05
		}
		f.finds = append(f.finds,
			finding{rule: "secret-outflow", tier: Contextual, kind: language, sev: min(sev, 0.9), a: na, b: na + len(name), note: note, lang: true},
			finding{rule: "secret-outflow", tier: Contextual, kind: language, sev: min(sev, 0.9), a: ab, b: ae, note: note, lang: true})
		return
	}
}

// secretName checks a hit: the token it starts must name a secret file
// (not process.env, not id_rsa.pub). strong: a path or file name, which
// reads the same in any language.
func secretName(lt string, h int) (strong bool, at int, name string, ok bool) {
	a := h
	for a > 0 && !pathStop(lt[a-1]) {
		a--
	}
	b := h
	for b < len(lt) && !pathStop(lt[b]) {
		b++
	}
	tok := strings.TrimRight(lt[a:b], ".,;:")
	for phrase := range secretPhrases {
		if strings.HasPrefix(lt[h:], phrase) {
			return false, h, phrase, true
		}
	}
	switch {
	case strings.HasSuffix(tok, ".pub"), strings.Contains(tok, ".example"), strings.Contains(tok, ".sample"), strings.Contains(tok, ".template"):
		return false, 0, "", false
	case strings.HasPrefix(lt[h:], ".env"):
		// process.env, dotenv.env: code, not the file. The file is a
		// word of its own or the last part of a path.
		if a < h && lt[h-1] != '/' && lt[h-1] != '~' {
			return false, 0, "", false
		}
		if e := h + 4; e < len(lt) && isWordByte(lt[e]) {
			return false, 0, "", false
		}
	}
	return true, a, tok, true
}

// pathStop ends a path-like token.
func pathStop(c byte) bool {
	return c == ' ' || c == '\n' || c == '\t' || c == '"' || c == '\'' || c == '`' || c == '(' || c == ')' || c == '<' || c == '>' || c == ',' || c >= 0x80
}

// publicKeyNear: the text around a key name speaks of the public half,
// which is meant to be shared.
func (f *fieldScan) publicKeyNear(h int) bool {
	lo, hi := max(0, h-120), min(len(f.lt), h+120)
	return strings.Contains(f.lt[lo:hi], "public key") || strings.Contains(f.lt[lo:hi], ".pub")
}

// flowVerb reports a send verb in s that is not negated, and whether one
// is negated.
func flowVerb(s string) (found, negated bool) {
	eachWord(s, func(i, j int) {
		w := s[i:j]
		if !flowVerbs[w] && (!reqVerbs[w] || localVerbs[w]) {
			return
		}
		if flowNegRe.MatchString(s[max(0, i-24):i]) {
			negated = true
		} else {
			found = true
		}
	})
	return found, negated
}
