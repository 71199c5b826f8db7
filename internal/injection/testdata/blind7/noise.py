# noise helpers shared by the blind and dev set generators (deterministic)
ZW = "\u200b"
def zw(s, every=3):
    """zero-width space inside words every n letters"""
    out, n = [], 0
    for ch in s:
        out.append(ch)
        if ch.isalpha():
            n += 1
            if n % every == 0:
                out.append(ZW)
        else:
            n = 0
    return "".join(out)
HOMO = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "c": "\u0441", "p": "\u0440", "i": "\u0456", "x": "\u0445"}
def homo(s):
    return "".join(HOMO.get(ch, ch) if i % 2 == 0 else ch for i, ch in enumerate(s))
LEET = {"a": "4", "e": "3", "i": "1", "o": "0", "s": "5", "t": "7"}
def leet(s):
    return "".join(LEET.get(ch, ch) if i % 3 != 1 else ch for i, ch in enumerate(s))
def mixcase(s):
    return "".join(ch.upper() if i % 2 else ch.lower() for i, ch in enumerate(s))
def fold(s, width=38, prefix=""):
    words, lines, cur = s.split(" "), [], ""
    for w in words:
        if len(cur) + len(w) + 1 > width and cur:
            lines.append(cur)
            cur = w
        else:
            cur = (cur + " " + w).strip()
    lines.append(cur)
    return ("\n" + prefix).join(lines)
def spaced(s):
    return " ".join(s)
