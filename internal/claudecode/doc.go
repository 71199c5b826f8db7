// Package claudecode owns what flowd must know about Claude Code's hooks:
// the JSON a hook gets on stdin (Payload), the JSON a hook prints to tell
// Claude Code what to do (Output), and flowd's entries in Claude Code's
// settings files (Install, Uninstall, Inspect).
//
// Facts here were checked against payloads captured from the real Claude
// Code CLI (2.1.197); testdata/ holds the ones the tests use.
package claudecode
