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
