package otlpexport

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"

	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/flowd-dev/flowd/internal/config"
)

// client sends one OTLP logs request.
type client interface {
	export(ctx context.Context, ld plog.Logs) error
	close()
}

// clientTLS is the TLS config for an https endpoint (nil for http).
func clientTLS(cfg config.OTLP) (*tls.Config, error) {
	u, err := url.Parse(cfg.Endpoint)
	if err != nil {
		return nil, fmt.Errorf("export.otlp.endpoint %q: %w", cfg.Endpoint, err)
	}
	if u.Scheme != "https" {
		return nil, nil
	}
	tc := &tls.Config{ServerName: u.Hostname(), MinVersion: tls.VersionTLS12}
	if cfg.CAFile != "" {
		pem, err := os.ReadFile(cfg.CAFile)
		if err != nil {
			return nil, fmt.Errorf("export.otlp.ca_file: %w", err)
		}
		tc.RootCAs = x509.NewCertPool()
		if !tc.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("export.otlp.ca_file %s: no PEM certificate in it", cfg.CAFile)
		}
	}
	if cfg.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(cfg.CertFile, cfg.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("export.otlp.cert_file and key_file: %w", err)
		}
		tc.Certificates = []tls.Certificate{cert}
	}
	return tc, nil
}

func newClient(cfg config.OTLP) (client, error) {
	tc, err := clientTLS(cfg)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(cfg.Endpoint)
	if err != nil {
		return nil, fmt.Errorf("export.otlp.endpoint %q: %w", cfg.Endpoint, err)
	}
	switch cfg.Protocol {
	case config.OTLPGRPC:
		creds := insecure.NewCredentials()
		if tc != nil {
			creds = credentials.NewTLS(tc)
		}
		port := u.Port()
		if port == "" {
			port = "4317"
		}
		cc, err := grpc.NewClient(u.Hostname()+":"+port, grpc.WithTransportCredentials(creds))
		if err != nil {
			return nil, fmt.Errorf("export.otlp.endpoint %q: %w", cfg.Endpoint, err)
		}
		var md metadata.MD
		for k, v := range cfg.Headers {
			md = metadata.Join(md, metadata.Pairs(k, v))
		}
		return &grpcClient{cc: cc, c: plogotlp.NewGRPCClient(cc), md: md, endpoint: cfg.Endpoint}, nil
	case config.OTLPHTTP:
		u.Path = strings.TrimSuffix(u.Path, "/") + "/v1/logs"
		return &httpClient{url: u.String(), headers: cfg.Headers,
			hc: &http.Client{Transport: &http.Transport{TLSClientConfig: tc, Proxy: http.ProxyFromEnvironment, MaxIdleConns: 2}}}, nil
	}
	return nil, fmt.Errorf("export.otlp.protocol %q: want http or grpc", cfg.Protocol)
}

type grpcClient struct {
	cc       *grpc.ClientConn
	c        plogotlp.GRPCClient
	md       metadata.MD
	endpoint string
}

func (g *grpcClient) export(ctx context.Context, ld plog.Logs) error {
	if g.md != nil {
		ctx = metadata.NewOutgoingContext(ctx, g.md)
	}
	resp, err := g.c.Export(ctx, plogotlp.NewExportRequestFromLogs(ld))
	if err != nil {
		if s, ok := status.FromError(err); ok && s.Code() == codes.InvalidArgument {
			return rejected("%s: %s", g.endpoint, s.Message())
		}
		return fmt.Errorf("export to %s over gRPC: %w", g.endpoint, err)
	}
	return partial(resp, g.endpoint)
}

func (g *grpcClient) close() { g.cc.Close() }

// partial is an error for records the collector accepted the request
// but not kept: they are counted as rejected, not sent again.
func partial(resp plogotlp.ExportResponse, endpoint string) error {
	if ps := resp.PartialSuccess(); ps.RejectedLogRecords() > 0 {
		return rejected("%s kept all but %d: %s", endpoint, ps.RejectedLogRecords(), ps.ErrorMessage())
	}
	return nil
}

type httpClient struct {
	url     string
	headers map[string]string
	hc      *http.Client
}

// maxResponse bounds what is read of a collector's answer.
const maxResponse = 64 << 10

func (h *httpClient) export(ctx context.Context, ld plog.Logs) error {
	body, err := plogotlp.NewExportRequestFromLogs(ld).MarshalProto()
	if err != nil {
		return fmt.Errorf("encode OTLP request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.url, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("export to %s: %w", h.url, err)
	}
	for k, v := range h.headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	resp, err := h.hc.Do(req)
	if err != nil {
		return fmt.Errorf("export to %s: %w", h.url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	switch {
	case resp.StatusCode == http.StatusOK:
		r := plogotlp.NewExportResponse()
		if resp.Header.Get("Content-Type") == "application/x-protobuf" && r.UnmarshalProto(b) == nil {
			return partial(r, h.url)
		}
		return nil
	case resp.StatusCode == http.StatusBadRequest:
		return rejected("%s: %s", h.url, resp.Status)
	}
	// 401/403 wait for a fixed header, 429 and 5xx for the collector.
	return fmt.Errorf("export to %s: %s", h.url, resp.Status)
}

func (h *httpClient) close() { h.hc.CloseIdleConnections() }
