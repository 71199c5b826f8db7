package judge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/flowd-dev/flowd/internal/flow"
	"github.com/flowd-dev/flowd/internal/opaque"
)

// What a call to the network may carry of a secret the session holds
// when no matcher finds the secret in it: random-looking text of about
// the secret's length (the secret after a transformation flowd cannot
// undo), or the file the secret came from, named or sent.

// minPayload is the payload that counts when the session's secrets are
// of unknown length (a credential file read by a command).
const minPayload = 16

// carried describes the payload a call carries (or its recent calls to
// the same destination carried together) and the secret's file it names
// or, by a command line, sends.
func carried(sess *flow.Session, in Call, args []byte, facts argFacts) (payload, file string, sent bool) {
	shortest, files := sess.KnownSecrets()
	need := minPayload
	if shortest > 0 {
		need = max(opaque.MinRun, shortest/2)
	}
	var runs []opaque.Run
	var shown []string
	for _, s := range callTexts(args, in.Shell, facts.decoded) {
		for _, r := range opaque.Find(s) {
			runs = append(runs, r)
			if len(shown) < 2 {
				shown = append(shown, clip(r.Text, 24))
			}
		}
	}
	dest := in.Server
	if dest == "" {
		dest = in.Tool
	}
	call, total := sess.Payload(dest, runs, time.Now(), ReadThenSendWindow)
	switch {
	case call >= need:
		payload = fmt.Sprintf("%d characters of random-looking text (%s)", call, strings.Join(shown, ", "))
	case call > 0 && total >= need:
		payload = fmt.Sprintf("%d characters of random-looking text over its recent calls to %s", total, dest)
	}
	for _, f := range files {
		for _, s := range facts.command.Sends {
			if sameFile(s, f) {
				return payload, f, true
			}
		}
	}
	for _, f := range files {
		if names(args, f) {
			return payload, f, false
		}
	}
	return payload, "", false
}

// payloadLimit bounds the arguments read for a payload, as the
// known-secret search bounds what it reads (flow's canonicalLimit): a key
// is not hidden past it in a call that also carries hundreds of KiB.
const payloadLimit = 256 << 10

// callTexts are the texts of a call: its arguments' strings (their raw
// start when they are too large to parse for this), and the command line
// of a hook's Bash. decoded is args as readArgs decoded them, or nil.
func callTexts(args []byte, shell string, decoded any) []string {
	var out []string
	parsed := decoded != nil
	if len(args) <= payloadLimit && !parsed {
		parsed = json.Unmarshal(args, &decoded) == nil
	}
	if len(args) <= payloadLimit && parsed {
		collect(decoded, &out, 0)
	} else {
		out = append(out, string(args[:min(len(args), payloadLimit)]))
	}
	if shell != "" {
		out = append(out, shell)
	}
	return out
}

func collect(v any, out *[]string, depth int) {
	if depth > 32 || len(*out) > maxArgStrings {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if k != "flowd_justification" {
				collect(e, out, depth+1)
			}
		}
	case []any:
		for _, e := range x {
			collect(e, out, depth+1)
		}
	case string:
		*out = append(*out, x)
	}
}

// sameFile reports whether a path as a command line wrote it is the file
// a read named: the same, or one a relative form of the other.
func sameFile(a, b string) bool {
	a, b = clean(a), clean(b)
	if a == b {
		return true
	}
	return strings.HasSuffix(b, "/"+a) || strings.HasSuffix(a, "/"+b)
}

func clean(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	p = strings.TrimPrefix(p, "~")
	p = path.Clean(p)
	return strings.TrimPrefix(p, "./")
}

// names reports whether a call's arguments name the file: its path, or
// its base name when that is distinctive enough (a dot and five
// characters) not to turn up by chance.
func names(args []byte, file string) bool {
	f := clean(file)
	if bytes.Contains(args, []byte(f)) {
		return true
	}
	base := path.Base(f)
	return len(base) >= 5 && strings.Contains(base, ".") && bytes.Contains(args, []byte(base))
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
