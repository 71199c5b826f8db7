package daemon

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/flowd-dev/flowd/internal/activity"
)

// BenchmarkActivityFirstPage is the dashboard's Activity page opening on
// a store of 100,000 records: the newest page, unfiltered and with a
// filter that one record in a thousand matches (the store is scanned
// back until the page fills).
func BenchmarkActivityFirstPage(b *testing.B) {
	d := testDaemon(b, nil)
	details := json.RawMessage(`{"flow":{"risk":"none","origins":[{"server":"fs","tool":"read","kind":"exact"}]}}`)
	for i := range 100000 {
		r := activity.Record{Type: activity.TypeToolCall, Session: "s1", Server: "fs", Tool: "read",
			Decision: "allow", Verdict: "pass", RiskLevel: "none", Details: details}
		if i%1000 == 0 {
			r.Server, r.Decision, r.RiskLevel = "slack", "deny", "critical"
		}
		d.store.Append(r)
	}
	if err := d.store.Flush(); err != nil {
		b.Fatal(err)
	}
	h := d.handler()
	for _, q := range []string{"", "?server=slack", "?risk_level=high"} {
		b.Run("filter="+q, func(b *testing.B) {
			for b.Loop() {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v1/activity"+q, nil))
				if rec.Code != http.StatusOK || rec.Header().Get("Link") == "" {
					b.Fatalf("%d %s: not a full first page", rec.Code, rec.Body)
				}
			}
		})
	}
}
