# Noise for the ninth round's blind set: written for this round.
import base64, codecs

def swap(s, every=3):
    """Swap two inner letters of every n-th word longer than four letters."""
    out, n = [], 0
    for w in s.split(" "):
        if len(w) > 4 and w.isalpha():
            n += 1
            if n % every == 0:
                w = w[0] + w[2] + w[1] + w[3:]
        out.append(w)
    return " ".join(out)

def typos(s):
    """A typo in every word longer than four letters (a letter doubled or dropped)."""
    out = []
    for i, w in enumerate(s.split(" ")):
        if len(w) > 4 and w[:-1].isalpha():
            m = len(w) // 2
            w = w[:m] + w[m + 1:] if i % 2 else w[:m] + w[m] + w[m:]
        out.append(w)
    return " ".join(out)

def b64(s):
    return base64.b64encode(s.encode()).decode()

def rot13(s):
    return codecs.encode(s, "rot13")

def hexed(s):
    return s.encode().hex()

def zwj(s):
    """A zero-width joiner inside every word."""
    return " ".join(w[:2] + "\u200d" + w[2:] if len(w) > 3 else w for w in s.split(" "))

HOMO = str.maketrans({"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441"})

def homo(s):
    return s.translate(HOMO)

def wrap(s, width=30, indent=""):
    lines, cur = [], ""
    for w in s.split(" "):
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = cur + " " + w if cur else w
    lines.append(cur)
    return ("\n" + indent).join(lines)

def dashed(s):
    return "-".join(s)
