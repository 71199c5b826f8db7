package judge

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/flowd-dev/flowd/internal/cmdrisk"
)

// A file is judged by what runs it, not by its name (cmdrisk.Runs):
// when a command line runs or loads a file as code, the file's text is
// read, from disk where flowd can reach it, else as the session wrote
// it (a Write, a write_file, a here-document), and screened as the
// code it is there. A file that runs and that flowd can neither read
// nor saw written is code nobody has seen: asked about. Found by a red
// team (RT9-1): a send written to notes.txt and run by sh notes.txt
// passed in 22 of 24 ways.

// maxRunRead bounds what is read of one file run; past it, the rest
// is unread and asked about. A project's ./configure runs to a few
// hundred KiB; screening one is linear, under a second at this bound.
const maxRunRead = 1 << 20

// What the judge remembers of the files each session wrote, for a
// command that later runs one that flowd cannot read itself (a shell
// server on another filesystem, a relative path with no directory).
// Bounded: maxWrittenFiles per session, maxWrittenText of each, and
// maxWrittenBytes in all, the oldest session forgotten first.
const (
	maxWrittenFiles = 64
	maxWrittenText  = 64 << 10
	maxWrittenBytes = 16 << 20
)

type writtenFiles struct {
	mu       sync.Mutex
	sessions map[string][]writtenFile // newest last
	order    []string                 // sessions, oldest first
	bytes    int
}

// writtenFile is a file a session wrote: its text where flowd saw all
// of it (seen), else what it saw.
type writtenFile struct {
	path string
	text string
	seen bool
}

// fileKey is where path p lies, for a call in dir.
func fileKey(dir, p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, rest)
		}
	}
	if !filepath.IsAbs(p) && dir != "" {
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p)
}

// note remembers a file a session wrote.
func (w *writtenFiles) note(session string, f writtenFile) {
	if len(f.text) > maxWrittenText {
		f.text, f.seen = f.text[:maxWrittenText], false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.sessions == nil {
		w.sessions = map[string][]writtenFile{}
	}
	files, known := w.sessions[session]
	if !known {
		w.order = append(w.order, session)
	}
	for k, old := range files {
		if old.path == f.path {
			w.bytes -= len(old.text)
			files = append(files[:k], files[k+1:]...)
			break
		}
	}
	if len(files) >= maxWrittenFiles {
		w.bytes -= len(files[0].text)
		files = files[1:]
	}
	w.sessions[session] = append(files, f)
	w.bytes += len(f.text)
	for w.bytes > maxWrittenBytes && len(w.order) > 1 {
		old := w.order[0]
		w.order = w.order[1:]
		for _, x := range w.sessions[old] {
			w.bytes -= len(x.text)
		}
		delete(w.sessions, old)
	}
}

// find returns what the session wrote to the file at key: the same
// path, or, where either was given relative with no directory (a
// filesystem server's path and a shell server's), one that ends in the
// other.
func (w *writtenFiles) find(session, key string) (writtenFile, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	files := w.sessions[session]
	for k := len(files) - 1; k >= 0; k-- {
		p := files[k].path
		if p == key || (!filepath.IsAbs(p) || !filepath.IsAbs(key)) &&
			(strings.HasSuffix(key, string(filepath.Separator)+p) || strings.HasSuffix(p, string(filepath.Separator)+key)) {
			return files[k], true
		}
	}
	return writtenFile{}, false
}

// noteWrites remembers what a call writes: each file's text whole
// (Write, write_file), an edit applied to what was remembered or is on
// disk, a notebook cell added, a here-document, and a file a command's
// output goes to (whose text flowd does not see).
func (j *Judge) noteWrites(in Call, f argFacts) {
	for _, l := range f.commands {
		for _, x := range cmdrisk.Writes(l) {
			j.written.note(in.Session, writtenFile{path: fileKey(in.Dir, x.Path), text: x.Text, seen: x.Seen})
		}
	}
	if len(f.contents) == 0 || len(f.paths) == 0 {
		return
	}
	text := strings.Join(f.contents, "\n")
	for _, p := range f.paths {
		key := fileKey(in.Dir, p)
		w := writtenFile{path: key, text: text, seen: len(f.paths) == 1 && len(f.contents) == 1}
		if len(f.olds) > 0 || in.Tool == "NotebookEdit" {
			before, ok := j.written.find(in.Session, key)
			if !ok && filepath.IsAbs(key) {
				if b, cut, err := readRun(key); err == nil && !cut {
					before, ok = writtenFile{text: b, seen: true}, true
				}
			}
			old := strings.Join(f.olds, "\n")
			switch {
			case ok && in.Tool == "NotebookEdit":
				w.text, w.seen = before.text+"\n"+text, before.seen
			case ok && old != "" && strings.Contains(before.text, old):
				w.text, w.seen = strings.Replace(before.text, old, text, 1), before.seen && w.seen
			default:
				w.seen = false // an edit of a file flowd has not seen
			}
		}
		j.written.note(in.Session, w)
	}
}

// errNoPlace: a relative path and no directory to find it from.
var errNoPlace = errors.New("no directory to find a relative path from")

// readRun reads the regular file at p, at most maxRunRead bytes; cut
// says there was more. A device, a fifo or a file under /proc or /sys
// is not read: reading one could hang or has no text of a program.
func readRun(p string) (text string, cut bool, err error) {
	if !filepath.IsAbs(p) {
		return "", false, errNoPlace
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	for _, d := range []string{"/proc/", "/sys/", "/dev/"} {
		if strings.HasPrefix(p, d) {
			return "", false, fmt.Errorf("%s is not a file of code", p)
		}
	}
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", false, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return "", false, fmt.Errorf("%s is not a regular file", p)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxRunRead+1))
	if err != nil {
		return "", false, err
	}
	if len(b) > maxRunRead {
		return string(b[:maxRunRead]), true, nil
	}
	return string(b), false, nil
}

// ranFiles screens the files the call's command lines run (cmdrisk.Runs),
// and returns the findings and the command lines those files hold.
func (j *Judge) ranFiles(in Call, commands []string) (out []cmdrisk.Finding, lines []string) {
	for _, c := range commands {
		for _, r := range cmdrisk.Runs(c) {
			fs, ls := j.ranFile(in, r, 0)
			out = append(out, fs...)
			lines = append(lines, ls...)
		}
	}
	return out, lines
}

// ranFile screens one file run, and, one level down, the files its
// config loads as code (an .npmrc's node-options --require).
func (j *Judge) ranFile(in Call, r cmdrisk.Run, depth int) (out []cmdrisk.Finding, lines []string) {
	key := fileKey(in.Dir, r.Path)
	text, cut, err := readRun(key)
	seen := err == nil && !cut
	where := key
	if err != nil {
		w, ok := j.written.find(in.Session, key)
		switch {
		case ok:
			text, seen, where = w.text, w.seen, key+" as this session wrote it"
		case !r.Named || errors.Is(err, errNoPlace):
			// Nothing there runs nothing; and a relative path with no
			// directory to find it in (a shell server's command) is
			// judged by what the session wrote, where it wrote it.
			return nil, nil
		default:
			return []cmdrisk.Finding{{Rule: cmdrisk.Unread, Reason: fmt.Sprintf("%s runs %s, which flowd could not read (%v): code nobody has seen", r.By, r.Path, err)}}, nil
		}
	}
	rep, lines := cmdrisk.ScreenRun(r, text)
	for _, f := range rep.Findings {
		f.Reason = fmt.Sprintf("%s runs %s (%s): %s", r.By, r.Path, where, f.Reason)
		out = append(out, f)
	}
	if !seen {
		why := "past the bytes flowd reads of a file run"
		if !cut {
			why = "made by a command whose output flowd did not see"
		}
		out = append(out, cmdrisk.Finding{Rule: cmdrisk.Unread, Reason: fmt.Sprintf("%s runs %s, %s: code nobody has seen", r.By, r.Path, why)})
	}
	if r.As == cmdrisk.AsConfig && depth == 0 {
		for _, x := range cmdrisk.ConfigRuns(text) {
			x.By = r.Path + " (" + x.By + ")"
			fs, ls := j.ranFile(in, x, depth+1)
			out = append(out, fs...)
			lines = append(lines, ls...)
		}
	}
	return out, lines
}
