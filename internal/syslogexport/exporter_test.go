package syslogexport

import (
	"context"
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
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/cputime"
	"github.com/flowd-dev/flowd/internal/exporter"
	"github.com/flowd-dev/flowd/internal/spool"
)

func TestMain(m *testing.M) {
	// A receiver restarted by a test is found again soon.
	exporter.MaxBackoff = 200 * time.Millisecond
	os.Exit(m.Run())
}

// timeout bounds a wait for what must happen; only a failing test waits it out.
func timeout() <-chan time.Time { return time.After(30 * time.Second) }

func start(t *testing.T, cfg config.Syslog) *Exporter {
	t.Helper()
	return startIn(t, cfg, t.TempDir())
}

// startIn starts an exporter whose spool is in dir.
func startIn(t *testing.T, cfg config.Syslog, dir string) *Exporter {
	t.Helper()
	cfg.Enabled = true
	if cfg.Format == "" {
		cfg.Format = config.SyslogRFC5424
	}
	if cfg.QueueLimit == 0 {
		cfg.QueueLimit = 1000
	}
	if cfg.SpoolBytes == 0 {
		cfg.SpoolBytes = 1 << 20
	}
	if cfg.DrainTimeout.Duration == 0 {
		cfg.DrainTimeout.Duration = 5 * time.Second
	}
	e, err := New(cfg, dir, slog.New(slog.DiscardHandler))
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

// offerPaced offers records from to to, half the queue's limit at a
// time, each half once the exporter took those before off the memory
// queue (sent, or moved to disk): the queue, smaller than all of them,
// drops none. Half the limit is a batch the exporter sends or spills at
// once, rather than lingering for others to join it.
func offerPaced(t *testing.T, e *Exporter, from, to uint64) {
	t.Helper()
	every := uint64(max(e.Status().QueueLimit/2, 1))
	for i := from; i <= to; i++ {
		e.Offer(rec(i))
		if i%every == 0 || i == to {
			until(t, "the queue sent or spilled", func() bool { return e.Status().Queued == 0 })
		}
	}
}

// waiting is how many records wait, in memory and on disk.
func waiting(s exporter.Status) int { return s.Queued + s.Spool.Records }

// A receiver that goes down and comes back gets the records made while
// it was away, in order, after those it had, and none twice: many more
// than the memory queue holds, which waited on disk.
func TestTCPReceiverRestarts(t *testing.T) {
	r := startReceiver(t, "tcp", "", nil)
	e := start(t, config.Syslog{Address: r.addr, Transport: config.SyslogTCP, QueueLimit: 20})
	offerPaced(t, e, 1, 100)
	expect(t, r, ids(1, 100)...)
	until(t, "sent", func() bool { return e.Status().Sent == 100 })

	r.stop()
	until(t, "the exporter to see the receiver gone", func() bool { return !e.Status().Connected })
	offerPaced(t, e, 101, 2000)
	until(t, "a failed reconnect", func() bool { return e.Status().LastError != "" })
	assert.Contains(t, e.Status().LastError, "connect to syslog receiver "+r.addr)
	until(t, "the records on disk", func() bool { return e.Status().Spool.Records > 0 })
	assert.Equal(t, 1900, waiting(e.Status()))

	r2 := startReceiver(t, "tcp", r.addr, nil)
	e.Offer(rec(2001))
	expect(t, r2, ids(101, 2001)...)
	until(t, "all sent", func() bool { s := e.Status(); return s.Sent == 2001 && waiting(s) == 0 })
	st := e.Status()
	assert.True(t, st.Connected)
	assert.Zero(t, st.Dropped)
	assert.Zero(t, st.Spool.Dropped)
	e.Offer(rec(2002))
	expect(t, r2, 2002) // and nothing twice before it
}

// Records that wait for a receiver that is away when flowd stops are on
// disk, and the next start sends them, in order, before newer ones.
func TestStopWhileAwayNextStartSends(t *testing.T) {
	r := startReceiver(t, "tcp", "", nil)
	addr := r.addr
	r.stop()
	dir := t.TempDir()
	cfg := config.Syslog{Address: addr, Transport: config.SyslogTCP, QueueLimit: 1000}
	e := startIn(t, cfg, dir)
	for i := uint64(1); i <= 300; i++ {
		e.Offer(rec(i))
	}
	e.Close()

	r2 := startReceiver(t, "tcp", addr, nil)
	e2 := startIn(t, cfg, dir)
	until(t, "the spool read back", func() bool { return waiting(e2.Status()) > 0 || e2.Status().Sent > 0 })
	e2.Offer(rec(301))
	expect(t, r2, ids(1, 301)...)
	until(t, "all sent", func() bool { s := e2.Status(); return s.Sent == 301 && waiting(s) == 0 })
	e2.Offer(rec(302))
	expect(t, r2, 302)
}

// A spool past its byte limit drops its oldest records, counted; what is
// left arrives in order.
func TestSpoolDropsOldestPastItsLimit(t *testing.T) {
	r := startReceiver(t, "tcp", "", nil)
	addr := r.addr
	r.stop()
	e := start(t, config.Syslog{Address: addr, Transport: config.SyslogTCP, QueueLimit: 10, SpoolBytes: 64 << 10})
	const n = 2000 // some 150 bytes each on disk: several times the limit
	offerPaced(t, e, 1, n)
	until(t, "all on disk", func() bool { s := e.Status(); return s.Queued == 0 && s.Spool.Dropped > 0 })
	st := e.Status()
	assert.Zero(t, st.Dropped)
	assert.Equal(t, n, st.Spool.Records+int(st.Spool.Dropped), "each record waits or is counted dropped")
	assert.LessOrEqual(t, st.Spool.Bytes, st.Spool.Limit)
	first := uint64(st.Spool.Dropped) + 1
	r2 := startReceiver(t, "tcp", addr, nil)
	expect(t, r2, ids(first, n)...)
}

// Without a spool (its directory cannot be made), a full queue drops
// the oldest and counts them; the rest arrive in order.
func TestQueueDropsOldest(t *testing.T) {
	r := startReceiver(t, "tcp", "", nil)
	addr := r.addr
	r.stop()
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	e := startIn(t, config.Syslog{Address: addr, Transport: config.SyslogTCP, QueueLimit: 5}, filepath.Join(file, "spool"))
	until(t, "the spool refused", func() bool { return e.Status().SpoolError != "" })
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
	assert.Equal(t, 1, waiting(e2.Status()))
	assert.Empty(t, r3.got)

	_, err = New(config.Syslog{Enabled: true, Address: r.addr, Transport: config.SyslogTLS, CAFile: filepath.Join(dir, "none.pem")}, t.TempDir(), slog.New(slog.DiscardHandler))
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
	assert.Equal(t, exporter.Status{Name: "syslog", Enabled: false, Protocol: "tcp", Format: "rfc5424", Offered: 1, Sent: 1, Spool: spool.Stats{Limit: 1 << 20}}, e.Status())

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
		Format: config.SyslogRFC5424, QueueLimit: 1 << 30, SpoolBytes: 1 << 30, DrainTimeout: config.Duration{Duration: time.Second}},
		b.TempDir(), slog.New(slog.DiscardHandler))
	require.NoError(b, err)
	b.Cleanup(e.Close)
	r := sample()
	start, cpu := time.Now(), cputime.Process()
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
	// The whole process's CPU: the exporter's, and the receiver's on
	// this machine, which only discards.
	b.ReportMetric(float64(cputime.Process()-cpu)/1e3/float64(n), "cpu-µs/record")
}

// Over UDP a receiver that is away shows as "connection refused" on the
// write after the datagram it refused: neither counts as sent, the
// records before them do, so the exporter sends again exactly those not
// sent (what it does with the count: internal/exporter's tests).
func TestUDPCountsWhatWasSent(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("relies on Linux reporting a refused datagram on the next write over loopback")
	}
	r := startReceiver(t, "udp", "", nil)
	c, err := dial(context.Background(), config.Syslog{Address: r.addr, Transport: config.SyslogUDP, Format: config.SyslogRFC5424}, nil, Source{Host: "h"})
	require.NoError(t, err)
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	n, err := c.Send(ctx, []activity.Record{rec(1), rec(2), rec(3)})
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	expect(t, r, 1, 2, 3)

	r.stop()
	n, err = c.Send(ctx, []activity.Record{rec(4), rec(5), rec(6)})
	require.ErrorIs(t, err, syscall.ECONNREFUSED)
	assert.Zero(t, n, "4 went to a closed port, 5 was not written")
}

// A record too big for a datagram even without its details is cut to
// fit, rather than fail each time and hold up those after it.
func TestUDPCutsWhatCannotFit(t *testing.T) {
	r := startReceiver(t, "udp", "", nil)
	e := start(t, config.Syslog{Address: r.addr, Transport: config.SyslogUDP})
	huge := rec(1)
	huge.Reason = strings.Repeat("é", 40_000)
	e.Offer(huge)
	e.Offer(rec(2))
	got := r.next()
	assert.LessOrEqual(t, len(got), maxDatagram)
	assert.Greater(t, len(got), maxDatagram-utf8.UTFMax)
	assert.True(t, utf8.ValidString(got), "cut at a character's start")
	assert.Contains(t, got, " id=\"1\"")
	expect(t, r, 2)
}
