package flowdclient

import "time"

// HeldConfig is a config flowd held back because it lowers protection.
type HeldConfig struct {
	Changes []string  `json:"changes"`
	Digest  string    `json:"digest"`
	Since   time.Time `json:"since"`
}

// ApplyConfig applies the held config named by Digest.
type ApplyConfig struct {
	Digest     string `json:"digest"`
	Passphrase string `json:"passphrase"`
}

// HeldConfig returns the config flowd held back, if any (an error
// answering 404 when there is none).
func (c *Client) HeldConfig() (HeldConfig, error) {
	var h HeldConfig
	err := c.get("/api/v1/config/held", &h)
	return h, err
}

// ApplyConfig applies the held config named by digest, with the approval
// passphrase.
func (c *Client) ApplyConfig(digest, passphrase string) (HeldConfig, error) {
	var h HeldConfig
	err := c.post("/api/v1/config/apply", ApplyConfig{Digest: digest, Passphrase: passphrase}, &h)
	return h, err
}
