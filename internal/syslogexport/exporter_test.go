package syslogexport

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"io"
	"log/slog"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/config"
)

func TestMain(m *testing.M) {
	// A receiver restarted by a test is found again soon.
	maxBackoff = 200 * time.Millisecond
	os.Exit(m.Run())
}

// timeout bounds a wait for what must happen; only a failing test waits it out.
func timeout() <-chan time.Time { return time.After(30 * time.Second) }

func start(t *testing.T, cfg config.Syslog) *Exporter {
	t.Helper()
	cfg.Enabled = true
	if cfg.Format == "" {
		cfg.Format = config.SyslogRFC5424
	}
	if cfg.QueueLimit == 0 {
		cfg.QueueLimit = 1000
	}
	e, err := New(cfg, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	t.Cleanup(e.Close)
	return e
}

func rec(id uint64) activity.Record {
	return activity.Record{ID: id, ChainSeq: id, Time: time.Now(), Type: activity.TypeToolCall, Server: "mail",
		Tool: "send", Decision: "allow", Hash: "h" + string(rune('a'+id%26))}
}

// expect reads messages from r and checks they are the records ids, in
// that order: nothing lost, repeated or reordered.
func expect(t *testing.T, r *receiver, ids ...uint64) {
	t.Helper()
	for _, id := range ids {
		m, err := parse5424(r.next())
		require.NoError(t, err)
		var got activity.Record
		require.NoError(t, json.Unmarshal([]byte(m.msg), &got))
		require.Equal(t, id, got.ID, "records out of order, lost or repeated")
		assert.Equal(t, m.params["id"], m.params["chain_seq"])
	}
}

// until waits for cond, which the exporter's own goroutine makes true.
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting for: " + what)
		}
		time.Sleep(time.Millisecond) // a poll of the condition, not a guess at a delay
	}
}

func ids(from, to uint64) []uint64 {
	var out []uint64
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}

// A receiver that goes down and comes back gets the records made while
// it was away, in order, after those it had, and none twice.
func TestTCPReceiverRestarts(t *testing.T) {
	r := startReceiver(t, "tcp", "", nil)
	e := start(t, config.Syslog{Address: r.addr, Transport: config.SyslogTCP})
	for i := uint64(1); i <= 100; i++ {
		e.Offer(rec(i))
	}
	expect(t, r, ids(1, 100)...)
	until(t, "sent", func() bool { return e.Status().Sent == 100 })

	r.stop()
	until(t, "the exporter to see the receiver gone", func() bool { return !e.Status().Connected })
	for i := uint64(101); i <= 150; i++ {
		e.Offer(rec(i))
	}
	until(t, "a failed reconnect", func() bool { return e.Status().LastError != "" })
	assert.Contains(t, e.Status().LastError, "connect to syslog receiver "+r.addr)
	assert.Positive(t, e.Status().Queued)

	r2 := startReceiver(t, "tcp", r.addr, nil)
	e.Offer(rec(151))
	expect(t, r2, ids(101, 151)...)
	until(t, "all sent", func() bool { s := e.Status(); return s.Sent == 151 && s.Queued == 0 })
	st := e.Status()
	assert.True(t, st.Connected)
	assert.Zero(t, st.Dropped)
}

// A full queue drops the oldest and counts them; the rest arrive in order.
func TestQueueDropsOldest(t *testing.T) {
	r := startReceiver(t, "tcp", "", nil)
	addr := r.addr
	r.stop()
	e := start(t, config.Syslog{Address: addr, Transport: config.SyslogTCP, QueueLimit: 5})
	for i := uint64(1); i <= 8; i++ {
		e.Offer(rec(i))
	}
	st := e.Status()
	assert.Equal(t, uint64(3), st.Dropped)
	assert.Equal(t, 5, st.Queued)
	assert.Equal(t, 5, st.QueueLimit)
	r2 := startReceiver(t, "tcp", addr, nil)
	expect(t, r2, ids(4, 8)...)
}

func TestUDP(t *testing.T) {
	r := startReceiver(t, "udp", "", nil)
	e := start(t, config.Syslog{Address: r.addr, Transport: config.SyslogUDP})
	for i := uint64(1); i <= 20; i++ {
		e.Offer(rec(i))
	}
	expect(t, r, ids(1, 20)...)

	// A record too big for a datagram goes without its details.
	big := rec(21)
	big.Details = json.RawMessage(`{"x":"` + strings.Repeat("a", 70_000) + `"}`)
	e.Offer(big)
	m, err := parse5424(r.next())
	require.NoError(t, err)
	assert.Equal(t, "details", m.params["truncated"])
	assert.Equal(t, "21", m.params["id"])
}

func TestCEFOverTCP(t *testing.T) {
	r := startReceiver(t, "tcp", "", nil)
	e := start(t, config.Syslog{Address: r.addr, Transport: config.SyslogTCP, Format: config.SyslogCEF})
	x := rec(1)
	x.Reason = "a=b"
	e.Offer(x)
	got := r.next()
	assert.Contains(t, got, " tool_call - CEF:0|flowd|flowd|")
	assert.Contains(t, got, `reason=a\=b`)
}

func TestTLS(t *testing.T) {
	dir := t.TempDir()
	ca, caKey := newCA(t)
	caFile := writePEM(t, dir, "ca.pem", "CERTIFICATE", ca.Raw)
	serverCert := issue(t, ca, caKey, "127.0.0.1", false)
	clientCert := issue(t, ca, caKey, "flowd", true)
	certFile := writePEM(t, dir, "client.pem", "CERTIFICATE", clientCert.Certificate[0])
	keyDER, err := x509.MarshalPKCS8PrivateKey(clientCert.PrivateKey)
	require.NoError(t, err)
	keyFile := writePEM(t, dir, "client.key", "PRIVATE KEY", keyDER)
	pool := x509.NewCertPool()
	pool.AddCert(ca)
	// The receiver asks for a client certificate from the same CA.
	srv := &tls.Config{Certificates: []tls.Certificate{serverCert}, ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool}

	r := startReceiver(t, "tcp", "", srv)
	e := start(t, config.Syslog{Address: r.addr, Transport: config.SyslogTLS, CAFile: caFile, CertFile: certFile, KeyFile: keyFile})
	for i := uint64(1); i <= 10; i++ {
		e.Offer(rec(i))
	}
	expect(t, r, ids(1, 10)...)

	// And again after the receiver restarted.
	r.stop()
	until(t, "the exporter to see the receiver gone", func() bool { return !e.Status().Connected })
	e.Offer(rec(11))
	r2 := startReceiver(t, "tcp", r.addr, srv)
	expect(t, r2, 11)

	// A receiver whose certificate another CA signed is not sent to.
	otherCA, otherKey := newCA(t)
	impostor := &tls.Config{Certificates: []tls.Certificate{issue(t, otherCA, otherKey, "127.0.0.1", false)}}
	r3 := startReceiver(t, "tcp", "", impostor)
	e2 := start(t, config.Syslog{Address: r3.addr, Transport: config.SyslogTLS, CAFile: caFile})
	e2.Offer(rec(1))
	until(t, "a refused handshake", func() bool { return e2.Status().LastError != "" })
	assert.Contains(t, e2.Status().LastError, "certificate")
	assert.Equal(t, 1, e2.Status().Queued)
	assert.Empty(t, r3.got)

	_, err = New(config.Syslog{Enabled: true, Address: r.addr, Transport: config.SyslogTLS, CAFile: filepath.Join(dir, "none.pem")}, slog.New(slog.DiscardHandler))
	assert.ErrorContains(t, err, "export.syslog.ca_file")
}

func TestConfigure(t *testing.T) {
	r := startReceiver(t, "tcp", "", nil)
	e := start(t, config.Syslog{Address: r.addr, Transport: config.SyslogTCP})
	e.Offer(rec(1))
	expect(t, r, 1)
	until(t, "sent", func() bool { return e.Status().Sent == 1 })

	// Off: nothing is queued.
	off := config.Syslog{Transport: config.SyslogTCP, Format: config.SyslogRFC5424}
	require.NoError(t, e.Configure(off))
	e.Offer(rec(2))
	assert.Equal(t, Status{Enabled: false, Transport: "tcp", Format: "rfc5424", Sent: 1}, e.Status())

	// Another receiver: records go there.
	r2 := startReceiver(t, "tcp", "", nil)
	require.NoError(t, e.Configure(config.Syslog{Enabled: true, Address: r2.addr, Transport: config.SyslogTCP, Format: config.SyslogRFC5424, QueueLimit: 10}))
	e.Offer(rec(3))
	expect(t, r2, 3)
	assert.Empty(t, r.got)
}

func newCA(t *testing.T) (*x509.Certificate, *ecdsa.PrivateKey) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	ca, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	return ca, key
}

func issue(t *testing.T, ca *x509.Certificate, caKey *ecdsa.PrivateKey, name string, client bool) tls.Certificate {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	if client {
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
	} else if ip := net.ParseIP(name); ip != nil {
		tmpl.IPAddresses = []net.IP{ip}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	require.NoError(t, err)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

func writePEM(t *testing.T, dir, name, typ string, der []byte) string {
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600))
	return p
}

// BenchmarkExportTCP is records sent per second to a TCP receiver on this
// machine that reads and discards them.
func BenchmarkExportTCP(b *testing.B) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(b, err)
	b.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go io.Copy(io.Discard, c)
		}
	}()
	e, err := New(config.Syslog{Enabled: true, Address: l.Addr().String(), Transport: config.SyslogTCP,
		Format: config.SyslogRFC5424, QueueLimit: 1 << 30}, slog.New(slog.DiscardHandler))
	require.NoError(b, err)
	b.Cleanup(e.Close)
	r := sample()
	start := time.Now()
	n := 0
	for b.Loop() {
		n++
		r.ID = uint64(n)
		e.Offer(r)
	}
	for e.Status().Sent < uint64(n) {
		time.Sleep(time.Millisecond) // a benchmark's wait for the last write
	}
	b.ReportMetric(float64(n)/time.Since(start).Seconds(), "records/s")
}
