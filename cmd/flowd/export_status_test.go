package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/flowd-dev/flowd/internal/syslogexport"
)

func TestExportLine(t *testing.T) {
	at := time.Date(2026, 11, 27, 13, 0, 0, 0, time.Local)
	assert.Empty(t, exportLine(nil))
	assert.Equal(t, "export   syslog tls siem:6514 (rfc5424): connected, 0 queued of 100000, 12 sent, 0 dropped",
		exportLine(&syslogexport.Status{Enabled: true, Connected: true, Transport: "tls", Address: "siem:6514", Format: "rfc5424", QueueLimit: 100000, Sent: 12}))
	assert.Equal(t, "export   syslog tcp siem:514 (cef): NOT CONNECTED, 7 queued of 10, 3 sent, 2 dropped; last error 2026-11-27 13:00:00: refused",
		exportLine(&syslogexport.Status{Enabled: true, Transport: "tcp", Address: "siem:514", Format: "cef", Queued: 7, QueueLimit: 10, Sent: 3, Dropped: 2, LastError: "refused", LastErrAt: at}))
}
