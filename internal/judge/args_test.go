package judge

import (
	"strings"
	"testing"
)

func TestWorth(t *testing.T) {
	for _, c := range []struct {
		args string
		want bool
	}{
		{`{"message":"hello"}`, false},
		{`{"path":"a","content":"hello"}`, true},
		{`{"a":1,"b":[true,null]}`, false},
		{`{"q":"see http://x"}`, true},
		{`{"Command" : "ls"}`, true},
		{`{"comm\u0061nd":"ls"}`, true},
		{`{"x":"path"}`, false},
		{`{"message":"http://` + strings.Repeat("a", maxTextArgs) + `"}`, false},
		{`{"command":"` + strings.Repeat("a", maxTextArgs) + `"}`, true},
	} {
		if got := worth([]byte(c.args)); got != c.want {
			t.Errorf("worth(%.60s) = %v, want %v", c.args, got, c.want)
		}
	}
}

// A tool that runs commands has every string it is given read as one,
// whatever the parameter is called.
func TestShellToolAnyKey(t *testing.T) {
	f := readArgs("terminal_run", []byte(`{"input":"r\\m -rf /srv","cwd":"/tmp"}`), "")
	if w, ok := f.command.Worst(); !ok || !w.Severe {
		t.Errorf("disguised command under another key: %+v", f.command)
	}
	f = readArgs("Bash", []byte(`{"command":"ls"}`), "ls")
	if len(f.commands) != 1 {
		t.Errorf("a hook's Bash command read %d times", len(f.commands))
	}
	if f := readArgs("read_file", []byte(`{"input":"r\\m -rf /srv"}`), ""); len(f.commands) != 0 {
		t.Errorf("a file tool's argument read as a command: %+v", f.commands)
	}
}

// A tool named for what holds secrets reads them; one that writes them,
// or counts an LLM's tokens, reads none.
func TestSecretTool(t *testing.T) {
	for tool, reads := range map[string]bool{
		"get_secret": true, "read_browser_cookies": true, "get_totp_code": true, "list_apikeys": true, "vault_read": true,
		"put_secret": false, "count_tokens": false, "set_cookie": false, "read_file": false,
		"accept_cookies": false, "dismiss_cookie_banner": false, "send_otp": false, "verify_otp": false,
	} {
		if got := secretTool(tool) != ""; got != reads {
			t.Errorf("secretTool(%q) reads = %v, want %v", tool, got, reads)
		}
	}
}
