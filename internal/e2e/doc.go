// Package e2e owns flowd's end-to-end tests. They build the real shim,
// flowd and testserver binaries once per run, start them as processes next
// to real MCP servers, clients and the MCP conformance suite, and check that
// wrapping a server in the shim changes nothing a client can see: same
// results, same bytes, same exit codes and signals.
//
// The npm tools come from testdata/npm at the repository root, installed by
// .ci/run into $FLOWD_TOOLS_DIR (default ~/.cache/flowd-test-tools); tests
// that need them skip, saying so, when they are missing. The package has no
// code outside its tests.
package e2e
