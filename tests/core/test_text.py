from countermem.core import terminal_safe


def test_terminal_safe_escapes_every_control_character_but_newline_and_tab() -> None:
    text = "clear\x1b[2J title\x1b]0;owned\x07 back\rover\x08 c1\x9b2J nul\x00 del\x7f\nnext\tcol"
    safe = terminal_safe(text)
    assert all(ch in "\n\t" or (ord(ch) >= 0x20 and not 0x7F <= ord(ch) <= 0x9F) for ch in safe)
    assert "\\x1b[2J" in safe and "\\x1b]0;owned\\x07" in safe and "back\\x0dover" in safe
    assert "\\x9b2J" in safe and "\\x00" in safe and "\\x7f" in safe and "\\x08" in safe
    assert "\nnext\tcol" in safe


def test_terminal_safe_escapes_lone_surrogates_and_bidi_overrides_and_keeps_other_text() -> None:
    assert terminal_safe("a\ud800b") == "a\\ud800b"
    assert terminal_safe("x\u202ey") == "x\\u202ey"
    plain = "SELECT count(*) FROM users  -- ünïcødé, 漢字, emoji 🙂"
    assert terminal_safe(plain) == plain
    terminal_safe("a\ud800b").encode("utf-8")
