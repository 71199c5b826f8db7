//go:build redteam7

package config

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// RT7-9: config changes that take protection or evidence away and are
// not held back for the passphrase (Weakened lists none of them), so an
// agent that can write the user's config file applies them with a
// SIGHUP or the next start.
func TestRT7WeakeningsNotListed(t *testing.T) {
	const key = "ed25519:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
	withFeed := func() *Config {
		c := Default()
		c.Injection.KnownAttacks.TrustedKeys = []string{key}
		c.Injection.KnownAttacks.Feeds = []Feed{{URL: "https://feeds.corp.example/prints", Key: key}}
		return c
	}
	withOTLP := func() *Config {
		c := Default()
		c.Export.OTLP.Enabled, c.Export.OTLP.Endpoint, c.Export.OTLP.Protocol = true, "https://collector.corp.example:4318", "http"
		c.Export.OTLP.Headers = map[string]string{"Authorization": "Bearer corp-ingest-token"}
		c.Export.OTLP.CertFile, c.Export.OTLP.KeyFile = "/etc/flowd/client.crt", "/etc/flowd/client.key"
		return c
	}
	withSyslog := func() *Config {
		c := Default()
		c.Export.Syslog.Enabled, c.Export.Syslog.Address, c.Export.Syslog.Transport = true, "siem.corp.example:6514", SyslogTLS
		c.Export.Syslog.CertFile, c.Export.Syslog.KeyFile = "/etc/flowd/client.crt", "/etc/flowd/client.key"
		return c
	}
	tests := []struct {
		name   string
		old    func() *Config
		change func(c *Config)
	}{
		{"the company's attack feed dropped", withFeed, func(c *Config) { c.Injection.KnownAttacks.Feeds = nil }},
		{"its signer no longer trusted", withFeed, func(c *Config) { c.Injection.KnownAttacks.TrustedKeys = nil; c.Injection.KnownAttacks.Feeds = nil }},
		{"feeds pulled once a month", withFeed, func(c *Config) { c.Injection.KnownAttacks.FeedInterval = Duration{720 * time.Hour} }},
		{"OTLP auth header replaced (the collector refuses every record)", withOTLP, func(c *Config) {
			c.Export.OTLP.Headers = map[string]string{"Authorization": "Bearer x"}
		}},
		{"OTLP protocol switched", withOTLP, func(c *Config) { c.Export.OTLP.Protocol = "grpc" }},
		{"OTLP client certificate dropped", withOTLP, func(c *Config) { c.Export.OTLP.CertFile, c.Export.OTLP.KeyFile = "", "" }},
		{"syslog client certificate dropped", withSyslog, func(c *Config) { c.Export.Syslog.CertFile, c.Export.Syslog.KeyFile = "", "" }},
		{"records flushed once a day (a kill loses them)", Default, func(c *Config) { c.Activity.FlushInterval = Duration{24 * time.Hour} }},
	}
	for _, tc := range tests {
		old, new := tc.old(), tc.old()
		tc.change(new)
		assert.NotEmpty(t, Weakened(old, new), "%s: applied without the passphrase", tc.name)
	}
}
