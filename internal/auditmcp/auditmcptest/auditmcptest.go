// Package auditmcptest gives tests an MCP client of flowd's own MCP
// server (flowd mcp), in process, as a real client would drive it.
package auditmcptest

import (
	"context"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/auditmcp"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/secrets"
)

// Client is an initialised client of auditmcp.New(c, d), closed when the
// test ends.
func Client(t testing.TB, c *flowdclient.Client, d *secrets.Detector) *client.Client {
	t.Helper()
	srv, err := auditmcp.New(c, d)
	require.NoError(t, err)
	mc, err := client.NewInProcessClient(srv)
	require.NoError(t, err)
	ctx := context.Background()
	require.NoError(t, mc.Start(ctx))
	t.Cleanup(func() { mc.Close() })
	_, err = mc.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{ProtocolVersion: mcp.LATEST_PROTOCOL_VERSION,
		ClientInfo: mcp.Implementation{Name: "test", Version: "1"}}})
	require.NoError(t, err)
	return mc
}
