package opaque

import (
	"encoding/ascii85"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/big"
	"strings"
	"testing"
)

// Secrets written for this test (no real provider's), and transformations
// of them an attacker could pick.
var keys = []string{
	"Zt4pW9qLm2Xc7Rv0Bn5Ks8Hd3Fy6Gj1Ta2Ue",
	"glpat-8Kd2Lq9Vx3Mz7Tw4Rb6N",
	"s3cr3T!pa55-wOrd#Q7",
}

func shift(s string, n int) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z':
			r = 'a' + (r-'a'+rune(n))%26
		case r >= 'A' && r <= 'Z':
			r = 'A' + (r-'A'+rune(n))%26
		case r >= '0' && r <= '9':
			r = '0' + (r-'0'+rune(n))%10
		}
		b.WriteRune(r)
	}
	return b.String()
}

func reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

var transforms = map[string]func(string) string{
	"shift+3":  func(s string) string { return shift(s, 3) },
	"shift+11": func(s string) string { return shift(s, 11) },
	"xor+hex": func(s string) string {
		b := []byte(s)
		for i := range b {
			b[i] ^= 0x33
		}
		return hex.EncodeToString(b)
	},
	"ascii85": func(s string) string {
		d := make([]byte, ascii85.MaxEncodedLen(len(s)))
		return string(d[:ascii85.Encode(d, []byte(s))])
	},
	"reverse+base64url": func(s string) string { return base64.URLEncoding.EncodeToString([]byte(reverse(s))) },
	"base62-int":        func(s string) string { return new(big.Int).SetBytes([]byte(s)).Text(62) },
	"octal-int":         func(s string) string { return new(big.Int).SetBytes([]byte(s)).Text(8) },
	"doubled": func(s string) string {
		var b strings.Builder
		for _, r := range s {
			b.WriteRune(r)
			b.WriteRune(r)
		}
		return b.String()
	},
	"filler-digits": func(s string) string {
		var b strings.Builder
		for i, r := range s {
			b.WriteRune(r)
			b.WriteByte("73195"[i%5])
		}
		return b.String()
	},
	"tags": func(s string) string {
		var b strings.Builder
		b.WriteString("see ")
		for _, r := range s {
			b.WriteRune(0xE0000 + r)
		}
		return b.String()
	},
	"chunks": func(s string) string {
		var parts []string
		for i := 0; i < len(s); i += 5 {
			parts = append(parts, fmt.Sprintf("(%d) %s", i/5+1, s[i:min(i+5, len(s))]))
		}
		return strings.Join(parts, ", ")
	},
}

func TestFindsTransformedKeys(t *testing.T) {
	// Known gap: 4-5 character chunks of a mostly lower-case password
	// lack the upper case and digits a piece needs (units and formulas
	// in tables look like the rest).
	missed := map[string]bool{"chunks " + keys[2]: true}
	for _, k := range keys {
		for name, f := range transforms {
			if missed[name+" "+k] {
				continue
			}
			text := "here is the value you asked for: " + f(k) + " thanks"
			if got := Total(Find(text)); got*2 < len(k) {
				t.Errorf("%s of %q: payload %d, want at least half of %d (runs %v)", name, k, got, len(k), Find(text))
			}
		}
	}
}

func TestBenignTextCarriesNoPayload(t *testing.T) {
	for _, text := range []string{
		"Deployed build 3f2c9a1 to staging; see https://ci.example.org/jobs/48213/logs?step=deploy for details.",
		"request id 0b7c5a0e-8f1d-4c2a-9b3e-6d4f2a1c8e90 failed with HTTP 503 at 2026-11-27T10:04:55Z",
		"sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 matches the release",
		"Rename getUserAccountSettings to fetchAccountSettingsForTenant in src/services/account_settings.go",
		"upgrade golang.org/x/crypto to v0.31.0 and github.com/stretchr/testify to v1.10.0",
		"Call me at +1 415 555 0134 or 1732716295 as a unix timestamp",
		"base64 of the note: " + base64.StdEncoding.EncodeToString([]byte("The quarterly report is attached, please review by Friday.")),
		"The internationalization work for the Mississippi office is strengths-based.",
		"import { useState, useEffect } from 'react'; const [items, setItems] = useState([]);",
		"Zażółć gęślą jaźń — 東京タワー",
		"x86_64 arm64 OAuth2 iOS macOS v2 3pm HTTP/2 UTF-8 ISO-8601",
	} {
		if runs := Find(text); Total(runs) >= MinRun {
			t.Errorf("%q: payload %v", text, runs)
		}
	}
}

func TestBenignTokens(t *testing.T) {
	for _, tok := range []string{"IMG_20231105_142233.jpg", "ReadMe-v2.3.1_final", "507f1f77bcf86cd799439011", "#ff8800",
		"node_modules/.bin/eslint", "en-US,en;q=0.9", "X-Request-Id", "application/vnd.github+json", "Bearer", "sha512-",
		"2026-11-27T13:04:54.123456789Z", "192.168.10.254:8443", "linux-amd64.tar.gz", "@types/node@20.11.5",
		"fmt.Println(os.Args[1:])", `{"id":42,"name":"x","ok":true}`, "window.location.href='/login?next=%2Fhome';",
		"$HOME/.config/app/settings.json", "--output=build/artifacts/v2", "user@example.com;admin@example.org",
		`os.environ.get("AWS_REGION","us-east-1")`, "useState([]);", "en-US,en;q=0.9", "arr[i][j]=matrix[j][i];"} {
		if runs := Find(tok); Total(runs) > 0 {
			t.Errorf("%q: payload %v", tok, runs)
		}
	}
}
