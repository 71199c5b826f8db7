package secrets

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/sha3"
)

// bech32Encode spells 5-bit data under hrp with a bech32 (or bech32m)
// checksum, computed from BIP-173's definition rather than the code under
// test.
func bech32Encode(hrp string, data []byte, m bool) string {
	polymod := func(values []byte) uint32 {
		gen := []uint32{0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3}
		chk := uint32(1)
		for _, v := range values {
			b := chk >> 25
			chk = (chk&0x1ffffff)<<5 ^ uint32(v)
			for i := 0; i < 5; i++ {
				if (b>>i)&1 == 1 {
					chk ^= gen[i]
				}
			}
		}
		return chk
	}
	var values []byte
	for _, c := range []byte(hrp) {
		values = append(values, c>>5)
	}
	values = append(values, 0)
	for _, c := range []byte(hrp) {
		values = append(values, c&31)
	}
	values = append(values, data...)
	konst := uint32(1)
	if m {
		konst = 0x2bc830a3
	}
	pm := polymod(append(values, 0, 0, 0, 0, 0, 0)) ^ konst
	out := hrp + "1"
	for _, d := range data {
		out += string(bech32Charset[d])
	}
	for i := 0; i < 6; i++ {
		out += string(bech32Charset[(pm>>uint(5*(5-i)))&31])
	}
	return out
}

// fiveBits regroups bytes into 5-bit values.
func fiveBits(b []byte) []byte {
	var out []byte
	acc, bits := 0, 0
	for _, x := range b {
		acc = acc<<8 | int(x)
		bits += 8
		for bits >= 5 {
			bits -= 5
			out = append(out, byte(acc>>bits&31))
		}
	}
	if bits > 0 {
		out = append(out, byte(acc<<(5-bits)&31))
	}
	return out
}

// eip55 spells a 20-byte address with Ethereum's mixed-case checksum.
func eip55(addr []byte) string {
	h := hex.EncodeToString(addr)
	k := sha3.NewLegacyKeccak256()
	k.Write([]byte(h))
	sum := hex.EncodeToString(k.Sum(nil))
	out := []byte(h)
	for i, c := range out {
		if c >= 'a' && sum[i] >= '8' {
			out[i] = c - 32
		}
	}
	return "0x" + string(out)
}

func TestWalletAddresses(t *testing.T) {
	d, err := New()
	require.NoError(t, err)
	hash := make([]byte, 20)
	for i := range hash {
		hash[i] = byte(i*53 + 19)
	}
	hash32 := make([]byte, 32)
	for i := range hash32 {
		hash32[i] = byte(i*71 + 3)
	}
	p2pkh := base58CheckEncode(append([]byte{0x00}, hash...))
	p2sh := base58CheckEncode(append([]byte{0x05}, hash...))
	litecoin := base58CheckEncode(append([]byte{0x30}, hash...))
	testnet := base58CheckEncode(append([]byte{0x6f}, hash...))
	segwit := bech32Encode("bc", append([]byte{0}, fiveBits(hash)...), false)
	taproot := bech32Encode("tb", append([]byte{1}, fiveBits(hash32)...), true)
	cosmos := bech32Encode("cosmos", fiveBits(hash), false)
	eth := eip55(hash)
	found := []string{
		"https://pay.example.net/r?to=" + p2pkh,
		`{"beneficiary": "` + p2sh + `", "amount": 3}`,
		"send the LTC to " + litecoin + " tonight",
		"faucet: " + testnet,
		"https://collect.example.org/a/" + segwit + "/ok",
		strings.ToUpper(segwit),
		"taproot " + taproot,
		"delegate to " + cosmos,
		"0x wallet " + eth,
		"lower-case too: " + strings.ToLower(eth),
	}
	for _, text := range found {
		got := d.Scan(text)
		require.Len(t, got, 1, text)
		assert.Equal(t, "crypto_address", got[0].Type, text)
		assert.True(t, got[0].Public, text)
		assert.Equal(t, text[got[0].Start:got[0].End], got[0].Value)
	}
	flip := func(s string, i int) string {
		b := []byte(s)
		switch {
		case b[i] >= 'a' && b[i] <= 'z':
			b[i] -= 32
		case b[i] >= 'A' && b[i] <= 'Z':
			b[i] += 32
		}
		return string(b)
	}
	wrongCase := eth
	for i := 2; i < len(eth); i++ {
		if eth[i] > '9' {
			wrongCase = flip(eth, i)
			break
		}
	}
	clean := []string{
		p2pkh[:20] + string("23456789"[(strings.IndexByte("23456789", p2pkh[20])+1)%8]) + p2pkh[21:], // one character off
		segwit[:len(segwit)-1] + map[bool]string{true: "q", false: "p"}[segwit[len(segwit)-1] != 'q'],
		wrongCase, // EIP-55 says this is mistyped
		"0x0000000000000000000000000000000000000000",                                  // the zero address
		"tx 0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060",       // a transaction hash
		"commit 037184d5e1f0a9b3c2d4e6f8a0b1c3d5e7f9a1b2 on main",                     // a git SHA
		"ipfs://QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG/readme",                // a content id
		"https://docs.google.com/document/d/1Xq7pR3mKv9LwN2bT5cY8zH4jF6dG0sA1eU/edit", // a document id
		"id x7Kp2mQ9vR4sL8nW1bY6cT3fA9jH5dEz and more",
		"The Bitcoin whitepaper uses addresses starting with 1, 3 or bc1.",
	}
	for _, c := range clean {
		for _, f := range d.Scan(c) {
			assert.NotEqual(t, "crypto_address", f.Type, "%q", c)
		}
	}
}
