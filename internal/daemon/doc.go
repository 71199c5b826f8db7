// Package daemon is the flowd process: it takes the socket and its lock,
// opens the stores, serves the local API the CLI uses, upgrades shim
// connections (handed to upstream) and answers agent hooks (a hook event
// in, judge's decision out), and summarises idle sessions.
//
// What it decides and how, it leaves to judge; the MCP streams of the
// shims to upstream.
package daemon
