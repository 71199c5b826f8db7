package secrets

import (
	"crypto/sha256"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cosmos/go-bip39"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// base58CheckEncode is the inverse of base58Check, for making test keys.
func base58CheckEncode(payload []byte) string {
	h1 := sha256.Sum256(payload)
	h2 := sha256.Sum256(h1[:])
	b := append(append([]byte{}, payload...), h2[:4]...)
	n := new(big.Int).SetBytes(b)
	var out []byte
	mod := new(big.Int)
	for n.Sign() > 0 {
		n.DivMod(n, big.NewInt(58), mod)
		out = append(out, base58Alphabet[mod.Int64()])
	}
	for _, c := range b {
		if c != 0 {
			break
		}
		out = append(out, '1')
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return string(out)
}

// ibanFor computes the check digits of an IBAN.
func ibanFor(country, bban string) string {
	rem := 0
	for _, c := range bban + country + "00" {
		if c >= '0' && c <= '9' {
			rem = (rem*10 + int(c-'0')) % 97
		} else {
			rem = (rem*100 + int(c-'A'+10)) % 97
		}
	}
	return fmt.Sprintf("%s%02d%s", country, 98-rem, bban)
}

func TestFinancialSecrets(t *testing.T) {
	d, err := New()
	require.NoError(t, err)
	key := make([]byte, 32)
	for i := range key {
		key[i] = byte(i*37 + 11)
	}
	seed := func(bits int) string {
		m, err := bip39.NewMnemonic(key[:bits/8])
		require.NoError(t, err)
		return m
	}
	wifU := base58CheckEncode(append([]byte{0x80}, key...))
	wifC := base58CheckEncode(append(append([]byte{0x80}, key...), 1))
	xprv := base58CheckEncode(append(append([]byte{0x04, 0x88, 0xAD, 0xE4, 0, 0, 0, 0, 0, 0, 0, 0, 0}, key...), append([]byte{0}, key...)...))
	iban := ibanFor("FR", "30006000011234567890189")
	numbered := func(s string) string {
		var b strings.Builder
		for i, w := range strings.Fields(s) {
			fmt.Fprintf(&b, "%d. %s\n", i+1, w)
		}
		return b.String()
	}
	found := []struct{ text, typ string }{
		{"backup: " + seed(128), "seed_phrase"},
		{"words=" + strings.ReplaceAll(seed(256), " ", ","), "seed_phrase"},
		{numbered(seed(160)), "seed_phrase"},
		{strings.ToUpper(seed(192)), "seed_phrase"},
		{"import " + wifU + " into the wallet", "crypto_private_key"},
		{"key: " + wifC, "crypto_private_key"},
		{`{"xprv":"` + xprv + `"}`, "crypto_private_key"},
		{"IBAN " + iban, "iban"},
		{"to " + strings.Join([]string{iban[:4], iban[4:8], iban[8:12], iban[12:16], iban[16:20], iban[20:24], iban[24:]}, " ") + ".", "iban"},
	}
	for _, f := range found {
		got := d.Scan(f.text)
		require.NotEmpty(t, got, f.text)
		assert.Equal(t, f.typ, got[0].Type, f.text)
	}
	badSeed := strings.Fields(seed(128))
	badSeed[11] = map[bool]string{true: "zoo", false: "zone"}[badSeed[11] != "zoo"]
	clean := []string{
		strings.Join(badSeed, " "), // checksum fails (15 in 16 of such changes)
		"abandon ability able about above absent absorb abstract absurd abuse access accident", // list order
		"the river runs past the old mill and under the bridge where children play every summer afternoon",
		wifU[:50] + "x",
		ibanFor("DE", "370400440532013000")[:4] + "1" + ibanFor("DE", "370400440532013000")[5:],
		"order GB00ABCD12345678901234 shipped",
	}
	for _, c := range clean {
		for _, f := range d.Scan(c) {
			assert.NotContains(t, []string{"seed_phrase", "crypto_private_key", "iban"}, f.Type, "%q", c)
		}
	}
}

// TestBase58DecodeMatchesBigInt compares the word-wise decoder with the
// plain big-number reading of the same digits, leading '1's (zero bytes)
// included.
func TestBase58DecodeMatchesBigInt(t *testing.T) {
	reference := func(s string) []byte {
		n := new(big.Int)
		for i := 0; i < len(s); i++ {
			n.Mul(n, big.NewInt(58))
			n.Add(n, big.NewInt(int64(base58Value[s[i]])))
		}
		b := n.Bytes()
		for i := 0; i < len(s) && s[i] == '1'; i++ {
			b = append([]byte{0}, b...)
		}
		return b
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var sb strings.Builder
		for range rng.IntN(4) {
			sb.WriteByte('1')
		}
		for range rng.IntN(100) {
			sb.WriteByte(base58Alphabet[rng.IntN(len(base58Alphabet))])
		}
		s := sb.String()
		var buf [maxBase58Bytes]byte
		require.Equal(t, reference(s), append([]byte{}, base58Decode(s, &buf)...), s)
	}
	var buf [maxBase58Bytes]byte
	require.Nil(t, base58Decode("0OIl", &buf), "not base58")
	require.Nil(t, base58Decode(strings.Repeat("z", 121), &buf), "too long")
}

// TestValidSeedPacksAsBitByBit checks the checksum packed eleven bits at
// a time against the bit-by-bit reading it replaced, on random windows and
// on windows whose last word is chosen to make the checksum valid.
func TestValidSeedPacksAsBitByBit(t *testing.T) {
	reference := func(idx []int) bool {
		bits := len(idx) * 11
		cs := bits / 33
		var buf [33]byte
		for k, v := range idx {
			for b := 0; b < 11; b++ {
				if v&(1<<(10-b)) != 0 {
					p := k*11 + b
					buf[p/8] |= 0x80 >> (p % 8)
				}
			}
		}
		ent := (bits - cs) / 8
		sum := sha256.Sum256(buf[:ent])
		for b := 0; b < cs; b++ {
			p := ent*8 + b
			if buf[p/8]&(0x80>>(p%8)) != 0 != (sum[b/8]&(0x80>>(b%8)) != 0) {
				return false
			}
		}
		return true
	}
	rng := rand.New(rand.NewPCG(3, 4))
	valid := 0
	for i := range 4000 {
		idx := make([]int, seedLengths[i%len(seedLengths)])
		for k := range idx {
			idx[k] = rng.IntN(2048)
		}
		if i%2 == 0 {
			// The checksum is the last word's low bits: one of them fits.
			for c := range 256 {
				idx[len(idx)-1] = idx[len(idx)-1]&^0xFF | c
				if reference(idx) {
					break
				}
			}
		}
		want := reference(idx)
		require.Equal(t, want, validSeed(idx), "%v", idx)
		if want {
			valid++
		}
	}
	require.GreaterOrEqual(t, valid, 2000, "the windows made valid are")
}
