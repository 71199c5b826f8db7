package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"time"

	"github.com/flowd-dev/flowd/internal/dashboard"
	"github.com/flowd-dev/flowd/internal/flowdclient"
)

// cmdUI opens the dashboard in the user's browser. The login URL holds a
// one-time code, so it is not put on a command line (any local user can
// read another's with ps): the browser is sent to a private file that
// redirects to it, as Jupyter does.
func cmdUI(args []string, out io.Writer) error {
	fl := newFlags("flowd ui")
	socket := clientSocket(fl)
	printOnly := fl.Bool("print", false, "print the one-time URL instead of opening a browser")
	if err := noArgs(fl, args); err != nil {
		return err
	}
	url, err := flowdclient.NewClient(socket.Path(), 5*time.Second).UILogin()
	if err != nil {
		return fmt.Errorf("flowd on %s: %w", socket.Path(), err)
	}
	if *printOnly {
		fmt.Fprintln(out, url)
		return nil
	}
	if err := openBrowser(url); err != nil {
		fmt.Fprintf(out, "could not open a browser (%v); open this URL in yours within 2 minutes (it works once):\n%s\n", err, url)
		return nil
	}
	fmt.Fprintln(out, "the dashboard is open in your browser (flowd ui --print gives the URL instead)")
	return nil
}

// openBrowser opens url through a redirect file only this user can read.
func openBrowser(url string) error {
	if runtime.GOOS != "darwin" && runtime.GOOS != "windows" && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return fmt.Errorf("no graphical session (neither DISPLAY nor WAYLAND_DISPLAY is set)")
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return err
	}
	dir := filepath.Join(cache, "flowd")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	page := filepath.Join(dir, "ui-open.html")
	os.Remove(page) // a file planted by someone else is not written through
	if err := os.WriteFile(page, dashboard.Redirect(url), 0o600); err != nil {
		return err
	}
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", page)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", page)
	default:
		cmd = exec.Command("xdg-open", page)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %v %s", cmd.Path, err, out)
	}
	return nil
}
