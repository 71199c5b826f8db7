// Package secrets finds credentials and keys in arbitrary text and names the
// kind of each one (aws_access_key, aws_secret_key, github_token,
// slack_token, private_key, jwt, db_connection_string, url_credentials,
// password_assignment, generic_api_key, credit_card, and the normalised id
// of any other gitleaks rule, such as stripe_access_token).
//
// flowd calls it on every tool result and every tools/call argument, so the
// package owns two things: the rule set and a scanner that keeps the
// per-call cost low.
//
// The rule set is gitleaks' maintained provider rules (read from the
// gitleaks module, see rules.go) plus this package's structural scanners,
// which judge general signals rather than memorised strings: a credential
// name assigned a random-looking value (assign.go), passwords in URL
// userinfo (urlcred.go), PEM private key blocks even when cut short
// (pem.go), and Luhn-valid card numbers with a known issuer (card.go).
//
// The scanner makes one pass over the text with a keyword automaton
// (prefilter.go). A keyword hit is checked cheaply (is there a token long
// enough for the rule's secret next to it?) before any regular expression
// runs, and then only at the hit (rules whose regex begins with optional
// filler and the keyword are tried anchored there) or on a small window
// around it (regexrule.go).
//
// A finding's Value is the exact secret substring of the scanned text, so
// callers can look for it again, re-encoded, in outgoing data. Documented
// example keys are reported like any other, with Example set: a key leaving
// the machine is the event whether or not it is a well-known sample.
package secrets
