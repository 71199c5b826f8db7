package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/flowd-dev/flowd/internal/exporter"
	"github.com/flowd-dev/flowd/internal/spool"
)

func TestExportLine(t *testing.T) {
	at := time.Date(2026, 11, 27, 13, 0, 0, 0, time.Local)
	assert.Empty(t, exportLine(nil))
	assert.Equal(t, "export   syslog tls siem:6514 (rfc5424): connected, 0 queued of 100000, 0 spooled (0 B of 64.0 MiB), 12 sent, 0 dropped",
		exportLine(&exporter.Status{Name: "syslog", Enabled: true, Connected: true, Protocol: "tls", Endpoint: "siem:6514", Format: "rfc5424", QueueLimit: 100000,
			Spool: spool.Stats{Limit: 64 << 20}, Sent: 12}))
	assert.Equal(t, "export   syslog tcp siem:514 (cef): NOT CONNECTED, 7 queued of 10, 900 spooled (630.0 KiB of 1.0 MiB), 3 sent, 7 dropped; last error 2026-11-27 13:00:00: refused",
		exportLine(&exporter.Status{Name: "syslog", Enabled: true, Protocol: "tcp", Endpoint: "siem:514", Format: "cef", Queued: 7, QueueLimit: 10,
			Spool: spool.Stats{Records: 900, Bytes: 630 << 10, Limit: 1 << 20, Dropped: 5}, Sent: 3, Dropped: 2, LastError: "refused", LastErrAt: at}))
	assert.Equal(t, "export   syslog udp siem:514 (rfc5424): NOT CONNECTED, 7 queued of 10, 0 spooled (0 B of 0 B), 0 sent, 0 dropped; NO SPOOL: create spool /x: permission denied",
		exportLine(&exporter.Status{Name: "syslog", Enabled: true, Protocol: "udp", Endpoint: "siem:514", Format: "rfc5424", Queued: 7, QueueLimit: 10,
			SpoolError: "create spool /x: permission denied"}))

	// OTLP has no format to choose.
	assert.Equal(t, "export   otlp grpc https://otel:4317: connected, 3 queued of 10000, 0 spooled (0 B of 64.0 MiB), 12 sent, 0 dropped",
		exportLine(&exporter.Status{Name: "otlp", Enabled: true, Connected: true, Protocol: "grpc", Endpoint: "https://otel:4317",
			Queued: 3, QueueLimit: 10000, Spool: spool.Stats{Limit: 64 << 20}, Sent: 12}))
	assert.Equal(t, "export   otlp http http://otel:4318: NOT CONNECTED, 0 queued of 10000, 900 spooled (630.0 KiB of 1.0 MiB), 3 sent, 7 dropped, 2 rejected as malformed; last error 2026-11-27 13:00:00: refused",
		exportLine(&exporter.Status{Name: "otlp", Enabled: true, Protocol: "http", Endpoint: "http://otel:4318", QueueLimit: 10000,
			Spool: spool.Stats{Records: 900, Bytes: 630 << 10, Limit: 1 << 20, Dropped: 5}, Sent: 3, Dropped: 2, Rejected: 2,
			LastError: "refused", LastErrAt: at}))
}
