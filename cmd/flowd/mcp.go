package main

import (
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/flowd-dev/flowd/internal/auditmcp"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/secrets"
)

// cmdMCP serves flowd's own read-only MCP server on stdio: a person's
// client, or an auditor agent, asks it what flowd saw.
func cmdMCP(args []string) error {
	fl := newFlags("flowd mcp")
	fl.Usage = func() {
		fmt.Fprintln(fl.Output(), "usage: flowd mcp [--socket PATH]\n\n"+
			"Serves flowd's read-only MCP server on stdin/stdout. Add it to an MCP client as the command \"flowd\" with the argument \"mcp\".\n"+
			"Tools: flowd_status, flowd_scan_report, flowd_activity_search, flowd_investigate_session, flowd_view_quarantined.")
		fl.PrintDefaults()
	}
	socket := clientSocket(fl)
	if err := noArgs(fl, args); err != nil {
		return err
	}
	det, err := secrets.Default()
	if err != nil {
		return fmt.Errorf("load secret rules: %w", err)
	}
	srv, err := auditmcp.New(flowdclient.NewClient(socket.Path(), 30*time.Second), det)
	if err != nil {
		return err
	}
	return server.ServeStdio(srv)
}
