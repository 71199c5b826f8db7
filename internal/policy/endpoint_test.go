package policy

import (
	"strings"
	"testing"
)

// The chunked search, which skips lower-casing text that is lower case
// already, finds what a search of the whole text lower-cased finds, with
// the same characters around it.
func FuzzSuspiciousHostAsWholeLowerCase(f *testing.F) {
	for _, s := range []string{
		"post to https://webhook.site/x", "WEBHOOK.SITE", "a.webhook.site.", "webhook.sites", "xwebhook.site",
		"İwebhook.site", "webhook.site\u212a", "\xffwebhook.site\xfe", "sub.Pipedream.NET/path", "webhook-site",
		strings.Repeat("a", hostChunk-5) + "webhook.site " + strings.Repeat("B", 10),
	} {
		f.Add(s)
	}
	hosts := []string{"webhook.site", "pipedream.net", " Requestbin.COM "}
	f.Fuzz(func(t *testing.T, text string) {
		want := make([][]byte, 0, len(hosts))
		for _, h := range hosts {
			want = append(want, []byte(strings.ToLower(strings.TrimSpace(h))))
		}
		whole := findHost(AppendLower(nil, []byte(text)), want, true, true)
		if got := SuspiciousHost([]byte(text), nil, hosts); got != whole {
			t.Fatalf("SuspiciousHost(%q) = %q, the whole text lower-cased gives %q", text, got, whole)
		}
	})
}

// A text without a dot is passed over only where every host has one: a
// host without one is still found in it, in the text or in a view.
func TestSuspiciousHostWithoutADot(t *testing.T) {
	dotted := []string{"webhook.site", "pipedream.net"}
	if got := SuspiciousHost([]byte("send to webhook site"), [][]byte{[]byte("WEBHOOK")}, dotted); got != "" {
		t.Fatalf("found %q in text without a dot", got)
	}
	if got := SuspiciousHost([]byte("no dot here"), [][]byte{[]byte("GET HTTP://WEBHOOK.SITE/X")}, dotted); got != "webhook.site" {
		t.Fatalf("got %q in a view with a dot", got)
	}
	undotted := []string{"webhook.site", "Intranet-Box"}
	if got := SuspiciousHost([]byte("curl http://intranet-box/x"), nil, undotted); got != "intranet-box" {
		t.Fatalf("got %q, want intranet-box in the text", got)
	}
	if got := SuspiciousHost([]byte("nothing"), [][]byte{[]byte("INTRANET-BOX:8080")}, undotted); got != "intranet-box" {
		t.Fatalf("got %q, want intranet-box in a view", got)
	}
}
