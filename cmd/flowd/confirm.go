package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/flowd-dev/flowd/internal/localapi"
	"github.com/flowd-dev/flowd/internal/paths"
)

// answered reports whether err is flowd's refusal: it runs, so its files
// are not to be read directly.
func answered(err error) bool {
	var e *localapi.Error
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

// errNotConfirmed ends a command the user did not confirm.
var errNotConfirmed = errors.New("not confirmed; nothing was changed")

// confirm shows what is about to happen at the terminal and waits for the
// user to type want back. There is deliberately no flag to skip it.
func confirm(open tty, what, want string) error {
	t, err := open()
	if err != nil {
		return fmt.Errorf("this needs you at a terminal to confirm, and there is none (%v); run it yourself in a terminal — there is no flag to skip the confirmation", err)
	}
	defer t.Close()
	fmt.Fprintf(t, "%s\nType %s to confirm: ", what, want)
	line, err := bufio.NewReader(io.LimitReader(t, 4096)).ReadString('\n')
	if err != nil && line == "" {
		return errNotConfirmed
	}
	if strings.TrimSpace(line) != want {
		return errNotConfirmed
	}
	return nil
}

// parseAnywhere parses flags that may come before, between or after the
// positional arguments ("show q1 --json"), and returns the positional
// ones.
func parseAnywhere(fl *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fl.Parse(args); err != nil {
			return nil, err
		}
		if fl.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fl.Arg(0))
		args = fl.Args()[1:]
	}
}

// storeCommand is what the quarantine and pins subcommands share: the
// flags that find flowd (or, when it is not running, its data dir) and the
// positional arguments, which may come before or after the flags.
type storeCommand struct {
	client  *localapi.Client
	dataDir string
	json    bool
	pos     []string
}

func parseStoreCommand(name string, args []string, dataDirUse string) (storeCommand, error) {
	fl := flag.NewFlagSet(name, flag.ContinueOnError)
	socket := clientSocket(fl)
	dataDir := fl.String("data-dir", paths.DataDir(), dataDirUse+" (env FLOWD_DATA_DIR)")
	asJSON := fl.Bool("json", false, "print JSON")
	pos, err := parseAnywhere(fl, args)
	if err != nil {
		return storeCommand{}, err
	}
	return storeCommand{client: localapi.NewClient(socket.Path(), 5*time.Second), dataDir: *dataDir, json: *asJSON, pos: pos}, nil
}

// arg is the i-th positional argument, or "".
func (c storeCommand) arg(i int) string {
	if i < len(c.pos) {
		return c.pos[i]
	}
	return ""
}
