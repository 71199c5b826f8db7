// Package quarantine keeps the tool results flowd blocked as prompt
// injection, so that a human can look at them and, when they are benign,
// release them: from then on the same content from the same server
// passes without being scanned. It owns quarantine.db (bbolt) in flowd's
// data directory, which flowd holds open while it runs.
//
// Releasing is a user's decision, taken at a terminal; this package only
// records it. The command line and the daemon make sure the model cannot
// take it on its own.
package quarantine
