// Package pins remembers the tools each MCP server offered when the user
// trusted it, and spots a rug pull: a tool whose description, schema or
// annotations changed since, or a tool that appeared later. Such tools
// stay pending, hidden from the model and refused when called, until the
// user approves them. It owns pins.db (bbolt) in flowd's data directory.
//
// A server is known by its identity: the name flowd shows and the command
// that starts it. A tool is pinned as the SHA-256 of a canonical JSON of
// its name, title, description, input and output schemas and annotations.
package pins
