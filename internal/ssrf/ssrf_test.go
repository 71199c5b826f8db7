package ssrf

import "testing"

func TestHost(t *testing.T) {
	for _, c := range []struct {
		host      string
		kind      Kind
		disguised bool
	}{
		{"127.0.0.1", Loopback, false},
		{"127.0.0.1:8080", Loopback, false},
		{"localhost", Loopback, false},
		{"LOCALHOST.", Loopback, false},
		{"api.localhost", Loopback, false},
		{"2130706433", Loopback, true},
		{"0x7f000001", Loopback, true},
		{"0x7f.0.0.1", Loopback, true},
		{"0177.0.0.1", Loopback, true},
		{"127.1", Loopback, true},
		{"127.000.000.001", Loopback, true},
		{"[::1]", Loopback, false},
		{"[::1]:80", Loopback, false},
		{"[::ffff:127.0.0.1]", Loopback, true},
		{"[::ffff:7f00:1]", Loopback, true},
		{"[::ffff:a9fe:a9fe]", Metadata, true},
		{"[64:ff9b::a00:1]", Private, true},
		{"[0:0:0:0:0:0:0:1]", Loopback, false},
		{"0.0.0.0", Unspecified, false},
		{"0", Unspecified, true},
		{"10.0.0.1", Private, false},
		{"172.16.5.4", Private, false},
		{"192.168.1.1", Private, false},
		{"100.64.0.1", Shared, false},
		{"169.254.169.254", Metadata, false},
		{"169.254.1.1", LinkLocal, false},
		{"0xa9.0xfe.0xa9.0xfe", Metadata, true},
		{"2852039166", Metadata, true},
		{"[fd00:ec2::254]", Metadata, false},
		{"[fe80::1%25eth0]", LinkLocal, false},
		{"[fc00::1]", Private, false},
		{"metadata.google.internal", Metadata, false},
		{"10.0.0.5.nip.io", Private, true},
		{"app-192-168-0-1.sslip.io", Private, true},
		{"7f000001.nip.io", Loopback, true},
		{"a9fea9fe.rbndr.us", Metadata, true},
		{"localtest.me", Loopback, false},
		{"１２７．０．０．１", Loopback, true},
	} {
		got, ok := Host(c.host)
		if !ok || got.Kind != c.kind || (got.Disguised != "") != c.disguised {
			t.Errorf("Host(%q) = %+v, %v; want %s, disguised %v", c.host, got, ok, c.kind, c.disguised)
		}
	}
	for _, h := range []string{"example.com", "8.8.8.8", "api.github.com", "1.2.3.4:443", "[2606:4700::1111]", "172.32.0.1",
		"100.128.0.1", "nip.io", "example.nip.io", "localhost.example.com", "10.0.0.1.example.com", "my-localhost-app.dev",
		"256.1.1.1", "v1.2.3", "1.2.3.4.5", "[2002:0808:0808::1]", "metadata-service.example.com"} {
		if got, ok := Host(h); ok {
			t.Errorf("Host(%q) = %+v; want not internal", h, got)
		}
	}
}

func TestFind(t *testing.T) {
	for _, c := range []struct {
		text string
		want Kind
	}{
		{`{"url":"http://169.254.169.254/latest/meta-data/"}`, Metadata},
		{"curl -s http://0x7f000001/admin", Loopback},
		{"see http://trusted.example.com@10.1.2.3/x", Private},
		{`http://127.0.0.1\@example.com/`, Loopback},
		{"https://redirect.example.com/?to=http%3A%2F%2F169.254.169.254%2Flatest", Metadata},
		{"gopher://[::1]:6379/_INFO", Loopback},
		{"http://%31%32%37.0.0.1/", Loopback},
	} {
		hits := Find(c.text)
		if len(hits) == 0 || hits[0].Kind != c.want {
			t.Errorf("Find(%q) = %+v; want %s", c.text, hits, c.want)
		}
	}
	for _, text := range []string{"https://api.github.com/repos/x", "no url here: 10.0.0.1", "http://example.com/?ip=127.0.0.1",
		"https://user:pass@example.com/", "://10.0.0.1", "ftp://ftp.example.org/pub"} {
		if hits := Find(text); len(hits) != 0 {
			t.Errorf("Find(%q) = %+v; want none", text, hits)
		}
	}
}

func TestFindBounded(t *testing.T) {
	text := ""
	for i := 0; i < 100; i++ {
		text += "http://10.0.0.1/ "
	}
	if n := len(Find(text)); n != maxHits {
		t.Errorf("Find returned %d hits; want at most %d", n, maxHits)
	}
}
