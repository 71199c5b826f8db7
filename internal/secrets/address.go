package secrets

import (
	"strings"

	"golang.org/x/crypto/sha3"
)

// Wallet addresses: public by design, but each names the user's money, so
// one sent out ties the user to their funds (or is the account an agent
// was told to pay). They are found by their checksums alone, whatever the
// chain and whatever the text around them says: base58check over a
// 20-byte hash (Bitcoin's 1… and 3…, and every chain that copied its
// format), bech32 and bech32m (bc1…, ltc1…, cosmos1…), and Ethereum's
// 0x and 40 hex digits (EIP-55's mixed-case checksum when it has one).
// A random string passes one of these checks about once in 2^30.

// address reports the address kind of an alphanumeric token, or "".
func address(tok string) string {
	switch {
	case len(tok) == 42 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X'):
		if ethAddress(tok[2:]) {
			return "ethereum"
		}
	case len(tok) >= 26 && len(tok) <= 35 && mixedBase58(tok):
		// An address is 25 bytes: the checksum's two hashes only for those.
		var buf [maxBase58Bytes]byte
		if len(base58Decode(tok, &buf)) == 25 && len(base58Check(tok)) == 21 {
			return "base58check"
		}
	case len(tok) >= 20 && len(tok) <= 90 && strings.IndexByte(tok, '1') > 0:
		if bech32(tok) {
			return "bech32"
		}
	}
	return ""
}

// mixedBase58 is a cheap test before decoding: base58's alphabet, with
// upper, lower case and digits all present, as any base58 encoding of a
// hash has.
func mixedBase58(s string) bool {
	var up, lo, dig bool
	for i := 0; i < len(s); i++ {
		if base58Value[s[i]] < 0 {
			return false
		}
		up, lo, dig = up || isUpper(s[i]), lo || isLower(s[i]), dig || isDigit(s[i])
	}
	return up && lo && dig
}

// ethAddress: 40 hex digits, in one case, or mixed as EIP-55 spells them
// (a letter upper-cased where the Keccak-256 of the lower-case address has
// a high nibble). An address of a few repeated digits (the zero address)
// names nobody.
func ethAddress(h string) bool {
	var up, lo bool
	seen := map[byte]bool{}
	for i := 0; i < len(h); i++ {
		c := h[i]
		switch {
		case isDigit(c):
		case c >= 'a' && c <= 'f':
			lo = true
		case c >= 'A' && c <= 'F':
			up = true
		default:
			return false
		}
		seen[lowerASCII(c)] = true
	}
	if len(seen) < 6 {
		return false
	}
	if !up || !lo {
		return true
	}
	k := sha3.NewLegacyKeccak256()
	k.Write([]byte(strings.ToLower(h)))
	sum := k.Sum(nil)
	for i := 0; i < len(h); i++ {
		if isDigit(h[i]) {
			continue
		}
		nibble := sum[i/2] >> 4
		if i%2 == 1 {
			nibble = sum[i/2] & 0x0f
		}
		if (nibble >= 8) != isUpper(h[i]) {
			return false
		}
	}
	return true
}

const bech32Charset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"

// bech32 checks a bech32 or bech32m string (BIP-173, BIP-350): a
// human-readable part of letters, the separator 1, at least 20 data
// characters and a six-character checksum, all in one case.
func bech32(s string) bool {
	sep := strings.LastIndexByte(s, '1')
	if sep < 1 || sep > 10 || len(s)-sep-1 < 26 {
		return false
	}
	var up, lo bool
	for i := 0; i < len(s); i++ {
		up, lo = up || isUpper(s[i]), lo || isLower(s[i])
	}
	if up && lo || !allAlpha(s[:sep]) {
		return false
	}
	if up {
		s = strings.ToLower(s)
	}
	hrp := s[:sep]
	chk := uint32(1)
	step := func(v uint32) {
		top := chk >> 25
		chk = (chk&0x1ffffff)<<5 ^ v
		for i, g := range [5]uint32{0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3} {
			if top>>i&1 == 1 {
				chk ^= g
			}
		}
	}
	for i := 0; i < len(hrp); i++ {
		step(uint32(hrp[i] >> 5))
	}
	step(0)
	for i := 0; i < len(hrp); i++ {
		step(uint32(hrp[i] & 31))
	}
	for i := sep + 1; i < len(s); i++ {
		v := strings.IndexByte(bech32Charset, s[i])
		if v < 0 {
			return false
		}
		step(uint32(v))
	}
	return chk == 1 || chk == 0x2bc830a3
}
