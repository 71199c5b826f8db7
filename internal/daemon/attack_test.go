package daemon

import (
	"testing"

	"github.com/flowd-dev/flowd/internal/shimproto"
)

func TestProbeClasses(t *testing.T) {
	d := testDaemon(t, nil)
	for _, st := range [][2]string{
		{"github", "get_file_contents"}, {"github", "create_issue"}, {"github", "create_gist"}, {"github", "create_or_update_file"}, {"github", "search_code"},
		{"postgres-db", "query"}, {"postgres-db", "insert_record"}, {"filesystem", "read_file"}, {"filesystem", "write_file"}, {"filesystem", "list_directory"},
		{"gitlab", "get_file"}, {"vault", "read_secret"}, {"s3-bucket", "get_object"}, {"s3-bucket", "put_object"}, {"jira", "get_issue"}, {"jira", "create_issue"}, {"jira", "add_comment"},
		{"slack-notifications", "send_message"}, {"gmail", "send_email"}, {"webhook-relay", "post"}, {"webhook-relay", "send"}, {"discord", "send_message"}, {"twitter", "post_tweet"},
		{"http-fetch", "fetch"}, {"sms-gateway", "send_sms"}, {"confluence", "get_page"}, {"notion", "create_page"}, {"kubernetes", "get_secret"}, {"linear", "create_issue"},
		{"memory", "create_entities"}, {"sqlite", "write_query"}, {"pastebin", "create_paste"}, {"sentry", "get_issue"}, {"mongodb", "find"}, {"1password", "get_item"},
	} {
		u := newUpstream(1, shimproto.Hello{Name: st[0]}, "s")
		r := u.toolClass(d, st[1])
		t.Logf("%-22s %-22s %-9s %.2f %s", st[0], st[1], r.Class, r.Confidence, r.Reason)
	}
}
