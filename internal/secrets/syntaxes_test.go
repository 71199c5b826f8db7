package secrets

import "testing"

// TestCredentialSyntaxes: credentials of providers no rule names, in the
// syntaxes issue #16 lists (a psql text table, a log line, a vendor's
// "_secret" JSON key, a key in a URL inside code, structuredContent),
// and the high-entropy text that is none (lockfile hashes, integrity
// strings, git SHAs, UUIDs, a digest column); and a credential named in
// words in a sentence.
func TestCredentialSyntaxes(t *testing.T) {
	d, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		secret bool
		text   string
	}{
		{true, " id | service  | api_secret                       | owner\n----+----------+----------------------------------+-------\n  1 | orbitly  | q8Zr2LmX0vKp7TnY4sBw9dHj3fGc6aRe | ops\n"},
		{true, " name      | token\n-----------+------------------------------------------\n prod-sync | zq7lx0c2m9v4b8n1k6j3h5g2f0d9s8a7p6o5i4u3\n"},
		{true, "2026-11-28 10:22:01 [DEBUG] Using Key=9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0 for upload"},
		{true, "[INFO] client initialised with secret 7Hq2ZkX9vLm4Np8Rt6Ys3Wb1Cd5Fg0Jh for tenant acme"},
		{true, `{"zentrix_secret": "k3m9x2p7q8r1t5v6w4y0"}`},
		{true, `{"quorra_api_secret": "h8f3k2l9m4n7p1q6r5s0"}`},
		{true, "resp = requests.get(\"https://api.weatherly.io/v2/forecast?city=Oslo&api_key=c4f7a9e2b8d1f6a3c5e7b9d2f4a6c8e0\")"},
		{true, "const url = `https://maps.tilequest.com/tiles?z=3&access_token=tq.eyJ1Ijoib3BzIn0.aB3dE5fG7hJ9kL1mN3pQ5r`;"},
		{true, `{"content":[],"structuredContent":{"AWS_SECRET_ACCESS_KEY":"wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKQ"}}`},
		{true, `{"structuredContent":{"config":{"stripe_key":"rk_live_51HxQ2bC9dE8fG7hJ6kL5mN4p"}}}`},
		{true, "export ACME_CLIENT_SECRET=\"Xr4vTq9LmZ2pWs7Kb3Nd6Hf1Gj8Yc5Ua\""},
		// A credential word in a sentence, one space, and a value no
		// word, digest or UUID looks like; the same words before
		// digests, UUIDs and words.
		{true, "rotated: new token Zx8Kq3Lm9Vb2Nc7Hd4Gf6Js1Pw5Rt0Ya, old one revoked"},
		{true, "2026-03-04 09:12:01 INFO sync: using signing_secret 6a0c81fe35243bd29e54f4f048fbdc84e7583e1d for partner 9"},
		{true, "api_token Zx8Kq3Lm9Vb2Nc7Hd4Gf6Js1Pw5Rt0Ya"},
		{false, "gpg: using signing_key 9fceb02d0ae598e95dc970b74767f19372d61af8"},
		// A password that starts with a symbol is no pointer; a key named
		// in another language is still a key.
		{true, "app.mail.password=*Qm7zR2=kT9w?4L^x\n"},
		{false, "password = *cfg.pass;"},
		{false, "token = &session.token_value"},
		{true, "Kennwort: 9Tq!vZ3mLw8#Rp\n"},
		{true, `{"usuario":"m.ruiz","contraseña":"K7^pqWz2!Lm9vRt"}`},
		{true, "пароль = Hq8Lm2Zx7Vb4\n"},
		{true, "senha: Rt5#qLm8Wz2p\n"},
		{true, "设置key=Xk9mP2qL7vR4tN8wZ3cB\n"},
		{true, "Datenbankpasswort=Hq8Lm2!Zx7Vb4\n"},
		// Words of the wallet list under a label say what they are, a
		// word wrong or not; the same words unlabelled need the checksum.
		{true, "Seed words (write down):\nuseful gallery kidney spray toward cotton scheme burden elbow jungle mirror patrol\n"},
		{false, "useful gallery kidney spray toward cotton scheme burden elbow jungle mirror patrol"},
		{true, "nsec: nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5"},
		{false, "the token 3f8e2a1c-4b5d-6e7f-8a9b-0c1d2e3f4a5b expired"},
		{false, "signing key 9fceb02d0ae598e95dc970b74767f19372d61af8 in use"},
		{false, "the secret sauce is patience"},
		{false, "password reset requested for user 42"},
		{false, "key Version2Release3Build4Patch5Final"},
		{false, "token SHA256-Base64Digest-Of-The-File-Content-2024"},
		{false, "integrity sha512-9cRwDpp7nMWl8vn6T5hI+fR0u8vH4bq0LQmZ8X3+YqKc2tXhQ5ZzV1w7mB9aEo2n8N0d5Lk1jH3gF6rT4yU2w=="},
		{false, "  resolved \"https://registry.yarnpkg.com/left-pad/-/left-pad-1.3.0.tgz#5b8a3f1d2c7e9a0b4f6d8c1e3a5b7d9f0e2c4a6b\""},
		{false, "commit 9fceb02d0ae598e95dc970b74767f19372d61af8\nAuthor: Dana <d@example.com>"},
		{false, "request_id=3f8e2a1c-4b5d-6e7f-8a9b-0c1d2e3f4a5b status=200"},
		{false, " id | sha256                                                           \n----+------------------------------------------------------------------\n  1 | 9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0\n"},
		{false, "[DEBUG] Using checksum=9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0 for upload"},
		{false, `"dependencies": {"lodash": {"version": "4.17.21", "integrity": "sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+LFTGHVxVjcXPs17LhbZVGedAJv8XZ1tvj5FvSg=="}}`},
	} {
		got := len(d.Scan(c.text)) > 0
		if got != c.secret {
			t.Errorf("secret=%v, found %v: %.90q", c.secret, got, c.text)
		}
	}
}
