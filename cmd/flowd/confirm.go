package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/paths"
)

// answered reports whether err is flowd's refusal: it runs, so its files
// are not to be read directly.
func answered(err error) bool {
	var e *flowdclient.Error
	return errors.As(err, &e)
}

// tty opens the terminal a human answers at.
type tty func() (io.ReadWriteCloser, error)

// openTTY is the controlling terminal. The answer is read from it, never
// from stdin: an agent's shell can pipe anything into stdin, but a
// command it runs has no terminal of the user's to read from.
func openTTY() (io.ReadWriteCloser, error) {
	return os.OpenFile("/dev/tty", os.O_RDWR, 0)
}

// askPassphrase shows what is about to happen at the terminal and reads
// the user's approval passphrase there, unechoed. There is deliberately
// no flag or environment variable to pass it: the point is that a person
// types it.
func askPassphrase(open tty, what, prompt string) (string, error) {
	t, err := open()
	if err != nil {
		return "", fmt.Errorf("this needs you at a terminal to type your approval passphrase, and there is none (%v); run it yourself in a terminal — there is no flag to skip it", err)
	}
	defer t.Close()
	if what != "" {
		fmt.Fprintln(t, what)
	}
	return readSecret(t, prompt)
}

// readSecret prompts on t and reads one line, without echo when t is a
// real terminal.
func readSecret(t io.ReadWriter, prompt string) (string, error) {
	fmt.Fprint(t, prompt)
	if f, ok := t.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(t)
		return string(b), err
	}
	// A byte at a time: a buffered reader would take the next answer too.
	var line []byte
	b := make([]byte, 1)
	for len(line) < 4096 {
		n, err := t.Read(b)
		if n == 1 && b[0] == '\n' {
			break
		}
		line = append(line, b[:n]...)
		if err != nil {
			if len(line) == 0 {
				return "", fmt.Errorf("read passphrase: %w", err)
			}
			break
		}
	}
	return strings.TrimRight(string(line), "\r"), nil
}

// newFlags is a command's flag set, for parseArgs.
func newFlags(name string) *flag.FlagSet {
	fl := flag.NewFlagSet(name, flag.ContinueOnError)
	fl.Usage = func() {
		fmt.Fprintf(fl.Output(), "usage: %s [flags]\n\nflags:\n", fl.Name())
		fl.PrintDefaults()
	}
	return fl
}

// parseArgs parses a command's flags, which may come before, between or
// after its positional arguments ("show q1 --json"), and returns the
// positional ones. It follows the CLIs users know: -h or --help prints
// the usage on stdout and ends with status 0; a bad flag prints why and
// the usage on stderr and ends with status 2.
func parseArgs(fl *flag.FlagSet, args []string) ([]string, error) {
	var msg bytes.Buffer
	fl.SetOutput(&msg)
	defer fl.SetOutput(nil)
	var pos []string
	for {
		err := fl.Parse(args)
		switch {
		case errors.Is(err, flag.ErrHelp):
			os.Stdout.Write(msg.Bytes())
			return nil, exitError(0)
		case err != nil:
			os.Stderr.Write(msg.Bytes())
			return nil, exitError(2)
		}
		if fl.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fl.Arg(0))
		args = fl.Args()[1:]
	}
}

// isHelp reports whether arg asks for a command's usage.
func isHelp(arg string) bool {
	return arg == "-h" || arg == "-help" || arg == "--help" || arg == "help"
}

// usageError says what is wrong with a command line, then the command's
// usage, and ends with status 2.
func usageError(fl *flag.FlagSet, format string, a ...any) error {
	fmt.Fprintf(os.Stderr, "%s: %s\n", fl.Name(), fmt.Sprintf(format, a...))
	fl.SetOutput(os.Stderr)
	fl.Usage()
	return exitError(2)
}

// noArgs parses the flags of a command that takes no positional argument.
func noArgs(fl *flag.FlagSet, args []string) error {
	pos, err := parseArgs(fl, args)
	if err == nil && len(pos) > 0 {
		err = usageError(fl, "unexpected argument %q", pos[0])
	}
	return err
}

// storeCommand is what the quarantine and pins subcommands share: the
// flags that find flowd (or, when it is not running, its data dir) and the
// positional arguments, which may come before or after the flags.
type storeCommand struct {
	client  *flowdclient.Client
	dataDir string
	json    bool
	pos     []string
}

func parseStoreCommand(name string, args []string, dataDirUse string) (storeCommand, error) {
	fl := newFlags(name)
	socket := clientSocket(fl)
	dataDir := fl.String("data-dir", paths.DataDir(), dataDirUse+" (env FLOWD_DATA_DIR)")
	asJSON := fl.Bool("json", false, "print JSON")
	pos, err := parseArgs(fl, args)
	if err != nil {
		return storeCommand{}, err
	}
	// A release or approval hashes the passphrase (PBKDF2), which takes seconds on a
	// loaded machine.
	return storeCommand{client: askingClient(socket.Path(), 60*time.Second), dataDir: *dataDir, json: *asJSON, pos: pos}, nil
}

// arg is the i-th positional argument, or "".
func (c storeCommand) arg(i int) string {
	if i < len(c.pos) {
		return c.pos[i]
	}
	return ""
}

// askingClient is the client of the commands that send the passphrase
// the user types: it talks only to a flowd that is this very binary
// (localsock.DialFlowd), so that a program listening on flowd's socket in
// its place does not collect the passphrase.
func askingClient(socket string, timeout time.Duration) *flowdclient.Client {
	self, _ := os.Executable() // "": no listener running as the user passes
	return flowdclient.NewFlowdClient(socket, timeout, self)
}
