package flowdclient

import (
	"slices"

	"github.com/flowd-dev/flowd/internal/attackfeed"
	"github.com/flowd-dev/flowd/internal/untrusted"
)

// Shown is st as flowd shows it (the API, the dashboard, flowd status,
// flowd mcp): what someone else wrote neutralised (untrusted.Text) — a
// shim's server name and command come from the agent's config, which a
// prompt-injected agent or a malicious project may have written; a
// session ID from the agent; a feed's error may quote its server.
// Shown(Shown(st)) is Shown(st).
func (st Status) Shown() Status {
	if st.Shims != nil {
		shims := make([]Shim, len(st.Shims))
		for i, s := range st.Shims {
			s.Server, s.Session = untrusted.Text(s.Server), untrusted.Text(s.Session)
			s.Command, s.Granted = texts(s.Command), texts(s.Granted)
			shims[i] = s
		}
		st.Shims = shims
	}
	st.Sessions = texts(st.Sessions)
	if st.Feeds != nil {
		feeds := slices.Clone(st.Feeds)
		for i := range feeds {
			feeds[i] = shownFeed(feeds[i])
		}
		st.Feeds = feeds
	}
	return st
}

func shownFeed(f attackfeed.Status) attackfeed.Status {
	f.URL, f.Error = untrusted.Text(f.URL), untrusted.Text(f.Error)
	return f
}

// texts is ss, each neutralised, in a new slice (nil stays nil).
func texts(ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = untrusted.Text(s)
	}
	return out
}
