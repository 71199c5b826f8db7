//go:build redteam2

package shellnorm

import "testing"

func FuzzRT2Parse(f *testing.F) {
	for _, s := range []string{"echo Zmxvd2Qgc3RvcA== | base64 -d | sh", "a=$(b) ${x:1:2} `c` $'\\x41' <<E\nx\nE\n", "{a,b}{c,d} case x in a) b;; esac"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { Parse(s).Text() })
}
