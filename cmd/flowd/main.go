// Command flowd is the data-flow firewall daemon and its command line.
//
//	flowd run [--system] [--config FILE] [--socket PATH] [--data-dir DIR]
//	flowd status [--json]
//	flowd activity [--type T] [--session ID] [--server NAME] [--limit N] [--json]
//	flowd doctor [--json]
//	flowd classify NAME [--tool TOOL]
//	flowd explain ACTIVITY_ID
//	flowd audit verify [--from ID] [--json] | audit key
//	flowd quarantine list | show ID | release ID
//	flowd pins list | diff SERVER | approve SERVER [TOOL]
//	flowd fingerprints list | key | export FILE | import FILE
//	flowd mcp
//	flowd ui [--print]
//	flowd passphrase set
//	flowd config default | config check FILE | config show --effective [FILE] | config apply
//	flowd install [--user | --system] | uninstall [--purge] | start | stop | restart
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/flowd-dev/flowd/internal/localsock"
)

const usage = `usage: flowd COMMAND [FLAGS]

commands:
  run        run the daemon in the foreground (logs to stderr)
  status     show whether flowd runs, and the shims connected to it
  activity   show what flowd saw and decided
  doctor     check the installation; each problem comes with the command that fixes it
  classify   show how a server or tool is classified: classify NAME [--tool TOOL]
  explain    show why flowd decided what it did: explain ACTIVITY_ID
  audit      the activity log's tamper evidence: audit verify [--from ID] [--json] | audit key
  quarantine tool output blocked as prompt injection: quarantine list | show ID | release ID
  pins       approved tool definitions: pins list | diff SERVER | approve SERVER [TOOL]
  fingerprints
             prints of attacks caught, shared as signed feeds: fingerprints list | key | export FILE | import FILE
  mcp        serve flowd's read-only MCP server on stdio, for a person's client or an auditor agent
  ui         open the dashboard in your browser (ui --print prints its one-time URL)
  passphrase set or change the approval passphrase that release and approve ask for: passphrase set
  config     print the default config (config default), check a file (config check FILE), show the values in force
             and their sources (config show --effective), or apply one held back (config apply)
  install    install flowd as a service, enabled and started: install [--user | --system]
  uninstall  stop and remove the service: uninstall [--purge] (--purge also removes the data)
  start, stop, restart
             control the installed service, or without one, the flowd
             started on demand (start runs it in the background)
  version    print the version
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	var err error
	args := os.Args[2:]
	switch os.Args[1] {
	case "run":
		err = cmdRun(args)
	case "status":
		err = cmdStatus(args)
	case "activity":
		err = cmdActivity(args)
	case "config":
		err = cmdConfig(args)
	case "classify":
		err = cmdClassify(args)
	case "explain":
		err = cmdExplain(args, os.Stdout)
	case "audit":
		err = cmdAudit(args, os.Stdout)
	case "quarantine":
		err = cmdQuarantine(args, os.Stdout, openTTY)
	case "pins":
		err = cmdPins(args, os.Stdout, openTTY)
	case "fingerprints":
		err = cmdFingerprints(args, os.Stdout)
	case "passphrase":
		err = cmdPassphrase(args, os.Stdout, openTTY)
	case "doctor":
		err = cmdDoctor(args)
	case "mcp":
		err = cmdMCP(args)
	case "ui":
		err = cmdUI(args, os.Stdout)
	case "install":
		err = cmdInstall(args)
	case "uninstall":
		err = cmdUninstall(args)
	case "start", "stop", "restart":
		err = cmdControl(os.Args[1], args)
	case "version", "--version":
		err = cmdVersion()
	case "help", "-h", "--help":
		fmt.Print(usage)
		return
	default:
		fmt.Fprintf(os.Stderr, "flowd: unknown command %q\n\n%s", os.Args[1], usage)
		os.Exit(2)
	}
	if err != nil {
		if e, ok := err.(exitError); ok {
			os.Exit(int(e))
		}
		fmt.Fprintln(os.Stderr, "flowd:", err)
		os.Exit(1)
	}
}

// exitError ends the program with a code, having said what it had to.
type exitError int

func (e exitError) Error() string { return fmt.Sprintf("exit %d", int(e)) }

// socketFlag is --socket for a command that talks to flowd. When the flag
// is not given, the socket is looked up on first use, not as the flag's
// default: the lookup dials flowd.
type socketFlag string

func clientSocket(fl *flag.FlagSet) *socketFlag {
	s := new(socketFlag)
	fl.Var(s, "socket", "flowd socket (env FLOWD_SOCKET; default: where this user's flowd answers)")
	return s
}

func (s *socketFlag) String() string     { return string(*s) }
func (s *socketFlag) Set(v string) error { *s = socketFlag(v); return nil }

// Path is the socket given, else the one localsock.Locate finds.
func (s *socketFlag) Path() string {
	if *s == "" {
		*s = socketFlag(localsock.Locate())
	}
	return string(*s)
}
