// Command hook connects coding agents' hooks to flowd. An agent runs it
// for every tool call; it shows the call to flowd and tells the agent
// flowd's answer, in the agent's own protocol.
//
//	hook evaluate --event EVENT [--agent claude-code|gemini-cli|cursor] [--fail-closed] [--scan-output] [--socket PATH] [--timeout 2s]
//	hook install   --scope user|project|local [--agent claude-code|gemini-cli|cursor] [--dir PATH] [--fail-closed] [--async-post] [--scan-output]
//	hook uninstall --scope user|project|local [--agent claude-code|gemini-cli|cursor] [--dir PATH]
//	hook status [--dir PATH] [--socket PATH]
//
// evaluate is on every tool call's path, so it stays lean: no config file,
// no logger, no net/http.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/flowd-dev/flowd/internal/version"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `usage:
  hook evaluate --event EVENT [--agent claude-code|gemini-cli|cursor] [--fail-closed] [--scan-output] [--socket PATH] [--timeout 2s]
  hook install   --scope user|project|local [--agent claude-code|gemini-cli|cursor] [--dir PATH] [--fail-closed] [--async-post] [--scan-output]
  hook uninstall --scope user|project|local [--agent claude-code|gemini-cli|cursor] [--dir PATH]
  hook status [--dir PATH] [--socket PATH]
  hook version
`

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "evaluate":
		return evaluate(args[1:], stdin, stdout, stderr)
	case "install":
		return install(args[1:], stdout, stderr, hookBinary)
	case "uninstall":
		return uninstall(args[1:], stdout, stderr)
	case "status":
		return status(args[1:], stdout, stderr)
	case "version", "--version", "-version":
		fmt.Fprintln(stdout, "hook", version.Version)
		return 0
	case "help", "-h", "--help", "-help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "hook: unknown command %q\n%s", args[0], usage)
	return exitUsage
}
