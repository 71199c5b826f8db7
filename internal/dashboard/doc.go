// Package dashboard serves flowd's web dashboard on a loopback TCP
// listener: the embedded page and an allow-listed subset of flowd's API,
// behind the defences a local web server needs, because any web page the
// user visits can make the browser send requests to 127.0.0.1.
//
//   - A browser gets in only with a one-time code minted over flowd's
//     socket (flowd ui), which it trades for an HttpOnly SameSite=Strict
//     session cookie; the session carries the socket peer that minted it,
//     so the API answers exactly what that user would see on the socket.
//   - Host must name the listener (127.0.0.1:PORT or localhost:PORT), so a
//     DNS rebinding attacker's name is refused; an Origin, when sent, must
//     be one of those too, and no CORS header is ever sent.
//   - Every state change needs the session's CSRF token in a header and a
//     same-origin Origin; releasing and approving still need the approval
//     passphrase, typed by the user.
//   - A strict Content-Security-Policy (no inline script), no framing.
package dashboard
