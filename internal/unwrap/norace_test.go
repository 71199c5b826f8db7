//go:build !race

package unwrap

const raceEnabled = false
