package pins

import "github.com/flowd-dev/flowd/internal/untrusted"

// Shown is s as flowd shows it to a viewer (the API, the dashboard,
// flowd pins): a server's tool names, definitions and the reasons that
// quote them are the server's words, neutralised (untrusted.Text,
// untrusted.JSON). Applied once, where pins leave flowd or the store.
func (s Server) Shown() Server {
	s.Name = untrusted.Text(s.Name)
	cmd := make([]string, len(s.Command))
	for i, a := range s.Command {
		cmd[i] = untrusted.Text(a)
	}
	s.Command = cmd
	s.Pinned, s.Pending = shownTools(s.Pinned), shownTools(s.Pending)
	if s.Withheld != nil {
		w := make(map[string]string, len(s.Withheld))
		for tool, why := range s.Withheld {
			w[untrusted.Text(tool)] = untrusted.Text(why)
		}
		s.Withheld = w
	}
	s.Unreadable = untrusted.Text(s.Unreadable)
	return s
}

func shownTools(tools map[string]Tool) map[string]Tool {
	if tools == nil {
		return nil
	}
	out := make(map[string]Tool, len(tools))
	for name, t := range tools {
		t.Name = untrusted.Text(t.Name)
		t.Definition = untrusted.JSON(t.Definition)
		out[untrusted.Text(name)] = t
	}
	return out
}
