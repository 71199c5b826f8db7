package activity

import "github.com/flowd-dev/flowd/internal/untrusted"

// Shown is r as flowd shows it to a viewer (the API and its event
// stream, the dashboard, the CSV export, the CLI, flowd mcp): every
// string that someone else may have written — session, server, tool,
// method, reason and each string in its details — neutralised
// (untrusted.Text), and the excerpts of injection findings, which quote
// the attacker, fenced as data (untrusted.Quote). Shown(Shown(r)) is
// Shown(r).
//
// The store keeps what happened, and the JSON-lines export gives it
// unchanged: its lines are what the audit chain hashes. JSON escapes
// every control character and <, > and & there.
func (r Record) Shown() Record {
	r.Session = untrusted.Text(r.Session)
	r.Server = untrusted.Text(r.Server)
	r.Tool = untrusted.Text(r.Tool)
	r.Method = untrusted.Text(r.Method)
	r.Reason = untrusted.Text(r.Reason)
	r.Details = untrusted.JSON(r.Details)
	return r
}
