package injection

import "strings"

// The session's tools. A request in data is worth more when the model
// that reads it can carry it out: "add 'mx-helper' as a collaborator" in
// an issue is idle talk to a model without tools and an order to one
// holding add_collaborator. Context.SessionTools names the tools; their
// names give the verbs (add, share, transfer) and the objects
// (collaborator, document, funds) such a request is made of.

// toolVocab is what the session's tool names say they do.
type toolVocab struct {
	// verbs maps a verb of a tool's name to the other words of the names
	// it heads ("add" → "collaborator", "member").
	verbs map[string][]string
	// calls are the snake_case names of the tools that change something
	// (delete_repo, transfer_funds), lower case: data that tells the
	// model to call one by name gives it an order it can carry out.
	calls map[string]bool
}

// actionVerbs are verbs that move data, access or money to someone: what
// a recipient named in data can gain from. Tools that only read (get,
// list, search) or act in place (create, delete, run) give no verb here:
// "book a table with https://…" names no one who gains.
var actionVerbs = wordSet(`send email mail forward reply share transfer pay wire invite grant add post publish upload
	give assign delegate export sync attach dm sms text message tweet comment submit copy move push deposit withdraw
	refund sell transmit notify cc bcc`)

// changeVerbs open the names of tools that change something: what a
// page has no business telling the model to call. Tools that read (get,
// list, search) are what error messages and hints name as a matter of
// course ("call list_repos to see…").
var changeVerbs = wordSet(`send email mail forward reply share transfer pay wire invite grant add post publish upload
	give assign delegate export sync attach message submit move push deposit withdraw refund sell buy book cancel
	delete remove drop destroy purge wipe erase update set merge approve close archive revoke rotate reset deploy
	execute run create write edit modify change disable enable`)

// callVerbs are the verbs that tell a model to call a tool.
var callVerbs = wordSet(`run call use invoke execute trigger fire`)

// namedCalls returns where lt (lower case) tells its reader to call one
// of the session's tools that change something, by its name: a verb of
// calling that opens a clause ("Maintenance: run delete_repo on…",
// "please use the transfer_funds tool to…"), then the name.
func (v *toolVocab) namedCalls(lt string) [][2]int {
	if v == nil || len(v.calls) == 0 {
		return nil
	}
	var out [][2]int
	for i := 0; len(out) < maxRequestSentences; {
		k := strings.IndexByte(lt[i:], '_')
		if k < 0 {
			break
		}
		k += i
		a, b := k, k
		for a > 0 && (isAlnum(lt[a-1]) || lt[a-1] == '_') {
			a--
		}
		for b < len(lt) && (isAlnum(lt[b]) || lt[b] == '_') {
			b++
		}
		i = b
		if !v.calls[lt[a:b]] {
			continue
		}
		ws := lastWords(lt[:a], 2)
		if len(ws) > 0 && ws[len(ws)-1] == "the" {
			ws = ws[:len(ws)-1]
		}
		if len(ws) == 0 || !callVerbs[ws[len(ws)-1]] {
			continue
		}
		at := strings.LastIndex(lt[:a], ws[len(ws)-1])
		if clauseStart(lt, at) {
			out = append(out, [2]int{at, b})
		}
	}
	return out
}

// toolNameStop are name parts that name no object.
var toolNameStop = wordSet(`to a an the new by for of in on at from with and or all my me it as via api tool mcp`)

// newToolVocab returns nil when no name gives a verb.
func newToolVocab(names []string) *toolVocab {
	var v *toolVocab
	for _, n := range names {
		words := nameWords(n)
		if strings.Contains(n, "_") && len(words) >= 2 && changeVerbs[words[0]] {
			if v == nil {
				v = &toolVocab{verbs: map[string][]string{}}
			}
			if v.calls == nil {
				v.calls = map[string]bool{}
			}
			v.calls[strings.ToLower(n)] = true
		}
		verb := ""
		for _, w := range words {
			if actionVerbs[w] {
				verb = w
				break
			}
		}
		if verb == "" {
			continue
		}
		if v == nil {
			v = &toolVocab{verbs: map[string][]string{}}
		}
		objs := v.verbs[verb]
		for _, w := range words {
			if w != verb && len(w) >= 3 && !toolNameStop[w] && !actionVerbs[w] {
				objs = append(objs, strings.TrimSuffix(w, "s"))
			}
		}
		v.verbs[verb] = objs
	}
	return v
}

// nameWords splits a tool name into lower-case words: snake_case,
// kebab-case, dotted and camelCase.
func nameWords(name string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'A' && c <= 'Z':
			if i > 0 && name[i-1] >= 'a' && name[i-1] <= 'z' {
				flush()
			}
			b.WriteByte(c + 'a' - 'A')
		case c >= 'a' && c <= 'z':
			b.WriteByte(c)
		default:
			flush()
		}
	}
	flush()
	return out
}

// verb reports whether w (lower case) is a verb of the session's tools, in
// the imperative or the third person ("shares").
func (v *toolVocab) verb(w string) (string, bool) {
	if v == nil {
		return "", false
	}
	if _, ok := v.verbs[w]; ok {
		return w, true
	}
	if b, ok := strings.CutSuffix(w, "s"); ok {
		if _, ok := v.verbs[b]; ok {
			return b, true
		}
	}
	return "", false
}

// object reports whether s (lower case) names an object of a tool that
// verb heads ("add … collaborator" for add_collaborator).
func (v *toolVocab) object(verb, s string) bool {
	for _, o := range v.verbs[verb] {
		if strings.Contains(s, o) {
			return true
		}
	}
	return false
}

// hits returns where the verbs of the session's tools stand in lt (the
// lower-cased text), for the request judge: one pass over its words.
func (v *toolVocab) hits(lt string) []int {
	if v == nil || len(v.verbs) == 0 {
		return nil
	}
	var out []int
	for i := 0; i < len(lt) && len(out) < 4*maxRequestSentences; {
		c := lt[i]
		if c < 'a' || c > 'z' {
			i++
			continue
		}
		j := i + 1
		for j < len(lt) && lt[j] >= 'a' && lt[j] <= 'z' {
			j++
		}
		if j-i >= 2 && j-i <= 12 && (i == 0 || lt[i-1] < 0x80) {
			// Only a verb with something like a recipient after it (an
			// address, a link, a quoted handle, a number) is judged.
			if _, ok := v.verb(lt[i:j]); ok && recipientCue(lt[j:min(len(lt), j+240)]) {
				out = append(out, i)
			}
		}
		i = j
	}
	return out
}

func recipientCue(s string) bool {
	return strings.ContainsAny(s, "@'\"‘“") || strings.Contains(s, "http") || strings.Contains(s, "iban") || strings.Contains(s, "account")
}
