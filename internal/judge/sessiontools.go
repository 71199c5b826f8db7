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
	names map[string]map[string]bool // session → tool names
	order []string                   // sessions, oldest first
	// list caches each session's names as a sorted slice, dropped when
	// they change.
	list map[string][]string
}

// NoteTools records the tool names a server of a session listed (one
// page of tools/list; later pages add to it).
func (j *Judge) NoteTools(session string, names []string) {
	t := &j.tools
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.names == nil {
		t.names, t.list = map[string]map[string]bool{}, map[string][]string{}
	}
	set := t.names[session]
	if set == nil {
		if len(t.order) >= maxToolSessions {
			old := t.order[0]
			t.order = t.order[1:]
			delete(t.names, old)
			delete(t.list, old)
		}
		set = map[string]bool{}
		t.names[session] = set
		t.order = append(t.order, session)
	}
	for _, n := range names {
		if len(set) >= maxSessionTools {
			break
		}
		if n != "" && !set[n] {
			set[n] = true
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
