// Command bench measures what flowd costs an MCP host, in one run on one
// machine: it drives the same stdio MCP servers (internal/testserver, built
// on mcp-go, and bench/rawserver, which answers with precomputed lines)
// directly and through `shim` with a running flowd (and, for the floors
// under that figure, through a shim with no flowd and through one asking
// bench/verdictd, which passes everything at once), and reports added
// latency per tools/call round trip, throughput for a 10 MB result, the
// stripped shim binary size and the resident memory of shim and flowd. It
// also measures the flow engine in process (check time, recording rate and
// memory with 10,000 origins) and `hook evaluate` end to end against a
// session of 10,000 origins, one at a time and from 50 callers at once.
// Each figure is judged against its target.
//
//	go run ./bench [-n 5000] [-runs 20] [-origins 10000] [-bin DIR] [-json]
//
// Direct and shim blocks alternate so that noise from a shared machine falls
// on both sides. A missed target is a result, not an error: it is marked
// MISS and the exit status stays 0; only a benchmark that could not run
// exits non-zero. Sizes use decimal units (1 MB = 1,000,000 bytes). Memory
// figures come from /proc and are reported on Linux only.
package main
