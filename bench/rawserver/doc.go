// Command rawserver is the benchmark's fastest possible stdio MCP upstream:
// it answers initialize and a tools/call of the bytes tool with lines it
// builds once per size, so a throughput figure measures the relay in front
// of it rather than an SDK encoding megabytes of JSON.
//
// It reads newline-delimited JSON-RPC on stdin and writes one response
// line per request on stdout. Notifications get no answer; any other
// request gets a JSON-RPC error, so a benchmark that asks for something
// else fails loudly instead of waiting.
package main
