// Package upstream is flowd's side of each shim: the MCP stream between a
// client and the server behind the shim. A Stream keeps the protocol's
// bookkeeping (which request each response answers, which protocol era
// the stream speaks, the server's name and tools), hands each call and
// result to the judge and turns its outcome into a shim verdict: a
// blocked call's reply, a result spliced with a notice, a quarantine
// notice in its place. It screens tool lists (poisoned definitions, pins),
// grants shims the tools they may call without waiting, and holds calls
// while the shim asks the user. Hub holds the connected shims, runs each
// connection and withdraws grants when a change could void them.
//
// It never imports daemon; it reaches policy only through the judge.
package upstream
