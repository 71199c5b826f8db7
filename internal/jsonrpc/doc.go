// Package jsonrpc reads the envelope of one JSON-RPC 2.0 message as MCP
// sends it over stdio (one message per line) without decoding the rest.
//
// The relay path must forward the original bytes: the SDKs' types drop
// unknown fields and schema keywords when they re-encode. So this package
// only locates the top-level members (id, method, params, result, error)
// as sub-slices of the line, and builds the few messages flowd itself
// originates (a blocked tools/call result).
package jsonrpc
