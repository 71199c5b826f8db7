package daemon

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/hookproto"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

// The README's API table names every route the socket serves, and only
// those: the documentation is tested against the handler.
func TestAPIDocumentedInTheREADME(t *testing.T) {
	served := servedRoutes(t)
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	var documented []string
	for _, line := range strings.Split(string(readme), "\n") {
		if !strings.HasPrefix(line, "| `GET ") && !strings.HasPrefix(line, "| `POST ") {
			continue
		}
		cell := strings.Split(line, " | ")[0]
		for _, m := range regexp.MustCompile("`((?:GET|POST) /[^`?]*)").FindAllStringSubmatch(cell, -1) {
			documented = append(documented, strings.TrimSpace(m[1]))
		}
	}
	slices.Sort(served)
	slices.Sort(documented)
	assert.Equal(t, served, slices.Compact(documented))
}

// servedRoutes are the routes the handler serves ("GET /api/v1/status"),
// as api.go spells them.
func servedRoutes(t *testing.T) []string {
	t.Helper()
	src, err := os.ReadFile("api.go")
	require.NoError(t, err)
	var served []string
	for _, m := range regexp.MustCompile(`mux\.HandleFunc\("(GET|POST) "?(?:\+ ?)?([^,]+),`).FindAllStringSubmatch(string(src), -1) {
		path := strings.Trim(m[2], `"+ `)
		switch path {
		case "shimproto.Path":
			path = shimproto.Path
		case "hookproto.Path":
			path = hookproto.Path
		}
		served = append(served, m[1]+" "+path)
	}
	require.NotEmpty(t, served)
	return served
}
