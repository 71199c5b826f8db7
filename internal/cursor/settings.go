package cursor

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/flowd-dev/flowd/internal/claudecode"
	"github.com/flowd-dev/flowd/internal/jsonedit"
)

// Scopes are the hooks files flowd installs into: ~/.cursor/hooks.json
// and <dir>/.cursor/hooks.json. The enterprise file needs root and is
// left to whoever manages the machine.
var Scopes = []string{"user", "project"}

// HooksPath is the hooks file of scope; dir is the project directory.
func HooksPath(scope, dir string) (string, error) {
	return jsonedit.AgentFile("Cursor", ".cursor", "hooks.json", scope, dir)
}

// entry is one hook in hooks.json. It sets no timeout: sources disagree on
// whether Cursor reads it in seconds or milliseconds, and the hook gives
// up on flowd after its own --timeout anyway.
type entry struct {
	Command    string `json:"command"`
	FailClosed bool   `json:"failClosed,omitempty"`
}

// AddHooks returns a hooks file with flowd's hook for every event in
// Events, every other byte as it was. An existing flowd entry is replaced
// where it stands, so installing twice gives the same bytes as once.
func AddHooks(file []byte, o claudecode.HookOptions) ([]byte, error) {
	o.Agent = Agent
	top, hooks, st, err := parse(file)
	if err != nil {
		return nil, err
	}
	if _, ok := top.Get("version"); !ok {
		// Cursor reads a hooks file of version 1; set it before the hooks
		// so that a splice keeps the rest.
		if file, err = put(file, top, "version", json.RawMessage("1"), st); err != nil {
			return nil, err
		}
		if top, _, _, err = parse(file); err != nil {
			return nil, err
		}
	}
	for _, event := range Events {
		list, err := entries(hooks, event)
		if err != nil {
			return nil, err
		}
		// Only a before* hook's failure can hold a call back.
		want := jsonedit.Marshal(entry{Command: claudecode.Command(o, event), FailClosed: o.FailClosed && Gates(event)})
		var out []json.RawMessage
		placed := false
		for _, e := range list {
			if !ours(e) {
				out = append(out, e)
			} else if !placed {
				out = append(out, want)
				placed = true
			}
		}
		if !placed {
			out = append(out, want)
		}
		hooks.Set(event, jsonedit.EncodeArray(out))
	}
	return put(file, top, "hooks", hooks.Encode(), st)
}

// RemoveHooks returns a hooks file without any flowd hook, and how many it
// removed; event lists and the hooks object that flowd's removal leaves
// empty go too. With nothing to remove, the file comes back byte for byte.
func RemoveHooks(file []byte) ([]byte, int, error) {
	top, hooks, st, err := parse(file)
	if err != nil {
		return nil, 0, err
	}
	total := 0
	for _, m := range append(jsonedit.Object(nil), hooks...) {
		list, err := entries(hooks, m.Key)
		if err != nil {
			continue // not ours to judge
		}
		var out []json.RawMessage
		for _, e := range list {
			if !ours(e) {
				out = append(out, e)
			}
		}
		if len(out) == len(list) {
			continue
		}
		total += len(list) - len(out)
		if len(out) == 0 {
			hooks.Del(m.Key)
		} else {
			hooks.Set(m.Key, jsonedit.EncodeArray(out))
		}
	}
	if total == 0 {
		return file, 0, nil
	}
	var value json.RawMessage // nil: the hooks member goes
	if len(hooks) > 0 {
		value = hooks.Encode()
	}
	b, err := put(file, top, "hooks", value, st)
	return b, total, err
}

// FindHooks lists the flowd hooks in a hooks file. An entry's FailClosed
// is the hook's --fail-closed (install also sets "failClosed", so that
// Cursor denies when the hook itself fails).
func FindHooks(file []byte) ([]claudecode.Entry, error) {
	_, hooks, _, err := parse(file)
	if err != nil {
		return nil, err
	}
	var out []claudecode.Entry
	for _, m := range hooks {
		list, err := entries(hooks, m.Key)
		if err != nil {
			continue
		}
		for _, raw := range list {
			var e entry
			if json.Unmarshal(raw, &e) != nil {
				continue
			}
			if found, ok := claudecode.EntryOf(m.Key, e.Command); ok {
				out = append(out, found)
			}
		}
	}
	return out, nil
}

func ours(raw json.RawMessage) bool {
	var e struct {
		Command string `json:"command"`
	}
	json.Unmarshal(raw, &e)
	_, _, ok := claudecode.OurCommand(e.Command)
	return ok
}

func parse(file []byte) (top, hooks jsonedit.Object, st jsonedit.Style, err error) {
	st = jsonedit.StyleOf(file)
	top, hooks = jsonedit.Object{}, jsonedit.Object{}
	if len(bytes.TrimSpace(file)) == 0 {
		return top, hooks, st, nil
	}
	if top, err = jsonedit.Parse(file); err != nil {
		return nil, nil, st, fmt.Errorf("hooks file is not a JSON object: %w", err)
	}
	if raw, ok := top.Get("hooks"); ok && string(raw) != "null" {
		if hooks, err = jsonedit.Parse(raw); err != nil {
			return nil, nil, st, fmt.Errorf(`hooks file key "hooks" is not an object: %w`, err)
		}
	}
	return top, hooks, st, nil
}

// put sets (or, with value nil, removes) one top-level member: spliced in
// where it can be, else the file laid out whole.
func put(file []byte, top jsonedit.Object, key string, value json.RawMessage, st jsonedit.Style) ([]byte, error) {
	if b, ok, err := jsonedit.Splice(file, top, key, value, st); ok || err != nil {
		return b, err
	}
	if value == nil {
		top.Del(key)
	} else {
		top.Set(key, value)
	}
	return st.Layout(top.Encode())
}

func entries(hooks jsonedit.Object, event string) ([]json.RawMessage, error) {
	raw, ok := hooks.Get(event)
	if !ok || string(raw) == "null" {
		return nil, nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("hooks file key hooks.%s is not a list of hooks: %w", event, err)
	}
	return list, nil
}

const what = "Cursor hooks"

// Install puts flowd's hooks into the hooks file at path, creating it if
// needed.
func Install(path string, o claudecode.HookOptions) (jsonedit.Change, error) {
	return claudecode.WriteHooks(path, "Cursor", what, o.Binary, func(b []byte) ([]byte, error) {
		return AddHooks(b, o)
	})
}

// Uninstall removes flowd's hooks, and nothing else, from the hooks file
// at path.
func Uninstall(path string) (jsonedit.Change, error) {
	return jsonedit.Rewrite(path, what, RemoveHooks)
}

// Inspect reads the hooks file at path; a missing file is an empty
// Installation, not an error. Cursor has no switch that turns hooks off.
func Inspect(path string) (claudecode.Installation, error) {
	return claudecode.ReadHooks(path, what, func(b []byte) ([]claudecode.Entry, bool, error) {
		found, err := FindHooks(b)
		return found, false, err
	})
}
