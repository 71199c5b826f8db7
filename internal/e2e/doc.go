// Package e2e owns flowd's end-to-end tests. They build the real shim,
// flowd, hook and testserver binaries once per run and start them as
// processes next to real MCP servers, clients, the MCP conformance suite
// and the real Claude Code CLI. They check that wrapping a server in the
// shim changes nothing a client can see (same results, same bytes, same
// exit codes and signals), and that what flowd must stop is stopped: a
// denied call, a key leaving through another server or the agent's own
// tools, injected content, a changed tool.
//
// The npm tools come from testdata/npm at the repository root, installed by
// .ci/install-tools into $FLOWD_TOOLS_DIR (default ~/.cache/flowd-test-tools);
// the Claude Code harness is ../shared/harness/claude-code, whose packages
// it installs into $CC_HARNESS_DIR (default ~/.cache/flowd-cc-harness). A
// test uses an install only when its stamp matches the lock file, else it
// skips in one line naming the command (FLOWD_REQUIRE_TOOLS, set by
// .ci/run, makes that a failure). The package has no code outside its
// tests, and they build only for unix: they drive processes through
// process groups and signals. The Windows shim is tested here too, under Wine.
package e2e
