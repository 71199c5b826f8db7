//go:build redteam8

package config

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// RT8-10: RT7-9's fix holds back a dropped feed, its signer and a longer
// feed_interval; the same effect (the company's attack prints never
// arrive) comes from a pull given 1 ms, a size limit below any feed, or
// another CA for the feed's server, and the exporters' drain_timeout cut
// to nothing loses the records queued at each stop. None is held back.
func TestRT8WeakeningsNotListed(t *testing.T) {
	const key = "ed25519:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
	withFeed := func() *Config {
		c := Default()
		c.Injection.KnownAttacks.TrustedKeys = []string{key}
		c.Injection.KnownAttacks.Feeds = []Feed{{URL: "https://feeds.corp.example/prints", Key: key, CAFile: "/etc/flowd/corp-ca.pem"}}
		return c
	}
	withOTLP := func() *Config {
		c := Default()
		c.Export.OTLP.Enabled, c.Export.OTLP.Endpoint, c.Export.OTLP.Protocol = true, "https://collector.corp.example:4318", "http"
		return c
	}
	tests := []struct {
		name   string
		old    func() *Config
		change func(c *Config)
	}{
		{"feed pulls given 1 ms (every pull times out)", withFeed, func(c *Config) { c.Injection.KnownAttacks.FeedTimeout = Duration{time.Millisecond} }},
		{"feeds larger than 1 KiB refused", withFeed, func(c *Config) { c.Injection.KnownAttacks.FeedMaxBytes = 1024 }},
		{"the feed server's CA replaced", withFeed, func(c *Config) { c.Injection.KnownAttacks.Feeds[0].CAFile = "/tmp/other-ca.pem" }},
		{"OTLP drain at stop cut to 1 ms", withOTLP, func(c *Config) { c.Export.OTLP.DrainTimeout = Duration{time.Millisecond} }},
	}
	for _, tc := range tests {
		old, new := tc.old(), tc.old()
		tc.change(new)
		assert.NotEmpty(t, Weakened(old, new), "%s: applied without the passphrase", tc.name)
	}
}
