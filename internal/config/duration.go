package config

import (
	"fmt"
	"strings"
	"time"
)

// Duration is a time.Duration written in the file as a Go duration string
// ("300ms", "5s", "168h").
type Duration struct {
	time.Duration
}

// UnmarshalText parses a Go duration string.
func (d *Duration) UnmarshalText(text []byte) error {
	v, err := time.ParseDuration(string(text))
	if err != nil {
		if strings.HasSuffix(string(text), "d") {
			// "7d" is the most natural thing to write and Go does not take it.
			return fmt.Errorf("%q is not a duration: days are not a unit; write hours (\"168h\" is 7 days)", text)
		}
		return fmt.Errorf("%q is not a duration: write a number and a unit, one of ns, us, ms, s, m, h (\"5s\", \"168h\")", text)
	}
	d.Duration = v
	return nil
}

// MarshalText writes the duration in the form UnmarshalText reads.
func (d Duration) MarshalText() ([]byte, error) {
	return []byte(d.Duration.String()), nil
}
