package service

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"path"
	"strings"
	"text/template"

	"github.com/flowd-dev/flowd/installers"
)

// Scope says whose service flowd is: one user's, or the machine's.
type Scope string

const (
	User   Scope = "user"
	System Scope = "system"
)

// Name is the service's name on every platform: flowd.service and
// flowd.socket, the launchd label, the Windows service name.
const Name = "flowd"

// Layout is where the installed service finds its program and its files.
// The paths are absolute and written into the unit as they are, so the
// service and the CLI that installed it agree on the socket.
type Layout struct {
	Executable string
	Config     string
	Socket     string
	DataDir    string
	// LogFile is where launchd sends flowd's log; systemd uses the journal.
	LogFile string
}

// File is one rendered file and where it goes.
type File struct {
	Path    string
	Content []byte
}

// systemdFiles renders the units (and, for a system install, the account)
// into unitDir. sysusersDir receives the account definition.
func systemdFiles(scope Scope, l Layout, unitDir, sysusersDir string) ([]File, error) {
	if err := checkAbsolute(l); err != nil {
		return nil, err
	}
	data := map[string]any{
		"System": scope == System, "Executable": l.Executable, "Config": l.Config,
		"Socket": l.Socket, "SocketDir": path.Dir(l.Socket), "DataDir": l.DataDir,
	}
	names := []struct{ tmpl, dir, file string }{
		{"systemd/flowd.service", unitDir, Name + ".service"},
		{"systemd/flowd.socket", unitDir, Name + ".socket"},
	}
	if scope == System {
		names = append(names, struct{ tmpl, dir, file string }{"systemd/flowd.sysusers", sysusersDir, Name + ".conf"})
	}
	var files []File
	for _, n := range names {
		b, err := render(n.tmpl, template.FuncMap{"path": unitPath}, data)
		if err != nil {
			return nil, err
		}
		files = append(files, File{Path: path.Join(n.dir, n.file), Content: b})
	}
	return files, nil
}

// launchdPlist renders the launchd agent.
func launchdPlist(l Layout) ([]byte, error) {
	if err := checkAbsolute(l); err != nil {
		return nil, err
	}
	data := map[string]any{"Label": Name, "Executable": l.Executable, "Config": l.Config,
		"Socket": l.Socket, "DataDir": l.DataDir, "LogFile": l.LogFile}
	return render("launchd/flowd.plist", template.FuncMap{"xml": xmlText}, data)
}

func render(name string, funcs template.FuncMap, data any) ([]byte, error) {
	t, err := template.New(path.Base(name)).Option("missingkey=error").Funcs(funcs).ParseFS(installers.Templates, name)
	if err != nil {
		return nil, fmt.Errorf("parse template installers/%s: %w", name, err)
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return nil, fmt.Errorf("render installers/%s: %w", name, err)
	}
	// kardianos/service renders the file once more with its own engine;
	// what we hand it must hold no action of that engine.
	if bytes.Contains(b.Bytes(), []byte("{{")) {
		return nil, fmt.Errorf("render installers/%s: a path contains \"{{\", which the service file cannot carry", name)
	}
	return b.Bytes(), nil
}

func checkAbsolute(l Layout) error {
	for _, p := range []struct{ what, path string }{
		{"executable", l.Executable}, {"config file", l.Config}, {"socket", l.Socket}, {"data dir", l.DataDir},
	} {
		if !path.IsAbs(p.path) && !isWindowsAbs(p.path) {
			return fmt.Errorf("%s path %q is not absolute: the service starts in another directory", p.what, p.path)
		}
	}
	return nil
}

func isWindowsAbs(p string) bool {
	return len(p) > 2 && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
}

// unitPath writes a path into a unit file. systemd would expand "%"
// specifiers and "$" variables in it and split it at spaces; rather than
// quote each setting its own way, such paths are refused, and "%" is
// escaped.
func unitPath(p string) (string, error) {
	if i := strings.IndexFunc(p, func(r rune) bool {
		return r <= ' ' || r == 0x7f || strings.ContainsRune(`"'\$;`, r)
	}); i >= 0 {
		return "", fmt.Errorf("path %q contains %q, which a systemd unit cannot carry as it is: choose a path without spaces, quotes, backslashes, \"$\" or \";\" (FLOWD_SOCKET, FLOWD_DATA_DIR, FLOWD_CONFIG set them)", p, p[i])
	}
	return strings.ReplaceAll(p, "%", "%%"), nil
}

func xmlText(s string) (string, error) {
	var b strings.Builder
	if err := xml.EscapeText(&b, []byte(s)); err != nil {
		return "", err
	}
	return b.String(), nil
}
