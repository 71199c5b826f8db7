package clientconfig

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
)

// site is one server's command line located in a TOML or YAML document,
// with what it takes to rewrite it in that syntax.
type site struct {
	name string
	note string // why flowd leaves the server alone; "" when it can edit it
	// wrapNote is why flowd does not wrap it, though it could unwrap it.
	wrapNote string
	line     []string // command, then args, decoded
	command  span
	args     []span // the elements of args, each one string
	// argsEdit rewrites args: the first drop elements go, and insert,
	// raw as they are to be written, come before the rest; it adds args
	// when the server has none.
	argsEdit func(drop int, insert [][]byte) edit
	quote    func(string) []byte // a string as the syntax writes it
}

// change is Wrap or Unwrap of one server.
type change func(doc []byte, s site) (Server, []edit)

func wrapping(shim string) change {
	return func(doc []byte, s site) (Server, []edit) {
		out := Server{Name: s.name, Action: Skipped}
		switch {
		case s.note != "":
			out.Note = s.note
			return out, nil
		case isWrapped(s.line[0], s.line[1:]):
			out.Note = "already wrapped"
			return out, nil
		case s.wrapNote != "":
			out.Note = s.wrapNote
			return out, nil
		}
		// As in JSON, the old command line moves into args byte for byte.
		elems := [][]byte{s.quote("--name"), s.quote(s.name), s.quote("--"), doc[s.command.start:s.command.end]}
		edits := []edit{{s.command.start, s.command.end, s.quote(shim)}, s.argsEdit(0, elems)}
		out.Action, out.Old = Wrapped, s.line
		out.New = append([]string{shim, "--name", s.name, "--"}, s.line...)
		return out, edits
	}
}

func unwrapping(doc []byte, s site) (Server, []edit) {
	out := Server{Name: s.name, Action: Skipped}
	switch {
	case s.note != "":
		out.Note = s.note
		return out, nil
	case !isWrapped(s.line[0], s.line[1:]):
		out.Note = "not wrapped"
		return out, nil
	}
	i := innerCommand(s.line[1:])
	if i < 0 {
		out.Note = "wrapped, but no command follows the shim's flags"
		return out, nil
	}
	inner := s.args[i]
	edits := []edit{{s.command.start, s.command.end, doc[inner.start:inner.end]}, s.argsEdit(i+1, nil)}
	out.Action, out.Old, out.New = Unwrapped, s.line, s.line[1+i:]
	return out, edits
}

func raw(doc []byte, spans []span) [][]byte {
	out := make([][]byte, 0, len(spans))
	for _, s := range spans {
		out = append(out, doc[s.start:s.end])
	}
	return out
}

// syntaxOps reads one syntax: locate finds the servers of a document,
// and rest decodes it with the command lines taken out, to compare.
type syntaxOps struct {
	locate func(doc []byte) ([]site, error)
	rest   func(doc []byte) (any, error)
}

// editSites applies ch to every server of doc, then reads the result back:
// each server must hold the command line intended and everything else
// must decode as before. A splice that a syntax's corner (a YAML plain
// scalar moved into a flow sequence, say) would make mean something else
// is refused, not written.
func editSites(doc []byte, ops syntaxOps, ch change) (Result, error) {
	body := bytes.TrimPrefix(doc, utf8BOM)
	bom := doc[:len(doc)-len(body)]
	if len(bytes.TrimSpace(body)) == 0 {
		return Result{Out: doc}, nil
	}
	sites, err := ops.locate(body)
	if err != nil {
		return Result{}, err
	}
	var res Result
	var edits []edit
	for _, s := range sites {
		srv, e := ch(body, s)
		res.Servers = append(res.Servers, srv)
		edits = append(edits, e...)
	}
	out := apply(body, edits)
	res.Out = append(slices.Clip(bom), out...)
	if !res.Changed() {
		return res, nil
	}
	if err := check(body, out, ops, res.Servers, sites); err != nil {
		return Result{}, fmt.Errorf("flowd's edit did not read back as intended, so nothing is written (rewrite the server's command and args in a plainer form, or wrap it by hand): %w", err)
	}
	return res, nil
}

func check(before, after []byte, ops syntaxOps, servers []Server, was []site) error {
	now, err := ops.locate(after)
	if err != nil {
		return err
	}
	if len(now) != len(was) {
		return fmt.Errorf("%d servers instead of %d", len(now), len(was))
	}
	for i, s := range servers {
		want := was[i].line
		if s.Action != Skipped {
			want = s.New
		}
		if !slices.Equal(now[i].line, want) {
			return fmt.Errorf("server %s reads %q, not %q", s.Name, now[i].line, want)
		}
	}
	a, err := ops.rest(before)
	if err != nil {
		return err
	}
	b, err := ops.rest(after)
	if err != nil {
		return err
	}
	if !reflect.DeepEqual(a, b) {
		return fmt.Errorf("something besides the servers' command and args changed")
	}
	return nil
}
