package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/flowd-dev/flowd/internal/localapi"
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
