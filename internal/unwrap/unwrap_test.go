package unwrap

import (
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestViews(t *testing.T) {
	const s = "the launch moves to October 14"
	has := func(views [][]byte, want string) bool {
		return slices.ContainsFunc(views, func(v []byte) bool { return string(v) == want })
	}
	assert.True(t, has(Views([]byte("q="+url.QueryEscape(s))), "q="+s))
	assert.True(t, has(Views([]byte(`{"b":"`+base64.StdEncoding.EncodeToString([]byte(s))+`"}`)), s))
	assert.True(t, has(Views([]byte(`{"b":"`+base64.RawURLEncoding.EncodeToString([]byte(s+"??"))+`"}`)), s+"??"))
	assert.True(t, has(Views([]byte("x "+hex.EncodeToString([]byte(s)))), s))
	assert.Empty(t, Views([]byte("plain words and short b64 aGk=")))
	assert.Equal(t, [][]byte{[]byte("100% sure %zz")}, Views([]byte("100%25 sure %zz")))
}
