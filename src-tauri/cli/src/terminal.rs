//! Text that others wrote, made safe to print on a terminal.
//!
//! An answer, a thought, a tool's output, a server's description or an error a provider sent
//! may hold escape sequences: a terminal would act on them (set its title, write the
//! clipboard through OSC 52, show a link that goes elsewhere, move the cursor over what was
//! printed). Ponder's own styling is written separately; what comes from outside is passed
//! through [`inert`] first, which keeps line breaks and tabs and shows every other control
//! character as a visible symbol instead of sending it.

use std::borrow::Cow;

/// `text` with its control characters (C0 but line feed and tab, DEL, C1) shown, not sent:
/// ESC becomes `␛`, the other C0 characters their control pictures (`␇`, `␍`…), DEL `␡`,
/// and C1 characters (`U+009B` starts a sequence as ESC `[` does) `�`. A carriage return
/// before a line feed is dropped, so Windows line ends read as line ends.
pub fn inert(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' if chars.peek() == Some(&'\n') => {}
            c if is_control(c) => out.push(shown_as(c)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

fn is_control(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t'
}

fn shown_as(c: char) -> char {
    match u32::from(c) {
        // The Control Pictures block holds one symbol for each C0 character, in order.
        code @ 0x00..=0x1f => char::from_u32(0x2400 + code).unwrap_or('\u{fffd}'),
        0x7f => '\u{2421}',
        _ => '\u{fffd}',
    }
}

#[cfg(test)]
mod tests {
    use super::inert;

    #[test]
    fn escape_sequences_are_shown_not_sent() {
        let table = [
            (
                "plain text, 日本語 and emoji 🙂\n\tindented",
                "plain text, 日本語 and emoji 🙂\n\tindented",
            ),
            // OSC 52: write "pwned" to the clipboard.
            ("\x1b]52;c;cHduZWQ=\x07", "␛]52;c;cHduZWQ=␇"),
            // OSC 0: the window title; OSC 8: a link whose text lies about its target.
            ("\x1b]0;sudo\x07", "␛]0;sudo␇"),
            (
                "\x1b]8;;https://evil.example\x1b\\docs.rs\x1b]8;;\x1b\\",
                "␛]8;;https://evil.example␛\\docs.rs␛]8;;␛\\",
            ),
            // CSI: clear the screen, move the cursor; the same with the one-character C1 CSI.
            ("\x1b[2J\x1b[1;1H", "␛[2J␛[1;1H"),
            ("\u{9b}2J", "\u{fffd}2J"),
            // A carriage return that would overwrite the line; a Windows line end stays one.
            ("safe\rrm -rf ~", "safe␍rm -rf ~"),
            ("one\r\ntwo", "one\ntwo"),
            ("bell\x07 del\x7f nul\0", "bell␇ del␡ nul␀"),
        ];
        for (text, shown) in table {
            assert_eq!(inert(text), shown, "{text:?}");
            assert!(
                !inert(text)
                    .chars()
                    .any(|c| c.is_control() && c != '\n' && c != '\t')
            );
        }
        assert!(matches!(
            inert("nothing to do"),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}
