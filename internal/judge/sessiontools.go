package judge

import (
	"sort"
	"sync"
)

// The tools each session's servers listed, for the injection scan: a
// request in a result to do what one of the session's tools does is one
// the model can carry out (injection.Context.SessionTools).
//
// The record is bounded: at most maxToolSessions sessions, the oldest
// forgotten first, and maxSessionTools names a session. A session
// forgotten is scanned without its tools, as before it listed any.
const (
	maxToolSessions = 1024
	maxSessionTools = 2048
)

type sessionTools struct {
	mu    sync.Mutex
	names map[string]map[string]string // session → tool name → the server that listed it first
	order []string                     // sessions, oldest first
	// list caches each session's names as a sorted slice, dropped when
	// they change.
	list map[string][]string
}

// NoteTools records the tool names a server of a session listed (one
// page of tools/list; later pages add to it).
func (j *Judge) NoteTools(session, server string, names []string) {
	t := &j.tools
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.names == nil {
		t.names, t.list = map[string]map[string]string{}, map[string][]string{}
	}
	set := t.names[session]
	if set == nil {
		if len(t.order) >= maxToolSessions {
			old := t.order[0]
			t.order = t.order[1:]
			delete(t.names, old)
			delete(t.list, old)
		}
		set = map[string]string{}
		t.names[session] = set
		t.order = append(t.order, session)
	}
	for _, n := range names {
		if len(set) >= maxSessionTools {
			break
		}
		if _, ok := set[n]; n != "" && !ok {
			set[n] = server
			delete(t.list, session)
		}
	}
}

// sessionTools returns the tool names the session's servers listed.
func (j *Judge) sessionTools(session string) []string {
	t := &j.tools
	t.mu.Lock()
	defer t.mu.Unlock()
	if l, ok := t.list[session]; ok {
		return l
	}
	set := t.names[session]
	if len(set) == 0 {
		return nil
	}
	l := make([]string, 0, len(set))
	for n := range set {
		l = append(l, n)
	}
	sort.Strings(l)
	t.list[session] = l
	return l
}

// OtherTools returns the tool names the session's servers other than
// server listed, for judging server's own list: a definition that
// speaks of them, or takes one's name, speaks of another server's tool.
func (j *Judge) OtherTools(session, server string) []string {
	t := &j.tools
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for n, by := range t.names[session] {
		if by != server {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}
