// Package policy turns what flowd knows about a tool call into an action:
// allow, warn, ask or deny, with a reason a user (and the model) can read.
// It is pure: the judge gathers the facts, this package only decides.
package policy
